// SPDX-License-Identifier: GPL-3.0-or-later
// inflight-app-bench: the application's figures on real scenes, offscreen. Prints numbers.
//   opening a scene (first frame), indexing the whole run, jumping to step 100,000, and the
//   memory of the open 32,000-socket scene; the million-socket autobind scene opened and
//   played to its end.
//   inflight-app-bench [jump] [open32k] [million]     (default: all three)
#include "graph/graph_panel.h"
#include "main_window.h"
#include "player_controller.h"
#include "proc_status.hpp"

#include <QApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

bool wait_index(PlayerController &c, int ms)
{
    QElapsedTimer t;
    t.start();
    while (!c.indexReady() && t.elapsed() < ms)
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    return c.indexReady();
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QString scenes = QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/");
    const QStringList args = app.arguments().mid(1);
    auto wanted = [&](const char *part) { return args.isEmpty() || args.contains(QLatin1String(part)); };

    if (wanted("jump")) {
        // Jump to step 100,000 of a long scene (the 32,000-socket scene is 2e8 steps long).
        std::vector<double> jump;
        for (int i = 0; i < 5; ++i) {
            PlayerController c;
            MainWindow w(c);
            w.resize(1600, 1000);
            w.show();
            w.openScene(scenes + "large/large-32000-in-flight.scn", false);
            QApplication::processEvents();
            QElapsedTimer t;
            t.start();
            c.seek(100000);
            QApplication::processEvents(); // the views repaint on positionChanged
            jump.push_back(t.nsecsElapsed() / 1e6);
            if (c.position() != 100000)
                std::printf("  (jump landed at %llu)\n", static_cast<unsigned long long>(c.position()));
        }
        std::printf("Jump to step 100,000 (engine replay + every view updated): %.1f ms median\n", median(jump));
    }

    if (wanted("open32k")) {
        const long before = bench::status_kib("VmRSS");
        PlayerController c;
        MainWindow w(c);
        w.resize(1600, 1000);
        w.show();
        QElapsedTimer t;
        t.start();
        w.openScene(scenes + "large/large-32000-in-flight.scn", false);
        QApplication::processEvents();
        const double first_frame = t.nsecsElapsed() / 1e6;
        const bool indexed = wait_index(c, 600000);
        const double index_s = t.elapsed() / 1000.0;
        // The graph of 64,000 sockets, once they all exist: step to the end of the socketpairs.
        QElapsedTimer lt;
        lt.start();
        c.seek(c.firstStepOfLine(21));
        while (c.isBusy())
            QApplication::processEvents(QEventLoop::AllEvents, 20);
        QApplication::processEvents();
        const bool laid_out = w.graph().waitForLayout(120000);
        const double layout_s = lt.elapsed() / 1000.0;
        std::printf("32,000-in-flight scene: first frame %.0f ms; whole run indexed in %.1f s (%s, %llu steps);\n"
                    "  jump to the end of the socketpairs and lay out all 64,000 sockets: %.1f s (%s);\n"
                    "  resident memory of the open scene %ld MB\n",
                    first_frame, index_s, indexed ? "ok" : "not finished",
                    static_cast<unsigned long long>(c.totalSteps()), layout_s, laid_out ? "ok" : "not finished",
                    (bench::status_kib("VmRSS") - before) / 1024);
    }
    if (wanted("million")) {
        // 1,048,578 sockets bound by name: every view shows the end state of the whole fill.
        const long before = bench::status_kib("VmRSS");
        PlayerController c;
        MainWindow w(c);
        w.resize(1600, 1000);
        w.show();
        QElapsedTimer t;
        t.start();
        w.openScene(scenes + "autobind-exhaustion.scn", false);
        QApplication::processEvents();
        const double first_frame = t.nsecsElapsed() / 1e6;
        const bool indexed = wait_index(c, 600000);
        const double index_s = t.elapsed() / 1000.0;
        std::fprintf(stderr, "  indexed after %.1f s: %llu steps, rss %ld MB\n", index_s,
                     static_cast<unsigned long long>(c.totalSteps()), bench::status_kib("VmRSS") / 1024);
        QElapsedTimer lt;
        lt.start();
        c.last();
        qint64 said = 0;
        while ((!c.atEnd() || c.isBusy()) && lt.elapsed() < 600000) {
            QApplication::processEvents(QEventLoop::AllEvents, 20);
            if (lt.elapsed() - said > 10000) {
                said = lt.elapsed();
                std::fprintf(stderr, "  ... %.0f s: step %llu of %llu, %s\n", said / 1000.0,
                             static_cast<unsigned long long>(c.position()),
                             static_cast<unsigned long long>(c.totalSteps()), c.isBusy() ? "busy" : "idle");
            }
        }
        QApplication::processEvents();
        const double end_s = lt.elapsed() / 1000.0;
        // Stepping near the end: every view follows each step over a million sockets.
        c.seek(c.totalSteps() - 40);
        while (c.isBusy())
            QApplication::processEvents(QEventLoop::AllEvents, 20);
        QApplication::processEvents();
        std::vector<double> step_ms;
        for (int i = 0; i < 20; ++i) {
            QElapsedTimer st;
            st.start();
            c.stepInto();
            QApplication::processEvents();
            step_ms.push_back(st.nsecsElapsed() / 1e6);
        }
        QElapsedTimer gt;
        gt.start();
        w.graph().refresh();
        const double graph_ms = gt.nsecsElapsed() / 1e6;
        std::printf("  a step near the end (engine + every view but a deferred graph): %.1f ms median, %.1f ms max;\n"
                    "  one graph refresh over a million sockets: %.0f ms\n",
                    median(step_ms), *std::max_element(step_ms.begin(), step_ms.end()), graph_ms);
        std::printf("autobind-exhaustion (1,048,578 sockets): first frame %.0f ms; indexed in %.1f s (%s);\n"
                    "  last(): at the end after %.1f s more (%s); resident memory %ld MB, peak %ld MB\n",
                    first_frame, index_s, indexed ? "ok" : "not finished", end_s, c.atEnd() ? "ok" : "not finished",
                    (bench::status_kib("VmRSS") - before) / 1024, bench::status_kib("VmHWM") / 1024);
    }
    return 0;
}
