// SPDX-License-Identifier: GPL-3.0-or-later
// A Simulation that can also go backwards, to any step in time bounded by the checkpoint
// spacing rather than by the length of the run. The model is deterministic, so the state at
// step N is the state of the nearest checkpoint at or before N (CheckpointStore) replayed to N;
// replay absorbs every micro-step but the last (Simulation::advance_to()), and the player
// takes checkpoints of its own as it passes quiescent points, so going back near where it has
// been is cheap.
#pragma once

#include "inflight/checkpoint_store.hpp"
#include "inflight/simulation.hpp"
#include "inflight/stop_conditions.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

namespace inflight {

struct StopHit {
    std::uint64_t step = 0;
    std::string why;
};

// The last step before `before` at which `stops` fires, found from a run's checkpoints alone
// (so a worker thread can search while the player stays where it is).
std::optional<StopHit> find_previous(const CheckpointStore &store, std::uint64_t before, const StopConditions &stops,
                                     const std::atomic<bool> *cancel = nullptr);

class Player {
public:
    // store: shared with the recorder of the same run (same scene and options), or null for a
    // store of its own.
    Player(std::shared_ptr<const Scene> scene, SimulationOptions options = {},
           std::shared_ptr<CheckpointStore> store = nullptr);

    const Simulation &sim() const { return *sim_; }
    // Gives up the state (to be freed elsewhere, CheckpointStore::retire()); the player is
    // then only fit to be destroyed.
    std::unique_ptr<Simulation> release_sim() { return std::move(sim_); }
    std::uint64_t position() const { return sim_->steps(); }
    bool at_end() const { return sim_->finished(); }
    bool step_into();
    bool step_over();
    bool step_out();
    bool step_out_function();
    // One micro-step back (false at step 0).
    bool back();
    // Goes to exactly `step` (clamped to the end of the run). With a cancel flag, gives up at
    // the next statement boundary once it is set (the position is then somewhere on the way)
    // and returns false.
    bool seek(std::uint64_t step, const std::atomic<bool> *cancel = nullptr);
    // Back to the start of the statement that contains the current step.
    void back_statement();
    // Reverse-continue: the last step before the current one at which `stops` fires, with
    // why. Scans the segments between checkpoints forwards, newest first, so it costs the
    // replay of the segments it looks at. Does not move the player. nullopt: none (or
    // cancelled).
    std::optional<StopHit> find_previous(const StopConditions &stops, const std::atomic<bool> *cancel = nullptr) const;
    // The number of micro-steps of the whole run (computed once, by a run to the end).
    std::uint64_t total_steps();
    CheckpointStore &checkpoints() { return *store_; }
    const std::shared_ptr<CheckpointStore> &checkpoint_store() const { return store_; }
    const SimulationOptions &options() const { return options_; }

private:
    // Takes a checkpoint if this is a quiescent point and one is due (every step ends a
    // statement at most once, so this is cheap to ask after each).
    void offer_checkpoint();
    // Forward to `step`, offering checkpoints at every statement end on the way.
    bool advance(std::uint64_t step, const std::atomic<bool> *cancel);
    // Replaces the state with a copy of a checkpoint.
    void restore(const Simulation &checkpoint);

    std::shared_ptr<const Scene> scene_;
    SimulationOptions options_;
    std::shared_ptr<CheckpointStore> store_;
    std::unique_ptr<Simulation> sim_;
    std::int64_t total_ = -1;
};

// Checkpoints the tail of a finished run as the store's tail_plan() says: the user lands at the
// end with "last" and steps back from there, so the end and the quiescent ends of its last
// statements bound a step back's replay.
void checkpoint_tail(const Simulation &end, CheckpointStore &store, const std::atomic<bool> &cancel);

// What ended a recording (record_run()).
enum class RecordEnd {
    finished,  // the run's own end (a run budget of the scene's included: Simulation::limit_reached())
    cancelled, // the cancel flag
    time,      // RecordLimits::time passed
    caller,    // on_event asked to stop (the caller's own budget: the memory its copy of the events takes)
};

// The recorder's budgets over the run's own (which the Simulation enforces).
struct RecordLimits {
    std::chrono::steady_clock::duration time = std::chrono::steady_clock::duration::max();
};

// Records a whole run once, off the GUI thread: steps it to the end, hands every event to
// on_event, and fills the store with checkpoints as it goes, the end of what ran included.
// on_event may return bool: false ends the recording there (RecordEnd::caller). The cancel flag
// and the time budget are checked at every statement end and every 2^16 steps.
template <class OnEvent>
RecordEnd record_run(Simulation &sim, CheckpointStore &store, OnEvent &&on_event, const std::atomic<bool> &cancel,
                     const RecordLimits &limits = {})
{
    using Clock = std::chrono::steady_clock;
    const bool timed = limits.time != Clock::duration::max();
    const Clock::time_point deadline = timed ? Clock::now() + limits.time : Clock::time_point::max();
    auto out_of_time = [&] { return timed && Clock::now() >= deadline; };
    std::uint32_t tick = 0;
    RecordEnd end = RecordEnd::finished;
    while (const Event *e = sim.step()) {
        if constexpr (std::is_same_v<decltype(on_event(*e)), bool>) {
            if (!on_event(*e)) {
                end = RecordEnd::caller;
                break;
            }
        } else {
            on_event(*e);
        }
        if (e->kind == EventKind::stmt_end) {
            if (cancel.load(std::memory_order_relaxed))
                return RecordEnd::cancelled;
            // The present stays where the player is (it sets it): the recorder's checkpoints
            // thin out with distance from there.
            store.offer(sim);
        }
        if (++tick == (1u << 16) || (timed && e->kind == EventKind::stmt_end && (tick & 255) == 0)) {
            if (tick == (1u << 16))
                tick = 0;
            if (cancel.load(std::memory_order_relaxed))
                return RecordEnd::cancelled;
            if (out_of_time()) {
                end = RecordEnd::time;
                break;
            }
        }
    }
    checkpoint_tail(sim, store, cancel);
    return cancel.load(std::memory_order_relaxed) ? RecordEnd::cancelled : end;
}

} // namespace inflight
