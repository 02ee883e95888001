// SPDX-License-Identifier: GPL-3.0-or-later
// Races: `spawn NAME when POINT SOCK [until POINT SOCK]` breaks in at a point inside another
// task's kernel code, the switch is a step naming both tasks, and the kernel's fixes for the
// GC's races (the MSG_PEEK lock dance, the listener's state lock, unix_peek_seq) close the
// window the race opens.
#include "inflight/narrate.hpp"
#include "inflight/parser.hpp"
#include "scene_runner.hpp"

#include <QTest>

#include <algorithm>
#include <functional>

using namespace inflight;
using namespace inflight::test;

namespace {

// CVE-2021-0920 (spec 5.1): a and b hold each other; b keeps its fd. The race peeks b's queue
// (dup of a) and closes b between the collector's checks of a and of b.
std::string peek_race(const std::string &settings)
{
    return settings +
           "socketpair a a2\nsocketpair b b2\nsend b2 fds=a\nsend a2 fds=b\nclose a2 b2\nclose a\n"
           "spawn peeker when " +
           (settings.find("graph") != std::string::npos || settings.find("6.18") != std::string::npos
                ? std::string("dead a")
                : std::string("select a")) +
           " {\n  recv b peek fds=a3\n  close b\n}\ngc\n";
}

// CVE-2024-26923 (spec 5.2): the listener l is a candidate, connect(s) is preempted between
// making the embryo its peer and queueing it; t2 sends v through it and collects.
std::string connect_race(const std::string &settings)
{
    return settings + "socket l\nbind l @race\nlisten l\nsocketpair x x2\nsend x2 fds=l\nclose l x2\n"
                      "socket s\nsocketpair v v2\n"
                      "spawn t2 when connect s until restore l {\n  send s fds=v\n  close v\n  gc\n}\n"
                      "connect s @race\nwait t2\n";
}

std::size_t index_of(const std::vector<Event> &events, const std::function<bool(const Event &)> &pred,
                     std::size_t from = 0)
{
    for (std::size_t i = from; i < events.size(); ++i)
        if (pred(events[i]))
            return i;
    return events.size();
}

// A gallery scene run under one of its variants' settings, checked and recorded.
std::unique_ptr<Simulation> run_variant(const Scene &scene, const std::string &variant)
{
    auto copy = std::make_shared<Scene>(scene);
    for (const SceneVariant &v : copy->variants)
        if (v.name == variant)
            copy->settings = v.settings;
    SimulationOptions o;
    o.checked = true;
    o.record = true;
    auto sim = std::make_unique<Simulation>(std::shared_ptr<const Scene>(copy), o);
    sim->run();
    return sim;
}

std::uint32_t task_id(const Simulation &sim, const std::string &name)
{
    for (const Task &t : sim.kernel().tasks)
        if (t.name == name)
            return t.id;
    return npos;
}

} // namespace

