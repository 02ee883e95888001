// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph_gc.hpp"

#include <algorithm>
#include <optional>

namespace inflight {

namespace {
constexpr unsigned long UNIX_VERTEX_INDEX_START = 2;

std::int64_t graph_bits(const Kernel &k) { return (k.graph_maybe_cyclic ? 1 : 0) | (k.graph_grouped ? 2 : 0); }
} // namespace

UnixVertex *GraphCollector::successor(const UnixEdge &e)
{
    // unix_edge_successor(): an fd queued to an unaccepted embryo belongs to its listener.
    if (e.successor->listener)
        return e.successor->listener->vertex;
    return e.successor->vertex;
}

long GraphCollector::inflight_of(const UnixSock &u) const
{
    return u.vertex ? static_cast<long>(u.vertex->out_degree) : 0;
}

UnixVertex *GraphCollector::new_vertex(UnixSock &u)
{
    // Vertices are never reused: a freed vertex stays recognisable if a stale SCC ring still
    // points at it, so the model can report what the kernel would have read after free.
    UnixVertex &v = k_.vertex_pool.emplace_back();
    v.pool_index = static_cast<std::uint32_t>(k_.vertex_pool.size() - 1);
    v.index = k_.unvisited_index;
    if (k_.config().has(KernelChange::init_scc_index)) {
        v.scc_index = ++k_.max_scc_index; // "af_unix: Initialise scc_index in unix_add_edge()."
    } else {
        // Before 60e6489f8e3b nothing set scc_index here: kmalloc() hands back the memory of the
        // vertex freed last (the slab's free list is last in, first out), so the new vertex
        // carries that one's scc_index until a Tarjan walk visits it (CVE-2025-40214). The model
        // keeps the values, not the memory (a freed vertex stays recognisable); fresh memory reads 0.
        if (k_.freed_scc_indexes.empty()) {
            v.scc_index = 0;
        } else {
            v.scc_index = k_.freed_scc_indexes.back();
            k_.freed_scc_indexes.pop_back();
        }
    }
    v.out_degree = 0;
    v.sock = &u;
    v.sock_id = u.id;
    k_.unvisited_vertices.push_back(v);
    u.vertex = &v;
    return &v;
}

void GraphCollector::free_vertex(UnixVertex *v)
{
    VertexList &list = on_visited_list(k_, *v) ? k_.visited_vertices : k_.unvisited_vertices;
    if (v->entry.is_linked())
        list.erase(list.iterator_to(*v));
    v->visited_mark = 0;
    if (!k_.config().has(KernelChange::init_scc_index)) {
        if (k_.freed_scc_indexes.size() >= Kernel::kFreedVerticesKept)
            k_.freed_scc_indexes.erase(k_.freed_scc_indexes.begin());
        k_.freed_scc_indexes.push_back(v->scc_index);
    }
    v->sock->vertex = nullptr;
    v->sock = nullptr;
    v->sock_id = npos;
}

Proc GraphCollector::update_graph(UnixVertex *v, KFn fn)
{
    // The receiver is itself in flight: a cycle may have formed and the grouping is stale.
    if (!v)
        co_return;
    const std::int64_t before = graph_bits(k_);
    k_.graph_maybe_cyclic = true;
    k_.graph_grouped = false;
    if (before != graph_bits(k_))
        co_yield Event::graph_state(fn, v->sock_id, before, graph_bits(k_));
}

Proc GraphCollector::unix_add_edges(ScmFpList &fpl, UnixSock &receiver)
{
    co_yield k_.spin_lock(k_.unix_gc_lock, 0);
    SpinGuard unlock{k_, k_.unix_gc_lock};
    if (fpl.count_unix) {
        fpl.edges = k_.edge_pool.allocate(static_cast<std::uint32_t>(fpl.count_unix));
        int j = 0;
        for (File *f : fpl.fp) {
            UnixSock *pred = f ? f->sock : nullptr;
            if (!pred)
                continue;
            UnixEdge &edge = fpl.edges[static_cast<std::size_t>(j++)];
            edge.predecessor = pred;
            edge.successor = &receiver;
            UnixVertex *v = pred->vertex;
            const bool created = !v;
            if (created)
                v = new_vertex(*pred);
            const auto before = static_cast<std::int64_t>(v->out_degree++);
            v->edges.push_back(edge);
            if (created) {
                // The vertex and its first edge appear together: a vertex never has no edge.
                Event e = Event::vertex_new(KFn::unix_add_edges, pred->id, static_cast<std::int64_t>(v->scc_index));
                e.to = ListId::unvisited_vertices;
                co_yield e;
            }
            UnixVertex *w = successor(edge);
            co_yield Event::edge_add(KFn::unix_add_edges, pred->id, receiver.id, w ? w->sock_id : npos, before,
                                     static_cast<std::int64_t>(v->out_degree));
            co_yield update_graph(w, KFn::unix_update_graph);
        }
        receiver.nr_unix_fds += static_cast<std::uint32_t>(fpl.count_unix);
        k_.unix_tot_inflight += static_cast<unsigned long>(fpl.count_unix);
    }
    fpl.user->unix_inflight += static_cast<unsigned long>(fpl.count());
    fpl.inflight = true;
}

Proc GraphCollector::unix_del_edges(ScmFpList &fpl)
{
    // During a collection's purge the collector already dropped the lock; the edges of the
    // dead fpl go under it again, one list at a time.
    co_yield k_.spin_lock(k_.unix_gc_lock, 0);
    SpinGuard unlock{k_, k_.unix_gc_lock};
    // 6.10 (fpl-dead): a list the collector purges (fpl->dead) leaves its successor alone: a
    // delayed_fput on another CPU may have freed it since the purge began. Before the fix every
    // edge read it (spec 5.7): the model reports the read when the successor is gone.
    const bool leave_successor = fpl.dead && k_.config().has(KernelChange::fpl_dead);
    if (fpl.count_unix) {
        for (int i = 0; i < fpl.count_unix; ++i) {
            UnixEdge &edge = fpl.edges[static_cast<std::size_t>(i)];
            UnixVertex *v = edge.predecessor->vertex;
            if (!leave_successor && !k_.successor_freed(*edge.successor, *edge.predecessor))
                co_yield update_graph(successor(edge), KFn::unix_update_graph);
            if (!v || !edge.vertex_entry.is_linked()) {
                k_.finding("edge without its vertex in unix_del_edges()",
                           k_.label_of(*edge.predecessor) + " has no vertex for an in-flight edge");
                continue;
            }
            v->edges.erase(v->edges.iterator_to(edge));
            const auto before = static_cast<std::int64_t>(v->out_degree--);
            UnixSock &u = *edge.predecessor;
            const ListId was_on = on_visited_list(k_, *v) ? ListId::visited_vertices : ListId::unvisited_vertices;
            const bool freed = v->out_degree == 0;
            if (freed)
                free_vertex(v); // its last edge went: the socket is no longer in flight
            co_yield Event::edge_del(KFn::unix_del_edges, u.id, edge.successor->id, before, before - 1);
            if (freed) {
                Event e = Event::vertex_free(KFn::unix_del_edges, u.id);
                e.from = was_on;
                co_yield e;
            }
        }
        if (!fpl.dead)
            fpl.edges[0].successor->nr_unix_fds -= static_cast<std::uint32_t>(fpl.count_unix);
        else if (!leave_successor) // the kernel's scm_stat write; the model moved the counts at the splice
            k_.successor_freed(*fpl.edges[0].successor, *fpl.edges[0].predecessor);
        k_.unix_tot_inflight -= static_cast<unsigned long>(fpl.count_unix);
    }
    fpl.user->unix_inflight -= static_cast<unsigned long>(fpl.count());
    fpl.inflight = false;
}

Proc GraphCollector::enqueued(SkBuff &skb, UnixSock &receiver)
{
    if (skb.fp && skb.fp->count())
        co_yield unix_add_edges(*skb.fp, receiver);
}

Proc GraphCollector::dequeued(SkBuff &skb)
{
    if (skb.fp && skb.fp->count() && skb.fp->inflight)
        co_yield unix_del_edges(*skb.fp);
}

Proc GraphCollector::detach(ScmFpList &fpl)
{
    // unix_destroy_fpl(): still in the graph only if it never went through recvmsg().
    if (fpl.inflight)
        co_yield unix_del_edges(fpl);
}

Proc GraphCollector::accepted(UnixSock &embryo)
{
    // unix_update_edges(): fds queued to the embryo stop belonging to the listener.
    UnixSock *listener = embryo.listener;
    if (!listener)
        co_return;
    if (embryo.nr_unix_fds)
        co_yield update_graph(listener->vertex, KFn::unix_update_edges);
    embryo.listener = nullptr;
    co_yield Event::sock_note(KFn::unix_update_edges, embryo.id, listener->id);
}

bool GraphCollector::scc_cyclic(const std::vector<UnixVertex *> &scc) const
{
    if (scc.size() > 1)
        return true;
    for (const UnixEdge &e : scc.front()->edges)
        if (successor(e) == scc.front())
            return true; // a self-reference, or an embryo of its own listener
    return false;
}

Event GraphCollector::vertex_dead(UnixVertex *v, const std::vector<UnixVertex *> &scc, bool &dead,
                                  std::uint8_t levels) const
{
    // A plain function, as unix_vertex_dead() is: its one micro-step is the verdict the caller
    // yields, and a coroutine frame per judged vertex cost more than the judging.
    // Reasons: 0 dead, 1 a copy sits with a receiver not in flight, 2 a copy sits in another
    // SCC, 3 a reference outside flight (an fd, a cookie, a peeked copy), 4 a copy sits with a
    // member of this same SCC whose scc_index differs (the mixed low-point defect).
    int reason = 0;
    std::uint32_t where = npos;
    for (const UnixEdge &e : v->edges) {
        UnixVertex *w = successor(e);
        if (!w) {
            reason = 1;
            where = e.successor->id;
            break;
        }
        if (w->scc_index != v->scc_index) {
            // At most once per SCC (the first alive vertex ends the verdict): the search is O(n).
            reason = std::find(scc.begin(), scc.end(), w) != scc.end() ? 4 : 2;
            where = w->sock_id;
            break;
        }
    }
    const long total = v->sock->file ? v->sock->file->count : 0;
    if (reason == 0 && total != static_cast<long>(v->out_degree))
        reason = 3;
    dead = reason == 0;
    Event e =
        Event::vertex_dead(KFn::unix_vertex_dead, v->sock_id, where, static_cast<std::uint32_t>(total), dead, reason);
    line(e, AlgoLine::graph_vertex_dead, levels);
    return e;
}

std::optional<Event> GraphCollector::scc_dead_end(const std::vector<UnixVertex *> &scc, std::uint64_t peek_seq,
                                                  bool &dead, std::uint32_t &alive_by, std::uint8_t levels) const
{
    // 7.0 (peek-seqcount) reads unix_peek_seq around unix_scc_dead()'s loop: a MSG_PEEK that
    // ran meanwhile may have made a member live behind the verdicts already given, so the SCC
    // is given up until the next collection.
    if (k_.config().has(KernelChange::peek_seqcount) && k_.unix_peek_seq != peek_seq) {
        dead = false;
        UnixVertex *v = scc.front();
        alive_by = v->sock_id;
        const long total = v->sock->file ? v->sock->file->count : 0;
        Event e =
            Event::vertex_dead(KFn::unix_vertex_dead, v->sock_id, npos, static_cast<std::uint32_t>(total), false, 5);
        line(e, AlgoLine::graph_vertex_dead, levels);
        return e;
    }
    // Dead: a file count above out_degree now is a reference taken behind the verdict.
    for (UnixVertex *v : scc)
        k_.check_purge_live(*v->sock, static_cast<long>(v->out_degree), KFn::unix_vertex_dead);
    return std::nullopt;
}

void GraphCollector::record_verdict(const std::vector<UnixVertex *> &scc, std::uint32_t root, bool dead, Keeper keeper,
                                    bool on_ring)
{
    ++k_.gc_runs.back().sccs;
    for (UnixVertex *v : scc) {
        v->verdict_value = dead ? 1 : 0;
        v->verdict_run = k_.gc_walk_number;
        v->kept_by = dead ? npos : keeper.by;
        v->kept_where = dead ? npos : keeper.where;
        v->kept_reason = dead ? 0 : keeper.reason;
        v->verdict_on_ring = on_ring;
        v->verdict_root = root;
        v->sock->judged_garbage = v->sock->judged_garbage || dead; // kept for the views until release
    }
    if (dead)
        k_.gc_runs.back().garbage += static_cast<std::uint32_t>(scc.size());
}

Proc GraphCollector::collect_skb(const std::vector<UnixVertex *> &scc)
{
    // unix_collect_skb(): whole receive queues move to the head of the hitlist; a listener's
    // own queue holds embryos, so it is their queues that go.
    auto splice = [this](UnixSock &from, UnixSock &owner, bool embryo) -> Proc {
        const auto n = static_cast<std::int64_t>(from.receive_queue.size());
        for (SkBuff &skb : from.receive_queue) {
            skb.queue_owner = nullptr;
            if (skb.fp) { // the queue's counters follow the skbs (a leaked embryo keeps them honest)
                from.nr_fds -= static_cast<std::uint32_t>(skb.fp->count());
                from.nr_unix_fds -= static_cast<std::uint32_t>(skb.fp->count_unix);
            }
        }
        k_.hitlist.splice(k_.hitlist.begin(), from.receive_queue);
        Event e = Event::queue_splice(KFn::unix_collect_skb, owner.id, embryo ? from.id : npos, n);
        e.from = ListId::receive_queue;
        e.to = ListId::hitlist;
        co_yield line(e, AlgoLine::graph_collect);
        // 6.10 and 6.11 (before oob-no-skb-get): oob_skb's own reference is dropped by hand;
        // an embryo's only since embryo-oob-gc, and without it the embryo's OOB skb leaks.
        if (k_.oob_skb_holds_ref() && (!embryo || k_.config().has(KernelChange::embryo_oob_gc)))
            if (SkBuff *oob = std::exchange(from.oob_skb, nullptr))
                co_yield k_.kfree_skb(*oob, KFn::unix_collect_skb);
    };
    for (UnixVertex *v : scc) {
        UnixSock &u = *v->sock;
        if (u.state == SockState::listening) {
            for (SkBuff &skb : u.receive_queue)
                if (skb.sk && skb.sk->state == SockState::embryo)
                    co_yield splice(*skb.sk, u, true);
        } else {
            co_yield splice(u, u, false);
        }
    }
}

void GraphCollector::link_scc_ring(std::vector<UnixVertex *> &scc)
{
    // The SCC ring the fast path will walk next time (prev runs in push order).
    const std::size_t n = scc.size();
    for (std::size_t i = 0; i < n; ++i) {
        scc[i]->scc_prev = scc[i + 1 < n ? i + 1 : 0]; // no division: this runs for every vertex of every walk
        scc[i]->scc_next = scc[i > 0 ? i - 1 : n - 1];
    }
}

void GraphCollector::prefetch_roots_ahead(const VertexList &list, VertexList::const_iterator at)
{
    // In a graph of short chains most walks are one vertex long, and the next root is the next
    // vertex on unix_unvisited_vertices. Each root costs a chain of dependent misses: its vertex,
    // its first edge, that edge's receiver, the receiver's vertex; and for the verdict its
    // socket and file. Each stage here reads only lines an earlier root fetched, so the chain
    // is in flight three roots ahead instead of waited for one load at a time.
    const auto end = list.end();
    auto ahead = [&end](VertexList::const_iterator i) { return i == end ? i : std::next(i); };
    const auto r1 = ahead(at), r2 = ahead(r1), r3 = ahead(r2);
    if (r3 != end)
        __builtin_prefetch(&*r3);
    if (r2 != end && !r2->edges.empty())
        __builtin_prefetch(&r2->edges.front());
    if (r1 != end) {
        __builtin_prefetch(reinterpret_cast<const char *>(&*r1) + 64, 1); // out_degree, SCC ring, verdict
        __builtin_prefetch(r1->sock);
        if (!r1->edges.empty())
            __builtin_prefetch(r1->edges.front().successor);
    }
    if (!at->edges.empty())
        __builtin_prefetch(at->edges.front().successor->vertex);
    if (at->sock)
        __builtin_prefetch(at->sock->file);
}

Proc GraphCollector::walk_roots(unsigned long &last_index)
{
    // unix_walk_scc() calls __unix_walk_scc() for the first vertex still on
    // unix_unvisited_vertices until none is left; here one path runs all those walks. A path
    // per root cost a tenth of a fast-forwarded collection: in a graph of chains most walks
    // are one vertex long. Nothing of unix_walk_scc()'s own happens between two walks, so
    // "step out of the current function" leaves them where it left them before.
    std::vector<UnixVertex *> &vertex_stack = k_.vertex_stack_view;
    std::vector<UnixEdge *> &edge_stack = k_.edge_stack_view;
    while (!k_.unvisited_vertices.empty()) {
        // Iterative Tarjan as __unix_walk_scc() does it: a vertex stack, an edge stack for
        // backtracking, and scc_index (the low-link) propagated from the successor's scc_index.
        UnixVertex *vertex = &k_.unvisited_vertices.front();
        vertex_stack.clear();
        edge_stack.clear();
        EdgeList::iterator it;
        bool enter = true;
        for (;;) {
            if (enter) {
                vertex_stack.push_back(vertex);
                vertex->index = last_index;
                vertex->scc_index = last_index;
                vertex->visit_index = static_cast<std::uint32_t>(last_index);
                ++last_index;
                Event e = Event::vertex_visit(KFn::__unix_walk_scc, vertex->sock_id,
                                              static_cast<std::int64_t>(vertex->index));
                e.to = ListId::vertex_stack;
                co_yield line(e, AlgoLine::graph_enter);
                it = vertex->edges.begin();
                enter = false;
                // Finalising its SCC will unlink this vertex from unix_unvisited_vertices, which writes to
                // both its list neighbours. In a graph walked many times the list's order no longer
                // follows memory, so each unlink missed the cache twice: fetch them now instead.
                const auto at = k_.unvisited_vertices.iterator_to(*vertex);
                __builtin_prefetch(std::next(at).pointed_node(), 1);
                __builtin_prefetch(std::prev(at).pointed_node(), 1);
                prefetch_roots_ahead(k_.unvisited_vertices, at);
            }
            for (; it != vertex->edges.end(); ++it) {
                UnixEdge &edge = *it;
                UnixVertex *next = successor(edge);
                if (!next)
                    continue; // the receiver is not in flight
                if (next->index == k_.unvisited_index) {
                    edge_stack.push_back(&edge);
                    Event e =
                        Event::edge_push(KFn::__unix_walk_scc, vertex->sock_id, next->sock_id, edge.successor->id);
                    e.to = ListId::edge_stack;
                    co_yield line(e, AlgoLine::graph_tree_edge);
                    vertex = next;
                    enter = true;
                    break;
                }
                if (next->index != k_.grouped_index) {
                    // A back or cross edge to a vertex still on the stack: same SCC.
                    const auto before = static_cast<std::int64_t>(vertex->scc_index);
                    vertex->scc_index = std::min(vertex->scc_index, next->scc_index);
                    co_yield line(Event::scc_index_update(KFn::__unix_walk_scc, vertex->sock_id, next->sock_id, before,
                                                          static_cast<std::int64_t>(vertex->scc_index)),
                                  AlgoLine::graph_back_edge);
                }
            }
            if (enter)
                continue;
            bool finalised = false;
            if (vertex->index == vertex->scc_index) {
                auto pos = std::find(vertex_stack.begin(), vertex_stack.end(), vertex);
                // One walk runs at a time (under unix_gc_lock), so one buffer serves every SCC it
                // finalises: no allocation per SCC, of which a walk can finalise 30,000.
                scc_.assign(pos, vertex_stack.end());
                vertex_stack.erase(pos, vertex_stack.end());
                const std::vector<UnixVertex *> &scc = scc_;
                UnixVertex *root = vertex;
                // Finalising the SCC is written out here, as the kernel writes it in
                // __unix_walk_scc(): a nested path for it and one for unix_scc_dead() cost a quarter
                // of a fast-forwarded collection, which finalises an SCC for every vertex of a
                // graph of chains. Its events still count as a level of their own (the SCC) and
                // the verdicts as one more, so "step out of the current function" leaves one SCC.
                co_yield line(
                    Event::scc_found(KFn::__unix_walk_scc, root->sock_id, static_cast<std::int64_t>(scc.size())),
                    AlgoLine::graph_scc_cut, 1);
                for (UnixVertex *v : scc) {
                    k_.unvisited_vertices.erase(k_.unvisited_vertices.iterator_to(*v));
                    k_.visited_vertices.push_back(*v);
                    v->visited_mark = k_.visited_generation;
                    v->index = k_.grouped_index;
                }
                if (k_.config().has(KernelChange::unify_scc_index)) {
                    // The fix of "Unify scc_index when finalising SCC": every member carries the
                    // root's low-link, so unix_vertex_dead() compares like with like.
                    for (UnixVertex *v : scc)
                        if (v->scc_index != root->scc_index) {
                            const auto before = static_cast<std::int64_t>(v->scc_index);
                            v->scc_index = root->scc_index;
                            co_yield line(Event::scc_index_update(KFn::__unix_walk_scc, v->sock_id, root->sock_id,
                                                                  before, static_cast<std::int64_t>(v->scc_index)),
                                          AlgoLine::graph_unify, 1);
                        }
                }
                link_scc_ring(scc_);
                // unix_scc_dead(): the SCC is garbage when every member is dead.
                bool dead = true;
                // The member that kept the SCC and its own verdict's reason: the SCC's verdict
                // names them, since "alive" alone does not say what keeps it.
                std::uint32_t alive_by = npos;
                Event::Value alive_reason = 0;
                std::uint32_t alive_where = npos;
                const std::uint64_t peek_seq = k_.unix_peek_seq;
                for (UnixVertex *v : scc) {
                    const Event judged = vertex_dead(v, scc, dead, 2);
                    co_yield judged;
                    if (!dead) {
                        alive_by = v->sock_id;
                        alive_reason = judged.reason();
                        alive_where = judged.successor();
                        break;
                    }
                }
                if (dead)
                    if (const std::optional<Event> given_up = scc_dead_end(scc, peek_seq, dead, alive_by, 2)) {
                        alive_reason = given_up->reason();
                        co_yield *given_up;
                    }
                record_verdict(scc, root->sock_id, dead,
                               {alive_by, alive_where, static_cast<std::uint8_t>(alive_reason)}, false);
                bool cyclic = false;
                if (dead) {
                    co_yield collect_skb(scc).below_inline(1);
                } else {
                    k_.max_scc_index = std::max(k_.max_scc_index, root->scc_index);
                    cyclic = scc_cyclic(scc);
                    k_.graph_cyclic_sccs += cyclic ? 1 : 0;
                    if (!k_.graph_maybe_cyclic && cyclic) {
                        k_.graph_maybe_cyclic = true;
                        co_yield line(Event::graph_state(KFn::unix_scc_cyclic, root->sock_id, graph_bits(k_) & ~1,
                                                         graph_bits(k_)),
                                      AlgoLine::graph_cyclic, 1);
                    }
                }
                co_yield line(Event::scc_verdict(KFn::__unix_walk_scc, root->sock_id, alive_by, dead, cyclic,
                                                 alive_reason, alive_where),
                              dead ? AlgoLine::graph_collect : AlgoLine::graph_cyclic, 1);
                finalised = true;
            }
            if (edge_stack.empty())
                break;
            UnixEdge *edge = edge_stack.back();
            edge_stack.pop_back();
            UnixVertex *next = vertex;
            vertex = edge->predecessor->vertex;
            const auto before = static_cast<std::int64_t>(vertex->scc_index);
            if (finalised && !k_.config().has(KernelChange::walk_uninit)) {
                // Before 927fa5b3e4f5 the loop over the finalised SCC left the walk's vertex pointing
                // at that loop's list head, which lives on the stack: the backtrack reads its
                // "scc_index" from uninitialised stack memory (KMSAN: uninit-value). The model says
                // so here and keeps the predecessor's own value, which is what the fixed code
                // computes (a finalised root's scc_index is never below its predecessor's).
                k_.warn_finding("KMSAN: uninit-value in __unix_walk_scc()",
                                "backtracking from the SCC of " + k_.label_of(*next->sock) + " (just finalised) to " +
                                    k_.label_of(*vertex->sock) +
                                    " reads next_vertex->scc_index through the loop's list head on the stack "
                                    "(walk-uninit, 927fa5b3e4f5)");
            } else {
                vertex->scc_index = std::min(vertex->scc_index, next->scc_index);
            }
            Event e = Event::edge_pop(KFn::__unix_walk_scc, vertex->sock_id, next->sock_id, before,
                                      static_cast<std::int64_t>(vertex->scc_index));
            e.from = ListId::edge_stack;
            co_yield line(e, AlgoLine::graph_backtrack);
            it = std::next(vertex->edges.iterator_to(*edge));
        }
        vertex_stack.clear();
    }
}

Proc GraphCollector::walk_scc()
{
    unsigned long last_index = UNIX_VERTEX_INDEX_START;
    k_.max_scc_index = UNIX_VERTEX_INDEX_START;
    const std::int64_t before = graph_bits(k_);
    k_.graph_maybe_cyclic = false;
    k_.graph_cyclic_sccs = 0;
    co_yield line(Event::graph_state(KFn::unix_walk_scc, npos, before, graph_bits(k_)), AlgoLine::graph_walk_loop);
    co_yield walk_roots(last_index);
    // The visited list becomes the unvisited one and the marks swap: no O(n) reset next time.
    k_.unvisited_vertices.splice(k_.unvisited_vertices.end(), k_.visited_vertices);
    ++k_.visited_generation;
    std::swap(k_.unvisited_index, k_.grouped_index);
    const std::int64_t b2 = graph_bits(k_);
    k_.graph_grouped = true;
    co_yield line(Event::graph_state(KFn::unix_walk_scc, npos, b2, graph_bits(k_)), AlgoLine::graph_swap_marks);
}

Proc GraphCollector::walk_scc_fast()
{
    const std::int64_t before = graph_bits(k_);
    k_.graph_maybe_cyclic = false;
    // 6.19 decrements the count for each dead cyclic SCC; counting the live ones again is the
    // same number when the rings are those of the last walk.
    k_.graph_cyclic_sccs = 0;
    co_yield line(Event::graph_state(KFn::unix_walk_scc_fast, npos, before, graph_bits(k_)), AlgoLine::graph_fast_loop);
    const std::size_t limit = k_.vertex_pool.size();
    while (!k_.unvisited_vertices.empty()) {
        UnixVertex *first = &k_.unvisited_vertices.front();
        std::vector<UnixVertex *> scc{first};
        for (UnixVertex *w = first->scc_prev; w != first; w = w->scc_prev) {
            if (!w->sock || scc.size() > limit) {
                k_.finding("SCC ring intact in unix_walk_scc_fast()",
                           "the ring of " + k_.label_of(*first->sock) + " reaches a freed vertex");
                break;
            }
            scc.push_back(w);
        }
        co_yield line(Event::scc_found(KFn::unix_walk_scc_fast, first->sock_id, static_cast<std::int64_t>(scc.size())),
                      AlgoLine::graph_fast_loop);
        k_.charge(Cost::gc_fast_vertex, scc.size()); // each vertex of the ring is moved to visited
        for (UnixVertex *v : scc) {
            if (v->entry.is_linked()) {
                VertexList &from = on_visited_list(k_, *v) ? k_.visited_vertices : k_.unvisited_vertices;
                from.erase(from.iterator_to(*v));
            }
            k_.visited_vertices.push_back(*v);
            v->visited_mark = k_.visited_generation;
        }
        // unix_scc_dead(), written out as in __unix_walk_scc() (its verdicts a level deeper).
        bool dead = true;
        std::uint32_t alive_by = npos;
        Event::Value alive_reason = 0;
        std::uint32_t alive_where = npos;
        const std::uint64_t peek_seq = k_.unix_peek_seq;
        for (UnixVertex *v : scc) {
            const Event judged = vertex_dead(v, scc, dead, 1);
            co_yield judged;
            if (!dead) {
                alive_by = v->sock_id;
                alive_reason = judged.reason();
                alive_where = judged.successor();
                break;
            }
        }
        if (dead)
            if (const std::optional<Event> given_up = scc_dead_end(scc, peek_seq, dead, alive_by, 1)) {
                alive_reason = given_up->reason();
                co_yield *given_up;
            }
        record_verdict(scc, first->sock_id, dead, {alive_by, alive_where, static_cast<std::uint8_t>(alive_reason)},
                       true);
        bool cyclic = false;
        if (dead) {
            co_yield collect_skb(scc);
        } else {
            cyclic = scc_cyclic(scc);
            k_.graph_cyclic_sccs += cyclic ? 1 : 0;
            if (!k_.graph_maybe_cyclic && cyclic)
                k_.graph_maybe_cyclic = true;
        }
        co_yield line(Event::scc_verdict(KFn::unix_walk_scc_fast, first->sock_id, alive_by, dead, cyclic, alive_reason,
                                         alive_where),
                      dead ? AlgoLine::graph_fast_dead : AlgoLine::graph_cyclic);
    }
    k_.unvisited_vertices.splice(k_.unvisited_vertices.end(), k_.visited_vertices);
    ++k_.visited_generation;
}

Proc GraphCollector::collect()
{
    Kernel &k = k_;
    GcRun &run = k.gc_runs.back();
    run.inflight_sockets = static_cast<std::uint32_t>(k.unvisited_vertices.size());
    // The walk runs under unix_gc_lock: senders adding or removing edges spin meanwhile.
    co_yield k.spin_lock(k.unix_gc_lock, 0);
    if (!k.graph_maybe_cyclic) {
        run.skipped = true;
        k.spin_unlock(k.unix_gc_lock);
        co_yield line(Event::gc_skip(KFn::unix_gc_work, run.number, true), AlgoLine::graph_skip);
        k.gc_in_progress = false;
        co_return;
    }
    ++k.gc_walk_number; // every verdict of an earlier walk lapses (verdict_of())
    if (k.graph_grouped) {
        run.fast_path = true;
        k.gc_phase = GcPhase::fast_walk;
        co_yield walk_scc_fast();
    } else {
        k.gc_phase = GcPhase::walk;
        co_yield walk_scc();
    }
    k.spin_unlock(k.unix_gc_lock);
    k.gc_phase = GcPhase::purge;
    for (SkBuff &skb : k.hitlist)
        if (skb.fp)
            skb.fp->dead = true;
    run.hitlist = static_cast<std::uint32_t>(k.hitlist.size());
    co_yield k.purge_hitlist();
    k.gc_phase = GcPhase::none;
    k.gc_in_progress = false;
}

} // namespace inflight
