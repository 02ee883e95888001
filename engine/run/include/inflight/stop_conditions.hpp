// SPDX-License-Identifier: GPL-3.0-or-later
// Everything that stops a run — line breakpoints (conditional or not), event breakpoints and
// watchpoints — as one value that can be copied and evaluated on any run of the scene: a
// forward continue, and a reverse search that replays the segments between checkpoints.
#pragma once

#include "inflight/event_breakpoints.hpp"
#include "inflight/line_breakpoint.hpp"
#include "inflight/watch.hpp"

#include <optional>
#include <string>
#include <vector>

namespace inflight {

class Kernel;
struct Event;

struct StopConditions {
    std::vector<LineBreakpoint> lines;
    EventBreakpointSet events;
    std::vector<Watchpoint> watches;

    // The state a scan starts from: watches compare the next step against it.
    void start(const Kernel &k);
    // After a step (e, and k the state after it): why it stops there, if it does. Every
    // watch moves on to this state whichever condition reports the stop.
    std::optional<std::string> check(const Event &e, const Kernel &k);
};

} // namespace inflight
