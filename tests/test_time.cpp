// SPDX-License-Identifier: GPL-3.0-or-later
// Modelled time and concurrency: the wait rules of each collector era at their exact thresholds,
// unix_gc_lock contention, and deterministic interleavings.
#include "scene_runner.hpp"

#include "inflight/report.hpp"

#include <QTest>

#include <algorithm>
#include <string>
#include <utility>

using namespace inflight;
using namespace inflight::test;

namespace {

// Runs fast-forwarded (as the CLI does): these scenes hold 16,000 sockets in flight.
std::unique_ptr<Simulation> run_fast(const std::string &text, GcEra era)
{
    auto scene = scene_of(text);
    if (!scene)
        return nullptr;
    SimulationOptions o;
    o.era = era;
    o.record = false;
    o.fast_forward = true;
    auto sim = std::make_unique<Simulation>(scene, o);
    sim->run();
    return sim;
}

// `count` sockets put in flight by the main process (root), 250 per message, kept open.
std::string in_flight(int count, const std::string &prefix = "s")
{
    std::string t = "set nofile 100000\nsocketpair carrier_a carrier_b dgram\nrepeat " + std::to_string(count) +
                    " as i {\n  socket " + prefix + "$i dgram\n}\n";
    for (int first = 0; first < count; first += 250) {
        const int last = std::min(first + 249, count - 1);
        t += "send carrier_a fds=" + prefix + "{" + std::to_string(first) + ".." + std::to_string(last) + "}\n";
    }
    return t;
}

// The samples of one task's sendmsg calls (task by name).
std::vector<LatencySample> sends_of(const Simulation &sim, const std::string &task)
{
    std::vector<LatencySample> out;
    for (const LatencySample &s : sim.latencies())
        if (s.fn == KFn::sys_sendmsg && s.task < sim.tasks().size() && sim.tasks()[s.task].name == task)
            out.push_back(s);
    return out;
}

const char *era_label(GcEra e) { return std::string_view(era_name(e)).data(); }

} // namespace

class TestTime : public QObject {
    Q_OBJECT

private slots:
    // UNIX_INFLIGHT_TRIGGER_GC is a strict "greater than": a sendmsg with exactly 16,000 in
    // flight starts no collection; with 16,001 it does, in every era.
    void triggerThreshold_data()
    {
        QTest::addColumn<int>("era");
        QTest::addColumn<int>("inflight");
        QTest::addColumn<bool>("collects");
        for (GcEra e : {GcEra::classic, GcEra::async, GcEra::graph}) {
            QTest::newRow((std::string(era_label(e)) + "/16000").c_str()) << int(e) << 16000 << false;
            QTest::newRow((std::string(era_label(e)) + "/16001").c_str()) << int(e) << 16001 << true;
        }
    }
    void triggerThreshold()
    {
        QFETCH(int, era);
        QFETCH(int, inflight);
        QFETCH(bool, collects);
        // The last fd-carrying send sees one fewer in flight than it leaves: no trigger yet.
        const std::string text = in_flight(inflight) + "socketpair x y dgram\nsend x\n";
        auto sim = run_fast(text, static_cast<GcEra>(era));
        QVERIFY(sim);
        QVERIFY2(sim->kernel().findings.empty(), findings_of(*sim).c_str());
        QCOMPARE(sim->kernel().unix_tot_inflight, static_cast<unsigned long>(inflight));
        std::size_t by_send = 0;
        for (const GcRun &r : sim->kernel().gc_runs)
            by_send += r.trigger.rfind("sendmsg", 0) == 0;
        QCOMPARE(by_send, std::size_t(collects ? 1 : 0));
    }

