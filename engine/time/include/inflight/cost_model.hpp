// SPDX-License-Identifier: GPL-3.0-or-later
// The modelled cost, in nanoseconds, of each thing the kernel model does. A collection's time is
// the sum of what it really walks (sockets selected, skbs and fds scanned, vertices and edges
// visited), so the figures the latency panel shows come out of the algorithm, not out of a table
// of answers. The defaults and what each was fitted to are documented in cost_table() and in
// README ("Modelled time"). Scenes override them with `set cost NAME NS`.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace inflight {

enum class Cost : std::uint8_t {
    syscall,          // entry and exit of any syscall
    sendmsg,          // unix_*_sendmsg body for one skb: alloc, copy a few bytes, queue, wake
    recvmsg,          // unix_*_recvmsg body for one skb
    copy_kib,         // copying one KiB of payload (send or receive)
    fd_pass,          // per fd attached to an skb: fget, unix_inflight / unix_add_edges entry
    fd_receive,       // per fd installed by recvmsg (or peek)
    socket_create,    // socket()/socketpair() per socket, file and fd
    close,            // close() of one fd (and fput)
    release,          // unix_release_sock() of one socket
    skb_free,         // freeing one skb (destructor, without its fds)
    lock,             // an uncontended spin_lock()/spin_unlock() pair
    lock_handoff,     // taking a lock another CPU just released (the cache line moves)
    wakeup,           // a sleeping task woken (flush_work, unix_gc_wait, a blocking recv)
    queue_work,       // queue_work() itself
    worker_latency,   // from queue_work() until the kworker starts the item
    gc_start,         // fixed part of one collection (lock, bookkeeping, flags)
    gc_select,        // classic: one socket of gc_inflight_list checked for candidacy
    gc_scan_skb,      // classic: one skb looked at by scan_inflight/scan_children
    gc_scan_fd,       // classic: one fd of an skb looked at
    gc_inflight_op,   // classic: one dec_inflight / inc_inflight(_move_tail)
    gc_list_move,     // classic: one socket moved between GC lists
    gc_vertex,        // graph: one vertex visited by the Tarjan walk
    gc_edge,          // graph: one edge followed by the Tarjan walk
    gc_fast_vertex,   // graph: one vertex checked by unix_walk_scc_fast
    gc_graph_update,  // graph: one edge added or removed at sendmsg/recvmsg
    gc_collect_skb,   // both: one skb moved to the hitlist
    gc_purge_skb,     // both: one hitlist skb freed by the purge (destructor, scm_destroy, fput)
    creds_ref,        // creds-by-default: get_pid/get_cred or put_pid/put_cred on a local line
    cacheline_bounce, // the same, when the line was last written by another CPU (false sharing)
    splice_kib,       // splice/sendfile: one KiB moved by MSG_SPLICE_PAGES (page refs, no copy)
    csum_kib,         // skb_splice_csum_page(): checksumming one KiB (before the 2024 fix)
    autobind,         // unix_autobind() fixed part: bindlock, address allocation
    autobind_probe,   // one probe: format "%05x", hash, double lock, unlock
    hash_chain_entry, // one socket compared while walking a hash chain
    count_
};

inline constexpr std::size_t kCostCount = static_cast<std::size_t>(Cost::count_);

struct CostInfo {
    Cost cost;
    std::string_view name; // as written in `set cost NAME NS`
    std::uint64_t default_ns;
    std::string_view meaning; // one line for the settings dialog and `--help`
    std::string_view source;  // what it was fitted to, or "estimate"
};

std::span<const CostInfo> cost_table();
std::optional<Cost> cost_by_name(std::string_view name);
std::string_view cost_name(Cost c);

// The costs one run uses: the defaults with the scene's overrides applied.
class CostModel {
public:
    CostModel();
    std::uint64_t operator[](Cost c) const { return ns_[static_cast<std::size_t>(c)]; }
    void set(Cost c, std::uint64_t ns) { ns_[static_cast<std::size_t>(c)] = ns; }
    bool is_default(Cost c) const;

private:
    std::array<std::uint64_t, kCostCount> ns_{};
};

} // namespace inflight
