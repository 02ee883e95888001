// SPDX-License-Identifier: GPL-3.0-or-later
// The scheduler's run queue against the rule written as a scan of every task (the reference
// below): on random sequences of what a run does to its tasks — spawns, statements run and
// ended, sleeps, wake-ups, races held and let go, the kworker's queued work, stuck readers —
// the queue must choose the same task, starting at the same time, at every pick. And in whole
// runs (random scenes of many spawned tasks that sleep, wait, lock and race, on several CPUs),
// the index must agree with the tasks at every pick: 'set check on' verifies it and reports a
// "run queue" finding otherwise.
#include "inflight/kernel.hpp"
#include "inflight/run_queue.hpp"
#include "inflight/simulation.hpp"
#include "scene_runner.hpp"

#include <QTest>

#include <deque>
#include <optional>
#include <random>
#include <string>

using namespace inflight;
using inflight::test::findings_of;
using inflight::test::scene_of;

namespace {

// The scheduling rule as a scan of every task, in id order: the reference the queue must match.
std::optional<RunQueue::Choice> scan_pick(const std::deque<Task> &tasks, const RunQueue &q, bool work_queued,
                                          std::uint64_t work_ready_at)
{
    const Task *best = nullptr;
    std::uint64_t best_start = 0;
    for (const Task &t : tasks) {
        if (t.finished || t.blocked || t.held)
            continue;
        if (t.kworker && !t.body && !work_queued)
            continue;
        const std::uint32_t owner = q.owner(t.cpu);
        if (owner != npos && owner != t.id)
            continue;
        std::uint64_t start = t.clock;
        if (owner != t.id)
            start = std::max(start, q.free_at(t.cpu));
        if (t.kworker && !t.body)
            start = std::max(start, work_ready_at);
        if (!best || start < best_start || (start == best_start && t.cpu < best->cpu)) {
            best = &t;
            best_start = start;
        }
    }
    if (!best)
        return std::nullopt;
    return RunQueue::Choice{best_start, best->cpu, best->id};
}

// The sleeper woken with a failure when nobody can run, as a scan.
std::optional<std::uint32_t> scan_stuck(const std::deque<Task> &tasks)
{
    const Task *stuck = nullptr;
    for (const Task &t : tasks)
        if (!t.finished && t.blocked && (!stuck || t.clock < stuck->clock))
            stuck = &t;
    if (!stuck)
        return std::nullopt;
    for (const Task &t : tasks)
        if (!t.finished && t.blocked && t.wait_for == WaitFor::data &&
            (t.clock < stuck->clock || stuck->wait_for != WaitFor::data))
            stuck = &t;
    return stuck->id;
}

Proc queued_work() { co_return; }

QString describe(const std::optional<RunQueue::Choice> &c)
{
    if (!c)
        return QStringLiteral("none");
    return QStringLiteral("task %1 on cpu %2 at %3").arg(c->task).arg(c->cpu).arg(c->start);
}

// A random run of the tasks' lives, as the Simulation drives the queue. Small clock steps make
// ties (same start, same CPU) common, where the order is easiest to get wrong.
class RandomRun {
public:
    RandomRun(std::uint64_t seed, std::uint32_t cpus) : rng_(seed), cpus_(cpus), q_(cpus)
    {
        spawn(0, false);                    // main
        kworker_ = &spawn(cpus - 1, false); // the kworker, on the last CPU
        kworker_->kworker = true;
        q_.update(*kworker_);
    }

    // One thing happens; then the queue and the scan must agree. Returns false (with the
    // difference in `why`) when they do not.
    bool step(QString &why)
    {
        switch (pick(8)) {
        case 0:
        case 1:
            if (tasks_.size() < 400)
                spawn(pick(cpus_), pick(10) == 0);
            break;
        case 2:
        case 3:
        case 4: run_next(); break;
        case 5: wake_one(); break;
        case 6:
            if (Task *t = any([](const Task &x) { return x.held && !x.finished; })) {
                t->held = false; // a race breaks in
                q_.update(*t);
            }
            break;
        case 7:
            // Work is queued (or the queue drained) for the kworker.
            work_queued_ = !work_queued_;
            if (work_queued_)
                work_ready_at_ += pick(4);
            break;
        }
        if (const auto bad = q_.out_of_step(tasks_)) {
            why = QString::fromStdString(*bad);
            return false;
        }
        const auto fast = q_.best(kworker_, work_queued_, work_ready_at_);
        const auto slow = scan_pick(tasks_, q_, work_queued_, work_ready_at_);
        if (fast != slow) {
            why = QStringLiteral("queue picks %1, the scan %2").arg(describe(fast), describe(slow));
            return false;
        }
        if (!fast && q_.stuck() != scan_stuck(tasks_)) {
            why = QStringLiteral("stuck: queue wakes %1, the scan %2")
                      .arg(q_.stuck() ? static_cast<int>(*q_.stuck()) : -1)
                      .arg(scan_stuck(tasks_) ? static_cast<int>(*scan_stuck(tasks_)) : -1);
            return false;
        }
        return true;
    }

private:
    std::uint32_t pick(std::uint32_t n) { return static_cast<std::uint32_t>(rng_() % n); }

