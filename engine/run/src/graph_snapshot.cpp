// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/graph_snapshot.hpp"
#include "inflight/why_alive.hpp"

#include "inflight/kernel.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace inflight {

std::string_view gc_role_name(GcRole r)
{
    switch (r) {
    case GcRole::idle: return "not in flight";
    case GcRole::inflight: return "in flight";
    case GcRole::candidate: return "candidate";
    case GcRole::maybe_cycle: return "maybe cycle";
    case GcRole::not_cycle: return "not cycle";
    case GcRole::garbage: return "garbage";
    case GcRole::released: return "released";
    case GcRole::leaked: return "leaked";
    case GcRole::scc_pending: return "in an SCC";
    }
    return "?";
}

namespace {

GcRole classic_role(const Kernel &k, const UnixSock &u)
{
    switch (u.on) {
    case ListId::gc_candidates:
        switch (k.gc_phase) {
        case GcPhase::select:
        case GcPhase::decrement: return GcRole::candidate;
        case GcPhase::restore: return (u.gc_flags & UNIX_GC_MAYBE_CYCLE) ? GcRole::maybe_cycle : GcRole::candidate;
        default: return GcRole::garbage;
        }
    case ListId::not_cycle_list: return GcRole::not_cycle;
    case ListId::gc_inflight_list: return GcRole::inflight;
    default: return GcRole::idle;
    }
}

GcRole graph_role(const Kernel &k, const UnixSock &u, const std::unordered_set<const UnixVertex *> &on_stack)
{
    if (!u.vertex)
        return GcRole::idle;
    if (verdict_of(k, *u.vertex) == 1)
        return GcRole::garbage;
    if (verdict_of(k, *u.vertex) == 0)
        return GcRole::not_cycle;
    if (on_stack.count(u.vertex))
        return GcRole::candidate;
    // Cut off the stack (moved to unix_visited_vertices) in this walk, its verdict not given yet.
    if ((k.gc_phase == GcPhase::walk || k.gc_phase == GcPhase::fast_walk) && on_visited_list(k, *u.vertex))
        return GcRole::scc_pending;
    return GcRole::inflight;
}

std::uint64_t mix(std::uint64_t h, std::uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h;
}

// What every era shares: released is final; between collections, one the last collection left
// unreachable is leaked; a socket judged garbage stays garbage through the purge (which takes
// its lists, flags and vertex away) until it is released. Otherwise the era's role.
GcRole role_with(const Kernel &k, const UnixSock &u, GcRole era_role)
{
    if (u.released)
        return GcRole::released;
    // A socket judged garbage that the collection's end still finds unreachable and not on its
    // way to release was not freed after all: leaked says so.
    if (k.gc_phase == GcPhase::none && k.leaked.count(u.id))
        return GcRole::leaked;
    if (u.judged_garbage)
        return GcRole::garbage;
    return era_role;
}

// Each SCC found so far: a vertex judged in this collection, or cut off the stack and being
// judged, with the members of its scc_entry ring that are too (a ring the walk has not yet
// re-linked may still hold vertices of the last walk's SCC).
std::vector<SnapshotScc> sccs_of_this_collection(const Kernel &k, const std::vector<SnapshotNode> &nodes)
{
    const auto grouped = [&](const UnixVertex &v) {
        return verdict_of(k, v) >= 0 || (v.sock && nodes[v.sock_id].role == GcRole::scc_pending);
    };
    std::vector<SnapshotScc> out;
    std::unordered_set<const UnixVertex *> seen;
    for (const UnixSock &u : k.socks) {
        const UnixVertex *first = u.vertex;
        if (!first || seen.count(first) || !grouped(*first))
            continue;
        SnapshotScc scc;
        const int verdict = verdict_of(k, *first);
        scc.on_ring = verdict >= 0 ? first->verdict_on_ring : k.gc_phase == GcPhase::fast_walk;
        const UnixVertex *root = first;
        const UnixVertex *w = first;
        do {
            if (w->sock && grouped(*w) && seen.insert(w).second) {
                scc.members.push_back(w->sock_id);
                if (!scc.on_ring && w->visit_index < root->visit_index)
                    root = w;
            }
            w = w->scc_next;
        } while (w != first && scc.members.size() <= k.socks.size());
        std::sort(scc.members.begin(), scc.members.end());
        scc.root = verdict >= 0 && first->verdict_root != npos ? first->verdict_root : root->sock_id;
        scc.verdict = verdict < 0 ? SnapshotScc::Verdict::judging
                                  : (verdict == 1 ? SnapshotScc::Verdict::dead : SnapshotScc::Verdict::alive);
        if (scc.verdict == SnapshotScc::Verdict::alive) {
            scc.kept_by = first->kept_by;
            scc.kept_where = first->kept_where;
            scc.kept_reason = first->kept_reason;
        }
        out.push_back(std::move(scc));
    }
    return out;
}

} // namespace

