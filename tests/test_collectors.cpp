// SPDX-License-Identifier: GPL-3.0-or-later
// The collectors' algorithms, step by step: order, lists, scc_index values, verdicts.
#include "inflight/narrate.hpp"
#include "inflight/parser.hpp"
#include "scene_runner.hpp"

#include <QTest>

using namespace inflight;
using namespace inflight::test;

namespace {

const char *kMixedLowpoint = "socketpair u0 p0\nsocketpair u1 p1\nsocketpair u2 p2\n"
                             "send p1 fds=u0,u0\nsend p2 fds=u1,u1\nsend p1 fds=u2,u2\nsend p0 fds=u1,u1\n"
                             "close u0 u1 u2 p0 p1 p2\ngc\n";

} // namespace

class TestCollectors : public QObject {
    Q_OBJECT
private slots:
    // 6.9's WARN_ON_ONCE(!list_empty(&gc_candidates)) is printed and the kernel goes on: so
    // does the run (were it to stop at the warning, c1 would stay open and four expectations
    // unevaluated). A BUG_ON or a broken model invariant ends the run.
    void aWarnIsAFindingAndTheRunGoesOn()
    {
        ParseResult r = load_scene_file(INFLIGHT_SOURCE_DIR "/scenes/selftest-self-ref-listener-oob.scn");
        QVERIFY(r.ok());
        auto scene = std::make_shared<const Scene>(std::move(r.scene));
        SimulationOptions o;
        o.era = GcEra::async;
        Simulation warned(scene, o);
        warned.run();
        QVERIFY(warned.finished());
        QVERIFY(!warned.stopped_by_finding());
        const auto &f = warned.kernel().findings;
        QCOMPARE(f.size(), std::size_t{1});
        QVERIFY(f[0].warning);
        QVERIFY(f[0].invariant.find("WARN_ON_ONCE") != std::string::npos);
        QVERIFY(const_cast<Kernel &>(warned.kernel()).find_label("c1")->released); // the scene's close ran
        o.era = GcEra::graph;
        Simulation graph(scene, o);
        graph.run();
        QCOMPARE(warned.expectations().size(), graph.expectations().size()); // every expect evaluated
        // A fatal finding still stops the run at its step.
        auto bug = scene_of("set gc async\nsocketpair a b\nsend a fds=b\n");
        Simulation stopped(bug, o);
        while (stopped.step() && stopped.steps() < 5) { }
        const_cast<Kernel &>(stopped.kernel()).finding("test invariant", "made up for the test");
        stopped.step();
        QVERIFY(stopped.stopped_by_finding());
        QVERIFY(stopped.step() == nullptr);
    }

    void mixedLowpointLeaksWithUnfixedGraph()
    {
        auto sim = run_scene(std::string("set gc graph\n") + kMixedLowpoint);
        QVERIFY(sim);
        QVERIFY2(sim->kernel().findings.empty(), findings_of(*sim).c_str());
        for (const char *l : {"u0", "u1", "u2"})
            QVERIFY2(!sock(*sim, l).released, l);
        // One SCC, but the low-links differ: u0 and u1 carry 2, u2 keeps 3 (spec 5.13).
        const UnixVertex *v0 = sock(*sim, "u0").vertex, *v1 = sock(*sim, "u1").vertex, *v2 = sock(*sim, "u2").vertex;
        QVERIFY(v0 && v1 && v2);
        QCOMPARE(v0->scc_index, 2UL);
        QCOMPARE(v1->scc_index, 2UL);
        QCOMPARE(v2->scc_index, 3UL);
    }

