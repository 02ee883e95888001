// SPDX-License-Identifier: GPL-3.0-or-later
// Every socket, in-flight edge and fd that occurs anywhere in a run, collected by replaying the
// scene on a private Simulation. Laid out once, it gives every socket a place before it exists
// (the "plan"), so sockets appear where the finished structure wants them and nothing ever
// jumps: the idea of Python Tutor's precomputed layouts. Only for runs small enough to replay
// within a time budget; larger ones are laid out incrementally. Qt-free.
#pragma once

#include "inflight/graph_snapshot.hpp"
#include "inflight/simulation.hpp"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

namespace graph {

struct RunGraph {
    // The last state of every socket that was ever drawn on its own (not only as an embryo).
    std::vector<inflight::SnapshotNode> nodes;
    // A listener's embryos at the step it held the most (to size its box).
    std::map<std::uint32_t, std::vector<inflight::SnapshotNode>> embryos;
    // Each process with its largest fd table.
    std::vector<inflight::SnapshotProcess> processes;
    // (from, to) with the most copies seen at once; `to` is the drawn node (listener for embryos).
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> edges;
    // (lower, higher) socket ids that were ever each other's peer, both drawn on their own.
    std::set<std::pair<std::uint32_t, std::uint32_t>> peers;
    // (process, socket) pairs that were ever an open fd.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> fds;
    // The names the nodes' labels and the fds' names are ids into (the last snapshot's).
    inflight::NamePool names;
    bool graph_era = false;
    std::uint64_t steps = 0;
};

struct RunGraphLimits {
    double budget_ms = 400; // give up (no plan) beyond this much replay
    std::size_t max_sockets = 5000;
};

// Replays the scene to its end. nullopt when over a limit or cancelled (`cancel` may be null).
std::optional<RunGraph> collectRunGraph(std::shared_ptr<const inflight::Scene> scene,
                                        const inflight::SimulationOptions &options, const RunGraphLimits &limits = {},
                                        const std::atomic<bool> *cancel = nullptr);

} // namespace graph
