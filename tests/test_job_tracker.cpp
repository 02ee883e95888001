// SPDX-License-Identifier: GPL-3.0-or-later
// One tracker for every background job: a job superseded or cancelled is stale, its result goes
// to its stale handler and never to the code that installs results, and a job whose owner is
// gone delivers nothing. Then each lane that runs on it: the graph's plan, the buffer check and
// the real-kernel replay. Every wait is for the pool and the results it posted (settleJobs()),
// so a stale result that was going to arrive has arrived before anything is compared; a job to
// be superseded is first let finish (its result posted, not yet delivered), so that what it
// made is a whole result, which only the tracker can tell from the newer one.

#include "background_job.h"
#include "editor/buffer_checker.h"
#include "graph/graph_scene.h"
#include "inflight/parser.hpp"
#include "jobs/job_tracker.h"
#include "realkernel/kernel_replay_job.h"
#include "settle_jobs.hpp"

#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>

#include <memory>
#include <thread>
#include <vector>

using inflight::test::settleJobs;

namespace {

// Where results went.
struct Deliveries {
    std::vector<int> done, stale;
};

// Spins until the job is stale: a job that cannot end before it is superseded.
int untilStale(const JobControl &control, int value)
{
    while (!control.cancelled())
        std::this_thread::yield();
    return value;
}

// Owns a tracker, as JobTracker asks: results arrive only while it lives.
class Owner : public QObject {
public:
    JobTracker jobs{this};
};

std::shared_ptr<const inflight::Scene> sceneOf(const char *text)
{
    inflight::ParseResult parsed = inflight::parse_scene(text, "test.scn");
    if (!parsed.ok())
        return nullptr;
    return std::make_shared<const inflight::Scene>(std::move(parsed.scene));
}

} // namespace

class TestJobTracker : public QObject {
    Q_OBJECT
private slots:
    void supersededJobGoesToItsStaleHandler()
    {
        Owner owner;
        auto got = std::make_shared<Deliveries>();
        auto done = [got](int v) { got->done.push_back(v); };
        auto stale = [got](int v) { got->stale.push_back(v); };
        owner.jobs.start([](const JobControl &c) { return untilStale(c, 1); }, done, stale);
        const std::uint64_t first = owner.jobs.generation();
        owner.jobs.start([](const JobControl &) { return 2; }, done, stale);
        QVERIFY(owner.jobs.generation() > first);
        QVERIFY(!owner.jobs.isCurrent(first));
        QVERIFY(owner.jobs.isRunning());
        settleJobs();
        QCOMPARE(got->done, std::vector<int>{2});
        QCOMPARE(got->stale, std::vector<int>{1}); // it came back, and was not installed
        QVERIFY(!owner.jobs.isRunning());
    }

    void cancelledJobIsStale()
    {
        Owner owner;
        auto got = std::make_shared<Deliveries>();
        owner.jobs.start([](const JobControl &c) { return untilStale(c, 1); }, [got](int v) { got->done.push_back(v); },
                         [got](int v) { got->stale.push_back(v); });
        owner.jobs.cancel();
        QVERIFY(!owner.jobs.isRunning());
        settleJobs();
        QVERIFY(got->done.empty());
        QCOMPARE(got->stale, std::vector<int>{1});
    }

    void ownerGoneDeliversNothing()
    {
        auto owner = std::make_unique<Owner>();
        auto got = std::make_shared<Deliveries>();
        owner->jobs.start([](const JobControl &c) { return untilStale(c, 1); },
                          [got](int v) { got->done.push_back(v); }, [got](int v) { got->stale.push_back(v); });
        owner.reset(); // the tracker's destructor makes the job stale: it ends
        settleJobs();
        QVERIFY(got->done.empty());
        QVERIFY(got->stale.empty());
    }

