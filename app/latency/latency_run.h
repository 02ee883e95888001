// SPDX-License-Identifier: GPL-3.0-or-later
// One run's timed calls and the names their groups are called by: what the index's recorder
// pass hands the latency panel. Shared, never copied: the million-bind scene has a million
// samples.
#pragma once

#include "inflight/latency.hpp"

#include <string>
#include <vector>

namespace latency {

struct LatencyRun {
    inflight::LatencyLog samples;
    std::vector<inflight::TaskInfo> tasks;
    std::vector<std::string> user_names; // by Kernel::users index
};

} // namespace latency
