// SPDX-License-Identifier: GPL-3.0-or-later
// Plain-words text for events: one line for the trace, and a sentence or two a teacher can read
// aloud for the current micro-step.
#pragma once

#include "inflight/event.hpp"

#include <string>

namespace inflight {

class Kernel;

// Objects and values, compact: "b inflight 1 -> 2 (gc_inflight_list)".
std::string describe(const Event &e, const Kernel &k);
// The narration: what happened and why it matters to the collector.
std::string narrate(const Event &e, const Kernel &k);

} // namespace inflight