    // The alive verdict says why: u1's copy sits with u2 in the same SCC under
    // another scc_index, not in another SCC; --trace's short form says so too.
    void mixedLowpointAliveReasonIsTheSameScc()
    {
        auto sim = run_scene(std::string("set gc graph\n") + kMixedLowpoint, std::nullopt, true);
        QVERIFY(sim);
        int alive = 0;
        for (const Event &e : sim->events()) {
            if (e.kind == EventKind::vertex_dead && e.before == 0) {
                ++alive;
                QCOMPARE(e.after, std::int64_t{4});
                const std::string why = narrate(e, sim->kernel(), &sim->scene());
                QVERIFY2(why.find("a member of this same SCC that kept another scc_index") != std::string::npos,
                         why.c_str());
                QVERIFY(describe(e, sim->kernel()).find("same SCC, other scc_index") != std::string::npos);
            }
            if (e.kind == EventKind::scc_verdict && e.before == 0)
                QVERIFY(describe(e, sim->kernel()).find("(u1 alive: edge to u2: same SCC, other scc_index)") !=
                        std::string::npos);
        }
        QVERIFY(alive > 0);
    }

    void mixedLowpointFreedWithFixAndClassic()
    {
        auto fixed = run_scene(std::string("set gc graph\nset fix unify-scc-index\n") + kMixedLowpoint);
        QVERIFY(fixed);
        QVERIFY2(fixed->kernel().findings.empty(), findings_of(*fixed).c_str());
        for (const char *l : {"u0", "u1", "u2"})
            QVERIFY2(sock(*fixed, l).released, l);
        for (GcEra era : {GcEra::classic, GcEra::async}) {
            auto sim = run_scene(kMixedLowpoint, era);
            QVERIFY(sim);
            for (const char *l : {"u0", "u1", "u2"})
                QVERIFY2(sock(*sim, l).released, l);
        }
    }

    void mixedLowpointDependsOnSendOrder()
    {
        // Same edges, other order: the DFS from u1 finalises consistent low-links, no leak.
        auto sim = run_scene("set gc graph\nsocketpair u0 p0\nsocketpair u1 p1\nsocketpair u2 p2\n"
                             "send p2 fds=u1,u1\nsend p0 fds=u1,u1\nsend p1 fds=u0,u0\nsend p1 fds=u2,u2\n"
                             "close u0 u1 u2 p0 p1 p2\ngc\nexpect freed u0 u1 u2\n");
        QVERIFY(sim);
        QCOMPARE(sim->expectations_failed(), std::size_t(0));
    }

    void classicRestoreWalkRevisitsPassedCandidates()
    {
        // b goes in flight first, so the cursor passes it with inflight 0; a is reachable from
        // h's queue, so restoring a's children moves b to the tail and the cursor sees it again.
        auto sim = run_scene("set gc classic\nsocketpair a a2\nsocketpair b b2\nsocketpair h h2\n"
                             "send a2 fds=b\nsend b2 fds=a\nsend h2 fds=a\nclose a b a2 b2\ngc\n"
                             "expect alive a b\n",
                             std::nullopt, true);
        QVERIFY(sim);
        QVERIFY2(sim->kernel().findings.empty(), findings_of(*sim).c_str());
        QCOMPARE(sim->expectations_failed(), std::size_t(0));
        const std::uint32_t b = sock(*sim, "b").id;
        // In the first collection: b passed twice, moved to the tail once. (Later runs see
        // gc_inflight_list in the order the first one restored it: a before b.)
        const GcRun &run = sim->kernel().gc_runs.front();
        std::size_t passes = 0, tail_moves = 0;
        for (const Event &e : sim->events()) {
            if (e.step < run.first_step || e.step > run.last_step)
                continue;
            passes += e.kind == EventKind::cursor_move && e.a == b;
            tail_moves += e.kind == EventKind::list_move && e.fn == KFn::inc_inflight_move_tail && e.a == b;
        }
        QCOMPARE(passes, std::size_t(2));
        QCOMPARE(tail_moves, std::size_t(1));
        QCOMPARE(run.garbage, 0u);
        QCOMPARE(run.candidates, 2u);
    }

    void classicScansEmbryosOfAListener()
    {
        auto sim = run_scene("set gc classic\nsocket l\nbind l\nlisten l\nsocket c\nconnect c l\nsend c fds=l\n"
                             "close l c\nexpect freed l embryo(c)\n",
                             std::nullopt, true);
        QVERIFY(sim);
        QCOMPARE(sim->expectations_failed(), std::size_t(0));
        bool via_embryo = false;
        for (const Event &e : sim->events())
            via_embryo |= e.kind == EventKind::scan && e.a == sock(*sim, "l").id && e.b == sock(*sim, "embryo(c)").id;
        QVERIFY(via_embryo);
    }

