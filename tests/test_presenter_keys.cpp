// SPDX-License-Identifier: GPL-3.0-or-later
// Presentation mode's keys, driven as a clicker and a keyboard drive them: Right moves one beat
// and every beat changes the picture, Shift and Ctrl move a statement and a micro-step, F5 and
// Shift+F5 present from the beat on screen instead of running, Esc leaves, B and '.' blank the
// screen until the next key, a number then Enter goes to that beat, and the go-to box hands the
// keys back after Enter. Outside presentation mode the debugger's keys are as they were.
#include "docks/algorithm_dock.h"
#include "graph/graph_panel.h"
#include "graph/graph_view.h"
#include "inflight/graph_snapshot.hpp"
#include "inflight/step_snapshot.hpp"
#include "main_window.h"
#include "player_controller.h"
#include "presenter_keys.h"
#include "theme.h"
#include "wait_index.hpp"

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

#include <algorithm>
#include <string>
#include <vector>

using inflight::test::waitIndex;

namespace {

QString scenePath(const char *name) { return QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/") + QLatin1String(name); }

// What the graph and the lists show at the controller's position, as text.
std::string picture(const PlayerController &c)
{
    std::string out;
    auto put = [&out](long long v) { out += std::to_string(v) + ','; };
    const auto g = c.graphSnapshot();
    for (const inflight::SnapshotNode &n : g->nodes) {
        for (long long v : {(long long)n.queue, (long long)n.file_refs, (long long)n.inflight, (long long)n.state,
                            (long long)n.role, (long long)n.gc_flags})
            put(v);
        out += ';';
    }
    for (const inflight::SnapshotEdge &e : g->edges) {
        put(static_cast<long long>(e.id));
        put(e.on_hitlist);
    }
    out += '|';
    for (const inflight::SnapshotProcess &p : g->processes)
        for (const inflight::SnapshotFd &f : p.fds)
            put(f.sock);
    const inflight::StepSnapshot &s = c.snapshot();
    out += '|';
    put(static_cast<long long>(s.gc_phase));
    put(s.collection_running);
    for (const auto *list : {&s.gc_inflight_list, &s.gc_candidates, &s.not_cycle_list})
        for (const inflight::ListEntry &l : *list) {
            put(l.sock);
            put(l.inflight);
        }
    for (const inflight::VertexEntry &v : s.vertex_stack) {
        put(v.sock);
        put(v.scc_index);
    }
    put(static_cast<long long>(s.hitlist.size()));
    return out;
}

// The window presenting the triangle lesson at 1280x800, the graph holding the keys.
struct Presenting {
    PlayerController c;
    MainWindow w{c};
    bool open(bool present = true)
    {
        if (!w.openSceneNow(scenePath("selftest-triangle-stream.scn")) || !waitIndex(c))
            return false;
        w.resize(1280, 800);
        w.show();
        w.activateWindow();
        if (!QTest::qWaitForWindowActive(&w))
            return false;
        if (present)
            w.setPresentationMode(true);
        QCoreApplication::processEvents();
        w.graph().view()->setFocus();
        return w.presenting() == present;
    }
    void key(int k, Qt::KeyboardModifiers m = Qt::NoModifier)
    {
        QWidget *to = QApplication::focusWidget() ? QApplication::focusWidget() : &w;
        QTest::keyClick(to, static_cast<Qt::Key>(k), m);
    }
    const std::vector<inflight::Beat> &beats() const { return c.runIndex().beats(); }
};

} // namespace

class TestPresenterKeys : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { QSettings().clear(); }

    void rightMovesOneBeatAndEveryBeatChangesThePicture()
    {
        Presenting p;
        QVERIFY(p.open());
        const auto &beats = p.beats();
        QVERIFY(!beats.empty());
        QCOMPARE(p.c.position(), std::uint64_t(0));
        std::string before = picture(p.c);
        int presses = 0;
        for (const inflight::Beat &b : beats) {
            p.key(Qt::Key_Right);
            ++presses;
            QTRY_COMPARE(p.c.position(), b.step);
            const std::string now = picture(p.c);
            // A note, a question and its answer change the words on screen, not the picture.
            const bool words = b.kind == inflight::BeatKind::note || b.kind == inflight::BeatKind::question ||
                               b.kind == inflight::BeatKind::answer;
            if (!words)
                QVERIFY2(now != before, qPrintable(QStringLiteral("beat %1 at step %2").arg(presses).arg(b.step)));
            before = now;
        }
        // The lesson in at most a quarter of the presses its micro-steps took.
        QVERIFY2(presses * 4 <= static_cast<int>(p.c.totalSteps()),
                 qPrintable(QStringLiteral("%1 presses for %2 steps").arg(presses).arg(p.c.totalSteps())));
        // The other forward keys of a clicker and a keyboard, and back.
        p.c.seek(0);
        for (int k : {Qt::Key_PageDown, Qt::Key_Space, Qt::Key_Return}) {
            const std::uint64_t here = p.c.position();
            p.key(k);
            QTRY_COMPARE(p.c.position(), p.c.runIndex().next_beat(here)->step);
        }
        QCOMPARE(p.c.position(), beats[2].step);
        p.key(Qt::Key_Left);
        QTRY_COMPARE(p.c.position(), beats[1].step);
        p.key(Qt::Key_PageUp);
        QTRY_COMPARE(p.c.position(), beats[0].step);
    }

