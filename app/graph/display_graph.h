// SPDX-License-Identifier: GPL-3.0-or-later
// What the graph view shows for a snapshot: every socket on its own, or - above a few thousand
// sockets - each strongly connected group (SCC: a ring, a pair holding each other, a single
// socket) whose shape occurs many times collapsed into one aggregate node per shape, e.g.
// "16 sockets × 2000". Edges that touch an aggregate are bundled (one drawn edge with a count).
// Computed from the topology only (never from GC roles), so it changes exactly when the layout
// has to. Qt-free.
#pragma once

#include "graph/graph_ids.h"
#include "inflight/graph_snapshot.hpp"

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

namespace graph {

struct AggregateGroup {
    NodeKey key = 0; // aggregateKey(signature): stable while the shape is
    std::uint64_t signature = 0;
    std::uint32_t sockets_per_instance = 0;
    std::uint32_t edges_per_instance = 0; // in-flight copies inside one instance
    std::uint32_t fds_per_instance = 0;   // process fds pointing into one instance
    std::vector<std::uint32_t> instances; // collapsed instances, by their smallest socket id
    std::vector<std::uint32_t> sockets;   // every collapsed socket
    std::uint32_t expanded_instances = 0; // instances of this shape shown one by one
    std::string shape;                    // "ring", "single socket", ... (plain words)
    std::string types;                    // "stream", "dgram", "stream + dgram", ...
    // The one process whose fds hold every instance of the group, when there is one: groups
    // are split by it, so thousands of sockets in flight read as "1,990 sockets of holder3"
    // beside that process rather than one smear of every process's fds.
    std::string owner;
};

// Several in-flight copies or fds drawn as one edge, because an end is an aggregate.
struct BundleEdge {
    std::uint64_t key = 0;
    NodeKey from = 0, to = 0;
    std::uint32_t count = 0;
    std::uint32_t on_hitlist = 0;
    bool fd = false; // process fds (from is a process)
    int first_fd = -1;
};

struct DisplayGraph {
    bool aggregated = false;
    std::vector<std::int32_t> aggregate_of; // by socket id: index into aggregates, or -1
    std::vector<std::uint32_t> instance_of; // by socket id: smallest socket id of its SCC (aggregated only)
    std::vector<AggregateGroup> aggregates;
    std::vector<BundleEdge> bundles;

    bool individual(std::uint32_t sock) const { return sock >= aggregate_of.size() || aggregate_of[sock] < 0; }
    // The drawn node of a socket: itself or its aggregate.
    NodeKey nodeOf(std::uint32_t sock) const
    {
        return individual(sock) ? socketKey(sock) : aggregates[static_cast<std::size_t>(aggregate_of[sock])].key;
    }
};

struct DisplayOptions {
    std::size_t aggregate_above = 3000; // sockets; at or below, everything is shown
    std::size_t min_instances = 4;      // fewer instances of a shape are shown one by one
};

DisplayGraph buildDisplayGraph(const inflight::GraphSnapshot &snapshot,
                               const std::unordered_set<std::uint32_t> &expanded_instances,
                               const DisplayOptions &options = {});

// The key of the bundle an edge or fd belongs to.
std::uint64_t bundleKey(NodeKey from, NodeKey to, bool fd);
// Whether an in-flight copy is drawn as part of a bundle, and the bundle's ends.
bool bundleEnds(const DisplayGraph &d, const inflight::SnapshotEdge &e, NodeKey &from, NodeKey &to);

// topology_key plus what else changes the drawing's structure (a socket starting to listen).
std::uint64_t structureKey(const inflight::GraphSnapshot &snapshot);

// The socket-id-indexed position of each node in snapshot.nodes (npos for ids without a node).
std::vector<std::uint32_t> nodeIndexById(const inflight::GraphSnapshot &snapshot);

} // namespace graph
