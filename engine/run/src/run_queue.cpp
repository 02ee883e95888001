// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/run_queue.hpp"

#include "inflight/task.hpp"

#include <algorithm>

namespace inflight {

RunQueue::RunQueue(std::uint32_t cpus) : cpus_(std::max<std::uint32_t>(1, cpus)) { }

RunQueue::Entry RunQueue::entry_of(const Task &t)
{
    Entry e;
    e.cpu = t.cpu;
    e.clock = t.clock;
    if (t.finished)
        e.state = State::none;
    else if (t.blocked)
        e.state = State::asleep;
    else if (!t.held && !t.kworker)
        e.state = State::runnable;
    e.waits_for_data = e.state == State::asleep && t.wait_for == WaitFor::data;
    return e;
}

void RunQueue::update(const Task &t)
{
    if (t.id >= tasks_.size())
        tasks_.resize(t.id + 1);
    Entry &e = tasks_[t.id];
    const Entry now = entry_of(t);
    if (now.state == e.state && now.clock == e.clock && now.cpu == e.cpu && now.waits_for_data == e.waits_for_data)
        return;
    erase(t.id, e);
    e = now;
    insert(t.id, e);
}

void RunQueue::insert(std::uint32_t id, const Entry &e)
{
    switch (e.state) {
    case State::none: break;
    case State::runnable: {
        Cpu &c = cpus_[e.cpu];
        if (e.clock <= c.free_at)
            c.at_free.insert(id);
        else
            c.later.emplace(e.clock, id);
        touch(e.cpu);
        break;
    }
    case State::asleep:
        asleep_.emplace(e.clock, id);
        if (e.waits_for_data)
            asleep_for_data_.emplace(e.clock, id);
        break;
    }
}

void RunQueue::erase(std::uint32_t id, const Entry &e)
{
    switch (e.state) {
    case State::none: break;
    case State::runnable: {
        Cpu &c = cpus_[e.cpu];
        if (e.clock <= c.free_at)
            c.at_free.erase(id);
        else
            c.later.erase({e.clock, id});
        touch(e.cpu);
        break;
    }
    case State::asleep:
        asleep_.erase({e.clock, id});
        asleep_for_data_.erase({e.clock, id});
        break;
    }
}

void RunQueue::touch(std::uint32_t cpu)
{
    if (!cpus_[cpu].dirty) {
        cpus_[cpu].dirty = true;
        dirty_.push_back(cpu);
    }
}

void RunQueue::take(std::uint32_t cpu, std::uint32_t task)
{
    if (cpus_[cpu].owner != task) {
        cpus_[cpu].owner = task;
        touch(cpu);
    }
}

void RunQueue::release(std::uint32_t cpu, std::uint64_t at)
{
    Cpu &c = cpus_[cpu];
    c.owner = npos;
    touch(cpu);
    if (at <= c.free_at)
        return;
    c.free_at = at;
    // The tasks whose clock the CPU's free time has reached now start at it: ordered by id.
    while (!c.later.empty() && c.later.begin()->first <= at) {
        c.at_free.insert(c.later.begin()->second);
        c.later.erase(c.later.begin());
    }
}

std::optional<RunQueue::Choice> RunQueue::best_of(std::uint32_t cpu) const
{
    const Cpu &c = cpus_[cpu];
    if (c.owner != npos) {
        // Only its owner may run on it (the kworker is never indexed as runnable).
        if (c.owner < tasks_.size() && tasks_[c.owner].state == State::runnable)
            return Choice{tasks_[c.owner].clock, cpu, c.owner};
        return std::nullopt;
    }
    if (!c.at_free.empty())
        return Choice{c.free_at, cpu, *c.at_free.begin()};
    if (!c.later.empty())
        return Choice{c.later.begin()->first, cpu, c.later.begin()->second};
    return std::nullopt;
}

std::optional<RunQueue::Choice> RunQueue::best(const Task *kworker, bool work_queued, std::uint64_t work_ready_at)
{
    for (std::uint32_t cpu : dirty_) {
        Cpu &c = cpus_[cpu];
        if (c.listed)
            best_.erase(*c.listed);
        c.listed = best_of(cpu);
        if (c.listed)
            best_.insert(*c.listed);
        c.dirty = false;
    }
    dirty_.clear();
    std::optional<Choice> best;
    if (!best_.empty())
        best = *best_.begin();
    const Task *kw = kworker;
    if (kw && !kw->finished && !kw->blocked && !kw->held && (kw->body || work_queued)) {
        const std::uint32_t owner = cpus_[kw->cpu].owner;
        if (owner == npos || owner == kw->id) {
            std::uint64_t start = kw->clock;
            if (owner != kw->id)
                start = std::max(start, cpus_[kw->cpu].free_at);
            if (!kw->body)
                start = std::max(start, work_ready_at);
            const Choice own{start, kw->cpu, kw->id};
            if (!best || own < *best)
                best = own;
        }
    }
    return best;
}

std::optional<std::uint32_t> RunQueue::stuck() const
{
    if (!asleep_for_data_.empty())
        return asleep_for_data_.begin()->second;
    if (!asleep_.empty())
        return asleep_.begin()->second;
    return std::nullopt;
}

namespace {

const char *state_name(bool runnable, bool asleep) { return runnable ? "runnable" : asleep ? "asleep" : "idle"; }

} // namespace

std::optional<std::string> RunQueue::out_of_step(const std::deque<Task> &tasks) const
{
    for (const Task &t : tasks) {
        const Entry want = entry_of(t);
        const Entry have = t.id < tasks_.size() ? tasks_[t.id] : Entry{};
        if (want.state == have.state && want.cpu == have.cpu && want.waits_for_data == have.waits_for_data &&
            (want.state == State::none || want.clock == have.clock))
            continue;
        return "task " + t.name + ": indexed as " +
               state_name(have.state == State::runnable, have.state == State::asleep) + " at " +
               std::to_string(have.clock) + " ns on cpu " + std::to_string(have.cpu) + ", is " +
               state_name(want.state == State::runnable, want.state == State::asleep) + " at " +
               std::to_string(want.clock) + " ns on cpu " + std::to_string(want.cpu);
    }
    return std::nullopt;
}

} // namespace inflight