class TestRaces : public QObject {
    Q_OBJECT
private slots:
    void raceBreaksInRightAfterItsPointAndNamesBothTasks()
    {
        auto sim = run_scene(peek_race("set kernel 5.10\nset fix peek-gc-lock off\n"), std::nullopt, true);
        QVERIFY(sim);
        const auto &ev = sim->events();
        const std::uint32_t peeker = task_id(*sim, "peeker");
        QVERIFY(peeker != npos);
        const std::size_t sw = index_of(ev, [](const Event &e) { return e.kind == EventKind::task_switch; });
        QVERIFY(sw < ev.size());
        // Right after the candidate check of a, in the collection main runs (classic, 5.10).
        QVERIFY(sw > 0);
        QCOMPARE(ev[sw - 1].kind, EventKind::candidate_check);
        QCOMPARE(sim->kernel().label_of_id(ev[sw - 1].a), std::string("a"));
        QCOMPARE(ev[sw].a, 0u); // main
        QCOMPARE(ev[sw].b, peeker);
        QCOMPARE(ev[sw].after, std::int64_t{0});
        const std::string text = describe(ev[sw], sim->kernel());
        QVERIFY2(text.find("main -> peeker") != std::string::npos && text.find("select a") != std::string::npos,
                 text.c_str());
        // The peeker runs its whole block before main goes on, then main resumes mid-collection.
        const std::size_t back = index_of(
            ev, [](const Event &e) { return e.kind == EventKind::task_switch && e.after == 2; }, sw + 1);
        QVERIFY(back < ev.size());
        for (std::size_t i = sw + 1; i < back; ++i)
            QCOMPARE(ev[i].task, static_cast<std::uint16_t>(peeker));
        QVERIFY(index_of(
                    ev, [](const Event &e) { return e.kind == EventKind::fds_peek; }, sw) < back);
        QCOMPARE(ev[back].b, 0u);
        const std::size_t next_check = index_of(
            ev, [](const Event &e) { return e.kind == EventKind::candidate_check; }, back);
        QVERIFY(next_check < ev.size());
        QCOMPARE(sim->kernel().label_of_id(ev[next_check].a), std::string("b"));
        QCOMPARE(ev[next_check].c, 1u); // b is a candidate now: the peek closed it
        // The collector purges a's queue while fd a3 reaches a: a use-after-free with both paths.
        const auto &f = sim->kernel().findings;
        QCOMPARE(f.size(), std::size_t{1});
        QVERIFY(f[0].warning);
        QVERIFY2(f[0].invariant.find("use-after-free") != std::string::npos, f[0].invariant.c_str());
        QVERIFY2(f[0].message.find("unix_peek_fds") != std::string::npos &&
                     f[0].message.find("unix_gc") != std::string::npos &&
                     f[0].message.find("of main") != std::string::npos,
                 f[0].message.c_str());
        QVERIFY(sock(*sim, "b").released);
        QVERIFY(!sock(*sim, "a").released);
        QVERIFY(sim->finished() && !sim->stopped_by_finding());
    }

    // cbcf01128d0a: the peek takes and drops unix_gc_lock after the dup. Held by the preempted
    // collection, it makes the peeker sleep until the collection is over: nothing is purged.
    void lockDanceMakesThePeekWaitOutTheCollection()
    {
        auto sim = run_scene(peek_race("set kernel 5.10\n"), std::nullopt, true);
        QVERIFY(sim);
        QVERIFY2(sim->kernel().findings.empty(), findings_of(*sim).c_str());
        const auto &ev = sim->events();
        const std::uint32_t peeker = task_id(*sim, "peeker");
        const std::size_t dup = index_of(ev, [](const Event &e) { return e.kind == EventKind::fds_peek; });
        const std::size_t waited = index_of(
            ev,
            [&](const Event &e) {
                return e.kind == EventKind::wait_end && e.task == peeker &&
                       e.after == static_cast<std::int64_t>(WaitFor::gc_lock);
            },
            dup);
        const std::size_t end = index_of(
            ev, [](const Event &e) { return e.kind == EventKind::gc_end; }, dup);
        const std::size_t install = index_of(
            ev, [](const Event &e) { return e.kind == EventKind::fd_install && e.fn == KFn::unix_peek_fds; }, dup);
        QVERIFY(dup < end && end < waited && waited < install && install < ev.size());
        QVERIFY(!sock(*sim, "a").released && !sock(*sim, "b").released);
        QCOMPARE(sim->kernel().gc_runs.back().garbage, 0u);
    }

