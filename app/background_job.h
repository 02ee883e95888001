// SPDX-License-Identifier: GPL-3.0-or-later
// Work the window does not wait on (indexing a run, a seek's replay, parsing a buffer, laying
// out a graph, freeing an old run, a real kernel's replay) runs on a pool of its own, on
// threads below the GUI thread's priority.
//
// A pool of its own: Qt 6.4's raster paint engine splits a large fill or image conversion
// into tasks on QThreadPool::globalInstance() and waits for them on the GUI thread
// (QSemaphore::acquire under QRasterPaintEngine::fill). Were the indexer and a seek on that
// pool, a repaint would wait, with no CPU used, until one of them finished.
//
// Below the GUI thread: on two cores the indexer, a seek and a parse can all want a core at
// once. Qt's thread priorities change nothing under Linux's default scheduler (SCHED_OTHER has
// one static priority), so the thread's nice value is what is lowered: the scheduler then
// gives the GUI thread three times a worker's share whenever both want the same core, and a
// worker still has an idle core to itself. (The checkpoint store's compressor, less urgent
// still, runs at nice 10: checkpoint_store.cpp.)
#pragma once

#include <functional>
#include <mutex>

class QThreadPool;

namespace background {

// The pool background jobs run on (as many threads as cores). Waiting for it is what quitting
// does once every job has been told to give up.
QThreadPool &pool();
// Lowers the calling thread's priority (nice 5), once per thread; a no-op off Linux.
void lowerThisThread();
// Runs `job` on pool(), at that priority.
void start(std::function<void()> job);

// Handing work or a result to another thread through Qt (QThreadPool::start, a queued
// invokeMethod) is synchronised by Qt's own futex-based locks, which ThreadSanitizer cannot see
// in a Qt not built with it: every closure handed over would be reported as a race, and a real
// race inside a job would drown among them. So each hand-over also goes through a lock TSan
// sees: the sender posts while holding it, and the receiver takes it before it reads anything
// handed over. Uncontended, it costs a lock per job and per result.
std::mutex &handOffLock();
// Posts, with the hand-off lock held (post must only post, never wait for the receiver).
template <class Post>
void handOver(Post &&post)
{
    std::lock_guard<std::mutex> posting(handOffLock());
    post();
}
// Called by the receiver before it touches what was handed over.
void takeHandOff();

} // namespace background
