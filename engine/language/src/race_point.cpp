// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/race_point.hpp"

#include <array>

namespace inflight {
namespace {

struct RacePointInfo {
    RacePointKind kind;
    std::string_view name;
    std::string_view where;
};

constexpr std::array kPoints{
    RacePointInfo{RacePointKind::select, "select",
                  "unix_gc() has compared SOCK's file count with its inflight count (classic)"},
    RacePointInfo{RacePointKind::restore, "restore",
                  "unix_gc() has moved SOCK from gc_candidates to not_cycle_list, before scan_children() (classic)"},
    RacePointInfo{RacePointKind::visit, "visit", "__unix_walk_scc() has pushed SOCK's vertex (graph)"},
    RacePointInfo{RacePointKind::dead, "dead", "unix_vertex_dead(SOCK) has answered (graph)"},
    RacePointInfo{RacePointKind::connect, "connect",
                  "connect(SOCK) has made the new embryo SOCK's peer, before queueing it on the listener"},
    RacePointInfo{RacePointKind::peek, "peek",
                  "recv(SOCK, MSG_PEEK) has duplicated the fds (scm_fp_dup), before installing them"},
    RacePointInfo{RacePointKind::scan, "scan",
                  "scan_children() has begun on SOCK's queue, before its skbs are walked (classic)"},
    RacePointInfo{RacePointKind::fput, "fput",
                  "the last reference to SOCK's file is gone and its __fput deferred, before the release runs"},
};

constexpr std::array kKinds{RacePointKind::select,  RacePointKind::restore, RacePointKind::visit, RacePointKind::dead,
                            RacePointKind::connect, RacePointKind::peek,    RacePointKind::scan,  RacePointKind::fput};
static_assert(kKinds.size() == kPoints.size());

} // namespace

std::string_view race_point_name(RacePointKind k) { return kPoints[static_cast<std::size_t>(k)].name; }
std::string_view race_point_where(RacePointKind k) { return kPoints[static_cast<std::size_t>(k)].where; }

std::optional<RacePointKind> race_point_by_name(std::string_view name)
{
    for (const RacePointInfo &p : kPoints)
        if (p.name == name)
            return p.kind;
    return std::nullopt;
}

std::span<const RacePointKind> race_point_kinds() { return kKinds; }

} // namespace inflight