    // Who waits, at UNIX_INFLIGHT_SANE_USER. With 16,001 in flight a send starts a collection;
    // from 6.9 on only a sender of AF_UNIX fds whose user already has 2024 in flight waits for
    // it (flush_work); with 2023 it does not. Up to 6.8 the sender runs it itself.
    void saneUserThreshold_data()
    {
        QTest::addColumn<int>("era");
        QTest::addColumn<int>("own");
        QTest::addColumn<bool>("waits");
        for (GcEra e : {GcEra::classic, GcEra::async, GcEra::graph}) {
            QTest::newRow((std::string(era_label(e)) + "/2023").c_str()) << int(e) << 2023 << (e == GcEra::classic);
            QTest::newRow((std::string(era_label(e)) + "/2024").c_str()) << int(e) << 2024 << true;
        }
    }
    void saneUserThreshold()
    {
        QFETCH(int, era);
        QFETCH(int, own);
        QFETCH(bool, waits);
        std::string text = "set cpus 2\nuser bob\nprocess pb user=bob\n" + in_flight(16001 - own);
        // bob's own sockets: `own` in flight, sent by bob, so user->unix_inflight == own.
        text += "spawn pb {\n  socketpair bc bd dgram\n  repeat " + std::to_string(own) +
                " as i {\n    socket b$i dgram\n  }\n";
        for (int first = 0; first < own; first += 250)
            text += "  send bc fds=b{" + std::to_string(first) + ".." + std::to_string(std::min(first + 249, own - 1)) +
                    "}\n";
        text += "}\nwait\nexpect inflight s0 1\n"; // expect: lets queued collections finish first
        text += "spawn pb {\n  send bc fds=bd\n}\nwait\n";
        auto sim = run_fast(text, static_cast<GcEra>(era));
        QVERIFY(sim);
        QVERIFY2(sim->kernel().findings.empty(), findings_of(*sim).c_str());
        const auto sends = sends_of(*sim, "pb");
        QVERIFY(!sends.empty());
        const LatencySample &last = sends.back();
        QCOMPARE(last.kind, CallKind::with_unix_fds);
        QVERIFY2((last.waited_ns > 0) == waits, qPrintable(QString("waited %1 ns").arg(last.waited_ns)));
        if (waits)
            QVERIFY(last.duration_ns > last.waited_ns);
    }

    // A sender with no fd: up to 6.8 it runs (or waits for) the collection; from 6.9 it never
    // waits, whatever is in flight.
    void noFdSender_data()
    {
        QTest::addColumn<int>("era");
        QTest::addColumn<bool>("waits");
        QTest::newRow("classic") << int(GcEra::classic) << true;
        QTest::newRow("async") << int(GcEra::async) << false;
        QTest::newRow("graph") << int(GcEra::graph) << false;
    }
    void noFdSender()
    {
        QFETCH(int, era);
        QFETCH(bool, waits);
        const std::string text =
            "set cpus 2\n" + in_flight(16001) + "socketpair x y dgram\nspawn sender {\n  send x\n  send x\n}\nwait\n";
        auto sim = run_fast(text, static_cast<GcEra>(era));
        QVERIFY(sim);
        const auto sends = sends_of(*sim, "sender");
        QCOMPARE(sends.size(), std::size_t(2));
        for (const LatencySample &s : sends) {
            QCOMPARE(s.kind, CallKind::no_fd);
            QCOMPARE(s.waited_ns > 0, waits);
        }
        if (!waits) // the 6.9 figure the sendmsg cost was fitted to
            QCOMPARE(sends.back().duration_ns, std::uint64_t(410));
    }

    // Classic: every sendmsg waits while a collection runs, even one that starts none itself:
    // a collection on cpu 0 (close -> unix_gc) makes the sender on cpu 1 sleep on unix_gc_wait.
    void classicSenderWaitsForRunningCollection()
    {
        const std::string text =
            "set cpus 2\n" + in_flight(4000) +
            "socketpair x y dgram\nsocketpair p q dgram\n"
            "spawn sender cpu=1 {\n  repeat 20 as i {\n    socket t$i dgram\n  }\n  send x\n}\nclose p\n";
        auto sim = run_fast(text, GcEra::classic);
        QVERIFY(sim);
        QVERIFY2(sim->kernel().findings.empty(), findings_of(*sim).c_str());
        QCOMPARE(sim->kernel().gc_runs.size(), std::size_t(1)); // by close(): tot_inflight != 0
        const GcRun &run = sim->kernel().gc_runs.front();
        const auto sends = sends_of(*sim, "sender");
        QCOMPARE(sends.size(), std::size_t(1));
        // The sender (after 20 socket() calls, ~20 us) called sendmsg while the collection ran
        // (~230 us over 4,000 sockets) and returned only after it.
        QVERIFY(sends[0].start_ns >= run.start_ns && sends[0].start_ns < run.end_ns);
        QVERIFY(sends[0].start_ns + sends[0].duration_ns > run.end_ns);
        QVERIFY(sends[0].waited_ns > 0);
    }

