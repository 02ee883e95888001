// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/event.hpp"

#include <iterator>

namespace inflight {

std::string_view kfn_name(KFn fn)
{
    static constexpr std::string_view names[] = {
        "",
        "socket",
        "socketpair",
        "bind",
        "listen",
        "connect",
        "accept",
        "sendmsg",
        "recvmsg",
        "dup",
        "close",
        "setsockopt",
        "unix_create1",
        "unix_autobind",
        "fd_install",
        "close_fd",
        "fget",
        "fput",
        "task_work_run",
        "delayed_fput",
        "scm_fp_copy",
        "scm_fp_dup",
        "scm_destroy",
        "scm_detach_fds",
        "unix_attach_fds",
        "unix_detach_fds",
        "unix_peek_fds",
        "skb_queue_tail",
        "skb_dequeue",
        "kfree_skb",
        "unix_release_sock",
        "unix_dgram_disconnected",
        "wait_for_unix_gc",
        "unix_gc",
        "queue_work",
        "flush_work",
        "__unix_gc",
        "unix_inflight",
        "unix_notinflight",
        "unix_gc:candidates",
        "scan_children",
        "scan_inflight",
        "dec_inflight",
        "inc_inflight",
        "inc_inflight_move_tail",
        "unix_gc:restore",
        "unix_gc:hitlist",
        "unix_gc:not_cycle",
        "__skb_queue_purge",
        "unix_table_lock",
        "splice",
        "skb_splice_from_iter",
        "unix_scm_to_skb:creds",
        "unix_add_edges",
        "unix_del_edges",
        "unix_update_edges",
        "unix_update_graph",
        "unix_walk_scc",
        "unix_walk_scc_fast",
        "__unix_walk_scc",
        "unix_vertex_dead",
        "unix_scc_cyclic",
        "unix_collect_skb",
        "unix_schedule_gc",
        "unix_state_lock",
        "scene",
    };
    static_assert(std::size(names) == static_cast<std::size_t>(KFn::scene) + 1);
    const auto i = static_cast<std::size_t>(fn);
    return i < std::size(names) ? names[i] : "?";
}

std::string_view list_name(ListId id)
{
    static constexpr std::string_view names[] = {
        "",        "gc_inflight_list",   "gc_candidates",    "not_cycle_list", "hitlist",    "receive queue",
        "embryos", "unvisited vertices", "visited vertices", "vertex stack",   "edge stack",
    };
    static_assert(std::size(names) == static_cast<std::size_t>(ListId::edge_stack) + 1);
    return names[static_cast<std::size_t>(id)];
}

std::string_view event_kind_name(EventKind kind)
{
    static constexpr std::string_view names[] = {
        "stmt_begin",       "stmt_end",      "note",
        "sock_create",      "fd_install",    "fd_close",
        "file_get",         "file_put",      "fput_deferred",
        "sock_release",     "peer_shutdown", "skb_queue",
        "skb_dequeue",      "skb_free",      "skb_unref",
        "fds_attach",       "fds_detach",    "inflight_change",
        "list_move",        "flags_change",  "gc_call",
        "gc_queued",        "gc_wait",       "gc_begin",
        "gc_end",           "gc_skip",       "candidate_check",
        "cursor_move",      "scan",          "skb_hitlist",
        "queue_splice",     "vertex_new",    "vertex_free",
        "edge_add",         "edge_del",      "graph_state",
        "vertex_visit",     "edge_push",     "edge_pop",
        "scc_index_update", "scc_found",     "vertex_dead",
        "scc_verdict",      "finding",       "warning",
        "expect_result",    "wait_end",      "lock_spin",
        "task_spawn",       "task_exit",     "autobind_probe",
        "autobind_fail",    "splice_chunk",  "creds_ref",
        "sched_point",      "fds_peek",      "task_switch",
    };
    static_assert(std::size(names) == static_cast<std::size_t>(EventKind::task_switch) + 1);
    const auto i = static_cast<std::size_t>(kind);
    return i < std::size(names) ? names[i] : "?";
}

} // namespace inflight
