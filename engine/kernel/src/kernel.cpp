// SPDX-License-Identifier: GPL-3.0-or-later
// Object lifetime, file release and kernel work: the parts of the model every era shares.
#include "inflight/kernel.hpp"

#include "classic_gc.hpp"
#include "graph_gc.hpp"
#include "inflight/algorithm_listing.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace inflight {

std::string_view gc_phase_name(GcPhase p)
{
    switch (p) {
    case GcPhase::none: return "none";
    case GcPhase::select: return "select";
    case GcPhase::decrement: return "decrement";
    case GcPhase::restore: return "restore";
    case GcPhase::hitlist: return "hitlist";
    case GcPhase::purge: return "purge";
    case GcPhase::walk: return "walk";
    case GcPhase::fast_walk: return "fast_walk";
    }
    return "?";
}

Kernel::Kernel(const KernelConfig &config) : config_(config), rng_(config.seed)
{
    cursor.is_cursor = true;
    users.emplace_back();
    users.back().name = "root";
    users.back().uid = 0;
    add_process("main", users.front());
    if (config_.era == GcEra::graph)
        collector_ = std::make_unique<GraphCollector>(*this);
    else
        collector_ = std::make_unique<ClassicCollector>(*this);
}

Kernel::~Kernel()
{
    // Unlink every intrusive hook before the containers go, so safe-mode hooks stay quiet.
    gc_inflight_list.clear();
    gc_candidates.clear();
    not_cycle_list.clear();
    hitlist.clear();
    for (auto &u : socks)
        u.receive_queue.clear();
    for (auto &v : vertex_pool) {
        v.edges.clear();
    }
    unvisited_vertices.clear();
    visited_vertices.clear();
    live_fp_lists.clear();
}

User &Kernel::add_user(const std::string &name)
{
    User &u = users.emplace_back();
    u.id = static_cast<std::uint32_t>(users.size() - 1);
    u.name = name;
    u.uid = 1000 + u.id - 1;
    return u;
}

Process &Kernel::add_process(const std::string &name, User &user)
{
    Process &p = processes.emplace_back();
    p.id = static_cast<std::uint32_t>(processes.size() - 1);
    p.name = name;
    p.user = &user;
    p.nofile = config_.nofile;
    p.pool = &name_pool;
    p.fds.assign(3, nullptr); // 0, 1, 2: stdin, stdout, stderr (not modelled)
    return p;
}

User *Kernel::find_user(const std::string &name)
{
    for (auto &u : users)
        if (u.name == name)
            return &u;
    return nullptr;
}

Process *Kernel::find_process(const std::string &name)
{
    for (auto &p : processes)
        if (p.name == name)
            return &p;
    return nullptr;
}

UnixSock *Kernel::find_label(const std::string &label)
{
    const auto id = name_pool.find(label);
    if (!id || *id >= label_owner.size() || label_owner[*id] == npos)
        return nullptr;
    return &socks[label_owner[*id]];
}

void Kernel::add_label(const std::string &label, std::uint32_t sock_id)
{
    const std::uint32_t id = name_pool.intern(label);
    if (id >= label_owner.size()) {
        if (id >= label_owner.capacity()) // grows with the pool, not at its own power of two
            label_owner.reserve(std::max<std::size_t>(2 * label_owner.capacity(), name_pool.capacity()));
        label_owner.resize(id + 1, npos);
    }
    if (label_owner[id] == npos) // the first socket keeps a label (scenes make them unique)
        label_owner[id] = sock_id;
}

std::string Kernel::label_of_id(std::uint32_t sock_id) const
{
    if (sock_id >= socks.size())
        return "?";
    return label_of(socks[sock_id]);
}

std::string Kernel::address_of(const UnixSock &u) const
{
    if (u.address == npos)
        return {};
    if (u.address & kAutobindAddress)
        return autobind_name(u.address & kAutobindMask);
    return addresses[u.address];
}

