// SPDX-License-Identifier: GPL-3.0-or-later
// One micro-step of the model: what happened, in which kernel function, to which objects, and
// the value before and after. Events are small plain values so that a run of a million steps
// can be recorded, replayed and filtered cheaply; text is made from them on demand (describe()).
#pragma once

#include <cassert>
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
    note,             // the statement's note text is shown; fn scene: before = SceneNote
    sock_create,      // a = sock; b = for an embryo, the socket whose connect() made it
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
    gc_end,           // a = run number; before = sockets found garbage, after = hitlist size;
                      // b = 1 when the run never ends in the kernel (a hung task: the model stops it)
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
    scc_verdict,      // a = root sock; b = the member that kept it alive; c = where its reason points;
                      // before = 1 if dead; after = cyclic (bit 0) | the member's vertex_dead reason << 1
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

// What a scene's note step shows (its before): a note's text, or an ask's question, then its
// answer (a presenter's two presses on the same picture).
enum class SceneNote : std::uint8_t { note = 0, question = 1, answer = 2 };

// What a waiting task waited for (wait_end's after).
enum class WaitFor : std::uint8_t { gc = 0, gc_lock = 1, data = 2, task = 3, idle = 4, table_lock = 5, state_lock = 6 };

// What a task_switch does (its after).
enum class TaskSwitch : std::uint8_t {
    race = 0,   // a race breaks in at the point
    until = 1,  // `until` hands back for the rest of a statement
    resume = 2, // the preempted task resumes
};

// A value an event saw change: a count or a set of bits, before and after the micro-step.
struct Change {
    std::int64_t before = 0, after = 0;
};

