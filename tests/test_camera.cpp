// SPDX-License-Identifier: GPL-3.0-or-later
// The graph on a projector: presentation mode shows a lesson's whole graph with names a back
// row reads (at 1280x800 and 1024x768), F fits everything at any size, the camera follows a
// larger graph's subject and moves only when the subject changes, a finding is announced and
// ringed at its step, the Algorithm pane's line is the editor's, Larger text enlarges the
// names, and leaving presentation mode gives the graph back as it was.
#include "docks/algorithm_dock.h"
#include "editor/scene_editor.h"
#include "graph/graph_panel.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/process_item.h"
#include "graph/socket_item.h"
#include "inflight/narrate.hpp"
#include "main_window.h"
#include "offscreen_screen.h"
#include "player_controller.h"
#include "theme.h"
#include "wait_index.hpp"

#include <QApplication>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using inflight::test::waitIndex;

namespace {

QString scenePath(const char *name) { return QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/") + QLatin1String(name); }

// The projector: the screen's size and the least size of a socket's name on it (24 px at
// 1280x800, 20 px at 1024x768). Set from INFLIGHT_TEST_SCREEN (default 1280x800): the suite
// runs once per projector.
QSize g_screen(1280, 800);
double g_floor = 24;

// Presentation mode, full screen on the projector.
void present(MainWindow &w)
{
    w.resize(g_screen);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.setPresentationMode(true);
    QTest::qWait(0);
    QCoreApplication::processEvents();
    QCOMPARE(w.size(), g_screen);
}

// Every drawn socket and process of the graph, in viewport pixels.
struct Seen {
    int nodes = 0, outside = 0;
    QString first_outside;
};

Seen nodesInViewport(GraphPanel &g)
{
    Seen seen;
    GraphView *view = g.view();
    const QRect port = view->viewport()->rect();
    auto check = [&](const NodeItem *item, const QString &name) {
        if (!item->isVisible() || item->parentItem())
            return;
        ++seen.nodes;
        const QRect r = view->mapFromScene(item->sceneBox()).boundingRect();
        if (!port.contains(r)) {
            if (!seen.outside++)
                seen.first_outside = QStringLiteral("%1 at %2,%3 %4x%5 in %6x%7")
                                         .arg(name)
                                         .arg(r.x())
                                         .arg(r.y())
                                         .arg(r.width())
                                         .arg(r.height())
                                         .arg(port.width())
                                         .arg(port.height());
        }
    };
    for (const SocketItem *s : g.scene()->socketItems())
        check(s, s->label());
    for (const ProcessItem *p : g.scene()->processItems())
        check(p, QString::fromStdString(p->process().name));
    return seen;
}

// The graph shows every node at `pixels` or more once its layout (and the pane's shape) settled.
bool wholeGraphReadable(GraphPanel &g, double pixels, QString &why)
{
    if (g.scene()->layoutPending()) {
        why = QStringLiteral("layout pending");
        return false;
    }
    const Seen seen = nodesInViewport(g);
    why = QStringLiteral("%1 of %2 nodes outside (%3); names %4 px")
              .arg(seen.outside)
              .arg(seen.nodes)
              .arg(seen.first_outside)
              .arg(g.view()->labelScreenPixels());
    return seen.nodes > 0 && seen.outside == 0 && g.view()->labelScreenPixels() >= pixels;
}

// Every socket and process of the panel's subject fully in the viewport, where they fit
// together; the processes an fd points at too, where they fit beside them with the camera's margin.
bool subjectInView(GraphPanel &g, QString &why)
{
    GraphView *view = g.view();
    const QRect port = view->viewport()->rect();
    QRect all;
    QRectF together; // scene units
    QStringList outside;
    auto check = [&](const NodeItem *item, const QString &name) {
        if (!item || !item->isVisible())
            return;
        const QRect r = view->mapFromScene(item->sceneBox()).boundingRect();
        all |= r;
        if (!port.contains(r))
            outside << QStringLiteral("%1 at %2,%3").arg(name).arg(r.x()).arg(r.y());
    };
    auto unite = [&together](const NodeItem *item) {
        if (item && item->isVisible())
            together = together.isNull() ? item->sceneBox() : together.united(item->sceneBox());
    };
    for (std::uint32_t sock : g.subject().sockets) {
        check(g.scene()->itemShowing(sock), QString::number(sock));
        unite(g.scene()->itemShowing(sock));
    }
    for (std::uint32_t id : g.subject().processes) {
        check(g.scene()->processItem(id), QStringLiteral("process %1").arg(id));
        unite(g.scene()->processItem(id));
    }
    // (Mapped to pixels, each box is rounded out by up to a pixel a side.)
    const bool named_fit = all.width() <= port.width() - 2 && all.height() <= port.height() - 2;
    for (std::uint32_t id : g.subject().holders)
        unite(g.scene()->processItem(id));
    if (outside.isEmpty() && named_fit && view->fitsWithMargin(together))
        for (std::uint32_t id : g.subject().holders)
            check(g.scene()->processItem(id), QStringLiteral("holder %1").arg(id));
    why = outside.join(QStringLiteral(", ")) + QStringLiteral(" in %1x%2").arg(port.width()).arg(port.height());
    return outside.isEmpty() || !named_fit;
}

QPointF viewCentre(GraphView *v) { return v->mapToScene(v->viewport()->rect().center()); }

// 40 socketpairs, too many to show whole with names at 24 px in a projector's pane: a few
// sends between pairs far apart, so the subject moves across the graph.
QString largeScene()
{
    return QStringLiteral("set gc graph\n"
                          "repeat 40 as i {\n  socketpair a$i b$i\n}\n"
                          "send b1 fds=a0\n"
                          "send b2 fds=a1\n"
                          "send b39 fds=a38\n"
                          "send b38 fds=a39\n"
                          "send b20 fds=a0\n"
                          "close a0 a1\n");
}

// The large scene at its end, presented, its layout in.
void presentLargeAtItsEnd(PlayerController &c, MainWindow &w)
{
    QVERIFY(c.openText(largeScene(), QStringLiteral("large.scn")));
    QVERIFY(waitIndex(c));
    c.seek(c.totalSteps());
    QTRY_VERIFY(!c.isBusy());
    present(w);
    QVERIFY(w.graph().waitForLayout(20000));
    QTRY_VERIFY(!w.graph().scene()->layoutPending());
}

// The CVE-2021-0920 gallery scene on its buggy variant, indexed: the run whose WARN the lesson
// must show at its step.
bool openBuggyCve(PlayerController &c, MainWindow &w)
{
    if (!w.openSceneNow(scenePath("bugs/cve-2021-0920-peek-classic.scn")) || !waitIndex(c))
        return false;
    const auto &variants = c.scene().variants;
    for (std::size_t i = 0; i < variants.size(); ++i)
        if (variants[i].name == "buggy") {
            c.setVariant(int(i));
            return waitIndex(c);
        }
    return false;
}

} // namespace

class TestCamera : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init()
    {
        QSettings().clear();
        Theme::instance().setFontScale(1.0);
        Theme::instance().setHighContrast(false);
    }

