// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/checkpoint_store.hpp"

#include "inflight/kernel.hpp"
#include "inflight/simulation.hpp"

#include <algorithm>
#include <exception>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif
#include <limits>

namespace inflight {

CheckpointStore::CheckpointStore(std::size_t budget, std::uint64_t interval)
    : budget_(budget), interval_(std::max<std::uint64_t>(1, interval))
{ }

CheckpointStore::~CheckpointStore()
{
    std::vector<std::unique_ptr<Simulation>> retired;
    {
        std::lock_guard lock(m_);
        stopping_ = true;
        pending_.clear();
        retired.swap(retired_);
    }
    work_.notify_all();
    if (compressor_.joinable())
        compressor_.join();
}

bool CheckpointStore::near_one(const std::vector<Entry> &entries, std::uint64_t step, std::uint64_t work,
                               std::uint64_t spacing) const
{
    auto it = std::lower_bound(entries.begin(), entries.end(), step,
                               [](const Entry &e, std::uint64_t s) { return e.step < s; });
    if (it != entries.end() && (it->step == step || it->work - work < spacing))
        return true;
    return it != entries.begin() && work - std::prev(it)->work < spacing;
}

namespace {

// Until the store has measured its scene: a replay rate and copy costs of a mid-sized state.
constexpr double kPriorReplayNsPerStep = 100;
constexpr double kPriorPackNsPerByte = 1;
constexpr double kPriorRestoreNsPerByte = 2;

double rate(double ns, double amount, double prior) { return amount > 0 ? ns / amount : prior; }

} // namespace

CostRates CheckpointStore::rates_locked() const
{
    return {rate(replay_ns_, replay_steps_, kPriorReplayNsPerStep),
            rate(packed_ns_, packed_bytes_, kPriorPackNsPerByte),
            rate(restored_ns_, restored_bytes_, kPriorRestoreNsPerByte)};
}

CostRates CheckpointStore::rates() const
{
    std::lock_guard lock(m_);
    return rates_locked();
}

std::uint64_t CheckpointStore::pay_back_steps_locked(std::size_t live_bytes) const
{
    const CostRates r = rates_locked();
    const double steps = r.pack_ns_per_byte * static_cast<double>(live_bytes) / r.replay_ns_per_step;
    return static_cast<std::uint64_t>(std::min(steps, 1e18));
}

std::uint64_t CheckpointStore::pay_back_steps(std::size_t live_bytes) const
{
    std::lock_guard lock(m_);
    return pay_back_steps_locked(live_bytes);
}

std::uint64_t CheckpointStore::spacing_locked(std::size_t live_bytes) const
{
    const double pay_back = static_cast<double>(pay_back_steps_locked(live_bytes));
    const double longest_replay =
        static_cast<double>(std::chrono::nanoseconds(kLongestSeekReplay).count()) / rates_locked().replay_ns_per_step;
    const double steps = std::max(pay_back, std::min(pay_back / kPackShare, longest_replay));
    return std::max(interval_, static_cast<std::uint64_t>(std::min(steps, 1e18)));
}

std::uint64_t CheckpointStore::spacing(std::size_t live_bytes) const
{
    std::lock_guard lock(m_);
    return spacing_locked(live_bytes);
}

bool CheckpointStore::due(std::uint64_t step, std::uint64_t work) const
{
    std::lock_guard lock(m_);
    // Its undroppable checkpoints (step 0, the tail, the newest) fill its room already: a new
    // one would be packed and thinned away at once.
    if (full_)
        return false;
    std::uint64_t spacing = spacing_locked(last_live_bytes_);
    // Far from the present the thinning keeps gaps in proportion to the distance, with as many
    // checkpoints as fit in the budget: a copy spaced closer would only be thinned away again.
    const std::uint64_t fit = std::max<std::uint64_t>(2, last_frozen_bytes_ ? room() / last_frozen_bytes_ : 2);
    const std::uint64_t distance = work > present_work_ ? work - present_work_ : present_work_ - work;
    spacing = std::max(spacing, distance / fit);
    return pending_.empty() && !near_one(entries_, step, work, spacing) && !near_one(compressing_, step, work, spacing);
}

std::chrono::nanoseconds CheckpointStore::estimated_seek_cost(std::uint64_t from, std::uint64_t to) const
{
    std::lock_guard lock(m_);
    std::uint64_t checkpoint = 0;
    bool any = false;
    auto consider = [&](const Entry &e) {
        if (e.step <= to && (!any || e.step > checkpoint)) {
            checkpoint = e.step;
            any = true;
        }
    };
    for (const Entry &e : entries_)
        consider(e);
    for (const Entry &e : pending_)
        consider(e);
    for (const Entry &e : compressing_)
        consider(e);
    const bool restores = any && (to < from || checkpoint > from);
    const std::uint64_t start = restores ? checkpoint : (to >= from ? from : 0);
    const CostRates r = rates_locked();
    double ns = static_cast<double>(to - start) * r.replay_ns_per_step;
    if (restores)
        ns += r.restore_ns_per_byte * static_cast<double>(last_live_bytes_);
    return std::chrono::nanoseconds(static_cast<std::int64_t>(std::min(ns, 1e18)));
}

std::chrono::nanoseconds CheckpointStore::estimated_replay_cost(std::uint64_t steps) const
{
    const double ns = static_cast<double>(steps) * rates().replay_ns_per_step;
    return std::chrono::nanoseconds(static_cast<std::int64_t>(std::min(ns, 1e18)));
}

void CheckpointStore::note_replay(std::uint64_t steps, std::chrono::steady_clock::duration took)
{
    std::lock_guard lock(m_);
    replay_steps_ += static_cast<double>(steps);
    replay_ns_ += static_cast<double>(std::chrono::nanoseconds(took).count());
}

void CheckpointStore::note_restore(std::size_t live_bytes, std::chrono::steady_clock::duration took)
{
    std::lock_guard lock(m_);
    restored_bytes_ += static_cast<double>(live_bytes);
    restored_ns_ += static_cast<double>(std::chrono::nanoseconds(took).count());
}

void CheckpointStore::note_pack(std::size_t live_bytes, std::chrono::steady_clock::duration took)
{
    std::lock_guard lock(m_);
    packed_bytes_ += static_cast<double>(live_bytes);
    packed_ns_ += static_cast<double>(std::chrono::nanoseconds(took).count());
}

void CheckpointStore::add(const Simulation &sim) { add_packed(sim, false); }

void CheckpointStore::add_tail(const Simulation &sim)
{
    if (sim.quiescent())
        add_packed(sim, true);
}

void CheckpointStore::add_packed(const Simulation &sim, bool tail)
{
    Entry e;
    e.step = sim.steps();
    e.work = sim.kernel().micro_steps_total;
    e.tail = tail;
    if (tail) {
        std::lock_guard lock(m_);
        auto same = [&e](const Entry &x) { return x.step == e.step; };
        if (std::any_of(entries_.begin(), entries_.end(), same) ||
            std::any_of(pending_.begin(), pending_.end(), same) ||
            std::any_of(compressing_.begin(), compressing_.end(), same))
            return;
    }
    const std::size_t live = state_bytes(sim);
    // Packed outside the lock; compressed on the store's thread.
    const auto start = std::chrono::steady_clock::now();
    e.sim = Simulation::packed_copy(sim);
    e.bytes = state_bytes(*e.sim);
    const auto took = std::chrono::steady_clock::now() - start;
    {
        std::lock_guard lock(m_);
        freezing_ += took;
        packed_ns_ += static_cast<double>(std::chrono::nanoseconds(took).count());
        packed_bytes_ += static_cast<double>(live);
        last_live_bytes_ = live;
        pending_.push_back(std::move(e));
        if (!compressor_.joinable())
            compressor_ = std::thread([this] { compress_loop(); });
    }
    work_.notify_one();
}

void CheckpointStore::compress_loop()
{
#ifdef __linux__
    // Background work: the recorder, a seek the user waits for and a GUI thread come first. On
    // two cores a compressor at the same priority took turns with the GUI thread, which then
    // missed frames while a scene opened. (A nice value is per thread on Linux.)
    setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10);
#endif
    std::unique_lock lock(m_);
    for (;;) {
        work_.wait(lock, [this] { return stopping_ || !pending_.empty() || !retired_.empty(); });
        if (stopping_)
            return;
        if (!retired_.empty()) {
            std::vector<std::unique_ptr<Simulation>> retired = std::move(retired_);
            retired_.clear();
            lock.unlock();
            retired.clear();
            lock.lock();
            continue;
        }
        compressing_.assign(1, std::move(pending_.front()));
        pending_.pop_front();
        Entry e = compressing_.front();
        lock.unlock();
        // The packed copy is immutable: seeks may restore from it while it is compressed.
        bool compressed = true;
        try {
            e.sim = Simulation::frozen_copy(*e.sim);
            e.bytes = state_bytes(*e.sim);
        } catch (const std::exception &) {
            compressed = false; // out of memory, or zstd failed: a lost checkpoint only costs replay
        }
        lock.lock();
        compressing_.clear();
        if (compressed)
            store(std::move(e));
        done_.notify_all();
    }
}

