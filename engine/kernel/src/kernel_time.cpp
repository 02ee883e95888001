// SPDX-License-Identifier: GPL-3.0-or-later
// Modelled time: what each micro-step costs, spin locks, sleeping and waking, and the wait for
// a running collection. The scheduler itself (which task goes next) is the Simulation's.
#include "inflight/kernel.hpp"

#include <algorithm>

namespace inflight {

std::uint64_t Kernel::cost_of(const Event &e) const
{
    const CostModel &c = config_.costs;
    switch (e.kind) {
    case EventKind::sock_create: return c[Cost::socket_create];
    case EventKind::fd_install:
        return (e.fn == KFn::scm_detach_fds || e.fn == KFn::unix_peek_fds) ? c[Cost::fd_receive] : 0;
    case EventKind::fd_close: return c[Cost::close];
    case EventKind::file_get: return e.fn == KFn::scm_fp_copy ? c[Cost::fd_pass] : 0;
    case EventKind::skb_queue: return e.fn == KFn::skb_queue_tail ? c[Cost::sendmsg] : 0;
    case EventKind::skb_dequeue: return e.fn == KFn::skb_dequeue ? c[Cost::recvmsg] : 0;
    case EventKind::skb_free: return c[e.fn == KFn::skb_queue_purge ? Cost::gc_purge_skb : Cost::skb_free];
    case EventKind::sock_release: return c[Cost::release];
    case EventKind::gc_begin: return c[Cost::gc_start];
    case EventKind::gc_queued: return c[Cost::queue_work];
    case EventKind::candidate_check: return c[Cost::gc_select];
    case EventKind::inflight_change:
        return (e.fn == KFn::dec_inflight || e.fn == KFn::inc_inflight || e.fn == KFn::inc_inflight_move_tail)
                   ? c[Cost::gc_inflight_op]
                   : 0;
    case EventKind::list_move:
    case EventKind::cursor_move: return c[Cost::gc_list_move];
    case EventKind::skb_hitlist: return c[Cost::gc_collect_skb];
    case EventKind::queue_splice:
        return c[Cost::gc_collect_skb] * static_cast<std::uint64_t>(std::max<std::int64_t>(e.skbs(), 1));
    case EventKind::vertex_visit: return c[Cost::gc_vertex];
    case EventKind::edge_push:
    case EventKind::edge_pop: return c[Cost::gc_edge];
    // vertex_dead: part of the per-vertex cost of the walk that asks (gc_vertex, gc_fast_vertex)
    case EventKind::edge_add:
    case EventKind::edge_del: return c[Cost::gc_graph_update];
    case EventKind::autobind_probe:
        return c[Cost::autobind_probe] +
               c[Cost::hash_chain_entry] * static_cast<std::uint64_t>(std::max<std::int64_t>(e.compared(), 0));
    default: return 0;
    }
}

Proc Kernel::sched_point()
{
    if (!concurrent)
        co_return;
    co_yield Event::sched_point();
}

Proc Kernel::spin_lock(KLock &l, std::uint32_t which, std::uint16_t algo_line)
{
    co_yield sched_point();
    const std::uint64_t start = now();
    // Held in the model's state by a task preempted inside its critical section: sleep until it
    // lets go (a real spinner burns its CPU meanwhile; the clock shows the same wait).
    while (running && l.holder && l.holder != running) {
        running->wait_lock = which;
        co_yield sleep(which == 0                        ? WaitFor::gc_lock
                       : which >= Kernel::kStateLockBase ? WaitFor::state_lock
                                                         : WaitFor::table_lock);
    }
    // Released later on its holder's clock than ours: spin until then, then the line moves.
    if (running && running->clock < l.free_at)
        running->clock = saturating_add(l.free_at, config_.costs[Cost::lock_handoff]);
    charge(Cost::lock);
    ++l.acquisitions;
    l.holder = running;
    l.last_cpu = running ? running->cpu : 0;
    const std::uint64_t spun = now() - start - (running ? config_.costs[Cost::lock] : 0);
    if (running && spun > 0) {
        ++l.contended;
        l.spun_ns += spun;
        running->spun_ns += spun;
        const KFn fn = which == 0                ? KFn::unix_gc
                       : which >= kStateLockBase ? KFn::unix_state_lock
                                                 : KFn::unix_table_lock;
        Event e = Event::lock_spin(fn, which, static_cast<std::int64_t>(spun));
        e.algo_line = algo_line;
        co_yield e;
    }
}

void Kernel::spin_unlock(KLock &l)
{
    l.holder = nullptr;
    l.free_at = std::max(l.free_at, now());
    // Tasks that slept on it (only possible when its holder was preempted) may go again.
    for (WaitFor what : {WaitFor::gc_lock, WaitFor::table_lock, WaitFor::state_lock}) {
        for (std::uint32_t id : sleepers(what)) {
            Task &t = tasks[id];
            if (!t.blocked || t.wait_for != what)
                continue;
            t.blocked = false;
            t.clock = std::max(t.clock, l.free_at);
            t.at_point = true;
            woken.push_back(id);
        }
        sleepers(what).clear();
    }
}

Proc Kernel::sleep(WaitFor what, const UnixSock *sock)
{
    Task &t = *running;
    sleepers(what).push_back(t.id);
    t.blocked = true;
    t.wait_for = what;
    t.wait_sock = sock;
    t.wait_start = t.clock;
    t.wake_failed = false;
    t.at_point = true;
    co_yield Event::sched_point();
    // Woken: wake() moved the clock to the waker's time.
    const std::uint64_t waited = t.clock - t.wait_start;
    if (what == WaitFor::gc)
        t.waited_ns += waited;
    co_yield Event::wait_end(KFn::none, static_cast<std::int64_t>(waited), what);
}

void Kernel::wake(WaitFor what, std::uint64_t at, const UnixSock *sock)
{
    std::erase_if(sleepers(what), [&](std::uint32_t id) {
        Task &t = tasks[id];
        if (!t.blocked || t.wait_for != what)
            return true; // woken another way meanwhile
        if (sock && t.wait_sock != sock)
            return false;
        t.blocked = false;
        t.clock = saturating_add(std::max(t.clock, at), config_.costs[Cost::wakeup]);
        t.at_point = true;
        woken.push_back(id);
        return true;
    });
}

Proc Kernel::wait_gc(KFn fn, std::int64_t detail)
{
    const std::uint64_t t0 = now();
    // A hung collection never ends: the kernel's caller would sleep for ever, which the
    // collector's finding has said; the model does not wait for it.
    if (!gc_running_at(t0) || collector_->hung())
        co_return;
    co_yield Event::gc_wait(fn, detail);
    if (gc_in_progress) {
        if (!concurrent) {
            // One task: the queued work runs now, while the caller waits (flush_work()).
            co_yield flush_gc_work();
            co_return;
        }
        while (gc_in_progress)
            co_yield sleep(WaitFor::gc);
        co_return;
    }
    // The model already ran the collection to its end, but on this task's clock it is still
    // running: the caller waits until it ends.
    const std::uint64_t waited = gc_busy_until - t0 + config_.costs[Cost::wakeup];
    advance_clock(*running, waited);
    running->waited_ns += waited;
    co_yield Event::wait_end(fn, static_cast<std::int64_t>(waited), WaitFor::gc);
}

Proc Kernel::creds_ref(Process &owner, bool get)
{
    // 7361c36c5224 (2.6.39) took a reference on the sender's struct pid and struct cred for
    // every skb; the reader dropped them, usually on another CPU. Each change is an atomic on a
    // cache line shared by every thread of the sender: it moves between CPUs (false sharing),
    // and changes from several CPUs queue up behind each other.
    if (pid_lines.size() <= owner.id) {
        pid_lines.resize(owner.id + 1);
        cred_lines.resize(owner.id + 1);
    }
    const std::uint32_t cpu = running ? running->cpu : 0;
    std::uint64_t spent = 0;
    for (RefLine *line : {&pid_lines[owner.id], &cred_lines[owner.id]}) {
        const bool bounce = line->touched && line->last_cpu != cpu;
        const std::uint64_t cost = config_.costs[bounce ? Cost::cacheline_bounce : Cost::creds_ref];
        const std::uint64_t start = std::max(now(), line->free_at);
        line->free_at = saturating_add(start, cost);
        line->last_cpu = cpu;
        line->touched = true;
        spent += line->free_at - now();
        if (running)
            running->clock = line->free_at;
    }
    co_yield Event::creds_ref(KFn::scm_creds, owner.id, get, static_cast<std::int64_t>(spent));
}

} // namespace inflight
