// SPDX-License-Identifier: GPL-3.0-or-later
#include "background_job.h"

#include <QThreadPool>

#if defined(__linux__)
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace background {

void lowerThisThread()
{
#if defined(__linux__)
    // Linux keeps a nice value per thread (the tid is a PRIO_PROCESS target); pool threads are
    // reused, so this runs once in each. It cannot be raised back without privileges, which is
    // fine: these threads only ever run background work.
    thread_local bool lowered = false;
    if (!lowered) {
        lowered = true;
        constexpr int kNice = 5;
        const int tid = static_cast<int>(::gettid());
        if (::getpriority(PRIO_PROCESS, static_cast<id_t>(tid)) < kNice)
            ::setpriority(PRIO_PROCESS, static_cast<id_t>(tid), kNice);
    }
#endif
}

QThreadPool &pool()
{
    static QThreadPool jobs;
    return jobs;
}

std::mutex &handOffLock()
{
    static std::mutex lock;
    return lock;
}

void takeHandOff()
{
    // Taking the lock after the sender released it is the edge: everything the sender wrote
    // before posting happens-before what this thread reads next.
    std::lock_guard<std::mutex> taken(handOffLock());
}

void start(std::function<void()> job)
{
    handOver([&] {
        pool().start([job = std::move(job)] {
            takeHandOff();
            lowerThisThread();
            job();
        });
    });
}

} // namespace background
