// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/narrate.hpp"

#include "inflight/abstract_namespace.hpp"
#include "inflight/report.hpp"

#include "inflight/algorithm_listing.hpp"
#include "inflight/kernel.hpp"

#include <string>

namespace inflight {

namespace {

std::string n(std::int64_t v) { return std::to_string(v); }

std::string flags_text(std::int64_t f)
{
    std::string s;
    if (f & UNIX_GC_CANDIDATE)
        s += "CANDIDATE";
    if (f & UNIX_GC_MAYBE_CYCLE)
        s += s.empty() ? "MAYBE_CYCLE" : "|MAYBE_CYCLE";
    return s.empty() ? "0" : s;
}

std::string graph_bits_text(std::int64_t b)
{
    return std::string("maybe_cyclic=") + ((b & 1) ? "true" : "false") + " grouped=" + ((b & 2) ? "true" : "false");
}

const char *dead_reason(std::int64_t r)
{
    switch (r) {
    case 0: return "every copy of its file sits inside this SCC and it has no other reference";
    case 1: return "a copy of its file sits in the queue of a socket that is not in flight";
    case 2: return "a copy of its file sits in a queue of another SCC";
    default: return "file_count != out_degree: something outside flight (an fd, a peeked copy) holds it";
    }
}

std::string wait_for_text(std::int64_t w)
{
    switch (static_cast<WaitFor>(w)) {
    case WaitFor::gc: return "the collection to end";
    case WaitFor::gc_lock: return "unix_gc_lock";
    case WaitFor::data: return "data to read";
    case WaitFor::task: return "a task to end";
    case WaitFor::idle: return "queued kernel work to finish";
    case WaitFor::table_lock: return "a hash table lock";
    }
    return "?";
}

std::string lock_text(std::uint32_t which)
{
    if (which == 0)
        return "unix_gc_lock";
    if (which == 1)
        return "unix_table_lock";
    return "the lock of hash bucket " + std::to_string(which - 2);
}

} // namespace

std::string describe(const Event &e, const Kernel &k)
{
    auto s = [&](std::uint32_t id) { return id == npos ? std::string("-") : k.label_of_id(id); };
    const std::string a = s(e.a);
    switch (e.kind) {
    case EventKind::stmt_begin: return "statement " + n(e.a);
    case EventKind::stmt_end:
        return e.before ? "failed: " + std::string(errno_name(static_cast<Errno>(e.before))) : "returned " + n(e.after);
    case EventKind::note: return a == "-" ? "" : a;
    case EventKind::sock_create: return a + " created";
    case EventKind::fd_install: return a + " installed as fd " + n(e.c) + " in " + k.processes[e.b].name + ", file refs " + n(e.after);
    case EventKind::fd_close:
        return "fd " + n(e.c) + " (" + a + ") closed in " + k.processes[e.b].name + ", file refs " + n(e.before) + " -> " + n(e.after);
    case EventKind::file_get: return a + " file refs " + n(e.before) + " -> " + n(e.after);
    case EventKind::file_put: return a + " file refs " + n(e.before) + " -> " + n(e.after);
    case EventKind::fput_deferred: return a + " last reference gone, __fput queued (" + (e.c ? "delayed_fput" : "task_work") + ")";
    case EventKind::sock_release: return a + (e.c == 1 ? " (embryo)" : "") + " released";
    case EventKind::peer_shutdown: return s(e.b) + " shut down by release of " + a + (e.after ? ", ECONNRESET" : "");
    case EventKind::skb_queue: return "skb#" + n(e.a) + " carrying " + n(e.before) + " fds queued to " + s(e.b);
    case EventKind::skb_dequeue: return "skb#" + n(e.a) + " taken off " + s(e.b);
    case EventKind::skb_free: return "skb#" + n(e.a) + " freed, dropping " + n(e.before) + " fds";
    case EventKind::skb_unref: return "skb#" + n(e.a) + " reference dropped, " + n(e.after) + " left: not freed";
    case EventKind::fds_attach: return n(e.before) + " fds attached to skb#" + n(e.a) + (e.after ? " (duplicated list)" : " (list moved)");
    case EventKind::fds_detach: return n(e.before) + " fds detached from skb#" + n(e.a);
    case EventKind::inflight_change: {
        std::string t = a + " inflight " + n(e.before) + " -> " + n(e.after);
        if (e.to != ListId::none)
            t += ", onto " + std::string(list_name(e.to));
        if (e.from != ListId::none)
            t += ", off " + std::string(list_name(e.from));
        return t;
    }
    case EventKind::list_move:
        if (e.to == ListId::hitlist)
            return "skb#" + n(e.a) + " to hitlist";
        return a + ": " + std::string(list_name(e.from)) + " -> " + std::string(list_name(e.to)) +
               (e.before != e.after ? ", flags " + flags_text(e.before) + " -> " + flags_text(e.after) : "");
    case EventKind::flags_change: return a + " flags " + flags_text(e.before) + " -> " + flags_text(e.after);
    case EventKind::gc_call: return "unix_gc() with unix_tot_inflight " + n(e.before);
    case EventKind::gc_queued: return e.after ? "unix_gc_work already pending" : "unix_gc_work queued";
    case EventKind::gc_wait: return "sender waits for the collector";
    case EventKind::gc_begin: return "collection #" + n(e.a) + " starts";
    case EventKind::gc_end: return "collection #" + n(e.a) + " ends: " + n(e.before) + " garbage, " + n(e.after) + " skbs purged";
    case EventKind::gc_skip: return e.before == 1 ? "graph not cyclic: nothing to do" : "a collection is already running";
    case EventKind::candidate_check:
        return a + ": file refs " + n(e.before) + (e.c ? " == " : " != ") + "inflight " + n(e.after) + (e.c ? ": candidate" : "");
    case EventKind::cursor_move: return "cursor passes " + a + " (inflight " + n(e.before) + ")";
    case EventKind::scan: return "scan_children(" + a + ")" + (e.b != npos ? " via embryo " + s(e.b) : "");
    case EventKind::skb_hitlist: return "skb#" + n(e.a) + " from " + s(e.b) + " to hitlist";
    case EventKind::queue_splice: return n(e.before) + (e.before == 1 ? " skb of " : " skbs of ") + (e.b != npos ? s(e.b) : a) + " spliced to hitlist";
    case EventKind::vertex_new: return a + " gets a vertex (scc_index " + n(e.after) + ")";
    case EventKind::vertex_free: return a + " loses its vertex";
    case EventKind::edge_add: return "edge " + a + " -> " + s(e.b) + (e.c != npos && e.c != e.b ? " (counts as " + s(e.c) + ")" : "") + ", out_degree " + n(e.before) + " -> " + n(e.after);
    case EventKind::edge_del: return "edge " + a + " -> " + s(e.b) + " removed, out_degree " + n(e.before) + " -> " + n(e.after);
    case EventKind::graph_state: return graph_bits_text(e.before) + " -> " + graph_bits_text(e.after);
    case EventKind::vertex_visit: return a + " visited, index " + n(e.after);
    case EventKind::edge_push: return "tree edge " + a + " -> " + s(e.b);
    case EventKind::edge_pop: return "back from " + s(e.b) + " to " + a + ", scc_index " + n(e.before) + " -> " + n(e.after);
    case EventKind::scc_index_update: return a + " scc_index " + n(e.before) + " -> " + n(e.after) + " (from " + s(e.b) + ")";
    case EventKind::scc_found: return "SCC of " + n(e.before) + " rooted at " + a;
    case EventKind::vertex_dead: return a + (e.before ? " dead" : " alive") + " (file refs " + n(e.c) + ")";
    case EventKind::scc_verdict: return "SCC of " + a + (e.before ? " is garbage" : " is alive") + (e.after ? ", cyclic" : "");
    case EventKind::finding: return "finding #" + n(e.a) + ": " + (e.a < k.findings.size() ? k.findings[e.a].invariant : std::string());
    case EventKind::warning: return "statement failed: " + std::string(errno_name(static_cast<Errno>(e.before)));
    case EventKind::expect_result: return e.before ? "expectation holds" : "expectation FAILED";
    case EventKind::wait_end: return "waited " + format_ns(static_cast<std::uint64_t>(e.before)) + " for " + wait_for_text(e.after);
    case EventKind::lock_spin:
        return "spun " + format_ns(static_cast<std::uint64_t>(e.before)) + " on " + lock_text(e.a);
    case EventKind::task_spawn:
        return "task " + (e.a < k.tasks.size() ? k.tasks[e.a].name : n(e.a)) + " starts on cpu " + n(e.b);
    case EventKind::task_exit: return "task " + (e.a < k.tasks.size() ? k.tasks[e.a].name : n(e.a)) + " ends";
    case EventKind::autobind_probe:
        return a + " tries @" + autobind_name(e.b) + " (bucket " + n(e.c) + ", " + n(e.before) + " compared): " +
               (e.after ? "taken" : "free, bound");
    case EventKind::autobind_fail:
        return e.before < 0 ? a + ": autobind would loop forever after " + n(e.after) + " probes"
                            : a + ": ENOSPC after " + n(e.after) + " probes";
    case EventKind::splice_chunk:
        return n(e.before) + " bytes spliced from " + a + " to " + s(e.b) + (e.after ? ", checksummed" : "");
    case EventKind::creds_ref:
        return std::string(e.before ? "pid and cred references taken" : "pid and cred references dropped") + " (" +
               format_ns(static_cast<std::uint64_t>(e.after)) + ")";
    case EventKind::sched_point: return {};
    }
    return {};
}

std::string narrate(const Event &e, const Kernel &k)
{
    auto s = [&](std::uint32_t id) { return id == npos ? std::string("-") : k.label_of_id(id); };
    const std::string a = s(e.a);
    switch (e.kind) {
    case EventKind::candidate_check:
        if (e.c)
            return a + ": file refs " + n(e.before) + " == inflight " + n(e.after) +
                   ", so every reference to it is in flight: it becomes a candidate.";
        return a + ": file refs " + n(e.before) + " > inflight " + n(e.after) +
               ", so something outside flight (an open fd) holds it: not a candidate.";
    case EventKind::inflight_change:
        switch (e.fn) {
        case KFn::dec_inflight:
            return "A candidate's queue holds a copy of " + a + ": that reference is internal to the candidate set, so inflight drops " + n(e.before) + " -> " + n(e.after) + ".";
        case KFn::inc_inflight_move_tail:
            return a + " is held by a socket that is reachable, so it is reachable too: inflight back to " + n(e.after) + ".";
        case KFn::inc_inflight:
            return "Garbage is being collected: " + a + "'s count is given back (" + n(e.after) + ") before its skb goes to the hitlist.";
        case KFn::unix_inflight:
            return a + "'s file is now in flight (" + n(e.after) + " copies in queues)" + (e.before == 0 ? "; it joins gc_inflight_list." : ".");
        case KFn::unix_notinflight:
            return "A copy of " + a + " left flight (" + n(e.after) + " remain)" + (e.after == 0 ? "; it leaves the GC's lists." : ".");
        default: break;
        }
        break;
    case EventKind::cursor_move:
        return e.before > 0 ? "The cursor reaches " + a + ": inflight " + n(e.before) + " > 0 means something outside the candidates holds it, so it is not garbage."
                            : "The cursor reaches " + a + ": inflight 0, only other candidates hold it (so far).";
    case EventKind::list_move:
        if (e.to == ListId::not_cycle_list)
            return a + " is reachable: it moves to not_cycle_list, and everything in its queue will be restored.";
        if (e.to == ListId::gc_candidates && e.from == ListId::gc_candidates)
            return a + " might still be on a cycle, so it moves to the tail of gc_candidates to be looked at again.";
        if (e.to == ListId::gc_inflight_list)
            return a + " survived this collection and goes back to gc_inflight_list.";
        break;
    case EventKind::skb_hitlist:
        return "skb#" + n(e.a) + " in " + s(e.b) + "'s queue carries garbage: it moves to the hitlist.";
    case EventKind::vertex_visit:
        return "Tarjan visits " + a + ": index = scc_index = " + n(e.after) + ", and it is pushed on the vertex stack.";
    case EventKind::edge_push:
        if (e.c != npos && e.c != e.b)
            return a + "'s file sits in the queue of " + s(e.c) + ", an embryo that belongs to listener " + s(e.b) +
                   "; " + s(e.b) + " is unvisited: the walk descends into it.";
        return a + "'s file sits in " + s(e.b) + "'s queue, and " + s(e.b) + " is unvisited: the walk descends into it.";
    case EventKind::edge_pop:
        return "Back from " + s(e.b) + " to " + a + ": " + a + " takes the smaller scc_index (" + n(e.after) + ").";
    case EventKind::scc_index_update:
        if (e.algo_line == static_cast<std::uint16_t>(AlgoLine::graph_unify))
            return "The fix: " + a + " takes its root's scc_index " + n(e.after) + " so the SCC is judged as one.";
        return s(e.b) + " is still on the stack, so " + a + " and it are in one SCC: scc_index " + n(e.before) + " -> " + n(e.after) + ".";
    case EventKind::scc_found:
        return a + " is the root of an SCC of " + n(e.before) + (e.before == 1 ? " vertex." : " vertices.");
    case EventKind::vertex_dead:
        return a + (e.before ? " is dead: " : " is alive: ") + dead_reason(e.after) + ".";
    case EventKind::scc_verdict:
        return e.before ? "Every member is dead: the SCC is garbage and its receive queues go to the hitlist."
                        : "The SCC is alive and stays.";
    case EventKind::fput_deferred:
        return "The last reference to " + a + " is gone; the socket will be released when __fput runs.";
    case EventKind::sock_release:
        return a + " is released: its receive queue is purged, dropping every fd it carried.";
    case EventKind::gc_begin: return "A collection starts.";
    case EventKind::gc_wait:
        return "The sender must wait for the collection: " +
               std::string(k.era() == GcEra::classic ? "up to 6.8 every sendmsg waits while one runs (unix_gc_wait)."
                                                     : "its user has 2024 or more in flight and it passes an AF_UNIX fd (flush_work).");
    case EventKind::lock_spin:
        return "Another CPU held " + lock_text(e.a) + ": this task spun " + format_ns(static_cast<std::uint64_t>(e.before)) +
               " before it could take it.";
    case EventKind::autobind_probe: {
        const std::string compared = n(e.before) + (e.before == 1 ? " socket" : " sockets") + " compared in bucket " + n(e.c);
        return e.after ? "@" + autobind_name(e.b) + " is taken (" + compared + "): " + a + " tries the next name."
                       : "@" + autobind_name(e.b) + " is free (" + compared + "): " + a + " is bound to it.";
    }
    default: break;
    }
    return describe(e, k);
}

} // namespace inflight