void CheckpointStore::store(Entry e)
{
    last_frozen_bytes_ = e.bytes;
    auto it = std::lower_bound(entries_.begin(), entries_.end(), e.step,
                               [](const Entry &x, std::uint64_t s) { return x.step < s; });
    if (it != entries_.end() && it->step == e.step)
        return; // the same state again (the recorder and the player both passed here)
    entries_.insert(it, std::move(e));
    ++stats_.taken;
    thin();
}

void CheckpointStore::set_end(std::uint64_t step)
{
    std::lock_guard lock(m_);
    end_ = step;
}

std::optional<std::uint64_t> CheckpointStore::end() const
{
    std::lock_guard lock(m_);
    return end_;
}

void CheckpointStore::flush() const
{
    std::unique_lock lock(m_);
    done_.wait(lock, [this] { return pending_.empty() && compressing_.empty(); });
}

bool CheckpointStore::offer(const Simulation &sim, bool move_present)
{
    const std::uint64_t work = sim.kernel().micro_steps_total;
    if (!move_present) {
        // The recorder's pace between its offers is the scene's replay rate, events included.
        const auto now = std::chrono::steady_clock::now();
        std::lock_guard lock(m_);
        if (last_offer_at_ != std::chrono::steady_clock::time_point{} && work > last_offer_work_) {
            replay_steps_ += static_cast<double>(work - last_offer_work_);
            replay_ns_ += static_cast<double>(std::chrono::nanoseconds(now - last_offer_at_).count());
        }
        last_offer_at_ = now;
        last_offer_work_ = work;
    }
    if (!due(sim.steps(), work) || !sim.quiescent())
        return false;
    if (move_present)
        set_present(sim.steps());
    add(sim);
    if (!move_present) {
        std::lock_guard lock(m_);
        last_offer_at_ = std::chrono::steady_clock::now(); // packing is not replay
    }
    return true;
}