std::uint32_t Kernel::store_address(const std::string &name)
{
    if (const auto v = autobind_value_of(name))
        return kAutobindAddress | *v;
    addresses.push_back(name);
    return static_cast<std::uint32_t>(addresses.size() - 1);
}

std::uint32_t Kernel::fd_refs(const File &f) const
{
    std::uint32_t n = 0;
    for (const auto &p : processes)
        for (const File *g : p.fds)
            n += (g == &f);
    return n;
}

bool Kernel::fput_queued(const File &f) const
{
    if (std::find(delayed_fput_list_.begin(), delayed_fput_list_.end(), &f) != delayed_fput_list_.end())
        return true;
    for (const Process &p : processes)
        if (std::find(p.task_work.begin(), p.task_work.end(), &f) != p.task_work.end())
            return true;
    return false;
}

std::uint32_t Kernel::fp_refs(const File &f) const
{
    std::uint32_t n = 0;
    for (const auto &fpl : live_fp_lists)
        for (const File *g : fpl.fp)
            n += (g == &f);
    return n;
}

UnixSock &Kernel::create_sock(SockType type, std::uint32_t owner, const std::string &label)
{
    UnixSock &u = socks.emplace_back();
    u.id = static_cast<std::uint32_t>(socks.size() - 1);
    u.type = type;
    u.owner = owner;
    add_label(label, u.id);
    u.label = name_pool.intern(label); // the name add_label() interned last: no second lookup
    return u;
}

File &Kernel::create_file(UnixSock &u)
{
    // Files are indexed like sockets; an embryo gets its file only at accept().
    while (files.size() <= u.id) {
        const auto id = static_cast<std::uint32_t>(files.size());
        files.emplace_back().id = id;
    }
    File &f = files[u.id];
    f.sock = &u;
    f.count = 0;
    u.file = &f;
    return f;
}

Errno Kernel::install_fd(Process &p, File &f, const std::string &name, int &fd)
{
    const std::size_t slot = p.lowest_free_fd();
    fd = static_cast<int>(slot);
    if (slot >= p.nofile)
        return Errno::mfile;
    if (slot == p.fds.size()) {
        // The table never outgrows RLIMIT_NOFILE: the first time it fills, it is sized for the
        // limit (up to 2^21 fds), so that a large table is never copied again; pages no fd
        // reaches are never touched. Past that size it doubles as usual.
        if (slot == p.fds.capacity())
            p.fds.reserve(std::max<std::size_t>(2 * slot, std::min<std::uint64_t>(p.nofile, std::uint64_t{1} << 21)));
        p.fds.push_back(&f);
    } else {
        p.fds[slot] = &f;
    }
    ++f.count;
    ++gc_inputs_version;
    ++p.open_count;
    // Reusing a name that is still open leaves the old fd open but unnamed, as overwriting a
    // variable holding an fd does in C.
    const std::uint32_t id = name_pool.intern(name);
    p.names.reserve_ids(name_pool.capacity());
    p.names.set(id, fd);
    return Errno::none;
}

Errno Kernel::resolve(Process &p, const std::string &name, UnixSock *&u)
{
    File *f = p.lookup(name);
    if (!f)
        return Errno::badf;
    u = f->sock;
    return u ? Errno::none : Errno::notsock;
}

void Kernel::finding(std::string invariant, std::string message)
{
    findings.push_back(Finding{step_hint + 1, std::move(invariant), std::move(message)});
}

void Kernel::warn_finding(std::string invariant, std::string message)
{
    findings.push_back(Finding{step_hint + 1, std::move(invariant), std::move(message), true});
}

