// SPDX-License-Identifier: GPL-3.0-or-later
// Events' typed constructors and accessors: every constructor's arguments come back out of the
// accessors named like its parameters, and land in the slots EventKind documents (the JSON
// export and the app still read the slots directly). Each argument gets a value of its own, so
// an accessor that read the wrong slot would fail.
#include "inflight/event.hpp"

#include <QTest>

#include <set>

using namespace inflight;

namespace {

// Slots as EventKind's comments give them.
void checkSlots(const Event &e, std::uint32_t a, std::uint32_t b, std::uint32_t c, std::int64_t before,
                std::int64_t after)
{
    QCOMPARE(e.a, a);
    QCOMPARE(e.b, b);
    QCOMPARE(e.c, c);
    QCOMPARE(e.before, before);
    QCOMPARE(e.after, after);
}

} // namespace

class TestEvent : public QObject {
    Q_OBJECT

    std::set<EventKind> seen_;
    Event seen(Event e)
    {
        seen_.insert(e.kind);
        return e;
    }

private slots:
    void sizeUnchanged()
    {
        // A run's index holds millions: the typed interface adds functions, not bytes.
        QCOMPARE(sizeof(Event), std::size_t{64});
    }

    void sceneSteps()
    {
        const Event b = seen(Event::stmt_begin(7, 11, 12));
        QCOMPARE(b.kind, EventKind::stmt_begin);
        QCOMPARE(b.fn, KFn::scene);
        QCOMPARE(b.statement(), 7u);
        QCOMPARE(b.first_name(), 11u);
        QCOMPARE(b.second_name(), 12u);
        QCOMPARE(Event::stmt_begin(3).first_name(), npos);

        const Event e = seen(Event::stmt_end(7, 11, 12, 24, -5));
        QCOMPARE(e.kind, EventKind::stmt_end);
        QCOMPARE(e.statement(), 7u);
        QCOMPARE(e.first_name(), 11u);
        QCOMPARE(e.second_name(), 12u);
        QCOMPARE(e.error(), 24);
        QCOMPARE(e.return_value(), -5);
        checkSlots(e, 7, 11, 12, 24, -5);

        const Event n = seen(Event::scene_note());
        QCOMPARE(n.kind, EventKind::note);
        QCOMPARE(n.fn, KFn::scene);

        const Event bound = seen(Event::sock_note(KFn::sys_bind, 3, npos, 9));
        QCOMPARE(bound.kind, EventKind::note);
        QCOMPARE(bound.fn, KFn::sys_bind);
        QCOMPARE(bound.sock(), 3u);
        QCOMPARE(bound.address(), 9u);
        QCOMPARE(bound.peer(), npos);
        const Event connected = Event::sock_note(KFn::sys_connect, 3, 4);
        QCOMPARE(connected.peer(), 4u);
        QVERIFY(Event::sock_note(KFn::sys_setsockopt, 3, npos, npos, true).option_on());
        QVERIFY(!Event::sock_note(KFn::sys_setsockopt, 3, npos, npos, false).option_on());

        QVERIFY(seen(Event::expect_result(true)).held());
        QVERIFY(!Event::expect_result(false).held());
        QCOMPARE(seen(Event::warning(13)).error(), 13);
        QCOMPARE(seen(Event::finding(2)).finding_index(), 2u);
    }

