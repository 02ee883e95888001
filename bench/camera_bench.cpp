// SPDX-License-Identifier: GPL-3.0-or-later
// Numbers for the graph on a projector (not a test): the presentation layout of a lesson-sized
// graph (30 sockets in rings of socketpairs and the process holding them, arranged to a
// projector pane's shape) and one camera move, each beside its goal. Medians of several runs.
// Runs offscreen unless QT_QPA_PLATFORM says otherwise.
#include "graph/graph_scene.h"
#include "graph/graph_style.h"
#include "graph/graph_view.h"
#include "graph/graphviz_layout.h"

#include "inflight/process_heap.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QGraphicsRectItem>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// 15 socketpairs (a_i, b_i): peers side by side, rings of three b's each holding the next a,
// one process with an fd on every socket. Compact boxes, as presentation mode measures them.
graph::LayoutRequest lessonRequest(double aspect)
{
    graph::LayoutRequest req;
    req.full = true;
    req.gap = 18;
    req.aspect = aspect;
    const double h = graphStyle().labelMetrics.height() * 1.6, w = h * 2;
    graph::LayoutNode process;
    process.key = graph::processKey(0);
    process.width = 3 * w;
    process.height = h;
    process.process = true;
    req.nodes.push_back(process);
    constexpr std::uint32_t kPairs = 15;
    for (std::uint32_t s = 0; s < 2 * kPairs; ++s) {
        graph::LayoutNode n;
        n.key = graph::socketKey(s);
        n.width = w;
        n.height = h;
        req.nodes.push_back(n);
        req.edges.push_back({graph::processKey(0), graph::socketKey(s)});
    }
    for (std::uint32_t i = 0; i < kPairs; ++i) {
        for (int twice = 0; twice < 2; ++twice)
            req.edges.push_back({graph::socketKey(2 * i), graph::socketKey(2 * i + 1)});
        const std::uint32_t next = (i % 3 == 2) ? i - 2 : i + 1; // rings of three pairs
        req.edges.push_back({graph::socketKey(2 * next), graph::socketKey(2 * i + 1)});
    }
    return req;
}

} // namespace

int main(int argc, char **argv)
{
    inflight::configure_process_heap(argc, argv); // the heap the app and the CLI run with
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    setCompactGraphStyle(true);
    std::printf("graph on a projector (medians)\n");

    // The graph pane of presentation mode at 1280x800: about 840 x 310 pixels.
    const graph::LayoutRequest req = lessonRequest(840.0 / 310.0);
    std::vector<double> layout_ms;
    for (int run = 0; run < 15; ++run) {
        QElapsedTimer t;
        t.start();
        const graph::LayoutResult r = graph::computeLayout(req);
        layout_ms.push_back(double(t.nsecsElapsed()) / 1e6);
        if (!r.ok) {
            std::fprintf(stderr, "layout failed: %s\n", r.error.c_str());
            return 1;
        }
    }
    std::printf("presentation layout, 30 sockets + 1 process: %6.1f ms   (goal <= 100 ms)\n", median(layout_ms));

    // One camera move across a graph far larger than the pane, from the first call to the view
    // standing at its new centre.
    GraphScene scene;
    for (int i = 0; i < 200; ++i)
        scene.addRect(QRectF((i % 20) * 150.0, (i / 20) * 80.0, 110, 50));
    scene.setSceneRect(QRectF(-20, -20, 3040, 840));
    GraphView view(&scene);
    view.resize(840, 310);
    view.setMinimumLabelPixels(24);
    view.show();
    view.fitAll();
    std::vector<double> move_ms;
    for (int run = 0; run < 7; ++run) {
        const QRectF subject = run % 2 ? QRectF(2800, 700, 110, 50) : QRectF(0, 0, 110, 50);
        QElapsedTimer t;
        t.start();
        view.frameSubject(subject);
        while (view.cameraMoving())
            QApplication::processEvents(QEventLoop::AllEvents, 5);
        move_ms.push_back(double(t.nsecsElapsed()) / 1e6);
        if (!view.visibleSceneRect().contains(subject)) {
            std::fprintf(stderr, "the camera did not reach its subject\n");
            return 1;
        }
    }
    std::printf("camera move to a new subject:              %6.1f ms   (goal <= 300 ms)\n", median(move_ms));
    return 0;
}
