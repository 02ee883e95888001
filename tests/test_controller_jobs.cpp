// SPDX-License-Identifier: GPL-3.0-or-later
// The controller's background jobs: a reverse-continue lands on the previous hit, a newer
// request supersedes an older one whose result is never installed, a reload during indexing
// installs only the new run's index, a collector switch replays off the GUI thread and keeps
// the statement, and a controller destroyed mid-seek goes away cleanly. A background seek takes
// the player: meanwhile the controller answers with the state on screen.

#include "docks/lists_dock.h"
#include "inflight/checkpoint_store.hpp"
#include "inflight/kernel.hpp"
#include "inflight/parser.hpp"
#include "inflight/report.hpp"
#include "inflight/simulation.hpp"
#include "inflight/state_digest.hpp"
#include "player_controller.h"
#include "settle_jobs.hpp"
#include "wait_index.hpp"

#include <QLabel>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace inflight;

namespace {

QString sceneFile(const char *name) { return QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/") + QLatin1String(name); }

std::uint64_t fullRunSteps(const char *name, GcEra era)
{
    ParseResult r = load_scene_file(sceneFile(name).toStdString());
    SimulationOptions o;
    o.era = era;
    o.record = false;
    o.fast_forward = PlayerController::fastForwardsByDefault(r.scene);
    Simulation sim(std::make_shared<const Scene>(std::move(r.scene)), o);
    sim.run();
    return sim.steps();
}

// 200,000 sockets by the end, fully indexed, at the end: a state whose restore the checkpoint
// store estimates above PlayerController::kInlineSeekCost, so a seek that restores another
// state runs on a pool thread, on the player itself (each test checks isSeeking()).
void openManySockets(PlayerController &c)
{
    QVERIFY(c.openText(QStringLiteral("set nofile 300000\nnote \"Sockets\"\nrepeat 100000 as i {\n"
                                      "  socketpair a$i b$i\n}\nnote \"All made\"\n"),
                       QStringLiteral("many.scn")));
    QVERIFY(test::waitIndex(c, 60000));
    c.seek(c.totalSteps());
    QVERIFY(test::waitIdle(c));
    QCOMPARE(c.position(), c.totalSteps());
}

} // namespace

class TestControllerJobs : public QObject {
    Q_OBJECT

private slots:
    void reverseContinueLandsOnThePreviousCollection()
    {
        PlayerController c;
        QVERIFY(c.openFile(sceneFile("cycle-kept-alive-by-open-fd.scn")));
        QVERIFY(test::waitIndex(c));
        c.eventBreakpoints().collection_starts = true;
        std::vector<std::uint64_t> starts = c.collectionSteps();
        QVERIFY(starts.size() >= 2);
        c.seek(c.totalSteps());
        QVERIFY(test::waitIdle(c));
        QSignalSpy hit(&c, &PlayerController::breakpointHit);
        for (auto it = starts.rbegin(); it != starts.rend(); ++it) {
            c.reverseContinue();
            QVERIFY(test::waitIdle(c));
            QCOMPARE(c.position(), *it);
            QVERIFY(hit.count() > 0);
            QVERIFY(hit.last().at(0).toString().contains(QStringLiteral("collection")));
        }
        c.reverseContinue(); // nothing earlier: the start
        QVERIFY(test::waitIdle(c));
        QCOMPARE(c.position(), std::uint64_t(0));
    }

    void newerSeekSupersedesAnOlderOne()
    {
        // A long run (fast-forwarded, 10^8 steps): both seeks go to a pool thread.
        PlayerController c;
        QVERIFY(c.openFile(sceneFile("seed-gc-penalty.scn")));
        c.seek(80'000'000);
        QVERIFY(c.isBusy());
        c.seek(2'000'000); // supersedes: the first job's player must never be installed
        QVERIFY(test::waitIdle(c));
        const std::uint64_t landed = c.position();
        QVERIFY2(landed >= 2'000'000 && landed < 80'000'000, qPrintable(QString::number(landed)));
        test::settleJobs();
        QCOMPARE(c.position(), landed);
    }

