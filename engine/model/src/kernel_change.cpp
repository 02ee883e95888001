// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/kernel_change.hpp"

#include <array>

namespace inflight {
namespace {

using K = KernelChange;

// Ids and releases: docs/kernels.md says where each was found (mainline pushes, the net trees'
// bot replies, stable reviews); the first release of a few is inferred from the calendar. A change the model cannot act
// on yet is listed all the same, so `inflight-cli kernels` shows a kernel's whole GC history;
// what it would need is its not_modelled text.
constexpr std::array<KernelChangeInfo, kKernelChangeCount> kChanges{{
    {K::limit_inflight,
     "limit-inflight",
     "9915672d4127",
     "af_unix: limit unix_tot_inflight",
     {2, 6, 37},
     "sendmsg runs a collection once more than 16,000 sockets are in flight (CVE-2010-4249)",
     ""},
    {K::no_default_creds,
     "no-default-creds",
     "16e572626961",
     "af_unix: dont send SCM_CREDENTIALS by default",
     {3, 1},
     "an skb takes pid and cred references only when SO_PASSCRED asks for them",
     ""},
    {K::msg_oob,
     "msg-oob",
     "314001f0bf92",
     "af_unix: Add OOB support",
     {5, 15},
     "MSG_OOB on stream sockets (CONFIG_AF_UNIX_OOB); before it sendmsg(MSG_OOB) fails with EOPNOTSUPP",
     ""},
    {K::peek_gc_lock,
     "peek-gc-lock",
     "cbcf01128d0a",
     "af_unix: fix garbage collect vs MSG_PEEK",
     {5, 14},
     "MSG_PEEK takes and drops unix_gc_lock after duplicating the fds (CVE-2021-0920)",
     ""},
    {K::per_hash_locks,
     "per-hash-locks",
     "afd20b9290e1",
     "af_unix: Replace the big lock with small locks.",
     {5, 17},
     "bind, autobind and lookups lock one hash bucket instead of the global unix_table_lock",
     ""},
    {K::random_autobind,
     "random-autobind",
     "9acbc584c3a4",
     "af_unix: Relax race in unix_autobind().",
     {5, 17},
     "autobind starts at a random name and gives up after 2^20 tries, not at one shared counter",
     ""},
    {K::iouring_no_send,
     "iouring-no-send",
     "705318a99a13",
     "io_uring/af_unix: disable sending io_uring over sockets",
     {6, 7},
     "an io_uring fd can no longer be passed (CVE-2023-6531)",
     "the model has no io_uring files"},
    {K::classic_hitlist_first,
     "hitlist-before-restore",
     "",
     "(not found: see docs/kernels.md)",
     {4, 5},
     "the classic collector builds the hitlist before it restores not_cycle_list, so a reachable candidate "
     "queued in a garbage socket gets its count back; before it (2.6.23 to 4.4 as released) the count stays "
     "one short and the socket leaves gc_inflight_list while still in flight",
     ""},
    {K::oob_gc_kfree,
     "oob-gc-kfree",
     "1279f9d9dec2",
     "af_unix: Call kfree_skb() for dead unix_(sk)->oob_skb in GC.",
     {6, 8},
     "the classic collector drops a garbage socket's oob_skb reference (the OOB self-reference leak)",
     ""},
    {K::oob_gc_first_socket,
     "oob-gc-first-socket",
     "25236c91b5ab",
     "af_unix: Fix task hung while purging oob_skb in GC.",
     {6, 8},
     "the loop after the purge that drops leftover candidates' oob_skb always takes the first candidate; before "
     "it, list_for_each_entry_safe() spins on a next socket the same kfree_skb() unlinked (CVE-2024-26780)",
     ""},
    {K::oob_gc_before_purge,
     "oob-gc-before-purge",
     "aa82ac51d633",
     "af_unix: Drop oob_skb ref before purging queue in GC.",
     {6, 8},
     "oob_skb references are dropped in the hitlist loop, before the purge; before it, the loop after the purge "
     "spins for ever when the first leftover candidate has no oob_skb (CVE-2024-26750)",
     ""},
    {K::connect_gc_race,
     "connect-gc-race",
     "47d8ac011fe1",
     "af_unix: Fix garbage collector racing against connect()",
     {6, 9},
     "the classic collector takes and drops each listening candidate's state lock (CVE-2024-26923)",
     ""},
    {K::gc_async,
     "gc-async",
     "d9f21b361333",
     "af_unix: Try to run GC async.",
     {6, 9},
     "the classic collector runs as a work item; only heavy senders of AF_UNIX fds wait for it",
     "",
     true},
    {K::remove_iouring_gc,
     "remove-iouring-gc",
     "11498715f266",
     "af_unix: Remove io_uring code for GC.",
     {6, 9},
     "candidates left after the purge stay on gc_candidates with a WARN, not moved back to gc_inflight_list",
     ""},
    {K::oob_stale_clear,
     "oob-stale-clear",
     "b46f4eaa4f0e",
     "af_unix: Clear stale u->oob_skb.",
     {6, 9},
     "a recv() without MSG_OOB that skips an unread OOB byte clears u->oob_skb and drops its reference; before "
     "it, the skb stays held off the queue, where the classic collector never sees what it carries "
     "(CVE-2024-35970; the classic collector's side: on the graph collector of 6.10-rc it was a unix_gc_lock "
     "deadlock)",
     ""},
    {K::graph_gc,
     "graph-gc",
     "4090fa373f0e",
     "af_unix: Replace garbage collection algorithm.",
     {6, 10},
     "vertices, edges, Tarjan's SCC walk and the dead-SCC rule",
     "",
     true},
    {K::embryo_oob_gc,
     "embryo-oob-gc",
     "041933a1ec7b",
     "af_unix: Fix garbage collection of embryos carrying OOB with SCM_RIGHTS",
     {6, 10},
     "the graph collector drops the oob_skb reference of a listener's embryos too",
     ""},
    {K::fpl_dead,
     "fpl-dead",
     "7172dc93d621",
     "af_unix: Add dead flag to struct scm_fp_list.",
     {6, 10},
     "purging a collected list leaves its edges' successors alone; before it (and before 1af2dface5d2's "
     "gc_in_progress test), a delayed_fput on another CPU between two destructors of one purge frees the "
     "successor unix_del_edges() still reads (the 6.10-rc use-after-free)",
     ""},
    {K::walk_uninit,
     "walk-uninit",
     "927fa5b3e4f5",
     "af_unix: Fix uninit-value in __unix_walk_scc()",
     {6, 10},
     "backtracking after an SCC no longer reads the stack's list head as a vertex (before it: a KMSAN "
     "uninit-value finding)",
     ""},
    {K::oob_no_skb_get,
     "oob-no-skb-get",
     "8594d9b85c07",
     "af_unix: Don't call skb_get() for OOB skb.",
     {6, 12},
     "oob_skb is a plain pointer: the collector has no OOB special case",
     ""},
    {K::splice_no_checksum,
     "splice-no-checksum",
     "6bd8614fc2d0",
     "splice: do not checksum AF_UNIX sockets",
     {6, 13},
     "no software checksum over pages spliced into an AF_UNIX socket",
     ""},
    {K::so_passrights,
     "so-passrights",
     "77cbe1a6d873",
     "af_unix: Introduce SO_PASSRIGHTS.",
     {6, 16},
     "SO_PASSRIGHTS: a receiver can refuse SCM_RIGHTS (the sender gets EPERM); before it, ENOPROTOOPT",
     ""},
    {K::init_scc_index,
     "init-scc-index",
     "60e6489f8e3b",
     "af_unix: Initialise scc_index in unix_add_edge().",
     {6, 18},
     "a vertex created since the last walk gets a fresh scc_index (CVE-2025-40214); before it, the scc_index "
     "of the vertex freed last",
     ""},
    {K::schedule_gc,
     "schedule-gc",
     "24fa77dad25c",
     "af_unix: Consolidate unix_schedule_gc() and wait_for_unix_gc().",
     {6, 19},
     "unix_schedule_gc(): close queues a collection only if the graph may be cyclic, senders of AF_UNIX fds "
     "wait only while cyclic SCCs exist, no 16,000 trigger",
     ""},
    {K::peek_seqcount,
     "peek-seqcount",
     "e5b31d988a41",
     "af_unix: Give up GC if MSG_PEEK intervened.",
     {7, 0},
     "an SCC a MSG_PEEK touched during the walk is left for the next collection (CVE-2026-23394)",
     ""},
    {K::gc_in_progress_set,
     "gc-in-progress-set",
     "d82ba05263c6",
     "af_unix: Set gc_in_progress to true in unix_gc().",
     {7, 1},
     "the work item sets gc_in_progress itself, so a second queued run is seen by MSG_PEEK",
     ""},
    {K::unify_scc_index,
     "unify-scc-index",
     "4a4263dfeaba",
     "af_unix: Unify scc_index when finalising SCC in __unix_walk_scc().",
     {7, 3},
     "every vertex of a finalised SCC gets its root's scc_index (the mixed_lowpoint leak)",
     ""},
}};

constexpr bool table_in_enum_order()
{
    for (std::size_t i = 0; i < kChanges.size(); ++i)
        if (static_cast<std::size_t>(kChanges[i].id) != i)
            return false;
    return true;
}
static_assert(table_in_enum_order(), "kChanges is indexed by KernelChange");

} // namespace

std::span<const KernelChangeInfo> kernel_change_table() { return kChanges; }

const KernelChangeInfo &kernel_change_info(KernelChange c) { return kChanges[static_cast<std::size_t>(c)]; }

std::optional<KernelChange> kernel_change_by_name(std::string_view name)
{
    for (const KernelChangeInfo &c : kChanges)
        if (c.name == name)
            return c.id;
    return std::nullopt;
}

} // namespace inflight