    void lessonGraphWholeAndReadable_data()
    {
        QTest::addColumn<QString>("scene");
        QTest::addColumn<int>("step");
        for (const char *scene : {"selftest-triangle-stream.scn", "selftest-mixed-lowpoint-stream.scn"})
            for (int step : {70, 141, 160, -1}) {
                const QByteArray name = QByteArray(scene).chopped(4) + " step " + QByteArray::number(step);
                QTest::newRow(name.constData()) << QString::fromLatin1(scene) << step;
            }
    }
    void lessonGraphWholeAndReadable()
    {
        QFETCH(QString, scene);
        QFETCH(int, step);
        PlayerController c;
        MainWindow w(c);
        QVERIFY(w.openSceneNow(scenePath(scene.toLatin1().constData())));
        QVERIFY(waitIndex(c));
        c.seek(step < 0 ? c.totalSteps() : std::uint64_t(step));
        QTRY_VERIFY(!c.isBusy());
        present(w);
        QVERIFY(w.graph().waitForLayout(20000));
        QString why;
        QTRY_VERIFY2_WITH_TIMEOUT(wholeGraphReadable(w.graph(), g_floor, why), qPrintable(why), 5000);
    }

    // F: everything, however small the names get (a graph far larger than the pane).
    void fitShowsEverythingAtAnySize()
    {
        PlayerController c;
        MainWindow w(c);
        presentLargeAtItsEnd(c, w);
        if (QTest::currentTestFailed())
            return;
        GraphPanel &g = w.graph();
        QVERIFY2(nodesInViewport(g).outside > 0, "the large graph should not fit at the label floor");
        QTest::keyClick(g.view(), Qt::Key_F);
        const Seen seen = nodesInViewport(g);
        QVERIFY2(seen.outside == 0, qPrintable(seen.first_outside));
        QVERIFY(g.view()->labelScreenPixels() < g_floor);
    }

