// SPDX-License-Identifier: GPL-3.0-or-later
// Checkpoints of one run: copies of the whole model state taken at quiescent points, so that any
// step is reached by restoring the nearest checkpoint at or before it and replaying at most the
// distance to it (rr's approach, with copies of a value instead of forked processes).
//
// Spacing and seek costs follow one cost model, measured as the store runs: replaying costs ns
// per micro-step, packing and restoring a state ns per byte of it. A checkpoint is due once
// packing it costs at most kPackShare of the replay since the last one, or once that replay
// takes kLongestSeekReplay (and at least `interval` micro-steps of work apart); within `budget`
// bytes the store thins itself so that checkpoints stay dense around the present and sparser
// with distance from it, O(log L) of them for a run of L micro-steps, as rr keeps them. The state at step 0 is never dropped.
//
// Thread-safe: the recorder adds from a worker thread while the player restores on another. A
// checkpoint is immutable once added; packing happens in add(), compressing on the store's own
// thread, and a seek may restore from the packed form meanwhile.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace inflight {

class Simulation;

// Which checkpoints the tail of a finished run gets (CheckpointStore::tail_plan()): the quiescent
// ends of its last statements and the end itself, each at least `spacing` micro-steps of work past
// the checkpoint before it.
struct TailPlan {
    std::uint64_t statements = 0; // the window: this many last statements
    std::uint64_t spacing = 1;
    bool one_at_a_time = false; // wait for each copy's compression before packing the next
};

// The cost model's rates: measured as the store runs, priors until it has measured.
struct CostRates {
    double replay_ns_per_step = 0; // replaying the scene, events included
    double pack_ns_per_byte = 0;   // packing a checkpoint, per byte of the live state
    double restore_ns_per_byte = 0;
};

struct CheckpointStats {
    std::size_t count = 0;
    std::size_t bytes = 0;
    std::size_t taken = 0;   // ever added
    std::size_t thinned = 0; // dropped to stay within the budget
    double packing_ms = 0;   // time the adding thread spent packing (the recorder's share)
};

class CheckpointStore {
public:
    static constexpr std::size_t kDefaultBudget = std::size_t(256) << 20;
    // The finest spacing, in micro-steps of work: a jump then replays a fraction of a second.
    static constexpr std::uint64_t kDefaultInterval = std::uint64_t(1) << 21;

    explicit CheckpointStore(std::size_t budget = kDefaultBudget, std::uint64_t interval = kDefaultInterval);
    CheckpointStore(const CheckpointStore &) = delete;
    CheckpointStore &operator=(const CheckpointStore &) = delete;
    ~CheckpointStore(); // drops checkpoints still being compressed (at most one is waited for)