    void graphMapsEmbryoEdgesToTheListener()
    {
        auto sim = run_scene("set gc graph\nsocket l\nbind l\nlisten l\nsocket c\nconnect c l\nsend c fds=l\n"
                             "close l c\nexpect freed l embryo(c)\n",
                             std::nullopt, true);
        QVERIFY(sim);
        QCOMPARE(sim->expectations_failed(), std::size_t(0));
        const std::uint32_t l = sock(*sim, "l").id;
        bool mapped = false;
        for (const Event &e : sim->events())
            mapped |= e.kind == EventKind::edge_add && e.a == l && e.b == sock(*sim, "embryo(c)").id && e.c == l;
        QVERIFY2(mapped, "edge l -> embryo(c) must count as l -> l");
    }

    void hitlistTakesSkbsClassicButWholeQueuesGraph()
    {
        const std::string s = "socketpair a a2\nsocketpair b b2\nsocketpair x x2\n"
                              "send a2 fds=b\nsend a2 bytes=10\nsend a2 fds=x\nsend b2 fds=a\n"
                              "close a b a2 b2\ngc\nexpect freed a b\nexpect alive x\n";
        auto classic = run_scene("set gc classic\n" + s);
        auto graph = run_scene("set gc graph\n" + s);
        QVERIFY(classic && graph);
        QCOMPARE(classic->expectations_failed(), std::size_t(0));
        QCOMPARE(graph->expectations_failed(), std::size_t(0));
        std::uint32_t classic_hits = 0, graph_hits = 0;
        for (const auto &r : classic->kernel().gc_runs)
            classic_hits += r.hitlist;
        for (const auto &r : graph->kernel().gc_runs)
            graph_hits += r.hitlist;
        QCOMPARE(classic_hits, 2u); // only the skbs carrying a candidate
        QCOMPARE(graph_hits, 4u);   // a's whole queue (3 skbs) and b's (1)
        QCOMPARE(sock(*graph, "x").file->count, 1L);
    }

    void graphFastPathAndSkip()
    {
        // A cycle kept alive by an open fd: the first collection walks (Tarjan), the next ones
        // take the fast path; a graph without cycles is skipped altogether.
        auto sim = run_scene("set gc graph\nsocketpair a a2\nsocketpair b b2\nsend a2 fds=b\nsend b2 fds=a\n"
                             "close b a2 b2\nsocketpair t t2\nclose t\n");
        QVERIFY(sim);
        const auto &runs = sim->kernel().gc_runs;
        QVERIFY(runs.size() >= 2); // the releases of a2 and b2 share one queued run
        QVERIFY(!runs[0].fast_path && !runs[0].skipped);
        QVERIFY(runs.back().fast_path);
        QCOMPARE(runs.back().garbage, 0u);

        auto chain =
            run_scene("set gc graph\nsocketpair a a2\nsocketpair b b2\nsend a2 fds=b\nsocketpair t t2\nclose t\n");
        QVERIFY(chain);
        QVERIFY(!chain->kernel().gc_runs.empty());
        QVERIFY(chain->kernel().gc_runs.back().skipped);
    }

    void vertexDeadReasons()
    {
        auto sim = run_scene("set gc graph\nsocketpair a a2\nsocketpair b b2\nsend a2 fds=b\nsend b2 fds=a\n"
                             "close b a2 b2\n",
                             std::nullopt, true);
        QVERIFY(sim);
        // a still has its fd: file_count 2 != out_degree 1 (reason 3).
        bool alive_by_refcount = false;
        for (const Event &e : sim->events())
            alive_by_refcount |=
                e.kind == EventKind::vertex_dead && e.a == sock(*sim, "a").id && e.before == 0 && e.after == 3;
        QVERIFY(alive_by_refcount);
    }