void Kernel::check_purge_live(const UnixSock &u, long in_flight_refs, KFn path)
{
    if (!u.file || u.file->count <= in_flight_refs || !unsound_reported.insert(u.id).second)
        return;
    // Rare (a race went the wrong way): only now is it worth looking for the fd that holds it.
    std::string holder;
    for (const Process &p : processes) {
        for (std::size_t fd = 0; fd < p.fds.size() && holder.empty(); ++fd)
            if (p.fds[fd] == u.file)
                holder = "fd " + std::to_string(fd) + " of " + p.name;
        if (!holder.empty())
            break;
    }
    if (holder.empty())
        holder = "a reference outside flight";
    std::string other = "a reference taken while the collector ran";
    if (u.file->peeked_step) {
        const std::string who = u.file->peeked_process < processes.size() ? processes[u.file->peeked_process].name
                                                                          : std::string("a process");
        other = "recvmsg(MSG_PEEK) in " + who + " at step " + std::to_string(u.file->peeked_step) +
                " (unix_peek_fds -> scm_fp_dup)";
    }
    warn_finding("use-after-free: the collector purges a live socket",
                 label_of(u) + " is judged garbage by " + std::string(kfn_name(path)) + " and its queue purged, but " +
                     holder + " still reaches it: file_count " + std::to_string(u.file->count) + " > " +
                     std::to_string(in_flight_refs) + " in flight; the other path is " + other +
                     ". The purged skbs can still be read through it");
}

bool Kernel::successor_freed(const UnixSock &successor, const UnixSock &predecessor)
{
    const auto it = std::find_if(freed_in_purge.begin(), freed_in_purge.end(),
                                 [&](const FreedInPurge &f) { return f.sock == successor.id; });
    if (it == freed_in_purge.end())
        return false;
    if (!unsound_reported.insert(successor.id).second)
        return true;
    const std::string reader = running ? running->name : std::string("the kworker");
    const std::string freer = it->task < tasks.size() ? tasks[it->task].name : std::string("another task");
    warn_finding(
        "use-after-free in unix_del_edges(): edge->successor is freed",
        reader + " purges the collection's hitlist (__skb_queue_purge -> unix_destruct_scm -> " +
            "unix_destroy_fpl -> unix_del_edges) and reads " + label_of(successor) + ", the successor of " +
            label_of(predecessor) + "'s edge (unix_update_graph(unix_edge_successor()), the receiver's scm_stat); " +
            label_of(successor) + "'s unix_sock was freed at step " + std::to_string(it->step) + " by " + freer +
            " (delayed_fput -> __fput -> unix_release_sock), between two destructors of this "
            "purge. The fix leaves a dead list's successors alone (fpl-dead: 1af2dface5d2, 7172dc93d621)");
    return true;
}

SkBuff &Kernel::alloc_skb(std::uint64_t len)
{
    SkBuff *skb;
    if (!free_skbs_.empty()) {
        skb = free_skbs_.back();
        free_skbs_.pop_back();
    } else {
        skb_slots_.push_back(std::make_unique<SkBuff>());
        skb = skb_slots_.back().get();
        skb->slot = static_cast<std::uint32_t>(skb_slots_.size() - 1);
    }
    skb->id = ++skbs_allocated;
    skb->len = len;
    // Budgets: the skb is still made (callers cannot fail here); the run ends at this step.
    bytes_live = saturating_add(bytes_live, len);
    if (!breach && skbs_live + 1 > config_.budget[Budget::queued_skbs])
        reach_budget(Budget::queued_skbs, "allocating sk_buff " + std::to_string(skbs_live + 1));
    else if (!breach && bytes_live > config_.budget[Budget::queued_bytes])
        reach_budget(Budget::queued_bytes, std::to_string(bytes_live) + " bytes would be queued");
    skb->oob = false;
    skb->consumed = false;
    skb->users = 1;
    skb->sk = nullptr;
    skb->sender = nullptr;
    skb->queue_owner = nullptr;
    skb->receiver = nullptr;
    skb->fp.reset();
    skb->creds_owner = npos;
    ++skbs_live;
    return *skb;
}

void Kernel::free_skb_storage(SkBuff &skb)
{
    skb.fp.reset();
    --skbs_live;
    bytes_live -= std::min(bytes_live, skb.len);
    free_skbs_.push_back(&skb);
}

GcList &Kernel::gc_list(ListId id)
{
    switch (id) {
    case ListId::gc_candidates: return gc_candidates;
    case ListId::not_cycle_list: return not_cycle_list;
    default: return gc_inflight_list;
    }
}