    // unix_gc_lock: a sane sender of an AF_UNIX fd does not wait for the collection (6.9), but
    // unix_inflight() needs the lock the collector holds, so it spins; the same sender without
    // an fd does not.
    void lockContention_data()
    {
        QTest::addColumn<bool>("with_fd");
        QTest::newRow("AF_UNIX fd") << true;
        QTest::newRow("no fd") << false;
    }
    void lockContention()
    {
        QFETCH(bool, with_fd);
        std::string text = "set cpus 3\nuser bob\nprocess pb user=bob cpu=1\n" + in_flight(16001) +
                           "spawn pb {\n  socketpair x y dgram\n  socket z dgram\n  repeat 20 {\n    send x\n  }\n";
        text += with_fd ? "  send x fds=z\n" : "  send x\n";
        text += "}\nwait\n";
        auto sim = run_fast(text, GcEra::async);
        QVERIFY(sim);
        QVERIFY2(sim->kernel().findings.empty(), findings_of(*sim).c_str());
        const auto sends = sends_of(*sim, "pb");
        QCOMPARE(sends.size(), std::size_t(21));
        const LatencySample &last = sends.back();
        QCOMPARE(last.waited_ns, std::uint64_t(0)); // bob is a sane user
        if (with_fd) {
            QVERIFY2(last.spun_ns > 100'000, qPrintable(QString("spun %1 ns").arg(last.spun_ns)));
            QVERIFY(sim->kernel().unix_gc_lock.contended >= 1);
            QVERIFY(last.duration_ns >= last.spun_ns);
        } else {
            QCOMPARE(last.spun_ns, std::uint64_t(0));
            QCOMPARE(last.duration_ns, std::uint64_t(410));
        }
    }

    // The same scene gives the same interleaving, event for event and nanosecond for
    // nanosecond; with equal clocks the task on the lower CPU goes first.
    void deterministicInterleaving()
    {
        const std::string text =
            "set cpus 4\nsocketpair a b dgram\nsocketpair c d dgram\n"
            "spawn left cpu=1 {\n  repeat 5 {\n    send a fds=c\n    recv b fds=got\n    close got\n  }\n}\n"
            "spawn right cpu=2 {\n  repeat 5 {\n    send c fds=a\n    recv d fds=got2\n    close got2\n  }\n}\n"
            "wait\nclose a b c d\n";
        auto run = [&] {
            auto scene = scene_of(text);
            SimulationOptions o;
            o.era = GcEra::graph;
            o.record = true;
            o.checked = true;
            auto sim = std::make_unique<Simulation>(scene, o);
            sim->run();
            return sim;
        };
        auto one = run(), two = run();
        QVERIFY(one && two);
        QVERIFY2(one->kernel().findings.empty(), findings_of(*one).c_str());
        QCOMPARE(one->events().size(), two->events().size());
        for (std::size_t i = 0; i < one->events().size(); ++i) {
            const Event &x = one->events()[i], &y = two->events()[i];
            QVERIFY(x.kind == y.kind && x.task == y.task && x.time == y.time && x.a == y.a && x.b == y.b);
        }
        // Both spawned tasks start at the same clock: cpu 1 ("left", task 2) goes before cpu 2.
        std::vector<std::uint16_t> first_begins;
        for (const Event &e : one->events())
            if (e.kind == EventKind::stmt_begin && e.task >= 2 &&
                std::find(first_begins.begin(), first_begins.end(), e.task) == first_begins.end())
                first_begins.push_back(e.task);
        QCOMPARE(first_begins.size(), std::size_t(2));
        QCOMPARE(one->tasks()[first_begins[0]].name, std::string("left"));
        // Events of the two tasks interleave (both run, neither waits for the other to finish).
        std::size_t switches = 0;
        std::uint16_t last = 0;
        for (const Event &e : one->events())
            if (e.task >= 2) {
                switches += last && e.task != last;
                last = e.task;
            }
        QVERIFY(switches >= 4);
        // Every message was received, so closing every fd frees every socket.
        QVERIFY(sock(*one, "a").released && sock(*one, "c").released);
    }

    // A collection's own duration is reported: it grows with what it walks.
    void collectionDurationGrowsWithWork()
    {
        auto small = run_fast("set cpus 2\n" + in_flight(1000) + "gc\n", GcEra::classic);
        auto large = run_fast("set cpus 2\n" + in_flight(8000) + "gc\n", GcEra::classic);
        QVERIFY(small && large);
        const GcRun &a = small->kernel().gc_runs.back(), &b = large->kernel().gc_runs.back();
        QVERIFY(a.end_ns > a.start_ns);
        const double ratio = double(b.end_ns - b.start_ns) / double(a.end_ns - a.start_ns);
        QVERIFY2(ratio > 6 && ratio < 8.5, qPrintable(QString("ratio %1").arg(ratio)));
        QVERIFY(b.micro_steps > a.micro_steps);
    }

    // `set cost` changes the model's clock, and the report prints the table in force.
    void costOverride()
    {
        auto base = run_fast("set cpus 2\nsocketpair a b dgram\nspawn s {\n  send a\n}\nwait\n", GcEra::graph);
        auto slow = run_fast("set cpus 2\nset cost sendmsg 1290\nsocketpair a b dgram\nspawn s {\n  send a\n}\nwait\n",
                             GcEra::graph);
        QVERIFY(base && slow);
        QCOMPARE(sends_of(*slow, "s").at(0).duration_ns, sends_of(*base, "s").at(0).duration_ns + 1000);
        const std::string json = report_json(*slow);
        QVERIFY(json.find("\"sendmsg\": 1290") != std::string::npos);
    }

    // The latency log of a copied state shares the samples it has in common with the original
    // (AppendOnlyLog): each log still reads and grows as a value of its own.
    void latencyLogCopiesShareAndStayIndependent()
    {
        constexpr std::size_t n = 3 * LatencyLog::kChunk + 17; // three full chunks and a partial one
        LatencyLog a;
        for (std::size_t i = 0; i < n; ++i)
            a.emplace_back().duration_ns = i;
        LatencyLog b = a;
        QCOMPARE(b.size(), n);
        QCOMPARE(b.unshared_bytes(), 17 * sizeof(LatencySample)); // only the part being filled
        // Shared, not copied: a full chunk is the same memory in both.
        QCOMPARE(&std::as_const(b)[5], &std::as_const(a)[5]);
        QVERIFY(&std::as_const(b)[n - 1] != &std::as_const(a)[n - 1]);
        // Growing either leaves the other as it was.
        b.emplace_back().duration_ns = 1000000;
        a.emplace_back().duration_ns = 2000000;
        QCOMPARE(std::as_const(a)[n].duration_ns, std::uint64_t(2000000));
        QCOMPARE(std::as_const(b)[n].duration_ns, std::uint64_t(1000000));
        // A write to a shared sample copies its chunk first.
        b[5].duration_ns = 7;
        QCOMPARE(std::as_const(a)[5].duration_ns, std::uint64_t(5));
        QCOMPARE(std::as_const(b)[5].duration_ns, std::uint64_t(7));
        QCOMPARE(std::as_const(b)[6].duration_ns, std::uint64_t(6)); // the rest of the chunk came along
        for (std::size_t i : {std::size_t(0), LatencyLog::kChunk, 2 * LatencyLog::kChunk + 3, n - 1})
            QCOMPARE(std::as_const(a)[i].duration_ns, std::uint64_t(i));
        // Appending past a chunk boundary starts a new part to fill; the full chunk is shared.
        LatencyLog c;
        for (std::size_t i = 0; i <= LatencyLog::kChunk; ++i)
            c.emplace_back().duration_ns = i;
        const LatencyLog d = c;
        QCOMPARE(d.unshared_bytes(), sizeof(LatencySample));
        QCOMPARE(&d[0], &std::as_const(c)[0]);
        QCOMPARE(d[LatencyLog::kChunk].duration_ns, std::uint64_t(LatencyLog::kChunk));
    }

    // A restored checkpoint carries the samples recorded before it, equal to the original's.
    void restoredStateKeepsItsLatencySamples()
    {
        auto sim = run_scene("scene \"t\"\nsocketpair a b\nrepeat 50 {\n  send a fds=b\n}\n");
        QVERIFY(sim);
        QVERIFY(sim->latencies().size() >= 50);
        auto frozen = Simulation::frozen_copy(*sim);
        Simulation restored(*frozen);
        QCOMPARE(restored.latencies().size(), sim->latencies().size());
        for (std::size_t i = 0; i < sim->latencies().size(); ++i) {
            QCOMPARE(restored.latencies()[i].duration_ns, sim->latencies()[i].duration_ns);
            QCOMPARE(restored.latencies()[i].last_step, sim->latencies()[i].last_step);
        }
    }
};

QTEST_GUILESS_MAIN(TestTime)
#include "test_time.moc"
