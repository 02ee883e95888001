// SPDX-License-Identifier: GPL-3.0-or-later
// Stepping: into/over/out, backwards and jumps reach exactly the same state; runs are
// deterministic; a broken invariant stops the run and says where.
#include "inflight/player.hpp"
#include "scene_runner.hpp"

#include <QTest>

#include <sstream>

using namespace inflight;
using namespace inflight::test;

namespace {

const char *kScene = "socketpair a a2\nsocketpair b b2\nsocketpair c c2\nsend a2 fds=b\nsend b2 fds=c\n"
                     "send c2 fds=a\nclose a b c\nsocket l\nbind l\nlisten l\nsocket k\nconnect k l\n"
                     "send k fds=l\nclose l\nclose a2 b2 c2\n";

// Everything a view shows, as text: sockets, counts, lists in order, graph state.
std::string digest(const Simulation &sim)
{
    const Kernel &k = sim.kernel();
    std::ostringstream o;
    o << sim.steps() << " line " << sim.current_line() << "\n";
    for (const UnixSock &u : k.socks)
        o << k.label_of(u) << " " << u.released << " " << (u.file ? u.file->count : -1) << " "
          << k.collector().inflight_of(u) << " " << u.receive_queue.size() << " " << int(u.gc_flags) << " " << int(u.on)
          << " " << (u.vertex ? long(u.vertex->scc_index) : -1) << "\n";
    for (const GcList *l : {&k.gc_inflight_list, &k.gc_candidates, &k.not_cycle_list}) {
        for (const GcLink &g : *l)
            o << (g.is_cursor ? std::string("<cursor>") : k.label_of(static_cast<const UnixSock &>(g))) << ",";
        o << "\n";
    }
    for (const SkBuff &skb : k.hitlist)
        o << skb.id << ",";
    o << "\n"
      << k.unix_tot_inflight << " " << k.gc_in_progress << " " << k.graph_maybe_cyclic << k.graph_grouped << " "
      << k.gc_runs.size() << "\n";
    return o.str();
}

} // namespace

class TestPlayer : public QObject {
    Q_OBJECT
private slots:
    void sameStateForwardBackwardAndByJump_data()
    {
        QTest::addColumn<int>("era");
        QTest::newRow("classic") << int(GcEra::classic);
        QTest::newRow("async") << int(GcEra::async);
        QTest::newRow("graph") << int(GcEra::graph);
    }

    void sameStateForwardBackwardAndByJump()
    {
        QFETCH(int, era);
        auto scene = scene_of(kScene);
        QVERIFY(scene);
        SimulationOptions o;
        o.era = static_cast<GcEra>(era);
        Player forward(scene, o);
        const std::uint64_t total = forward.total_steps();
        QVERIFY(total > 50);
        std::vector<std::string> states{digest(forward.sim())};
        while (forward.step_into())
            states.push_back(digest(forward.sim()));
        QCOMPARE(states.size(), std::size_t(total + 1));

        Player backward(scene, o);
        backward.seek(total);
        for (std::uint64_t k = total; k > 0; --k) {
            QVERIFY(backward.back());
            QCOMPARE(digest(backward.sim()), states[k - 1]);
        }
        QVERIFY(!backward.back());

        Player jumper(scene, o);
        for (std::uint64_t k : {total / 2, std::uint64_t(3), total - 1, std::uint64_t(0), total, total / 3}) {
            jumper.seek(k);
            QCOMPARE(jumper.position(), k);
            QCOMPARE(digest(jumper.sim()), states[k]);
        }
    }

    // note ERA "text": shown (a note step) only under the collectors it names.
    void notesForOtherCollectorsAreSkipped_data()
    {
        QTest::addColumn<int>("era");
        QTest::addColumn<std::vector<std::uint32_t>>("lines");
        QTest::newRow("classic") << int(GcEra::classic) << std::vector<std::uint32_t>{2, 3};
        QTest::newRow("async") << int(GcEra::async) << std::vector<std::uint32_t>{2, 3};
        QTest::newRow("graph") << int(GcEra::graph) << std::vector<std::uint32_t>{1, 3};
    }
    void notesForOtherCollectorsAreSkipped()
    {
        QFETCH(int, era);
        QFETCH(std::vector<std::uint32_t>, lines);
        auto sim = run_scene("note graph \"tarjan\"\nnote classic async \"counting\"\nnote \"for all\"\n",
                             static_cast<GcEra>(era), true);
        QVERIFY(sim);
        std::vector<std::uint32_t> noted;
        for (const Event &e : sim->events())
            if (e.kind == EventKind::note)
                noted.push_back(e.scene_line);
        QCOMPARE(noted, lines);
    }

