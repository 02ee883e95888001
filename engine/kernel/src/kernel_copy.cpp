// SPDX-License-Identifier: GPL-3.0-or-later
// The copy of the model state that a checkpoint is. Every object lives in an arena that never
// moves and has an id (sockets and files by socket id, skbs by storage slot, vertices by pool
// index, users, processes and tasks by index), so a pointer of the source is translated by
// taking the same id in the copy. Intrusive list hooks cannot be copied — a copied hook is
// unlinked — so every list (the GC lists, receive queues, the hitlist, vertex lists, each
// vertex's edges, the SCM_RIGHTS registry) is walked in the source and the matching objects of
// the copy are linked in the same order.
#include "inflight/kernel.hpp"

#include "inflight/object_image.hpp"

#include <cassert>

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
                    findings.size() * sizeof(Finding) + latencies.unshared_bytes() + tasks.size() * sizeof(Task) +
                    abstract_ns.memory_bytes() + (image_ ? image_->bytes() : 0);
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

Kernel::Kernel(const Kernel &o, CopyForm form)
    : users(o.users), name_pool(o.name_pool), addresses(o.addresses), abstract_ns(o.abstract_ns),
      unix_table_lock(o.unix_table_lock), table_locks(o.table_locks), unix_tot_inflight(o.unix_tot_inflight),
      gc_in_progress(o.gc_in_progress), gc_phase(o.gc_phase), freed_scc_indexes(o.freed_scc_indexes),
      graph_maybe_cyclic(o.graph_maybe_cyclic), graph_grouped(o.graph_grouped), graph_cyclic_sccs(o.graph_cyclic_sccs),
      unvisited_index(o.unvisited_index), grouped_index(o.grouped_index), max_scc_index(o.max_scc_index),
      visited_generation(o.visited_generation), gc_walk_number(o.gc_walk_number),
      classic_scan_subject(o.classic_scan_subject), findings(o.findings), leaked(o.leaked), step_hint(o.step_hint),
      skbs_allocated(o.skbs_allocated), skbs_live(o.skbs_live), release_cause(o.release_cause),
      collections_suppressed(o.collections_suppressed), concurrent(o.concurrent), unix_gc_lock(o.unix_gc_lock),
      gc_busy_until(o.gc_busy_until), unix_peek_seq(o.unix_peek_seq), inflight_corrupted(o.inflight_corrupted),
      unsound_reported(o.unsound_reported), latency_counts(o.latency_counts), breach(o.breach),
      gc_runs_dropped(o.gc_runs_dropped), bytes_live(o.bytes_live), micro_steps_total(o.micro_steps_total),
      steps_skipped(o.steps_skipped), fast_forward(o.fast_forward), gc_inputs_version(o.gc_inputs_version),
      pid_lines(o.pid_lines), cred_lines(o.cred_lines), config_(o.config_), workqueue_(o.workqueue_),
      gc_work_pending_(o.gc_work_pending_), fput_work_pending_(o.fput_work_pending_), work_ready_at_(o.work_ready_at_),
      rng_(o.rng_), pending_trigger_(o.pending_trigger_)
{
    assert(o.frozen() || o.quiescent());
    cursor.is_cursor = true;
    collector_ = o.collector_->clone_for(*this);

    // Tasks: their plain fields here (a frozen kernel keeps its tasks: the Simulation's CPU
    // owners point at them); their pointers come with the object graph. A quiescent point has
    // no lock held, so no holder needs translating.
    for (const Task &t : o.tasks) {
        copy_task_fields(tasks.emplace_back(), t);
        if (t.blocked)
            sleepers(t.wait_for).push_back(t.id);
    }
    auto task = [this](const Task *t) { return t ? &tasks[t->id] : nullptr; };
    running = task(o.running);
    kworker = task(o.kworker);
    state_locks = o.state_locks;
    assert(!unix_gc_lock.holder && !unix_table_lock.holder);

    // Everything that points at something: one path for a copy and for a checkpoint's restore.
    if (form != CopyForm::live && o.image_) {
        // An image never changes once made: copies of the same form share it.
        if (form == CopyForm::frozen && !o.image_->compressed())
            image_ = std::make_shared<const ObjectImage>(o.image_->compressed_copy());
        else
            image_ = o.image_;
    } else if (form != CopyForm::live) {
        auto packed = std::make_shared<const ObjectImage>(ObjectImage::pack(o));
        image_ = form == CopyForm::frozen ? std::make_shared<const ObjectImage>(packed->compressed_copy()) : packed;
    } else if (o.image_) {
        o.image_->unpack(*this);
    } else {
        ObjectImage::pack(o).unpack(*this);
    }
}

} // namespace inflight
