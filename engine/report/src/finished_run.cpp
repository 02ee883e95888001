// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/finished_run.hpp"

#include "inflight/run_summary.hpp"

namespace inflight {

FinishedRun FinishedRun::of(const Simulation &sim)
{
    return FinishedRun{RunNames::of(sim.kernel()), sim.expectations(), sim.tasks(), sim.concurrent(),
                       narrate_run_end(sim)};
}

} // namespace inflight
