// SPDX-License-Identifier: GPL-3.0-or-later
// Checkpoints of one run: copies of the whole model state taken at quiescent points, so that any
// step is reached by restoring the nearest checkpoint at or before it and replaying at most the
// distance to it (rr's approach, with copies of a value instead of forked processes).
//
// Placement: a checkpoint is due every `interval` micro-steps of work (kernel micro-steps,
// absorbed ones included: that is what replay costs). Memory: within `budget` bytes (less for a
// state larger than a quarter of it: room()); when full, the store thins itself so that
// checkpoints stay dense around the present (the position the user is at, or the recorder's
// frontier) and grow sparser with distance from it, O(log L) of them for a run of L
// micro-steps, as rr keeps them. The state at step 0 is never dropped.
//
// Thread-safe: the recorder adds from a worker thread while the player restores on another.
// A checkpoint is immutable once added; restoring copies it. Of a checkpoint's cost, packing
// the state happens in add() (it needs the running state); compressing it happens on the
// store's own thread, which then swaps the packed form for the compressed one: the recorder
// goes on meanwhile, and a seek can restore from the packed form at once.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace inflight {

class Simulation;

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
    // 2^21 micro-steps are about 0.2 s of replay: a jump costs a restore (a few tens of ms for
    // 64,000 sockets) and at most that. Frozen checkpoints of such a state take ~2-4 MB, so the
    // budget holds ~100 of them before thinning starts.
    static constexpr std::uint64_t kDefaultInterval = std::uint64_t(1) << 21;

    explicit CheckpointStore(std::size_t budget = kDefaultBudget, std::uint64_t interval = kDefaultInterval);
    CheckpointStore(const CheckpointStore &) = delete;
    CheckpointStore &operator=(const CheckpointStore &) = delete;
    ~CheckpointStore(); // drops checkpoints still being compressed (at most one is waited for)

    // Whether a checkpoint is wanted for a state at `step` after `work` micro-steps: no stored
    // one lies within `interval` of work on either side — more for a state whose copy is a
    // large share of the budget (freezing costs in proportion to the live state), and more far
    // from the present, where the budget keeps only as many as fit (frozen sizes). The last
    // checkpoint's two sizes stand for the next one's.
    bool due(std::uint64_t step, std::uint64_t work) const;
    // Stores a copy of sim, which must be quiescent (Simulation::quiescent()): packed here,
    // compressed by the store's thread soon after (flush() waits for that).
    void add(const Simulation &sim);
    // The tail of a recorded run (its end, and the last quiescent point before it): kept
    // whatever the spacing and never thinned, since that is where a user lands with "last"
    // and starts stepping back from. Does nothing if sim is not quiescent (a run stopped by a
    // finding) or its step is stored already.
    void add_tail(const Simulation &sim);
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
    // Freeing 64,000 sockets' objects was a quarter of a step back's time. One waits there at
    // most, so that a burst of seeks on a million-socket state does not pile up 190 MB states:
    // when one is already waiting, `old` comes back untouched and the caller frees it where
    // nobody waits for it (never on a GUI thread: that was a 0.3 s freeze).
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
    // The bytes checkpoints may take: the budget, less what a live state larger than a quarter
    // of it takes beyond that quarter (with m_ held). Whoever holds this store holds a live copy
    // of the state too, and usually views of it: on the million-socket scene (a 190 MB state)
    // the app's memory at rest is the live state plus the checkpoints plus its snapshots, and
    // with the whole budget for checkpoints it read 841-846 MB in some runs (goal: 800 MB). A
    // small state (the 32,000-in-flight scene's ~20 MB) keeps the whole budget.
    std::size_t room() const;
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
    // Freezing is real time, and work is not always replay time (a bulk skip of autobind
    // probes counts millions of micro-steps that cost a loop): checkpoints may take at most
    // kFreezeShare of the time since the store was made, whatever the scene's shape.
    static constexpr double kFreezeShare = 0.15;
    const std::chrono::steady_clock::time_point created_ = std::chrono::steady_clock::now();
    std::chrono::steady_clock::duration freezing_{};
    std::size_t last_live_bytes_ = 0;   // the newest checkpoint's state, live (its copy's cost)
    std::size_t last_frozen_bytes_ = 0; // the same, frozen (what it takes in the store)
    bool full_ = false;                 // thin() could not bring it within room()
    CheckpointStats stats_;
};

// The memory a copy of this state takes, estimated from its object counts (for the budget).
std::size_t state_bytes(const Simulation &sim);

} // namespace inflight