    // CVE-2024-26923: `until restore l` lets connect() finish inside the collection; the two
    // passes over l disagree and v counts more than is in flight. The fix's state lock makes
    // the collection wait for connect() before either pass.
    void untilHandsBackForTheRestOfTheStatement()
    {
        auto buggy = run_scene(connect_race("set kernel 6.8\nset fix connect-gc-race off\n"), std::nullopt, true);
        QVERIFY(buggy);
        const auto &ev = buggy->events();
        const std::size_t hand =
            index_of(ev, [](const Event &e) { return e.kind == EventKind::task_switch && e.after == 1; });
        QVERIFY(hand < ev.size());
        QCOMPARE(ev[hand].b, 0u); // back to main, for the rest of its connect()
        QCOMPARE(ev[hand + 1].kind, EventKind::skb_queue);
        QCOMPARE(ev[hand + 1].fn, KFn::sys_connect);
        QCOMPARE(ev[hand + 2].kind, EventKind::stmt_end);
        QCOMPARE(ev[hand + 3].kind, EventKind::task_switch); // t2 resumes its collection
        QCOMPARE(ev[hand + 3].after, std::int64_t{2});
        QCOMPARE(buggy->kernel().collector().inflight_of(sock(*buggy, "v")), 2L);
        QVERIFY(std::any_of(buggy->kernel().findings.begin(), buggy->kernel().findings.end(), [](const Finding &f) {
            return f.warning && f.invariant.find("CVE-2024-26923") != std::string::npos;
        }));
        QVERIFY(!buggy->stopped_by_finding());

        auto fixed = run_scene(connect_race("set kernel 6.8\n"), std::nullopt, true);
        QVERIFY(fixed);
        QVERIFY2(fixed->kernel().findings.empty(), findings_of(*fixed).c_str());
        QCOMPARE(fixed->kernel().collector().inflight_of(sock(*fixed, "v")), 1L);
        // The collector slept on l's state lock, which connect() held.
        QVERIFY(std::any_of(fixed->events().begin(), fixed->events().end(), [](const Event &e) {
            return e.kind == EventKind::wait_end && e.after == static_cast<std::int64_t>(WaitFor::state_lock);
        }));
        // No hand-back: connect() had finished by the time the collector restored l.
        QVERIFY(std::none_of(fixed->events().begin(), fixed->events().end(),
                             [](const Event &e) { return e.kind == EventKind::task_switch && e.after == 1; }));
    }

    // e5b31d988a41: on the graph collector a peek of AF_UNIX fds during a collection bumps
    // unix_peek_seq, and unix_scc_dead() gives the SCC up (reason 5) instead of purging it.
    void peekSeqcountGivesUpTheScc()
    {
        auto buggy = run_scene(peek_race("set kernel 6.18\nset fix peek-seqcount off\n"), std::nullopt, true);
        QVERIFY(buggy);
        QCOMPARE(buggy->kernel().findings.size(), std::size_t{1});
        QVERIFY(sock(*buggy, "b").released);
        auto fixed = run_scene(peek_race("set kernel 6.18\n"), std::nullopt, true);
        QVERIFY(fixed);
        QVERIFY2(fixed->kernel().findings.empty(), findings_of(*fixed).c_str());
        QVERIFY(!sock(*fixed, "a").released && !sock(*fixed, "b").released);
        const auto &ev = fixed->events();
        const std::size_t peek = index_of(ev, [](const Event &e) { return e.kind == EventKind::fds_peek; });
        QVERIFY(peek < ev.size());
        QCOMPARE(ev[peek].after, std::int64_t{1}); // unix_peek_seq bumped
        const std::size_t given_up = index_of(
            ev, [](const Event &e) { return e.kind == EventKind::vertex_dead && e.after == 5; }, peek);
        QVERIFY(given_up < ev.size());
        QVERIFY(narrate(ev[given_up], fixed->kernel()).find("unix_peek_seq") != std::string::npos);
        // The race broke in on the kworker, which runs the graph collector.
        const std::size_t sw = index_of(ev, [](const Event &e) { return e.kind == EventKind::task_switch; });
        QCOMPARE(fixed->kernel().tasks[ev[sw].a].kworker, true);
    }

