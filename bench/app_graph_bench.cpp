// SPDX-License-Identifier: GPL-3.0-or-later
// Numbers for the graph view (not a test): layout latency of a first layout at 2,000 and 200
// sockets, step-to-repaint at 200 sockets, and the aggregate view of 32,000 sockets.
// Medians of several runs. Runs offscreen unless QT_QPA_PLATFORM says otherwise.
#include "graph/aggregate_item.h"
#include "graph/graph_panel.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "inflight/graph_snapshot.hpp"
#include "inflight/process_heap.hpp"
#include "inflight/simulation.hpp"
#include "player_controller.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QImage>
#include <QPainter>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

namespace {

// Spins the event loop until the scene's newest layout is applied.
void waitForScene(GraphScene &scene, int ms)
{
    QElapsedTimer t;
    t.start();
    while (scene.layoutPending() && t.elapsed() < ms) {
        QEventLoop loop;
        QTimer::singleShot(ms, &loop, &QEventLoop::quit);
        QObject::connect(&scene, &GraphScene::layoutApplied, &loop, &QEventLoop::quit);
        loop.exec();
    }
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

// GC-shaped: rings of 4 socketpairs (each b holds the next b of its ring, the a's stay open),
// the b's closed so the rings are garbage, then a collection. 8 sockets per ring.
QString ringScene(int rings)
{
    return QStringLiteral("set gc graph\nset nofile 1000000\n"
                          "repeat %1 as r {\n  repeat 4 as k {\n    socketpair a${r*4+k} b${r*4+k}\n  }\n}\n"
                          "repeat %1 as r {\n  repeat 4 as k {\n    send a${r*4+k} fds=b${r*4+(k+1)%4}\n  }\n}\n"
                          "repeat %2 as i {\n  close b$i\n}\n"
                          "gc\n")
        .arg(rings)
        .arg(rings * 4);
}

// Steps until a collection is under way.
void stepToCollection(PlayerController &c)
{
    while (!c.atEnd() && !c.sim().gc_in_progress())
        c.stepInto();
}

struct LayoutNumbers {
    double wall = 0, worker = 0, graphviz = 0, overlap = 0;
    int moved = 0;
    std::string engine;
    int nodes = 0;
};

// A first layout of what the controller shows now, from an empty scene: snapshot, items,
// Graphviz in a background job, applied on the GUI thread.
LayoutNumbers firstLayout(GraphPanel &panel, int runs)
{
    std::vector<double> wall, worker, gv, overlap;
    LayoutNumbers n;
    for (int i = 0; i < runs; ++i) {
        panel.scene()->clearGraph();
        QElapsedTimer t;
        t.start();
        panel.refresh();
        if (!panel.waitForLayout(120000))
            std::fprintf(stderr, "layout timed out\n");
        wall.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        if (const auto *r = panel.scene()->lastLayout()) {
            worker.push_back(r->ms);
            gv.push_back(r->graphviz_ms);
            overlap.push_back(r->overlap_ms);
            n.moved = r->moved;
            n.engine = r->engine;
        }
    }
    n.wall = median(wall);
    n.worker = median(worker);
    n.graphviz = median(gv);
    n.overlap = median(overlap);
    n.nodes = panel.socketItemCount() + panel.processItemCount() + panel.aggregateItemCount();
    return n;
}

} // namespace

int main(int argc, char **argv)
{
    inflight::configure_process_heap(argc, argv); // the heap the app and the CLI run with
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::printf("graph view bench (medians)\n");

    // ---- first layout, 2,000 and 200 sockets ---------------------------------------------------
    for (int rings : {250, 25}) {
        PlayerController c;
        GraphPanel panel(c);
        panel.resize(1600, 1000);
        panel.scene()->setAnimated(false);
        c.openText(ringScene(rings), QStringLiteral("bench.scn"));
        stepToCollection(c);
        panel.waitForLayout(120000);
        const LayoutNumbers n = firstLayout(panel, 7);
        std::printf(
            "first layout, %4d sockets (%d nodes): %7.1f ms wall (worker %.1f ms: Graphviz %s %.1f ms, overlap removal "
            "%.1f ms, %d boxes moved)\n",
            panel.socketItemCount(), n.nodes, n.wall, n.worker, n.engine.c_str(), n.graphviz, n.overlap, n.moved);
        {
            // The plan: the whole run replayed and laid out once at load.
            std::vector<double> plan;
            for (int i = 0; i < 5; ++i) {
                QElapsedTimer t;
                t.start();
                c.openText(ringScene(rings), QStringLiteral("bench.scn"));
                panel.waitForLayout(60000);
                plan.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
            }
            std::printf("scene load with plan (%s), %d sockets in the run: %7.1f ms wall (replay in the background + "
                        "layout of the whole run + apply)\n",
                        panel.scene()->hasPlan() ? "made" : "NOT made", rings * 8, median(plan));
        }
    }

    // ---- step-to-repaint, 200 sockets ---------------------------------------------------------------
    // Through a collection: controller.stepInto() (the panel takes a snapshot and updates its
    // items synchronously) until the view has been drawn into an image. Once with the whole
    // graph fitted (zoomed out: boxes without text), once at 100 % (full detail).
    for (bool full_detail : {false, true}) {
        PlayerController c;
        GraphPanel panel(c);
        panel.resize(1600, 1000);
        panel.show();
        c.openText(ringScene(25), QStringLiteral("bench.scn"));
        stepToCollection(c);
        panel.waitForLayout(60000);
        panel.fitAll();
        if (full_detail) {
            panel.view()->setTransform(QTransform());
            panel.view()->setFollowsGraph(false);
            // Centre on the busiest part: the first ring.
            panel.view()->centerOn(panel.scene()->contentRect().center());
        }
        const double zoom = panel.view()->zoom();
        QImage image(panel.view()->viewport()->size(), QImage::Format_ARGB32_Premultiplied);
        std::vector<double> view_ms, panel_ms;
        int layouts = 0, structure = 0;
        for (int i = 0; i < 400 && !c.atEnd(); ++i) {
            const std::uint64_t generation = panel.scene()->requestedGeneration();
            const std::size_t edges = static_cast<std::size_t>(panel.edgeItemCount());
            QElapsedTimer t;
            t.start();
            c.stepInto();
            {
                QPainter p(&image);
                p.setRenderHints(panel.view()->renderHints()); // antialiased, as on screen
                panel.view()->render(&p);
            }
            view_ms.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
            layouts += panel.scene()->requestedGeneration() != generation;
            structure += static_cast<std::size_t>(panel.edgeItemCount()) != edges;
            if (i % 4 == 0 && !c.atEnd()) {
                QElapsedTimer g;
                g.start();
                c.stepInto();
                (void)panel.grab();
                panel_ms.push_back(static_cast<double>(g.nsecsElapsed()) / 1e6);
            }
            panel.waitForLayout(10000);
        }
        std::printf("step-to-repaint, %d sockets, zoom %.2f%s: view %.2f ms median (p90 %.2f, max %.2f); whole panel "
                    "grab() %.2f ms median (%zu + %zu steps; %d changed edges, %d needed a layout)\n",
                    panel.socketItemCount(), zoom, full_detail ? " (full detail)" : " (fitted)", median(view_ms),
                    percentile(view_ms, 0.9), percentile(view_ms, 1.0), median(panel_ms), view_ms.size(),
                    panel_ms.size(), structure, layouts);
    }

    // ---- the aggregate view: 2,000 rings of 16 (32,000 sockets) ----------------------------------
    {
        inflight::GraphSnapshot s;
        const std::uint32_t rings = 2000, size = 16;
        for (std::uint32_t r = 0; r < rings; ++r)
            for (std::uint32_t k = 0; k < size; ++k) {
                inflight::SnapshotNode n;
                n.sock = r * size + k;
                n.label = s.names.intern("r" + std::to_string(r) + "s" + std::to_string(k));
                n.role = inflight::GcRole::inflight;
                n.listener_sock = inflight::npos;
                s.nodes.push_back(n);
                inflight::SnapshotEdge e;
                e.id = std::uint64_t{n.sock} << 8;
                e.from = n.sock;
                e.to = e.effective_to = r * size + (k + 1) % size;
                s.edges.push_back(e);
            }
        s.topology_key = 1;
        std::vector<double> build, layout, expand;
        int items = 0;
        for (int i = 0; i < 5; ++i) {
            GraphScene scene;
            scene.setAnimated(false);
            QElapsedTimer t;
            t.start();
            scene.setSnapshot(s, true);
            build.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
            waitForScene(scene, 60000);
            layout.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
            items = scene.socketItemCount() + scene.aggregateItemCount();
            QElapsedTimer e;
            e.start();
            scene.expandAggregate(scene.aggregateItems().first()->key());
            waitForScene(scene, 60000);
            expand.push_back(static_cast<double>(e.nsecsElapsed()) / 1e6);
        }
        std::printf("aggregate view, 32,000 sockets: %d items, snapshot to items %.1f ms, to laid out %.1f ms; "
                    "expanding %zu rings %.1f ms\n",
                    items, median(build), median(layout), GraphScene::kExpandBatch, median(expand));
    }
    return 0;
}