void Kernel::gc_list_del(UnixSock &u)
{
    if (u.on != ListId::none && u.link.is_linked())
        gc_list(u.on).erase(gc_list(u.on).iterator_to(u));
    u.on = ListId::none;
}

void Kernel::gc_list_move(UnixSock &u, GcList &to, ListId to_id, bool tail)
{
    gc_list_del(u);
    if (tail)
        to.push_back(u);
    else
        to.push_front(u);
    u.on = to_id;
}

// ---- file references and release -----------------------------------------------------------

Proc Kernel::fput(File &f, std::uint32_t closing_process, std::uint32_t closing_fd)
{
    const long before = f.count;
    --f.count;
    ++gc_inputs_version;
    if (f.count < 0)
        finding("file_count(file) >= 0", "fput() on a file with no references left: " + label_of_id(f.id));
    if (closing_process != npos)
        co_yield Event::fd_close(KFn::close_fd, f.id, closing_process, closing_fd, before, f.count);
    else
        co_yield Event::file_put(KFn::fput, f.id, before, f.count);
    if (f.count == 0) {
        f.cause = release_cause;
        // __fput() does not run here: from a task it is queued as task_work (run on the way
        // back to user space), from a kworker it goes on delayed_fput_list.
        if (current) {
            current->task_work.push_back(&f);
            co_yield Event::fput_deferred(KFn::fput, f.id, current->id, false);
        } else {
            delayed_fput_list_.push_back(&f);
            queue_work(Work::delayed_fput);
            co_yield Event::fput_deferred(KFn::delayed_fput, f.id, npos, true);
        }
    }
}

Proc Kernel::run_task_work(Process &p)
{
    // task_work_run() takes the whole list, newest first; work added meanwhile is the next batch.
    while (!p.task_work.empty()) {
        std::vector<File *> batch;
        batch.swap(p.task_work);
        for (auto it = batch.rbegin(); it != batch.rend(); ++it)
            co_yield release_file(**it);
    }
}

Proc Kernel::run_delayed_fput()
{
    while (!delayed_fput_list_.empty()) {
        std::vector<File *> batch;
        batch.swap(delayed_fput_list_);
        for (auto it = batch.rbegin(); it != batch.rend(); ++it)
            co_yield release_file(**it);
    }
}

Proc Kernel::run_delayed_fput_elsewhere()
{
    // delayed_fput_work is one work item: the CPU that takes it runs it, and the scene's own
    // kworker will not find it queued any more.
    if (!fput_work_pending_)
        co_return;
    workqueue_.erase(std::find(workqueue_.begin(), workqueue_.end(), Work::delayed_fput));
    fput_work_pending_ = false;
    Process *saved = current;
    current = nullptr; // a kworker: what its releases put goes on delayed_fput_list again
    co_yield run_delayed_fput();
    current = saved;
}

Proc Kernel::release_file(File &f)
{
    f.released = true;
    if (f.sock)
        co_yield unix_release_sock(*f.sock, false);
}

Proc Kernel::purge_queue(UnixSock &u)
{
    const bool listener = u.state == SockState::listening;
    while (!u.receive_queue.empty()) {
        SkBuff &skb = u.receive_queue.front();
        u.receive_queue.pop_front();
        skb.queue_owner = nullptr;
        if (listener && skb.sk && skb.sk->state == SockState::embryo)
            co_yield unix_release_sock(*skb.sk, true);
        co_yield kfree_skb(skb, KFn::unix_release_sock);
    }
}

