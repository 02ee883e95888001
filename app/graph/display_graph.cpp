// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/display_graph.h"

#include <algorithm>
#include <limits>
#include <span>
#include <unordered_map>

namespace graph {

namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

// Tarjan's SCCs, iteratively (rings of thousands would overflow a recursive walk).
// Returns for each vertex the smallest vertex id of its SCC.
std::vector<std::uint32_t> sccRoots(std::uint32_t count, const std::vector<std::uint32_t> &offsets,
                                    const std::vector<std::uint32_t> &targets)
{
    std::vector<std::uint32_t> index(count, kNone), low(count, 0), root(count, kNone);
    std::vector<char> on_stack(count, 0);
    std::vector<std::uint32_t> stack;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> call; // vertex, next edge
    std::uint32_t next_index = 0;
    for (std::uint32_t start = 0; start < count; ++start) {
        if (index[start] != kNone)
            continue;
        call.emplace_back(start, offsets[start]);
        index[start] = low[start] = next_index++;
        stack.push_back(start);
        on_stack[start] = 1;
        while (!call.empty()) {
            auto &[v, e] = call.back();
            if (e < offsets[v + 1]) {
                const std::uint32_t w = targets[e++];
                if (index[w] == kNone) {
                    index[w] = low[w] = next_index++;
                    stack.push_back(w);
                    on_stack[w] = 1;
                    call.emplace_back(w, offsets[w]);
                } else if (on_stack[w]) {
                    low[v] = std::min(low[v], index[w]);
                }
                continue;
            }
            const std::uint32_t done = v;
            call.pop_back();
            if (!call.empty())
                low[call.back().first] = std::min(low[call.back().first], low[done]);
            if (low[done] == index[done]) {
                std::vector<std::uint32_t> members;
                std::uint32_t w;
                do {
                    w = stack.back();
                    stack.pop_back();
                    on_stack[w] = 0;
                    members.push_back(w);
                } while (w != done);
                const std::uint32_t smallest = *std::min_element(members.begin(), members.end());
                for (std::uint32_t m : members)
                    root[m] = smallest;
            }
        }
    }
    return root;
}

std::string typeName(inflight::SockType t)
{
    switch (t) {
    case inflight::SockType::stream: return "stream";
    case inflight::SockType::dgram: return "dgram";
    case inflight::SockType::seqpacket: return "seqpacket";
    }
    return "?";
}

} // namespace

std::uint64_t bundleKey(NodeKey from, NodeKey to, bool fd) { return mix(mix(fd ? 0xfdull : 0xedull, from), to); }

bool bundleEnds(const DisplayGraph &d, const inflight::SnapshotEdge &e, NodeKey &from, NodeKey &to)
{
    if (!d.aggregated || (d.individual(e.from) && d.individual(e.to)))
        return false;
    from = d.nodeOf(e.from);
    to = d.nodeOf(d.individual(e.to) ? e.to : e.effective_to);
    return !(from == to && kindOf(from) == NodeKind::aggregate);
}

std::vector<std::uint32_t> nodeIndexById(const inflight::GraphSnapshot &s)
{
    std::uint32_t max_id = 0;
    for (const auto &n : s.nodes)
        max_id = std::max(max_id, n.sock);
    std::vector<std::uint32_t> idx(s.nodes.empty() ? 0 : max_id + 1, kNone);
    for (std::size_t i = 0; i < s.nodes.size(); ++i)
        idx[s.nodes[i].sock] = static_cast<std::uint32_t>(i);
    return idx;
}

std::uint64_t structureKey(const inflight::GraphSnapshot &s)
{
    std::uint64_t key = s.topology_key;
    for (const auto &n : s.nodes)
        if (n.listener)
            key = mix(key, 0x4c00000000ull | n.sock);
    return key;
}