    // The camera moves when the subject changes, in one move, and never between two steps
    // with the same subject.
    void cameraMovesOnlyWithTheSubject()
    {
        PlayerController c;
        MainWindow w(c);
        QVERIFY(c.openText(largeScene(), QStringLiteral("large.scn")));
        QVERIFY(waitIndex(c));
        present(w);
        GraphPanel &g = w.graph();
        QVERIFY(g.waitForLayout(20000));
        int moves = 0, same_subject_steps = 0;
        while (!c.atEnd()) {
            g.view()->finishCameraMove();
            const StepSubject before = g.subject();
            const QPointF centre = viewCentre(g.view());
            const QTransform zoom = g.view()->transform();
            c.stepInto();
            g.flushRefresh();
            QVERIFY(g.waitForLayout(20000));
            if (g.subject() == before) {
                ++same_subject_steps;
                QVERIFY2(!g.view()->cameraMoving() && viewCentre(g.view()) == centre && g.view()->transform() == zoom,
                         qPrintable(QStringLiteral("step %1: same subject, the view moved").arg(c.position())));
            } else if (g.view()->cameraMoving()) {
                ++moves;
                g.view()->finishCameraMove();
                QVERIFY(viewCentre(g.view()) != centre);
            }
            // Where the layout put them (new sockets are placed after the step is drawn).
            QString why;
            QVERIFY2(subjectInView(g, why), qPrintable(QStringLiteral("step %1: %2").arg(c.position()).arg(why)));
        }
        QVERIFY2(moves >= 2, qPrintable(QString::number(moves)));
        QVERIFY(same_subject_steps > 0);
    }

    // A subject larger than the view (a process far from the sockets it creates): the camera
    // shows its top left part, also when a layout landing fits the view again, never its
    // centre, which may fall between its parts.
    void subjectLargerThanTheViewShowsItsTopLeft()
    {
        PlayerController c;
        MainWindow w(c);
        presentLargeAtItsEnd(c, w);
        if (QTest::currentTestFailed())
            return;
        GraphPanel &g = w.graph();
        GraphView *v = g.view();
        const QRectF subject = v->scene()->sceneRect().adjusted(10, 10, -10, -10);
        const QRectF seen = v->visibleSceneRect();
        QVERIFY2(subject.width() > seen.width() || subject.height() > seen.height(), "the graph fits whole");
        const QPointF corner = subject.topLeft() + QPointF(seen.width(), seen.height()) / 8;
        v->frameSubject(subject);
        v->finishCameraMove();
        QVERIFY(v->visibleSceneRect().contains(corner));
        v->fitAll(); // what a layout landing or a resize does to a view that follows the graph
        QVERIFY2(v->visibleSceneRect().contains(corner), qPrintable(QStringLiteral("%1,%2 not in %3,%4 %5x%6")
                                                                        .arg(corner.x())
                                                                        .arg(corner.y())
                                                                        .arg(v->visibleSceneRect().x())
                                                                        .arg(v->visibleSceneRect().y())
                                                                        .arg(v->visibleSceneRect().width())
                                                                        .arg(v->visibleSceneRect().height())));
    }