    void reloadDuringIndexingInstallsOnlyTheNewIndex()
    {
        PlayerController c;
        QVERIFY(c.openFile(sceneFile("large/large-32000-in-flight.scn")));
        QVERIFY(!c.indexReady());
        QVERIFY(c.openFile(sceneFile("selftest-triangle-stream.scn")));
        QVERIFY(test::waitIndex(c, 60000));
        QCOMPARE(c.totalSteps(), fullRunSteps("selftest-triangle-stream.scn", c.era()));
        QCOMPARE(c.timeline().back().step, c.totalSteps());
        test::settleJobs();
        QCOMPARE(c.totalSteps(), fullRunSteps("selftest-triangle-stream.scn", c.era()));
    }

    void collectorSwitchKeepsTheStatementOffTheGuiThread()
    {
        // Far into a long run the replay to the same statement under another collector runs
        // on a pool thread; the new run's step 0 is on screen meanwhile.
        PlayerController c;
        QVERIFY(c.openFile(sceneFile("seed-gc-penalty.scn")));
        // Far enough that no measured rate makes the replay short enough for the GUI thread.
        c.seek(50'000'000);
        QVERIFY(test::waitIdle(c));
        QVERIFY(!c.replaysInline(c.position()));
        const std::uint64_t statement = c.sim().statements_executed();
        QVERIFY(statement > 5);
        c.setEra(c.era() == GcEra::graph ? GcEra::classic : GcEra::graph);
        QVERIFY(c.isBusy());
        QCOMPARE(c.position(), std::uint64_t(0));
        QVERIFY(test::waitIdle(c));
        QCOMPARE(c.sim().statements_executed(), statement);
        QCOMPARE(c.sim().era(), c.era());
    }

    void exportedTraceNamesEverySocketFromAnyPosition()
    {
        PlayerController c;
        QVERIFY(c.openFile(sceneFile("selftest-triangle-stream.scn")));
        QVERIFY(test::waitIndex(c));
        c.seek(3); // no socket exists yet at step 3
        const QByteArray early = QByteArray::fromStdString(c.traceJson());
        // What the export wrote before: labels from the kernel at the current position.
        QVERIFY(QByteArray::fromStdString(trace_json(c.timeline(), RunNames::of(c.sim().kernel()), c.scene().title))
                    .contains("\"?\""));
        c.seek(c.totalSteps());
        const QByteArray late = QByteArray::fromStdString(c.traceJson());
        QVERIFY(!early.isEmpty());
        QCOMPARE(early, late);
        QVERIFY(!early.contains("\"?\""));
        QVERIFY(early.contains("\"u0\""));
    }

    void listsDockShowsTheGlobals()
    {
        PlayerController c;
        QVERIFY(c.openFile(sceneFile("selftest-triangle-stream.scn")));
        QVERIFY(test::waitIndex(c));
        docks::ListsDock dock(c);
        auto *globals = dock.findChild<QLabel *>(QStringLiteral("globals"));
        QVERIFY(globals);
        // Somewhere after the sends, fds are in flight: the label follows the kernel's counters.
        std::uint64_t at = 0;
        for (const Event &e : c.timeline())
            if (e.kind == EventKind::skb_queue)
                at = e.step;
        QVERIFY(at > 0);
        c.seek(at);
        QVERIFY(test::waitIdle(c));
        const Kernel &k = c.sim().kernel();
        QVERIFY(k.unix_tot_inflight > 0);
        // The label may hold no-break spaces; compare with plain ones.
        auto text = [globals] { return QString(globals->text()).replace(QChar::Nbsp, QLatin1Char(' ')); };
        QVERIFY2(text().contains(QStringLiteral("unix_tot_inflight %1").arg(k.unix_tot_inflight)), qPrintable(text()));
        QVERIFY(text().contains(QStringLiteral("max_scc_index %1").arg(k.max_scc_index)));
        QVERIFY(!text().contains(QStringLiteral("more user")));
        c.seek(0);
        QVERIFY(test::waitIdle(c));
        QVERIFY(text().contains(QStringLiteral("unix_tot_inflight 0")));
    }

