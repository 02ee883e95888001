// SPDX-License-Identifier: GPL-3.0-or-later
// The first launch and the projector: with empty settings, at 1280×720, 1280×800
// and 1920×1080, every main dock is on screen with its share of the window, the pseudo-code
// shows at least 12 lines, the scene 40 columns, the lists their globals line (or the row's front
// tab), the toolbar hides nothing; presentation mode is full screen, the graph at least 60% of
// it with socket names of at least 22 px, and gives back the exact window after;
// the presenter's keys step; breakpoints stay with their file; View ▸ Reset layout.
#include "docks/algorithm_dock.h"
#include "docks/algorithm_view.h"
#include "docks/dock_common.h"
#include "docks/scene_dock.h"
#include "editor/scene_editor.h"
#include "graph/graph_panel.h"
#include "graph/graph_view.h"
#include "inflight/kernel.hpp"
#include "latency/latency_dock.h"
#include "main_window.h"
#include "offscreen_screen.h"
#include "player_controller.h"
#include "theme.h"
#include "wait_index.hpp"
#include "window_layout.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QToolButton>

#include <algorithm>
#include <cmath>

using inflight::test::waitIndex;

namespace {

QString scenePath(const char *name) { return QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/") + QLatin1String(name); }

// The window as a first launch shows it at `size` (what --size does).
void showAt(MainWindow &w, QSize size)
{
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTest::qWait(0); // the deferred dock sizing
    QCoreApplication::processEvents();
}

// On screen: shown and not a tab behind another. A widget's visible region leaves out its
// opaque children, so a dock its contents cover wholly (no title bar) is seen through them.
bool onScreen(const QWidget *w)
{
    if (!w->isVisible())
        return false;
    if (!w->visibleRegion().isEmpty())
        return true;
    const QList<QWidget *> children = w->findChildren<QWidget *>(Qt::FindDirectChildrenOnly);
    return std::any_of(children.begin(), children.end(), [](const QWidget *c) { return onScreen(c); });
}

// The toolbar's actions its » overflow holds: every one it has should be on the bar.
QStringList inOverflow(const QToolBar &bar)
{
    QStringList hidden;
    for (QAction *a : bar.actions()) {
        QWidget *widget = bar.widgetForAction(a);
        if (a->isSeparator() || !widget || !a->isVisible()) // hidden on purpose (the variant box)
            continue;
        if (!widget->isVisible())
            hidden << (a->text().isEmpty() ? widget->objectName() : a->text());
    }
    return hidden;
}

} // namespace

class TestLayout : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init()
    {
        QSettings().clear();
        Theme::instance().setFontScale(1.0);
        Theme::instance().setHighContrast(false);
    }