    // The triangle's ask: a press stops on the question, on the picture before the collection;
    // the next tells the answer on the same picture; the one after goes on to the collection.
    void aQuestionStopsTheLessonThenItsAnswerThenWhatAnswersIt()
    {
        Presenting p;
        QVERIFY(p.open());
        auto *algorithm = static_cast<docks::AlgorithmDock *>(p.w.windowDocks().algorithm);
        const auto &beats = p.beats();
        const auto question = std::find_if(
            beats.begin(), beats.end(), [](const inflight::Beat &b) { return b.kind == inflight::BeatKind::question; });
        QVERIFY(question != beats.end() && question > beats.begin() && question + 2 < beats.end());
        QCOMPARE((question + 1)->kind, inflight::BeatKind::answer);
        p.c.goToBeat(static_cast<int>(question - beats.begin())); // the beat before it
        QTRY_COMPARE(p.c.position(), (question - 1)->step);
        const std::string before = picture(p.c);

        p.key(Qt::Key_Right);
        QTRY_COMPARE(p.c.position(), question->step);
        const QString asked = QStringLiteral("Closing p0 starts a collection. Which sockets will it free?");
        QTRY_COMPARE(algorithm->noteText().simplified(), asked);
        QVERIFY(algorithm->noteLabel()->isVisible());
        QCOMPARE(picture(p.c), before);

        p.key(Qt::Key_Right);
        QTRY_COMPARE(p.c.position(), (question + 1)->step);
        const QString told = asked + QStringLiteral(" Answer: u0, u1, u2, u3, u4, u5 and p0 are freed.");
        QTRY_COMPARE(algorithm->noteText().simplified(), told);
        QCOMPARE(picture(p.c), before);
        QVERIFY(!algorithm->narrationLabel()->isVisible()); // the answer is told once, in the note's box

        p.key(Qt::Key_Right);
        QTRY_COMPARE(p.c.position(), (question + 2)->step);
        QCOMPARE((question + 2)->kind, inflight::BeatKind::collection_begins);
        QVERIFY(picture(p.c) != before);
        // Back: the answer, then the question alone again.
        p.key(Qt::Key_Left);
        QTRY_COMPARE(p.c.position(), (question + 1)->step);
        p.key(Qt::Key_Left);
        QTRY_COMPARE(p.c.position(), question->step);
        QTRY_COMPARE(algorithm->noteText().simplified(), asked);
    }

    void shiftMovesAStatementCtrlAMicroStep()
    {
        Presenting p;
        QVERIFY(p.open());
        p.key(Qt::Key_Right, Qt::ControlModifier);
        QTRY_COMPARE(p.c.position(), std::uint64_t(1));
        p.key(Qt::Key_Right, Qt::ControlModifier);
        QTRY_COMPARE(p.c.position(), std::uint64_t(2));
        p.key(Qt::Key_Left, Qt::ControlModifier);
        QTRY_COMPARE(p.c.position(), std::uint64_t(1));
        // Shift+Right: to the end of the statement under way (the first note's).
        const auto &statements = p.c.runIndex().statements();
        QVERIFY(statements.size() > 3);
        p.key(Qt::Key_Right, Qt::ShiftModifier);
        QTRY_COMPARE(p.c.position(), statements[1].step - 1);
        p.key(Qt::Key_Right, Qt::ShiftModifier);
        QTRY_COMPARE(p.c.position(), statements[2].step - 1);
        p.key(Qt::Key_Left, Qt::ShiftModifier);
        QTRY_COMPARE(p.c.position(), statements[1].step - 1);
        // The menu's setting makes the plain keys move by statements.
        QAction *by_statement = p.w.findChild<QAction *>(QStringLiteral("clickerStep1"));
        QVERIFY(by_statement);
        by_statement->trigger();
        p.key(Qt::Key_Right);
        QTRY_COMPARE(p.c.position(), statements[2].step - 1);
        // And it is kept for the next session.
        QCOMPARE(QSettings().value(QStringLiteral("presentation/clickerStep")).toInt(), 1);
    }

