// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/step_snapshot.hpp"

#include "inflight/kernel.hpp"
#include "inflight/simulation.hpp"

#include <algorithm>

namespace inflight {

std::shared_ptr<const SocketLabels> SocketLabels::of(const Kernel &k, std::shared_ptr<const SocketLabels> previous)
{
    const std::size_t n = k.socks.size();
    if (previous && previous->size_ == n)
        return previous;
    auto t = std::make_shared<SocketLabels>();
    t->size_ = n;
    // The pool as it is now names every socket of k; the kept chunks' sockets are k's too,
    // with the same name ids (the same run).
    t->names_ = k.name_pool;
    const std::size_t chunks = (n + kChunk - 1) / kChunk;
    t->chunks_.reserve(chunks);
    // A chunk the previous table has in full holds the same labels here (same run, and a
    // socket's label never changes); a backward step may have fewer sockets, so only chunks
    // full in both are kept.
    const std::size_t kept = previous ? std::min(previous->size_, n) / kChunk : 0;
    for (std::size_t c = 0; c < kept; ++c)
        t->chunks_.push_back(previous->chunks_[c]);
    for (std::size_t c = kept; c < chunks; ++c) {
        auto chunk = std::make_shared<std::vector<std::uint32_t>>();
        const std::size_t end = std::min(n, (c + 1) * kChunk);
        chunk->reserve(end - c * kChunk);
        for (std::size_t id = c * kChunk; id < end; ++id)
            chunk->push_back(k.socks[id].label);
        t->chunks_.push_back(std::move(chunk));
    }
    return t;
}

std::string_view SocketLabels::operator[](std::uint32_t sock) const
{
    if (sock >= size_)
        return "?";
    return names_.str((*chunks_[sock / kChunk])[sock % kChunk]);
}

const std::vector<ListEntry> *StepSnapshot::list(ListId id) const
{
    switch (id) {
    case ListId::gc_inflight_list: return &gc_inflight_list;
    case ListId::gc_candidates: return &gc_candidates;
    case ListId::not_cycle_list: return &not_cycle_list;
    default: return nullptr;
    }
}

namespace {

std::vector<ListEntry> list_entries(const GcList &list, const GcRoles &role)
{
    std::vector<ListEntry> out;
    out.reserve(list.size());
    for (const GcLink &link : list) {
        ListEntry e;
        if (!link.is_cursor) {
            const auto &u = static_cast<const UnixSock &>(link);
            e.sock = u.id;
            e.inflight = u.inflight;
            e.file_refs = u.file ? u.file->count : 0;
            e.gc_flags = u.gc_flags;
            e.role = role(u);
        }
        out.push_back(e);
    }
    return out;
}

} // namespace

SkbEntry skb_entry(const SkBuff &skb)
{
    SkbEntry e;
    e.id = skb.id;
    e.len = skb.len;
    if (skb.fp) {
        e.carried.reserve(skb.fp->fp.size());
        for (const File *f : skb.fp->fp)
            if (f)
                e.carried.push_back(f->sock ? f->sock->id : npos);
    }
    e.receiver = skb.receiver ? skb.receiver->id : npos;
    e.sender = skb.sender ? skb.sender->id : npos;
    if (skb.sk && skb.sk->state == SockState::embryo && skb.sk != skb.receiver)
        e.connecting = skb.sk->id;
    e.oob = skb.oob;
    e.oob_mark = skb.receiver && skb.receiver->oob_skb == &skb;
    e.consumed = skb.consumed;
    e.users = skb.users;
    return e;
}

StepSnapshot snapshot_step(const Simulation &sim, const StepSnapshot *previous)
{
    const Kernel &k = sim.kernel();
    const GcRoles role(k);
    StepSnapshot s;
    s.position = sim.steps();
    s.era = k.era();
    s.profile = std::string(k.config().profile);
    s.autobind = k.config().autobind;
    // The line of the task whose step this is: after a task switch the statement that began
    // last may be another task's, while this step belongs to the statement its own task runs.
    const Event *last = sim.last_event();
    s.current_line = last && last->scene_line ? last->scene_line : sim.current_line();
    s.collection_running = sim.gc_in_progress();
    s.collection = k.gc_runs.empty() ? 0 : k.gc_runs.back().number;
    s.gc_phase = k.gc_phase;
    s.concurrent = k.concurrent;
    s.tasks.reserve(k.tasks.size());
    for (const Task &t : k.tasks)
        s.tasks.push_back({t.name, t.cpu});

    CollectorGlobals &g = s.globals;
    g.unix_tot_inflight = k.unix_tot_inflight;
    g.gc_in_progress = k.gc_in_progress;
    g.graph_maybe_cyclic = k.graph_maybe_cyclic;
    g.graph_grouped = k.graph_grouped;
    g.unvisited_index = k.unvisited_index;
    g.grouped_index = k.grouped_index;
    g.max_scc_index = k.max_scc_index;
    g.hitlist_size = k.hitlist.size();
    for (const User &u : k.users)
        if (u.unix_inflight || &u == &k.users.front())
            g.users.push_back({u.name, u.unix_inflight});

    s.gc_inflight_list = list_entries(k.gc_inflight_list, role);
    s.gc_candidates = list_entries(k.gc_candidates, role);
    s.not_cycle_list = list_entries(k.not_cycle_list, role);
    for (const SkBuff &skb : k.hitlist)
        s.hitlist.push_back(skb_entry(skb));

    s.vertex_stack.reserve(k.vertex_stack_view.size());
    for (const UnixVertex *v : k.vertex_stack_view) {
        VertexEntry e;
        e.sock = v->sock ? v->sock->id : npos;
        e.index = static_cast<long>(v->index);
        e.scc_index = static_cast<long>(v->scc_index);
        e.out_degree = static_cast<long>(v->out_degree);
        e.role = v->sock ? role(*v->sock) : GcRole::idle;
        s.vertex_stack.push_back(e);
    }
    s.edge_stack.reserve(k.edge_stack_view.size());
    for (const UnixEdge *edge : k.edge_stack_view) {
        EdgeEntry e;
        e.from = edge->predecessor ? edge->predecessor->id : npos;
        e.to = edge->successor ? edge->successor->id : npos;
        const UnixSock *eff =
            edge->successor && edge->successor->listener ? edge->successor->listener : edge->successor;
        e.effective_to = eff ? eff->id : npos;
        s.edge_stack.push_back(e);
    }
    // The fast path walks the rings the last full walk left: only then does a view need them.
    if (k.gc_phase == GcPhase::fast_walk)
        for (const VertexList *list : {&k.unvisited_vertices, &k.visited_vertices})
            for (const UnixVertex &v : *list)
                if (v.sock && v.scc_prev && v.scc_prev->sock)
                    s.scc_prev.emplace(v.sock->id, v.scc_prev->sock->id);

    s.sockets = k.socks.size();
    s.labels = SocketLabels::of(k, previous ? previous->labels : nullptr);
    if (previous && previous->leaked && *previous->leaked == k.leaked)
        s.leaked = previous->leaked;
    else
        s.leaked = std::make_shared<const std::map<std::uint32_t, std::string>>(k.leaked);
    return s;
}

} // namespace inflight
