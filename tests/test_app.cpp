// SPDX-License-Identifier: GPL-3.0-or-later
// The application as a user drives it: open, play, step back and forth, breakpoints, collector
// switch, every scene played to the end, and --screenshot.
#include "editor/editor_session.h"
#include "editor/scene_editor.h"
#include "main_window.h"
#include "offscreen_app.hpp"
#include "player_controller.h"
#include "wait_index.hpp"

#include "inflight/graph_snapshot.hpp"
#include "inflight/kernel.hpp"
#include "inflight/parser.hpp"
#include "inflight/simulation.hpp"

#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QMenu>
#include <QProcess>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using namespace inflight;
using inflight::test::waitIndex;

namespace {

bool write_file(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

const char *kTriangle = "scene \"t\"\nset gc classic\nsocketpair a a2\nsocketpair b b2\nsocketpair c c2\n"
                        "send a2 fds=b\nsend b2 fds=c\nsend c2 fds=a\nclose a b c\nclose a2\nclose b2 c2\n";

// What every view is built from at one step.
QString shown(const PlayerController &c)
{
    const GraphSnapshot g = snapshot_graph(c.sim().kernel());
    QString s = QStringLiteral("%1/%2:").arg(c.position()).arg(c.sim().current_line());
    for (const auto &n : g.nodes)
        s += QStringLiteral("%1=%2,%3,%4,%5;")
                 .arg(QString::fromUtf8(g.label_of(n)))
                 .arg(int(n.role))
                 .arg(n.file_refs)
                 .arg(n.inflight)
                 .arg(n.queue);
    for (const auto &e : g.edges)
        s += QStringLiteral("e%1:%2>%3%4;").arg(e.id).arg(e.from).arg(e.to).arg(e.on_hitlist ? "h" : "");
    if (const Event *e = c.currentEvent())
        s += QStringLiteral("ev%1,%2,%3").arg(int(e->kind)).arg(e->a).arg(e->algo_line);
    return s;
}

} // namespace

class TestApp : public QObject {
    Q_OBJECT
private slots:
    void welcomeSceneOpensAtStepZero()
    {
        PlayerController c;
        MainWindow w(c);
        QVERIFY(w.openWelcome());
        QVERIFY(c.hasScene());
        QCOMPARE(c.position(), std::uint64_t(0));
        QVERIFY(waitIndex(c));
        QVERIFY(c.totalSteps() > 100);
        QVERIFY(!c.collectionSteps().empty());
    }

    void sameStateForwardBackwardAndByJump()
    {
        PlayerController c;
        QVERIFY(c.openText(QString::fromLatin1(kTriangle), "t.scn"));
        QVERIFY(waitIndex(c));
        QStringList forward{shown(c)};
        for (;;) {
            const auto before = c.position();
            c.stepInto();
            if (c.position() == before)
                break;
            forward << shown(c);
        }
        QCOMPARE(std::uint64_t(forward.size() - 1), c.totalSteps());
        for (std::uint64_t k = c.totalSteps(); k-- > 0;) {
            c.back();
            QCOMPARE(shown(c), forward[static_cast<int>(k)]);
        }
        for (std::uint64_t k :
             {std::uint64_t(57), std::uint64_t(3), c.totalSteps(), std::uint64_t(80), std::uint64_t(0)}) {
            c.seek(k);
            QCOMPARE(shown(c), forward[static_cast<int>(k)]);
        }
    }