    void stepOverAndOut()
    {
        auto scene = scene_of(
            "set gc graph\nsocketpair a b\nsend a fds=b\nsend b fds=a\nclose a b\nsocket t\nclose t\nnote \"end\"\n");
        Simulation sim(scene);
        QVERIFY(sim.step_over());
        QCOMPARE(sim.last_event()->kind, EventKind::stmt_end);
        QCOMPARE(sim.current_line(), 2u);
        // Into the close: stop inside the collection, then step out of it.
        sim.step_over();
        sim.step_over();
        sim.step_over();
        sim.step_over();
        while (const Event *e = sim.step())
            if (e->kind == EventKind::vertex_visit)
                break;
        QVERIFY(sim.gc_in_progress());
        QVERIFY(sim.step_out());
        QCOMPARE(sim.last_event()->kind, EventKind::gc_end);
        QVERIFY(!sim.gc_in_progress());
        QCOMPARE(sim.current_line(), 7u);
        QVERIFY(sim.step_over());
        QCOMPARE(sim.last_event()->kind, EventKind::stmt_end);
        QVERIFY(sim.step_over()); // the note
        QVERIFY(!sim.step_over());
        QVERIFY(sim.finished());
    }

    void backStatementGoesToStatementStart()
    {
        auto scene = scene_of(kScene);
        Player p(scene);
        p.step_over();
        p.step_over();
        p.step_into();
        p.step_into();
        const auto mid = p.position();
        p.back_statement();
        QVERIFY(p.position() < mid);
        QVERIFY(p.step_into());
        QCOMPARE(p.sim().last_event()->kind, EventKind::stmt_begin);
        QCOMPARE(p.sim().current_line(), 3u);
    }

    void traceIsDeterministic()
    {
        for (GcEra era : {GcEra::classic, GcEra::async, GcEra::graph}) {
            auto one = run_scene(kScene, era, true);
            auto two = run_scene(kScene, era, true);
            QVERIFY(one && two);
            QCOMPARE(one->events().size(), two->events().size());
            for (std::size_t i = 0; i < one->events().size(); ++i) {
                const Event &x = one->events()[i], &y = two->events()[i];
                QVERIFY(x.kind == y.kind && x.fn == y.fn && x.a == y.a && x.b == y.b && x.c == y.c &&
                        x.before == y.before && x.after == y.after && x.step == y.step &&
                        x.scene_line == y.scene_line && x.algo_line == y.algo_line);
            }
        }
    }

    void seedChangesAutobindOnly()
    {
        auto scene = scene_of("socket a\nbind a\n");
        SimulationOptions o1, o2;
        o1.seed = 1;
        o2.seed = 2;
        Simulation s1(scene, o1), s2(scene, o2);
        s1.run();
        s2.run();
        QVERIFY(s1.kernel().address_of(s1.kernel().socks[0]) != s2.kernel().address_of(s2.kernel().socks[0]));
        QCOMPARE(s1.steps(), s2.steps());
    }

    void brokenInvariantStopsTheRunWithAReport()
    {
        auto scene = scene_of("set gc classic\nsocketpair a b\nsend a fds=b\nsocketpair c d\nclose c\n");
        SimulationOptions o;
        o.checked = true;
        Simulation sim(scene, o);
        sim.step_over();
        sim.step_over();
        // Corrupt the model the way a refcount bug would: one reference too many on b.
        const_cast<Kernel &>(sim.kernel()).files[1].count += 1;
        const Event *e = sim.step();
        QVERIFY(e);
        QVERIFY(sim.stopped_by_finding());
        QVERIFY(sim.finished());
        QVERIFY(!sim.step());
        const Finding &f = sim.kernel().findings.front();
        QCOMPARE(f.step, e->step);
        QVERIFY(f.invariant.find("file_count") != std::string::npos);
        QVERIFY(f.message.find("b") != std::string::npos);
    }

    void kernelBugOnBecomesAFinding()
    {
        // A socket on gc_inflight_list whose file has fewer references than copies in flight:
        // the classic collector's BUG_ON(total_refs < inflight_refs) is reported, not a crash.
        auto scene = scene_of("set gc classic\nsocketpair a b\nsend a fds=b\nsocketpair c d\nclose c\n");
        Simulation sim(scene); // unchecked: only the kernel's own conditions
        sim.step_over();
        sim.step_over();
        sim.step_over();
        const_cast<Kernel &>(sim.kernel()).socks[1].inflight = 5;
        sim.run();
        QVERIFY(sim.stopped_by_finding());
        QVERIFY(sim.kernel().findings.front().invariant.find("total_refs < inflight_refs") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestPlayer)
#include "test_player.moc"