    Task &spawn(std::uint32_t cpu, bool held)
    {
        Task &t = tasks_.emplace_back();
        t.id = static_cast<std::uint32_t>(tasks_.size() - 1);
        t.name = "t" + std::to_string(t.id);
        t.cpu = cpu;
        t.clock = tasks_.size() > 1 ? tasks_[pick(static_cast<std::uint32_t>(tasks_.size() - 1))].clock : 0;
        t.held = held;
        q_.update(t);
        return t;
    }

    template <typename F>
    Task *any(F f)
    {
        const auto n = static_cast<std::uint32_t>(tasks_.size());
        const std::uint32_t from = pick(n);
        for (std::uint32_t i = 0; i < n; ++i)
            if (f(tasks_[(from + i) % n]))
                return &tasks_[(from + i) % n];
        return nullptr;
    }

    void release(Task &t)
    {
        if (q_.owner(t.cpu) == t.id)
            q_.release(t.cpu, t.clock);
    }

    // Simulation::pick() and the micro-steps of the chosen task up to its next point.
    void run_next()
    {
        const auto c = q_.best(kworker_, work_queued_, work_ready_at_);
        if (!c) {
            if (const auto s = q_.stuck()) {
                Task &t = tasks_[*s];
                t.blocked = false;
                t.wake_failed = true;
                q_.update(t);
            }
            return;
        }
        Task &t = tasks_[c->task];
        t.clock = c->start;
        if (t.kworker && !t.body) {
            t.body = queued_work();
            work_queued_ = false;
        }
        q_.take(t.cpu, t.id);
        t.clock += pick(4);
        switch (pick(6)) {
        case 0: break; // a scheduling point inside the statement: it keeps its CPU
        case 1:
        case 2: release(t); break; // the statement ended
        case 3:
            release(t);
            if (t.kworker)
                t.body = Proc();
            else
                t.finished = true;
            break;
        case 4:
        case 5: {
            release(t);
            t.blocked = true;
            const WaitFor kinds[] = {WaitFor::data, WaitFor::gc, WaitFor::task, WaitFor::gc_lock};
            t.wait_for = kinds[pick(4)];
            break;
        }
        }
        q_.update(t);
    }

    void wake_one()
    {
        if (Task *t = any([](const Task &x) { return x.blocked && !x.finished; })) {
            t->blocked = false;
            t->clock = std::max<std::uint64_t>(t->clock, pick(static_cast<std::uint32_t>(t->clock + 8))) + pick(2);
            q_.update(*t);
        }
    }

    std::mt19937_64 rng_;
    std::uint32_t cpus_;
    std::deque<Task> tasks_;
    RunQueue q_;
    Task *kworker_ = nullptr;
    bool work_queued_ = false;
    std::uint64_t work_ready_at_ = 0;
};

// A scene of `tasks` spawned tasks on `cpus` CPUs that send, close, collect, sleep on a read
// nobody answers, wait for each other and race, chosen by the seed.
std::string random_scene(std::uint64_t seed, std::uint32_t tasks, std::uint32_t cpus)
{
    std::mt19937_64 rng(seed);
    auto pick = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };
    std::string s = "scene \"many tasks\"\nset cpus " + std::to_string(cpus) + "\nset nofile 100000\n";
    s += pick(2) ? "set gc graph\n" : "set gc classic\n";
    s += "socketpair m0 m1\n";
    s += "repeat " + std::to_string(tasks) + " as k {\n  socketpair a$k b$k\n}\n";
    const char *bodies[] = {
        "    send a$k fds=b$k\n    close a$k b$k\n",
        "    gc\n",
        "    recv b$k\n", // nobody sends: it sleeps until the scheduler wakes it with a failure
        "    send a$k fds=m0\n    close a$k\n    recv b$k fds=r$k\n",
        "    close a$k\n    close b$k\n",
    };
    s += "repeat " + std::to_string(tasks) + " as k {\n  spawn w$k cpu=${k % " + std::to_string(cpus) + "} {\n";
    s += bodies[pick(5)];
    s += "  }\n}\n";
    if (pick(2))
        s += "spawn r when select m0 {\n  close m1\n}\n";
    s += "socketpair x y\nsend x fds=y\nclose x y\n";
    s += pick(2) ? "wait w0 w1\n" : "wait\n";
    s += "gc\n";
    return s;
}

} // namespace