    // CVE-2021-0920's buggy side: the use-after-free is told at step 103, where the CLI places it.
    void useAfterFreeAnnouncedAtItsStep()
    {
        PlayerController c;
        MainWindow w(c);
        QVERIFY(openBuggyCve(c, w));
        auto *algorithm = static_cast<docks::AlgorithmDock *>(w.windowDocks().algorithm);
        c.seek(102);
        QTRY_VERIFY(!c.isBusy());
        QVERIFY(algorithm->findingText().isEmpty());
        c.seek(103);
        QTRY_VERIFY(!c.isBusy());
        QTRY_VERIFY(algorithm->findingText().contains(QStringLiteral("use-after-free")));
        QVERIFY(algorithm->findingText().startsWith(QStringLiteral("WARN"), Qt::CaseInsensitive) ||
                algorithm->findingText().contains(QStringLiteral("WARN: ")));
        QVERIFY(!algorithm->narrationText().contains(QStringLiteral("use-after-free")));
        // Ringed on the graph: the socket the finding names.
        w.graph().flushRefresh();
        QVERIFY(w.graph().waitForLayout(20000));
        GraphScene *scene = w.graph().scene();
        QVERIFY(scene->findingMarkCount() > 0);
        const auto labelled = [&](const char *label) {
            for (const SocketItem *s : scene->socketItems())
                if (s->label() == QLatin1String(label))
                    return s->key();
            return graph::NodeKey(0);
        };
        QVERIFY(scene->isMarked(labelled("a")));
        c.seek(104);
        QTRY_VERIFY(!c.isBusy());
        w.graph().flushRefresh();
        QCOMPARE(scene->findingMarkCount(), 0);
        QVERIFY(algorithm->findingText().isEmpty());
    }

    // Playing stops at the WARN, so the class sees it when it happens.
    void playingStopsAtTheWarning()
    {
        PlayerController c;
        MainWindow w(c);
        QVERIFY(openBuggyCve(c, w));
        c.seek(90);
        QTRY_VERIFY(!c.isBusy());
        c.continueToBreakpoint();
        QTRY_COMPARE_WITH_TIMEOUT(c.position(), std::uint64_t(103), 20000);
        QTRY_VERIFY(!c.isBusy() && !c.isPlaying());
        QCOMPARE(c.position(), std::uint64_t(103));
    }

    // After a task switch the pane names the line the editor and the timeline show: the
    // step's own task's statement.
    void algorithmLineIsTheEditorsAfterATaskSwitch()
    {
        PlayerController c;
        MainWindow w(c);
        QVERIFY(openBuggyCve(c, w));
        auto *algorithm = static_cast<docks::AlgorithmDock *>(w.windowDocks().algorithm);
        static const QRegularExpression line_re(QStringLiteral(" · line (\\d+)"));
        c.seek(80);
        QTRY_VERIFY(!c.isBusy());
        int checked = 0;
        while (!c.atEnd() && c.position() < 120) {
            c.stepInto();
            const QRegularExpressionMatch m = line_re.match(algorithm->captionText());
            QVERIFY2(m.hasMatch(), qPrintable(algorithm->captionText()));
            const int pane = m.captured(1).toInt();
            QCOMPARE(pane, int(c.snapshot().current_line));
            QCOMPARE(w.sceneEditor().currentLine(), pane);
            if (c.currentEvent()->scene_line)
                QCOMPARE(pane, int(c.currentEvent()->scene_line));
            ++checked;
        }
        QVERIFY(checked > 20);
    }

