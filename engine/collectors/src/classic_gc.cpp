// SPDX-License-Identifier: GPL-3.0-or-later
#include "classic_gc.hpp"

#include "inflight/algorithm_listing.hpp"

#include <utility>

namespace inflight {

namespace {
UnixSock &sock_of(GcLink &l) { return static_cast<UnixSock &>(l); }
} // namespace

Proc ClassicCollector::attach(ScmFpList &fpl)
{
    // unix_attach_fds() walks the list from the last entry to the first.
    for (int i = fpl.count() - 1; i >= 0; --i)
        if (File *f = fpl.fp[static_cast<size_t>(i)])
            co_yield unix_inflight(*fpl.user, *f);
}

Proc ClassicCollector::detach(ScmFpList &fpl)
{
    for (int i = fpl.count() - 1; i >= 0; --i)
        if (File *f = fpl.fp[static_cast<size_t>(i)])
            co_yield unix_notinflight(*fpl.user, *f);
}

Proc ClassicCollector::unix_inflight(User &user, File &f)
{
    co_yield k_.spin_lock(k_.unix_gc_lock, 0);
    SpinGuard unlock{k_, k_.unix_gc_lock};
    if (UnixSock *u = f.sock) {
        const long before = u->inflight++;
        ++k_.gc_inputs_version;
        if (before == 0) {
            if (u->link.is_linked())
                k_.finding("BUG_ON(!list_empty(&u->link)) in unix_inflight()",
                           k_.label_of(*u) + " goes in flight while already on " + std::string(list_name(u->on)));
            k_.gc_list_move(*u, k_.gc_inflight_list, ListId::gc_inflight_list);
        } else if (!u->link.is_linked()) {
            k_.finding("BUG_ON(list_empty(&u->link)) in unix_inflight()",
                       k_.label_of(*u) + " is in flight but on no list");
        }
        ++k_.unix_tot_inflight;
        ++user.unix_inflight;
        Event e = Event::inflight_change(KFn::unix_inflight, u->id, before, u->inflight);
        if (before == 0)
            e.to = ListId::gc_inflight_list;
        co_yield e;
    } else {
        ++user.unix_inflight;
    }
}

Proc ClassicCollector::unix_notinflight(User &user, File &f)
{
    co_yield k_.spin_lock(k_.unix_gc_lock, 0);
    SpinGuard unlock{k_, k_.unix_gc_lock};
    if (UnixSock *u = f.sock) {
        if (u->inflight <= 0)
            k_.finding("BUG_ON(!u->inflight) in unix_notinflight()",
                       k_.label_of(*u) + " leaves flight with inflight " + std::to_string(u->inflight));
        if (!u->link.is_linked())
            k_.finding("BUG_ON(list_empty(&u->link)) in unix_notinflight()",
                       k_.label_of(*u) + " is in flight but on no list");
        const long before = u->inflight--;
        ++k_.gc_inputs_version;
        const ListId from = u->on;
        if (u->inflight == 0)
            k_.gc_list_del(*u);
        --k_.unix_tot_inflight;
        --user.unix_inflight;
        Event e = Event::inflight_change(KFn::unix_notinflight, u->id, before, u->inflight);
        if (u->inflight == 0)
            e.from = from;
        co_yield e;
    } else {
        --user.unix_inflight;
    }
}

Proc ClassicCollector::apply(Func func, UnixSock &child)
{
    const long before = child.inflight;
    KFn fn = KFn::dec_inflight;
    AlgoLine line = AlgoLine::classic_dec_inflight;
    switch (func) {
    case Func::dec_inflight: --child.inflight; break;
    case Func::inc_inflight:
        ++child.inflight;
        fn = KFn::inc_inflight;
        line = AlgoLine::classic_hitlist_inc;
        break;
    case Func::inc_inflight_move_tail:
        ++child.inflight;
        fn = KFn::inc_inflight_move_tail;
        line = AlgoLine::classic_restore_inc;
        break;
    }
    Event e = Event::inflight_change(fn, child.id, before, child.inflight);
    e.algo_line = static_cast<std::uint16_t>(line);
    co_yield e;
    // Still possibly part of a cycle: move it to the tail so the cursor reaches it again.
    if (func == Func::inc_inflight_move_tail && (child.gc_flags & UNIX_GC_MAYBE_CYCLE)) {
        k_.gc_list_move(child, k_.gc_candidates, ListId::gc_candidates);
        Event m = Event::list_move(KFn::inc_inflight_move_tail, child.id, ListId::gc_candidates, ListId::gc_candidates);
        m.algo_line = static_cast<std::uint16_t>(AlgoLine::classic_restore_move_tail);
        co_yield m;
    }
}

Proc ClassicCollector::scan_inflight(UnixSock &x, UnixSock &queue, Func func, bool to_hitlist)
{
    Event s = Event::scan(KFn::scan_inflight, x.id, &queue == &x ? npos : queue.id);
    s.algo_line = static_cast<std::uint16_t>(func == Func::dec_inflight   ? AlgoLine::classic_dec_scan
                                             : func == Func::inc_inflight ? AlgoLine::classic_hitlist_scan
                                                                          : AlgoLine::classic_restore_scan);
    co_yield s;
    for (auto it = queue.receive_queue.begin(); it != queue.receive_queue.end();) {
        SkBuff &skb = *it++;
        k_.charge(Cost::gc_scan_skb);
        if (!skb.fp)
            continue;
        k_.charge(Cost::gc_scan_fd, skb.fp->fp.size());
        bool hit = false;
        for (File *f : skb.fp->fp) {
            UnixSock *child = f ? f->sock : nullptr;
            // Non-candidates are left alone: they may have been queued after the GC started.
            if (child && (child->gc_flags & UNIX_GC_CANDIDATE)) {
                hit = true;
                co_yield apply(func, *child);
            }
        }
        if (hit && to_hitlist) {
            queue.receive_queue.erase(queue.receive_queue.iterator_to(skb));
            skb.queue_owner = nullptr;
            if (skb.fp)
                queue.nr_fds -= static_cast<std::uint32_t>(skb.fp->count());
            k_.hitlist.push_back(skb);
            Event h = Event::skb_hitlist(KFn::scan_inflight, skb.id, queue.id);
            h.algo_line = static_cast<std::uint16_t>(AlgoLine::classic_hitlist_move);
            co_yield h;
        }
    }
}

Proc ClassicCollector::scan_children(UnixSock &x, Func func, bool to_hitlist)
{
    k_.classic_scan_subject = x.id;
    if (x.state != SockState::listening) {
        co_yield scan_inflight(x, x, func, to_hitlist);
        co_return;
    }
    // A listener's in-flight fds sit in its embryos' queues: scan those instead.
    std::vector<UnixSock *> embryos;
    for (SkBuff &skb : x.receive_queue)
        if (skb.sk && skb.sk->state == SockState::embryo) {
            if (skb.sk->link.is_linked())
                k_.finding("BUG_ON(!list_empty(&u->link)) in scan_children()",
                           "embryo " + k_.label_of(*skb.sk) + " is on a GC list");
            embryos.push_back(skb.sk);
        }
    if (func == Func::dec_inflight) {
        embryos_decremented_[x.id] = embryos.size();
    } else if (func == Func::inc_inflight_move_tail) {
        auto seen = embryos_decremented_.find(x.id);
        if (seen != embryos_decremented_.end() && seen->second != embryos.size()) {
            // Not a check the kernel makes: the model sees the two passes disagree, which is
            // CVE-2024-26923. The kernel goes on with counts that no longer match, and so does
            // the run (its invariant checks then report the mismatch as this WARN's effect).
            k_.inflight_corrupted = true;
            k_.warn_finding("CVE-2024-26923: scan_children() saw other embryos in the restore pass",
                            k_.label_of(x) + ": the decrement pass scanned " + std::to_string(seen->second) +
                                " embryos, the restore pass " + std::to_string(embryos.size()) +
                                " (connect() queued one in between, after making it its client's peer): "
                                "what the new embryo's queue carries gains inflight it never lost");
        }
    }
    for (UnixSock *e : embryos)
        co_yield scan_inflight(x, *e, func, to_hitlist);
}

Proc ClassicCollector::restore_not_cycle()
{
    Kernel &k = k_;
    while (!k.not_cycle_list.empty()) {
        UnixSock &u = sock_of(k.not_cycle_list.front());
        const std::uint8_t before = u.gc_flags;
        u.gc_flags &= static_cast<std::uint8_t>(~UNIX_GC_CANDIDATE);
        k.gc_list_move(u, k.gc_inflight_list, ListId::gc_inflight_list);
        Event m = Event::list_move(KFn::restore_not_cycle, u.id, ListId::not_cycle_list, ListId::gc_inflight_list,
                                   before, u.gc_flags);
        m.algo_line = static_cast<std::uint16_t>(AlgoLine::classic_not_cycle_restore);
        co_yield m;
    }
}

void ClassicCollector::hang(const UnixSock &stuck, std::string_view cve, std::string why)
{
    hung_ = true;
    k_.warn_finding(std::string(cve) + ": task hung in __unix_gc()",
                    why + "; " + k_.label_of(stuck) +
                        " never leaves gc_candidates, so the loop never ends. The kernel's task spins there for "
                        "ever with gc_in_progress set: no collection runs again (the model stops the loop and "
                        "goes on)");
}

Proc ClassicCollector::drop_leftover_oob_skbs()
{
    Kernel &k = k_;
    // What these frees release, the collection released.
    const FreedBy saved = k.release_cause;
    k.release_cause = FreedBy::gc;
    struct Restore {
        Kernel &k;
        FreedBy cause;
        ~Restore() { k.release_cause = cause; }
    } restore{k, saved};
    auto drop = [&k](UnixSock &u) -> Proc {
        if (SkBuff *oob = std::exchange(u.oob_skb, nullptr); oob && k.oob_skb_holds_ref())
            co_yield k.kfree_skb(*oob, KFn::unix_gc);
    };
    if (k.config().has(KernelChange::oob_gc_first_socket)) {
        // 25236c91b5ab: always the first leftover, until none is left. Each kfree_skb() must
        // take the first one off the list (its OOB skb carried it); if the first has no oob_skb
        // nothing changes, and the loop takes it again (CVE-2024-26750).
        while (!k.gc_candidates.empty()) {
            UnixSock &u = sock_of(k.gc_candidates.front());
            if (!u.oob_skb) {
                hang(u, "CVE-2024-26750",
                     "the first candidate left after the purge has no oob_skb (the OOB skb that carries it is held "
                     "by another candidate's oob_skb)");
                co_return;
            }
            co_yield drop(u);
        }
        co_return;
    }
    // 1279f9d9dec2 alone: list_for_each_entry_safe(), which reads the next socket before the
    // body. A kfree_skb() that takes the next one off the list too (one OOB skb carrying both)
    // leaves it linked to itself, and the walk goes round it for ever (CVE-2024-26780).
    auto it = k.gc_candidates.begin();
    while (it != k.gc_candidates.end()) {
        UnixSock &u = sock_of(*it);
        auto next = std::next(it);
        UnixSock *after = next == k.gc_candidates.end() ? nullptr : &sock_of(*next);
        co_yield drop(u);
        if (after && after->on != ListId::gc_candidates) {
            hang(*after, "CVE-2024-26780",
                 "freeing the oob_skb of " + k.label_of(u) + " also took " + k.label_of(*after) +
                     ", the socket list_for_each_entry_safe() had read as the next one, off the list");
            co_return;
        }
        it = after ? k.gc_candidates.iterator_to(*after) : k.gc_candidates.end();
    }
}

Proc ClassicCollector::collect()
{
    Kernel &k = k_;
    GcRun &run = k.gc_runs.back();
    run.inflight_sockets = static_cast<std::uint32_t>(k.gc_inflight_list.size());
    // Steps 1 to 5 run under unix_gc_lock: senders attaching or detaching fds spin meanwhile.
    co_yield k.spin_lock(k.unix_gc_lock, 0);

    // 1. Candidates: sockets whose every file reference is an in-flight copy.
    k.gc_phase = GcPhase::select;
    const std::uint64_t version = k.gc_inputs_version;
    const std::size_t findings_before = k.findings.size();
    if (k.fast_forward && memo_valid_ && memo_version_ == version && memo_size_ == k.gc_inflight_list.size()) {
        // Fast-forwarding and no count changed since a selection that found nothing: this one
        // would check the same sockets with the same counts. Its cost and steps are charged
        // without repeating the walk (a memo, not a shortcut of the model: the outcome and
        // the modelled time are the same).
        k.charge(Cost::gc_select, memo_size_);
        k.micro_steps_total += memo_size_;
        k.steps_skipped += memo_size_; // one candidate_check each
    } else
        for (auto it = k.gc_inflight_list.begin(); it != k.gc_inflight_list.end();) {
            UnixSock &u = sock_of(*it++);
            const long total = u.file ? u.file->count : 0;
            const long inflight = u.inflight;
            if (inflight < 1)
                k.finding("BUG_ON(inflight_refs < 1) in unix_gc()",
                          k.label_of(u) + " is on gc_inflight_list with inflight " + std::to_string(inflight));
            if (total < inflight)
                k.finding("BUG_ON(total_refs < inflight_refs) in unix_gc()",
                          k.label_of(u) + ": file_count " + std::to_string(total) + " < inflight " +
                              std::to_string(inflight));
            const bool candidate = total == inflight;
            Event c = Event::candidate_check(KFn::select_candidates, u.id, candidate, total, inflight);
            c.algo_line = static_cast<std::uint16_t>(AlgoLine::classic_select_check);
            co_yield c;
            if (candidate) {
                k.gc_list_move(u, k.gc_candidates, ListId::gc_candidates);
                const std::uint8_t before = u.gc_flags;
                u.gc_flags |= UNIX_GC_CANDIDATE | UNIX_GC_MAYBE_CYCLE;
                Event m = Event::list_move(KFn::select_candidates, u.id, ListId::gc_inflight_list,
                                           ListId::gc_candidates, before, u.gc_flags);
                m.algo_line = static_cast<std::uint16_t>(AlgoLine::classic_select_move);
                co_yield m;
                ++run.candidates;
                // connect-gc-race (47d8ac011fe1, CVE-2024-26923): a listening candidate's state
                // lock is taken and dropped, so a connect() between making its embryo our peer
                // and queueing it finishes first; both scans then see the same embryos.
                if (u.state == SockState::listening && k.config().has(KernelChange::connect_gc_race)) {
                    KLock &l = k.state_lock(u);
                    co_yield k.spin_lock(l, Kernel::kStateLockBase + u.id);
                    k.spin_unlock(l);
                }
            }
        }

    memo_valid_ = run.candidates == 0 && k.findings.size() == findings_before;
    memo_version_ = version;
    memo_size_ = k.gc_inflight_list.size();

    // 2. Remove the references candidates hold on each other.
    k.gc_phase = GcPhase::decrement;
    k.classic_scan_subject = npos;
    embryos_decremented_.clear();
    for (GcLink &l : k.gc_candidates)
        co_yield scan_children(sock_of(l), Func::dec_inflight, false);

    // 3. Whatever still has inflight > 0 is referenced from outside the candidate set: it and
    //    everything it holds are restored, transitively, by the cursor walk.
    k.gc_phase = GcPhase::restore;
    k.classic_scan_subject = npos;
    k.cursor.on = ListId::gc_candidates;
    k.gc_candidates.push_front(k.cursor);
    for (;;) {
        auto after = std::next(k.gc_candidates.iterator_to(k.cursor));
        if (after == k.gc_candidates.end())
            break;
        UnixSock &u = sock_of(*after);
        k.gc_candidates.erase(k.gc_candidates.iterator_to(k.cursor));
        k.gc_candidates.insert(std::next(k.gc_candidates.iterator_to(u)), k.cursor);
        k.classic_scan_subject = u.id;
        Event c = Event::cursor_move(KFn::restore_candidates, u.id, u.inflight);
        c.algo_line = static_cast<std::uint16_t>(AlgoLine::classic_restore_check);
        co_yield c;
        if (u.inflight > 0) {
            k.gc_list_move(u, k.not_cycle_list, ListId::not_cycle_list);
            const std::uint8_t before = u.gc_flags;
            u.gc_flags &= static_cast<std::uint8_t>(~UNIX_GC_MAYBE_CYCLE);
            Event m = Event::list_move(KFn::restore_candidates, u.id, ListId::gc_candidates, ListId::not_cycle_list,
                                       before, u.gc_flags);
            m.algo_line = static_cast<std::uint16_t>(AlgoLine::classic_restore_move);
            co_yield m;
            co_yield scan_children(u, Func::inc_inflight_move_tail, false);
        }
    }
    k.gc_candidates.erase(k.gc_candidates.iterator_to(k.cursor));
    k.cursor.on = ListId::none;

    // Up to 4.4 the reachable candidates go back to gc_inflight_list, their candidate flag
    // cleared, before the hitlist is built (the later order is below, after it).
    const bool hitlist_first = k.config().has(KernelChange::classic_hitlist_first);
    if (!hitlist_first)
        co_yield restore_not_cycle();

    // 4. What is left is garbage: give back the counts and take the skbs that carry it.
    k.gc_phase = GcPhase::hitlist;
    k.classic_scan_subject = npos;
    run.garbage = static_cast<std::uint32_t>(k.gc_candidates.size());
    for (GcLink &l : k.gc_candidates) {
        UnixSock &u = sock_of(l);
        u.judged_garbage = true; // for the views: the purge takes its lists away before its release
        co_yield scan_children(u, Func::inc_inflight, true);
        // The 2024 OOB fixes (oob-gc-kfree): a garbage socket's oob_skb reference is dropped
        // before the purge (an embryo's is not: that is the leak of spec 5.5). Without them the
        // extra reference keeps the OOB skb, and what it carries, alive: the self-reference leak.
        // Before aa82ac51d633 (oob-gc-before-purge) the drop came after the purge instead.
        if (k.config().has(KernelChange::oob_gc_kfree) && k.config().has(KernelChange::oob_gc_before_purge))
            if (SkBuff *oob = std::exchange(u.oob_skb, nullptr); oob && k.oob_skb_holds_ref())
                co_yield k.kfree_skb(*oob, KFn::collect_hitlist);
    }
    run.hitlist = static_cast<std::uint32_t>(k.hitlist.size());
    // Every garbage socket's inflight is whole again: a file count above it is a reference
    // the selection never saw (a MSG_PEEK in the window of CVE-2021-0920).
    for (GcLink &l : k.gc_candidates)
        k.check_purge_live(sock_of(l), sock_of(l).inflight, KFn::unix_gc);

    // 5. Restore the reachable ones to gc_inflight_list: after the hitlist, so that a reachable
    //    candidate queued in a garbage socket still had its candidate flag when the hitlist
    //    pass gave its count back (hitlist-before-restore).
    if (hitlist_first)
        co_yield restore_not_cycle();

    // 6. unix_gc_lock is dropped; purging the hitlist drops the garbage's last references.
    k.spin_unlock(k.unix_gc_lock);
    k.gc_phase = GcPhase::purge;
    co_yield k.purge_hitlist();

    // 6.8-rc, between 1279f9d9dec2 and aa82ac51d633: the oob_skb references of the candidates
    // the purge left are dropped after it, by a loop that can spin for ever.
    if (k.config().has(KernelChange::oob_gc_kfree) && !k.config().has(KernelChange::oob_gc_before_purge)) {
        co_yield drop_leftover_oob_skbs();
        if (hung_) {
            // The kernel's task never gets further: gc_in_progress stays set and the leftovers
            // stay on gc_candidates. The model's run of it ends here.
            k.gc_phase = GcPhase::none;
            co_return;
        }
    }

    // 7. Every garbage socket left gc_candidates when its inflight reached 0.
    if (!k.gc_candidates.empty() && k.config().has(KernelChange::remove_iouring_gc)) {
        // 6.9 (remove-iouring-gc) warns once and leaves them there, flags set: the next
        // collection's candidates are appended after them, so they are scanned again (and the
        // kernel goes on).
        if (!warned_leftovers_)
            k.warn_finding("WARN_ON_ONCE(!list_empty(&gc_candidates)) in __unix_gc()",
                           std::to_string(k.gc_candidates.size()) + " candidates survived the purge");
        warned_leftovers_ = true;
    } else {
        // Up to 6.8 the io_uring loop puts leftovers back on gc_inflight_list, hiding the leak,
        // and leaves their flags as they are: a leftover still marked UNIX_GC_CANDIDATE counts
        // as a candidate's child in the next collection's scans, selected or not.
        while (!k.gc_candidates.empty()) {
            UnixSock &u = sock_of(k.gc_candidates.front());
            k.gc_list_move(u, k.gc_inflight_list, ListId::gc_inflight_list);
            Event m = Event::list_move(KFn::unix_gc, u.id, ListId::gc_candidates, ListId::gc_inflight_list, u.gc_flags,
                                       u.gc_flags);
            co_yield m;
        }
    }
    k.gc_phase = GcPhase::none;
    k.gc_in_progress = false;
}

} // namespace inflight