class TestScheduler : public QObject {
    Q_OBJECT
private slots:
    void queueChoosesWhatTheScanChooses_data()
    {
        QTest::addColumn<std::uint64_t>("seed");
        QTest::addColumn<std::uint32_t>("cpus");
        for (std::uint64_t seed = 1; seed <= 40; ++seed)
            QTest::addRow("seed %llu", static_cast<unsigned long long>(seed))
                << seed << static_cast<std::uint32_t>(1 + seed % 4);
    }
    void queueChoosesWhatTheScanChooses()
    {
        QFETCH(std::uint64_t, seed);
        QFETCH(std::uint32_t, cpus);
        RandomRun run(seed, cpus);
        QString why;
        for (int i = 0; i < 5000; ++i)
            if (!run.step(why))
                QFAIL(qPrintable(QStringLiteral("after %1 changes: %2").arg(i + 1).arg(why)));
    }

    void indexAgreesWithTheTasksInRuns_data()
    {
        QTest::addColumn<std::uint64_t>("seed");
        for (std::uint64_t seed = 1; seed <= 24; ++seed)
            QTest::addRow("seed %llu", static_cast<unsigned long long>(seed)) << seed;
    }
    void indexAgreesWithTheTasksInRuns()
    {
        QFETCH(std::uint64_t, seed);
        auto scene = scene_of(random_scene(seed, 40 + static_cast<std::uint32_t>(seed % 5) * 20,
                                           1 + static_cast<std::uint32_t>(seed % 3)));
        QVERIFY(scene);
        SimulationOptions o;
        o.checked = true; // verifies the run queue against the tasks at every pick
        o.record = false;
        Simulation sim(scene, o);
        sim.run();
        const std::string findings = findings_of(sim);
        QVERIFY2(findings.find("run queue") == std::string::npos, findings.c_str());
        QVERIFY(sim.finished());
        QVERIFY(sim.tasks().size() > 40);
    }

    // A copy (a checkpoint) resumes with a queue that agrees with its tasks, and runs on to
    // the same end as the original.
    void copyResumesWithTheSameChoices()
    {
        auto scene = scene_of("set cpus 3\nrepeat 60 as k {\n  socketpair a$k b$k\n}\n"
                              "repeat 60 as k {\n  spawn w$k cpu=${k % 3} {\n    send a$k fds=b$k\n"
                              "    close a$k b$k\n  }\n}\nwait\ngc\n");
        QVERIFY(scene);
        SimulationOptions o;
        o.checked = true;
        Simulation sim(scene, o);
        std::unique_ptr<Simulation> copy;
        std::size_t from = 0;
        while (const Event *e = sim.step()) {
            if (!copy && sim.tasks().size() > 30 && e->kind == EventKind::stmt_end && sim.quiescent()) {
                copy = std::make_unique<Simulation>(sim);
                from = sim.events().size();
            }
        }
        QVERIFY(copy);
        std::size_t i = from;
        while (const Event *e = copy->step()) {
            QVERIFY(i < sim.events().size());
            QCOMPARE(e->task, sim.events()[i].task);
            QCOMPARE(e->time, sim.events()[i].time);
            QCOMPARE(e->step, sim.events()[i].step);
            ++i;
        }
        QCOMPARE(i, sim.events().size());
        QCOMPARE(findings_of(*copy), findings_of(sim));
        QVERIFY2(findings_of(*copy).find("run queue") == std::string::npos, findings_of(*copy).c_str());
    }
};

QTEST_GUILESS_MAIN(TestScheduler)
#include "test_scheduler.moc"