    // Fifteen users with fds in flight (the seed scene): four in the label, all in its tooltip.
    void listsDockFoldsManyUsers()
    {
        PlayerController c;
        QVERIFY(c.openFile(sceneFile("seed-gc-penalty.scn")));
        QVERIFY(test::waitIndex(c));
        docks::ListsDock dock(c);
        auto *globals = dock.findChild<QLabel *>(QStringLiteral("globals"));
        QVERIFY(globals);
        c.seek(c.totalSteps());
        QVERIFY(test::waitIdle(c)); // a seek past what replays inline runs in the background
        int users = 0;              // the ones with fds in flight, and the first (root) always
        for (const User &u : c.sim().kernel().users)
            users += u.unix_inflight || &u == &c.sim().kernel().users.front() ? 1 : 0;
        QVERIFY(users > 5);
        QVERIFY2(globals->text().contains(QStringLiteral("%1 more users").arg(users - 4)), qPrintable(globals->text()));
        QCOMPARE(globals->text().count(QStringLiteral("unix_inflight")), 4); // not unix_tot_inflight
        QCOMPARE(globals->toolTip().count(QStringLiteral("->unix_inflight")), users);
    }

    // The views' values are taken before any view hears of a move: a slot connected after the
    // controller was made sees the snapshot of the step it is told about, also after a jump back
    // (a checkpoint restore or replay), a collector switch and a reload; unchanged labels are
    // the same object from step to step.
    void snapshotIsCurrentWhenAViewIsTold()
    {
        PlayerController c;
        std::size_t told = 0, stale = 0;
        QObject view;
        auto check = [&] {
            ++told;
            const StepSnapshot &s = c.snapshot();
            const Kernel &k = c.sim().kernel();
            if (s.position != c.position() || s.sockets != k.socks.size() ||
                s.globals.unix_tot_inflight != k.unix_tot_inflight ||
                s.gc_inflight_list.size() != k.gc_inflight_list.size() ||
                s.vertex_stack.size() != k.vertex_stack_view.size() || s.era != c.era())
                ++stale;
        };
        connect(&c, &PlayerController::positionChanged, &view, check);
        connect(&c, &PlayerController::sceneLoaded, &view, check);
        QVERIFY(c.openFile(sceneFile("selftest-mixed-lowpoint-stream.scn")));
        QVERIFY(test::waitIndex(c));
        std::shared_ptr<const SocketLabels> labels;
        std::size_t shared = 0;
        while (!c.atEnd()) {
            const std::uint64_t at = c.position();
            c.stepInto();
            QCOMPARE(c.snapshot().position, c.position());
            if (c.position() == at)
                break; // the end: at_end() is known once a step finds nothing left
            if (labels && c.snapshot().sockets == labels->size()) {
                QCOMPARE(c.snapshot().labels.get(), labels.get());
                ++shared;
            }
            labels = c.snapshot().labels;
        }
        QVERIFY(shared > 100);
        c.seek(150);
        QVERIFY(test::waitIdle(c));
        QCOMPARE(c.snapshot().position, std::uint64_t(150));
        c.setEra(GcEra::classic);
        QVERIFY(test::waitIdle(c));
        QCOMPARE(c.snapshot().era, GcEra::classic);
        QVERIFY(c.openFile(sceneFile("cycle-kept-alive-by-open-fd.scn")));
        QCOMPARE(c.snapshot().position, std::uint64_t(0));
        QVERIFY(told > 200);
        QCOMPARE(stale, std::size_t(0));
    }