    void tarjanVisitsEveryVertexOnceAndFindsTwoTriangles()
    {
        auto sim = run_scene("set gc graph\nrepeat 6 {\n socketpair u$i p$i\n}\n"
                             "send p1 fds=u0,u0\nsend p2 fds=u1,u1\nsend p0 fds=u2,u2\n"
                             "send p4 fds=u3,u3\nsend p5 fds=u4,u4\nsend p3 fds=u5,u5\n"
                             "repeat 6 {\n close u$i\n}\ngc\n",
                             std::nullopt, true);
        QVERIFY(sim);
        const GcRun &run = sim->kernel().gc_runs.back();
        std::size_t visits = 0, sccs = 0;
        for (const Event &e : sim->events())
            if (e.step >= run.first_step && e.step <= run.last_step) {
                visits += e.kind == EventKind::vertex_visit;
                sccs += e.kind == EventKind::scc_found;
            }
        QCOMPARE(visits, std::size_t(6));
        QCOMPARE(sccs, std::size_t(2));
        QCOMPARE(run.garbage, 6u);
        for (int i = 0; i < 6; ++i)
            QVERIFY(sock(*sim, "u" + std::to_string(i)).released);
    }

    void sendmsgTriggersPastUnixInflightTriggerGc()
    {
        // UNIX_INFLIGHT_TRIGGER_GC: a sendmsg() that finds more than 16000 in flight starts a
        // collection (classic: in the sender; 6.9+: queued). Exactly at 16000 it does not.
        for (GcEra era : {GcEra::classic, GcEra::async, GcEra::graph}) {
            for (int sends : {16001, 16002}) {
                const std::string s = "set nofile 100000\nsocketpair a b\nsocketpair c d\nrepeat " +
                                      std::to_string(sends) + " {\n send a fds=c\n}\n";
                auto sim = run_scene(s, era, false, false);
                QVERIFY(sim);
                std::size_t triggered = 0;
                for (const auto &r : sim->kernel().gc_runs)
                    triggered += r.trigger.rfind("sendmsg", 0) == 0;
                QCOMPARE(triggered, std::size_t(sends == 16001 ? 0 : 1));
                QCOMPARE(sim->kernel().unix_tot_inflight, static_cast<unsigned long>(sends));
            }
        }
    }

    void oobSkbReferenceAcrossEras()
    {
        // Up to 6.11 u->oob_skb holds its own skb reference. A garbage socket's is dropped by
        // the 2024 fixes (so a self-referencing OOB pair is freed), an embryo's is not: classic
        // leaks the listener, 6.9 warns that candidates survived, 6.18 frees everything.
        const std::string pair = "socketpair a b\nsend b fds=a oob\nclose a\nclose b\nexpect freed a b\n";
        for (GcEra era : {GcEra::classic, GcEra::async, GcEra::graph}) {
            auto sim = run_scene(pair, era);
            QVERIFY(sim);
            QVERIFY2(sim->kernel().findings.empty(), findings_of(*sim).c_str());
            QCOMPARE(sim->expectations_failed(), std::size_t(0));
        }
        const std::string embryo = "socket l\nbind l\nlisten l\nsocket c\nconnect c l\nsend c fds=l oob\nclose l c\n";
        auto classic = run_scene(embryo, GcEra::classic);
        auto async = run_scene(embryo, GcEra::async);
        auto graph = run_scene(embryo, GcEra::graph);
        QVERIFY(classic && async && graph);
        QVERIFY2(classic->kernel().findings.empty(), findings_of(*classic).c_str());
        QVERIFY(!sock(*classic, "l").released);
        // The WARN is the only finding: the leftover on gc_candidates is the kernel's state,
        // which the invariant checks accept from 6.9 on.
        QVERIFY(!async->stopped_by_finding());
        QCOMPARE(async->kernel().findings.size(), std::size_t{1});
        QVERIFY(async->kernel().findings.front().invariant.find("WARN_ON_ONCE(!list_empty(&gc_candidates))") !=
                std::string::npos);
        QCOMPARE(sock(*async, "l").on, ListId::gc_candidates);
        QVERIFY2(graph->kernel().findings.empty(), findings_of(*graph).c_str());
        QVERIFY(sock(*graph, "l").released);
        QVERIFY(sock(*graph, "embryo(c)").released);
    }
};

QTEST_GUILESS_MAIN(TestCollectors)
#include "test_collectors.moc"
