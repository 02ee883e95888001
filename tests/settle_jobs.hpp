// SPDX-License-Identifier: GPL-3.0-or-later
// GUI suites: waits until every background job has ended and every result it posted has been
// delivered (or dropped), so that a stale result would have arrived by then. A result whose
// delivery starts another job is followed too, as long as that job is still running when the
// pool is looked at again.
#pragma once

#include "background_job.h"

#include <QCoreApplication>
#include <QThreadPool>

namespace inflight::test {

inline void settleJobs()
{
    do {
        background::pool().waitForDone();
        QCoreApplication::processEvents();
    } while (background::pool().activeThreadCount() > 0);
}

} // namespace inflight::test