    void firstLaunch_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x720") << QSize(1280, 720);
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    void firstLaunch()
    {
        QFETCH(QSize, size);
        PlayerController c;
        MainWindow w(c);
        QVERIFY(w.openSceneNow(scenePath("selftest-triangle-stream.scn")));
        showAt(w, size);
        const WindowDocks &d = w.windowDocks();
        const int W = w.width(), H = w.height();
        for (QDockWidget *dock : {d.scene, d.inspector, d.algorithm, d.lists})
            QVERIFY2(onScreen(dock), qPrintable(dock->windowTitle()));
        // Shares of the window, not leftovers.
        QVERIFY2(d.scene->width() >= W * 0.22, qPrintable(QString::number(d.scene->width())));
        QVERIFY2(d.algorithm->width() >= W * 0.22, qPrintable(QString::number(d.algorithm->width())));
        // The lists as wide as their globals line beside the log, or the row's front tab with
        // the log behind it where the row cannot give both a readable width.
        if (w.tabifiedDockWidgets(d.lists).contains(d.log)) {
            QVERIFY(!onScreen(d.log));
        } else {
            QVERIFY(onScreen(d.log));
            QVERIFY2(d.log->width() >= W * 0.2, qPrintable(QString::number(d.log->width())));
        }
        QVERIFY2(d.lists->width() >= window_layout::listsReadableWidth(),
                 qPrintable(QStringLiteral("%1 < %2").arg(d.lists->width()).arg(window_layout::listsReadableWidth())));
        QVERIFY2(d.lists->height() >= H * 0.2, qPrintable(QString::number(d.lists->height())));
        QVERIFY2(d.algorithm->height() >= H * 0.7, qPrintable(QString::number(d.algorithm->height())));
        QVERIFY2(w.graph().width() >= W * 0.3, qPrintable(QString::number(w.graph().width())));

        // The scene: 40 columns beside the gutter, so a statement never wraps.
        auto *scene = static_cast<docks::SceneDock *>(d.scene)->textView();
        const QFontMetrics code(scene->font());
        int margins = 0; // Scintilla draws its margins inside the viewport
        for (int m = 0; m < 3; ++m)
            margins += scene->marginWidth(m);
        const int columns = (scene->viewport()->width() - margins) / code.horizontalAdvance(QLatin1Char('m'));
        QVERIFY2(columns >= 40, qPrintable(QString::number(columns)));

        // The pseudo-code: at least 12 lines in view.
        auto *algorithm = static_cast<docks::AlgorithmDock *>(d.algorithm);
        const int shown = algorithm->listingView()->visibleRegion().boundingRect().height();
        const int line = QFontMetrics(Theme::instance().monoFont(docks::kCodePoints)).lineSpacing();
        QVERIFY2(shown >= 12 * line,
                 qPrintable(QStringLiteral("%1 px = %2 lines").arg(shown).arg(double(shown) / line)));

        // Nothing of the toolbar in its » overflow: every action and the collector box shown.
        auto *bar = w.findChild<QToolBar *>(QStringLiteral("transport"));
        QVERIFY(bar);
        QVERIFY2(inOverflow(*bar).isEmpty(), qPrintable(inOverflow(*bar).join(QStringLiteral(", "))));
        QVERIFY(w.findChild<QComboBox *>() && bar->findChild<QComboBox *>()->isVisible());
        // The step counter: beside the timeline, always in view.
        auto *position = w.findChild<QLabel *>(QStringLiteral("positionLabel"));
        QVERIFY(position && position->isVisible() && !position->visibleRegion().isEmpty());
        QVERIFY(position->text().contains(QStringLiteral("step")));
    }

    // "Tables show their rows and columns at 1080p without scrolling": the seed's A/B scene
    // at its end, with three groups of seven-digit figures, in the latency dock under the
    // graph of a first launch at 1920x1080.
    void latencyTableInFullAt1080p()
    {
        PlayerController c;
        MainWindow w(c);
        QVERIFY(w.openSceneNow(scenePath("seed-gc-penalty.scn")));
        QVERIFY(waitIndex(c));
        showAt(w, QSize(1920, 1080));
        const WindowDocks &d = w.windowDocks();
        d.latency->raise();
        c.seek(c.totalSteps());
        auto *dock = static_cast<latency::LatencyDock *>(d.latency);
        QTRY_VERIFY(dock->percentileView()->model()->columnCount() >= 3);
        QCoreApplication::processEvents();
        QVERIFY(onScreen(d.latency));
        QTableView *t = dock->percentileView();
        QVERIFY(!t->horizontalScrollBar()->isVisible());
        QVERIFY(!t->verticalScrollBar()->isVisible());
        const QRect view = t->viewport()->rect();
        for (int col = 0; col < t->model()->columnCount(); ++col)
            for (int row = 0; row < t->model()->rowCount(); ++row)
                if (!t->isRowHidden(row))
                    QVERIFY2(view.contains(t->visualRect(t->model()->index(row, col))),
                             qPrintable(QStringLiteral("row %1, column %2 of %3 cut in a %4 x %5 dock")
                                            .arg(row)
                                            .arg(col)
                                            .arg(t->model()->columnCount())
                                            .arg(d.latency->width())
                                            .arg(d.latency->height())));
    }

