// SPDX-License-Identifier: GPL-3.0-or-later
// Tasks and locks of the modelled time. A task is one thread of execution — the scene's main
// script, a spawned block, or the kworker running queued collections — with its own clock, on
// one CPU. Tasks interleave only at scheduling points (a statement boundary, a spin lock to
// take, a sleep); between two points a task's micro-steps are atomic. The Simulation picks, at
// each point, the task with the smallest clock (ties: lower CPU, then lower task index).
#pragma once

#include "inflight/event.hpp"
#include "inflight/latency.hpp"
#include "inflight/proc.hpp"

#include <cstdint>
#include <string>

namespace inflight {

struct Process;
struct UnixSock;

struct Task {
    std::uint32_t id = 0;
    std::string name;
    Process *process = nullptr; // nullptr for the kworker
    Process *context = nullptr; // Kernel::current while it runs (nullptr: kworker context)
    std::uint32_t cpu = 0;
    bool kworker = false;

    std::uint64_t clock = 0; // ns; advanced by the cost of each micro-step it runs
    Proc body;               // what it runs (the script, a spawned block, queued work)
    bool started = false;
    bool finished = false;
    bool held = false;                 // a race (spawn ... when POINT): not runnable until its point is reached
    bool at_point = true;              // stopped at a scheduling point: others may go first
    bool at_statement_boundary = true; // its CPU is free for another task on the same CPU

    // Sleeping (flush_work, unix_gc_wait, a blocking recv, wait, expect): not runnable.
    bool blocked = false;
    WaitFor wait_for = WaitFor::gc;
    std::uint64_t wait_start = 0;
    std::uint64_t wake_at = 0;
    const UnixSock *wait_sock = nullptr; // WaitFor::data: the socket whose queue it sleeps on
    std::uint32_t wait_lock = 0;         // WaitFor::gc_lock/table_lock: which lock
    bool wake_failed = false;            // woken because nothing could ever wake it

    // Totals, from which one call's share is taken (LatencySample::waited_ns / spun_ns).
    std::uint64_t waited_ns = 0;
    std::uint64_t spun_ns = 0;
    CallKind call_kind = CallKind::no_fd; // what its last sendmsg carried (for the sample)
};

// A spin lock in modelled time. holder is set while a task is inside the critical section in the
// model's state; free_at is when (on the holder's clock) it was last released — a task that
// reaches the lock earlier than that on its own clock spins until then.
struct KLock {
    const Task *holder = nullptr;
    std::uint64_t free_at = 0;
    std::uint32_t last_cpu = 0;
    std::uint64_t acquisitions = 0;
    std::uint64_t contended = 0; // acquisitions that had to spin
    std::uint64_t spun_ns = 0;
};

} // namespace inflight
