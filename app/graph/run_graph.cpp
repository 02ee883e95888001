// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/run_graph.h"

#include "graph/display_graph.h"

#include <chrono>
#include <set>

namespace graph {

std::optional<RunGraph> collectRunGraph(std::shared_ptr<const inflight::Scene> scene,
                                        const inflight::SimulationOptions &options, const RunGraphLimits &limits,
                                        const std::atomic<bool> *cancel)
{
    const auto t0 = std::chrono::steady_clock::now();
    inflight::SimulationOptions o = options;
    o.record = false;
    o.checked = false;
    inflight::Simulation sim(std::move(scene), o);
    RunGraph run;
    run.graph_era = sim.era() == inflight::GcEra::graph;
    std::map<std::uint32_t, inflight::SnapshotNode> nodes;
    std::map<std::uint32_t, inflight::SnapshotProcess> processes;
    std::set<std::pair<std::uint32_t, std::uint32_t>> fds;
    std::uint64_t last_key = 0;
    bool first = true;
    // Sampled at statement boundaries - every statement while the run is small, every k-th as
    // it grows (k ~ sockets / 64) - and at the end. Sockets never leave the kernel's table, so
    // every socket is seen; an edge or fd that comes and goes between two samples is missed,
    // which only makes the plan less tidy.
    std::uint64_t statements = 0;
    std::size_t stride = 1;
    for (bool more = true;;) {
        const bool sample = !more || statements % stride == 0;
        if (sample) {
            inflight::GraphSnapshot s = inflight::snapshot_graph(sim.kernel());
            if (s.nodes.size() > limits.max_sockets)
                return std::nullopt;
            stride = 1 + s.nodes.size() / 64;
            if (!more) // the last sample's names: the pool only grows, so it holds every one
                run.names = s.names;
            const std::uint64_t key = structureKey(s);
            if (first || key != last_key) {
                first = false;
                last_key = key;
                std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> now;
                for (const auto &e : s.edges)
                    ++now[{e.from, e.effective_to}];
                for (const auto &[pair, count] : now)
                    run.edges[pair] = std::max(run.edges[pair], count);
                std::map<std::uint32_t, std::vector<inflight::SnapshotNode>> embryos;
                for (const auto &n : s.nodes) {
                    if (n.embryo && n.listener_sock != inflight::npos)
                        embryos[n.listener_sock].push_back(n);
                    else
                        nodes[n.sock] = n;
                }
                for (const auto &n : s.nodes)
                    if (!n.embryo && n.peer != inflight::npos && n.peer < s.nodes.size() && !s.nodes[n.peer].embryo)
                        run.peers.insert({std::min(n.sock, n.peer), std::max(n.sock, n.peer)});
                for (auto &[listener, list] : embryos)
                    if (list.size() > run.embryos[listener].size())
                        run.embryos[listener] = list;
                for (const auto &p : s.processes) {
                    auto &kept = processes[p.id];
                    if (kept.fds.size() <= p.fds.size())
                        kept = p;
                    for (const auto &fd : p.fds)
                        fds.insert({p.id, fd.sock});
                }
            } else {
                for (const auto &n : s.nodes)
                    if (auto it = nodes.find(n.sock); it != nodes.end() && !n.embryo)
                        it->second = n;
            }
        }
        if (!more)
            break;
        more = sim.step_over();
        ++statements;
        if ((cancel && cancel->load()) ||
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() > limits.budget_ms)
            return std::nullopt;
    }
    run.steps = sim.steps();
    for (auto &[id, n] : nodes)
        run.nodes.push_back(n);
    for (auto &[id, p] : processes)
        run.processes.push_back(p);
    run.fds.assign(fds.begin(), fds.end());
    return run;
}

} // namespace graph