TailPlan CheckpointStore::tail_plan(std::size_t live_bytes) const
{
    // The window is where a user steps back from "last": a scene's closing statements, often a
    // long collection or call followed by a few short ones. Within it the cost model decides.
    constexpr std::uint64_t kTailStatements = 3;
    TailPlan plan;
    plan.statements = kTailStatements;
    plan.spacing = std::max<std::uint64_t>(1, pay_back_steps(live_bytes) / kStepsBackFromEnd);
    // A packed copy of a large state is as large as the state: holding several at once, queued
    // for compression, would take the room the checkpoints are kept within.
    plan.one_at_a_time = large_state(live_bytes);
    return plan;
}

std::size_t CheckpointStore::room() const
{
    const std::size_t quarter = budget_ / 4;
    const std::size_t beyond = last_live_bytes_ > quarter ? last_live_bytes_ - quarter : 0;
    return budget_ > beyond ? budget_ - beyond : 0;
}

void CheckpointStore::thin()
{
    std::size_t bytes = 0;
    for (const Entry &e : entries_)
        bytes += e.bytes;
    // Drop, one at a time, the checkpoint whose removal leaves the smallest gap for its
    // distance from the present: gaps then grow in proportion to that distance.
    const std::size_t room_for = room();
    while (bytes > room_for && entries_.size() > 2) {
        std::size_t victim = 0;
        double best = std::numeric_limits<double>::max();
        for (std::size_t i = 1; i + 1 < entries_.size(); ++i) {
            if (entries_[i].tail)
                continue;
            const double gap = static_cast<double>(entries_[i + 1].work - entries_[i - 1].work);
            const std::uint64_t w = entries_[i].work;
            const double distance = static_cast<double>(w > present_work_ ? w - present_work_ : present_work_ - w) +
                                    static_cast<double>(interval_);
            const double score = gap / distance;
            if (score < best) {
                best = score;
                victim = i;
            }
        }
        if (!victim) {
            // Two entries, or only the tail between them: keep them (step 0 and the newest),
            // over budget if a single state is larger than the budget.
            break;
        }
        bytes -= entries_[victim].bytes;
        entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(victim));
        ++stats_.thinned;
    }
    full_ = bytes > room_for;
    stats_.bytes = bytes;
    stats_.count = entries_.size();
}