    // The Collector box lists every kernel profile, and with a scene's variant box beside it
    // the toolbar still fits a 1280 px or a 1024 px projector; choosing a profile re-runs on it.
    void kernelBoxFitsAndSwitches_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1024x768") << QSize(1024, 768);
    }
    void kernelBoxFitsAndSwitches()
    {
        QFETCH(QSize, size);
        PlayerController c;
        MainWindow w(c);
        QVERIFY(w.openSceneNow(scenePath("seed-gc-penalty.scn"))); // has variants
        showAt(w, size);
        QCOMPARE(w.width(), size.width());
        auto *bar = w.findChild<QToolBar *>(QStringLiteral("transport"));
        auto *box = w.findChild<QComboBox *>(QStringLiteral("kernelBox"));
        QVERIFY(bar && box);
        QVERIFY(box->count() >= 10);
        QVERIFY(w.findChild<QComboBox *>(QStringLiteral("variantBox"))->isVisible());
        QVERIFY2(inOverflow(*bar).isEmpty(), qPrintable(inOverflow(*bar).join(QStringLiteral(", "))));
        QCOMPARE(box->currentText(), QStringLiteral("6.8 · classic")); // the scene's set gc classic
        QVERIFY(w.openSceneNow(scenePath("selftest-mixed-lowpoint-stream.scn")));
        QVERIFY(waitIndex(c));
        QCOMPARE(box->currentText(), QStringLiteral("6.18 · graph"));
        const int newest = box->findText(QStringLiteral("7.3 · graph"));
        QVERIFY(newest >= 0);
        emit box->activated(newest);
        QVERIFY(waitIndex(c));
        QCOMPARE(c.kernelProfile().name, std::string_view("7.3"));
        QCOMPARE(c.sim().kernel().config().profile, std::string_view("7.3"));
        QCOMPARE(box->currentText(), QStringLiteral("7.3 · graph"));
    }

    // Growing the window gives every dock its share of the new room, not the graph all of it.
    void docksKeepTheirShareOnResize()
    {
        PlayerController c;
        MainWindow w(c);
        QVERIFY(w.openWelcome());
        showAt(w, QSize(1280, 800));
        const WindowDocks &d = w.windowDocks();
        const double algorithm = double(d.algorithm->width()) / w.width();
        w.resize(1920, 1080);
        QTest::qWait(0);
        QCoreApplication::processEvents();
        QVERIFY2(std::abs(double(d.algorithm->width()) / w.width() - algorithm) < 0.04,
                 qPrintable(QStringLiteral("%1 -> %2").arg(algorithm).arg(double(d.algorithm->width()) / w.width())));
    }

    void presentationModeAt1280x800_data()
    {
        QTest::addColumn<QString>("scene");
        QTest::newRow("a lesson on the graph") << QStringLiteral("selftest-triangle-stream.scn");
        // Presented with its latency panel across the screen's width.
        QTest::newRow("a lesson with a panel") << QStringLiteral("kworker-after-next-close.scn");
        QTest::newRow("a large lesson with a panel") << QStringLiteral("seed-gc-penalty.scn");
    }
    void presentationModeAt1280x800()
    {
        QFETCH(QString, scene);
        PlayerController c;
        MainWindow w(c);
        QVERIFY(w.openSceneNow(scenePath(qPrintable(scene))));
        QVERIFY(waitIndex(c));
        showAt(w, QSize(1280, 800));
        const QRect before = w.geometry();
        const WindowDocks &d = w.windowDocks();
        QVERIFY(d.scene->isVisible());
        QHash<QDockWidget *, QRect> docks_before;
        for (QDockWidget *dock : {d.scene, d.algorithm, d.lists, d.latency})
            docks_before[dock] = dock->geometry();
        const QRect graph_before = w.graph().geometry();

        w.setPresentationMode(true);
        QTest::qWait(0);
        QCoreApplication::processEvents();
        QVERIFY(w.presenting());
        // The whole screen, and the screen's size only (not grown past it by its docks).
        QCOMPARE(w.geometry(), w.screen()->geometry());
        // The picture for a class: the graph and the algorithm; the rest toggles from View.
        QVERIFY(onScreen(d.algorithm));
        QVERIFY(!d.scene->isVisible() && !d.log->isVisible() && !d.lists->isVisible());
        // The picture: the graph, and the panel a scene about one shows under it.
        const QRect port = w.graph().view()->viewport()->visibleRegion().boundingRect();
        const QRect panel = d.latency->isVisible() ? d.latency->geometry() : QRect();
        QVERIFY2(port.width() * port.height() + panel.width() * panel.height() >= 0.6 * w.width() * w.height(),
                 qPrintable(QStringLiteral("graph %1x%2, panel %3x%4")
                                .arg(port.width())
                                .arg(port.height())
                                .arg(panel.width())
                                .arg(panel.height())));
        // No bars: the presenter drives it by keys.
        QVERIFY(!w.findChild<QToolBar *>(QStringLiteral("transport"))->isVisible());
        // A back-row student reads a socket's name.
        QVERIFY(w.graph().waitForLayout(30000));
        w.graph().fitAll();
        QVERIFY2(w.graph().view()->labelScreenPixels() >= 22,
                 qPrintable(QString::number(w.graph().view()->labelScreenPixels())));

        w.setPresentationMode(false);
        QTest::qWait(0);
        QCoreApplication::processEvents();
        QVERIFY(!w.presenting());
        QCOMPARE(w.geometry(), before);
        QVERIFY(d.scene->isVisible() && d.lists->isVisible());
        QVERIFY(w.findChild<QToolBar *>(QStringLiteral("transport"))->findChild<QComboBox *>()->isVisible());
        // The window as it was, graph included.
        for (QDockWidget *dock : {d.scene, d.algorithm, d.lists, d.latency})
            QTRY_COMPARE(dock->geometry(), docks_before.value(dock));
        QCOMPARE(w.graph().geometry(), graph_before);
        QCOMPARE(Theme::instance().fontScale(), 1.0);
    }

    // Presenting hides the lists dock: while the collector's hitlist holds skbs, the algorithm
    // pane names them in a row under the narration, whole, and not otherwise.
    void hitlistIsARowOfNamesWhilePresenting()
    {
        PlayerController c;
        MainWindow w(c);
        QVERIFY(w.openSceneNow(scenePath("selftest-triangle-stream.scn")));
        QVERIFY(waitIndex(c));
        showAt(w, QSize(1280, 800));
        w.setPresentationMode(true);
        QCoreApplication::processEvents();
        auto *algorithm = static_cast<docks::AlgorithmDock *>(w.windowDocks().algorithm);
        const QLabel *row = algorithm->hitlistRowLabel();
        QVERIFY(!row->isVisible());
        int filled = 0;
        while (!c.atEnd()) {
            c.stepInto();
            QCoreApplication::processEvents();
            const inflight::StepSnapshot &s = c.snapshot();
            QCOMPARE(row->isVisible(), !s.hitlist.empty());
            if (s.hitlist.empty())
                continue;
            ++filled;
            const QString text = QString(row->text()).remove(QChar(0x200B));
            for (const inflight::SkbEntry &skb : s.hitlist)
                QVERIFY2(text.contains(QStringLiteral("skb#%1 ").arg(skb.id)), qPrintable(text));
            // Whole, inside the pane: not cut by the code under it or the screen's edge.
            const QRect shown = row->visibleRegion().boundingRect();
            QVERIFY2(shown.size() == row->size(), qPrintable(QStringLiteral("%1x%2 of %3x%4 shown")
                                                                 .arg(shown.width())
                                                                 .arg(shown.height())
                                                                 .arg(row->width())
                                                                 .arg(row->height())));
            QVERIFY(row->height() >= row->heightForWidth(row->width()));
        }
        QVERIFY2(filled > 0, "the triangle's collection fills the hitlist");
        w.setPresentationMode(false);
        QCoreApplication::processEvents();
        QVERIFY(!row->isVisible());
    }

    // 60 dead pairs in one collection: the row names the first few skbs and counts the rest, so
    // the narration keeps its type and the code its pane.
    void aLargeHitlistIsCountedNotListed()
    {
        PlayerController c;
        MainWindow w(c);
        QVERIFY(c.openText(QStringLiteral("set gc graph\n"
                                          "repeat 60 as i {\n  socketpair a$i b$i\n}\n"
                                          "repeat 60 as i {\n  send b$i fds=a$i\n}\n"
                                          "repeat 60 as i {\n  close a$i\n}\n"
                                          "gc\n"),
                           QStringLiteral("rings.scn")));
        QVERIFY(waitIndex(c));
        showAt(w, QSize(1280, 800));
        w.setPresentationMode(true);
        QCoreApplication::processEvents();
        auto *algorithm = static_cast<docks::AlgorithmDock *>(w.windowDocks().algorithm);
        const QLabel *row = algorithm->hitlistRowLabel();
        std::size_t largest = 0;
        while (!c.atEnd()) {
            c.stepInto();
            const std::size_t size = c.snapshot().hitlist.size();
            if (size <= std::size_t(docks::AlgorithmDock::kHitlistNamesShown) || size <= largest)
                continue;
            largest = size;
            QCoreApplication::processEvents();
            const QString text = QString(row->text()).remove(QChar(0x200B));
            QCOMPARE(text.count(QStringLiteral("skb#")), docks::AlgorithmDock::kHitlistNamesShown);
            QVERIFY2(text.endsWith(QStringLiteral("%1 more").arg(size - docks::AlgorithmDock::kHitlistNamesShown)),
                     qPrintable(text));
            QCOMPARE(row->visibleRegion().boundingRect().size(), row->size());
        }
        QCOMPARE(largest, std::size_t(60));
    }

    void presenterKeysStep()
    {
        PlayerController c;
        MainWindow w(c);
        QVERIFY(w.openSceneNow(scenePath("selftest-triangle-stream.scn")));
        QVERIFY(waitIndex(c));
        showAt(w, QSize(1280, 800));
        QApplication::setActiveWindow(&w);
        // After an open the keys are the stepper's, not the go-to box's.
        QVERIFY(!qobject_cast<QLineEdit *>(QApplication::focusWidget()));
        QWidget *target = QApplication::focusWidget() ? QApplication::focusWidget() : &w;
        std::uint64_t at = c.position();
        for (Qt::Key k : {Qt::Key_Right, Qt::Key_PageDown, Qt::Key_Space, Qt::Key_Return}) {
            QTest::keyClick(target, k);
            QVERIFY2(c.position() == at + 1, qPrintable(QStringLiteral("key %1").arg(int(k), 0, 16)));
            at = c.position();
        }
        for (Qt::Key k : {Qt::Key_Left, Qt::Key_PageUp}) {
            QTest::keyClick(target, k);
            QCOMPARE(c.position(), at - 1);
            at = c.position();
        }
        QTest::keyClick(target, Qt::Key_End);
        QVERIFY(c.atEnd());
        QTest::keyClick(target, Qt::Key_Home);
        QCOMPARE(c.position(), std::uint64_t(0));
        // N and P: the notes, the lesson's outline.
        QTest::keyClick(target, Qt::Key_N);
        const inflight::Event *note = c.currentEvent();
        QVERIFY(note && note->kind == inflight::EventKind::note);
        // The event lives in the player's current state, which a seek replaces: keep its line.
        const std::uint32_t note_line = note->scene_line;
        const std::uint64_t first_note = c.position();
        QTest::keyClick(target, Qt::Key_N);
        QVERIFY(c.position() > first_note && c.currentEvent()->kind == inflight::EventKind::note);
        QTest::keyClick(target, Qt::Key_P);
        QCOMPARE(c.position(), first_note);
        // The same outline in the Algorithm dock: one entry per note, a click goes there.
        auto *algorithm = static_cast<docks::AlgorithmDock *>(w.windowDocks().algorithm);
        QMenu *outline = algorithm->notesOutline()->menu();
        emit outline->aboutToShow();
        const QList<QAction *> notes = outline->actions();
        QVERIFY2(notes.size() >= 4, qPrintable(QString::number(notes.size())));
        auto lineOf = [](const QAction *a) { return a->text().section(QLatin1Char(' '), 1, 1).chopped(1).toUInt(); };
        notes.last()->trigger();
        QVERIFY(c.position() > first_note);
        QCOMPARE(c.currentEvent()->scene_line, lineOf(notes.last()));
        QTest::keyClick(target, Qt::Key_Home);
        notes.first()->trigger();
        QCOMPARE(c.currentEvent()->scene_line, note_line);

        // Typing in the go-to box keeps its keys: Return goes to the step typed.
        auto *go = w.findChild<QLineEdit *>();
        for (QLineEdit *e : w.findChildren<QLineEdit *>())
            if (e->placeholderText() == QStringLiteral("go to step"))
                go = e;
        go->setFocus();
        const std::uint64_t before_typing = c.position();
        QTest::keyClicks(go, QStringLiteral("17"));
        QTest::keyClick(go, Qt::Key_Left); // moves the text cursor, not the run
        QCOMPARE(c.position(), before_typing);
        QTest::keyClick(go, Qt::Key_Return);
        QCOMPARE(c.position(), std::uint64_t(17));
    }

    // A breakpoint set in one scene is not there in the next; going back brings it back.
    void breakpointsBelongToTheirFile()
    {
        PlayerController c;
        MainWindow w(c);
        const QString a = scenePath("selftest-triangle-stream.scn"), b = scenePath("self-reference.scn");
        QVERIFY(w.openSceneNow(a));
        c.toggleLineBreakpoint(25);
        QVERIFY(c.lineBreakpoints().contains(25));
        QVERIFY(w.openSceneNow(b));
        QVERIFY(c.lineBreakpoints().isEmpty());
        c.toggleLineBreakpoint(4);
        QVERIFY(w.openSceneNow(a));
        QCOMPARE(c.lineBreakpoints(), QSet<int>{25});
        // Kept in the settings: a new window opening the file gets them.
        PlayerController c2;
        MainWindow w2(c2);
        QVERIFY(w2.openSceneNow(b));
        QCOMPARE(c2.lineBreakpoints(), QSet<int>{4});
    }

    void resetLayoutBringsEveryDockBack()
    {
        PlayerController c;
        MainWindow w(c);
        QVERIFY(w.openWelcome());
        showAt(w, QSize(1280, 800));
        const WindowDocks &d = w.windowDocks();
        d.scene->hide();
        d.algorithm->setFloating(true);
        w.action("resetLayout")->trigger();
        QTest::qWait(0);
        QCoreApplication::processEvents();
        QVERIFY(onScreen(d.scene));
        QVERIFY(!d.algorithm->isFloating() && onScreen(d.algorithm));
        QCOMPARE(w.dockWidgetArea(d.algorithm), Qt::RightDockWidgetArea);
        QVERIFY(d.algorithm->width() >= w.width() * 0.22);
    }

    // A hand-edited font scale outside the range the app offers gives the default as it is
    // read: a huge one would make the graph's labels and edges huge, NaN every size.
    void hostileFontScaleGivesTheDefault_data()
    {
        QTest::addColumn<QVariant>("stored");
        QTest::addColumn<double>("expected");
        QTest::newRow("1e9") << QVariant(1e9) << 1.0;
        QTest::newRow("200") << QVariant(200.0) << 1.0;
        QTest::newRow("tiny") << QVariant(1e-9) << 1.0;
        QTest::newRow("largest offered") << QVariant(Theme::kMaxFontScale) << Theme::kMaxFontScale;
        QTest::newRow("NaN") << QVariant(std::nan("")) << 1.0;
        QTest::newRow("text") << QVariant(QStringLiteral("huge")) << 1.0;
    }
    // A recent-files list of any size and content: the menu shows at most its cap, each file
    // once, strings only.
    void hostileRecentListIsCapped()
    {
        QVariantList stored;
        stored << QVariant(42) << QString() << QStringLiteral("/tmp/a.scn") << QStringLiteral("/tmp/a.scn");
        for (int i = 0; i < 20000; ++i)
            stored << QStringLiteral("/tmp/r%1.scn").arg(i);
        QSettings().setValue(QStringLiteral("files/recent"), stored);
        PlayerController c;
        MainWindow w(c);
        QMenu *recent = nullptr;
        for (QMenu *m : w.findChildren<QMenu *>())
            if (m->title() == QStringLiteral("Open &Recent"))
                recent = m;
        QVERIFY(recent);
        const QList<QAction *> items = recent->actions();
        QCOMPARE(items.size(), 8);
        QCOMPARE(items[0]->toolTip(), QStringLiteral("/tmp/a.scn"));
        QCOMPARE(items[1]->toolTip(), QStringLiteral("/tmp/r0.scn"));
    }

    void hostileFontScaleGivesTheDefault()
    {
        QFETCH(QVariant, stored);
        QFETCH(double, expected);
        QSettings().setValue(QStringLiteral("view/fontScale"), stored);
        PlayerController c;
        MainWindow w(c);
        QCOMPARE(Theme::instance().fontScale(), expected);
    }
};

// The offscreen platform's screen is a 1280x800 projector (its default is 800x600, smaller than
// the window presentation mode makes full screen).
int main(int argc, char **argv)
{
    QTemporaryDir dir;
    if (qgetenv("QT_QPA_PLATFORM").startsWith("offscreen")) {
        const QString why = offscreen_screen::use(dir, QSize(1280, 800));
        if (!why.isEmpty())
            qFatal("the projector's screen: %s", qPrintable(why));
    }
    QApplication app(argc, argv);
    TestLayout test;
    return QTest::qExec(&test, argc, argv);
}
#include "test_layout.moc"