    void socketsAndFiles()
    {
        const Event c = seen(Event::sock_create(KFn::unix_create1, 5, 6));
        QCOMPARE(c.kind, EventKind::sock_create);
        QCOMPARE(c.fn, KFn::unix_create1);
        QCOMPARE(c.sock(), 5u);
        QCOMPARE(c.connecting(), 6u);
        QCOMPARE(Event::sock_create(KFn::unix_create1, 5).connecting(), npos);

        const Event i = seen(Event::fd_install(KFn::sys_dup, 5, 1, 4, 2, 3));
        QCOMPARE(i.kind, EventKind::fd_install);
        QCOMPARE(i.fn, KFn::sys_dup);
        QCOMPARE(i.sock(), 5u);
        QCOMPARE(i.process(), 1u);
        QCOMPARE(i.fd(), 4u);
        QCOMPARE(i.file_count().before, 2);
        QCOMPARE(i.file_count().after, 3);
        checkSlots(i, 5, 1, 4, 2, 3);

        const Event cl = seen(Event::fd_close(KFn::close_fd, 5, 1, 4, 3, 2));
        QCOMPARE(cl.kind, EventKind::fd_close);
        QCOMPARE(cl.process(), 1u);
        QCOMPARE(cl.fd(), 4u);
        QCOMPARE(cl.file_count().before, 3);
        QCOMPARE(cl.file_count().after, 2);

        const Event g = seen(Event::file_get(KFn::scm_fp_copy, 5, 1, 2));
        QCOMPARE(g.kind, EventKind::file_get);
        QCOMPARE(g.sock(), 5u);
        QCOMPARE(g.file_count().before, 1);
        QCOMPARE(g.file_count().after, 2);
        const Event p = seen(Event::file_put(KFn::fput, 5, 2, 1));
        QCOMPARE(p.kind, EventKind::file_put);
        QCOMPARE(p.file_count().after, 1);

        const Event d = seen(Event::fput_deferred(KFn::fput, 5, 3, false));
        QCOMPARE(d.kind, EventKind::fput_deferred);
        QCOMPARE(d.sock(), 5u);
        QCOMPARE(d.deferring_task(), 3u);
        QVERIFY(!d.delayed());
        QVERIFY(Event::fput_deferred(KFn::delayed_fput, 5, npos, true).delayed());

        const Event r = seen(Event::sock_release(KFn::unix_release_sock, 5, true));
        QCOMPARE(r.kind, EventKind::sock_release);
        QCOMPARE(r.sock(), 5u);
        QVERIFY(r.is_embryo());
        QVERIFY(!Event::sock_release(KFn::unix_release_sock, 5, false).is_embryo());

        const Event s = seen(Event::peer_shutdown(KFn::unix_release_sock, 5, 6, true));
        QCOMPARE(s.kind, EventKind::peer_shutdown);
        QCOMPARE(s.sock(), 5u);
        QCOMPARE(s.peer(), 6u);
        QVERIFY(s.reset());
    }

    void messages()
    {
        const Event q = seen(Event::skb_queue(KFn::skb_queue_tail, 20, 5, 6, 3));
        QCOMPARE(q.kind, EventKind::skb_queue);
        QCOMPARE(q.skb(), 20u);
        QCOMPARE(q.receiver(), 5u);
        QCOMPARE(q.sender(), 6u);
        QCOMPARE(q.fds(), 3);
        checkSlots(q, 20, 5, 6, 3, 0);

        const Event dq = seen(Event::skb_dequeue(KFn::sys_recvmsg, 20, 5));
        QCOMPARE(dq.kind, EventKind::skb_dequeue);
        QCOMPARE(dq.skb(), 20u);
        QCOMPARE(dq.sock(), 5u); // the socket whose queue it was on, not the skb

        const Event f = seen(Event::skb_free(KFn::kfree_skb, 20, 5, 2));
        QCOMPARE(f.kind, EventKind::skb_free);
        QCOMPARE(f.skb(), 20u);
        QCOMPARE(f.sock(), 5u);
        QCOMPARE(f.fds(), 2);

        const Event u = seen(Event::skb_unref(KFn::kfree_skb, 20, 1));
        QCOMPARE(u.kind, EventKind::skb_unref);
        QCOMPARE(u.skb(), 20u);
        QCOMPARE(u.refs_left(), 1);
        QCOMPARE(u.before, 2); // one more before the drop

        const Event at = seen(Event::fds_attach(KFn::scm_fp_dup, 20, 4, true));
        QCOMPARE(at.kind, EventKind::fds_attach);
        QCOMPARE(at.skb(), 20u);
        QCOMPARE(at.fds(), 4);
        QVERIFY(at.duplicated());
        QVERIFY(!Event::fds_attach(KFn::unix_attach_fds, 20, 4, false).duplicated());

        const Event de = seen(Event::fds_detach(KFn::unix_detach_fds, 20, 4));
        QCOMPARE(de.kind, EventKind::fds_detach);
        QCOMPARE(de.skb(), 20u);
        QCOMPARE(de.fds(), 4);

        const Event pk = seen(Event::fds_peek(KFn::scm_fp_dup, 20, 5, 3, true));
        QCOMPARE(pk.kind, EventKind::fds_peek);
        QCOMPARE(pk.skb(), 20u);
        QCOMPARE(pk.sock(), 5u);
        QCOMPARE(pk.fds(), 3);
        QVERIFY(pk.peek_seq_bumped());

        const Event sp = seen(Event::splice_chunk(KFn::skb_splice_from_iter, 5, 6, 4096, true));
        QCOMPARE(sp.kind, EventKind::splice_chunk);
        QCOMPARE(sp.sender(), 5u);
        QCOMPARE(sp.receiver(), 6u);
        QCOMPARE(sp.bytes(), 4096);
        QVERIFY(sp.checksummed());

        const Event cr = seen(Event::creds_ref(KFn::scm_creds, 5, true, 70));
        QCOMPARE(cr.kind, EventKind::creds_ref);
        QVERIFY(cr.takes_refs());
        QCOMPARE(cr.cost_ns(), 70);
        QVERIFY(!Event::creds_ref(KFn::scm_creds, 5, false, 70).takes_refs());
    }

