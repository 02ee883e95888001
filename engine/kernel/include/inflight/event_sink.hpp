// SPDX-License-Identifier: GPL-3.0-or-later
// The driver's side of a kernel code path (Proc, proc.hpp): public because the Simulation, whose
// header the views include, is one, while the coroutine machinery stays internal.
#pragma once

#include "inflight/event.hpp"

namespace inflight {

// Sees every event a Proc yields, before the driver does. The Simulation uses it to advance the
// modelled clock by each micro-step's cost, and, when fast-forwarding, to absorb the events it
// does not need: an absorbed event does not suspend the coroutine at all, so a collection over
// 32,000 sockets costs a loop, not 32,000 round trips through the driver.
class EventSink {
public:
    virtual ~EventSink() = default;
    // Returns true to absorb the event (the path continues without stopping).
    virtual bool absorb(const Event &e) = 0;
};

} // namespace inflight
