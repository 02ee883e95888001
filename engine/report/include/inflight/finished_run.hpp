// SPDX-License-Identifier: GPL-3.0-or-later
// What the views keep of a finished run once its state is gone: the names of everything it
// made (RunNames), its expectations' outcomes, its tasks, and how it ended, told in words.
// Not the finished Simulation: on the large scenes that is the whole model state, kept for its names.
#pragma once

#include "inflight/run_names.hpp"
#include "inflight/simulation.hpp"

#include <string>
#include <vector>

namespace inflight {

struct FinishedRun {
    RunNames names;
    std::vector<ExpectationOutcome> expectations;
    std::vector<TaskInfo> tasks;
    bool concurrent = false; // Simulation::concurrent(): tasks on several CPUs
    std::string ending;      // narrate_run_end()

    static FinishedRun of(const Simulation &sim);
};

} // namespace inflight