    void supersededPlanIsNeverInstalled()
    {
        // A plan of a larger run, then at once a plan of a smaller one: only the second's
        // collected run and layout are installed, whichever half the first was in.
        auto many = sceneOf("repeat 6 as i {\n  socketpair a$i b$i\n}\n");
        auto pair = sceneOf("socketpair a b\n");
        QVERIFY(many && pair);
        GraphScene scene;
        QSignalSpy ready(&scene, &GraphScene::planReady);
        scene.planRun(many, {});
        background::pool().waitForDone(); // the first run collected: its result waits to be delivered
        scene.planRun(pair, {});
        QVERIFY(scene.layoutPending());
        QVERIFY(ready.wait(20000));
        settleJobs();
        QCOMPARE(ready.count(), 1);
        QVERIFY(scene.hasPlan());
        QVERIFY(scene.layout().runGraph());
        QCOMPARE(scene.layout().runGraph()->nodes.size(), std::size_t{2});
        QVERIFY(!scene.layoutPending());

        // The first plan's second half superseded: its run laid out, then a new plan asked for.
        graph::RunGraph six;
        {
            GraphScene collector;
            QSignalSpy collected(&collector, &GraphScene::planReady);
            collector.planRun(many, {});
            QVERIFY(collected.wait(20000));
            QVERIFY(collector.layout().runGraph());
            six = *collector.layout().runGraph();
        }
        QCOMPARE(six.nodes.size(), std::size_t{12});
        ready.clear();
        scene.layout().planCollected(std::make_shared<const graph::RunGraph>(six));
        background::pool().waitForDone(); // laid out, not delivered
        scene.planRun(pair, {});
        QVERIFY(ready.wait(20000));
        settleJobs();
        QCOMPARE(ready.count(), 1);
        QCOMPARE(scene.layout().runGraph()->nodes.size(), std::size_t{2});
    }

    void supersededLayoutIsNeverInstalled()
    {
        GraphScene scene;
        scene.setPlanEnabled(false);
        inflight::GraphSnapshot snapshot;
        for (std::uint32_t i = 0; i < 4; ++i) {
            inflight::SnapshotNode n;
            n.sock = i;
            snapshot.nodes.push_back(n);
        }
        QSignalSpy applied(&scene, &GraphScene::layoutApplied);
        scene.setSnapshot(snapshot, false); // new nodes: a layout is asked for
        const std::uint64_t first = scene.requestedGeneration();
        background::pool().waitForDone(); // the first laid out: its result waits to be delivered
        const std::uint64_t second = scene.requestLayout(true);
        QVERIFY(second > first);
        settleJobs();
        QCOMPARE(applied.count(), 1);
        QCOMPARE(applied.at(0).at(0).value<quint64>(), quint64(second));
        QCOMPARE(scene.appliedGeneration(), second);
        QCOMPARE(scene.staleResultsDropped(), 1);
        QVERIFY(!scene.layoutPending());
    }

    void supersededCheckIsNeverInstalled()
    {
        editor::BufferChecker checker;
        QSignalSpy checked(&checker, &editor::BufferChecker::checked);
        checker.checkNow("socketpair a b\n");
        const quint64 first = checker.generation();
        background::pool().waitForDone(); // the first checked: its result waits to be delivered
        checker.checkNow("socketpair x y\nclose x\n");
        QVERIFY(checker.generation() > first);
        settleJobs();
        QCOMPARE(checked.count(), 1);
        const auto result = checked.at(0).at(0).value<editor::CheckResult>();
        QCOMPARE(result.text, QByteArray("socketpair x y\nclose x\n"));
        QCOMPARE(result.generation, checker.generation());
        QVERIFY(!checker.pending());

        // An edit supersedes a check already running; its own check runs after the pause.
        checked.clear();
        checker.checkNow("socketpair a b\n");
        checker.changed([] { return QByteArray("socketpair c d\n"); });
        QTRY_VERIFY_WITH_TIMEOUT(!checker.pending(), 10000);
        settleJobs();
        QCOMPARE(checked.count(), 1);
        QCOMPARE(checked.at(0).at(0).value<editor::CheckResult>().text, QByteArray("socketpair c d\n"));
    }

    void replayDeliversItsOutcome()
    {
        // A scene that cannot run on a real kernel: the replay ends without a namespace.
        KernelReplayJob job;
        QSignalSpy finished(&job, &KernelReplayJob::finished);
        QVERIFY(job.start(QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/seed-splice-checksum.scn")));
        QVERIFY(job.running());
        QVERIFY(!job.start(QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/seed-splice-checksum.scn")));
        settleJobs();
        QCOMPARE(finished.count(), 1);
        QVERIFY(!job.running());
        QVERIFY2(job.outcome().banner.startsWith(QStringLiteral("This scene cannot run on a real kernel")),
                 qPrintable(job.outcome().banner));
    }

    void replayDestroyedMidRunDeliversNothing()
    {
        auto job = std::make_unique<KernelReplayJob>();
        auto finished = std::make_shared<int>(0);
        QObject::connect(job.get(), &KernelReplayJob::finished, [finished] { ++*finished; });
        QVERIFY(job->start(QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/seed-splice-checksum.scn")));
        job.reset();
        settleJobs();
        QCOMPARE(*finished, 0);
    }
};

QTEST_MAIN(TestJobTracker)
#include "test_job_tracker.moc"
