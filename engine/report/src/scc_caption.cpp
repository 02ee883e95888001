// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/scc_caption.hpp"

namespace inflight {

namespace {

std::string label(const GraphSnapshot &g, std::uint32_t sock)
{
    if (sock >= g.nodes.size())
        return "?";
    const std::string_view l = g.label_of(g.nodes[sock]);
    return l.empty() ? "#" + std::to_string(sock) : std::string(l);
}

// The fd of some process that holds the socket's file, if one does: what a student can point at.
std::string fd_holding(const GraphSnapshot &g, std::uint32_t sock)
{
    for (const SnapshotProcess &p : g.processes)
        for (const SnapshotFd &f : p.fds)
            if (f.sock == sock)
                return g.fd_name(f);
    return {};
}

// Why the member kept the SCC alive, by unix_vertex_dead()'s reason codes (graph_gc.cpp;
// narrate.cpp's dead_reason() says each in full).
std::string kept_alive(const GraphSnapshot &g, const SnapshotScc &scc)
{
    const std::string m = label(g, scc.kept_by);
    const std::string where = label(g, scc.kept_where);
    switch (scc.kept_reason) {
    case 1: return m + "'s file is queued on " + where + ", not in flight";
    case 2: return m + "'s file is with " + where + ", another SCC";
    case 4: return m + "'s file is with " + where + ", other scc_index";
    case 5: return "given up: a MSG_PEEK ran";
    default:
        if (const std::string fd = fd_holding(g, scc.kept_by); !fd.empty())
            return "fd " + fd + " holds " + m;
        return m + " is held outside flight";
    }
}

} // namespace

std::string scc_caption(const GraphSnapshot &g, const SnapshotScc &scc)
{
    std::string out = (scc.on_ring ? "ring of " : "SCC of ") + label(g, scc.root);
    switch (scc.verdict) {
    case SnapshotScc::Verdict::judging: return out + " \u00b7 judging";
    case SnapshotScc::Verdict::dead: return out + " \u00b7 dead";
    case SnapshotScc::Verdict::alive:
        return out + " \u00b7 alive" + (scc.kept_by == 0xffffffffu ? std::string() : ": " + kept_alive(g, scc));
    }
    return out;
}

} // namespace inflight