GcRoles::GcRoles(const Kernel &k) : k_(k)
{
    if (k.era() == GcEra::graph)
        on_stack_.insert(k.vertex_stack_view.begin(), k.vertex_stack_view.end());
}

GcRole GcRoles::operator()(const UnixSock &u) const
{
    if (u.released)
        return GcRole::released;
    return role_with(k_, u, k_.era() == GcEra::graph ? graph_role(k_, u, on_stack_) : classic_role(k_, u));
}

GcRole role_of(const Kernel &k, const UnixSock &u) { return GcRoles(k)(u); }

std::string_view GraphSnapshot::why_of(std::uint32_t sock) const
{
    const auto it =
        std::lower_bound(whys.begin(), whys.end(), sock, [](const auto &w, std::uint32_t s) { return w.first < s; });
    return it != whys.end() && it->first == sock ? std::string_view(it->second) : std::string_view();
}

std::string GraphSnapshot::fd_name(const SnapshotFd &f) const
{
    return f.name < names.size() ? std::string(names.str(f.name)) : "fd" + std::to_string(f.fd);
}

const SnapshotWalkMark *GraphSnapshot::walk_mark_of(std::uint32_t sock) const
{
    auto it = std::lower_bound(walk_marks.begin(), walk_marks.end(), sock,
                               [](const SnapshotWalkMark &m, std::uint32_t s) { return m.sock < s; });
    return it != walk_marks.end() && it->sock == sock ? &*it : nullptr;
}