Proc Kernel::unix_release_sock(UnixSock &u, bool embryo)
{
    if (u.released) {
        finding("unix_release_sock() runs once", label_of(u) + " released twice");
        co_return;
    }
    co_yield Event::sock_release(KFn::unix_release_sock, u.id, embryo);
    const std::uint64_t release_step = step_hint; // this event's step, now that it is yielded
    // The cause is decided by who dropped the last reference (see FreedBy).
    if (u.address != npos)
        abstract_ns.unbind(address_of(u), u.type, u.id); // unix_remove_socket(): only its own name
    const SockState old = u.state;
    u.released = true;
    u.judged_garbage = false;
    u.freed_by = embryo ? FreedBy::cascade : (u.file ? u.file->cause : FreedBy::close);
    u.state = SockState::closed;
    u.shutdown = true;
    UnixSock *skpair = u.peer;
    u.peer = nullptr;
    if (SkBuff *oob = std::exchange(u.oob_skb, nullptr); oob && oob_skb_holds_ref())
        co_yield kfree_skb(*oob, KFn::unix_release_sock);
    if (skpair && u.type != SockType::dgram && !skpair->released) {
        skpair->shutdown = true;
        wake(WaitFor::data, now(), skpair); // a reader sleeping on the peer sees EOF
        const bool reset = !u.receive_queue.empty() || embryo;
        skpair->conn_reset = skpair->conn_reset || reset;
        co_yield Event::peer_shutdown(KFn::unix_release_sock, u.id, skpair->id, reset);
    }
    u.state = old; // purge_queue needs to know it was a listener
    const FreedBy saved = release_cause;
    release_cause = FreedBy::cascade;
    co_yield purge_queue(u);
    release_cause = saved;
    u.state = SockState::closed;
    // Released while a collection purges: by another CPU (the collector's own fputs are
    // deferred), and the unix_sock is freed now (sock_put) while the purge still runs.
    if (gc_phase == GcPhase::purge)
        freed_in_purge.push_back({u.id, release_step, running ? running->id : 0});
    if (config_.has(KernelChange::schedule_gc))
        co_yield unix_schedule_gc(nullptr, "close");
    else if (unix_tot_inflight)
        co_yield unix_gc("close");
}

Proc Kernel::kfree_skb(SkBuff &skb, KFn why)
{
    if (skb.users > 1) {
        // Someone else still holds it (u->oob_skb up to 6.11): the destructor does not run.
        --skb.users;
        co_yield Event::skb_unref(why, skb.id, skb.users);
        co_return;
    }
    Event freed = Event::skb_free(why, skb.id, skb.sender ? skb.sender->id : npos, skb.fp ? skb.fp->count() : 0);
    if (why == KFn::skb_queue_purge) // the collector's own purge of its hitlist
        freed.algo_line =
            static_cast<std::uint16_t>(config_.era == GcEra::graph ? AlgoLine::graph_purge : AlgoLine::classic_purge);
    co_yield freed;
    if (skb.fp) {
        ScmFpList &fpl = *skb.fp;
        co_yield collector_->detach(fpl);
        co_yield scm_destroy(fpl);
    }
    free_skb_storage(skb);
}

Proc Kernel::scm_destroy(ScmFpList &fpl)
{
    for (int i = fpl.count() - 1; i >= 0; --i) {
        File *f = fpl.fp[static_cast<size_t>(i)];
        if (!f)
            continue;
        fpl.fp[static_cast<size_t>(i)] = nullptr;
        co_yield fput(*f);
    }
    if (fpl.registry_hook.is_linked())
        live_fp_lists.erase(live_fp_lists.iterator_to(fpl));
}

// ---- collections -----------------------------------------------------------------------------

void Kernel::queue_work(Work w)
{
    bool &pending = w == Work::unix_gc ? gc_work_pending_ : fput_work_pending_;
    if (pending)
        return;
    pending = true;
    if (workqueue_.empty())
        work_ready_at_ = now() + config_.costs[Cost::worker_latency];
    workqueue_.push_back(w);
}