    void classicCollector()
    {
        const Event i = seen(Event::inflight_change(KFn::dec_inflight, 5, 2, 1));
        QCOMPARE(i.kind, EventKind::inflight_change);
        QCOMPARE(i.fn, KFn::dec_inflight);
        QCOMPARE(i.sock(), 5u);
        QCOMPARE(i.inflight().before, 2);
        QCOMPARE(i.inflight().after, 1);

        const Event m =
            seen(Event::list_move(KFn::select_candidates, 5, ListId::gc_inflight_list, ListId::gc_candidates, 0, 3));
        QCOMPARE(m.kind, EventKind::list_move);
        QCOMPARE(m.sock(), 5u);
        QCOMPARE(m.from, ListId::gc_inflight_list);
        QCOMPARE(m.to, ListId::gc_candidates);
        QCOMPARE(m.gc_flags().before, 0);
        QCOMPARE(m.gc_flags().after, 3);

        const Event fl = seen(Event::flags_change(KFn::unix_gc, 5, 3, 1));
        QCOMPARE(fl.kind, EventKind::flags_change);
        QCOMPARE(fl.gc_flags().before, 3);
        QCOMPARE(fl.gc_flags().after, 1);

        const Event cc = seen(Event::candidate_check(KFn::select_candidates, 5, true, 2, 2));
        QCOMPARE(cc.kind, EventKind::candidate_check);
        QCOMPARE(cc.sock(), 5u);
        QVERIFY(cc.is_candidate());
        const Event not_cc = Event::candidate_check(KFn::select_candidates, 5, false, 3, 1);
        QVERIFY(!not_cc.is_candidate());
        QCOMPARE(not_cc.refs(), 3);
        QCOMPARE(not_cc.inflight_count(), 1);

        const Event cm = seen(Event::cursor_move(KFn::restore_candidates, 5, 2));
        QCOMPARE(cm.kind, EventKind::cursor_move);
        QCOMPARE(cm.sock(), 5u);
        QCOMPARE(cm.inflight_count(), 2);

        const Event sc = seen(Event::scan(KFn::scan_inflight, 5, 7));
        QCOMPARE(sc.kind, EventKind::scan);
        QCOMPARE(sc.sock(), 5u);
        QCOMPARE(sc.embryo(), 7u);
        QCOMPARE(Event::scan(KFn::scan_inflight, 5).embryo(), npos);

        const Event h = seen(Event::skb_hitlist(KFn::scan_inflight, 20, 5));
        QCOMPARE(h.kind, EventKind::skb_hitlist);
        QCOMPARE(h.skb(), 20u);
        QCOMPARE(h.sock(), 5u);
        QCOMPARE(h.from, ListId::receive_queue);
        QCOMPARE(h.to, ListId::hitlist);
    }