bool CheckpointStore::full() const
{
    std::lock_guard lock(m_);
    return full_;
}

std::shared_ptr<const Simulation> CheckpointStore::at_or_before(std::uint64_t step) const
{
    // The GUI thread asks this before every seek, so it never waits: a checkpoint still waiting
    // for, or under, compression serves in its packed form (the newest one is usually the one
    // a step back near the frontier wants).
    std::lock_guard lock(m_);
    const Entry *best = nullptr;
    auto consider = [&best, step](const Entry &e) {
        if (e.step <= step && (!best || e.step > best->step))
            best = &e;
    };
    auto it = std::upper_bound(entries_.begin(), entries_.end(), step,
                               [](std::uint64_t s, const Entry &e) { return s < e.step; });
    if (it != entries_.begin())
        consider(*std::prev(it));
    for (const Entry &e : pending_)
        consider(e);
    for (const Entry &e : compressing_)
        consider(e);
    return best ? best->sim : nullptr;
}

std::unique_ptr<Simulation> CheckpointStore::retire(std::unique_ptr<Simulation> old)
{
    if (!old)
        return nullptr;
    {
        std::lock_guard lock(m_);
        // One waits at most (the thread may be busy compressing); the caller frees the rest.
        if (stopping_ || !retired_.empty())
            return old;
        retired_.push_back(std::move(old));
        if (!compressor_.joinable())
            compressor_ = std::thread([this] { compress_loop(); });
    }
    work_.notify_one();
    return nullptr;
}

void CheckpointStore::set_present(std::uint64_t step)
{
    // Every micro-step is a step (absorbed and skipped ones included), so a step number is
    // the work done to reach it, even for a target no checkpoint has reached yet.
    std::lock_guard lock(m_);
    present_work_ = step;
}

std::size_t state_bytes(const Simulation &sim)
{
    return sizeof(Simulation) + sim.kernel().state_bytes() + sim.warnings().size() * sizeof(SceneWarning) +
           sim.expectations().size() * sizeof(ExpectationOutcome);
}

CheckpointStats CheckpointStore::stats() const
{
    flush(); // a figure that counts every checkpoint taken
    std::lock_guard lock(m_);
    CheckpointStats st = stats_;
    st.packing_ms = std::chrono::duration<double, std::milli>(freezing_).count();
    return st;
}

} // namespace inflight