Proc Kernel::unix_gc(std::string trigger)
{
    // A collector whose last run never ended (a hung task, reported) starts no other.
    if (collections_suppressed || collector_->hung())
        co_return;
    co_yield Event::gc_call(KFn::unix_gc, static_cast<std::int64_t>(unix_tot_inflight));
    if (config_.era == GcEra::classic) {
        // Up to 6.8 the caller runs the whole collection itself, unless one is running.
        if (gc_in_progress) {
            co_yield Event::gc_skip(KFn::unix_gc, npos, false);
            co_return;
        }
        gc_in_progress = true;
        // The caller pays for the whole run: it is time spent waiting for the collector.
        const std::uint64_t t0 = now();
        co_yield gc_run(std::move(trigger));
        if (running)
            running->waited_ns += now() - t0;
        co_return;
    }
    // 6.9+: the flag is set before queue_work() so that a sender testing it cannot miss a
    // collection that is about to start ("af_unix: Run GC on only one CPU.").
    gc_in_progress = true;
    const bool was_pending = gc_work_pending_;
    if (!was_pending)
        pending_trigger_ = trigger;
    queue_work(Work::unix_gc);
    co_yield Event::gc_queued(KFn::queue_work, was_pending);
}

Proc Kernel::purge_hitlist()
{
    const FreedBy saved = release_cause;
    release_cause = FreedBy::gc;
    while (!hitlist.empty()) {
        SkBuff &skb = hitlist.front();
        hitlist.pop_front();
        co_yield kfree_skb(skb, KFn::skb_queue_purge);
    }
    release_cause = saved;
}