    void f5PresentsFromTheBeatOnScreen()
    {
        Presenting p;
        QVERIFY(p.open());
        const auto &beats = p.beats();
        p.c.seek(beats[3].step + 2); // between two beats, as after micro-steps
        QCOMPARE(p.c.beatNumber(), 4);
        p.key(Qt::Key_F5);
        QTRY_COMPARE(p.c.position(), beats[3].step);
        QVERIFY(!p.c.atEnd());
        p.c.seek(beats[5].step + 1);
        p.key(Qt::Key_F5, Qt::ShiftModifier);
        QTRY_COMPARE(p.c.position(), beats[5].step);
        QVERIFY(p.w.presenting());
        // Outside presentation mode F5 is Continue again: to the end, no breakpoint on the way.
        p.w.setPresentationMode(false);
        QCoreApplication::processEvents();
        p.w.graph().view()->setFocus();
        p.key(Qt::Key_F5);
        QTRY_VERIFY(p.c.atEnd());
    }

    void escLeavesPresentationMode()
    {
        Presenting p;
        QVERIFY(p.open());
        p.key(Qt::Key_Escape);
        QTRY_VERIFY(!p.w.presenting());
        // Outside it the debugger's keys are as they were: Right is one micro-step.
        p.w.graph().view()->setFocus();
        p.key(Qt::Key_Right);
        QTRY_COMPARE(p.c.position(), std::uint64_t(1));
        p.key(Qt::Key_Escape); // and Esc does nothing to the window
        QVERIFY(!p.w.presenting());
    }

