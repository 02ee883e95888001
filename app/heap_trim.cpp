// SPDX-License-Identifier: GPL-3.0-or-later
#include "heap_trim.h"

#include "background_job.h"

#include "inflight/process_heap.hpp"

namespace {
constexpr int kIdleMs = 1000;
}

IdleHeapTrim::IdleHeapTrim(QObject *parent) : QObject(parent)
{
    idle_.setSingleShot(true);
    idle_.setInterval(kIdleMs);
    connect(&idle_, &QTimer::timeout, this, [] { background::start([] { inflight::trim_idle_heap(); }); });
}

void IdleHeapTrim::poke() { idle_.start(); }
