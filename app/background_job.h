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

class QThreadPool;

namespace background {

// The pool background jobs run on (as many threads as cores). Waiting for it is what quitting
// does once every job has been told to give up.
QThreadPool &pool();
// Lowers the calling thread's priority (nice 5), once per thread; a no-op off Linux.
void lowerThisThread();
// Runs `job` on pool(), at that priority.
void start(std::function<void()> job);

} // namespace background
