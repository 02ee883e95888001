// SPDX-License-Identifier: GPL-3.0-or-later
// Side by side: a second run of a bug scene's other variant follows the window's run to the same
// statement (line and repeat iteration) and beat through steps, beats and seeks, and across the
// place where the two kernels first do different things, which is found at the statement where
// they do; a bad pair is refused with the choices named, from the window and the command line.
#include "main_window.h"
#include "offscreen_app.hpp"
#include "player_controller.h"
#include "side_by_side.h"
#include "side_by_side_view.h"
#include "timeline_widget.h"
#include "wait_index.hpp"

#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

namespace {

QString bugScene(const char *name) { return QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/bugs/") + QLatin1String(name); }

// The 1-based line of the first line of `file` that starts with `text`.
int lineOf(const QString &file, const QString &text)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    int n = 0;
    while (!f.atEnd()) {
        ++n;
        if (QString::fromUtf8(f.readLine()).trimmed().startsWith(text))
            return n;
    }
    return 0;
}

// The statement shown at the current position: its line and which run of that line.
std::pair<std::uint32_t, std::uint32_t> statementShown(const PlayerController &c)
{
    const auto place = side_by_side::placeAt(c.runIndex(), c.position());
    return {place.line, place.iteration};
}

} // namespace

class TestSideBySide : public QObject {
    Q_OBJECT

    // Both runs indexed and the second at rest.
    static bool settle(SideBySide &pair)
    {
        return inflight::test::waitIndex(pair.primary()) && inflight::test::waitIndex(*pair.secondary()) &&
               inflight::test::waitIdle(pair.primary()) && inflight::test::waitIdle(*pair.secondary());
    }

    // After a move of the first run, the second shows the same statement (when it has it) and
    // the place follow() names.
    static void checkInStep(SideBySide &pair)
    {
        QTRY_VERIFY_WITH_TIMEOUT(pair.inStep(), 10000);
        const auto a = statementShown(pair.primary());
        const auto b = statementShown(*pair.secondary());
        // A note of one variant only is the one statement the other run may lack.
        if (pair.secondary()->runIndex().first_start_of_line(a.first))
            QCOMPARE(b, a);
    }

private slots:
    void followsThroughStepsBeatsAndSeeks()
    {
        PlayerController primary;
        QVERIFY(primary.openFile(bugScene("stale-oob-skb.scn")));
        SideBySide pair(primary);
        QString error;
        QVERIFY2(pair.start(QStringLiteral("buggy,fixed"), &error), qPrintable(error));
        QVERIFY(settle(pair));
        QCOMPARE(primary.variant(), 1);
        QCOMPARE(pair.secondary()->variant(), 0);
        checkInStep(pair);

        for (int i = 0; i < 40 && !primary.atEnd(); ++i) {
            primary.stepInto();
            checkInStep(pair);
        }
        for (int i = 0; i < 15; ++i) {
            primary.back();
            checkInStep(pair);
        }
        primary.goToBeat(0);
        for (int i = 0; i < primary.beatCount(); ++i) {
            primary.nextBeat();
            checkInStep(pair);
            // The same beat of the statement: the second run's beats of it up to here match.
            const auto pa = side_by_side::placeAt(primary.runIndex(), primary.position());
            const auto pb = side_by_side::placeAt(pair.secondary()->runIndex(), pair.secondary()->position());
            if (pa.line == pb.line && pa.iteration == pb.iteration)
                QVERIFY(pb.beats_into <= pa.beats_into || pa.beats_into == 0);
        }
        for (int i = 0; i < 5; ++i) {
            primary.previousBeat();
            checkInStep(pair);
        }
        for (std::uint64_t step :
             {primary.totalSteps() / 3, primary.totalSteps(), std::uint64_t{1}, primary.totalSteps() / 2}) {
            primary.seek(step);
            checkInStep(pair);
        }
    }

    void divergenceIsWhereTheKernelsDiffer()
    {
        const QString file = bugScene("stale-oob-skb.scn");
        PlayerController primary;
        QVERIFY(primary.openFile(file));
        SideBySide pair(primary);
        QVERIFY(pair.start(QStringLiteral("buggy,fixed")));
        QVERIFY(settle(pair));
        QTRY_VERIFY(pair.divergence().has_value());
        // The plain read: the fix frees the OOB skb there, the buggy kernel keeps it.
        const int recv = lineOf(file, QStringLiteral("recv c2"));
        QVERIFY(recv > 0);
        QCOMPARE(int(pair.divergence()->line), recv);
        QVERIFY(pair.divergence()->only_a.empty());
        QVERIFY(!pair.divergence()->only_b.empty());

        // Before it nothing is announced; at it, both runs are named with what they did.
        primary.seek(1);
        checkInStep(pair);
        QVERIFY(pair.announcement().isEmpty());
        primary.seek(pair.divergence()->step_a);
        checkInStep(pair);
        QCOMPARE(pair.secondary()->position(), pair.divergence()->step_b);
        const QString said = pair.announcement();
        QVERIFY2(said.contains(QStringLiteral("buggy")) && said.contains(QStringLiteral("fixed")) &&
                     said.contains(QStringLiteral("skb")),
                 qPrintable(said));
        // Across it, step by step, the runs stay on the same statement.
        for (int i = 0; i < 12 && !primary.atEnd(); ++i) {
            primary.stepInto();
            checkInStep(pair);
        }
    }