    void collections()
    {
        QCOMPARE(seen(Event::gc_call(KFn::unix_gc, 9)).tot_inflight(), 9);
        const Event sched = Event::gc_schedule(KFn::unix_schedule_gc, true, 4);
        QCOMPARE(sched.kind, EventKind::gc_call);
        checkSlots(sched, npos, npos, npos, 1, 4);
        QVERIFY(seen(Event::gc_queued(KFn::queue_work, true)).already_pending());
        QVERIFY(!Event::gc_queued(KFn::queue_work, false).already_pending());
        QCOMPARE(seen(Event::gc_wait(KFn::flush_work, 16)).files_in_flight(), 16);
        QCOMPARE(seen(Event::gc_begin(KFn::unix_gc, 3)).run(), 3u);
        const Event end = seen(Event::gc_end(KFn::unix_gc, 3, 2, 5));
        QCOMPARE(end.kind, EventKind::gc_end);
        QCOMPARE(end.run(), 3u);
        QCOMPARE(end.garbage(), 2);
        QCOMPARE(end.skbs_purged(), 5);
        const Event skip = seen(Event::gc_skip(KFn::unix_gc_work, 3, true));
        QCOMPARE(skip.kind, EventKind::gc_skip);
        QCOMPARE(skip.run(), 3u);
        QVERIFY(skip.graph_not_cyclic());
        QVERIFY(!Event::gc_skip(KFn::unix_gc, npos, false).graph_not_cyclic());
    }

    void graphCollector()
    {
        const Event sp = seen(Event::queue_splice(KFn::unix_collect_skb, 5, 7, 3));
        QCOMPARE(sp.kind, EventKind::queue_splice);
        QCOMPARE(sp.sock(), 5u);
        QCOMPARE(sp.embryo(), 7u);
        QCOMPARE(sp.skbs(), 3);

        const Event vn = seen(Event::vertex_new(KFn::unix_add_edges, 5, 8));
        QCOMPARE(vn.kind, EventKind::vertex_new);
        QCOMPARE(vn.sock(), 5u);
        QCOMPARE(vn.scc_index().after, 8);
        QCOMPARE(seen(Event::vertex_free(KFn::unix_del_edges, 5)).sock(), 5u);

        const Event ea = seen(Event::edge_add(KFn::unix_add_edges, 5, 7, 6, 1, 2));
        QCOMPARE(ea.kind, EventKind::edge_add);
        QCOMPARE(ea.predecessor(), 5u);
        QCOMPARE(ea.receiver(), 7u);
        QCOMPARE(ea.successor(), 6u);
        QCOMPARE(ea.out_degree().before, 1);
        QCOMPARE(ea.out_degree().after, 2);
        checkSlots(ea, 5, 7, 6, 1, 2);

        const Event ed = seen(Event::edge_del(KFn::unix_del_edges, 5, 7, 2, 1));
        QCOMPARE(ed.kind, EventKind::edge_del);
        QCOMPARE(ed.predecessor(), 5u);
        QCOMPARE(ed.receiver(), 7u);
        QCOMPARE(ed.out_degree().after, 1);

        const Event gs = seen(Event::graph_state(KFn::unix_walk_scc, 5, 1, 2));
        QCOMPARE(gs.kind, EventKind::graph_state);
        QCOMPARE(gs.sock(), 5u);
        QCOMPARE(gs.graph_bits().before, 1);
        QCOMPARE(gs.graph_bits().after, 2);

        const Event vv = seen(Event::vertex_visit(KFn::__unix_walk_scc, 5, 4));
        QCOMPARE(vv.kind, EventKind::vertex_visit);
        QCOMPARE(vv.sock(), 5u);
        QCOMPARE(vv.index(), 4);

        const Event push = seen(Event::edge_push(KFn::__unix_walk_scc, 5, 6, 7));
        QCOMPARE(push.kind, EventKind::edge_push);
        QCOMPARE(push.predecessor(), 5u);
        QCOMPARE(push.successor(), 6u);
        QCOMPARE(push.receiver(), 7u);

        const Event pop = seen(Event::edge_pop(KFn::__unix_walk_scc, 5, 6, 4, 2));
        QCOMPARE(pop.kind, EventKind::edge_pop);
        QCOMPARE(pop.predecessor(), 5u);
        QCOMPARE(pop.successor(), 6u);
        QCOMPARE(pop.scc_index().before, 4);
        QCOMPARE(pop.scc_index().after, 2);

        const Event up = seen(Event::scc_index_update(KFn::__unix_walk_scc, 5, 6, 4, 1));
        QCOMPARE(up.kind, EventKind::scc_index_update);
        QCOMPARE(up.sock(), 5u);
        QCOMPARE(up.successor(), 6u);
        QCOMPARE(up.scc_index().before, 4);
        QCOMPARE(up.scc_index().after, 1);

        const Event found = seen(Event::scc_found(KFn::__unix_walk_scc, 5, 3));
        QCOMPARE(found.kind, EventKind::scc_found);
        QCOMPARE(found.root(), 5u);
        QCOMPARE(found.members(), 3);

        const Event vd = seen(Event::vertex_dead(KFn::unix_vertex_dead, 5, 6, 2, false, 4));
        QCOMPARE(vd.kind, EventKind::vertex_dead);
        QCOMPARE(vd.sock(), 5u);
        QCOMPARE(vd.successor(), 6u);
        QCOMPARE(vd.refs(), 2);
        QVERIFY(!vd.dead());
        QCOMPARE(vd.reason(), 4);
        checkSlots(vd, 5, 6, 2, 0, 4);

        const Event verdict = seen(Event::scc_verdict(KFn::__unix_walk_scc, 5, 6, false, true));
        QCOMPARE(verdict.kind, EventKind::scc_verdict);
        QCOMPARE(verdict.root(), 5u);
        QCOMPARE(verdict.alive_by(), 6u);
        QVERIFY(!verdict.dead());
        QVERIFY(verdict.cyclic());
        QVERIFY(Event::scc_verdict(KFn::__unix_walk_scc, 5, npos, true, false).dead());
    }

