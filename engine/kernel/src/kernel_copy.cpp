// SPDX-License-Identifier: GPL-3.0-or-later
// The copy of the model state that a checkpoint is. Every object lives in an arena that never
// moves and has an id (sockets and files by socket id, skbs by storage slot, vertices by pool
// index, users, processes and tasks by index), so a pointer of the source is translated by
// taking the same id in the copy. Intrusive list hooks cannot be copied — a copied hook is
// unlinked — so every list (the GC lists, receive queues, the hitlist, vertex lists, each
// vertex's edges, the SCM_RIGHTS registry) is walked in the source and the matching objects of
// the copy are linked in the same order.
#include "inflight/kernel.hpp"

#include <cassert>
#include <unordered_map>

namespace inflight {

namespace {

// Copies the plain fields of a task; its body (a coroutine) is the Simulation's to give.
void copy_task_fields(Task &to, const Task &from)
{
    to.id = from.id;
    to.name = from.name;
    to.cpu = from.cpu;
    to.kworker = from.kworker;
    to.clock = from.clock;
    to.started = from.started;
    to.finished = from.finished;
    to.held = from.held;
    to.at_point = from.at_point;
    to.at_statement_boundary = from.at_statement_boundary;
    to.blocked = from.blocked;
    to.wait_for = from.wait_for;
    to.wait_start = from.wait_start;
    to.wake_at = from.wake_at;
    to.wait_lock = from.wait_lock;
    to.wake_failed = from.wake_failed;
    to.waited_ns = from.waited_ns;
    to.spun_ns = from.spun_ns;
    to.call_kind = from.call_kind;
}

} // namespace

bool Kernel::quiescent() const
{
    if (gc_phase != GcPhase::none || !vertex_stack_view.empty() || !edge_stack_view.empty())
        return false;
    if (kworker && kworker->body)
        return false; // queued work is under way on the kworker
    if (unix_gc_lock.holder || unix_table_lock.holder)
        return false;
    for (const KLock &l : table_locks)
        if (l.holder)
            return false;
    for (const auto &[id, l] : state_locks)
        if (l.holder)
            return false;
    // Every SCM_RIGHTS list must belong to an skb: a send-time cookie lives in a coroutine
    // frame, which a copy cannot take along.
    std::size_t owned = 0;
    for (const auto &slot : skb_slots_)
        owned += slot->fp && slot->fp->registry_hook.is_linked();
    std::size_t live = 0;
    for (auto it = live_fp_lists.begin(); it != live_fp_lists.end(); ++it)
        ++live;
    return owned == live;
}

std::size_t Kernel::state_bytes() const
{
    // Heap blocks carry about 16 bytes of allocator overhead each.
    constexpr std::size_t block = 16;
    std::size_t n = sizeof(Kernel) + socks.size() * sizeof(UnixSock) + files.size() * sizeof(File) +
                    vertex_pool.size() * sizeof(UnixVertex) + name_pool.bytes() +
                    label_owner.size() * sizeof(std::uint32_t) + gc_runs.size() * sizeof(GcRun) +
                    findings.size() * sizeof(Finding) + latencies.size() * sizeof(LatencySample) +
                    tasks.size() * sizeof(Task) + abstract_ns.memory_bytes();
    for (const std::string &a : addresses)
        n += sizeof a + a.capacity();
    for (const Process &p : processes)
        n += sizeof p + p.fds.capacity() * sizeof(File *) + p.names.bytes();
    for (const auto &slot : skb_slots_) {
        n += sizeof(SkBuff) + block;
        if (slot->fp)
            n += sizeof(ScmFpList) + slot->fp->fp.capacity() * sizeof(File *) + 2 * block +
                 (slot->fp->edges ? static_cast<std::size_t>(slot->fp->count_unix) * sizeof(UnixEdge) + block : 0);
    }
    return n;
}

Kernel::Kernel(const Kernel &o)
    : socks(o.socks), files(o.files), users(o.users), processes(o.processes), name_pool(o.name_pool),
      label_owner(o.label_owner), addresses(o.addresses), abstract_ns(o.abstract_ns),
      unix_table_lock(o.unix_table_lock), table_locks(o.table_locks), unix_tot_inflight(o.unix_tot_inflight),
      gc_in_progress(o.gc_in_progress), gc_phase(o.gc_phase), vertex_pool(o.vertex_pool),
      graph_maybe_cyclic(o.graph_maybe_cyclic), graph_grouped(o.graph_grouped), graph_cyclic_sccs(o.graph_cyclic_sccs), unvisited_index(o.unvisited_index),
      grouped_index(o.grouped_index), max_scc_index(o.max_scc_index),
      visited_generation(o.visited_generation), gc_walk_number(o.gc_walk_number), gc_runs(o.gc_runs), findings(o.findings),
      leaked(o.leaked), step_hint(o.step_hint), skbs_allocated(o.skbs_allocated), skbs_live(o.skbs_live),
      release_cause(o.release_cause), collections_suppressed(o.collections_suppressed), concurrent(o.concurrent),
      unix_gc_lock(o.unix_gc_lock), gc_busy_until(o.gc_busy_until), latencies(o.latencies),
      latency_counts(o.latency_counts), breach(o.breach), gc_runs_dropped(o.gc_runs_dropped), bytes_live(o.bytes_live),
      micro_steps_total(o.micro_steps_total), steps_skipped(o.steps_skipped), fast_forward(o.fast_forward),
      gc_inputs_version(o.gc_inputs_version), pid_lines(o.pid_lines), cred_lines(o.cred_lines), config_(o.config_),
      workqueue_(o.workqueue_), gc_work_pending_(o.gc_work_pending_), fput_work_pending_(o.fput_work_pending_),
      work_ready_at_(o.work_ready_at_), rng_(o.rng_), pending_trigger_(o.pending_trigger_)
{
    assert(o.quiescent());
    cursor.is_cursor = true;
    collector_ = o.collector_->clone_for(*this);

    auto sock = [this](const UnixSock *u) { return u ? &socks[u->id] : nullptr; };
    auto file = [this](const File *f) { return f ? &files[f->id] : nullptr; };
    auto user = [this](const User *u) { return u ? &users[u->id] : nullptr; };
    auto process = [this](const Process *p) { return p ? &processes[p->id] : nullptr; };
    auto vertex = [this](const UnixVertex *v) { return v ? &vertex_pool[v->pool_index] : nullptr; };

    // ---- tasks and locks ----------------------------------------------------------------------
    for (const Task &t : o.tasks) {
        Task &c = tasks.emplace_back();
        copy_task_fields(c, t);
        c.process = process(t.process);
        c.context = process(t.context);
        c.wait_sock = sock(t.wait_sock);
    }
    auto task = [this](const Task *t) { return t ? &tasks[t->id] : nullptr; };
    running = task(o.running);
    kworker = task(o.kworker);
    current = process(o.current);
    unix_gc_lock.holder = task(o.unix_gc_lock.holder);
    unix_table_lock.holder = task(o.unix_table_lock.holder);
    for (std::size_t i = 0; i < table_locks.size(); ++i)
        table_locks[i].holder = task(o.table_locks[i].holder);
    state_locks = o.state_locks;
    for (auto &[id, l] : state_locks)
        l.holder = task(l.holder);
    unix_peek_seq = o.unix_peek_seq;
    inflight_corrupted = o.inflight_corrupted;
    freed_scc_indexes = o.freed_scc_indexes;
    unsound_reported = o.unsound_reported;

    // ---- processes and files ------------------------------------------------------------------
    for (Process &p : processes) {
        p.user = user(p.user);
        p.pool = &name_pool;
        for (File *&f : p.fds)
            f = file(f);
        for (File *&f : p.task_work)
            f = file(f);
    }
    for (File &f : files)
        f.sock = sock(f.sock);
    delayed_fput_list_.reserve(o.delayed_fput_list_.size());
    for (const File *f : o.delayed_fput_list_)
        delayed_fput_list_.push_back(file(f));

    // ---- skbs with their SCM_RIGHTS lists and graph edges ---------------------------------------
    std::unordered_map<const ScmFpList *, ScmFpList *> fpl_copy;
    std::unordered_map<const UnixEdge *, UnixEdge *> edge_copy;
    skb_slots_.resize(o.skb_slots_.size());
    for (std::size_t i = 0; i < o.skb_slots_.size(); ++i) {
        const SkBuff &from = *o.skb_slots_[i];
        auto to = std::make_unique<SkBuff>();
        to->id = from.id;
        to->slot = from.slot;
        to->len = from.len;
        to->oob = from.oob;
        to->consumed = from.consumed;
        to->users = from.users;
        to->sk = sock(from.sk);
        to->sender = sock(from.sender);
        to->queue_owner = sock(from.queue_owner);
        to->receiver = sock(from.receiver);
        to->creds_owner = from.creds_owner;
        if (from.fp) {
            const ScmFpList &src = *from.fp;
            auto fpl = std::make_unique<ScmFpList>();
            fpl->fp.reserve(src.fp.size());
            for (const File *f : src.fp)
                fpl->fp.push_back(file(f));
            fpl->count_unix = src.count_unix;
            fpl->user = user(src.user);
            fpl->inflight = src.inflight;
            fpl->dead = src.dead;
            if (src.edges) {
                const auto n = static_cast<std::size_t>(src.count_unix);
                fpl->edges = std::make_unique<UnixEdge[]>(n);
                for (std::size_t j = 0; j < n; ++j) {
                    fpl->edges[j].predecessor = sock(src.edges[j].predecessor);
                    fpl->edges[j].successor = sock(src.edges[j].successor);
                    edge_copy.emplace(&src.edges[j], &fpl->edges[j]);
                }
            }
            fpl_copy.emplace(&src, fpl.get());
            to->fp = std::move(fpl);
        }
        skb_slots_[i] = std::move(to);
    }
    auto skb = [this](const SkBuff *s) { return s ? skb_slots_[s->slot].get() : nullptr; };
    free_skbs_.reserve(o.free_skbs_.size());
    for (const SkBuff *s : o.free_skbs_)
        free_skbs_.push_back(skb(s));
    for (const ScmFpList &fpl : o.live_fp_lists)
        live_fp_lists.push_back(*fpl_copy.at(&fpl));

    // ---- sockets: pointers, receive queues, the GC lists ----------------------------------------
    for (std::size_t i = 0; i < socks.size(); ++i) {
        UnixSock &u = socks[i];
        const UnixSock &src = o.socks[i];
        u.peer = sock(src.peer);
        u.listener = sock(src.listener);
        u.file = file(src.file);
        u.vertex = vertex(src.vertex);
        u.oob_skb = skb(src.oob_skb);
        for (const SkBuff &s : src.receive_queue)
            u.receive_queue.push_back(*skb(&s));
    }
    auto relink = [&](const GcList &from, GcList &to) {
        for (const GcLink &l : from) {
            if (l.is_cursor)
                to.push_back(cursor);
            else
                to.push_back(socks[static_cast<const UnixSock &>(l).id]);
        }
    };
    relink(o.gc_inflight_list, gc_inflight_list);
    relink(o.gc_candidates, gc_candidates);
    relink(o.not_cycle_list, not_cycle_list);
    cursor.on = o.cursor.on;
    for (const SkBuff &s : o.hitlist)
        hitlist.push_back(*skb(&s));

    // ---- the graph: vertices, their edges, the vertex lists, the walk's stacks ------------------
    for (std::size_t i = 0; i < vertex_pool.size(); ++i) {
        UnixVertex &v = vertex_pool[i];
        const UnixVertex &src = o.vertex_pool[i];
        v.scc_prev = vertex(src.scc_prev);
        v.scc_next = vertex(src.scc_next);
        v.sock = sock(src.sock);
        for (const UnixEdge &e : src.edges)
            v.edges.push_back(*edge_copy.at(&e));
    }
    for (const UnixVertex &v : o.unvisited_vertices)
        unvisited_vertices.push_back(vertex_pool[v.pool_index]);
    for (const UnixVertex &v : o.visited_vertices)
        visited_vertices.push_back(vertex_pool[v.pool_index]);
    free_vertices.reserve(o.free_vertices.size());
    for (const UnixVertex *v : o.free_vertices)
        free_vertices.push_back(vertex(v));
    for (const UnixVertex *v : o.vertex_stack_view)
        vertex_stack_view.push_back(vertex(v));
    for (const UnixEdge *e : o.edge_stack_view)
        edge_stack_view.push_back(edge_copy.at(e));
}

} // namespace inflight