    void aSeekWorksOnThePlayerAndViewsKeepTheStateOnScreen()
    {
        // A background seek takes the player (its restore reuses the state's memory):
        // meanwhile the controller answers with the state on screen, and the seek's result is
        // the state a replay reaches.
        PlayerController c;
        openManySockets(c);
        const std::uint64_t shown = c.position();
        const Event shown_event = *c.currentEvent();
        const std::uint64_t shown_statements = c.sim().statements_executed();
        const std::string shown_digest = digest_text(c.sim());
        const QString shown_narration = c.narration();
        QVERIFY(!shown_narration.isEmpty());
        const auto shown_graph = c.graphSnapshot();
        const std::uint64_t shown_snapshot = c.snapshot().position;

        QSignalSpy taken(&c, &PlayerController::seekStarted);
        const std::uint64_t middle = c.totalSteps() / 2;
        c.seek(middle);
        QVERIFY(c.isBusy());
        QVERIFY(c.isSeeking());
        QCOMPARE(taken.count(), 1);
        QCOMPARE(c.position(), shown);
        QVERIFY(c.currentEvent());
        QCOMPARE(c.currentEvent()->step, shown_event.step);
        QCOMPARE(c.currentEvent()->kind, shown_event.kind);
        QCOMPARE(c.narration(), shown_narration);
        QCOMPARE(c.graphSnapshot(), shown_graph); // the same value, not a blank graph
        QCOMPARE(c.snapshot().position, shown_snapshot);
        QVERIFY(c.atEnd() == (shown == c.totalSteps()));
        QVERIFY(!c.abstractNamespace()); // freed by the seek: nobody may keep reading it
        c.seek(middle);                  // the same seek again (a key held down): not restarted
        QCOMPARE(taken.count(), 1);
        QVERIFY(test::waitIdle(c));
        QVERIFY(!c.isSeeking());
        QCOMPARE(c.position(), middle);
        QVERIFY(c.abstractNamespace());
        Simulation reference(std::make_shared<const Scene>(c.scene()), c.simulationOptions());
        reference.advance_to(middle);
        QCOMPARE(digest_text(c.sim()), digest_text(reference));

        // Back where it was, by a restore into the same player: the same state as before.
        c.seek(shown);
        QVERIFY(c.isSeeking());
        QVERIFY(test::waitIdle(c));
        QCOMPARE(c.position(), shown);
        QCOMPARE(c.sim().statements_executed(), shown_statements);
        QCOMPARE(digest_text(c.sim()), shown_digest);
    }

    void collectorSwitchDuringASeekKeepsTheStatementShown()
    {
        // A seek has the player when the collector changes: the switch re-runs to the
        // statement on screen (not the seek's target), and the player the seek gives back is freed.
        PlayerController c;
        openManySockets(c);
        const std::uint64_t statement = c.sim().statements_executed();
        c.seek(c.totalSteps() / 3);
        QVERIFY(c.isSeeking());
        c.setEra(c.era() == GcEra::graph ? GcEra::classic : GcEra::graph);
        QVERIFY(!c.isSeeking());
        QVERIFY(test::waitIdle(c));
        test::settleJobs(); // a stale result of the dropped seek would have arrived
        QCOMPARE(c.sim().statements_executed(), statement);
        QCOMPARE(c.sim().era(), c.era());
    }

    void firstDuringASeekSupersedesIt()
    {
        PlayerController c;
        openManySockets(c);
        c.seek(c.totalSteps() / 2);
        QVERIFY(c.isSeeking());
        c.first();
        QVERIFY(test::waitIdle(c));
        test::settleJobs();
        QCOMPARE(c.position(), std::uint64_t(0));
        QVERIFY(!c.isSeeking());
    }

    // A scene whose run never ends in reasonable time or memory (repeat 1e9 { gc }): the index
    // stops at its memory budget, says so, and the run up to there is shown and navigable.
    void indexStopsAtItsMemoryBudget()
    {
        PlayerController c;
        PlayerController::IndexLimits limits;
        limits.memory_bytes = std::size_t(4) << 20;
        c.setIndexLimits(limits);
        QVERIFY(c.openFile(QStringLiteral(INFLIGHT_SOURCE_DIR "/tests/fuzz/regressions/issue15-case01-repeat-gc.scn")));
        QVERIFY(test::waitIndex(c, 60000));
        QVERIFY2(c.indexStoppedBy().contains(QStringLiteral("memory budget of 4 MiB")), qPrintable(c.indexStoppedBy()));
        // Bounded: the check is every 4096 events, a few KB past the budget at most.
        QVERIFY(c.timeline().bytes() < limits.memory_bytes + (std::size_t(1) << 20));
        QVERIFY(c.timeline().size() > 1000);
        QVERIFY(c.totalSteps() >= c.timeline().back().step);
        const std::uint64_t middle = c.timeline()[c.timeline().size() / 2].step;
        c.seek(middle);
        QVERIFY(test::waitIdle(c));
        QCOMPARE(c.position(), middle);
        c.last(); // the end of what the index saw, not the run's
        QVERIFY(test::waitIdle(c));
        QCOMPARE(c.position(), c.totalSteps());
        c.back();
        QVERIFY(test::waitIdle(c));
        QVERIFY(c.position() < c.totalSteps());
    }

