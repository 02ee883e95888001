// SPDX-License-Identifier: GPL-3.0-or-later
// The 6.10+ collector: a graph kept up to date at enqueue/dequeue, Tarjan's SCC walk with the
// kernel's index marks and scc_index propagation, the dead-SCC rule and the fast path.
#pragma once

#include "inflight/algorithm_listing.hpp"
#include "inflight/collector.hpp"
#include "inflight/kernel.hpp"

#include <vector>

namespace inflight {

class GraphCollector final : public Collector {
public:
    using Collector::Collector;
    GcEra era() const override { return GcEra::graph; }
    std::unique_ptr<Collector> clone_for(Kernel &k) const override { return std::make_unique<GraphCollector>(k); }
    Proc attach(ScmFpList &) override { co_return; }
    Proc enqueued(SkBuff &skb, UnixSock &receiver) override;
    Proc dequeued(SkBuff &skb) override;
    Proc detach(ScmFpList &fpl) override;
    Proc accepted(UnixSock &embryo) override;
    Proc collect() override;
    long inflight_of(const UnixSock &u) const override;

    static UnixVertex *successor(const UnixEdge &e);

private:
    Proc unix_add_edges(ScmFpList &fpl, UnixSock &receiver);
    Proc unix_del_edges(ScmFpList &fpl);
    Proc update_graph(UnixVertex *v, KFn fn);
    Proc walk_scc();
    Proc walk_scc_fast();
    Proc walk_from(UnixVertex *vertex, unsigned long &last_index);
    static void prefetch_roots_ahead(const VertexList &list, VertexList::const_iterator at);
    Proc finish_scc(const std::vector<UnixVertex *> &scc, UnixVertex *root);
    Proc scc_dead(const std::vector<UnixVertex *> &scc, bool &dead, std::uint32_t &alive_by);
    Event vertex_dead(UnixVertex *v, const std::vector<UnixVertex *> &scc, bool &dead) const;
    Proc collect_skb(const std::vector<UnixVertex *> &scc);
    bool scc_cyclic(const std::vector<UnixVertex *> &scc) const;
    UnixVertex *new_vertex(UnixSock &u);
    void free_vertex(UnixVertex *v);
    // Tags an event with its listing line in place and hands back the same object: `co_yield
    // line(Event::x(...), L)` yields the temporary itself (it lives in the frame until the
    // coroutine resumes). Taking and returning the event by value copied each one through the
    // frame with wide loads over the narrow stores that had just built it, stalling store
    // forwarding on every micro-step of a walk.
    static const Event &line(Event &&e, AlgoLine l) { return line(e, l); }
    static const Event &line(Event &e, AlgoLine l)
    {
        e.algo_line = static_cast<std::uint16_t>(l);
        return e;
    }

    std::vector<UnixVertex *> scc_; // the SCC the walk is finalising (finish_scc())
};

} // namespace inflight
