// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/event_breakpoints.hpp"

#include "inflight/algorithm_listing.hpp"
#include "inflight/event.hpp"
#include "inflight/kernel.hpp"

namespace inflight {

namespace {

// Whether v is on the SCC ring (scc_entry) through root. Both collectors leave the ring of the
// SCC being judged in place until the next walk; the bound guards against a broken ring, which
// the fast path reports as a finding.
bool on_ring(const Kernel &k, const UnixVertex *root, const UnixVertex *v)
{
    if (!root || !v)
        return false;
    const std::size_t limit = k.vertex_pool.size();
    const UnixVertex *w = root;
    for (std::size_t n = 0; w && n <= limit; ++n) {
        if (w == v)
            return true;
        w = w->scc_next;
        if (w == root)
            break;
    }
    return false;
}

const UnixVertex *vertex_of(const Kernel &k, std::uint32_t sock_id)
{
    return sock_id < k.socks.size() ? k.socks[sock_id].vertex : nullptr;
}

// The embryo a classic scan of listener u visits first (npos: none queued).
std::uint32_t first_embryo(const UnixSock &u)
{
    for (const SkBuff &skb : u.receive_queue)
        if (skb.sk && skb.sk->state == SockState::embryo)
            return skb.sk->id;
    return npos;
}

} // namespace

bool becomes_candidate(const Event &e, const Kernel &k, const UnixSock &u)
{
    switch (e.kind) {
    case EventKind::list_move: // select_candidates()
        return e.sock() == u.id && e.from == ListId::gc_inflight_list && e.to == ListId::gc_candidates;
    case EventKind::vertex_visit: // __unix_walk_scc(): the vertex is entered
        return e.sock() == u.id;
    case EventKind::scc_found: // unix_walk_scc_fast(): the whole ring is judged as one SCC
        return e.fn == KFn::unix_walk_scc_fast && u.vertex && on_ring(k, vertex_of(k, e.root()), u.vertex);
    default: return false;
    }
}

bool found_garbage(const Event &e, const Kernel &k, const UnixSock &u)
{
    if (e.kind == EventKind::scc_verdict)
        return e.dead() && u.vertex && on_ring(k, vertex_of(k, e.root()), u.vertex);
    // Classic: the hitlist loop scans what is left on gc_candidates after the restore walk, and
    // only garbage is left. A listener is scanned once per embryo: stop at the first.
    if (e.kind == EventKind::scan && e.fn == KFn::scan_inflight && e.sock() == u.id &&
        e.algo_line == static_cast<std::uint16_t>(AlgoLine::classic_hitlist_scan))
        return e.embryo() == npos || e.embryo() == first_embryo(u);
    return false;
}

EventBreak EventBreakpointSet::check(const Event &e, const Kernel &k) const
{
    if (collection_starts && e.kind == EventKind::gc_begin)
        return EventBreak::collection_starts;
    if (hitlist_non_empty && (e.kind == EventKind::skb_hitlist || (e.kind == EventKind::queue_splice && e.skbs() > 0)))
        return EventBreak::hitlist_non_empty;
    // A WARN (a use-after-free found after a purge) comes with no event of its own: the step
    // it was made at stops too, so that a run playing on shows it when it happens.
    if (invariant_violated &&
        (e.kind == EventKind::finding || (!k.findings.empty() && k.findings.back().step == e.step)))
        return EventBreak::invariant_violated;
    if (statement_fails && e.kind == EventKind::stmt_end && e.error() != 0)
        return EventBreak::statement_fails;
    // The labels are looked up only on the events that can mean them (this runs on every step).
    const bool candidate_event =
        e.kind == EventKind::list_move || e.kind == EventKind::vertex_visit || e.kind == EventKind::scc_found;
    if (candidate_event && !becomes_candidate.empty())
        if (const UnixSock *u = k.find_label(becomes_candidate); u && inflight::becomes_candidate(e, k, *u))
            return EventBreak::becomes_candidate;
    const bool garbage_event = e.kind == EventKind::scc_verdict || e.kind == EventKind::scan;
    if (garbage_event && !found_garbage.empty())
        if (const UnixSock *u = k.find_label(found_garbage); u && inflight::found_garbage(e, k, *u))
            return EventBreak::found_garbage;
    return EventBreak::none;
}

std::string EventBreakpointSet::describe(EventBreak b) const
{
    switch (b) {
    case EventBreak::none: return {};
    case EventBreak::collection_starts: return "a collection starts";
    case EventBreak::hitlist_non_empty: return "the hitlist is no longer empty";
    case EventBreak::invariant_violated: return "an invariant was violated";
    case EventBreak::statement_fails: return "a statement failed";
    case EventBreak::becomes_candidate: return becomes_candidate + " becomes a candidate";
    case EventBreak::found_garbage: return found_garbage + " is found garbage";
    }
    return {};
}

} // namespace inflight
