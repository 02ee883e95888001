// SPDX-License-Identifier: GPL-3.0-or-later
// One micro-step of the model: what happened, in which kernel function, to which objects, and
// the value before and after. Events are small plain values so that a run of a million steps
// can be recorded, replayed and filtered cheaply; text is made from them on demand (describe()).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace inflight {

// The kernel function (or syscall) a micro-step belongs to; named as in the kernel.
enum class KFn : std::uint8_t {
    none,
    sys_socket,
    sys_socketpair,
    sys_bind,
    sys_listen,
    sys_connect,
    sys_accept,
    sys_sendmsg,
    sys_recvmsg,
    sys_dup,
    sys_close,
    sys_setsockopt,
    unix_create1,
    unix_autobind,
    fd_install,
    close_fd,
    fget,
    fput,
    task_work_run,
    delayed_fput,
    scm_fp_copy,
    scm_fp_dup,
    scm_destroy,
    scm_detach_fds,
    unix_attach_fds,
    unix_detach_fds,
    unix_peek_fds,
    skb_queue_tail,
    skb_dequeue,
    kfree_skb,
    unix_release_sock,
    unix_dgram_disconnected,
    wait_for_unix_gc,
    unix_gc,
    queue_work,
    flush_work,
    unix_gc_work,
    // classic
    unix_inflight,
    unix_notinflight,
    select_candidates,
    scan_children,
    scan_inflight,
    dec_inflight,
    inc_inflight,
    inc_inflight_move_tail,
    restore_candidates,
    collect_hitlist,
    restore_not_cycle,
    skb_queue_purge,
    // graph
    unix_table_lock,
    sys_splice,
    skb_splice_from_iter,
    scm_creds,
    unix_add_edges,
    unix_del_edges,
    unix_update_edges,
    unix_update_graph,
    unix_walk_scc,
    unix_walk_scc_fast,
    __unix_walk_scc,
    unix_vertex_dead,
    unix_scc_cyclic,
    unix_collect_skb,
    unix_schedule_gc, // 6.19+
    unix_state_lock,  // a socket's state lock (connect() on a listener, the collector's check)
    // the scene itself
    scene,
};
std::string_view kfn_name(KFn fn);

// Lists the views show. Sockets move between the first four in the classic collector.
enum class ListId : std::uint8_t {
    none,
    gc_inflight_list,
    gc_candidates,
    not_cycle_list,
    hitlist,
    receive_queue,
    embryos,
    unvisited_vertices,
    visited_vertices,
    vertex_stack,
    edge_stack,
};
std::string_view list_name(ListId id);