    // The run's own budget (`set limit steps`) ends the run, and the index says which.
    void indexStopsAtTheRunsStepBudget()
    {
        PlayerController c;
        QVERIFY(c.openText(QStringLiteral("set limit steps 100000\nrepeat 1000000000 {\n  gc\n}\n"),
                           QStringLiteral("steps.scn")));
        QVERIFY(test::waitIndex(c, 60000));
        QVERIFY2(c.indexStoppedBy().contains(QStringLiteral("steps")), qPrintable(c.indexStoppedBy()));
        QVERIFY(c.totalSteps() <= 100000);
        c.last();
        QVERIFY(test::waitIdle(c));
        QCOMPARE(c.position(), c.totalSteps());
    }

    // A conditional line breakpoint stops only where its condition holds, continuing forward and
    // in reverse; a bad condition is refused with its column.
    void conditionalLineBreakpointStopsOnlyWhenItHolds()
    {
        PlayerController c;
        QVERIFY(c.openFile(sceneFile("selftest-mixed-lowpoint-stream.scn")));
        QVERIFY(test::waitIndex(c));
        c.eventBreakpoints().invariant_violated = false;
        // Line 9 (socketpair u$i p$i) runs six times; u0 exists from the first one's end on.
        std::vector<std::uint64_t> begins;
        for (const Event &e : c.timeline())
            if (e.kind == EventKind::stmt_begin && e.scene_line == 9)
                begins.push_back(e.step);
        QCOMPARE(begins.size(), std::size_t(6));

        QString error;
        QVERIFY(!c.setLineBreakpointCondition(9, QStringLiteral("infligt u0"), &error));
        QVERIFY2(error.contains(QStringLiteral("infligt")), qPrintable(error));
        QVERIFY(c.lineBreakpoints().isEmpty());
        QVERIFY(c.setLineBreakpointCondition(9, QStringLiteral("inflight u0 == none"), &error));
        QCOMPARE(c.lineBreakpoints(), QSet<int>{9});
        QCOMPARE(c.conditionalLineBreakpoints(), QSet<int>{9});
        QCOMPARE(c.lineBreakpointCondition(9), QStringLiteral("inflight u0 == none"));
        QCOMPARE(c.lineBreakpointTexts(), QStringList{QStringLiteral("9 if inflight u0 == none")});

        QSignalSpy hits(&c, &PlayerController::breakpointHit);
        c.continueToBreakpoint();
        QTRY_COMPARE(hits.count(), 1);
        QCOMPARE(c.position(), begins.front());
        QVERIFY(hits.last().at(0).toString().contains(QStringLiteral("line 9 if inflight u0 == none")));
        c.continueToBreakpoint(); // the five later runs of line 9 do not hold: to the end
        QTRY_VERIFY(c.atEnd());
        QCOMPARE(hits.count(), 1);

        c.reverseContinue(); // back past the five that do not hold, to the one that does
        QVERIFY(test::waitIdle(c));
        QCOMPARE(c.position(), begins.front());
        QCOMPARE(hits.count(), 2);

        // Unconditional again: every run of the line stops.
        QVERIFY(c.setLineBreakpointCondition(9, QString()));
        QVERIFY(c.conditionalLineBreakpoints().isEmpty());
        c.continueToBreakpoint();
        QTRY_COMPARE(hits.count(), 3);
        QCOMPARE(c.position(), begins[1]);
    }

    void destroyedDuringASeek()
    {
        auto c = std::make_unique<PlayerController>();
        QVERIFY(c->openFile(sceneFile("seed-gc-penalty.scn")));
        c->seek(100'000'000);
        QVERIFY(c->isBusy());
        c.reset();                         // cancels the seek and the index at their next statement end
        QCoreApplication::processEvents(); // the dropped job's queued call finds no controller
        QVERIFY(!c);
    }
};

QTEST_MAIN(TestControllerJobs)
#include "test_controller_jobs.moc"
