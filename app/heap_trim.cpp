// SPDX-License-Identifier: GPL-3.0-or-later
#include "heap_trim.h"

#include "background_job.h"

#include "inflight/recycled_blocks.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {
constexpr int kIdleMs = 1000;
}

IdleHeapTrim::IdleHeapTrim(QObject *parent) : QObject(parent)
{
    idle_.setSingleShot(true);
    idle_.setInterval(kIdleMs);
    connect(&idle_, &QTimer::timeout, this, [] { background::start([] { trimNow(); }); });
}

void IdleHeapTrim::poke() { idle_.start(); }

void IdleHeapTrim::trimNow()
{
    // The blocks kept for the next restore go first: a burst of steps back is over.
    inflight::release_recycled_blocks();
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