enum class EventKind : std::uint8_t {
    stmt_begin,       // a = statement ordinal; b, c = name-pool ids of its first two names as
                      // expanded, for names that are templates (u$i), else npos
    stmt_end,         // as stmt_begin; before = errno (0 = success), after = return value
    note,             // the statement's note text is shown
    sock_create,      // a = sock
    fd_install,       // a = sock, b = process, c = fd; before/after = file_count
    fd_close,         // a = sock, b = process, c = fd
    file_get,         // a = sock; before/after = file_count
    file_put,         // a = sock; before/after = file_count
    fput_deferred,    // a = sock: refcount hit 0, __fput queued (task_work or delayed_fput)
    sock_release,     // a = sock: unix_release_sock() runs; c = 1 for an embryo
    peer_shutdown,    // a = sock being released, b = its peer (stream/seqpacket), after = sk_err
    skb_queue,        // a = skb, b = receiver sock, c = sender sock; before = fds carried
    skb_dequeue,      // a = skb, b = sock
    skb_free,         // a = skb, b = sock whose queue held it (or npos)
    skb_unref,        // a = skb: one of several references dropped; after = references left
    fds_attach,       // a = skb, before = fds in the message (classic: dup of the cookie)
    fds_detach,       // a = skb
    inflight_change,  // a = sock; before/after = u->inflight (classic) / out_degree (graph)
    list_move,        // a = sock (or skb for hitlist), from/to lists
    flags_change,     // a = sock; before/after = gc_flags bits (1 = CANDIDATE, 2 = MAYBE_CYCLE)
    gc_call,          // unix_gc() entered; before = unix_tot_inflight
    gc_queued,        // queue_work(unix_gc_work); after = 1 if it was already pending
    gc_wait,          // a sender waits for the collector (flush_work / unix_gc_wait)
    gc_begin,         // a = run number
    gc_end,           // a = run number; before = sockets found garbage, after = hitlist size
    gc_skip,          // a = run number; before = reason (0 = in progress, 1 = graph not cyclic)
    candidate_check,  // a = sock; before = file_count, after = inflight; c = 1 if candidate
    cursor_move,      // a = sock the restore cursor now stands after
    scan,             // a = sock whose children are scanned; b = embryo scanned instead (or npos)
    skb_hitlist,      // a = skb, b = sock it was taken from
    queue_splice,     // a = sock whose queue moves to the hitlist; before = skbs moved; b = embryo
    vertex_new,       // a = sock
    vertex_free,      // a = sock
    edge_add,         // a = predecessor sock, b = receiver sock, c = effective successor sock
    edge_del,         // a = predecessor sock, b = receiver sock
    graph_state,      // before/after: bit 0 = maybe_cyclic, bit 1 = grouped
    vertex_visit,     // a = sock; after = index
    edge_push,        // a = predecessor, b = successor (tree edge)
    edge_pop,         // a = predecessor, b = successor (backtrack)
    scc_index_update, // a = sock; before/after = scc_index; b = the successor it came from
    scc_found,        // a = root sock; before = members
    vertex_dead,      // a = sock; before = 1 if dead; after = reason (see describe())
    scc_verdict,      // a = root sock; before = 1 if dead; after = 1 if cyclic
    finding,          // an invariant or kernel BUG_ON/WARN_ON condition failed; a = finding index
    warning,          // a statement failed without `expect error`; before = errno
    expect_result,    // before = 1 if it held
    // modelled time and concurrency
    wait_end,   // a waiting task resumes; before = ns waited, after = what it waited for (WaitFor)
    lock_spin,  // a = lock (0 = unix_gc_lock, 1 = unix_table_lock, 2 + h = bucket h's lock);
                // before = ns spun before it was free
    task_spawn, // a = new task index; b = its CPU
    task_exit,  // a = task index
    // autobind (spec 6)
    autobind_probe, // a = sock, b = name value tried (0..0xFFFFF), c = bucket;
                    // before = chain entries compared, after = 1 if taken (retry), 0 if bound
    autobind_fail,  // a = sock; before = errno (ENOSPC) or -1 for "would loop forever";
                    // after = probes made; b = start value's low 32 bits
    splice_chunk,   // a = sender sock, b = receiver sock; before = bytes, after = 1 if checksummed
    creds_ref,      // creds-by-default: a = skb; before = 1 get / 0 put; after = ns it cost
    sched_point,    // internal: a task may be preempted here (never recorded or shown)
    // races (spawn NAME when POINT SOCK)
    fds_peek,    // unix_peek_fds(): scm_fp_dup() took a reference on every file of skb a, on
                 // sock b's queue; before = files; after = 1 if unix_peek_seq was bumped (7.0)
    task_switch, // a = the task preempted at a race point, b = the task that runs now, c = the
                 // point's sock; before = RacePointKind; after = 0 a race breaks in, 1 `until`
                 // hands back for the rest of a statement, 2 the preempted task resumes
};
std::string_view event_kind_name(EventKind kind);

inline constexpr std::uint32_t npos = std::numeric_limits<std::uint32_t>::max();

struct Event {
    std::uint64_t step = 0; // 1-based position in the run (set by Simulation)
    EventKind kind = EventKind::note;
    KFn fn = KFn::none;
    ListId from = ListId::none;
    ListId to = ListId::none;
    std::uint16_t algo_line = 0;  // line of the active collector's listing (0 = none)
    std::uint32_t scene_line = 0; // line of the statement being executed (set by Simulation)
    std::uint32_t a = npos, b = npos, c = npos;
    std::int64_t before = 0, after = 0;
    std::uint64_t time = 0; // modelled clock (ns) of the task when the micro-step ended
    std::uint16_t task = 0; // which task ran it (Simulation::tasks(); 0 = main)
    // How deep in the task's call chain of kernel paths it was yielded (1 = the scene's
    // script itself): "step out of the current function" runs to a shallower event.
    std::uint8_t depth = 0;
};

// What a waiting task waited for (wait_end's after).
enum class WaitFor : std::uint8_t { gc = 0, gc_lock = 1, data = 2, task = 3, idle = 4, table_lock = 5, state_lock = 6 };

} // namespace inflight
