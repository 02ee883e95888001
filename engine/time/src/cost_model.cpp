// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/cost_model.hpp"

#include <algorithm>

namespace inflight {

namespace {

// Defaults. "fitted" names the measurement a constant was chosen to reproduce; every other
// figure the model reports (a collection's duration at another size, who waits how long, the
// heavy sender's latency, the autobind race) is then a prediction. README "Modelled time"
// compares the predictions with the measurements.
constexpr CostInfo kTable[] = {
    {Cost::syscall, "syscall", 120, "syscall entry and exit", "estimate"},
    {Cost::sendmsg, "sendmsg", 290, "unix_*_sendmsg for one skb (alloc, copy, queue, wake)",
     "fitted: 410 ns per 1-byte sendmsg with no fd (seed 000, after the series)"},
    {Cost::recvmsg, "recvmsg", 300, "unix_*_recvmsg for one skb", "estimate"},
    {Cost::copy_kib, "copy_kib", 60, "copying one KiB of payload", "estimate"},
    {Cost::fd_pass, "fd_pass", 140, "per fd attached to an skb (fget, unix_inflight/unix_add_edges)",
     "fitted: p50 520 vs 370 ns for a sendmsg passing one AF_UNIX fd (6.18, spec 11)"},
    {Cost::fd_receive, "fd_receive", 150, "per fd installed by recvmsg", "estimate"},
    {Cost::socket_create, "socket_create", 900, "socket() per socket, file and fd", "estimate"},
    {Cost::close, "close", 150, "close() of one fd", "estimate"},
    {Cost::release, "release", 3000, "unix_release_sock() of one socket",
     "fitted: ~170 ms until 32,000 garbage sockets are released (6.18, spec 11)"},
    {Cost::skb_free, "skb_free", 150, "freeing one skb", "estimate"},
    {Cost::lock, "lock", 20, "uncontended spin_lock + spin_unlock", "estimate"},
    {Cost::lock_handoff, "lock_handoff", 150, "taking a lock another CPU just released", "estimate"},
    {Cost::wakeup, "wakeup", 1500, "waking a sleeping task", "estimate"},
    {Cost::queue_work, "queue_work", 100, "queue_work()", "estimate"},
    {Cost::worker_latency, "worker_latency", 2000, "queue_work() until the kworker runs the item",
     "fitted: queued GC starts a median 2 us after queuing (6.18, spec 11)"},
    {Cost::gc_start, "gc_start", 1000, "fixed part of one collection", "estimate"},
    {Cost::gc_select, "gc_select", 57, "classic: one socket checked for candidacy",
     "fitted: 1,825,567 ns avg sendmsg with 32K in flight before the series (seed 000)"},
    {Cost::gc_scan_skb, "gc_scan_skb", 40, "classic: one skb scanned", "estimate"},
    {Cost::gc_scan_fd, "gc_scan_fd", 15, "classic: one fd of an skb looked at", "estimate"},
    {Cost::gc_inflight_op, "gc_inflight_op", 10, "classic: one dec/inc of inflight", "estimate"},
    {Cost::gc_list_move, "gc_list_move", 15, "classic: one socket moved between GC lists", "estimate"},
    {Cost::gc_vertex, "gc_vertex", 190, "graph: one vertex visited by Tarjan",
     "fitted: ~11 ms for a full walk over 32,000 in flight in rings of 16 (6.18, spec 11)"},
    {Cost::gc_edge, "gc_edge", 70, "graph: one edge followed by Tarjan", "estimate (split of the 11 ms)"},
    {Cost::gc_fast_vertex, "gc_fast_vertex", 150, "graph: one vertex checked by the fast path",
     "fitted: ~5 ms for the fast path over 32,000 in flight (6.18, spec 11)"},
    {Cost::gc_graph_update, "gc_graph_update", 30, "graph: one edge added or removed", "estimate"},
    {Cost::gc_collect_skb, "gc_collect_skb", 60, "one skb moved to the hitlist", "estimate"},
    {Cost::gc_purge_skb, "gc_purge_skb", 1800, "one hitlist skb freed by the purge",
     "fitted: 65-74 ms for a collection that finds 32,000 sockets garbage (6.18, spec 11)"},
    {Cost::creds_ref, "creds_ref", 10, "a pid/cred refcount change on a local cache line", "estimate"},
    {Cost::cacheline_bounce, "cacheline_bounce", 74,
     "a pid/cred refcount change on a line another CPU wrote (false sharing)",
     "fitted: hackbench 20 thread 2000, 9.102 s vs 4.228 s (seed 002)"},
    {Cost::splice_kib, "splice_kib", 635, "sendfile over AF_UNIX: one KiB spliced and read",
     "fitted: 725 ms for 1000M with the fix (seed 004, v1 figures)"},
    {Cost::csum_kib, "csum_kib", 832, "skb_splice_csum_page(): checksumming one KiB",
     "fitted: 1577 ms for 1000M without the fix (seed 004, v1 figures)"},
    {Cost::autobind, "autobind", 600, "unix_autobind() fixed part (bindlock, address)", "estimate"},
    {Cost::autobind_probe, "autobind_probe", 150, "one autobind probe: format, hash, double lock", "estimate"},
    {Cost::hash_chain_entry, "hash_chain_entry", 105, "one socket compared on a hash chain walk",
     "fitted: 76 us per bind for the tenth 10,000 of 100,000 autobinds (6.18, spec 11)"},
};
static_assert(std::size(kTable) == kCostCount, "one row per Cost");

} // namespace

std::span<const CostInfo> cost_table() { return kTable; }

std::optional<Cost> cost_by_name(std::string_view name)
{
    for (const CostInfo &c : kTable)
        if (c.name == name)
            return c.cost;
    return std::nullopt;
}

std::string_view cost_name(Cost c) { return kTable[static_cast<std::size_t>(c)].name; }

CostModel::CostModel()
{
    for (const CostInfo &c : kTable)
        ns_[static_cast<std::size_t>(c.cost)] = c.default_ns;
}

bool CostModel::is_default(Cost c) const
{
    return ns_[static_cast<std::size_t>(c)] == kTable[static_cast<std::size_t>(c)].default_ns;
}

} // namespace inflight
