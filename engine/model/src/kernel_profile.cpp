// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/kernel_profile.hpp"

#include <array>
#include <initializer_list>
#include <vector>

namespace inflight {
namespace {

using K = KernelChange;

struct ProfileSpec {
    std::string_view name;
    KernelVersion version;
    GcEra era;
    std::string_view title;
    // Changes newer than the release that its stable branch took back.
    std::initializer_list<KernelChange> backports;
    bool default_of_era = false;
    std::string_view checked = {}; // docs/kernels.md
};

// Each profile stands for the newest stable release of its branch, as Debian ships it where
// Debian does (docs/kernels.md: the package each was checked against).
const std::array<ProfileSpec, 15> kSpecs{{
    // The one profile that is a mainline release as shipped, not its stable branch's newest: the
    // 4.4.y trees took the later order of unix_gc()'s last two steps (docs/kernels.md).
    {"4.4",
     {4, 4},
     GcEra::classic,
     "4.4 as released (2016): the 2007 collector restoring not_cycle_list before the hitlist, no MSG_OOB",
     {}},
    {"5.10",
     {5, 10},
     GcEra::classic,
     "5.10.y LTS (Debian bullseye): classic collector, no MSG_OOB",
     {K::peek_gc_lock, K::connect_gc_race},
     false,
     "Debian 5.10.251"},
    {"5.15",
     {5, 15},
     GcEra::classic,
     "5.15.y LTS: classic collector with MSG_OOB",
     {K::connect_gc_race, K::oob_gc_kfree, K::oob_gc_first_socket, K::oob_gc_before_purge, K::oob_stale_clear},
     false,
     "Ubuntu 5.15.0-204 (5.15.224)"},
    {"6.1",
     {6, 1},
     GcEra::graph,
     "6.1.y LTS (Debian bookworm): the graph collector backported in 6.1.141",
     {K::connect_gc_race, K::graph_gc, K::embryo_oob_gc, K::fpl_dead, K::walk_uninit, K::oob_no_skb_get,
      K::init_scc_index, K::gc_in_progress_set},
     false,
     "Debian 6.1.192"},
    {"6.6",
     {6, 6},
     GcEra::graph,
     "6.6.y LTS: the graph collector backported in 6.6.93",
     {K::iouring_no_send, K::connect_gc_race, K::graph_gc, K::embryo_oob_gc, K::fpl_dead, K::walk_uninit,
      K::oob_no_skb_get, K::splice_no_checksum, K::init_scc_index, K::peek_seqcount, K::gc_in_progress_set},
     false,
     "Ubuntu 6.8.0-151 (its collector is 6.6.y's)"},
    {"6.8",
     {6, 8},
     GcEra::classic,
     "6.8: the last synchronous classic collector",
     {K::connect_gc_race, K::oob_stale_clear},
     true,
     "Ubuntu 6.8.0-31 (noble's release kernel)"},
    {"6.9", {6, 9}, GcEra::async, "6.9: the classic collector run as a work item", {}, true},
    {"6.10", {6, 10}, GcEra::graph, "6.10: the graph collector, oob_skb still holding a reference", {}},
    {"6.12",
     {6, 12},
     GcEra::graph,
     "6.12.y LTS (Debian trixie)",
     {K::splice_no_checksum, K::init_scc_index, K::gc_in_progress_set},
     false,
     "Debian 6.12.118"},
    {"6.17",
     {6, 17},
     GcEra::graph,
     "6.17.y (Debian trixie-backports): SO_PASSRIGHTS",
     {K::init_scc_index},
     false,
     "Debian 6.17.13"},
    {"6.18",
     {6, 18},
     GcEra::graph,
     "6.18.y: the graph collector before the 6.19 GC cleanup",
     {K::peek_seqcount, K::gc_in_progress_set},
     true,
     "Debian 6.18.15"},
    {"6.19",
     {6, 19},
     GcEra::graph,
     "6.19.y: unix_schedule_gc() and unix_graph_state",
     {K::peek_seqcount},
     false,
     "Debian 6.19.14"},
    {"7.0", {7, 0}, GcEra::graph, "7.0.y: the MSG_PEEK seqcount", {}, false, "Debian 7.0.13, 7.1.13"},
    {"7.2",
     {7, 2},
     GcEra::graph,
     "7.2.y: one scc_index per SCC (backported; real 7.2.12 frees mixed_lowpoint)",
     {K::unify_scc_index},
     false,
     "Debian 7.2.13"},
    {"7.3", {7, 3}, GcEra::graph, "7.3: the newest mainline read", {}, false, "Debian 7.3.4"},
}};

std::vector<KernelProfile> build()
{
    std::vector<KernelProfile> out;
    for (const ProfileSpec &s : kSpecs) {
        KernelProfile p{s.name, s.version, s.title, s.era, {}, s.default_of_era, s.checked};
        for (const KernelChangeInfo &c : kernel_change_table())
            p.changes.set(c.id, c.since <= s.version && kernel_change_applies(s.era, c.id));
        for (KernelChange c : s.backports)
            p.changes.set(c, kernel_change_applies(s.era, c));
        // The collector is the era's, whatever the release (6.1.y runs the graph collector).
        p.changes.set(K::gc_async, s.era != GcEra::classic);
        p.changes.set(K::graph_gc, s.era == GcEra::graph);
        out.push_back(p);
    }
    return out;
}

const std::vector<KernelProfile> &profiles()
{
    // Never destroyed: a background job (an app's replay, a run) may still be reading the table
    // while static destructors run at exit, and a table destroyed before the thread pool that
    // waits for those jobs would be read after its end.
    static const auto *const all = new std::vector<KernelProfile>(build());
    return *all;
}

} // namespace

// The era's own changes are what make it: a later era's change is never in an earlier one's
// profile even where the release would allow (6.1 has graph-gc only by its backport).
bool kernel_change_applies(GcEra era, KernelChange c)
{
    switch (c) {
    case K::gc_async: return era != GcEra::classic;
    case K::classic_hitlist_first:
    case K::oob_gc_kfree:
    case K::oob_gc_first_socket:
    case K::oob_gc_before_purge:
    // Acted on for the classic collector only: on the graph collector the stale skb's edges
    // stay, and 6.10-rc's collector deadlocked freeing it (not modelled; every graph profile
    // is later than the fix).
    case K::oob_stale_clear:
    case K::remove_iouring_gc:
    case K::connect_gc_race:
    case K::peek_gc_lock: return era != GcEra::graph;
    case K::graph_gc:
    case K::embryo_oob_gc:
    case K::oob_no_skb_get:
    case K::schedule_gc:
    case K::unify_scc_index:
    case K::init_scc_index:
    case K::walk_uninit:
    case K::fpl_dead:
    case K::peek_seqcount: return era == GcEra::graph;
    case K::gc_in_progress_set: return era != GcEra::classic;
    default: return true;
    }
}

std::span<const KernelProfile> kernel_profiles() { return profiles(); }

const KernelProfile *kernel_profile_by_name(std::string_view name)
{
    for (const KernelProfile &p : profiles())
        if (p.name == name)
            return &p;
    return nullptr;
}

const KernelProfile &default_kernel_profile(GcEra era)
{
    for (const KernelProfile &p : profiles())
        if (p.default_of_era && p.era == era)
            return p;
    return profiles().back();
}

} // namespace inflight
