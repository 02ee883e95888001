// SPDX-License-Identifier: GPL-3.0-or-later
// The Simulation's run queue: the CPUs (which task is in the middle of a statement on each, and
// when the last statement on each ended) and an index of the tasks, so that the scheduling rule
// finds its task in O(log n) instead of looking at every task at every scheduling point.
//
// The rule (Simulation::pick()): among the tasks that can run, the one whose next micro-step
// would start earliest in modelled time; ties go to the lower CPU, then to the task created
// first. A task can run when it is not finished, not asleep and not held, and its CPU is free or
// its own. On a free CPU a task starts at max(its clock, the CPU's free time); the CPU's owner
// starts at its clock. The kworker is not indexed as runnable: whether it can run depends on the
// workqueue, so best() weighs it as it stands.
//
// The index is kept by being told: update(t) after anything changes whether t can run, its clock
// or its sleep. Tasks are named by id, so a copy of the queue is valid for a copy of the kernel.
#pragma once

#include "inflight/event.hpp"

#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace inflight {

struct Task;

class RunQueue {
public:
    explicit RunQueue(std::uint32_t cpus = 1);

    // Takes task t in as it stands: whether it can run, its clock, whether it sleeps (and on
    // what). Idempotent; a task not seen before is added.
    void update(const Task &t);

    // The task in the middle of a statement on the CPU (npos: none), and when the CPU's last
    // statement ended.
    std::uint32_t owner(std::uint32_t cpu) const { return cpus_[cpu].owner; }
    std::uint64_t free_at(std::uint32_t cpu) const { return cpus_[cpu].free_at; }
    std::uint32_t cpu_count() const { return static_cast<std::uint32_t>(cpus_.size()); }
    // The task begins a statement on the CPU (or goes on with one).
    void take(std::uint32_t cpu, std::uint32_t task);
    // The CPU's owner let go at time `at`: the CPU is free from max(free_at, at) on.
    void release(std::uint32_t cpu, std::uint64_t at);

    struct Choice {
        std::uint64_t start = 0;
        std::uint32_t cpu = 0;
        std::uint32_t task = 0;
        auto operator<=>(const Choice &) const = default;
    };
    // The task the rule picks, with the time its next micro-step starts; nullopt when none can
    // run. The kworker (nullptr: none) can run when it has a body or work is queued
    // (work_queued), and starts its queued work no earlier than work_ready_at.
    std::optional<Choice> best(const Task *kworker = nullptr, bool work_queued = false,
                               std::uint64_t work_ready_at = 0);
    // Nobody can run: the sleeper to wake with a failure. A reader waiting for data (the only
    // sleep nobody may end) if there is one, else any sleeper: the earliest by clock, then the
    // task created first. nullopt when nobody sleeps.
    std::optional<std::uint32_t> stuck() const;

    // A task whose indexed state differs from what it is ("task w3: indexed as runnable at 120
    // ns, is asleep at 120 ns"), or nullopt: a check for the checked mode (set check on).
    std::optional<std::string> out_of_step(const std::deque<Task> &tasks) const;

private:
    enum class State : std::uint8_t { none, runnable, asleep };
    struct Entry {
        State state = State::none;
        bool waits_for_data = false;
        std::uint32_t cpu = 0;
        std::uint64_t clock = 0;
    };
    using Timed = std::pair<std::uint64_t, std::uint32_t>; // (clock, task)
    struct Cpu {
        std::uint32_t owner = npos;
        std::uint64_t free_at = 0;
        // The runnable tasks of this CPU, split at free_at: those that would start at free_at
        // (their clock is not later), which the rule orders by id alone, and the later ones.
        std::set<std::uint32_t> at_free;
        std::set<Timed> later;
        std::optional<Choice> listed; // its entry in best_
        bool dirty = false;
    };

    static Entry entry_of(const Task &t);
    void insert(std::uint32_t id, const Entry &e);
    void erase(std::uint32_t id, const Entry &e);
    void touch(std::uint32_t cpu);
    std::optional<Choice> best_of(std::uint32_t cpu) const;

    std::vector<Cpu> cpus_;
    std::vector<Entry> tasks_; // by task id
    std::set<Choice> best_;    // each CPU's own choice
    std::vector<std::uint32_t> dirty_;
    std::set<Timed> asleep_, asleep_for_data_;
};

} // namespace inflight