    // Whether a checkpoint is wanted for a state at `step` after `work` micro-steps: no stored
    // one lies within spacing() of work on either side, nor, far from the present, closer than
    // the thinning would keep. The last checkpoint's sizes stand for the next one's.
    bool due(std::uint64_t step, std::uint64_t work) const;
    // The share of the recorder's time packing may take. Opening a scene is the wait every user
    // has, while a seek replays at most one spacing: checkpoints as dense as the pay-back would
    // have them (a pack for each pay_back_steps()) double the recorder's time.
    static constexpr double kPackShare = 0.15;
    // The longest replay that share may leave a seek: half the jump goal (200 ms), the other
    // half for the restore and the views.
    static constexpr std::chrono::milliseconds kLongestSeekReplay{100};
    // Micro-steps of work between two checkpoints: those whose replay costs 1/kPackShare times
    // packing a state of `live_bytes`, but no more than replay in kLongestSeekReplay; never
    // fewer than pay back a copy (pay_back_steps()), nor than `interval`.
    std::uint64_t spacing(std::size_t live_bytes) const;
    // The micro-steps whose replay costs as much as packing a state of `live_bytes`: a checkpoint
    // nearer than this to the one before it costs more to take than the replay it saves.
    std::uint64_t pay_back_steps(std::size_t live_bytes) const;
    CostRates rates() const;
    // What reaching `to` from the position `from` costs: a restore, if the seek takes one, and
    // the replay from wherever it starts.
    std::chrono::nanoseconds estimated_seek_cost(std::uint64_t from, std::uint64_t to) const;
    // What replaying `steps` micro-steps costs at the measured rate (a re-run from step 0).
    std::chrono::nanoseconds estimated_replay_cost(std::uint64_t steps) const;
    // Measurements the player reports, which refine the model.
    void note_replay(std::uint64_t steps, std::chrono::steady_clock::duration took);
    void note_restore(std::size_t live_bytes, std::chrono::steady_clock::duration took);
    // A packing measured elsewhere (add() measures its own).
    void note_pack(std::size_t live_bytes, std::chrono::steady_clock::duration took);
    // Stores a copy of sim, which must be quiescent (Simulation::quiescent()): packed here,
    // compressed by the store's thread soon after (flush() waits for that).
    void add(const Simulation &sim);
    // The tail of a recorded run (its end, and the statement ends before it): kept whatever the
    // spacing and never thinned, since that is where a user lands with "last" and starts
    // stepping back from. Does nothing if sim is not quiescent (a run stopped by a finding) or
    // its step is stored already.
    void add_tail(const Simulation &sim);
    // How many steps back a user takes from the end of a run: each one that lands past a tail
    // checkpoint replays from it, so a tail checkpoint is used about this often.
    static constexpr std::uint64_t kStepsBackFromEnd = 10;
    // The tail a finished state of `live_bytes` gets: a tail checkpoint pays back once the
    // replay it saves over kStepsBackFromEnd steps back costs more than packing it, so a small
    // state gets every statement end of the window and a large one only those a long replay
    // apart; a state large beside the budget is packed one copy at a time.
    TailPlan tail_plan(std::size_t live_bytes) const;
    // Whether a state of `live_bytes` is large beside the budget: more than a quarter of it,
    // the share a live copy may take before it shrinks the checkpoints' room (room()).
    bool large_state(std::size_t live_bytes) const { return live_bytes > budget_ / 4; }
    // The last step of the finished run (checkpoint_tail() says it). The state there is not
    // the run's end until one more step finds nothing left and runs the end-of-run checks
    // (Simulation::finish_run()); a seek that lands on it takes that step too.
    void set_end(std::uint64_t step);
    std::optional<std::uint64_t> end() const;
    // Waits until every checkpoint added so far is stored.
    void flush() const;
    // What the recorder and the player ask at each statement end: stores a copy of sim if one
    // is due there and sim is quiescent; the player's (move_present) also becomes the present.
    // Returns whether it did.
    bool offer(const Simulation &sim, bool move_present = false);
    // The latest checkpoint at or before `step`, compressed or still in its packed form (null
    // only if the store is empty). Never waits for the store's thread.
    std::shared_ptr<const Simulation> at_or_before(std::uint64_t step) const;
    // Thinning keeps checkpoints dense around this step.
    void set_present(std::uint64_t step);
    // A state the player has left (a seek restored another): destroyed on the store's thread.
    // Freeing a large state's objects is a large share of a step back, so nobody waits for it.
    // One waits there at most, so that a burst of seeks on a million-socket state does not pile
    // up whole states: when one is already waiting, `old` comes back untouched and the caller
    // frees it where nobody waits for it (never on a GUI thread, which would freeze).
    [[nodiscard]] std::unique_ptr<Simulation> retire(std::unique_ptr<Simulation> old);
    // Whether the checkpoints thinning may not drop (step 0, the tail's, the newest) take all
    // of its room: then no more spaced ones are due (due() says no).
    bool full() const;
    std::uint64_t interval() const { return interval_; }
    std::size_t budget() const { return budget_; }
    CheckpointStats stats() const; // after flush(): every checkpoint added so far counts

private:
    struct Entry {
        std::uint64_t step = 0;
        std::uint64_t work = 0;
        std::size_t bytes = 0;
        std::shared_ptr<const Simulation> sim;
        bool tail = false; // add_tail(): never thinned
    };
    void thin(); // with m_ held
    // The bytes checkpoints may take (with m_ held): the budget, less what a live state larger
    // than a quarter of it takes beyond that quarter, since whoever holds this store holds a live
    // copy of the state too, and views of it.
    std::size_t room() const;
    std::uint64_t spacing_locked(std::size_t live_bytes) const;
    std::uint64_t pay_back_steps_locked(std::size_t live_bytes) const;
    CostRates rates_locked() const;
    void store(Entry e); // with m_ held
    void add_packed(const Simulation &sim, bool tail);
    void compress_loop(); // the store's thread: destroys retired states, compresses pending ones
    bool near_one(const std::vector<Entry> &entries, std::uint64_t step, std::uint64_t work,
                  std::uint64_t spacing) const; // with m_ held

    const std::size_t budget_;
    const std::uint64_t interval_;
    mutable std::mutex m_;
    std::vector<Entry> entries_; // by step
    // Packed, waiting for the store's thread to compress it: at most one (due() says no
    // meanwhile; add_end() may add a second), so a store holds at most three uncompressed
    // states. The one being compressed stays in compressing_ until its compressed form is
    // stored. Both serve at_or_before() in their packed form.
    std::deque<Entry> pending_;
    std::vector<Entry> compressing_;
    std::vector<std::unique_ptr<Simulation>> retired_; // retire(): for the thread to destroy
    std::condition_variable work_;
    mutable std::condition_variable done_;
    bool stopping_ = false;
    std::thread compressor_; // started by the first add()
    std::uint64_t present_work_ = 0;
    std::optional<std::uint64_t> end_;
    // The model's measurements (totals; a rate is total time over total amount). Work is not
    // replay time at a fixed rate (a bulk skip of autobind probes counts millions of micro-steps
    // that cost a loop), so replay is measured per scene: by the recorder between offers, and by
    // the player's replays.
    double replay_ns_ = 0, replay_steps_ = 0;
    double packed_ns_ = 0, packed_bytes_ = 0;
    double restored_ns_ = 0, restored_bytes_ = 0;
    std::chrono::steady_clock::time_point last_offer_at_{};
    std::uint64_t last_offer_work_ = 0;
    std::chrono::steady_clock::duration freezing_{};
    std::size_t last_live_bytes_ = 0;   // the newest checkpoint's state, live (its copy's cost)
    std::size_t last_frozen_bytes_ = 0; // the same, frozen (what it takes in the store)
    bool full_ = false;                 // thin() could not bring it within room()
    CheckpointStats stats_;
};

// The memory a copy of this state takes, estimated from its object counts (for the budget).
std::size_t state_bytes(const Simulation &sim);

} // namespace inflight