    // CVE-2025-40214's stale value, without a race: before init-scc-index a new vertex takes the
    // scc_index of the vertex freed last (the slab's LIFO free list); with it, a fresh one.
    // And the collector's soundness check names the chain that still reaches a purged socket.
    void newVertexTakesTheSccIndexOfTheVertexFreedLast()
    {
        ParseResult r = load_scene_file(INFLIGHT_SOURCE_DIR "/scenes/bugs/cve-2025-40214-stale-scc-index.scn");
        QVERIFY(r.ok());
        for (const bool fixed : {false, true}) {
            auto run = run_variant(r.scene, fixed ? "fixed" : "buggy");
            const Simulation &sim = *run;
            std::vector<std::int64_t> fresh;
            for (const Event &e : sim.events())
                if (e.kind == EventKind::vertex_new && e.scene_line > 30)
                    fresh.push_back(e.after);
            QCOMPARE(fresh.size(), std::size_t{3}); // a, x, then b
            if (!fixed) {
                QCOMPARE(fresh, (std::vector<std::int64_t>{2, 2, 2})); // the spray's SCC
                QCOMPARE(sim.kernel().findings.size(), std::size_t{1});
                const Finding &f = sim.kernel().findings[0];
                QVERIFY2(f.message.find("fd 10 (c) -> socket c") != std::string::npos, f.message.c_str());
                QVERIFY(!sock(sim, "a").released);
                QCOMPARE(sock(sim, "a").receive_queue.size(), std::size_t{0}); // purged while reachable
            } else {
                // ++unix_vertex_max_scc_index: one past the last walk's highest SCC (a 2, x 3).
                QCOMPARE(fresh[2], std::int64_t{4});
                QVERIFY2(sim.kernel().findings.empty(), findings_of(sim).c_str());
                QCOMPARE(sock(sim, "a").receive_queue.size(), std::size_t{1});
            }
        }
    }

    // d82ba05263c6 (spec 5.11): a second queued run started while gc_in_progress was already
    // cleared; a peek at its verdict (nth=2: the second time a is judged) then goes unseen.
    void secondQueuedRunAndNth()
    {
        ParseResult r = load_scene_file(INFLIGHT_SOURCE_DIR "/scenes/bugs/gc-in-progress-peek-graph.scn");
        QVERIFY(r.ok());
        for (const bool fixed : {false, true}) {
            auto run = run_variant(r.scene, fixed ? "fixed" : "buggy");
            const Simulation &sim = *run;
            const auto &ev = sim.events();
            // The peeker broke in during collection #2, at its first verdict on a.
            const std::size_t second =
                index_of(ev, [](const Event &e) { return e.kind == EventKind::gc_begin && e.a == 2; });
            const std::size_t sw = index_of(
                ev, [&](const Event &e) { return e.kind == EventKind::task_switch && e.b == task_id(sim, "peeker"); });
            QVERIFY(second < sw && sw < ev.size());
            QCOMPARE(ev[sw - 1].kind, EventKind::vertex_dead);
            const std::size_t peek = index_of(
                ev, [](const Event &e) { return e.kind == EventKind::fds_peek; }, sw);
            QCOMPARE(ev[peek].after, std::int64_t{fixed ? 1 : 0}); // unix_peek_seq bumped only with the fix
            QCOMPARE(sim.kernel().findings.empty(), fixed);
            // A turn whose preempted task ran on meanwhile ends without a "resumes" switch.
            const auto resumes = std::count_if(
                ev.begin(), ev.end(), [](const Event &e) { return e.kind == EventKind::task_switch && e.after == 2; });
            QCOMPARE(resumes, 1L); // the peeker's turn hands back; the caller's (it slept) does not
        }
    }