    // The dark theme is presentation mode's: the graph and the widgets go dark on entering it
    // (or at once when chosen while presenting), and the window is light again after.
    void theDarkThemeIsWornWhilePresenting()
    {
        Presenting p;
        p.w.setDarkPresentation(true);
        QVERIFY(!Theme::instance().dark()); // not presenting yet
        QVERIFY(p.open());
        QVERIFY(Theme::instance().dark());
        auto groundOf = [&p] {
            const QImage shot = p.w.graph().view()->grab().toImage();
            return QColor(shot.pixel(3, 3)).lightnessF();
        };
        QTRY_VERIFY(groundOf() < 0.2);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightnessF() < 0.2);
        p.w.setDarkPresentation(false);
        QVERIFY(!Theme::instance().dark());
        QTRY_VERIFY(groundOf() > 0.8);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightnessF() > 0.5);
        p.w.setDarkPresentation(true);
        QTRY_VERIFY(groundOf() < 0.2);
        p.key(Qt::Key_Escape);
        QTRY_VERIFY(!p.w.presenting());
        QVERIFY(!Theme::instance().dark());
        QTRY_VERIFY(groundOf() > 0.8);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightnessF() > 0.5);
    }

    void blankUntilAnyKey()
    {
        Presenting p;
        QVERIFY(p.open());
        p.key(Qt::Key_Right);
        const std::uint64_t here = p.beats()[0].step;
        QTRY_COMPARE(p.c.position(), here);
        for (int blank_key : {Qt::Key_B, Qt::Key_Period}) {
            p.key(blank_key);
            auto *cover = p.w.findChild<QWidget *>(QStringLiteral("presentationBlank"));
            QVERIFY(cover && cover->isVisible());
            QCOMPARE(cover->geometry(), p.w.rect());
            // Any key brings the screen back, and only that: the lesson stays where it was.
            p.key(Qt::Key_Right);
            QVERIFY(!cover->isVisible());
            QCOMPARE(p.c.position(), here);
        }
        p.key(Qt::Key_Right);
        QTRY_COMPARE(p.c.position(), p.beats()[1].step);
    }

    void numberThenEnterGoesToThatBeat()
    {
        Presenting p;
        QVERIFY(p.open());
        const auto &beats = p.beats();
        QVERIFY(beats.size() >= 12);
        p.key(Qt::Key_1);
        p.key(Qt::Key_2);
        QCOMPARE(p.c.position(), std::uint64_t(0)); // digits alone move nothing
        p.key(Qt::Key_Return);
        QTRY_COMPARE(p.c.position(), beats[11].step);
        QCOMPARE(p.c.beatNumber(), 12);
        // The number was used up: Enter alone is the next beat again.
        p.key(Qt::Key_Enter, Qt::KeypadModifier);
        QTRY_COMPARE(p.c.position(), beats[12].step);
        // Past the last beat: the last one.
        for (QChar d : QString::number(beats.size() + 50))
            p.key(Qt::Key_0 + d.digitValue());
        p.key(Qt::Key_Return);
        QTRY_COMPARE(p.c.position(), beats.back().step);
    }

    void fastForwardedCollectionIsEnteredBeatByBeat()
    {
        // As the app runs a large scene: fast-forwarded. The clicker still stops inside its
        // collection, at each phase and at each SCC it frees.
        PlayerController c;
        std::string text = "scene \"rings\"\nset gc graph\n";
        for (int r = 0; r < 12; ++r)
            for (int j = 0; j < 3; ++j)
                text += "socketpair u" + std::to_string(r) + "_" + std::to_string(j) + " p" + std::to_string(r) + "_" +
                        std::to_string(j) + " dgram\n";
        for (int r = 0; r < 12; ++r)
            for (int j = 0; j < 3; ++j)
                text += "send p" + std::to_string(r) + "_" + std::to_string((j + 1) % 3) + " fds=u" +
                        std::to_string(r) + "_" + std::to_string(j) + "\n";
        for (int r = 0; r < 12; ++r)
            for (int j = 0; j < 3; ++j)
                text += "close u" + std::to_string(r) + "_" + std::to_string(j) + "\n";
        text += "gc\n";
        QVERIFY(c.openText(QString::fromStdString(text), QStringLiteral("rings.scn")));
        c.setStepsIntoCollections(false);
        QVERIFY(waitIndex(c));
        QVERIFY(!c.stepsIntoCollections());
        const auto &beats = c.runIndex().beats();
        auto begin = std::find_if(beats.rbegin(), beats.rend(), [](const inflight::Beat &b) {
            return b.kind == inflight::BeatKind::collection_begins;
        });
        QVERIFY(begin != beats.rend());
        const int at = static_cast<int>(beats.rend() - begin); // its 1-based number
        c.goToBeat(at);
        QTRY_COMPARE(c.position(), begin->step);
        int verdicts = 0, inside = 0;
        for (;;) {
            c.nextBeat();
            const auto &b = beats[static_cast<std::size_t>(at + inside)];
            QTRY_COMPARE(c.position(), b.step);
            if (b.kind == inflight::BeatKind::collection_ends)
                break;
            QVERIFY(c.snapshot().collection_running);
            verdicts += b.kind == inflight::BeatKind::scc_verdict;
            ++inside;
        }
        QCOMPARE(verdicts, 12);
        QVERIFY(inside >= 12 + 2); // the walk, each ring's verdict, the purge
    }

    void goToBoxHandsTheKeysBack_data()
    {
        QTest::addColumn<bool>("presenting");
        QTest::newRow("window") << false;
        QTest::newRow("presentation") << true;
    }
    void goToBoxHandsTheKeysBack()
    {
        QFETCH(bool, presenting);
        Presenting p;
        QVERIFY(p.open(presenting));
        QLineEdit *box = nullptr;
        for (QLineEdit *e : p.w.findChildren<QLineEdit *>())
            if (e->placeholderText() == QStringLiteral("go to step"))
                box = e;
        QVERIFY(box);
        box->setFocus();
        QTest::keyClicks(box, QStringLiteral("50"));
        QTest::keyClick(box, Qt::Key_Return);
        QTRY_COMPARE(p.c.position(), std::uint64_t(50));
        QVERIFY(!box->hasFocus());
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(p.w.graph().view()));
        // The next press steps: a micro-step in the window, a beat in presentation mode; N is
        // the next note, not a letter in the box.
        p.key(Qt::Key_Right);
        QTRY_COMPARE(p.c.position(), presenting ? p.c.runIndex().next_beat(50)->step : std::uint64_t(51));
        const std::uint64_t here = p.c.position();
        p.key(Qt::Key_N);
        QTRY_COMPARE(p.c.position(), *p.c.runIndex().next_note(here));
        QVERIFY(box->text().isEmpty());
    }
};

QTEST_MAIN(TestPresenterKeys)
#include "test_presenter_keys.moc"