DisplayGraph buildDisplayGraph(const inflight::GraphSnapshot &s, const std::unordered_set<std::uint32_t> &expanded,
                               const DisplayOptions &options)
{
    DisplayGraph d;
    const std::vector<std::uint32_t> idx = nodeIndexById(s);
    const auto count = static_cast<std::uint32_t>(idx.size());
    d.aggregate_of.assign(count, -1);
    if (s.nodes.size() <= options.aggregate_above)
        return d;

    // Vertices are socket ids; an unaccepted embryo is folded into its listener (edges into it
    // already name the listener as effective_to).
    auto rep = [&](std::uint32_t sock) -> std::uint32_t {
        if (sock >= count || idx[sock] == kNone)
            return kNone;
        const auto &n = s.nodes[idx[sock]];
        if (n.embryo && n.listener_sock < count && idx[n.listener_sock] != kNone)
            return n.listener_sock;
        return sock;
    };
    std::vector<std::uint32_t> offsets(count + 1, 0), targets;
    for (const auto &e : s.edges) {
        const std::uint32_t a = rep(e.from), b = rep(e.effective_to);
        if (a != kNone && b != kNone)
            ++offsets[a + 1];
    }
    for (std::uint32_t i = 0; i < count; ++i)
        offsets[i + 1] += offsets[i];
    targets.resize(offsets[count]);
    {
        std::vector<std::uint32_t> fill(offsets.begin(), offsets.end() - 1);
        for (const auto &e : s.edges) {
            const std::uint32_t a = rep(e.from), b = rep(e.effective_to);
            if (a != kNone && b != kNone)
                targets[fill[a]++] = b;
        }
    }
    std::vector<std::uint32_t> root = sccRoots(count, offsets, targets);
    d.instance_of.assign(count, kNone);
    for (std::uint32_t sock = 0; sock < count; ++sock) {
        const std::uint32_t r = rep(sock);
        if (r != kNone)
            d.instance_of[sock] = root[r];
    }

    // Per-socket degrees, split into inside / outside its SCC, and fds held on it.
    struct Degrees {
        std::uint32_t in_int = 0, out_int = 0, in_ext = 0, out_ext = 0, fds = 0, embryos = 0;
    };
    std::vector<Degrees> deg(count);
    std::vector<std::uint32_t> internal_edges(count, 0); // by instance: copies inside it
    for (const auto &e : s.edges) {
        const std::uint32_t a = rep(e.from), b = rep(e.effective_to);
        if (a == kNone || b == kNone)
            continue;
        if (root[a] == root[b]) {
            ++deg[a].out_int;
            ++deg[b].in_int;
            ++internal_edges[root[a]];
        } else {
            ++deg[a].out_ext;
            ++deg[b].in_ext;
        }
    }
    // The process holding each socket's fds: kNone for none, kSeveral for more than one.
    constexpr std::uint32_t kSeveral = kNone - 1;
    std::vector<std::uint32_t> holder(count, kNone);
    for (std::size_t pi = 0; pi < s.processes.size(); ++pi)
        for (const auto &fd : s.processes[pi].fds)
            if (fd.sock < count) {
                ++deg[fd.sock].fds;
                std::uint32_t &h = holder[fd.sock];
                h = h == kNone || h == pi ? static_cast<std::uint32_t>(pi) : kSeveral;
            }
    for (const auto &n : s.nodes)
        if (n.embryo && rep(n.sock) != n.sock)
            ++deg[rep(n.sock)].embryos;

    // The shape signature of each SCC: its size, inside edges and the sorted list of its
    // members' (type, listener, embryos, degrees, fds). Equal signatures draw the same.
    // Members and signatures by instance in flat arrays (offsets, then values), not a map of
    // vectors: the million-bind scene has a million single-socket SCCs, and two million small
    // vectors were most of its grouping's time on the GUI thread.
    std::vector<std::uint32_t> member_at(count + 1, 0), sig_at(count + 1, 0);
    for (const auto &n : s.nodes) {
        const std::uint32_t inst = d.instance_of[n.sock];
        if (inst == kNone)
            continue;
        ++member_at[inst + 1];
        if (rep(n.sock) == n.sock) // an embryo counts through its listener
            ++sig_at[inst + 1];
    }
    for (std::uint32_t i = 0; i < count; ++i) {
        member_at[i + 1] += member_at[i];
        sig_at[i + 1] += sig_at[i];
    }
    std::vector<std::uint32_t> member_list(member_at[count]);
    std::vector<std::uint64_t> sig_list(sig_at[count]);
    std::vector<std::uint32_t> owner_of(count, kNone); // by instance: its members' holder (as above)
    {
        std::vector<std::uint32_t> next_member(member_at.begin(), member_at.end() - 1);
        std::vector<std::uint32_t> next_sig(sig_at.begin(), sig_at.end() - 1);
        for (const auto &n : s.nodes) {
            const std::uint32_t inst = d.instance_of[n.sock];
            if (inst == kNone)
                continue;
            member_list[next_member[inst]++] = n.sock;
            if (const std::uint32_t h = holder[n.sock]; h != kNone) {
                std::uint32_t &o = owner_of[inst];
                o = o == kNone || o == h ? h : kSeveral;
            }
            if (rep(n.sock) != n.sock)
                continue;
            const Degrees &g = deg[n.sock];
            std::uint64_t h = mix(static_cast<std::uint64_t>(n.type), n.listener);
            for (std::uint32_t v : {g.embryos, g.in_int, g.out_int, g.in_ext, g.out_ext, g.fds})
                h = mix(h, v);
            sig_list[next_sig[inst]++] = h;
        }
    }
    auto members = [&](std::uint32_t inst) {
        return std::span<const std::uint32_t>(member_list.data() + member_at[inst],
                                              member_at[inst + 1] - member_at[inst]);
    };
    struct Group {
        std::uint64_t signature;
        std::vector<std::uint32_t> instances;
    };
    std::unordered_map<std::uint64_t, std::size_t> group_of_sig;
    std::vector<Group> groups;
    for (std::uint32_t inst = 0; inst < count; ++inst) {
        if (sig_at[inst + 1] == sig_at[inst])
            continue; // not an instance (or only embryos, counted through their listener)
        const auto sigs_begin = sig_list.begin() + sig_at[inst], sigs_end = sig_list.begin() + sig_at[inst + 1];
        std::sort(sigs_begin, sigs_end);
        std::uint64_t h = mix(mix(0x5cc, members(inst).size()), internal_edges[inst]);
        for (auto v = sigs_begin; v != sigs_end; ++v)
            h = mix(h, *v);
        if (owner_of[inst] != kNone)
            h = mix(h, 0x0e00000000ull | owner_of[inst]);
        auto [it, added] = group_of_sig.emplace(h, groups.size());
        if (added)
            groups.push_back({h, {}});
        groups[it->second].instances.push_back(inst);
    }

    for (const Group &g : groups) {
        std::vector<std::uint32_t> collapsed;
        std::uint32_t shown = 0;
        for (std::uint32_t inst : g.instances) {
            if (expanded.contains(inst))
                ++shown;
            else
                collapsed.push_back(inst);
        }
        if (collapsed.size() < options.min_instances)
            continue;
        AggregateGroup a;
        a.signature = g.signature;
        a.key = aggregateKey(g.signature);
        a.instances = collapsed;
        a.expanded_instances = shown;
        const std::uint32_t first = collapsed.front();
        const auto m = members(first);
        a.sockets_per_instance = static_cast<std::uint32_t>(m.size());
        if (owner_of[first] < s.processes.size())
            a.owner = s.processes[owner_of[first]].name;
        a.edges_per_instance = internal_edges[first];
        bool ring = m.size() >= 2 && a.edges_per_instance == m.size();
        std::vector<std::string> types;
        for (std::uint32_t sock : m) {
            const auto &n = s.nodes[idx[sock]];
            a.fds_per_instance += deg[sock].fds;
            if (rep(sock) == sock)
                ring = ring && deg[sock].in_int == 1 && deg[sock].out_int == 1;
            const std::string t = typeName(n.type);
            if (std::find(types.begin(), types.end(), t) == types.end())
                types.push_back(t);
        }
        for (std::size_t i = 0; i < types.size(); ++i)
            a.types += (i ? " + " : "") + types[i];
        if (m.size() == 1)
            a.shape = a.edges_per_instance ? "socket holding itself" : "single socket";
        else if (ring)
            a.shape = m.size() == 2 ? "pair holding each other" : "ring";
        else
            a.shape = "strongly connected group";
        const auto index = static_cast<std::int32_t>(d.aggregates.size());
        for (std::uint32_t inst : collapsed)
            for (std::uint32_t sock : members(inst)) {
                d.aggregate_of[sock] = index;
                a.sockets.push_back(sock);
            }
        d.aggregates.push_back(std::move(a));
    }
    d.aggregated = !d.aggregates.empty();
    if (!d.aggregated)
        return d;

    // Bundle the edges and fds that touch an aggregate; those inside one aggregate vanish.
    std::unordered_map<std::uint64_t, std::size_t> bundle_of;
    auto bundle = [&](NodeKey from, NodeKey to, bool fd) -> BundleEdge & {
        const std::uint64_t key = bundleKey(from, to, fd);
        auto [it, added] = bundle_of.emplace(key, d.bundles.size());
        if (added) {
            BundleEdge b;
            b.key = key;
            b.from = from;
            b.to = to;
            b.fd = fd;
            d.bundles.push_back(b);
        }
        return d.bundles[it->second];
    };
    for (const auto &e : s.edges) {
        NodeKey a, b;
        if (!bundleEnds(d, e, a, b))
            continue;
        BundleEdge &be = bundle(a, b, false);
        ++be.count;
        be.on_hitlist += e.on_hitlist;
    }
    for (const auto &p : s.processes)
        for (const auto &fd : p.fds) {
            if (d.individual(fd.sock))
                continue;
            BundleEdge &be = bundle(processKey(p.id), d.nodeOf(fd.sock), true);
            if (be.count++ == 0)
                be.first_fd = fd.fd;
        }
    return d;
}

} // namespace graph