    // `fput S` breaks in between the last fput and the release it defers; `scan S` between the
    // classic collector's scan of a queue and the walk of its skbs.
    void fputAndScanPoints()
    {
        auto sim = run_scene("socketpair x y\nspawn r when fput x {\n  close y\n}\nclose x\n", std::nullopt, true);
        QVERIFY(sim);
        const auto &ev = sim->events();
        const std::size_t deferred = index_of(ev, [&](const Event &e) { return e.kind == EventKind::fput_deferred; });
        QVERIFY(deferred + 1 < ev.size());
        QCOMPARE(ev[deferred + 1].kind, EventKind::task_switch);
        const std::size_t y_closed = index_of(
            ev, [&](const Event &e) { return e.kind == EventKind::fd_close && sim->kernel().label_of_id(e.a) == "y"; });
        const std::size_t x_released = index_of(ev, [&](const Event &e) {
            return e.kind == EventKind::sock_release && sim->kernel().label_of_id(e.a) == "x";
        });
        QVERIFY(y_closed < x_released && x_released < ev.size());

        auto scan = run_scene("set kernel 5.10\nsocketpair a a2\nsend a2 fds=a\nclose a\n"
                              "spawn r when scan a {\n  close a2\n}\ngc\n",
                              std::nullopt, true);
        QVERIFY(scan);
        const std::size_t sw =
            index_of(scan->events(), [](const Event &e) { return e.kind == EventKind::task_switch; });
        QVERIFY(sw > 0 && sw < scan->events().size());
        QCOMPARE(scan->events()[sw - 1].kind, EventKind::scan);
        QVERIFY2(scan->kernel().findings.empty(), findings_of(*scan).c_str());
    }

    // 6.10-rc's unix_del_edges() use-after-free (spec 5.7): a race's `delayed_fput` runs the
    // queued work on another CPU right after the purge's first destructor deferred a's release.
    // Without fpl-dead the second destructor reads a, its edges' successor, after that release
    // freed it: a WARN-like finding naming the step, a, and both code paths; the run goes on.
    // With fpl-dead the dead list's successor is not read: the same interleaving, no finding.
    void delayedFputOnAnotherCpuFreesTheSuccessorMidPurge()
    {
        const std::string body = "set cpus 2\nsocketpair a a2 dgram\nsend a2 fds=a\nsocketpair s t seqpacket\n"
                                 "send a2 fds=s,t\nclose a s t\nspawn kw0 cpu=0 when fput a {\n  delayed_fput\n}\ngc\n";
        for (const bool fixed : {false, true}) {
            auto sim = run_scene("set kernel 6.10\n" + std::string(fixed ? "" : "set fix fpl-dead off\n") + body,
                                 std::nullopt, true);
            QVERIFY(sim);
            const auto &ev = sim->events();
            const Kernel &k = sim->kernel();
            const std::uint32_t kw0 = task_id(*sim, "kw0");
            auto label = [&](const Event &e) { return k.label_of_id(e.a); };
            // The purge's two destructors, on the collector's kworker; a released by kw0 in between.
            const std::size_t first = index_of(
                ev, [](const Event &e) { return e.kind == EventKind::skb_free && e.fn == KFn::skb_queue_purge; });
            const std::size_t second = index_of(
                ev, [](const Event &e) { return e.kind == EventKind::skb_free && e.fn == KFn::skb_queue_purge; },
                first + 1);
            const std::size_t released =
                index_of(ev, [&](const Event &e) { return e.kind == EventKind::sock_release && label(e) == "a"; });
            QVERIFY(first < released && released < second && second < ev.size());
            QCOMPARE(ev[released].task, static_cast<std::uint16_t>(kw0));
            QVERIFY(k.tasks[ev[first].task].kworker && ev[second].task == ev[first].task);
            const std::size_t sw = index_of(ev, [](const Event &e) { return e.kind == EventKind::task_switch; });
            QVERIFY(sw > first && sw < released);
            QCOMPARE(ev[sw - 1].kind, EventKind::fput_deferred);
            QCOMPARE(label(ev[sw - 1]), std::string("a"));
            QVERIFY(sock(*sim, "a").released && sock(*sim, "s").released && sock(*sim, "t").released);
            QVERIFY(sim->finished() && !sim->stopped_by_finding());
            if (fixed) {
                QVERIFY2(k.findings.empty(), findings_of(*sim).c_str());
                continue;
            }
            QCOMPARE(k.findings.size(), std::size_t{1});
            const Finding &f = k.findings[0];
            QVERIFY(f.warning);
            QVERIFY2(f.invariant.find("use-after-free in unix_del_edges()") != std::string::npos, f.invariant.c_str());
            QVERIFY(f.step > ev[second].step); // in the second destructor, after its skb_free
            const std::string freed_at = "freed at step " + std::to_string(ev[released].step) + " by kw0";
            for (const char *part : {"reads a, the successor of s's edge", "__skb_queue_purge", "unix_del_edges",
                                     "delayed_fput -> __fput -> unix_release_sock", freed_at.c_str()})
                QVERIFY2(f.message.find(part) != std::string::npos, (std::string(part) + " in: " + f.message).c_str());
        }
        // Without the race the release waits for the collection's end (one kworker runs the
        // work items one after another): nothing is freed mid-purge, even without the fix.
        auto plain = run_scene("set kernel 6.10\nset fix fpl-dead off\nsocketpair a a2 dgram\nsend a2 fds=a\n"
                               "socketpair s t seqpacket\nsend a2 fds=s,t\nclose a s t\ngc\n",
                               std::nullopt, true);
        QVERIFY(plain);
        QVERIFY2(plain->kernel().findings.empty(), findings_of(*plain).c_str());
        QVERIFY(sock(*plain, "a").released);
    }

