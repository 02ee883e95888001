// A Simulation that can also go backwards. The model is deterministic, so the state at step N
// is reached exactly by replaying N steps from the start without recording; replay runs at
// millions of steps per second, so jumping to step 100,000 costs milliseconds. (Coroutine
// frames cannot be copied, which is why this replays rather than restoring snapshots.)
#pragma once

#include "inflight/simulation.hpp"

#include <cstdint>
#include <memory>

namespace inflight {

class Player {
public:
    Player(std::shared_ptr<const Scene> scene, SimulationOptions options = {});

    const Simulation &sim() const { return *sim_; }
    std::uint64_t position() const { return sim_->steps(); }
    bool at_end() const { return sim_->finished(); }

    bool step_into() { return sim_->step() != nullptr; }
    bool step_over() { return sim_->step_over(); }
    bool step_out() { return sim_->step_out(); }
    // One micro-step back (false at step 0).
    bool back();
    // Goes to exactly `step` (clamped to the end of the run).
    void seek(std::uint64_t step);
    // Back to the start of the statement that contains the current step.
    void back_statement();
    // The number of micro-steps of the whole run (computed once, by a run to the end).
    std::uint64_t total_steps();

private:
    std::unique_ptr<Simulation> fresh() const;

    std::shared_ptr<const Scene> scene_;
    SimulationOptions options_;
    std::unique_ptr<Simulation> sim_;
    std::int64_t total_ = -1;
};

} // namespace inflight