    void timeAndTasks()
    {
        const Event w = seen(Event::wait_end(KFn::flush_work, 1500, WaitFor::state_lock));
        QCOMPARE(w.kind, EventKind::wait_end);
        QCOMPARE(w.waited_ns(), 1500);
        QCOMPARE(w.waited_for(), WaitFor::state_lock);

        const Event l = seen(Event::lock_spin(KFn::unix_table_lock, 3, 80));
        QCOMPARE(l.kind, EventKind::lock_spin);
        QCOMPARE(l.lock(), 3u);
        QCOMPARE(l.spun_ns(), 80);

        const Event sp = seen(Event::task_spawn(2, 1));
        QCOMPARE(sp.kind, EventKind::task_spawn);
        QCOMPARE(sp.task_index(), 2u);
        QCOMPARE(sp.cpu(), 1u);
        QCOMPARE(seen(Event::task_exit(2)).task_index(), 2u);

        const Event sw = seen(Event::task_switch(1, 2, 5, 3, TaskSwitch::until));
        QCOMPARE(sw.kind, EventKind::task_switch);
        QCOMPARE(sw.from_task(), 1u);
        QCOMPARE(sw.to_task(), 2u);
        QCOMPARE(sw.point_sock(), 5u);
        QCOMPARE(sw.point_kind(), 3);
        QCOMPARE(sw.how(), TaskSwitch::until);
        checkSlots(sw, 1, 2, 5, 3, 1);

        QCOMPARE(seen(Event::sched_point()).kind, EventKind::sched_point);
    }

    void autobind()
    {
        const Event p = seen(Event::autobind_probe(KFn::unix_autobind, 5, 0xABCDE, 17, 3, true));
        QCOMPARE(p.kind, EventKind::autobind_probe);
        QCOMPARE(p.sock(), 5u);
        QCOMPARE(p.name_value(), 0xABCDEu);
        QCOMPARE(p.bucket(), 17u);
        QCOMPARE(p.compared(), 3);
        QVERIFY(p.taken());

        const Event f = seen(Event::autobind_fail(KFn::unix_autobind, 5, 0x1234, 28, 1048576));
        QCOMPARE(f.kind, EventKind::autobind_fail);
        QCOMPARE(f.sock(), 5u);
        QCOMPARE(f.start(), 0x1234u);
        QCOMPARE(f.error(), 28);
        QCOMPARE(f.probes(), 1048576);
        QVERIFY(!f.loops_forever());
        QVERIFY(Event::autobind_fail(KFn::unix_autobind, 5, 0, -1, 9).loops_forever());
    }

    // Runs last (QtTest runs slots in declaration order): every kind has a constructor above.
    void everyKindHasAConstructor()
    {
        for (int k = 0; k <= static_cast<int>(EventKind::task_switch); ++k)
            QVERIFY2(seen_.count(static_cast<EventKind>(k)),
                     qPrintable(QString::fromStdString(std::string(event_kind_name(static_cast<EventKind>(k))))));
    }
};

QTEST_GUILESS_MAIN(TestEvent)
#include "test_event.moc"
