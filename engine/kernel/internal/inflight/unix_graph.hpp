// SPDX-License-Identifier: GPL-3.0-or-later
// The graph collector's vertices and edges (6.10+): one vertex per in-flight AF_UNIX socket, one
// edge per in-flight copy of its file, pointing at the socket whose queue holds that copy.
#pragma once

#include "inflight/event.hpp"
#include "inflight/intrusive.hpp"

#include <cstddef>
#include <cstdint>

namespace inflight {

struct UnixSock;

struct UnixEdge {
    UnixSock *predecessor = nullptr; // the socket whose file is carried
    UnixSock *successor = nullptr;   // the socket whose receive queue holds the skb
    SafeHook vertex_entry;           // in predecessor->vertex->edges
    SafeHook stack_entry;            // in the walk's edge stack
};

using EdgeList =
    bi::list<UnixEdge, bi::member_hook<UnixEdge, SafeHook, &UnixEdge::vertex_entry>, bi::constant_time_size<false>>;
using EdgeStack =
    bi::list<UnixEdge, bi::member_hook<UnixEdge, SafeHook, &UnixEdge::stack_entry>, bi::constant_time_size<false>>;

// Cache-line aligned, with what the Tarjan walk reads of every vertex in the first line (index,
// scc_index, sock, edges, entry, and the socket's id for the walk's events): the walk visits
// 32,000 vertices per collection and is bound by cache misses, not by instructions.
struct alignas(64) UnixVertex {
    unsigned long index = 0;
    unsigned long scc_index = 0;
    UnixSock *sock = nullptr; // back pointer, for the views and the SCC lists
    CopiedEmpty<EdgeList> edges;
    SafeHook entry;               // unix_unvisited_vertices or unix_visited_vertices
    std::uint32_t sock_id = npos; // sock->id while sock is set: every walk event names it
    std::uint32_t pool_index = 0; // position in Kernel::vertex_pool (its id, for a state copy)
    unsigned long out_degree = 0;
    // scc_entry: a head-less ring like the kernel's list_head, holding the SCC the last walk
    // grouped this vertex into; the fast path walks it. A new vertex is a ring of itself.
    UnixVertex *scc_prev = this;
    UnixVertex *scc_next = this;
    // On unix_visited_vertices rather than unvisited while this equals the Kernel's
    // visited_generation: the walk's final list_replace_init() of visited into unvisited is one
    // increment, as in the kernel, not a pass over every vertex (on_visited_list()).
    std::uint64_t visited_mark = 0;
    // This collection's SCC verdict, for the views (verdict_of()): valid while verdict_run is the
    // running collection's number, so no pass resets it at every collection's start and end.
    std::uint64_t verdict_run = 0;
    std::int8_t verdict_value = -1;
    // For the views: the index this collection's walk visited it at. The kernel overwrites
    // `index` with the grouped marker as its SCC is cut off the stack, before the verdict a
    // lesson explains by it.
    std::uint32_t visit_index = 0;
    // For the views, with the verdict: what kept an alive SCC (the member unix_vertex_dead()
    // found alive, its reason and the successor the reason names; npos when dead), and whether
    // the fast path judged it on the last walk's ring, and the member it is named by. A hull around the SCC says it on the graph.
    std::uint32_t kept_by = npos;
    std::uint32_t kept_where = npos;
    std::uint8_t kept_reason = 0;
    bool verdict_on_ring = false;
    std::uint32_t verdict_root = npos; // the member the verdict names the SCC by
};
static_assert(offsetof(UnixVertex, out_degree) == 64, "UnixVertex: the walk's fields fill the first line");
static_assert(sizeof(UnixVertex) == 128, "UnixVertex: the views' fields fit the second line");

using VertexList =
    bi::list<UnixVertex, bi::member_hook<UnixVertex, SafeHook, &UnixVertex::entry>, bi::constant_time_size<true>>;

} // namespace inflight
