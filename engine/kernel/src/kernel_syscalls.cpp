// SPDX-License-Identifier: GPL-3.0-or-later
// The syscalls a scene can make, with the kernel's checks in the kernel's order, so that the
// errno a scene sees is the one a real program would see.
#include "inflight/kernel.hpp"

#include <cstdio>
#include <utility>

namespace inflight {

namespace {
bool connection_oriented(SockType t) { return t != SockType::dgram; }
} // namespace

Proc Kernel::sys_socket(Process &p, SockType type, std::string name, SysResult &r)
{
    UnixSock &u = create_sock(type, p.user->id, name);
    co_yield Event::sock_create(KFn::unix_create1, u.id);
    File &f = create_file(u);
    int fd = -1;
    if ((r.err = install_fd(p, f, name, fd)) != Errno::none) {
        // sock_map_fd() failed: the new socket is released at once.
        f.count = 1;
        co_yield fput(f);
        co_return;
    }
    co_yield Event::fd_install(KFn::fd_install, u.id, p.id, static_cast<std::uint32_t>(fd), 0, 1);
    r.value = fd;
}

Proc Kernel::sys_socketpair(Process &p, SockType type, std::string n0, std::string n1, SysResult &r)
{
    // Both fds are reserved before either socket exists: EMFILE leaves nothing behind.
    std::size_t second = p.lowest_free_fd() + 1;
    while (second < p.fds.size() && p.fds[second])
        ++second;
    if (second >= p.nofile) {
        r.err = Errno::mfile;
        co_return;
    }
    UnixSock &a = create_sock(type, p.user->id, n0);
    co_yield Event::sock_create(KFn::unix_create1, a.id);
    UnixSock &b = create_sock(type, p.user->id, n1);
    co_yield Event::sock_create(KFn::unix_create1, b.id);
    a.peer = &b;
    b.peer = &a;
    a.state = b.state = SockState::connected;
    int fd0 = -1, fd1 = -1;
    install_fd(p, create_file(a), n0, fd0);
    co_yield Event::fd_install(KFn::fd_install, a.id, p.id, static_cast<std::uint32_t>(fd0), 0, 1);
    install_fd(p, create_file(b), n1, fd1);
    co_yield Event::fd_install(KFn::fd_install, b.id, p.id, static_cast<std::uint32_t>(fd1), 0, 1);
    r.value = fd0;
}

UnixSock *Kernel::find_abstract(const std::string &name, SockType type)
{
    const ProbeResult res = abstract_ns.find(name, type);
    charge(Cost::hash_chain_entry, res.compared);
    return res.taken && res.owner < socks.size() ? &socks[res.owner] : nullptr;
}

namespace {
constexpr std::uint16_t line(AlgoLine l) { return static_cast<std::uint16_t>(l); }
} // namespace

Proc Kernel::table_lock(std::uint32_t h1, std::uint32_t h2, std::uint16_t algo_line)
{
    if (config_.global_table_lock) {
        co_yield spin_lock(unix_table_lock, 1, algo_line);
        co_return;
    }
    // unix_table_double_lock(): one lock when both hashes agree, else the lower index first.
    if (h1 > h2)
        std::swap(h1, h2);
    co_yield spin_lock(table_locks[h1], 2 + h1, algo_line);
    if (h1 != h2)
        co_yield spin_lock(table_locks[h2], 2 + h2, algo_line);
}

void Kernel::table_unlock(std::uint32_t h1, std::uint32_t h2)
{
    if (config_.global_table_lock) {
        spin_unlock(unix_table_lock);
        return;
    }
    spin_unlock(table_locks[h1]);
    if (h1 != h2)
        spin_unlock(table_locks[h2]);
}

Proc Kernel::bind_name(UnixSock &u, const std::string &name, Errno &err)
{
    // unix_bind_abstract(): the name's bucket and the socket's unbound bucket, double-locked.
    const std::uint32_t old_bucket = u.id & 255;
    const std::uint32_t bucket = abstract_name_bucket(name, u.type);
    co_yield table_lock(old_bucket, bucket);
    const BindResult res = abstract_ns.bind(name, u.type, u.id);
    charge(Cost::hash_chain_entry, res.lookup.compared);
    err = res.err;
    if (err == Errno::none) {
        u.address = store_address(name);
    }
    table_unlock(old_bucket, bucket);
}

Proc Kernel::unix_autobind(UnixSock &u, Errno &err)
{
    // Three generations (set autobind, spec 6): the pre-2021 shared counter, the 2021 v1 patch's
    // random start that could loop forever, and the merged random start that gives up after
    // 2^20 probes. AutobindIterator holds the arithmetic; here are the locks, the events and
    // the time each probe costs.
    Task *task = running;
    const std::uint64_t t0 = now();
    const std::uint64_t waited0 = task ? task->waited_ns : 0, spun0 = task ? task->spun_ns : 0;
    const std::uint64_t first_step = step_hint + 1;
    charge(Cost::autobind);
    AutobindIterator it = abstract_ns.autobind(u.type, config_.autobind, rng_);
    const std::uint32_t old_bucket = u.id & 255;
    err = Errno::none;
    while (!it.finished()) {
        if (fast_forward && !concurrent) {
            // Nobody watches the probes one by one and nobody else binds meanwhile: runs of
            // taken names are walked in bulk, each probe and chain entry still charged.
            const std::uint64_t compared0 = it.compared();
            const std::uint32_t n = it.skip_taken(kAutobindSpace, true);
            if (n) {
                charge(Cost::autobind_probe, n);
                charge(Cost::hash_chain_entry, it.compared() - compared0);
                micro_steps_total += n;
                steps_skipped += n; // one autobind_probe each
            }
            if (it.finished())
                break;
        }
        const std::uint32_t value = it.format();
        const std::uint32_t bucket = autobind_bucket(value, u.type);
        const std::uint64_t spun_before = task ? task->spun_ns : 0;
        co_yield table_lock(old_bucket, bucket, line(AlgoLine::autobind_lock));
        if (task && task->spun_ns > spun_before)
            abstract_ns.note_lock_wait(task->spun_ns - spun_before);
        it.locked_advance();
        const ProbeResult res = it.lookup();
        // The chain walk happens under the bucket lock, so its cost is charged before unlocking.
        Event probe = Event::autobind_probe(KFn::unix_autobind, u.id, value, bucket,
                                            static_cast<std::int64_t>(res.compared), res.taken);
        probe.algo_line = line(res.taken ? AlgoLine::autobind_taken : AlgoLine::autobind_lookup);
        co_yield probe;
        if (!res.taken) {
            it.commit(u.id);
            u.address = kAutobindAddress | value;
            table_unlock(old_bucket, bucket);
            break;
        }
        table_unlock(old_bucket, bucket);
        if (it.after_taken() != AutobindStop::running)
            break;
        co_yield sched_point(); // cond_resched() before the next try
    }
    if (it.stop() == AutobindStop::enospc) {
        err = Errno::nospc;
        Event fail = Event::autobind_fail(KFn::unix_autobind, u.id, it.start(), static_cast<std::int64_t>(Errno::nospc),
                                          it.probes());
        fail.algo_line = line(AlgoLine::autobind_give_up);
        co_yield fail;
    } else if (it.stop() == AutobindStop::endless) {
        // The kernel would spin here forever (Eric Dumazet's review of the v1 patch): the run
        // stops with the diagnosis instead of hanging.
        err = Errno::nospc;
        const EndlessLoop &loop = *it.endless();
        char start[16];
        std::snprintf(start, sizeof start, "0x%08x", loop.initnum);
        finding("autobind would loop forever", "unix_autobind() of " + label_of(u) + ": start " + start + ", " +
                                                   std::to_string(loop.probes) + " probes made, every name taken; " +
                                                   loop.reason);
        Event fail = Event::autobind_fail(KFn::unix_autobind, u.id, loop.initnum, -1, loop.probes);
        fail.algo_line = line(AlgoLine::autobind_give_up);
        co_yield fail;
    }
    LatencySample smp;
    smp.fn = KFn::unix_autobind;
    smp.kind = CallKind::autobind;
    smp.task = task ? task->id : 0;
    smp.user = task && task->process && task->process->user ? task->process->user->id : 0;
    smp.start_ns = t0;
    smp.duration_ns = now() - t0;
    smp.waited_ns = task ? task->waited_ns - waited0 : 0;
    smp.spun_ns = task ? task->spun_ns - spun0 : 0;
    smp.probes = it.probes();
    smp.first_step = first_step;
    smp.last_step = std::max(first_step, step_hint + 1);
    smp.failed = err != Errno::none;
    record_latency(smp);
}

Proc Kernel::sys_bind(Process &p, std::string name, std::optional<std::string> address, SysResult &r)
{
    UnixSock *u = nullptr;
    if ((r.err = resolve(p, name, u)) != Errno::none)
        co_return;
    if (u->address != npos) {
        // An autobind request on a bound socket succeeds and changes nothing; a named bind fails.
        if (address)
            r.err = Errno::inval;
        co_return;
    }
    if (address)
        co_yield bind_name(*u, *address, r.err);
    else
        co_yield unix_autobind(*u, r.err);
    if (r.err == Errno::none) {
        Event bound = Event::sock_note(address ? KFn::sys_bind : KFn::unix_autobind, u->id, npos, u->address);
        if (!address)
            bound.algo_line = line(AlgoLine::autobind_bound);
        co_yield bound;
    }
}

Proc Kernel::sys_listen(Process &p, std::string name, SysResult &r)
{
    UnixSock *u = nullptr;
    if ((r.err = resolve(p, name, u)) != Errno::none)
        co_return;
    if (!connection_oriented(u->type)) {
        r.err = Errno::opnotsupp;
        co_return;
    }
    if (u->address == npos || (u->state != SockState::unconnected && u->state != SockState::listening)) {
        r.err = Errno::inval; // no listen() on an unbound or connected socket
        co_return;
    }
    u->state = SockState::listening;
    co_yield Event::sock_note(KFn::sys_listen, u->id);
}

Proc Kernel::dgram_disconnected(UnixSock &u)
{
    // unix_dgram_disconnected(): leaving a peer drops what is queued on our side.
    const FreedBy saved = release_cause;
    release_cause = FreedBy::cascade;
    while (!u.receive_queue.empty()) {
        SkBuff &skb = u.receive_queue.front();
        u.receive_queue.pop_front();
        skb.queue_owner = nullptr;
        // (The kernel's purge here leaves scm_stat.nr_fds stale; the model keeps it exact so
        // the invariant can hold for live sockets. Only fdinfo shows that counter.)
        if (skb.fp)
            u.nr_fds -= static_cast<std::uint32_t>(skb.fp->count());
        co_yield kfree_skb(skb, KFn::unix_dgram_disconnected);
    }
    release_cause = saved;
}

Proc Kernel::sys_connect(Process &p, std::string name, std::optional<std::string> address, std::string target_fd,
                         SysResult &r)
{
    UnixSock *u = nullptr;
    if ((r.err = resolve(p, name, u)) != Errno::none)
        co_return;
    std::string addr;
    if (address) {
        addr = *address;
    } else {
        UnixSock *t = nullptr;
        if ((r.err = resolve(p, target_fd, t)) != Errno::none)
            co_return;
        if (t->address == npos) {
            r.err = Errno::inval; // nothing to connect to: the target has no address
            co_return;
        }
        addr = address_of(*t);
    }
    if (u->passcred && u->address == npos) {
        Errno ignored = Errno::none; // unix_may_passcred(): connect() autobinds first
        co_yield unix_autobind(*u, ignored);
    }
    UnixSock *other = find_abstract(addr, u->type);

    if (u->type == SockType::dgram) {
        if (!other) {
            r.err = Errno::connrefused;
            co_return;
        }
        if (u->peer && u->peer != other)
            co_yield dgram_disconnected(*u);
        u->peer = other;
        u->state = SockState::connected;
        co_yield Event::sock_note(KFn::sys_connect, u->id, other->id);
        co_return;
    }

    if (u->state == SockState::connected) {
        r.err = Errno::isconn;
        co_return;
    }
    if (u->state == SockState::listening) {
        r.err = Errno::inval;
        co_return;
    }
    if (!other || other->state != SockState::listening) {
        r.err = Errno::connrefused;
        co_return;
    }
    if (other->receive_queue.size() > SOMAXCONN) {
        r.err = Errno::again; // backlog full; a blocking connect() would wait here
        co_return;
    }
    // unix_stream_connect(): under the listener's state lock, the embryo is created and
    // becomes our peer before its skb is queued on the listener (the window of CVE-2024-26923:
    // a race can break in right after the embryo's creation, `when connect SOCK`).
    KLock &listener_lock = state_lock(*other);
    co_yield spin_lock(listener_lock, kStateLockBase + other->id);
    SpinGuard unlock_listener(*this, listener_lock);
    UnixSock &embryo = create_sock(u->type, other->owner, "embryo(" + label_of(*u) + ")");
    embryo.state = SockState::embryo;
    embryo.peer = u;
    embryo.address = other->address;
    if (config_.era == GcEra::graph) {
        embryo.listener = other;
        embryo.passrights = other->passrights; // connect() copies the listener's flags (6.16)
    }
    embryo.passcred = other->passcred;
    u->peer = &embryo;
    u->state = SockState::connected;
    co_yield Event::sock_create(KFn::unix_create1, embryo.id, u->id);
    SkBuff &skb = alloc_skb(1);
    skb.sk = &embryo;
    skb.sender = u;
    skb.queue_owner = other;
    skb.receiver = other;
    other->receive_queue.push_back(skb);
    co_yield Event::skb_queue(KFn::sys_connect, skb.id, other->id, u->id, 0);
}

Proc Kernel::sys_accept(Process &p, std::string listener, std::string new_name, SysResult &r)
{
    UnixSock *l = nullptr;
    if ((r.err = resolve(p, listener, l)) != Errno::none)
        co_return;
    if (l->state != SockState::listening) {
        r.err = Errno::inval;
        co_return;
    }
    if (l->receive_queue.empty()) {
        r.err = Errno::again; // nothing to accept; a blocking accept() would wait here
        co_return;
    }
    if (p.lowest_free_fd() >= p.nofile) {
        r.err = Errno::mfile;
        co_return;
    }
    SkBuff &skb = l->receive_queue.front();
    l->receive_queue.pop_front();
    skb.queue_owner = nullptr;
    UnixSock &embryo = *skb.sk;
    co_yield Event::skb_dequeue(KFn::sys_accept, skb.id, l->id);
    co_yield kfree_skb(skb, KFn::sys_accept);
    embryo.state = SockState::connected;
    add_label(new_name, embryo.id);
    int fd = -1;
    install_fd(p, create_file(embryo), new_name, fd);
    co_yield Event::fd_install(KFn::fd_install, embryo.id, p.id, static_cast<std::uint32_t>(fd), 0, 1);
    co_yield collector_->accepted(embryo);
    r.value = fd;
}

Proc Kernel::send_skb(UnixSock &receiver, SkBuff &skb)
{
    // scm_stat_add() -> unix_add_edges() runs before skb_queue_tail(), under the receiver's
    // state lock: a reader on another CPU must never dequeue (and free) an fpl whose edges are
    // still being added while this task spins on unix_gc_lock (found by tests/fuzz/).
    if (skb.fp)
        co_yield collector_->enqueued(skb, receiver);
    skb.queue_owner = &receiver;
    skb.receiver = &receiver;
    receiver.receive_queue.push_back(skb);
    if (skb.fp)
        receiver.nr_fds += static_cast<std::uint32_t>(skb.fp->count());
    if (skb.oob) {
        // queue_oob(): the newest OOB byte replaces the previous one; up to 6.11 the pointer
        // holds a reference of its own.
        if (oob_skb_holds_ref()) {
            if (SkBuff *old = std::exchange(receiver.oob_skb, nullptr))
                co_yield kfree_skb(*old, KFn::skb_queue_tail);
            ++skb.users;
        }
        receiver.oob_skb = &skb;
    }
    co_yield Event::skb_queue(KFn::skb_queue_tail, skb.id, receiver.id, skb.sender ? skb.sender->id : npos,
                              skb.fp ? skb.fp->count() : 0);
    // sk_data_ready(): a reader sleeping on this queue goes again.
    wake(WaitFor::data, now(), &receiver);
}

Proc Kernel::sys_sendmsg(Process &p, std::string name, std::vector<std::string> fds, std::uint64_t bytes, bool oob,
                         std::optional<std::string> to, SysResult &r)
{
    UnixSock *u = nullptr;
    if (running)
        running->call_kind = fds.empty() ? CallKind::no_fd : CallKind::with_fds;
    if ((r.err = resolve(p, name, u)) != Errno::none)
        co_return;
    // unix_seqpacket_sendmsg(): a pending error (sock_error() reads and clears it), then the
    // connection, before anything of unix_dgram_sendmsg() runs.
    if (u->type == SockType::seqpacket && u->take_conn_reset()) {
        r.err = Errno::connreset;
        co_return;
    }
    if (config_.era == GcEra::classic)
        co_yield wait_for_unix_gc(nullptr); // up to 6.8: first thing in sendmsg

    // scm_send() -> scm_fp_copy(): one reference per listed fd, held by the cookie.
    std::unique_ptr<ScmFpList> cookie;
    auto drop_cookie = [this](std::unique_ptr<ScmFpList> &c) -> Proc {
        if (!c)
            co_return;
        co_yield scm_destroy(*c);
        c.reset();
    };
    if (!fds.empty()) {
        if (fds.size() > static_cast<std::size_t>(SCM_MAX_FD)) {
            r.err = Errno::inval;
            co_return;
        }
        cookie = std::make_unique<ScmFpList>();
        cookie->user = p.user;
        live_fp_lists.push_back(*cookie);
        for (const auto &n : fds) {
            File *f = p.lookup(n);
            if (!f) {
                r.err = Errno::badf;
                co_yield drop_cookie(cookie);
                co_return;
            }
            cookie->fp.push_back(f);
            if (f->sock) {
                ++cookie->count_unix;
                if (running)
                    running->call_kind = CallKind::with_unix_fds;
            }
            const long before = f->count++;
            ++gc_inputs_version;
            co_yield Event::file_get(KFn::scm_fp_copy, f->id, before, f->count);
        }
    }
    if (config_.has(KernelChange::schedule_gc)) {
        if (cookie && cookie->count_unix) // 6.19+: unix_prepare_fpl(), for AF_UNIX fds only
            co_yield unix_schedule_gc(cookie.get(), "sendmsg: unix_schedule_gc()");
    } else if (config_.era != GcEra::classic) {
        co_yield wait_for_unix_gc(cookie.get()); // 6.9+: after scm_send(), to see fpl->count_unix
    }

    // Find the receiver, with the checks of unix_{dgram,stream,seqpacket}_sendmsg().
    UnixSock *other = nullptr;
    Errno err = Errno::none;
    if (oob && (u->type != SockType::stream || !config_.has(KernelChange::msg_oob)))
        err = Errno::opnotsupp; // no MSG_OOB before 5.15 (msg-oob), and only on stream sockets
    else if (oob && bytes == 0)
        err = Errno::opnotsupp;
    else if (u->type == SockType::stream) {
        if (to)
            err = u->state == SockState::connected ? Errno::isconn : Errno::opnotsupp;
        else if (!u->peer)
            err = Errno::notconn;
        else
            other = u->peer;
    } else if (u->type == SockType::seqpacket) {
        if (u->state != SockState::connected || !u->peer)
            err = Errno::notconn;
        else
            other = u->peer; // to= is ignored on a connected seqpacket socket
    } else {
        if (u->passcred && u->address == npos) {
            Errno ignored = Errno::none; // an unbound sender with SO_PASSCRED autobinds first
            co_yield unix_autobind(*u, ignored);
        }
        if (to) {
            other = find_abstract(*to, SockType::dgram);
            if (!other)
                err = Errno::connrefused;
        } else if (!u->peer) {
            err = Errno::notconn;
        } else {
            other = u->peer;
        }
        if (other && other->released) {
            // Our connected peer is dead: disconnect, dropping what was queued to us.
            err = Errno::connrefused;
            if (u->peer == other) {
                u->peer = nullptr;
                co_yield dgram_disconnected(*u);
            }
            other = nullptr;
        } else if (other && other->peer && other->peer != u) {
            err = Errno::perm; // unix_may_send(): the receiver is connected to someone else
        }
    }
    if (err == Errno::none && u->type != SockType::dgram && (other->released || other->shutdown))
        err = Errno::pipe;
    if (err == Errno::none && cookie && config_.has(KernelChange::so_passrights) && !other->passrights)
        err = Errno::perm; // SO_PASSRIGHTS off on the receiver (6.16+)
    if (err != Errno::none) {
        r.err = err;
        co_yield drop_cookie(cookie);
        co_return;
    }
    if (u->type == SockType::stream && bytes == 0) {
        co_yield drop_cookie(cookie); // nothing to send: no skb, so the fds go nowhere
        co_return;
    }

    // Build the skbs: with MSG_OOB the last byte travels alone; the fds ride the first skb.
    const std::uint64_t normal = oob ? bytes - 1 : bytes;
    bool fds_sent = false;
    for (int part = 0; part < 2; ++part) {
        const bool is_oob = part == 1;
        if (is_oob ? !oob : (normal == 0 && oob))
            continue;
        SkBuff &skb = alloc_skb(is_oob ? 1 : normal);
        skb.sender = u;
        skb.oob = is_oob;
        charge(Cost::copy_kib, skb.len / 1024);
        // unix_scm_to_skb(): from 2.6.39 to 3.1 every skb carried the writer's pid and cred
        // references, whether anyone asked for credentials or not.
        if (config_.creds_by_default || u->passcred || other->passcred) {
            skb.creds_owner = p.id;
            co_yield creds_ref(p, true);
        }
        if (cookie && !fds_sent) {
            // unix_attach_fds()
            if (p.user->unix_inflight > p.nofile && !p.user->privileged()) {
                r.err = Errno::toomanyrefs;
                free_skb_storage(skb);
                co_yield drop_cookie(cookie);
                co_return;
            }
            if (config_.era == GcEra::graph) {
                // 6.10+: the skb takes over the cookie's list and its references.
                skb.fp = std::move(cookie);
                co_yield Event::fds_attach(KFn::unix_attach_fds, skb.id, skb.fp->count(), false);
            } else {
                // Up to 6.9: scm_fp_dup() gives the skb its own list and references; the
                // socket counts as in flight before it is queued, and the cookie's references
                // keep file_count above inflight meanwhile.
                skb.fp = std::make_unique<ScmFpList>();
                skb.fp->user = cookie->user;
                skb.fp->count_unix = cookie->count_unix;
                live_fp_lists.push_back(*skb.fp);
                co_yield Event::fds_attach(KFn::scm_fp_dup, skb.id, cookie->count(), true);
                for (File *f : cookie->fp) {
                    skb.fp->fp.push_back(f);
                    const long before = f->count++;
                    ++gc_inputs_version;
                    co_yield Event::file_get(KFn::scm_fp_dup, f->id, before, f->count);
                }
                co_yield collector_->attach(*skb.fp);
            }
            fds_sent = true;
        }
        co_yield send_skb(*other, skb);
    }
    co_yield drop_cookie(cookie); // scm_destroy(): up to 6.9 the cookie's own references go
    r.value = static_cast<long>(bytes);
}

Proc Kernel::sys_recvmsg(Process &p, std::string name, std::vector<std::string> fd_names, bool peek, bool oob,
                         SysResult &r)
{
    UnixSock *u = nullptr;
    if ((r.err = resolve(p, name, u)) != Errno::none)
        co_return;
    if (oob) {
        if (u->type != SockType::stream || !config_.has(KernelChange::msg_oob)) {
            r.err = Errno::opnotsupp;
            co_return;
        }
        if (!u->oob_skb) {
            r.err = Errno::inval;
            co_return;
        }
        // unix_stream_recv_urg(): the byte is read, its fds are never delivered; the skb stays
        // queued, consumed, until a normal read or a purge frees it (and the fds with it).
        if (!peek) {
            SkBuff *o = std::exchange(u->oob_skb, nullptr);
            o->consumed = true;
            if (oob_skb_holds_ref())
                co_yield kfree_skb(*o, KFn::sys_recvmsg); // the pointer's reference
        }
        r.value = 1;
        co_yield Event::sock_note(KFn::sys_recvmsg, u->id);
        co_return;
    }
    if (u->type != SockType::dgram && u->state != SockState::connected && u->state != SockState::embryo) {
        r.err = Errno::inval;
        co_return;
    }
    // A seqpacket read goes through __skb_try_recv_datagram(), which reports a pending error
    // before it looks at the queue; a stream read only once the queue is empty (below).
    if (u->type == SockType::seqpacket && u->take_conn_reset()) {
        r.err = Errno::connreset;
        co_return;
    }
    SkBuff *skb = nullptr;
    for (;;) {
        for (auto it = u->receive_queue.begin(); it != u->receive_queue.end();) {
            SkBuff &s = *it++;
            const bool dead_oob = s.consumed || (u->oob_skb == &s && u->type == SockType::stream);
            if (!dead_oob) {
                skb = &s;
                break;
            }
            if (peek)
                continue;
            // A consumed OOB skb is freed when the reader passes it; an unread OOB byte at the
            // head is dropped (not SO_OOBINLINE).
            u->receive_queue.erase(u->receive_queue.iterator_to(s));
            s.queue_owner = nullptr;
            // Before b46f4eaa4f0e (oob-stale-clear) manage_oob() dropped only the queue's
            // reference: u->oob_skb kept the skb, off every queue, with the fds it carries
            // still in flight where no collector scan looks (spec 5.4).
            bool stale = false;
            if (u->oob_skb == &s) {
                stale = oob_skb_holds_ref() && !config_.has(KernelChange::oob_stale_clear);
                if (!stale) {
                    u->oob_skb = nullptr;
                    if (oob_skb_holds_ref())
                        --s.users; // the pointer's reference goes with it (consume_skb)
                }
            }
            if (s.fp)
                u->nr_fds -= static_cast<std::uint32_t>(s.fp->count());
            co_yield Event::skb_dequeue(KFn::sys_recvmsg, s.id, u->id);
            if (s.fp && !stale)
                co_yield collector_->dequeued(s);
            co_yield kfree_skb(s, KFn::sys_recvmsg);
        }
        // An empty queue: with other tasks running, a blocking recvmsg() sleeps until a writer
        // queues something (or nothing ever can: then EAGAIN, reported). A lone script gets EAGAIN.
        const bool writer_may_come = concurrent && !u->shutdown && !peek;
        if (skb || !writer_may_come)
            break;
        co_yield sleep(WaitFor::data, u);
        if (running->wake_failed)
            break;
    }
    if (!skb) {
        // unix_stream_read_generic() on an empty queue: the pending error, then end of file
        // once the peer is gone (RCV_SHUTDOWN: 0 bytes), else EAGAIN; a seqpacket socket reads
        // end of file too, a datagram one never does.
        if (u->type == SockType::stream && u->take_conn_reset())
            r.err = Errno::connreset;
        else if (u->type != SockType::dgram && u->shutdown)
            r.value = 0;
        else
            r.err = Errno::again; // a blocking recvmsg() would wait here
        co_return;
    }
    r.value = static_cast<long>(skb->len);
    charge(Cost::copy_kib, skb->len / 1024);

    auto install = [&](File &f, std::size_t index, KFn fn) -> Proc {
        std::string n = index < fd_names.size() ? fd_names[index] : std::string();
        const std::size_t free_fd = p.lowest_free_fd();
        if (free_fd >= p.nofile)
            co_return; // MSG_CTRUNC: the fd does not fit and is not installed
        if (n.empty())
            n = "fd" + std::to_string(free_fd);
        const long before = f.count;
        int fd = -1;
        install_fd(p, f, n, fd);
        co_yield Event::fd_install(fn, f.id, p.id, static_cast<std::uint32_t>(fd), before, f.count);
    };

    if (peek) {
        if (skb->fp)
            co_yield unix_peek_fds(p, *u, *skb, fd_names);
        co_return;
    }

    u->receive_queue.erase(u->receive_queue.iterator_to(*skb));
    skb->queue_owner = nullptr;
    co_yield Event::skb_dequeue(KFn::skb_dequeue, skb->id, u->id);
    if (skb->creds_owner != npos && skb->creds_owner < processes.size())
        co_yield creds_ref(processes[skb->creds_owner], false); // put_pid()/put_cred() by the reader
    if (skb->fp) {
        u->nr_fds -= static_cast<std::uint32_t>(skb->fp->count());
        co_yield collector_->dequeued(*skb);
        // unix_detach_fds(): the list moves to the scm cookie...
        std::unique_ptr<ScmFpList> scm = std::move(skb->fp);
        co_yield Event::fds_detach(KFn::unix_detach_fds, skb->id, scm->count());
        co_yield collector_->detach(*scm);
        // ...scm_detach_fds() installs what fits...
        for (std::size_t i = 0; i < scm->fp.size(); ++i)
            if (File *f = scm->fp[i])
                co_yield install(*f, i, KFn::scm_detach_fds);
        // ...and scm_destroy() drops the list's own references.
        co_yield scm_destroy(*scm);
    }
    co_yield kfree_skb(*skb, KFn::sys_recvmsg);
}

Proc Kernel::unix_peek_fds(Process &p, UnixSock &u, SkBuff &skb, const std::vector<std::string> &fd_names)
{
    // scm_fp_dup(): the cookie gets its own reference on every file at once. Nothing leaves
    // flight and the collector is not told: the root of CVE-2021-0920 and CVE-2026-23394.
    auto cookie = std::make_unique<ScmFpList>();
    cookie->user = skb.fp->user;
    cookie->count_unix = skb.fp->count_unix;
    live_fp_lists.push_back(*cookie);
    for (File *f : skb.fp->fp)
        if (f) {
            cookie->fp.push_back(f);
            ++f->count;
            f->peeked_step = step_hint + 1;
            f->peeked_process = p.id;
        }
    ++gc_inputs_version;
    // 7.0 (peek-seqcount): unix_peek_fpl() bumps unix_peek_seq when AF_UNIX fds are peeked
    // while a collection runs, so unix_scc_dead() can give up the SCC it is judging.
    bool bumped = false;
    if (config_.era == GcEra::graph && config_.has(KernelChange::peek_seqcount) && cookie->count_unix > 0 &&
        gc_in_progress) {
        ++unix_peek_seq;
        bumped = true;
    }
    co_yield Event::fds_peek(KFn::scm_fp_dup, skb.id, u.id, cookie->count(), bumped);
    // 5.14 to 6.9 (peek-gc-lock, cbcf01128d0a): take and drop unix_gc_lock, so that the peek
    // lies wholly before or after a running collection. 6.10 removed this lock dance
    // (118f457da9ed): the graph collector needed another answer (peek-seqcount).
    if (config_.era != GcEra::graph && config_.has(KernelChange::peek_gc_lock)) {
        co_yield spin_lock(unix_gc_lock, 0);
        spin_unlock(unix_gc_lock);
    }
    // scm_detach_fds(): each fd that fits is installed with a reference of its own...
    for (std::size_t i = 0; i < cookie->fp.size(); ++i) {
        File &f = *cookie->fp[i];
        std::string n = i < fd_names.size() ? fd_names[i] : std::string();
        const std::size_t free_fd = p.lowest_free_fd();
        if (free_fd >= p.nofile)
            break; // MSG_CTRUNC: the rest do not fit
        if (n.empty())
            n = "fd" + std::to_string(free_fd);
        const long before = f.count;
        int fd = -1;
        install_fd(p, f, n, fd);
        co_yield Event::fd_install(KFn::unix_peek_fds, f.id, p.id, static_cast<std::uint32_t>(fd), before, f.count);
    }
    // ...and scm_destroy() drops the cookie's.
    co_yield scm_destroy(*cookie);
}

Proc Kernel::sys_dup(Process &p, std::string old_name, std::string new_name, SysResult &r)
{
    File *f = p.lookup(old_name);
    if (!f) {
        r.err = Errno::badf;
        co_return;
    }
    const long before = f->count;
    int fd = -1;
    if ((r.err = install_fd(p, *f, new_name, fd)) != Errno::none)
        co_return;
    co_yield Event::fd_install(KFn::sys_dup, f->id, p.id, static_cast<std::uint32_t>(fd), before, f->count);
    r.value = fd;
}

Proc Kernel::sys_close(Process &p, std::string name, SysResult &r)
{
    const int fd = p.fd_of(name);
    File *f = p.lookup(name);
    if (!f) {
        r.err = Errno::badf;
        co_return;
    }
    p.release_fd(static_cast<std::size_t>(fd));
    p.names.erase(*name_pool.find(name));
    --p.open_count;
    const FreedBy saved = release_cause;
    release_cause = FreedBy::close;
    co_yield fput(*f, p.id, static_cast<std::uint32_t>(fd));
    release_cause = saved;
}

Proc Kernel::sys_setsockopt(Process &p, std::string name, SockOpt opt, bool value, SysResult &r)
{
    UnixSock *u = nullptr;
    if ((r.err = resolve(p, name, u)) != Errno::none)
        co_return;
    if (opt == SockOpt::passrights) {
        if (!config_.has(KernelChange::so_passrights)) {
            r.err = Errno::noprotoopt; // SO_PASSRIGHTS exists from 6.16 on (so-passrights)
            co_return;
        }
        u->passrights = value;
    } else {
        u->passcred = value;
    }
    co_yield Event::sock_note(KFn::sys_setsockopt, u->id, npos, npos, value);
}

Proc Kernel::sys_splice(Process &p, std::string name, std::uint64_t bytes, SysResult &r)
{
    // sendfile() from a file into a stream socket: splice_to_socket() hands the pages to
    // unix_stream_sendmsg() with MSG_SPLICE_PAGES, one pipe's worth (16 pages) per skb; the
    // pages are referenced, not copied. Since 2e910b95329c skb_splice_from_iter() also
    // checksummed every page of a CHECKSUM_NONE skb; 6bd8614fc2d0 marks AF_UNIX skbs
    // CHECKSUM_UNNECESSARY so it does not.
    UnixSock *u = nullptr;
    if ((r.err = resolve(p, name, u)) != Errno::none)
        co_return;
    if (u->type != SockType::stream) {
        r.err = Errno::inval;
        co_return;
    }
    if (!u->peer || u->state != SockState::connected) {
        r.err = Errno::notconn;
        co_return;
    }
    constexpr std::uint64_t kChunk = 16 * 4096;
    std::uint64_t left = bytes;
    while (left > 0 && !breach) { // a budget reached (queued skbs or bytes) ends the run here
        UnixSock *other = u->peer;
        if (!other || other->released || other->shutdown) {
            r.err = Errno::pipe;
            break;
        }
        const std::uint64_t n = std::min(left, kChunk);
        SkBuff &skb = alloc_skb(n);
        skb.sender = u;
        charge(Cost::splice_kib, n / 1024);
        const bool csum = !config_.has(KernelChange::splice_no_checksum);
        if (csum)
            charge(Cost::csum_kib, n / 1024);
        co_yield Event::splice_chunk(KFn::skb_splice_from_iter, u->id, other->id, static_cast<std::int64_t>(n), csum);
        co_yield send_skb(*other, skb);
        left -= n;
        co_yield sched_point(); // a reader on another CPU may take what is queued
    }
    r.value = static_cast<long>(bytes - left);
}

} // namespace inflight
