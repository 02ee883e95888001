// SPDX-License-Identifier: GPL-3.0-or-later
// Autobind and abstract names through the kernel model's syscalls: EADDRINUSE, per-type name
// spaces, the probe events, the sequential counter's race, ENOSPC at exactly 2^20 names, and the
// random-v1 loop that would never end.
#include "scene_runner.hpp"

#include "inflight/abstract_namespace.hpp"
#include "inflight/algorithm_listing.hpp"

#include <QTest>

#include <algorithm>
#include <functional>
#include <string>

using namespace inflight;
using namespace inflight::test;

namespace {

std::uint16_t l_of(AlgoLine l) { return static_cast<std::uint16_t>(l); }

std::vector<Event> probes_of(const Simulation &sim, const std::string &label)
{
    std::vector<Event> out;
    const std::uint32_t id = sock(sim, label).id;
    for (const Event &e : sim.events())
        if (e.kind == EventKind::autobind_probe && e.a == id)
            out.push_back(e);
    return out;
}

// Fast-forwarded: runs of taken names are walked in bulk. `each` sees every event still handed
// out (statements, lock spins, a bind's failure).
std::unique_ptr<Simulation> run_fast(const std::string &text, const std::function<void(const Event &)> &each = {})
{
    auto scene = scene_of(text);
    if (!scene)
        return nullptr;
    SimulationOptions o;
    o.record = false;
    o.fast_forward = true;
    auto sim = std::make_unique<Simulation>(scene, o);
    while (const Event *e = sim->step())
        if (each)
            each(*e);
    return sim;
}

const std::string kFill =
    "set nofile 1100000\nset limit 1100000\nrepeat 1048576 as i {\n  socket d$i dgram\n  bind d$i\n}\n";

} // namespace

class TestAutobind : public QObject {
    Q_OBJECT

private slots:
    void explicitNamesPerType()
    {
        auto sim = run_scene("socket a dgram\nbind a @srv\nsocket b dgram\nbind b @srv\nexpect error EADDRINUSE\n"
                             "socket c stream\nbind c @srv\nexpect alive a c\n",
                             GcEra::graph, true);
        QVERIFY(sim);
        QCOMPARE(sim->expectations_failed(), std::size_t(0));
        QVERIFY(sim->warnings().empty());
        const Kernel &k = sim->kernel();
        QCOMPARE(k.address_of(sock(*sim, "a")), std::string("srv"));
        QCOMPARE(k.address_of(sock(*sim, "c")), std::string("srv"));
        QCOMPARE(k.abstract_ns.owner_of_name("srv", SockType::dgram), sock(*sim, "a").id);
        QCOMPARE(k.abstract_ns.owner_of_name("srv", SockType::stream), sock(*sim, "c").id);
        // Releasing the socket frees its name for the next bind.
        auto again = run_scene("socket a dgram\nbind a @srv\nclose a\nsocket b dgram\nbind b @srv\nexpect alive b\n",
                               GcEra::graph);
        QVERIFY(again && again->warnings().empty() && again->expectations_failed() == 0);
    }

    // An explicit five-hex-digit name is an autobind name: the sequential counter (starting at
    // 1) finds @00001 taken, and takes @00002 at its second probe.
    void explicitHexNameCollidesWithAutobind()
    {
        auto sim = run_scene(
            "set autobind sequential\nsocket a dgram\nbind a @00001\nsocket b dgram\nbind b\nexpect alive b\n",
            GcEra::graph, true);
        QVERIFY(sim);
        const auto probes = probes_of(*sim, "b");
        QCOMPARE(probes.size(), std::size_t(2));
        QCOMPARE(probes[0].b, 1u);
        QCOMPARE(probes[0].after, 1);  // taken
        QCOMPARE(probes[0].before, 1); // one chain entry compared: a's name, a hit at the head
        QCOMPARE(probes[0].c, autobind_bucket(1, SockType::dgram));
        QCOMPARE(probes[1].b, 2u);
        QCOMPARE(probes[1].after, 0);
        QCOMPARE(sim->kernel().address_of(sock(*sim, "b")), std::string("00002"));
        // A stream socket's sequential autobind is not disturbed by the dgram name @00001 ...
        // ... but shares the one static counter: it gets @00003.
        auto shared = run_scene("set autobind sequential\nsocket a dgram\nbind a @00001\nsocket b dgram\nbind b\n"
                                "socket c stream\nbind c\nexpect alive c\n",
                                GcEra::graph, true);
        QCOMPARE(shared->kernel().address_of(sock(*shared, "c")), std::string("00003"));
        QCOMPARE(probes_of(*shared, "c").size(), std::size_t(1));
    }

    // Each probe carries its line of unix_autobind()'s listing: a taken name the "taken" line, a
    // free one the lookup, then the bind itself; a full space ends on the give-up test.
    void probesCarryTheirListingLines()
    {
        auto line = [](AlgoLine l) { return static_cast<std::uint16_t>(l); };
        auto sim = run_scene("set autobind sequential\nsocket a dgram\nbind a @00001\nsocket b dgram\nbind b\n",
                             GcEra::graph, true);
        QVERIFY(sim);
        std::vector<std::uint16_t> lines;
        for (const Event &e : sim->events())
            if (e.fn == KFn::unix_autobind)
                lines.push_back(e.algo_line);
        const std::vector<std::uint16_t> expected{line(AlgoLine::autobind_taken), line(AlgoLine::autobind_lookup),
                                                  line(AlgoLine::autobind_bound)};
        QCOMPARE(lines, expected);
        for (AutobindMode m : {AutobindMode::sequential, AutobindMode::random_v1, AutobindMode::random}) {
            const auto &listing = autobind_listing(m);
            for (std::uint16_t l : expected)
                QVERIFY(std::any_of(listing.begin(), listing.end(),
                                    [&](const ListingLine &x) { return static_cast<std::uint16_t>(x.id) == l; }));
            QCOMPARE(&listing_of_line(l_of(AlgoLine::autobind_give_up), GcEra::graph, m), &listing);
        }
        QCOMPARE(&listing_of_line(l_of(AlgoLine::graph_enter), GcEra::graph, AutobindMode::random),
                 &algorithm_listing(GcEra::graph));
    }