    // File ▸ Examples lists every scene of scenes/ by title, in groups, and opens the one picked.
    void examplesMenuOpensAScene()
    {
        PlayerController c;
        MainWindow w(c);
        QMenu *examples = nullptr;
        for (QMenu *m : w.findChildren<QMenu *>())
            if (m->title() == QStringLiteral("&Examples"))
                examples = m;
        QVERIFY(examples);
        QStringList groups;
        QAction *triangle = nullptr;
        int scenes = 0;
        for (QAction *g : examples->actions()) {
            if (!g->menu())
                continue;
            groups << g->text();
            for (QAction *a : g->menu()->actions()) {
                ++scenes;
                if (a->text() == QStringLiteral("Selftest triangle (stream socketpairs)"))
                    triangle = a;
            }
        }
        QCOMPARE(
            scenes,
            int(QDir(QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes")).entryList({QStringLiteral("*.scn")}).size() +
                QDir(QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/large")).entryList({QStringLiteral("*.scn")}).size() +
                QDir(QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/bugs")).entryList({QStringLiteral("*.scn")}).size()));
        QVERIFY(groups.contains(QStringLiteral("Bugs")));
        QVERIFY2(groups.size() >= 4, qPrintable(groups.join(QLatin1Char(','))));
        QVERIFY(triangle);
        triangle->trigger();
        // The editor has the file at once; the parse is on the checker's thread, so the run
        // comes with a later turn of the event loop, not within the menu's click.
        QVERIFY(w.sceneEditor().bytes().contains("socketpair"));
        QVERIFY(!c.hasScene());
        QTRY_VERIFY(c.hasScene());
        QVERIFY2(c.filePath().endsWith(QStringLiteral("/selftest-triangle-stream.scn")), qPrintable(c.filePath()));
        QCOMPARE(c.position(), std::uint64_t(0));
    }

    // A file with errors opened from the window keeps the run on screen, marks its errors and
    // says so in the status bar once its background check is in.
    void aBrokenFileOpenedFromTheWindowIsReportedWhenChecked()
    {
        PlayerController c;
        MainWindow w(c);
        const QString good = QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/selftest-triangle-stream.scn");
        QVERIFY(w.openScene(good));
        QTRY_VERIFY(c.hasScene());
        c.stepOver();
        const std::uint64_t at = c.position();
        QTemporaryDir dir;
        const QString broken = dir.filePath(QStringLiteral("broken.scn"));
        QVERIFY(write_file(broken, "socketpair a b\nfrobnicate x\n"));
        QSignalSpy checkedSpy(&w.session(), &editor::EditorSession::fileChecked);
        QVERIFY(w.openScene(broken));
        QVERIFY(!w.statusBar()->currentMessage().contains(QStringLiteral("has errors"))); // not before the check
        QTRY_COMPARE(checkedSpy.count(), 1);
        QCOMPARE(checkedSpy.first().first().toBool(), false);
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("broken.scn has errors")),
                 qPrintable(w.statusBar()->currentMessage()));
        QVERIFY(!w.sceneEditor().diagnostics().empty());
        QVERIFY(c.filePath().endsWith(QStringLiteral("/selftest-triangle-stream.scn")));
        QCOMPARE(c.position(), at);
        // An unreadable file changes nothing (its message box is the window's; none here).
        w.session().setMessageSink([](const QString &) {});
        QVERIFY(!w.openScene(dir.filePath(QStringLiteral("missing.scn"))));
        QCOMPARE(w.session().path(), QFileInfo(broken).absoluteFilePath());
    }

    // A scene with variant blocks gets a variant box; choosing one runs the same statements
    // under its settings, and "as written" goes back.
    void variantsRunFromTheToolbar()
    {
        PlayerController c;
        MainWindow w(c);
        QVERIFY(c.openText(QStringLiteral("scene \"v\"\nset gc classic\nset autobind sequential\n"
                                          "variant fast {\n  set gc graph\n}\nvariant rnd {\n  set autobind random\n}\n"
                                          "socket s dgram\nbind s\n"),
                           QStringLiteral("v.scn")));
        auto *box = w.findChild<QComboBox *>(QStringLiteral("variantBox"));
        QVERIFY(box);
        QCOMPARE(box->count(), 3);
        QCOMPARE(box->itemText(2), QStringLiteral("variant rnd"));
        box->setCurrentIndex(1);
        emit box->activated(1);
        QCOMPARE(c.variant(), 0);
        QCOMPARE(c.era(), GcEra::graph);
        QCOMPARE(c.scene().settings.gc, GcEra::graph);
        QCOMPARE(c.scene().statements.size(), c.baseScene().statements.size());
        emit box->activated(2);
        QCOMPARE(c.era(), GcEra::classic);
        QCOMPARE(*c.scene().settings.autobind, inflight::AutobindMode::random);
        emit box->activated(0);
        QCOMPARE(c.variant(), -1);
        QCOMPARE(*c.scene().settings.autobind, inflight::AutobindMode::sequential);
        // A scene without variants has no box.
        QVERIFY(c.openText(QString::fromLatin1(kTriangle), QStringLiteral("t.scn")));
        QCOMPARE(box->count(), 0);
    }

    void lineAndEventBreakpointsStop()
    {
        PlayerController c;
        QVERIFY(c.openText(QString::fromLatin1(kTriangle), "t.scn"));
        c.eventBreakpoints().invariant_violated = true;
        c.toggleLineBreakpoint(9); // close a b c
        QSignalSpy hits(&c, &PlayerController::breakpointHit);
        c.continueToBreakpoint();
        QCOMPARE(hits.count(), 1);
        QCOMPARE(c.currentEvent()->kind, EventKind::stmt_begin);
        QCOMPARE(c.sim().current_line(), 9u);

        c.eventBreakpoints().collection_starts = true;
        c.continueToBreakpoint();
        QCOMPARE(c.currentEvent()->kind, EventKind::gc_begin);
        QCOMPARE(c.sim().current_line(), 10u);

        c.first();
        c.toggleLineBreakpoint(9);
        c.eventBreakpoints().collection_starts = false;
        c.eventBreakpoints().found_garbage = "b";
        c.continueToBreakpoint();
        QVERIFY(c.currentEvent());
        QCOMPARE(QString::fromStdString(c.sim().kernel().label_of_id(c.currentEvent()->a)), QStringLiteral("b"));
        QCOMPARE(c.sim().kernel().gc_phase, GcPhase::hitlist);

        c.first();
        c.eventBreakpoints().found_garbage.clear();
        c.eventBreakpoints().hitlist_non_empty = true;
        c.continueToBreakpoint();
        QCOMPARE(c.currentEvent()->kind, EventKind::skb_hitlist);
        QCOMPARE(c.sim().kernel().hitlist.size(), std::size_t(1));
    }

    void failingStatementBreakpoint()
    {
        PlayerController c;
        QVERIFY(c.openText(QStringLiteral("socketpair a b\nclose a\nsend a\nexpect error EBADF\nsocket s\n"), "f.scn"));
        c.eventBreakpoints().statement_fails = true;
        c.continueToBreakpoint();
        QCOMPARE(c.currentEvent()->kind, EventKind::stmt_end);
        QCOMPARE(c.sim().current_line(), 3u);
    }

    void collectorSwitchKeepsTheStatement()
    {
        PlayerController c;
        QVERIFY(c.openText(QString::fromLatin1(kTriangle), "t.scn"));
        for (int i = 0; i < 7; ++i)
            c.stepOver();
        const auto line = c.sim().current_line();
        c.setEra(GcEra::graph);
        QCOMPARE(c.era(), GcEra::graph);
        QCOMPARE(c.sim().era(), GcEra::graph);
        QCOMPARE(c.sim().current_line(), line);
        QVERIFY(waitIndex(c));
        c.last();
        QVERIFY(c.sim().kernel().gc_runs.size() >= 1);
    }

    void playAdvancesAndStopsAtTheEnd()
    {
        PlayerController c;
        QVERIFY(c.openText(QString::fromLatin1(kTriangle), "t.scn"));
        c.setSpeed(100000);
        QSignalSpy playing(&c, &PlayerController::playingChanged);
        c.play();
        QVERIFY(c.isPlaying());
        while (c.isPlaying())
            QVERIFY(playing.wait(5000));
        QVERIFY(c.atEnd());
    }

    void badSceneKeepsTheCurrentOne()
    {
        PlayerController c;
        QVERIFY(c.openText(QString::fromLatin1(kTriangle), "t.scn"));
        c.stepOver();
        const auto at = c.position();
        QStringList errors;
        QVERIFY(!c.openText(QStringLiteral("socketpair a\nfrobnicate x\n"), "bad.scn", &errors));
        QCOMPARE(errors.size(), 2);
        QVERIFY(errors[0].startsWith(QStringLiteral("bad.scn:1:")));
        QVERIFY(errors[1].startsWith(QStringLiteral("bad.scn:2:1: error:")));
        QCOMPARE(c.position(), at);
        QVERIFY(!c.openFile(QStringLiteral("/nonexistent/x.scn"), &errors));
        QVERIFY(errors.first().contains(QStringLiteral("cannot open")));
        QCOMPARE(c.position(), at);
    }

    void aSceneBringsItsPanelForward()
    {
        // The bottom area shows what the scene is about: the name space for scenes that mostly
        // autobind, the latencies for timed scenes on several CPUs, else the event log.
        PlayerController c;
        MainWindow w(c);
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *log = w.findChild<QDockWidget *>("eventLogDock");
        auto *latency = w.findChild<QDockWidget *>("latencyDock");
        auto *autobind = w.findChild<QDockWidget *>("autobindDock");
        QVERIFY(log && latency && autobind);
        const QString scenes = QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/");
        // A tab behind another is moved out of sight rather than hidden.
        auto shown = [](QDockWidget *d) { return d->isVisible() && !d->visibleRegion().isEmpty(); };
        QVERIFY(w.openSceneNow(scenes + "autobind-fill.scn"));
        QTRY_VERIFY(shown(autobind) && !shown(log) && !shown(latency));
        QTRY_VERIFY2(autobind->height() >= 1000 / 3,
                     qPrintable(QString::number(autobind->height()))); // the map needs room more than the idle graph
        QVERIFY(w.openSceneNow(scenes + "seed-gc-penalty.scn"));
        QTRY_VERIFY(shown(latency) && !shown(autobind));
        QVERIFY(w.openSceneNow(scenes + "self-reference.scn"));
        // The log; or, where the window tabs the collector's lists with the log, the lists in
        // front of it (the log is one click away, the lists are what a step changes).
        auto *lists = w.findChild<QDockWidget *>("listsDock");
        QVERIFY(lists);
        const bool tabbedWithLists = w.tabifiedDockWidgets(log).contains(lists);
        QTRY_VERIFY(!shown(latency) && !shown(autobind) && (tabbedWithLists ? shown(lists) : shown(log)));
        // A re-run of the same scene (another collector) keeps the user's choice.
        autobind->raise();
        QTRY_VERIFY(shown(autobind));
        c.setEra(GcEra::classic);
        QTRY_VERIFY(c.indexReady());
        QCoreApplication::processEvents();
        QVERIFY(shown(autobind));
    }

    void everySceneOpensAndPlaysToTheEndWithoutWarning_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes"));
        const auto files = dir.entryList({QStringLiteral("*.scn")}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 10);
        for (const QString &f : files)
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }

    void everySceneOpensAndPlaysToTheEndWithoutWarning()
    {
        QFETCH(QString, path);
        PlayerController c;
        MainWindow w(c);
        QVERIFY(w.openSceneNow(path));
        // last() runs in 40 ms slices from the event loop: a large scene takes several.
        c.last();
        QTRY_VERIFY_WITH_TIMEOUT(c.atEnd(), 120000);
        QVERIFY2(c.sim().warnings().empty(),
                 c.sim().warnings().empty() ? "" : c.sim().warnings().front().message.c_str());
        QVERIFY(!c.sim().stopped_by_finding());
        QCOMPARE(c.sim().expectations_failed(), std::size_t(0));
    }

    void screenshotWritesANonBlankPngOfTheRequestedSize()
    {
        QTemporaryDir tmp;
        const QString png = tmp.filePath(QStringLiteral("shot.png"));
        QProcess app;
        app.setProcessEnvironment(inflight::test::offscreenAppEnvironment(tmp.path()));
        app.start(QStringLiteral(INFLIGHT_APP),
                  {QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/selftest-triangle-stream.scn"), "--step", "150",
                   "--screenshot", png, "--size", "1280x800"});
        QVERIFY(app.waitForFinished(60000));
        QCOMPARE(app.exitCode(), 0);
        QImage img(png);
        QVERIFY(!img.isNull());
        QCOMPARE(img.size(), QSize(1280, 800));
        // Non-blank: many distinct colours.
        QSet<QRgb> colours;
        for (int y = 0; y < img.height(); y += 7)
            for (int x = 0; x < img.width(); x += 7)
                colours.insert(img.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
    }

    void screenshotOfABrokenSceneFailsCleanly()
    {
        QTemporaryDir tmp;
        const QString bad = tmp.filePath(QStringLiteral("bad.scn"));
        QVERIFY(write_file(bad, "socketpair a\n"));
        QProcess app;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        app.setProcessEnvironment(env);
        app.start(QStringLiteral(INFLIGHT_APP), {bad, "--screenshot", tmp.filePath("x.png")});
        QVERIFY(app.waitForFinished(30000));
        QCOMPARE(app.exitCode(), 2);
        QVERIFY(QString::fromUtf8(app.readAllStandardError()).contains(QStringLiteral("bad.scn:1:")));
    }
};

QTEST_MAIN(TestApp)
#include "test_app.moc"
