// SPDX-License-Identifier: GPL-3.0-or-later
// The graph snapshot the views draw: roles per step, one edge per in-flight copy, embryo edges
// leading to their listener, processes with their fds, and a topology key that changes only
// when nodes, edges or fds do.
#include "inflight/graph_snapshot.hpp"
#include "inflight/kernel.hpp"
#include "scene_runner.hpp"

#include <QTest>

#include <set>

using namespace inflight;
using namespace inflight::test;

class TestSnapshot : public QObject {
    Q_OBJECT
private slots:
    void oneEdgePerInFlightCopy()
    {
        auto sim = run_scene("set gc graph\nsocketpair a b\nsocketpair c d\nsend a fds=c,c,d\nsend b fds=a\n");
        QVERIFY(sim);
        const GraphSnapshot g = snapshot_graph(sim->kernel());
        QCOMPARE(g.nodes.size(), std::size_t(4));
        QCOMPARE(g.edges.size(), std::size_t(4)); // c twice (never merged), d, a
        std::size_t c_to_b = 0;
        std::set<std::uint64_t> ids;
        for (const SnapshotEdge &e : g.edges) {
            ids.insert(e.id);
            c_to_b += e.from == sock(*sim, "c").id && e.to == sock(*sim, "b").id;
        }
        QCOMPARE(c_to_b, std::size_t(2));
        QCOMPARE(ids.size(), g.edges.size());
        long inflight = 0;
        for (const SnapshotNode &n : g.nodes)
            inflight += n.inflight;
        QCOMPARE(inflight, 4L);
    }

    void embryoEdgesLeadToTheListener()
    {
        for (GcEra era : {GcEra::classic, GcEra::graph}) {
            auto sim = run_scene("socket l\nbind l\nlisten l\nsocket c\nconnect c l\nsocketpair x y\nsend c fds=x\n", era);
            QVERIFY(sim);
            const GraphSnapshot g = snapshot_graph(sim->kernel());
            const auto embryo = sock(*sim, "embryo(c)").id, l = sock(*sim, "l").id;
            QVERIFY(g.nodes[embryo].embryo);
            QCOMPARE(g.nodes[embryo].listener_sock, l);
            QVERIFY(g.nodes[l].listener);
            QCOMPARE(g.edges.size(), std::size_t(1));
            QCOMPARE(g.edges[0].to, embryo);
            QCOMPARE(g.edges[0].effective_to, l);
        }
    }

    void processesListTheirFds()
    {
        auto sim = run_scene("user alice\nprocess p user=alice\nsocketpair a b\np: socket s\nclose b\n");
        QVERIFY(sim);
        const GraphSnapshot g = snapshot_graph(sim->kernel());
        QCOMPARE(g.processes.size(), std::size_t(2));
        QCOMPARE(g.processes[0].fds.size(), std::size_t(1));
        QCOMPARE(g.processes[0].fds[0].name, std::string("a"));
        QCOMPARE(g.processes[1].user, std::string("alice"));
        QCOMPARE(g.processes[1].fds[0].sock, sock(*sim, "s").id);
    }

    void rolesFollowTheClassicCollection()
    {
        auto scene = scene_of("set gc classic\nsocketpair a a2\nsocketpair b b2\nsocketpair h h2\nsend a2 fds=b\n"
                              "send b2 fds=a\nsend h2 fds=h\nclose a b h a2\n");
        Simulation sim(scene);
        std::set<GcRole> seen_a;
        bool garbage_seen = false;
        const std::uint32_t a = 0, b = 2; // creation order: a a2 b b2 ...
        while (sim.step()) {
            const GraphSnapshot g = snapshot_graph(sim.kernel());
            if (g.nodes.size() > b) {
                seen_a.insert(g.nodes[a].role);
                garbage_seen |= g.nodes[b].role == GcRole::garbage;
            }
        }
        QCOMPARE(sim.kernel().label_of_id(a), std::string("a"));
        QVERIFY(seen_a.count(GcRole::idle));
        QVERIFY(seen_a.count(GcRole::inflight));
        QVERIFY(seen_a.count(GcRole::candidate));
        QVERIFY(seen_a.count(GcRole::garbage));
        QVERIFY(seen_a.count(GcRole::released));
        QVERIFY(garbage_seen);
    }

    void rolesFollowTheGraphWalk()
    {
        auto scene = scene_of("set gc graph\nsocketpair a a2\nsocketpair b b2\nsend a2 fds=b\nsend b2 fds=a\n"
                              "socketpair k k2\nsend k2 fds=k\nclose b a2 b2\n");
        Simulation sim(scene);
        std::set<GcRole> a_roles;
        while (sim.step()) {
            const GraphSnapshot g = snapshot_graph(sim.kernel());
            if (!g.nodes.empty())
                a_roles.insert(g.nodes[0].role);
        }
        QVERIFY(a_roles.count(GcRole::candidate)); // on the walk's stack
        QVERIFY(a_roles.count(GcRole::not_cycle)); // its SCC judged alive (a is still open)
        QVERIFY(!sock(sim, "a").released);
    }

    void topologyKeyChangesOnlyWithTopology()
    {
        auto scene = scene_of("set gc classic\nsocketpair a a2\nsocketpair b b2\nsend a2 fds=b\nsend b2 fds=a\n"
                              "close b\nsocket t\nclose t\n");
        Simulation sim(scene);
        std::uint64_t key = snapshot_graph(sim.kernel()).topology_key;
        std::size_t changes = 0, gc_steps = 0;
        while (const Event *e = sim.step()) {
            const std::uint64_t k = snapshot_graph(sim.kernel()).topology_key;
            if (sim.gc_in_progress() && e->kind != EventKind::gc_begin) {
                ++gc_steps;
                QCOMPARE(k, key); // a collection that frees nothing never changes the topology
            }
            changes += k != key;
            key = k;
        }
        QVERIFY(gc_steps > 5);
        QVERIFY(changes >= 6); // sockets created, edges added, fds closed
    }
};

QTEST_GUILESS_MAIN(TestSnapshot)
#include "test_snapshot.moc"
