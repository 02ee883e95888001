// SPDX-License-Identifier: GPL-3.0-or-later
// The 6.10+ collector: a graph kept up to date at enqueue/dequeue, Tarjan's SCC walk with the
// kernel's index marks and scc_index propagation, the dead-SCC rule and the fast path.
#pragma once

#include "inflight/algorithm_listing.hpp"
#include "inflight/collector.hpp"
#include "inflight/kernel.hpp"

#include <optional>
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
    Proc walk_roots(unsigned long &last_index);
    static void prefetch_roots_ahead(const VertexList &list, VertexList::const_iterator at);
    // unix_vertex_dead()'s verdict on one member, as the event the caller yields; `levels`:
    // the inline levels it is yielded at (Event::depth).
    Event vertex_dead(UnixVertex *v, const std::vector<UnixVertex *> &scc, bool &dead, std::uint8_t levels) const;
    // The end of unix_scc_dead() for an SCC every member of which was judged dead: the event of
    // a verdict given up (7.0's peek seqcount), or none.
    std::optional<Event> scc_dead_end(const std::vector<UnixVertex *> &scc, std::uint64_t peek_seq, bool &dead,
                                      std::uint32_t &alive_by, std::uint8_t levels) const;
    // The verdict on every member, with what kept an alive SCC (see UnixVertex::kept_by).
    struct Keeper {
        std::uint32_t by = npos;
        std::uint32_t where = npos;
        std::uint8_t reason = 0;
    };
    void record_verdict(const std::vector<UnixVertex *> &scc, std::uint32_t root, bool dead, Keeper keeper,
                        bool on_ring);
    static void link_scc_ring(std::vector<UnixVertex *> &scc);
    Proc collect_skb(const std::vector<UnixVertex *> &scc);
    bool scc_cyclic(const std::vector<UnixVertex *> &scc) const;
    UnixVertex *new_vertex(UnixSock &u);
    void free_vertex(UnixVertex *v);
    // Tags an event with its listing line in place and hands back the same object: `co_yield
    // line(Event::x(...), L)` yields the temporary itself (it lives in the frame until the
    // coroutine resumes). Taking and returning the event by value copied each one through the
    // frame with wide loads over the narrow stores that had just built it, stalling store
    // forwarding on every micro-step of a walk.
    // `levels`: yielded from code written inline for that many kernel functions (Event::depth).
    static const Event &line(Event &&e, AlgoLine l, std::uint8_t levels = 0) { return line(e, l, levels); }
    static const Event &line(Event &e, AlgoLine l, std::uint8_t levels = 0)
    {
        e.algo_line = static_cast<std::uint16_t>(l);
        e.depth = levels;
        return e;
    }

    std::vector<UnixVertex *> scc_; // the SCC the walk is finalising
};

} // namespace inflight