// One micro-step. The five slots a, b, c, before and after mean different things per kind (see
// EventKind); build an event with the constructor named by its kind and read it with the accessor
// named by what the slot holds, so that no emitter or reader has to know the slot order. The
// accessors check (in debug builds) that the event is of a kind the slot has that meaning for.
// The slots stay public members: a run's index stores millions of events, so they are plain
// values, and code outside the engine still reads them directly.
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
    // script itself): "step out of the current function" runs to a shallower event. Set by
    // Simulation from the path's depth; an emitter sets it beforehand only when it yields from
    // code written inline for a kernel function of its own (the levels that code stands for,
    // Proc::below_inline()), and Simulation adds the path's depth to that.
    std::uint8_t depth = 0;

    // ---- constructors, one per kind; fn is the kernel function the micro-step belongs to ----
    // Ids (sock, skb, process, task, run) are the model's ids; npos means "none".
    using Id = std::uint32_t;
    using Value = std::int64_t;

    // the scene's own steps
    static constexpr Event stmt_begin(Id statement, Id first_name = npos, Id second_name = npos)
    {
        return make(EventKind::stmt_begin, KFn::scene, statement, first_name, second_name);
    }
    static constexpr Event stmt_end(Id statement, Id first_name, Id second_name, Value error, Value return_value)
    {
        return make(EventKind::stmt_end, KFn::scene, statement, first_name, second_name, error, return_value);
    }
    // A note of the scene's own (fn scene): a note's text, or what an ask shows (SceneNote).
    static constexpr Event scene_note(SceneNote shows = SceneNote::note)
    {
        return make(EventKind::note, KFn::scene, npos, npos, npos, static_cast<Value>(shows));
    }
    // A syscall's note about a socket: bind/autobind (address), listen, connect (peer), an OOB
    // read, setsockopt (option on), an accepted embryo (peer = its listener).
    static constexpr Event sock_note(KFn fn, Id sock, Id peer = npos, Id address = npos, bool option_on = false)
    {
        return make(EventKind::note, fn, sock, peer, address, 0, option_on ? 1 : 0);
    }
    static constexpr Event expect_result(bool held)
    {
        return make(EventKind::expect_result, KFn::scene, npos, npos, npos, held ? 1 : 0);
    }
    static constexpr Event warning(Value error)
    {
        return make(EventKind::warning, KFn::scene, npos, npos, npos, error);
    }
    static constexpr Event finding(Id finding_index) { return make(EventKind::finding, KFn::none, finding_index); }

    // sockets, fds and files
    static constexpr Event sock_create(KFn fn, Id sock, Id connecting = npos)
    {
        return make(EventKind::sock_create, fn, sock, connecting);
    }
    static constexpr Event fd_install(KFn fn, Id sock, Id process, Id fd, Value refs_before, Value refs_after)
    {
        return make(EventKind::fd_install, fn, sock, process, fd, refs_before, refs_after);
    }
    static constexpr Event fd_close(KFn fn, Id sock, Id process, Id fd, Value refs_before, Value refs_after)
    {
        return make(EventKind::fd_close, fn, sock, process, fd, refs_before, refs_after);
    }
    static constexpr Event file_get(KFn fn, Id sock, Value refs_before, Value refs_after)
    {
        return make(EventKind::file_get, fn, sock, npos, npos, refs_before, refs_after);
    }
    static constexpr Event file_put(KFn fn, Id sock, Value refs_before, Value refs_after)
    {
        return make(EventKind::file_put, fn, sock, npos, npos, refs_before, refs_after);
    }
    static constexpr Event fput_deferred(KFn fn, Id sock, Id deferring_task, bool delayed)
    {
        return make(EventKind::fput_deferred, fn, sock, deferring_task, delayed ? 1 : 0);
    }
    static constexpr Event sock_release(KFn fn, Id sock, bool embryo)
    {
        return make(EventKind::sock_release, fn, sock, npos, embryo ? 1 : 0);
    }
    static constexpr Event peer_shutdown(KFn fn, Id sock, Id peer, bool reset)
    {
        return make(EventKind::peer_shutdown, fn, sock, peer, npos, 0, reset ? 1 : 0);
    }

    // messages
    static constexpr Event skb_queue(KFn fn, Id skb, Id receiver, Id sender, Value fds)
    {
        return make(EventKind::skb_queue, fn, skb, receiver, sender, fds);
    }
    static constexpr Event skb_dequeue(KFn fn, Id skb, Id sock) { return make(EventKind::skb_dequeue, fn, skb, sock); }
    static constexpr Event skb_free(KFn fn, Id skb, Id sock, Value fds)
    {
        return make(EventKind::skb_free, fn, skb, sock, npos, fds);
    }
    static constexpr Event skb_unref(KFn fn, Id skb, Value refs_left)
    {
        return make(EventKind::skb_unref, fn, skb, npos, npos, refs_left + 1, refs_left);
    }
    static constexpr Event fds_attach(KFn fn, Id skb, Value fds, bool duplicated)
    {
        return make(EventKind::fds_attach, fn, skb, npos, npos, fds, duplicated ? 1 : 0);
    }
    static constexpr Event fds_detach(KFn fn, Id skb, Value fds)
    {
        return make(EventKind::fds_detach, fn, skb, npos, npos, fds);
    }
    static constexpr Event fds_peek(KFn fn, Id skb, Id sock, Value fds, bool peek_seq_bumped)
    {
        return make(EventKind::fds_peek, fn, skb, sock, npos, fds, peek_seq_bumped ? 1 : 0);
    }
    static constexpr Event splice_chunk(KFn fn, Id sender, Id receiver, Value bytes, bool checksummed)
    {
        return make(EventKind::splice_chunk, fn, sender, receiver, npos, bytes, checksummed ? 1 : 0);
    }
    static constexpr Event creds_ref(KFn fn, Id sock, bool get, Value cost_ns)
    {
        return make(EventKind::creds_ref, fn, sock, npos, npos, get ? 1 : 0, cost_ns);
    }

    // in flight, the collector's lists and marks
    static constexpr Event inflight_change(KFn fn, Id sock, Value inflight_before, Value inflight_after)
    {
        return make(EventKind::inflight_change, fn, sock, npos, npos, inflight_before, inflight_after);
    }
    // A socket moving between the collector's lists, its gc_flags before and after.
    static constexpr Event list_move(KFn fn, Id sock, ListId from, ListId to, Value flags_before = 0,
                                     Value flags_after = 0)
    {
        Event e = make(EventKind::list_move, fn, sock, npos, npos, flags_before, flags_after);
        e.from = from;
        e.to = to;
        return e;
    }
    static constexpr Event flags_change(KFn fn, Id sock, Value flags_before, Value flags_after)
    {
        return make(EventKind::flags_change, fn, sock, npos, npos, flags_before, flags_after);
    }

    // the collection, both eras
    static constexpr Event gc_call(KFn fn, Value tot_inflight)
    {
        return make(EventKind::gc_call, fn, npos, npos, npos, tot_inflight);
    }
    // 6.19+: unix_schedule_gc() entered, with the graph's state.
    static constexpr Event gc_schedule(KFn fn, bool maybe_cyclic, Value cyclic_sccs)
    {
        return make(EventKind::gc_call, fn, npos, npos, npos, maybe_cyclic ? 1 : 0, cyclic_sccs);
    }
    static constexpr Event gc_queued(KFn fn, bool already_pending)
    {
        return make(EventKind::gc_queued, fn, npos, npos, npos, 0, already_pending ? 1 : 0);
    }
    static constexpr Event gc_wait(KFn fn, Value files_in_flight)
    {
        return make(EventKind::gc_wait, fn, npos, npos, npos, files_in_flight);
    }
    static constexpr Event gc_begin(KFn fn, Id run) { return make(EventKind::gc_begin, fn, run); }
    static constexpr Event gc_end(KFn fn, Id run, Value garbage, Value skbs_purged, bool hung = false)
    {
        return make(EventKind::gc_end, fn, run, hung ? 1 : npos, npos, garbage, skbs_purged);
    }
    // graph_not_cyclic: skipped because unix_graph_maybe_cyclic is false, else because a
    // collection is already running.
    static constexpr Event gc_skip(KFn fn, Id run, bool graph_not_cyclic)
    {
        return make(EventKind::gc_skip, fn, run, npos, npos, graph_not_cyclic ? 1 : 0);
    }

    // classic
    static constexpr Event candidate_check(KFn fn, Id sock, bool candidate, Value refs, Value inflight)
    {
        return make(EventKind::candidate_check, fn, sock, npos, candidate ? 1 : 0, refs, inflight);
    }
    static constexpr Event cursor_move(KFn fn, Id sock, Value inflight)
    {
        return make(EventKind::cursor_move, fn, sock, npos, npos, inflight, inflight);
    }
    static constexpr Event scan(KFn fn, Id sock, Id embryo = npos) { return make(EventKind::scan, fn, sock, embryo); }
    // An skb moves from sock's receive queue to the hitlist.
    static constexpr Event skb_hitlist(KFn fn, Id skb, Id sock)
    {
        Event e = make(EventKind::skb_hitlist, fn, skb, sock);
        e.from = ListId::receive_queue;
        e.to = ListId::hitlist;
        return e;
    }

    // graph
    static constexpr Event queue_splice(KFn fn, Id sock, Id embryo, Value skbs)
    {
        return make(EventKind::queue_splice, fn, sock, embryo, npos, skbs);
    }
    static constexpr Event vertex_new(KFn fn, Id sock, Value scc_index)
    {
        return make(EventKind::vertex_new, fn, sock, npos, npos, 0, scc_index);
    }
    static constexpr Event vertex_free(KFn fn, Id sock) { return make(EventKind::vertex_free, fn, sock); }
    static constexpr Event edge_add(KFn fn, Id predecessor, Id receiver, Id successor, Value out_degree_before,
                                    Value out_degree_after)
    {
        return make(EventKind::edge_add, fn, predecessor, receiver, successor, out_degree_before, out_degree_after);
    }
    static constexpr Event edge_del(KFn fn, Id predecessor, Id receiver, Value out_degree_before,
                                    Value out_degree_after)
    {
        return make(EventKind::edge_del, fn, predecessor, receiver, npos, out_degree_before, out_degree_after);
    }
    // bits: 1 = unix_graph_maybe_cyclic, 2 = unix_graph_grouped; sock: the vertex or root that
    // caused it (or npos).
    static constexpr Event graph_state(KFn fn, Id sock, Value bits_before, Value bits_after)
    {
        return make(EventKind::graph_state, fn, sock, npos, npos, bits_before, bits_after);
    }
    static constexpr Event vertex_visit(KFn fn, Id sock, Value index)
    {
        return make(EventKind::vertex_visit, fn, sock, npos, npos, 0, index);
    }
    // receiver: the socket whose queue holds the predecessor's file (an embryo of the successor,
    // or the successor itself).
    static constexpr Event edge_push(KFn fn, Id predecessor, Id successor, Id receiver)
    {
        return make(EventKind::edge_push, fn, predecessor, successor, receiver);
    }
    static constexpr Event edge_pop(KFn fn, Id predecessor, Id successor, Value scc_index_before, Value scc_index_after)
    {
        return make(EventKind::edge_pop, fn, predecessor, successor, npos, scc_index_before, scc_index_after);
    }
    static constexpr Event scc_index_update(KFn fn, Id sock, Id successor, Value scc_index_before,
                                            Value scc_index_after)
    {
        return make(EventKind::scc_index_update, fn, sock, successor, npos, scc_index_before, scc_index_after);
    }
    static constexpr Event scc_found(KFn fn, Id root, Value members)
    {
        return make(EventKind::scc_found, fn, root, npos, npos, members);
    }
    // reason: see dead_reason() in narrate.cpp; successor: the one the reason names (or npos).
    static constexpr Event vertex_dead(KFn fn, Id sock, Id successor, Id refs, bool dead, Value reason)
    {
        return make(EventKind::vertex_dead, fn, sock, successor, refs, dead ? 1 : 0, reason);
    }
    // alive_reason and alive_where: the verdict of the member that kept the SCC alive
    // (vertex_dead's reason and successor), so the SCC's verdict can name what keeps it.
    static constexpr Event scc_verdict(KFn fn, Id root, Id alive_by, bool dead, bool cyclic, Value alive_reason = 0,
                                       Id alive_where = npos)
    {
        return make(EventKind::scc_verdict, fn, root, alive_by, alive_where, dead ? 1 : 0,
                    (cyclic ? 1 : 0) | (alive_reason << 1));
    }

    // modelled time and concurrency
    static constexpr Event wait_end(KFn fn, Value waited_ns, WaitFor waited_for)
    {
        return make(EventKind::wait_end, fn, npos, npos, npos, waited_ns, static_cast<Value>(waited_for));
    }
    // lock: 0 = unix_gc_lock, 1 = unix_table_lock, 2 + h = bucket h's lock (or a state lock, Kernel).
    static constexpr Event lock_spin(KFn fn, Id lock, Value spun_ns)
    {
        return make(EventKind::lock_spin, fn, lock, npos, npos, spun_ns);
    }
    static constexpr Event task_spawn(Id task_index, Id cpu)
    {
        return make(EventKind::task_spawn, KFn::scene, task_index, cpu);
    }
    static constexpr Event task_exit(Id task_index) { return make(EventKind::task_exit, KFn::scene, task_index); }
    // point_kind: a RacePointKind; point_sock: the point's socket.
    static constexpr Event task_switch(Id from_task, Id to_task, Id point_sock, Value point_kind, TaskSwitch how)
    {
        return make(EventKind::task_switch, KFn::scene, from_task, to_task, point_sock, point_kind,
                    static_cast<Value>(how));
    }
    static constexpr Event sched_point() { return make(EventKind::sched_point, KFn::none); }

    // autobind (spec 6)
    static constexpr Event autobind_probe(KFn fn, Id sock, Id name_value, Id bucket, Value compared, bool taken)
    {
        return make(EventKind::autobind_probe, fn, sock, name_value, bucket, compared, taken ? 1 : 0);
    }
    // error: ENOSPC, or -1 for "would loop forever"; start: the start value's low 32 bits.
    static constexpr Event autobind_fail(KFn fn, Id sock, Id start, Value error, Value probes)
    {
        return make(EventKind::autobind_fail, fn, sock, start, npos, error, probes);
    }

    // ---- accessors, named as EventKind's comments name the slots ----
    // The socket the event is about: a, or b for the kinds whose a is an skb (the socket whose
    // queue the skb is on).
    constexpr Id sock() const
    {
        switch (kind) {
        case EventKind::skb_dequeue:
        case EventKind::skb_free:
        case EventKind::skb_hitlist:
        case EventKind::fds_peek: return b;
        default: return a;
        }
    }
    constexpr Id skb() const
    {
        assert(is(EventKind::skb_queue, EventKind::skb_dequeue, EventKind::skb_free, EventKind::skb_unref,
                  EventKind::fds_attach, EventKind::fds_detach, EventKind::fds_peek, EventKind::skb_hitlist,
                  EventKind::list_move));
        return a;
    }
    // stmt_begin / stmt_end
    constexpr Id statement() const { return stmt_slot(a); }
    constexpr Id first_name() const { return stmt_slot(b); } // name-pool id of a template's expansion, or npos
    // The same for its second name; a send's or recv's (one name, then fds): its fd list as said
    // (name_list_text) when a template is in it.
    constexpr Id second_name() const { return stmt_slot(c); }
    constexpr Value error() const // errno (0 = success)
    {
        assert(is(EventKind::stmt_end, EventKind::warning, EventKind::autobind_fail));
        return before;
    }
    constexpr Value return_value() const { return checked(EventKind::stmt_end, after); }
    constexpr bool held() const { return checked(EventKind::expect_result, before) != 0; }
    constexpr Id finding_index() const { return checked(EventKind::finding, a); }
    // note (connect's peer, or an accepted embryo's listener), peer_shutdown
    constexpr Id peer() const
    {
        assert(is(EventKind::note, EventKind::peer_shutdown));
        return b;
    }
    // sock_create: for an embryo, the socket whose connect() made it (else npos)
    constexpr Id connecting() const { return checked(EventKind::sock_create, b); }
    constexpr Id address() const { return checked(EventKind::note, c); }
    constexpr bool option_on() const { return checked(EventKind::note, after) != 0; }
    constexpr SceneNote scene_note_shows() const { return static_cast<SceneNote>(checked(EventKind::note, before)); }
    // fd_install / fd_close
    constexpr Id process() const
    {
        assert(is(EventKind::fd_install, EventKind::fd_close));
        return b;
    }
    constexpr Id fd() const
    {
        assert(is(EventKind::fd_install, EventKind::fd_close));
        return c;
    }
    // fd_install, fd_close, file_get, file_put: the file's count
    constexpr Change file_count() const
    {
        assert(is(EventKind::fd_install, EventKind::fd_close, EventKind::file_get, EventKind::file_put));
        return {before, after};
    }
    constexpr Id deferring_task() const { return checked(EventKind::fput_deferred, b); }
    constexpr bool delayed() const { return checked(EventKind::fput_deferred, c) != 0; } // delayed_fput, not task_work
    constexpr bool is_embryo() const { return checked(EventKind::sock_release, c) == 1; }
    constexpr bool reset() const { return checked(EventKind::peer_shutdown, after) != 0; } // ECONNRESET
    // skb_queue: b; edge_add / edge_del: b (the socket whose queue holds the edge's file);
    // edge_push: c; splice_chunk: b
    constexpr Id receiver() const
    {
        assert(is(EventKind::skb_queue, EventKind::edge_add, EventKind::edge_del, EventKind::edge_push,
                  EventKind::splice_chunk));
        return kind == EventKind::edge_push ? c : b;
    }
    // skb_queue: c; splice_chunk: a
    constexpr Id sender() const
    {
        assert(is(EventKind::skb_queue, EventKind::splice_chunk));
        return kind == EventKind::splice_chunk ? a : c;
    }
    // fds an skb carries: skb_queue, skb_free, fds_attach, fds_detach, fds_peek
    constexpr Value fds() const
    {
        assert(is(EventKind::skb_queue, EventKind::skb_free, EventKind::fds_attach, EventKind::fds_detach,
                  EventKind::fds_peek));
        return before;
    }
    constexpr Value refs_left() const { return checked(EventKind::skb_unref, after); }
    constexpr bool duplicated() const { return checked(EventKind::fds_attach, after) != 0; }
    constexpr bool peek_seq_bumped() const { return checked(EventKind::fds_peek, after) != 0; }
    constexpr Value bytes() const { return checked(EventKind::splice_chunk, before); }
    constexpr bool checksummed() const { return checked(EventKind::splice_chunk, after) != 0; }
    constexpr bool takes_refs() const { return checked(EventKind::creds_ref, before) != 0; } // else drops them
    constexpr Value cost_ns() const { return checked(EventKind::creds_ref, after); }
    // u->inflight (classic) or the vertex's out_degree (graph)
    constexpr Change inflight() const { return {checked(EventKind::inflight_change, before), after}; }
    constexpr Change gc_flags() const
    {
        assert(is(EventKind::list_move, EventKind::flags_change));
        return {before, after};
    }
    constexpr Value tot_inflight() const { return checked(EventKind::gc_call, before); }
    constexpr bool already_pending() const { return checked(EventKind::gc_queued, after) != 0; }
    constexpr Value files_in_flight() const { return checked(EventKind::gc_wait, before); }
    constexpr Id run() const
    {
        assert(is(EventKind::gc_begin, EventKind::gc_end, EventKind::gc_skip));
        return a;
    }
    constexpr Value garbage() const { return checked(EventKind::gc_end, before); }
    constexpr Value skbs_purged() const { return checked(EventKind::gc_end, after); }
    // gc_end of a run whose kernel task spins for ever (the model ends it where it would hang)
    constexpr bool run_hung() const { return checked(EventKind::gc_end, b) == 1; }
    constexpr bool graph_not_cyclic() const { return checked(EventKind::gc_skip, before) == 1; }
    // candidate_check: file_count (before); vertex_dead: file_count (c)
    constexpr Value refs() const
    {
        assert(is(EventKind::candidate_check, EventKind::vertex_dead));
        return kind == EventKind::vertex_dead ? static_cast<Value>(c) : before;
    }
    constexpr bool is_candidate() const { return checked(EventKind::candidate_check, c) != 0; }
    // candidate_check: after; cursor_move: before
    constexpr Value inflight_count() const
    {
        assert(is(EventKind::candidate_check, EventKind::cursor_move));
        return kind == EventKind::cursor_move ? before : after;
    }
    // scan, queue_splice: the embryo whose queue is used instead of the socket's own (or npos)
    constexpr Id embryo() const
    {
        assert(is(EventKind::scan, EventKind::queue_splice));
        return b;
    }
    constexpr Value skbs() const { return checked(EventKind::queue_splice, before); }
    // edge_add, edge_del, edge_push, edge_pop
    constexpr Id predecessor() const
    {
        assert(is(EventKind::edge_add, EventKind::edge_del, EventKind::edge_push, EventKind::edge_pop));
        return a;
    }
    // edge_add: c (the effective successor: the listener for an embryo); edge_push, edge_pop,
    // scc_index_update, vertex_dead: b
    constexpr Id successor() const
    {
        assert(is(EventKind::edge_add, EventKind::edge_push, EventKind::edge_pop, EventKind::scc_index_update,
                  EventKind::vertex_dead));
        return kind == EventKind::edge_add ? c : b;
    }
    constexpr Change out_degree() const
    {
        assert(is(EventKind::edge_add, EventKind::edge_del));
        return {before, after};
    }
    constexpr Change graph_bits() const { return {checked(EventKind::graph_state, before), after}; }
    constexpr Change scc_index() const
    {
        assert(is(EventKind::edge_pop, EventKind::scc_index_update, EventKind::vertex_new));
        return {before, after};
    }
    constexpr Value index() const { return checked(EventKind::vertex_visit, after); }
    constexpr Id root() const
    {
        assert(is(EventKind::scc_found, EventKind::scc_verdict));
        return a;
    }
    constexpr Value members() const { return checked(EventKind::scc_found, before); }
    constexpr bool dead() const
    {
        assert(is(EventKind::vertex_dead, EventKind::scc_verdict));
        return before != 0;
    }
    constexpr Value reason() const { return checked(EventKind::vertex_dead, after); }
    constexpr Id alive_by() const { return checked(EventKind::scc_verdict, b); } // a member left alive, or npos
    constexpr bool cyclic() const { return (checked(EventKind::scc_verdict, after) & 1) != 0; }
    constexpr Value alive_reason() const { return checked(EventKind::scc_verdict, after) >> 1; }
    constexpr Id alive_where() const { return checked(EventKind::scc_verdict, c); }
    constexpr Value waited_ns() const { return checked(EventKind::wait_end, before); }
    constexpr WaitFor waited_for() const { return static_cast<WaitFor>(checked(EventKind::wait_end, after)); }
    constexpr Id lock() const { return checked(EventKind::lock_spin, a); }
    constexpr Value spun_ns() const { return checked(EventKind::lock_spin, before); }
    constexpr Id task_index() const
    {
        assert(is(EventKind::task_spawn, EventKind::task_exit));
        return a;
    }
    constexpr Id cpu() const { return checked(EventKind::task_spawn, b); }
    constexpr Id from_task() const { return checked(EventKind::task_switch, a); }
    constexpr Id to_task() const { return checked(EventKind::task_switch, b); }
    constexpr Id point_sock() const { return checked(EventKind::task_switch, c); }
    constexpr Value point_kind() const { return checked(EventKind::task_switch, before); } // a RacePointKind
    constexpr TaskSwitch how() const { return static_cast<TaskSwitch>(checked(EventKind::task_switch, after)); }
    constexpr Id name_value() const { return checked(EventKind::autobind_probe, b); } // 0..0xFFFFF
    constexpr Id bucket() const { return checked(EventKind::autobind_probe, c); }
    constexpr Value compared() const { return checked(EventKind::autobind_probe, before); } // chain entries
    constexpr bool taken() const { return checked(EventKind::autobind_probe, after) != 0; }
    constexpr bool loops_forever() const { return checked(EventKind::autobind_fail, before) < 0; }
    constexpr Value probes() const { return checked(EventKind::autobind_fail, after); }
    constexpr Id start() const { return checked(EventKind::autobind_fail, b); } // low 32 bits

private:
    static constexpr Event make(EventKind kind, KFn fn, Id a = npos, Id b = npos, Id c = npos, Value before = 0,
                                Value after = 0)
    {
        Event e;
        e.kind = kind;
        e.fn = fn;
        e.a = a;
        e.b = b;
        e.c = c;
        e.before = before;
        e.after = after;
        return e;
    }
    template <typename... K>
    constexpr bool is(K... kinds) const
    {
        return ((kind == kinds) || ...);
    }
    template <typename T>
    constexpr T checked([[maybe_unused]] EventKind k, T slot) const
    {
        assert(kind == k);
        return slot;
    }
    constexpr Id stmt_slot(Id slot) const
    {
        assert(is(EventKind::stmt_begin, EventKind::stmt_end));
        return slot;
    }
};
// A run's index stores millions of events: the typed interface must not make one larger.
static_assert(sizeof(Event) <= 64, "Event grew");

} // namespace inflight