GraphSnapshot snapshot_graph(const Kernel &k)
{
    GraphSnapshot g;
    g.names = k.name_pool;
    const GcRoles role(k);
    // An unaccepted embryo belongs to the listener whose queue holds its connect skb.
    std::unordered_map<std::uint32_t, std::uint32_t> embryo_listener;
    for (const UnixSock &u : k.socks)
        if (u.state == SockState::listening)
            for (const SkBuff &skb : u.receive_queue)
                if (skb.sk && skb.sk->state == SockState::embryo)
                    embryo_listener[skb.sk->id] = u.id;

    g.nodes.reserve(k.socks.size());
    // In flight and not yet judged: a socket out of flight that no fd reaches is one being made
    // or released, not one waiting for the collector.
    const auto awaits_verdict = [](GcRole r) {
        return r != GcRole::idle && r != GcRole::garbage && r != GcRole::leaked && r != GcRole::released;
    };
    bool in_flight_unjudged = false;
    std::uint64_t key = mix(0, k.socks.size());
    for (const UnixSock &u : k.socks) {
        SnapshotNode n;
        n.sock = u.id;
        n.label = u.label;
        n.type = u.type;
        n.state = u.state;
        n.role = role(u);
        if (n.role == GcRole::leaked)
            g.whys.emplace_back(u.id, k.leaked.at(u.id)); // in socket order
        n.listener = u.state == SockState::listening;
        auto it = embryo_listener.find(u.id);
        n.embryo = it != embryo_listener.end();
        n.listener_sock = n.embryo ? it->second : npos;
        n.peer = u.peer ? u.peer->id : npos;
        n.file_refs = u.file ? static_cast<std::int32_t>(u.file->count) : 0;
        n.inflight = static_cast<std::int32_t>(k.collector().inflight_of(u));
        n.queue = static_cast<std::uint32_t>(u.receive_queue.size());
        n.gc_flags = u.gc_flags;
        in_flight_unjudged |= awaits_verdict(n.role);
        key = mix(key, n.embryo ? n.listener_sock : 0x5151);
        key = mix(key, n.peer); // peers are laid out side by side
        g.nodes.push_back(n);
    }
    // The walk's numbers where a lesson follows them: every vertex this walk has visited, on the
    // stack, cut off it with its SCC, and judged, until the walk ends.
    // (The fast path walks the rings the last full walk left, numbering nothing.)
    if (k.era() == GcEra::graph && k.gc_phase == GcPhase::walk) {
        std::unordered_map<const UnixVertex *, std::uint32_t> place;
        for (std::size_t i = 0; i < k.vertex_stack_view.size(); ++i)
            place.emplace(k.vertex_stack_view[i], static_cast<std::uint32_t>(i + 1));
        for (const UnixSock &u : k.socks) {
            if (!u.vertex)
                continue;
            auto at = place.find(u.vertex);
            if (at == place.end() && !on_visited_list(k, *u.vertex))
                continue; // not visited by this walk yet
            g.walk_marks.push_back({u.id, u.vertex->visit_index, static_cast<std::uint32_t>(u.vertex->scc_index),
                                    at == place.end() ? 0u : at->second});
        }
    }
    if (k.era() == GcEra::graph && k.gc_phase != GcPhase::none)
        g.sccs = sccs_of_this_collection(k, g.nodes);
    const bool scanning =
        k.gc_phase == GcPhase::decrement || k.gc_phase == GcPhase::restore || k.gc_phase == GcPhase::hitlist;
    if (k.era() != GcEra::graph && scanning && k.classic_scan_subject < g.nodes.size())
        g.classic_scan_subject = k.classic_scan_subject;
    // One walk from every fd, and only when something in flight waits for a verdict (a scene
    // of a million bound sockets has nothing in flight).
    if (in_flight_unjudged) {
        const std::vector<bool> reached = sockets_reached_from_fds(k);
        for (SnapshotNode &n : g.nodes)
            n.unreachable = !reached[n.sock] && awaits_verdict(n.role);
    }

    auto add_edges = [&](const SkBuff &skb, bool on_hitlist) {
        if (!skb.fp || !skb.receiver)
            return;
        const UnixSock &to = *skb.receiver;
        const std::uint32_t effective = g.nodes[to.id].embryo ? g.nodes[to.id].listener_sock : to.id;
        for (std::size_t i = 0; i < skb.fp->fp.size(); ++i) {
            const File *f = skb.fp->fp[i];
            if (!f || !f->sock)
                continue;
            SnapshotEdge e;
            e.id = (static_cast<std::uint64_t>(skb.id) << 8) | i;
            e.from = f->sock->id;
            e.to = to.id;
            e.effective_to = effective;
            e.skb = skb.id;
            e.on_hitlist = on_hitlist;
            key = mix(mix(mix(key, e.id), e.from), e.effective_to);
            g.edges.push_back(e);
        }
    };
    for (const UnixSock &u : k.socks)
        for (const SkBuff &skb : u.receive_queue)
            add_edges(skb, false);
    for (const SkBuff &skb : k.hitlist)
        add_edges(skb, true);

    for (const Process &p : k.processes) {
        SnapshotProcess sp;
        sp.id = p.id;
        // A process is drawn from the moment it exists, before it holds an fd.
        key = mix(key, p.id);
        sp.name = p.name;
        sp.user = p.user ? p.user->name : "root";
        // By fd, not a hash map: the million-bind scene's process has a million named fds
        // (a hash map of them would cost more than the rest of the snapshot).
        std::vector<std::uint32_t> name_of_fd(p.fds.size(), npos);
        p.names.for_each([&](std::uint32_t name, int fd) {
            if (fd >= 0 && static_cast<std::size_t>(fd) < name_of_fd.size())
                name_of_fd[static_cast<std::size_t>(fd)] = name;
        });
        sp.fds.reserve(p.fds.size());
        for (std::size_t fd = 0; fd < p.fds.size(); ++fd) {
            const File *f = p.fds[fd];
            if (!f || !f->sock)
                continue;
            SnapshotFd sf;
            sf.fd = static_cast<int>(fd);
            sf.name = name_of_fd[fd];
            sf.sock = f->sock->id;
            key = mix(mix(mix(key, p.id), fd), sf.sock);
            sp.fds.push_back(sf);
        }
        g.processes.push_back(std::move(sp));
    }
    g.topology_key = key;
    return g;
}

} // namespace inflight