    // `delayed_fput` is another CPU's kworker at a race point: anywhere else it is an error.
    void delayedFputOnlyInARace()
    {
        const ParseResult outside = parse_scene("socketpair a b\ndelayed_fput\n", "t.scn");
        QVERIFY(!outside.ok());
        QVERIFY(std::any_of(outside.diagnostics.begin(), outside.diagnostics.end(), [](const Diagnostic &d) {
            return d.loc.line == 2 && d.message.find("belongs in a race's block") != std::string::npos;
        }));
        const ParseResult thread = parse_scene("socketpair a b\nspawn w {\n  delayed_fput\n}\n", "t.scn");
        QVERIFY(!thread.ok());
        QVERIFY(parse_scene("socketpair a b\nspawn w when fput a {\n  delayed_fput\n}\nclose a\n", "t.scn").ok());
        // With nothing queued at the point it runs nothing, and the run says so.
        auto sim = run_scene("socketpair a b\nspawn w when fput a {\n  delayed_fput\n}\nclose a\n");
        QVERIFY(sim);
        QVERIFY(std::any_of(sim->warnings().begin(), sim->warnings().end(), [](const auto &w) {
            return w.message.find("no delayed_fput work was queued") != std::string::npos;
        }));
    }

    void unreachedRaceWarnsAndIsNotWaitedFor()
    {
        auto sim = run_scene("socketpair a b\nspawn r when select a {\n  close b\n}\nwait\nclose a\n");
        QVERIFY(sim);
        QVERIFY(sim->finished());
        QCOMPARE(sim->warnings().size(), std::size_t{1});
        QVERIFY2(sim->warnings()[0].message.find("never ran") != std::string::npos, sim->warnings()[0].message.c_str());
        QCOMPARE(sim->warnings()[0].line, 2u);
        QVERIFY(!sock(*sim, "b").released); // its block never ran
    }

    // A race held at its spawn survives a checkpoint: the copy runs on to the same end.
    void heldRaceSurvivesACheckpointCopy()
    {
        auto scene = scene_of(peek_race("set kernel 5.10\nset fix peek-gc-lock off\n"));
        QVERIFY(scene);
        SimulationOptions o;
        o.record = false;
        Simulation original(scene, o);
        std::unique_ptr<Simulation> copy;
        while (const Event *e = original.step())
            if (!copy && e->kind == EventKind::task_spawn) {
                while (!original.quiescent() && original.step()) { }
                copy = std::make_unique<Simulation>(original);
            }
        QVERIFY(copy);
        copy->run();
        QCOMPARE(copy->steps(), original.steps());
        QCOMPARE(copy->now_ns(), original.now_ns());
        QCOMPARE(copy->kernel().findings.size(), original.kernel().findings.size());
    }
};

QTEST_GUILESS_MAIN(TestRaces)
#include "test_races.moc"
