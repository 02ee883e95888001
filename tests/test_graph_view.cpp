// SPDX-License-Identifier: GPL-3.0-or-later
// The central graph view: one item per socket, per in-flight copy and per process; layouts
// that keep survivors in place, drop stale results and never overlap boxes; selection, search,
// aggregates for very large graphs, and the exports. Runs offscreen (QT_QPA_PLATFORM=offscreen).
#include "graph/aggregate_item.h"
#include "graph/display_graph.h"
#include "graph/edge_item.h"
#include "graph/fd_edge_item.h"
#include "graph/graph_panel.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/graphviz_layout.h"
#include "graph/legend_bar.h"
#include "graph/overview_view.h"
#include "graph/peer_link_item.h"
#include "graph/process_item.h"
#include "graph/socket_item.h"
#include "graph/step_subject.h"
#include "inflight/graph_snapshot.hpp"
#include "inflight/kernel.hpp"
#include "player_controller.h"
#include "settle_jobs.hpp"
#include "theme.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QLocale>
#include <QPainter>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <functional>
#include <map>

using inflight::GcRole;
using inflight::GraphSnapshot;

namespace {

QString sceneFile(const char *name) { return QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/") + QLatin1String(name); }

GraphSnapshot snapshotOf(const PlayerController &c) { return inflight::snapshot_graph(c.sim().kernel()); }

// Steps until `stop` holds for the current snapshot (or the run ends); false if it never did.
bool stepUntil(PlayerController &c, const std::function<bool(const GraphSnapshot &)> &stop, int max_steps = 100000)
{
    for (int i = 0; i < max_steps; ++i) {
        if (stop(snapshotOf(c)))
            return true;
        if (c.atEnd())
            return false;
        c.stepInto();
    }
    return false;
}

bool anyOnHitlist(const GraphSnapshot &s)
{
    for (const auto &e : s.edges)
        if (e.on_hitlist)
            return true;
    return false;
}

// Distance from a scene point to a node's drawn outline.
double distanceToOutline(const NodeItem *node, const QPointF &scene_point)
{
    const QPolygonF poly = node->outline().toFillPolygon();
    const QPointF p = node->mapFromScene(scene_point);
    double best = 1e300;
    for (int i = 0; i < poly.size(); ++i) {
        const QPointF a = poly[i], b = poly[(i + 1) % poly.size()];
        const QPointF ab = b - a;
        const double len2 = QPointF::dotProduct(ab, ab);
        const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / len2, 0.0, 1.0) : 0.0;
        const QPointF q = a + ab * t;
        best = std::min(best, std::hypot(p.x() - q.x(), p.y() - q.y()));
    }
    return best;
}

bool finite(const QPointF &p) { return std::isfinite(p.x()) && std::isfinite(p.y()); }

// Top-level node boxes (sockets not inside a listener, processes, aggregates).
QList<NodeItem *> topLevelNodes(const GraphScene &scene)
{
    QList<NodeItem *> nodes;
    for (SocketItem *s : scene.socketItems())
        if (!s->parentItem())
            nodes.push_back(s);
    for (ProcessItem *p : scene.processItems())
        nodes.push_back(p);
    for (AggregateItem *a : scene.aggregateItems())
        nodes.push_back(a);
    return nodes;
}

// Waits for a GraphScene used without a panel.
bool waitForScene(GraphScene &scene, int ms = 20000)
{
    QElapsedTimer t;
    t.start();
    while (scene.layoutPending() && t.elapsed() < ms) {
        QSignalSpy applied(&scene, &GraphScene::layoutApplied);
        QSignalSpy plan(&scene, &GraphScene::planReady);
        if (scene.layoutPending())
            applied.wait(static_cast<int>(std::max<qint64>(1, ms - t.elapsed())));
    }
    scene.finishAnimations();
    return !scene.layoutPending();
}

// Checks what every applied layout must give: finite positions inside the scene rect, no two
// top-level boxes overlapping, embryos inside their listeners, edge ends on their nodes.
void checkLayoutInvariants(const GraphScene &scene)
{
    const QRectF rect = scene.sceneRect();
    const QList<NodeItem *> nodes = topLevelNodes(scene);
    for (NodeItem *n : nodes) {
        QVERIFY2(n->isVisible(), "a node is still hidden after its layout");
        QVERIFY(finite(n->pos()));
        QVERIFY2(rect.contains(n->sceneBox()), "a node lies outside the scene rect");
    }
    for (int i = 0; i < nodes.size(); ++i)
        for (int j = i + 1; j < nodes.size(); ++j)
            QVERIFY2(!nodes[i]->sceneBox().intersects(nodes[j]->sceneBox()),
                     qPrintable(QStringLiteral("boxes overlap: %1 and %2").arg(nodes[i]->key()).arg(nodes[j]->key())));
    for (SocketItem *s : scene.socketItems())
        if (s->parentItem()) {
            auto *listener = static_cast<SocketItem *>(s->parentItem());
            QVERIFY(s->node().embryo);
            QCOMPARE(listener->sock(), s->node().listener_sock);
            QVERIFY(listener->sceneBox().contains(s->sceneBox()));
        }
    for (EdgeItem *e : scene.edgeItems()) {
        QVERIFY(e->isVisible());
        QVERIFY(finite(e->startPoint()) && finite(e->endPoint()));
        QVERIFY2(distanceToOutline(e->from(), e->startPoint()) < 3, "an edge does not start on its node");
        QVERIFY2(distanceToOutline(e->to(), e->endPoint()) < 3, "an edge does not end on its node");
    }
    for (FdEdgeItem *e : scene.fdEdgeItems()) {
        QVERIFY(e->isVisible());
        const QRectF box = e->process()->sceneBox();
        QVERIFY(std::abs(e->startPoint().x() - box.right()) < 1);
        QVERIFY(e->startPoint().y() > box.top() && e->startPoint().y() < box.bottom());
        QVERIFY2(distanceToOutline(e->to(), e->endPoint()) < 3, "an fd edge does not end on its socket");
    }
}

// Rings of `size` sockets, `rings` times: each socket's file is in the next one's queue.
// Process 0 holds one fd per ring.
GraphSnapshot rings(std::uint32_t rings, std::uint32_t size)
{
    GraphSnapshot s;
    s.nodes.reserve(std::size_t{rings} * size);
    for (std::uint32_t r = 0; r < rings; ++r)
        for (std::uint32_t k = 0; k < size; ++k) {
            inflight::SnapshotNode n;
            n.sock = r * size + k;
            n.label = s.names.intern("r" + std::to_string(r) + "s" + std::to_string(k));
            n.role = GcRole::inflight;
            n.listener_sock = inflight::npos;
            n.file_refs = k == 0 ? 2 : 1;
            n.inflight = 1;
            n.queue = 1;
            s.nodes.push_back(n);
            inflight::SnapshotEdge e;
            e.id = (std::uint64_t{r} * size + k) << 8;
            e.from = r * size + k;
            e.to = e.effective_to = r * size + (k + 1) % size;
            e.skb = r * size + k;
            s.edges.push_back(e);
        }
    inflight::SnapshotProcess p;
    p.id = 0;
    p.name = "main";
    p.user = "root";
    for (std::uint32_t r = 0; r < rings; ++r)
        p.fds.push_back({s.names.intern("r" + std::to_string(r)), static_cast<int>(3 + r), r * size});
    s.processes.push_back(p);
    s.topology_key = 0x51c0ffee + rings * 31 + size;
    return s;
}

const char *kTwice = "socketpair a b\nsocketpair c d\nsend b fds=c,c\n";

} // namespace