    // Leaving presentation mode gives back the graph as it was: zoom and centre.
    void leavingPresentationRestoresTheGraph()
    {
        PlayerController c;
        MainWindow w(c);
        QVERIFY(w.openSceneNow(scenePath("selftest-triangle-stream.scn")));
        QVERIFY(waitIndex(c));
        c.seek(70);
        QTRY_VERIFY(!c.isBusy());
        w.resize(g_screen);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        GraphPanel &g = w.graph();
        // The window as a user has it: laid out to its pane's shape.
        const auto shaped = [&g] {
            const QSize port = g.view()->viewport()->size();
            const double ratio = g.scene()->layoutAspect() * port.height() / std::max(1, port.width());
            return std::abs(std::log(ratio)) <= std::log(1.2) + 1e-9;
        };
        QTRY_VERIFY(shaped());
        QVERIFY(g.waitForLayout(20000));
        g.view()->zoomBy(1.25);
        g.view()->zoomBy(1.25);
        const QTransform zoom = g.view()->transform();
        const QPointF centre = viewCentre(g.view());
        w.setPresentationMode(true);
        QTest::qWait(0);
        QVERIFY(g.waitForLayout(20000));
        QVERIFY(g.view()->transform() != zoom);
        w.setPresentationMode(false);
        QTest::qWait(0);
        QCoreApplication::processEvents();
        QVERIFY(g.waitForLayout(20000));
        QTRY_COMPARE(g.view()->transform(), zoom);
        const QPointF now = viewCentre(g.view());
        QVERIFY2(
            std::abs(now.x() - centre.x()) < 2 && std::abs(now.y() - centre.y()) < 2,
            qPrintable(QStringLiteral("%1,%2 -> %3,%4").arg(centre.x()).arg(centre.y()).arg(now.x()).arg(now.y())));
        QVERIFY(nodesInViewport(g).nodes > 0);
    }

    // End, then Home, then a step: the pane shows the graph again.
    void endThenHomeKeepsTheGraph()
    {
        PlayerController c;
        MainWindow w(c);
        QVERIFY(w.openSceneNow(scenePath("selftest-triangle-stream.scn")));
        QVERIFY(waitIndex(c));
        present(w);
        GraphPanel &g = w.graph();
        c.seek(c.totalSteps());
        QTRY_VERIFY(!c.isBusy());
        g.flushRefresh();
        QVERIFY(g.waitForLayout(20000));
        c.seek(0);
        QTRY_VERIFY(!c.isBusy());
        g.flushRefresh();
        for (int i = 0; i < 3; ++i)
            c.stepInto();
        g.flushRefresh();
        QString why;
        QTRY_VERIFY2_WITH_TIMEOUT(wholeGraphReadable(g, g_floor, why), qPrintable(why), 20000);
    }

    // Larger text: the names grow on screen too.
    void largerTextEnlargesTheNames()
    {
        PlayerController c;
        MainWindow w(c);
        QVERIFY(w.openSceneNow(scenePath("selftest-triangle-stream.scn")));
        QVERIFY(waitIndex(c));
        c.seek(70);
        QTRY_VERIFY(!c.isBusy());
        present(w);
        GraphPanel &g = w.graph();
        QString why;
        QTRY_VERIFY2_WITH_TIMEOUT(wholeGraphReadable(g, g_floor, why), qPrintable(why), 20000);
        const double before = g.view()->labelScreenPixels();
        w.action("fontBigger")->trigger();
        QVERIFY(g.waitForLayout(20000));
        QTRY_VERIFY2(g.view()->labelScreenPixels() >= before * 1.1,
                     qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(g.view()->labelScreenPixels())));
    }
};

// The offscreen platform's screen is made the projector's (its default is 800x600).
int main(int argc, char **argv)
{
    const QByteArray screen = qgetenv("INFLIGHT_TEST_SCREEN");
    if (screen == "1024x768") {
        g_screen = QSize(1024, 768);
        g_floor = 20;
    }
    QTemporaryDir dir;
    if (qgetenv("QT_QPA_PLATFORM").startsWith("offscreen")) {
        const QString why = offscreen_screen::use(dir, g_screen);
        if (!why.isEmpty())
            qFatal("the projector's screen: %s", qPrintable(why));
    }
    QApplication app(argc, argv);
    TestCamera test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_camera.moc"