    void windowShowsBothPanesAndMarksTheDivergence()
    {
        PlayerController controller;
        MainWindow window(controller);
        QVERIFY(window.openSceneNow(bugScene("stale-oob-skb.scn")));
        QString error;
        QVERIFY2(window.setSideBySide(QStringLiteral("buggy,fixed"), &error), qPrintable(error));
        QVERIFY(settle(window.sideBySide()));
        QVERIFY(window.sideBySideView());
        QTRY_VERIFY(window.timeline().divergence().has_value());
        QCOMPARE(*window.timeline().divergence(), window.sideBySide().divergence()->step_a);
        controller.seek(window.sideBySide().divergence()->step_a);
        QTRY_VERIFY(window.sideBySide().inStep());
        QTRY_VERIFY(!window.sideBySideView()->announcementLabel()->isHidden());
        QTRY_VERIFY(!window.sideBySideView()->narration(1)->text().isEmpty());
        // What both runs say alike is said once across both panes, what differs in each pane.
        const SideBySideView *panes = window.sideBySideView();
        const bool alike = panes->narration(0)->text() == panes->narration(1)->text();
        QCOMPARE(panes->sharedNarration()->isHidden(), !alike);
        QCOMPARE(panes->narration(0)->isHidden(), alike);
        QCOMPARE(panes->narration(1)->isHidden(), alike);
        // Each pane shows its own run's notes: the buggy one's own after the read.
        QVERIFY(controller.runToLine(lineOf(bugScene("stale-oob-skb.scn"), QStringLiteral("expect buggy inflight"))));
        QTRY_VERIFY(window.sideBySideView()->note(0)->text().startsWith(QStringLiteral("Without it")));
        // At the note's own step its narration would say it again: the note's box says it once.
        QVERIFY(
            controller.runToLine(lineOf(bugScene("stale-oob-skb.scn"), QStringLiteral("note buggy \"Without it, c2"))));
        controller.stepInto();
        QTRY_VERIFY(window.sideBySideView()->narration(0)->text().contains(QStringLiteral("Without it")));
        QVERIFY(window.sideBySideView()->note(0)->text().startsWith(QStringLiteral("Without it")));
        QVERIFY(window.sideBySideView()->narration(0)->isHidden());
        // The window's variant box changes the left run: its pane says which it is now.
        QVERIFY(window.sideBySideView()->title(0)->text().startsWith(QStringLiteral("buggy")));
        const auto &variants = controller.baseScene().variants;
        const auto fixed = std::find_if(variants.begin(), variants.end(),
                                        [](const inflight::SceneVariant &v) { return v.name == "fixed"; });
        QVERIFY(fixed != variants.end());
        controller.setVariant(static_cast<int>(fixed - variants.begin()));
        QTRY_VERIFY(window.sideBySideView()->title(0)->text().startsWith(QStringLiteral("fixed")));
        QVERIFY(window.setSideBySide(QString()));
        QVERIFY(!window.sideBySideView());
        QVERIFY(!window.timeline().divergence().has_value());
        QVERIFY(!window.setSideBySide(QStringLiteral("buggy,nonesuch"), &error));
        QVERIFY2(error.contains(QStringLiteral("nonesuch")) && error.contains(QStringLiteral("fixed")),
                 qPrintable(error));
        QVERIFY(!window.sideBySideView());
    }

    void commandLineRefusesABadPair()
    {
        for (const char *bad : {"buggy,nonesuch", "buggy", "buggy,fixed,buggy"}) {
            QTemporaryDir tmp;
            QProcess app;
            app.setProcessEnvironment(inflight::test::offscreenAppEnvironment(tmp.path()));
            app.start(QStringLiteral(INFLIGHT_APP),
                      {bugScene("stale-oob-skb.scn"), QStringLiteral("--side-by-side"), QLatin1String(bad),
                       QStringLiteral("--screenshot"), tmp.filePath(QStringLiteral("x.png"))});
            QVERIFY(app.waitForFinished(30000));
            QCOMPARE(app.exitStatus(), QProcess::NormalExit);
            QCOMPARE(app.exitCode(), 2);
            const QString err = QString::fromUtf8(app.readAllStandardError());
            QVERIFY2(err.contains(QStringLiteral("--side-by-side")) && err.contains(QStringLiteral("fixed, buggy")),
                     qPrintable(err));
            QVERIFY(!QFile::exists(tmp.filePath(QStringLiteral("x.png"))));
        }
    }
};

QTEST_MAIN(TestSideBySide)
#include "test_side_by_side.moc"