class TestGraphView : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        Theme::instance().setFontScale(1.0);
        Theme::instance().setHighContrast(false);
    }

    void slowRefreshesWaitForTheMovesToStop()
    {
        // A frame's worth: at once. Up to the 50 ms a stall may take: once per interval while
        // stepping. Longer: only once the steps stop (each restarts the wait), so a series of
        // steps back never waits for a graph refresh; playing, only past 250 ms.
        QCOMPARE(planGraphRefresh(10, false).when, GraphRefreshPlan::now);
        QCOMPARE(planGraphRefresh(10, true).when, GraphRefreshPlan::now);
        QCOMPARE(planGraphRefresh(40, false).when, GraphRefreshPlan::every_interval);
        QCOMPARE(planGraphRefresh(40, false).interval_ms, 40);
        QCOMPARE(planGraphRefresh(120, false).when, GraphRefreshPlan::when_quiet);
        QCOMPARE(planGraphRefresh(120, true).when, GraphRefreshPlan::every_interval);
        QCOMPARE(planGraphRefresh(300, true).when, GraphRefreshPlan::when_quiet);
        QCOMPARE(planGraphRefresh(2000, false).interval_ms, 500);
    }

    void oneItemPerSocketCopyAndFd()
    {
        PlayerController c;
        GraphPanel panel(c);
        QVERIFY(c.openFile(sceneFile("selftest-triangle-stream.scn")));
        std::size_t most_edges = 0;
        int steps = 0;
        for (;;) {
            panel.flushRefresh(); // under load a redraw may be held back: the state is what counts
            const GraphSnapshot s = snapshotOf(c);
            QCOMPARE(panel.socketItemCount(), static_cast<int>(s.nodes.size()));
            QCOMPARE(panel.edgeItemCount(), static_cast<int>(s.edges.size()));
            QCOMPARE(panel.aggregateItemCount(), 0);
            QCOMPARE(panel.processItemCount(), static_cast<int>(s.processes.size()));
            int fds = 0;
            for (const auto &p : s.processes)
                fds += static_cast<int>(p.fds.size());
            QCOMPARE(panel.fdEdgeItemCount(), fds);
            for (const auto &e : s.edges) {
                EdgeItem *item = panel.scene()->edgeItem(e.id);
                QVERIFY(item);
                QCOMPARE(static_cast<SocketItem *>(item->from())->sock(), e.from);
                QCOMPARE(static_cast<SocketItem *>(item->to())->sock(), e.to);
                QCOMPARE(item->copy().on_hitlist, e.on_hitlist);
            }
            for (const auto &n : s.nodes)
                QCOMPARE(panel.scene()->socketItem(n.sock)->node().role, n.role);
            most_edges = std::max(most_edges, s.edges.size());
            if (c.atEnd())
                break;
            c.stepInto();
            ++steps;
        }
        QVERIFY(steps > 50);
        QCOMPARE(most_edges, std::size_t{12}); // six sends of two copies each, all in flight at once
    }

    void sameFdTwiceIsTwoDistinctCurves()
    {
        PlayerController c;
        GraphPanel panel(c);
        QVERIFY(c.openText(QString::fromLatin1(kTwice), QStringLiteral("t.scn")));
        c.last();
        QVERIFY(panel.waitForLayout());
        const GraphSnapshot s = snapshotOf(c);
        QCOMPARE(s.edges.size(), std::size_t{2});
        QCOMPARE(s.edges[0].from, s.edges[1].from);
        QCOMPARE(s.edges[0].to, s.edges[1].to);
        QCOMPARE(panel.edgeItemCount(), 2);
        EdgeItem *a = panel.scene()->edgeItem(s.edges[0].id), *b = panel.scene()->edgeItem(s.edges[1].id);
        QVERIFY(a && b && a != b);
        const QPointF ma = a->path().pointAtPercent(0.5), mb = b->path().pointAtPercent(0.5);
        QVERIFY2(std::hypot(ma.x() - mb.x(), ma.y() - mb.y()) > 10, "parallel copies are drawn on top of each other");
        checkLayoutInvariants(*panel.scene());
    }

    // Socketpair ends and a client with its accepted socket are peers: linked, and laid out
    // next to each other, so the picture shows why `send a2` lands in a's queue.
    void peersAreLinkedAndSideBySide()
    {
        PlayerController c;
        GraphPanel panel(c);
        QVERIFY(c.openText(QStringLiteral("scene \"p\"\nsocketpair a a2\nsocketpair b b2\nsocket l\nbind l @srv\n"
                                          "listen l\nsocket k\nconnect k @srv\naccept l k2\nsend a2 fds=b\n"),
                           QStringLiteral("p.scn")));
        c.last();
        QVERIFY(panel.waitForLayout());
        QStringList pairs;
        for (PeerLinkItem *link : panel.scene()->peerLinkItems()) {
            auto *a = static_cast<SocketItem *>(link->a()), *b = static_cast<SocketItem *>(link->b());
            pairs << a->label() + QLatin1Char('=') + b->label();
            // Side by side: the gap between the two boxes is less than one box width.
            const QRectF ra = a->sceneBox(), rb = b->sceneBox();
            const double gap = std::max(std::max(ra.left(), rb.left()) - std::min(ra.right(), rb.right()),
                                        std::max(ra.top(), rb.top()) - std::min(ra.bottom(), rb.bottom()));
            QVERIFY2(gap < std::max(ra.width(), rb.width()), qPrintable(pairs.last()));
            QVERIFY(link->line().length() > 0);
        }
        pairs.sort();
        QCOMPARE(pairs, (QStringList{QStringLiteral("a=a2"), QStringLiteral("b=b2"), QStringLiteral("k=embryo(k)")}));
        // After closing one end the link goes.
        QVERIFY(c.openText(QStringLiteral("scene \"q\"\nsocketpair a a2\nclose a2\n"), QStringLiteral("q.scn")));
        c.last();
        QVERIFY(panel.waitForLayout());
        QVERIFY(panel.scene()->peerLinkItems().size() <= 1);
    }

    // The legend names only the running collector's roles, in its words, and the graph
    // collector's stack has a colour of its own (not classic's candidate yellow).
    void legendPerCollector()
    {
        PlayerController c;
        GraphPanel panel(c);
        auto *legend = panel.findChild<LegendBar *>();
        QVERIFY(legend);
        legend->resize(1400, legend->heightForWidth(1400)); // a desk-sized graph panel
        QVERIFY(c.openText(QStringLiteral("scene \"l\"\nset gc classic\nsocketpair a b\n"), QStringLiteral("l.scn")));
        const QStringList classic = legend->entryTexts();
        const QColor classic_candidate = Theme::instance().roleColor(GcRole::candidate);
        QVERIFY(classic.contains(QStringLiteral("candidate")) && classic.contains(QStringLiteral("maybe cycle")));
        QVERIFY(!classic.contains(QStringLiteral("on the vertex stack")));
        c.setEra(inflight::GcEra::graph);
        const QStringList graph = legend->entryTexts();
        for (const char *t :
             {"on the vertex stack", "in an SCC", "alive SCC", "dead SCC (garbage)", "leaked", "in flight"})
            QVERIFY2(graph.contains(QLatin1String(t)), t);
        QVERIFY(!graph.contains(QStringLiteral("maybe cycle")) && !graph.contains(QStringLiteral("candidate")));
        QVERIFY(Theme::instance().roleColor(GcRole::candidate) != classic_candidate);
        // The shapes and lines on a row of their own, after the roles.
        const qsizetype bar = graph.indexOf(QStringLiteral("|"));
        QVERIFY(bar > 0 && graph.indexOf(QStringLiteral("stream")) == bar + 1);
        QVERIFY(graph.indexOf(QStringLiteral("released")) < bar);
        // A narrow panel keeps its height for the graph: past three rows only the colours.
        const int wide_height = legend->heightForWidth(1400);
        legend->resize(420, legend->heightForWidth(420));
        const QStringList narrow = legend->entryTexts();
        QVERIFY(narrow.contains(QStringLiteral("alive SCC")) && !narrow.contains(QStringLiteral("stream")));
        QVERIFY(legend->heightForWidth(420) <= 2 * wide_height);
        c.setEra(inflight::GcEra::classic);
        QCOMPARE(Theme::instance().roleColor(GcRole::candidate), classic_candidate);
    }

    void processItemsListTheirFds()
    {
        PlayerController c;
        GraphPanel panel(c);
        QVERIFY(c.openText(QStringLiteral("user alice\nprocess p user=alice\nsocketpair a b\np: socketpair x y dgram\n"
                                          "p: dup x x2\n"),
                           QStringLiteral("t.scn")));
        c.last();
        QVERIFY(panel.waitForLayout());
        QCOMPARE(panel.processItemCount(), 2);
        const GraphSnapshot s = snapshotOf(c);
        for (const auto &p : s.processes) {
            ProcessItem *item = panel.scene()->processItem(p.id);
            QVERIFY(item);
            QCOMPARE(item->rowCount(), static_cast<int>(p.fds.size()));
            for (int row = 0; row < item->rowCount(); ++row) {
                const QString text = item->rowText(row);
                QVERIFY2(text.contains(QString::number(p.fds[std::size_t(row)].fd)), qPrintable(text));
                QVERIFY2(text.contains(QString::fromStdString(s.fd_name(p.fds[std::size_t(row)]))), qPrintable(text));
            }
        }
        ProcessItem *p = panel.scene()->processItem(1);
        QVERIFY(p);
        QCOMPARE(p->rowCount(), 3); // x, y and the dup x2
        QVERIFY(p->rowText(2).contains(QStringLiteral("x2")));
        QCOMPARE(panel.fdEdgeItemCount(), 5);
        checkLayoutInvariants(*panel.scene());
    }

    // A process is drawn from its declaration, before it holds an fd: "Task q is running" must
    // have something to point at.
    void aProcessWithoutFdsIsDrawn()
    {
        PlayerController c;
        GraphPanel panel(c);
        QVERIFY(c.openText(QStringLiteral("socketpair a b\nprocess q\n"), QStringLiteral("t.scn")));
        c.last();
        const std::uint64_t end = c.position();
        // The step that declares q, from the one before it (the sockets drawn already).
        std::uint64_t declared = end;
        while (declared > 0 && (c.seek(declared - 1), snapshotOf(c).processes.size() == 2))
            --declared;
        QVERIFY(declared > 0);
        c.seek(declared - 1);
        QVERIFY(panel.waitForLayout());
        QCOMPARE(panel.processItemCount(), 1);
        c.seek(declared);
        QVERIFY(panel.waitForLayout());
        const GraphSnapshot s = snapshotOf(c);
        QCOMPARE(s.processes.size(), std::size_t(2));
        ProcessItem *q = panel.scene()->processItem(s.processes[1].id);
        QVERIFY(q);
        QVERIFY(q->isVisible());
        QCOMPARE(q->rowCount(), 0);
    }

    // A socket called "a" is named by "a and b", "close() of a" and "a's"; English's article
    // ("not a candidate", "a cycle") names nothing.
    void theArticleANamesNoSocket_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("named");
        QTest::newRow("article") << QStringLiteral("u0: file refs 2 > inflight 1: not a candidate.")
                                 << QStringList{QStringLiteral("u0")};
        QTest::newRow("two articles") << QStringLiteral("Each socket is held by a socket: a cycle.") << QStringList{};
        QTest::newRow("a and b") << QStringLiteral("a and b are closed.")
                                 << QStringList{QStringLiteral("a"), QStringLiteral("b")};
        QTest::newRow("a b") << QStringLiteral("close a b") << QStringList{QStringLiteral("a"), QStringLiteral("b")};
        QTest::newRow("of a") << QStringLiteral("close() of a.") << QStringList{QStringLiteral("a")};
        QTest::newRow("a's") << QStringLiteral("a's file still has 2 references") << QStringList{QStringLiteral("a")};
        QTest::newRow("on a sent") << QStringLiteral("sendmsg() on a sent 1 byte with 1 fd (b).")
                                   << QStringList{QStringLiteral("a"), QStringLiteral("b")};
        QTest::newRow("article, then a name") << QStringLiteral("b holds a reference; a is open.")
                                              << QStringList{QStringLiteral("a"), QStringLiteral("b")};
    }
    void theArticleANamesNoSocket()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, named);
        PlayerController c;
        QVERIFY(c.openText(QStringLiteral("socketpair a b\nsocketpair u0 u1\n"), QStringLiteral("t.scn")));
        c.last();
        const GraphSnapshot s = snapshotOf(c);
        QStringList got;
        for (std::uint32_t sock : subjectOfText(s, text, false).sockets)
            for (const auto &n : s.nodes)
                if (n.sock == sock)
                    got << QString::fromUtf8(s.label_of(n));
        got.sort();
        QCOMPARE(got, named);
    }

    void manyFdsShowAsTabsAndOnSelection()
    {
        PlayerController c;
        GraphPanel panel(c);
        QVERIFY(c.openText(QStringLiteral("repeat 30 as i {\n  socketpair a$i b$i\n}\nclose a0\n"),
                           QStringLiteral("t.scn")));
        c.last();
        QVERIFY(panel.waitForLayout());
        QCOMPARE(panel.fdEdgeItemCount(), 59);
        for (FdEdgeItem *e : panel.scene()->fdEdgeItems()) {
            QVERIFY(e->isFaint());
            QVERIFY(!e->isDrawn()); // 59 fds: the sockets' tabs say it
        }
        for (SocketItem *s : panel.scene()->socketItems())
            QCOMPARE(s->openFds(), s->label() == QLatin1String("a0") ? 0 : 1);
        SocketItem *b7 = nullptr;
        for (SocketItem *s : panel.scene()->socketItems())
            if (s->label() == QLatin1String("b7"))
                b7 = s;
        QVERIFY(b7);
        c.selectSocket(b7->sock());
        int drawn = 0;
        for (FdEdgeItem *e : panel.scene()->fdEdgeItems())
            if (e->isDrawn()) {
                ++drawn;
                QCOMPARE(e->to(), static_cast<NodeItem *>(b7));
            }
        QCOMPARE(drawn, 1);
        checkLayoutInvariants(*panel.scene());
    }

    void layoutInvariants_data()
    {
        QTest::addColumn<QString>("scene");
        QTest::addColumn<bool>("plan");
        QTest::addColumn<bool>("midCollection");
        QTest::newRow("triangle, planned") << "selftest-triangle-stream.scn" << true << true;
        QTest::newRow("triangle, incremental") << "selftest-triangle-stream.scn" << false << true;
        QTest::newRow("triangle dgram, end") << "selftest-triangle-dgram.scn" << true << false;
        QTest::newRow("embryo carrying fds") << "embryo-carrying-fds.scn" << true << false;
        QTest::newRow("listener over own embryo") << "listener-over-own-embryo.scn" << false << true;
        QTest::newRow("self reference") << "self-reference.scn" << true << true;
        QTest::newRow("cycle kept by fd, incremental") << "cycle-kept-alive-by-open-fd.scn" << false << false;
    }

    void layoutInvariants()
    {
        QFETCH(QString, scene);
        QFETCH(bool, plan);
        QFETCH(bool, midCollection);
        PlayerController c;
        GraphPanel panel(c);
        panel.resize(1200, 800);
        panel.scene()->setPlanEnabled(plan);
        QVERIFY(c.openFile(sceneFile(scene.toLatin1().constData())));
        QCOMPARE(panel.scene()->hasPlan() || panel.scene()->layoutPending(), true);
        // Check at every change of structure on the way, then at the chosen step.
        std::uint64_t key = 0;
        for (int i = 0; i < 100000 && !c.atEnd(); ++i) {
            const GraphSnapshot s = snapshotOf(c);
            if (midCollection && anyOnHitlist(s))
                break;
            if (graph::structureKey(s) != key) {
                key = graph::structureKey(s);
                QVERIFY(panel.waitForLayout());
                checkLayoutInvariants(*panel.scene());
                if (QTest::currentTestFailed())
                    return;
            }
            c.stepInto();
        }
        QVERIFY(panel.waitForLayout());
        checkLayoutInvariants(*panel.scene());
        QVERIFY(panel.scene()->lastLayout());
        QVERIFY(panel.scene()->lastLayout()->ok);
        QCOMPARE(panel.scene()->hasPlan(), plan);
    }

    void survivorsStayWhenSocketsAppear_data()
    {
        QTest::addColumn<bool>("plan");
        QTest::newRow("planned") << true;
        QTest::newRow("incremental (survivors pinned)") << false;
    }

    void survivorsStayWhenSocketsAppear()
    {
        QFETCH(bool, plan);
        PlayerController c;
        GraphPanel panel(c);
        panel.scene()->setPlanEnabled(plan);
        QVERIFY(c.openFile(sceneFile("selftest-triangle-stream.scn")));
        QVERIFY(panel.waitForLayout());
        std::map<graph::NodeKey, QPointF> before;
        int growths = 0, graphviz_layouts = 0;
        while (!c.atEnd()) {
            const int sockets = panel.socketItemCount();
            const std::uint64_t generation = panel.scene()->appliedGeneration();
            c.stepInto();
            QVERIFY(panel.waitForLayout());
            if (panel.scene()->appliedGeneration() != generation && panel.scene()->lastLayout()->engine != "none")
                ++graphviz_layouts;
            if (panel.socketItemCount() > sockets && sockets > 0) {
                ++growths;
                for (const auto &[key, pos] : before) {
                    NodeItem *item = panel.scene()->nodeItem(key);
                    QVERIFY(item);
                    QVERIFY2(std::hypot(item->pos().x() - pos.x(), item->pos().y() - pos.y()) < 0.5,
                             qPrintable(QStringLiteral("node %1 moved when a socket appeared").arg(key)));
                }
            }
            before.clear();
            for (NodeItem *n : topLevelNodes(*panel.scene()))
                before[n->key()] = n->pos();
        }
        QVERIFY(growths >= 5); // six socketpairs
        // Planned: new sockets go to their planned places, Graphviz ran once for the plan.
        // Incremental: Graphviz placed the new sockets at each growth.
        if (plan)
            QCOMPARE(graphviz_layouts, 0);
        else
            QVERIFY(graphviz_layouts >= 5);
        checkLayoutInvariants(*panel.scene());
    }

    void pinnedNeatoPlacesOnlyNewNodes()
    {
        // The layout function itself: six placed nodes pinned, three new ones tied to them by
        // in-flight copies (neato, pinned), and a new pair tied to nothing (a block).
        graph::LayoutRequest req;
        req.generation = 7;
        for (int i = 0; i < 11; ++i) {
            graph::LayoutNode n;
            n.key = graph::socketKey(static_cast<std::uint32_t>(i));
            n.width = 150;
            n.height = 48;
            if (i < 6) {
                n.pinned = true;
                n.x = 400.0 * (i % 3);
                n.y = 200.0 * (i / 3);
            }
            req.nodes.push_back(n);
        }
        for (auto [a, b] : {std::pair{0, 6}, {6, 7}, {7, 2}, {8, 4}, {4, 8}, {9, 10}})
            req.edges.push_back({graph::socketKey(a), graph::socketKey(b)});
        const graph::LayoutResult r = graph::computeLayout(req);
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.generation, std::uint64_t{7});
        QCOMPARE(r.engine, std::string("neato"));
        for (int i = 0; i < 6; ++i) {
            QCOMPARE(r.positions[std::size_t(i)].x, req.nodes[std::size_t(i)].x);
            QCOMPARE(r.positions[std::size_t(i)].y, req.nodes[std::size_t(i)].y);
        }
        for (std::size_t i = 0; i < req.nodes.size(); ++i) {
            QVERIFY(std::isfinite(r.positions[i].x) && std::isfinite(r.positions[i].y));
            const QRectF a(r.positions[i].x - 75, r.positions[i].y - 24, 150, 48);
            QVERIFY(QRectF(r.left, r.top, r.right - r.left, r.bottom - r.top)
                        .adjusted(-0.01, -0.01, 0.01, 0.01)
                        .contains(a));
            for (std::size_t j = i + 1; j < req.nodes.size(); ++j)
                QVERIFY(!a.intersects(QRectF(r.positions[j].x - 75, r.positions[j].y - 24, 150, 48)));
        }
        // A full layout of the same nodes ignores the pins (dot below the threshold).
        req.full = true;
        const graph::LayoutResult full = graph::computeLayout(req);
        QVERIFY(full.ok);
        QCOMPARE(full.engine, std::string("dot"));
        req.dot_max_nodes = 5;
        QCOMPARE(graph::computeLayout(req).engine, std::string("sfdp"));
    }

    void noLayoutWhileOnlyRolesChange()
    {
        PlayerController c;
        GraphPanel panel(c);
        QVERIFY(c.openFile(sceneFile("selftest-triangle-stream.scn")));
        QVERIFY(panel.waitForLayout());
        int same_topology_steps = 0;
        while (!c.atEnd()) {
            const std::uint64_t key = graph::structureKey(snapshotOf(c));
            const std::uint64_t generation = panel.scene()->requestedGeneration();
            c.stepInto();
            if (graph::structureKey(snapshotOf(c)) == key) {
                ++same_topology_steps;
                QCOMPARE(panel.scene()->requestedGeneration(), generation);
                QVERIFY(!panel.scene()->layoutPending());
            }
            QVERIFY(panel.waitForLayout());
        }
        QVERIFY(same_topology_steps > 50); // most micro-steps of a collection change only roles
    }

    void staleLayoutIsDropped()
    {
        PlayerController c;
        GraphPanel panel(c);
        QVERIFY(c.openFile(sceneFile("selftest-triangle-stream.scn")));
        c.last();
        QVERIFY(panel.waitForLayout());
        GraphScene &scene = *panel.scene();
        inflight::test::settleJobs();
        QSignalSpy applied(&scene, &GraphScene::layoutApplied);
        const int dropped_before = scene.staleResultsDropped();
        const std::uint64_t first = scene.requestLayout(true);
        background::pool().waitForDone(); // laid out: its result waits to be delivered
        const std::uint64_t second = scene.requestLayout(true);
        QVERIFY(second > first);
        // Both jobs have ended and posted what they made: the first's result has come back too.
        inflight::test::settleJobs();
        QVERIFY(!scene.layoutPending());
        QCOMPARE(applied.count(), 1);
        QCOMPARE(applied.at(0).at(0).value<quint64>(), quint64(second));
        QCOMPARE(scene.appliedGeneration(), second);
        QCOMPARE(scene.staleResultsDropped(), dropped_before + 1);

        // And directly: a result of an older generation changes nothing.
        std::map<graph::NodeKey, QPointF> positions;
        for (NodeItem *n : topLevelNodes(scene))
            positions[n->key()] = n->pos();
        graph::LayoutResult old;
        old.generation = first;
        old.ok = true;
        old.positions.assign(positions.size(), graph::LayoutPoint{12345, 12345});
        QVERIFY(!scene.applyLayout(old));
        for (NodeItem *n : topLevelNodes(scene))
            QCOMPARE(n->pos(), positions[n->key()]);
    }

    void clickSelectsAndHighlights()
    {
        PlayerController c;
        GraphPanel panel(c);
        panel.resize(1200, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(c.openFile(sceneFile("selftest-triangle-stream.scn")));
        QVERIFY(stepUntil(c, anyOnHitlist));
        QVERIFY(panel.waitForLayout());
        panel.fitAll();
        QSignalSpy selection(&c, &PlayerController::selectionChanged);
        SocketItem *target = nullptr;
        for (SocketItem *s : panel.scene()->socketItems())
            if (s->label() == QLatin1String("u1"))
                target = s;
        QVERIFY(target);
        QTest::mouseClick(panel.view()->viewport(), Qt::LeftButton, {}, panel.view()->mapFromScene(target->scenePos()));
        QCOMPARE(selection.count(), 1);
        QCOMPARE(c.selectedSocket(), std::optional<std::uint32_t>(target->sock()));
        QVERIFY(target->highlighted());

        // The controller's selection (from another view) moves the highlight.
        SocketItem *other = nullptr;
        for (SocketItem *s : panel.scene()->socketItems())
            if (s->label() == QLatin1String("p3"))
                other = s;
        QVERIFY(other);
        c.selectSocket(other->sock());
        QVERIFY(other->highlighted());
        QVERIFY(!target->highlighted());
        // And it survives steps.
        c.stepInto();
        QVERIFY(panel.scene()->socketItem(other->sock())->highlighted());

        // A click on empty background clears the selection.
        QPoint empty(5, 5);
        QVERIFY(panel.view()->items(empty).isEmpty());
        QTest::mouseClick(panel.view()->viewport(), Qt::LeftButton, {}, empty);
        QCOMPARE(c.selectedSocket(), std::nullopt);
        QVERIFY(!other->highlighted());
    }

    void searchFindsByLabelAndWraps()
    {
        PlayerController c;
        GraphPanel panel(c);
        panel.resize(1000, 700);
        panel.show();
        QVERIFY(c.openFile(sceneFile("selftest-triangle-stream.scn")));
        c.last();
        QVERIFY(panel.waitForLayout());
        auto label = [&] {
            auto sel = c.selectedSocket();
            return sel ? panel.scene()->socketItem(*sel)->label().toStdString() : std::string();
        };
        QLineEdit *box = panel.searchBox();
        box->setText(QStringLiteral("U"));
        std::vector<std::string> seen;
        for (int i = 0; i < 7; ++i) {
            QTest::keyClick(box, Qt::Key_Return);
            seen.push_back(label());
        }
        // u0..u5 in socket order, then around again (case-insensitive).
        QCOMPARE(seen[0], std::string("u0"));
        QCOMPARE(seen[5], std::string("u5"));
        QCOMPARE(seen[6], std::string("u0"));
        for (int i = 0; i < 6; ++i)
            QVERIFY(panel.scene()->socketItem(*c.selectedSocket()) != nullptr);
        box->setText(QStringLiteral("p4"));
        QTest::keyClick(box, Qt::Key_Return);
        QCOMPARE(label(), std::string("p4"));
        QVERIFY(panel.scene()->socketItem(*c.selectedSocket())->highlighted());
        QVERIFY(!panel.findNext(QStringLiteral("nothing-like-this")));
        QCOMPARE(label(), std::string("p4"));
    }

    void embryoEdgeEndsInsideItsListener()
    {
        PlayerController c;
        GraphPanel panel(c);
        QVERIFY(c.openFile(sceneFile("embryo-carrying-fds.scn")));
        QVERIFY(stepUntil(c, [](const GraphSnapshot &s) {
            for (const auto &e : s.edges)
                if (e.to != e.effective_to)
                    return true;
            return false;
        }));
        QVERIFY(panel.waitForLayout());
        const GraphSnapshot s = snapshotOf(c);
        int into_embryo = 0;
        for (const auto &e : s.edges) {
            if (e.to == e.effective_to)
                continue;
            ++into_embryo;
            EdgeItem *item = panel.scene()->edgeItem(e.id);
            QVERIFY(item);
            auto *embryo = static_cast<SocketItem *>(item->to());
            QCOMPARE(embryo->sock(), e.to);
            QVERIFY(embryo->node().embryo);
            QVERIFY(embryo->parentItem());
            QCOMPARE(static_cast<SocketItem *>(embryo->parentItem())->sock(), e.effective_to);
            QVERIFY(static_cast<SocketItem *>(embryo->parentItem())->node().listener);
            QVERIFY(distanceToOutline(embryo, item->endPoint()) < 3);
            QVERIFY(item->zValue() > embryo->parentItem()->zValue()); // drawn over the listener box
        }
        QCOMPARE(into_embryo, 1);
        checkLayoutInvariants(*panel.scene());
        // Closing the listener releases everything: the items stay, faded.
        c.last();
        QVERIFY(panel.waitForLayout());
        const GraphSnapshot end = snapshotOf(c);
        QCOMPARE(panel.socketItemCount(), static_cast<int>(end.nodes.size()));
        for (const auto &n : end.nodes) {
            SocketItem *item = panel.scene()->socketItem(n.sock);
            QVERIFY(item);
            if (n.role == GcRole::released)
                QVERIFY(item->opacity() < 0.5);
        }
    }

    void zoomPanFitAndOverview()
    {
        PlayerController c;
        GraphPanel panel(c);
        panel.resize(1200, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(c.openFile(sceneFile("selftest-triangle-stream.scn")));
        c.last();
        QVERIFY(panel.waitForLayout());
        GraphView *view = panel.view();
        view->fitAll();
        QVERIFY(view->followsGraph());
        QVERIFY(!panel.overview()->isVisible());
        const double fit = view->zoom();
        QTest::keyClick(view, Qt::Key_Plus);
        QVERIFY(view->zoom() > fit * 1.2);
        QVERIFY(!view->followsGraph());
        QTest::keyClick(view, Qt::Key_Minus, Qt::ControlModifier);
        QVERIFY(std::abs(view->zoom() - fit) < 1e-6);
        view->zoomBy(6);
        QVERIFY(panel.overview()->isVisible()); // part of the graph is off screen
        const QPointF centre = view->visibleSceneRect().center();
        const QRect ov = panel.overview()->viewport()->rect();
        QTest::mouseClick(panel.overview()->viewport(), Qt::LeftButton, {}, QPoint(ov.width() / 10, ov.height() / 10));
        QVERIFY(view->visibleSceneRect().center() != centre);
        QTest::keyClick(view, Qt::Key_F);
        QVERIFY(view->followsGraph());
        QVERIFY(std::abs(view->zoom() - fit) < 1e-6);
        QVERIFY(!panel.overview()->isVisible());
        // Zoomed far out, items draw plain boxes without text: rendering still works.
        view->zoomBy(0.02);
        QImage image(800, 600, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter p(&image);
        view->render(&p);
        p.end();
    }

    void aggregatesCollapseThousandsOfRings()
    {
        const GraphSnapshot big = rings(2000, 16); // 32,000 sockets
        GraphScene scene;
        scene.setSnapshot(big, true);
        QVERIFY(scene.aggregateItemCount() >= 1);
        QVERIFY2(scene.socketItemCount() + scene.aggregateItemCount() < 100, "the aggregate view should be small");
        QCOMPARE(scene.edgeItemCount(), 0); // every copy is inside a ring
        AggregateItem *ring = scene.aggregateItems().first();
        QCOMPARE(ring->instanceCount(), std::size_t{2000});
        QCOMPARE(ring->group().sockets_per_instance, 16u);
        QCOMPARE(ring->group().shape, std::string("ring"));
        QCOMPARE(ring->title(),
                 QStringLiteral("16 sockets × %1").arg(QLocale().toString(2000))); // grouped digits, as the lists dock
        QCOMPARE(scene.fdEdgeItemCount(), 1); // main's 2000 fds into the rings, bundled
        QCOMPARE(scene.fdEdgeItems().first()->count(), 2000u);
        QVERIFY(waitForScene(scene));
        checkLayoutInvariants(scene);

        // A new step with other roles: repainted, no new layout.
        GraphSnapshot later = big;
        for (std::size_t i = 0; i < 16 * 10; ++i)
            later.nodes[i].role = GcRole::garbage;
        const std::uint64_t generation = scene.requestedGeneration();
        scene.setSnapshot(later, true);
        QCOMPARE(scene.requestedGeneration(), generation);
        QVERIFY(ring->describe().contains(QStringLiteral("160 garbage")));

        // Double-click draws a batch of rings one by one; the rest stays aggregated.
        GraphView view(&scene);
        view.resize(900, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.fitAll();
        const QPointF survivor = ring->pos();
        QTest::mouseDClick(view.viewport(), Qt::LeftButton, {}, view.mapFromScene(ring->scenePos()));
        QCOMPARE(scene.socketItemCount(), static_cast<int>(GraphScene::kExpandBatch * 16));
        QCOMPARE(scene.aggregateItems().first()->instanceCount(), 2000 - GraphScene::kExpandBatch);
        QCOMPARE(scene.edgeItemCount(), static_cast<int>(GraphScene::kExpandBatch * 16));
        QVERIFY(waitForScene(scene));
        QCOMPARE(scene.aggregateItems().first()->pos(), survivor);
        checkLayoutInvariants(scene);

        // Search reaches into the aggregate: the ring of that socket is drawn.
        const std::uint32_t deep = 1500 * 16 + 3;
        QVERIFY(!scene.socketItem(deep));
        QVERIFY(scene.expandToShow(deep));
        QVERIFY(scene.socketItem(deep));
        QVERIFY(waitForScene(scene));
        scene.setSelectedSocket(deep);
        QVERIFY(scene.socketItem(deep)->highlighted());
    }

    void aggregatesFromARepeatScene()
    {
        // 400 rings of 4 socketpairs: each b holds the next b of its ring (3200 sockets).
        const QString text = QStringLiteral(
            "set nofile 10000\nrepeat 400 as r {\n  repeat 4 as k {\n    socketpair a${r*4+k} b${r*4+k}\n  }\n}\n"
            "repeat 400 as r {\n  repeat 4 as k {\n    send a${r*4+k} fds=b${r*4+(k+1)%4}\n  }\n}\n"
            "repeat 1600 as i {\n  close b$i\n}\n");
        PlayerController c;
        GraphPanel panel(c);
        panel.scene()->setAggregateThreshold(1000);
        QVERIFY(c.openText(text, QStringLiteral("rings.scn")));
        c.last();
        QVERIFY(panel.waitForLayout(30000));
        const GraphSnapshot s = snapshotOf(c);
        QCOMPARE(s.nodes.size(), std::size_t{3200});
        QVERIFY(panel.aggregateItemCount() >= 2); // the rings of b, the single a's
        QVERIFY(panel.socketItemCount() < 100);
        bool found_ring = false;
        for (AggregateItem *a : panel.scene()->aggregateItems())
            if (a->group().shape == "ring" && a->instanceCount() == 400 && a->group().sockets_per_instance == 4)
                found_ring = true;
        QVERIFY(found_ring);
        checkLayoutInvariants(*panel.scene());
    }

    // Thousands of sockets held by a few processes (the seed 000 scene): one aggregate per
    // process, named after it, and each process's fd table summarised in the scene's range
    // notation instead of a column of 24 rows per process.
    void aggregatesPerProcessWithSummarisedFds()
    {
        QString text = QStringLiteral("set nofile 4000\nprocess p0\nprocess p1\n");
        for (const char *k : {"0", "1"})
            text += QStringLiteral("p%1: socketpair c%1 d%1 dgram\nrepeat 600 as i {\n  p%1: socket s%1_$i dgram\n}\n"
                                   "p%1: send d%1 fds=s%1_{0..199}\np%1: send d%1 fds=s%1_{200..399}\n"
                                   "p%1: send d%1 fds=s%1_{400..599}\n") // SCM_MAX_FD is 253 a message
                        .arg(QLatin1String(k));
        PlayerController c;
        GraphPanel panel(c);
        panel.scene()->setAggregateThreshold(1000);
        QStringList errors;
        QVERIFY2(c.openText(text, QStringLiteral("holders.scn"), &errors), qPrintable(errors.join(u'\n')));
        c.last();
        QVERIFY(panel.waitForLayout(30000));
        QStringList titles;
        for (AggregateItem *a : panel.scene()->aggregateItems())
            titles << a->title();
        for (const char *want : {"600 sockets of p0", "600 sockets of p1"})
            QVERIFY2(titles.contains(QLatin1String(want)), qPrintable(titles.join(QStringLiteral(", "))));
        const GraphSnapshot s = snapshotOf(c);
        for (const auto &p : s.processes) {
            if (p.name != "p0")
                continue;
            ProcessItem *item = panel.scene()->processItem(p.id);
            QVERIFY(item);
            QCOMPARE(item->rowCount(), 3); // c0, d0 and s0_{0..599}
            QVERIFY2(item->rowText(2).contains(QStringLiteral("s0_{0..599}")), qPrintable(item->rowText(2)));
            // Every fd of the run leaves the box from that row.
            QCOMPARE(item->fdAnchor(p.fds[2].fd), item->fdAnchor(p.fds.back().fd));
            // ...and each of the first two from its own row, one row apart.
            const double row = item->fdAnchor(p.fds[1].fd).y() - item->fdAnchor(p.fds[0].fd).y();
            QVERIFY(row > 0);
            QCOMPARE(item->fdAnchor(p.fds[2].fd).y() - item->fdAnchor(p.fds[1].fd).y(), row);
            // An fd the process does not hold points at the last row.
            QCOMPARE(item->fdAnchor(p.fds.back().fd + 1), item->fdAnchor(p.fds.back().fd));
        }
        checkLayoutInvariants(*panel.scene());
    }

    void exportsWriteFiles()
    {
        PlayerController c;
        GraphPanel panel(c);
        QVERIFY(c.openFile(sceneFile("selftest-triangle-stream.scn")));
        QVERIFY(stepUntil(c, anyOnHitlist));
        QVERIFY(panel.waitForLayout());
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString png = dir.filePath(QStringLiteral("g.png")), svg = dir.filePath(QStringLiteral("g.svg")),
                      dot = dir.filePath(QStringLiteral("g.dot"));
        QVERIFY(panel.exportPng(png));
        QVERIFY(panel.exportSvg(svg));
        QVERIFY(panel.exportDot(dot));
        QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 400 && image.height() > 200);
        QFile s(svg);
        QVERIFY(s.open(QIODevice::ReadOnly));
        QVERIFY(s.readAll().contains("<svg"));
        QFile d(dot);
        QVERIFY(d.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(d.readAll());
        QVERIFY(text.startsWith(QStringLiteral("//")));
        QVERIFY(text.contains(QStringLiteral("digraph inflight {")));
        const GraphSnapshot snap = snapshotOf(c);
        QCOMPARE(text.count(QStringLiteral("id=\"copy")), static_cast<int>(snap.edges.size()));
        QCOMPARE(text.count(QStringLiteral("hitlist=true")),
                 static_cast<int>(
                     std::count_if(snap.edges.begin(), snap.edges.end(), [](auto &e) { return e.on_hitlist; })));
        QCOMPARE(text.count(QStringLiteral("style=dashed, arrowhead=vee")), panel.fdEdgeItemCount());
        QVERIFY(text.contains(QStringLiteral("role=\"garbage\"")));
        QVERIFY(text.contains(QStringLiteral("pos=\"")));
    }

    void themeChangeRelaysOut()
    {
        PlayerController c;
        GraphPanel panel(c);
        QVERIFY(c.openFile(sceneFile("embryo-carrying-fds.scn")));
        c.last();
        QVERIFY(panel.waitForLayout());
        SocketItem *any = panel.scene()->socketItems().first();
        const double width = any->box().width();
        const std::uint64_t generation = panel.scene()->appliedGeneration();
        Theme::instance().setFontScale(1.6);
        QVERIFY(panel.scene()->layoutPending()); // a new plan for the new sizes, then a layout
        QVERIFY(panel.waitForLayout());
        QVERIFY(panel.scene()->appliedGeneration() > generation);
        QVERIFY(panel.scene()->hasPlan());
        QVERIFY(any->box().width() > width * 1.3);
        checkLayoutInvariants(*panel.scene());
        Theme::instance().setFontScale(1.0);
        QVERIFY(panel.waitForLayout());
    }

    void tooltipsExplainInPlainWords()
    {
        PlayerController c;
        GraphPanel panel(c);
        QVERIFY(c.openFile(sceneFile("selftest-triangle-stream.scn")));
        QVERIFY(stepUntil(c, anyOnHitlist));
        QVERIFY(panel.waitForLayout());
        for (SocketItem *s : panel.scene()->socketItems()) {
            const QString t = s->describe();
            QVERIFY(t.contains(QStringLiteral("refs")));
            QVERIFY(t.contains(QStringLiteral("references to its file")));
            QVERIFY(t.contains(QStringLiteral("At this step")));
        }
        bool hitlist = false;
        for (EdgeItem *e : panel.scene()->edgeItems()) {
            QVERIFY(e->describe().contains(QStringLiteral("receive queue")));
            hitlist |= e->describe().contains(QStringLiteral("On the hitlist"));
        }
        QVERIFY(hitlist);
        for (ProcessItem *p : panel.scene()->processItems())
            QVERIFY(p->describe().contains(QStringLiteral("open file descriptor")));
    }

    // mixed_lowpoint on the unfixed graph collector: at the end the two SCCs are leaked, drawn
    // in a colour of their own, and the tooltip says why the collector left them.
    void leakedSocketsAreDrawnApart()
    {
        PlayerController c;
        GraphPanel panel(c);
        QVERIFY(c.openFile(sceneFile("selftest-mixed-lowpoint-stream.scn")));
        QCOMPARE(c.sim().era(), inflight::GcEra::graph);
        QVERIFY(!stepUntil(c, [](const GraphSnapshot &) { return false; }));
        QVERIFY(c.atEnd());
        QVERIFY(panel.waitForLayout());
        int leaked = 0;
        for (SocketItem *s : panel.scene()->socketItems()) {
            if (s->node().role != GcRole::leaked)
                continue;
            ++leaked;
            const QString t = s->describe();
            QVERIFY2(t.contains(QStringLiteral("leaked: it is still alive")), qPrintable(t));
            QVERIFY2(t.contains(QStringLiteral("Why the collector left it")), qPrintable(t));
            QVERIFY2(t.contains(QStringLiteral("scc_index")), qPrintable(t));
        }
        QCOMPARE(leaked, 6);
        // Its colour is none of a collection's, in either theme.
        for (bool contrast : {false, true}) {
            Theme::instance().setHighContrast(contrast);
            for (GcRole r : {GcRole::idle, GcRole::inflight, GcRole::candidate, GcRole::maybe_cycle, GcRole::not_cycle,
                             GcRole::garbage, GcRole::released})
                QVERIFY(Theme::instance().roleColor(GcRole::leaked) != Theme::instance().roleColor(r));
        }
        Theme::instance().setHighContrast(false);
    }
};

QTEST_MAIN(TestGraphView)
#include "test_graph_view.moc"