Proc Kernel::gc_run(std::string trigger)
{
    // Past the collections budget the last record is reused: the first ones and the latest
    // are kept for the report and the views, the rest counted (gc_runs_dropped).
    const bool keep = gc_runs.size() < std::max<std::uint64_t>(1, config_.budget[Budget::collections]);
    if (!keep)
        ++gc_runs_dropped;
    GcRun &run = keep ? gc_runs.emplace_back() : (gc_runs.back() = GcRun{});
    run.number = static_cast<std::uint32_t>(std::min<std::uint64_t>(gc_runs_total(), 0xFFFF'FFFFu));
    run.trigger = std::move(trigger);
    run.first_step = step_hint + 1;
    run.start_ns = now();
    run.task = running ? running->id : 0;
    const std::uint64_t steps_at_start = micro_steps_total;
    const bool hung_before = collector_->hung();
    const std::size_t index = gc_runs.size() - 1;
    const bool graph = config_.era == GcEra::graph;
    // 7.1 (gc-in-progress-set, d82ba05263c6): the work item sets gc_in_progress itself. Before
    // it, a run queued again while one ran starts with the flag the first one cleared at its
    // end, and a MSG_PEEK during it does not tell unix_scc_dead() (spec 5.11).
    if (config_.era != GcEra::classic && config_.has(KernelChange::gc_in_progress_set))
        gc_in_progress = true;
    Event begin = Event::gc_begin(config_.era == GcEra::classic ? KFn::unix_gc : KFn::unix_gc_work, run.number);
    begin.algo_line = static_cast<std::uint16_t>(graph ? AlgoLine::graph_begin : AlgoLine::classic_begin);
    co_yield begin;
    co_yield collector_->collect();
    GcRun &done = gc_runs[index];
    // The gc_end event is the run's last step: its number is the next one.
    done.last_step = step_hint + 1;
    // Counted by the kernel, so that a fast-forwarded run (its steps absorbed) counts the same.
    done.micro_steps = micro_steps_total - steps_at_start + 1;
    done.end_ns = now();
    gc_busy_until = std::max(gc_busy_until, done.end_ns);
    freed_in_purge.clear();
    // A run whose task hung (a finding) never gets to its end in the kernel: gc_in_progress
    // stays set. Its last step is the loop that spins, and says so; the model's run ends there.
    const bool hung = collector_->hung() && !hung_before;
    Event end = Event::gc_end(KFn::unix_gc, done.number, done.garbage, done.hitlist, hung);
    end.algo_line = static_cast<std::uint16_t>(hung    ? AlgoLine::classic_oob_loop
                                               : graph ? AlgoLine::graph_end
                                                       : AlgoLine::classic_end);
    co_yield end;
    // Senders sleeping in flush_work() / on unix_gc_wait go again.
    wake(WaitFor::gc, done.end_ns);
}

Proc Kernel::flush_gc_work()
{
    if (!gc_work_pending_)
        co_return;
    workqueue_.erase(std::find(workqueue_.begin(), workqueue_.end(), Work::unix_gc));
    gc_work_pending_ = false;
    Process *saved = current;
    current = nullptr; // the collection runs in a kworker while the caller waits
    co_yield gc_run(pending_trigger_);
    current = saved;
}

Proc Kernel::run_workqueue()
{
    while (!workqueue_.empty()) {
        const Work w = workqueue_.front();
        workqueue_.pop_front();
        Process *saved = current;
        current = nullptr;
        if (w == Work::unix_gc) {
            gc_work_pending_ = false;
            co_yield gc_run(pending_trigger_);
        } else {
            fput_work_pending_ = false;
            co_yield run_delayed_fput();
        }
        current = saved;
    }
}

Proc Kernel::force_gc(std::string trigger)
{
    co_yield unix_gc(trigger);
    if (config_.era != GcEra::classic)
        co_yield wait_gc(KFn::flush_work, 0);
}

Proc Kernel::wait_for_unix_gc(ScmFpList *fpl)
{
    // "No GC running" is judged on the sender's own clock: a run the model finished may still
    // be going on at this time.
    if (config_.has(KernelChange::limit_inflight) && unix_tot_inflight > UNIX_INFLIGHT_TRIGGER_GC &&
        !gc_running_at(now()))
        co_yield unix_gc("sendmsg: unix_tot_inflight > 16000");
    if (config_.era == GcEra::classic) {
        // wait_event(unix_gc_wait, !gc_in_progress): every sender waits while a run goes on
        // (its own synchronous run has ended by now; another task's may not have).
        co_yield wait_gc(KFn::wait_for_unix_gc, static_cast<std::int64_t>(unix_tot_inflight));
        co_return;
    }
    // 6.9+: only a sender of AF_UNIX fds whose user has UNIX_INFLIGHT_SANE_USER in flight waits.
    if (!fpl || !fpl->count_unix || fpl->user->unix_inflight < UNIX_INFLIGHT_SANE_USER)
        co_return;
    co_yield wait_gc(KFn::wait_for_unix_gc, static_cast<std::int64_t>(fpl->user->unix_inflight));
}

Proc Kernel::unix_schedule_gc(const ScmFpList *fpl, std::string trigger)
{
    co_yield Event::gc_schedule(KFn::unix_schedule_gc, graph_maybe_cyclic, graph_cyclic_sccs);
    // UNIX_GRAPH_NOT_CYCLIC: nothing to collect, and no work queued (6.10-6.18 queue a run
    // that skips).
    if (!graph_maybe_cyclic)
        co_return;
    // A sender only when its user has UNIX_INFLIGHT_SANE_USER fds in flight; there is no
    // 16,000 trigger any more.
    if (fpl && fpl->user->unix_inflight < UNIX_INFLIGHT_SANE_USER)
        co_return;
    if (!gc_in_progress)
        co_yield unix_gc(std::move(trigger));
    // flush_work() only while cyclic SCCs exist: a heavy sender no longer waits for a run
    // that has nothing to free.
    if (fpl && graph_cyclic_sccs)
        co_yield wait_gc(KFn::flush_work, static_cast<std::int64_t>(fpl->user->unix_inflight));
}

void Kernel::reach_budget(Budget b, std::string detail)
{
    if (breach)
        return; // the first one reached is the one reported
    breach = BudgetBreach{b, config_.budget[b], std::move(detail)};
}

void Kernel::record_latency(const LatencySample &s)
{
    if (latencies.size() < config_.budget[Budget::latency_samples]) {
        latencies.push_back(s);
        return;
    }
    latency_counts.add(s);
    if (latency_counts.distinct() > config_.budget[Budget::latency_values])
        reach_budget(Budget::latency_values, "timed calls past the latency-samples budget are counted per "
                                             "distinct duration");
}

} // namespace inflight