    // Implicit autobind: an unbound datagram socket with SO_PASSCRED gets a name when it sends.
    void implicitAutobindOnSend()
    {
        auto sim = run_scene("socket srv dgram\nbind srv @srv\nsocket c dgram\nsetsockopt c passcred=on\n"
                             "send c to=@srv\nexpect queue srv 1\n",
                             GcEra::graph, true);
        QVERIFY(sim && sim->expectations_failed() == 0);
        QCOMPARE(probes_of(*sim, "c").size(), std::size_t(1));
        QCOMPARE(sim->kernel().address_of(sock(*sim, "c")).size(), std::size_t(5));
        // The autobind is timed on its own, inside the sendmsg that triggered it.
        QCOMPARE(sim->latencies().size(), std::size_t(2)); // a bind by name is not a timed call
        QCOMPARE(sim->latencies()[0].kind, CallKind::autobind);
        QCOMPARE(sim->latencies()[1].fn, KFn::sys_sendmsg);
        QVERIFY(sim->latencies()[1].duration_ns > sim->latencies()[0].duration_ns);
    }

    // The race of seed 001: two binders on two CPUs at the same time. The shared counter makes
    // the second try the first's name and retry; random starts do not collide.
    void sequentialRace_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<bool>("collides");
        QTest::newRow("sequential") << "sequential" << true;
        QTest::newRow("random") << "random" << false;
    }
    void sequentialRace()
    {
        QFETCH(QString, mode);
        QFETCH(bool, collides);
        auto sim = run_scene("set cpus 3\nset autobind " + mode.toStdString() +
                                 "\nspawn one cpu=0 {\n  socket a dgram\n  bind a\n}\nspawn two cpu=1 {\n  socket b "
                                 "dgram\n  bind b\n}\nwait\n",
                             GcEra::graph, true);
        QVERIFY(sim);
        QVERIFY2(sim->kernel().findings.empty(), findings_of(*sim).c_str());
        const auto a = probes_of(*sim, "a"), b = probes_of(*sim, "b");
        QCOMPARE(a.size(), std::size_t(1));
        QCOMPARE(b.size() > 1, collides);
        if (collides) {
            QCOMPARE(b.front().b, a.front().b); // the same name, tried after a took it
            QCOMPARE(b.front().after, 1);
            // b waited for the bucket lock a held.
            bool spun = false;
            for (const Event &e : sim->events())
                spun = spun || (e.kind == EventKind::lock_spin && e.task == 3);
            QVERIFY(spun);
        }
        QVERIFY(sim->kernel().address_of(sock(*sim, "a")) != sim->kernel().address_of(sock(*sim, "b")));
    }

    // The exact boundary: all 2^20 datagram names bind, the next bind fails with ENOSPC after
    // exactly 2^20 probes, and a stream socket still binds.
    void enospcAtTwoToTheTwenty()
    {
        std::uint16_t give_up_line = 0;
        auto sim = run_fast(
            kFill + "socket last dgram\nbind last\nexpect error ENOSPC\nsocket s stream\nbind s\nexpect alive s\n",
            [&](const Event &e) {
                if (e.kind == EventKind::autobind_fail)
                    give_up_line = e.algo_line;
            });
        QVERIFY(sim);
        QCOMPARE(give_up_line, l_of(AlgoLine::autobind_give_up)); // the listing's -ENOSPC line
        QVERIFY2(sim->kernel().findings.empty(), findings_of(*sim).c_str());
        QCOMPARE(sim->expectations_failed(), std::size_t(0));
        QVERIFY(sim->warnings().empty());
        const Kernel &k = sim->kernel();
        QCOMPARE(k.abstract_ns.autobind_names_taken(SockType::dgram), kAutobindSpace);
        QCOMPARE(k.abstract_ns.names_taken(SockType::stream), 1u);
        QCOMPARE(k.abstract_ns.stats().enospc, std::uint64_t(1));
        std::uint32_t failed_probes = 0;
        for (const LatencySample &s : sim->latencies())
            if (s.failed)
                failed_probes = s.probes;
        QCOMPARE(failed_probes, kAutobindSpace);
    }

    // random-v1 over a full space: a start of 2^20 or more can never equal the masked counter.
    // The model stops the run with the diagnosis after 2^20 probes instead of hanging.
    void randomV1LoopsForever()
    {
        auto sim = run_fast("set autobind random-v1\n" + kFill + "socket last dgram\nbind last\n");
        QVERIFY(sim);
        QVERIFY(sim->stopped_by_finding());
        QCOMPARE(sim->kernel().findings.size(), std::size_t(1));
        const Finding &f = sim->kernel().findings.front();
        QCOMPARE(f.invariant, std::string("autobind would loop forever"));
        QVERIFY2(f.message.find("1048576 probes") != std::string::npos, f.message.c_str());
        QVERIFY2(f.message.find("start 0x") != std::string::npos, f.message.c_str());
        QCOMPARE(sim->kernel().abstract_ns.stats().endless, std::uint64_t(1));
    }
};

QTEST_GUILESS_MAIN(TestAutobind)
#include "test_autobind.moc"
