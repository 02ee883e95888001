// SPDX-License-Identifier: GPL-3.0-or-later
// Where the running collection is: the views colour roles and label the lists dock by it
// (StepSnapshot::gc_phase); the kernel model sets it as its collector moves (Kernel::gc_phase).
#pragma once

#include <cstdint>
#include <string_view>

namespace inflight {

enum class GcPhase : std::uint8_t { none, select, decrement, restore, hitlist, purge, walk, fast_walk };
std::string_view gc_phase_name(GcPhase p); // "none", "select", ... "fast_walk"

} // namespace inflight
