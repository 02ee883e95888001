// SPDX-License-Identifier: GPL-3.0-or-later
// Time travel is exact: for every shipped scene under every collector it lists, the state at
// random steps is the same whether reached by stepping one micro-step at a time from step 0
// (the reference), by restoring a checkpoint and replaying, going forwards or backwards, with
// the store thinned to a tiny budget, or stepping a restored copy one micro-step at a time.
// Fast-forwarded runs number their steps exactly like full runs.

#include "inflight/checkpoint_store.hpp"
#include "inflight/gc_era.hpp"
#include "inflight/object_image.hpp"
#include "inflight/parser.hpp"
#include "inflight/player.hpp"
#include "inflight/scene.hpp"
#include "inflight/scene_cursor.hpp"
#include "inflight/simulation.hpp"
#include "inflight/state_digest.hpp"
#include "inflight/stop_conditions.hpp"
#include "inflight/watch.hpp"
#include "scene_runner.hpp"

#include <QDirIterator>
#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>
#include <zstd.h>

using namespace inflight;
using inflight::test::closed_rings; // sockets, files, skbs and vertices all in use

namespace {

struct Case {
    QString file;
    std::shared_ptr<const Scene> scene;
    GcEra era;
    bool large = false;
};

std::vector<Case> cases()
{
    std::vector<Case> out;
    QDirIterator it(QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes"), {QStringLiteral("*.scn")}, QDir::Files,
                    QDirIterator::Subdirectories);
    QStringList files;
    while (it.hasNext())
        files << it.next();
    files.sort();
    for (const QString &f : files) {
        ParseResult r = load_scene_file(f.toStdString());
        if (!r.ok())
            continue;
        auto scene = std::make_shared<const Scene>(std::move(r.scene));
        std::vector<GcEra> eras = scene->settings.collectors;
        if (eras.empty())
            eras.push_back(scene->settings.gc);
        for (GcEra e : eras)
            out.push_back({f, scene, e});
    }
    return out;
}

// The cases, parsed once per process: every row's test and _data() read the same table.
const std::vector<Case> &shippedCases()
{
    static const std::vector<Case> all = cases();
    return all;
}

// Runs of more than this many micro-steps are checked fast-forwarded, as the app runs them
// (their collections and probes absorbed, still numbered): the million-bind scene has 7.5e8.
constexpr std::uint64_t kLargeRun = 2'000'000;

// As the app runs a large scene: fast-forwarded, nothing recorded.
SimulationOptions fast_forwarded()
{
    SimulationOptions o;
    o.record = false;
    o.fast_forward = true;
    return o;
}

SimulationOptions options_for(const Case &c)
{
    SimulationOptions o;
    o.era = c.era;
    o.record = false;
    o.checked = false;
    o.fast_forward = c.large;
    return o;
}

// A run is large when it goes past kLargeRun micro-steps. A scene of few statements cannot
// (each statement would need a collection over tens of thousands of sockets), so only scenes
// of many statements are probed.
bool isLargeRun(const Case &c)
{
    if (unrolled_statements(c.scene->statements) < 1000)
        return false;
    Simulation probe(c.scene, options_for(c));
    probe.advance_to(kLargeRun);
    return !probe.finished();
}

// The reference: one micro-step at a time from step 0, the state text at each wanted step.
std::map<std::uint64_t, std::string> reference_states(const Case &c, const std::vector<std::uint64_t> &wanted,
                                                      std::uint64_t &total)
{
    std::map<std::uint64_t, std::string> out;
    Simulation sim(c.scene, options_for(c));
    auto next = wanted.begin();
    while (next != wanted.end() && *next == 0) {
        out[0] = digest_text(sim);
        ++next;
    }
    while (sim.step()) {
        while (next != wanted.end() && *next == sim.steps()) {
            out[*next] = digest_text(sim);
            ++next;
        }
    }
    total = sim.steps();
    return out;
}

QByteArray label(const Case &c)
{
    return (QFileInfo(c.file).fileName() + QStringLiteral(" / ") + QString::fromUtf8(era_name(c.era))).toUtf8();
}

// The first line where two state texts differ, for a readable failure.
QByteArray first_difference(const std::string &a, const std::string &b)
{
    std::size_t i = 0, line_start = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i]) {
        if (a[i] == '\n')
            line_start = i + 1;
        ++i;
    }
    auto line = [&](const std::string &s) {
        return QByteArray::fromStdString(s.substr(line_start, s.find('\n', line_start) - line_start));
    };
    return "expected: " + line(a).left(300) + "\n     got: " + line(b).left(300);
}

#define COMPARE_STATE(expected, actual, what)                                                                          \
    do {                                                                                                               \
        const std::string e_ = (expected), a_ = (actual);                                                              \
        if (e_ != a_)                                                                                                  \
            QFAIL((label(c) + " " + (what) + "\n" + first_difference(e_, a_)).constData());                            \
    } while (0)

// The steps of a run's quiescent statement ends, in order, and a state of the run at a step.
std::vector<std::uint64_t> quiet_statement_ends(const std::shared_ptr<const Scene> &scene, const SimulationOptions &o)
{
    std::vector<std::uint64_t> steps;
    Simulation full(scene, o);
    while (const Event *e = full.step())
        if (e->kind == EventKind::stmt_end && full.quiescent())
            steps.push_back(full.steps());
    return steps;
}

std::unique_ptr<Simulation> state_at(const std::shared_ptr<const Scene> &scene, const SimulationOptions &o,
                                     std::uint64_t step)
{
    auto s = std::make_unique<Simulation>(scene, o);
    s->advance_to(step);
    return s;
}

// Restored from `image` (a checkpoint of `live`), a state equals `live`, and both run to the
// same end. QCOMPARE returns from here only: callers check QTest::currentTestFailed().
void restoresWhole(const Simulation &image, Simulation &live)
{
    Simulation restored(image);
    QCOMPARE(digest_text(restored), digest_text(live));
    while (live.step()) { }
    while (restored.step()) { }
    QCOMPARE(restored.steps(), live.steps());
    QCOMPARE(digest_text(restored), digest_text(live));
}

} // namespace

class TestTimeTravel : public QObject {
    Q_OBJECT

    // A fast-forwarded run stops only at the steps it shows. One reference pass keeps, for a
    // few random statements k, the state at k's stmt_end and at k+1's stmt_begin (the step
    // right after it that a viewer sees); a player seeks to the latter and steps back to the
    // former, in a shuffled order.
    void checkLargeRun(const Case &c, std::mt19937_64 &rng)
    {
        const std::uint64_t statements = unrolled_statements(c.scene->statements);
        std::vector<std::uint64_t> ks;
        for (int i = 0; i < 3; ++i)
            ks.push_back(std::uniform_int_distribution<std::uint64_t>(1, statements - 1)(rng));
        ks.push_back(statements - 1);
        std::sort(ks.begin(), ks.end());
        struct Target {
            std::uint64_t end_step = 0, begin_step = 0;
            std::string at_end, at_begin;
        };
        std::map<std::uint64_t, Target> targets; // by statement ordinal k
        for (std::uint64_t k : ks)
            targets[k];
        {
            Simulation ref(c.scene, options_for(c));
            std::uint64_t pending = 0; // k whose stmt_end was seen, waiting for the next stmt_begin
            while (const Event *e = ref.step()) {
                if (e->kind == EventKind::stmt_end && targets.count(e->a) && e->task == 0) {
                    targets[e->a].end_step = e->step;
                    targets[e->a].at_end = digest_text(ref);
                    pending = e->a;
                } else if (pending && e->kind == EventKind::stmt_begin) {
                    targets[pending].begin_step = e->step;
                    targets[pending].at_begin = digest_text(ref);
                    pending = 0;
                } else if (pending) {
                    pending = 0; // something visible ran between the two: not this pair
                }
            }
        }
        std::vector<Target> order;
        for (auto &[k, t] : targets)
            if (t.begin_step)
                order.push_back(t);
        QVERIFY2(!order.empty(), label(c) + ": statement pairs found");
        std::shuffle(order.begin(), order.end(), rng);
        auto store =
            std::make_shared<CheckpointStore>(CheckpointStore::kDefaultBudget, CheckpointStore::kDefaultInterval);
        Player player(c.scene, options_for(c), store);
        for (const Target &t : order) {
            player.seek(t.begin_step);
            QCOMPARE(player.position(), t.begin_step);
            COMPARE_STATE(t.at_begin, digest_text(player.sim()),
                          "seek to " + QByteArray::number(qulonglong(t.begin_step)));
            player.back();
            QCOMPARE(player.position(), t.end_step);
            COMPARE_STATE(t.at_end, digest_text(player.sim()), "back to " + QByteArray::number(qulonglong(t.end_step)));
        }
        QVERIFY2(store->stats().count > 1, label(c) + " took checkpoints");
    }

private slots:
    // One row per shipped scene and collector it lists, so that each case can be run alone
    // (`test_timetravel everySceneEveryCollector:"triangle.scn / graph"`) and ctest deals the
    // rows to several entries (tests/run_shard.sh). The rows of large runs have ctest entries
    // of their own (tests/CMakeLists.txt), checked against this table below.
    void everySceneEveryCollector_data()
    {
        QTest::addColumn<int>("index");
        const std::vector<Case> &all = shippedCases();
        for (std::size_t i = 0; i < all.size(); ++i)
            QTest::newRow(label(all[i]).constData()) << static_cast<int>(i);
    }

    void everySceneEveryCollector()
    {
        QFETCH(int, index);
        Case c = shippedCases().at(static_cast<std::size_t>(index));
        QElapsedTimer clock;
        clock.start();
        c.large = isLargeRun(c);
        std::mt19937_64 rng(std::hash<std::string>{}(label(c).toStdString()));
        if (c.large) {
            checkLargeRun(c, rng);
            qInfo("%s: fast-forwarded, %lld ms", label(c).constData(), static_cast<long long>(clock.elapsed()));
            return;
        }
        std::uint64_t total = 0;
        {
            Simulation sized(c.scene, options_for(c));
            sized.advance_to(~std::uint64_t(0));
            total = sized.steps();
        }
        QVERIFY(total > 0);
        // Targets: random steps (seeded by the scene) and the end; with each, the step
        // before it (for back()).
        std::vector<std::uint64_t> targets;
        std::map<std::uint64_t, std::uint64_t> before;
        for (int i = 0; i < 10; ++i) {
            const auto t = std::uniform_int_distribution<std::uint64_t>(1, total)(rng);
            targets.push_back(t);
            before[t] = t - 1;
        }
        targets.push_back(total);
        before[total] = total - 1;
        std::vector<std::uint64_t> wanted = targets;
        for (std::uint64_t t : targets)
            wanted.push_back(before[t]);
        std::sort(wanted.begin(), wanted.end());
        wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
        std::uint64_t ref_total = 0;
        const auto ref = reference_states(c, wanted, ref_total);
        QCOMPARE(ref_total, total); // advance_to() numbers steps like one-by-one stepping

        // Checkpoints dense enough that every seek starts from one: replay measured as dear
        // (a second for one step), so the cost model spaces them at the interval, not by the
        // packing cost of so small a state.
        const std::uint64_t interval = std::max<std::uint64_t>(16, total / 64);
        auto store = std::make_shared<CheckpointStore>(CheckpointStore::kDefaultBudget, interval);
        store->note_replay(1, std::chrono::seconds(1));
        Player player(c.scene, options_for(c), store);
        std::vector<std::uint64_t> order = targets;
        std::shuffle(order.begin(), order.end(), rng);
        for (std::uint64_t t : order) {
            player.seek(t);
            QCOMPARE(player.position(), t);
            COMPARE_STATE(ref.at(t), digest_text(player.sim()), "seek to " + QByteArray::number(qulonglong(t)));
            player.back();
            QCOMPARE(player.position(), before[t]);
            COMPARE_STATE(ref.at(before[t]), digest_text(player.sim()),
                          "back from " + QByteArray::number(qulonglong(t)));
            // As a user pausing between keys: the store's thread has compressed what the
            // player offered (it takes no new one while one waits), so the next seeks
            // restore from a mix of compressed and packed checkpoints.
            store->flush();
        }
        QVERIFY2(store->stats().count > 1, label(c) + " took checkpoints");

        // A restored checkpoint stepped one micro-step at a time (no absorption).
        const std::uint64_t t = targets.front();
        std::shared_ptr<const Simulation> cp = store->at_or_before(t);
        QVERIFY(cp);
        Simulation copy(*cp);
        while (copy.steps() < t && copy.step()) { }
        COMPARE_STATE(ref.at(t), digest_text(copy), "a restored copy stepped to " + QByteArray::number(qulonglong(t)));

        // A store so small it keeps only two checkpoints: still exact, within its budget.
        auto tiny = std::make_shared<CheckpointStore>(1, interval);
        Player thin(c.scene, options_for(c), tiny);
        for (std::uint64_t x : order) {
            thin.seek(x);
            COMPARE_STATE(ref.at(x), digest_text(thin.sim()),
                          "thinned store, seek to " + QByteArray::number(qulonglong(x)));
        }
        QVERIFY(tiny->stats().count <= 2);
        qInfo("%s: %llu steps, %lld ms", label(c).constData(), static_cast<unsigned long long>(total),
              static_cast<long long>(clock.elapsed()));
    }

    // Every row of a large run has a ctest entry of its own (INFLIGHT_LARGE_ROWS, from
    // tests/CMakeLists.txt), and no other row has one: a new large scene cannot hide in a
    // shard and push it past the suite's time limit unnoticed.
    void largeRowsHaveEntriesOfTheirOwn()
    {
        QVERIFY2(shippedCases().size() >= 30, "the shipped scenes are found");
        QStringList large;
        for (const Case &c : shippedCases())
            if (isLargeRun(c))
                large << QString::fromUtf8(label(c));
        QStringList registered = QStringLiteral(INFLIGHT_LARGE_ROWS).split(QLatin1Char('|'), Qt::SkipEmptyParts);
        large.sort();
        registered.sort();
        QVERIFY2(registered == large,
                 qPrintable(QStringLiteral("INFLIGHT_LARGE_ROWS in tests/CMakeLists.txt must be exactly: ") +
                            large.join(QStringLiteral(" | ")) + QStringLiteral("; it is: ") +
                            registered.join(QStringLiteral(" | "))));
    }

    void frozenCheckpointsAreCompactAndWhole()
    {
        // 300 rings of 8 datagram pairs, every ring closed: a state of a few thousand sockets,
        // skbs and vertices, copied mid-run into the store's frozen form.
        const auto scene = closed_rings(300, "gc\n");
        QVERIFY2(scene, "the scene parses");
        SimulationOptions o;
        o.record = false;
        Simulation live(scene, o);
        // Stop in the middle of the closes: sockets, files, skbs and vertices all in use.
        while (live.step())
            if (live.statements_executed() > 300 * 8 + 300 * 8 + 1200 && live.quiescent())
                break;
        QVERIFY(live.quiescent() && !live.finished());
        const auto frozen = Simulation::frozen_copy(live);
        const std::size_t live_bytes = state_bytes(live), frozen_bytes = state_bytes(*frozen);
        qInfo("live %zu bytes, frozen %zu bytes", live_bytes, frozen_bytes);
        QVERIFY2(frozen_bytes * 4 < live_bytes, "a frozen checkpoint takes a fraction of the live state");
        // Restored, it is the same state, and it runs to the same end.
        restoresWhole(*frozen, live);
        if (QTest::currentTestFailed())
            return;
        // A copy of a copy of a frozen one too (the player restores, the recorder freezes again).
        const auto again = Simulation::frozen_copy(Simulation(*frozen));
        QCOMPARE(state_bytes(*again), frozen_bytes);

        // A frozen image of 256 KB or more is decompressed on a thread of its own, a few windows
        // ahead of the restore reading it: the same state, whichever way it was read.
        {
            ParseResult parsed = parse_scene("set gc graph\nset nofile 100000\nrepeat 12000 as i {\n"
                                             "  socketpair a$i b$i dgram\n  send b$i fds=a$i\n}\n"
                                             "repeat 12000 as i {\n  close a$i\n}\n",
                                             "many.scn");
            QVERIFY(parsed.ok());
            const auto big = std::make_shared<const Scene>(std::move(parsed.scene));
            Simulation many(big, o);
            while (many.step())
                if (many.statements_executed() > 12000 * 2 + 6000 && many.quiescent())
                    break;
            QVERIFY(many.quiescent() && !many.finished());
            const auto image = Simulation::frozen_copy(many);
            QVERIFY2(state_bytes(*image) >= std::size_t(256) << 10, "large enough to be decompressed ahead");
            restoresWhole(*image, many);
            if (QTest::currentTestFailed())
                return;
            // Readers dropped early (a copy made and not used) leave no thread behind: a
            // hundred restores in a row from the same image.
            for (int i = 0; i < 100; ++i)
                QCOMPARE(Simulation(*image).steps(), image->steps());
        }

        // The store packs in add() and compresses on its own thread: the checkpoint just added
        // is the one the next restore gets, at once (packed, while it is being compressed) and
        // after compression, and it is the same state in both forms.
        CheckpointStore store;
        store.add(live);
        const auto early = store.at_or_before(live.steps());
        QVERIFY2(early, "a checkpoint still being compressed serves, not missed");
        QCOMPARE(early->steps(), live.steps());
        QCOMPARE(digest_text(Simulation(*early)), digest_text(live));
        store.flush();
        const auto stored = store.at_or_before(live.steps());
        QVERIFY2(stored, "stored");
        QCOMPARE(stored->steps(), live.steps());
        QVERIFY2(state_bytes(*stored) * 4 < state_bytes(live), "stored compressed");
        QCOMPARE(digest_text(Simulation(*stored)), digest_text(live));
        QCOMPARE(digest_text(Simulation(*early)), digest_text(live)); // the packed form outlives its swap
        QCOMPARE(store.stats().taken, std::size_t(1));
        // retire(): a store with none waiting takes the state; one it does not take comes back
        // untouched for the caller to free elsewhere, never destroyed on the caller's thread.
        {
            CheckpointStore retiring;
            QVERIFY2(!retiring.retire(std::make_unique<Simulation>(live)), "an idle store takes the state");
            // Back to back, so that the store's thread is usually still busy with the first.
            std::vector<std::unique_ptr<Simulation>> states;
            for (int i = 0; i < 8; ++i)
                states.push_back(std::make_unique<Simulation>(live));
            std::vector<const Simulation *> given;
            std::vector<std::unique_ptr<Simulation>> back;
            for (auto &state : states) {
                given.push_back(state.get());
                back.push_back(retiring.retire(std::move(state)));
            }
            for (std::size_t i = 0; i < back.size(); ++i)
                if (back[i]) {
                    QCOMPARE(back[i].get(), given[i]);
                    QCOMPARE(digest_text(*back[i]), digest_text(live));
                }
        }
        // A store dropped with a checkpoint still being compressed does not wait for ever.
        auto dropped = std::make_unique<CheckpointStore>();
        dropped->add(Simulation(*frozen));
        dropped->add(live);
        dropped.reset();
    }

    void imagesEndingOnAWindowsEdgeReadWhole()
    {
        // zstd may say a frame is over on the very call that fills a window exactly: an image
        // whose raw size is a multiple of the 256 KB window then read as cut short, and its
        // restore threw. Read inline (small compressed) and ahead on a thread (large), at such
        // sizes and off them, every value comes back and the reader is at the end.
        for (const bool random : {false, true})
            for (const std::size_t raw : {std::size_t(256) << 10, std::size_t(1) << 20, (std::size_t(1) << 20) + 12}) {
                const std::size_t values = raw / sizeof(std::uint32_t);
                std::vector<std::uint32_t> plain(values);
                std::mt19937 rng(7);
                for (std::size_t i = 0; i < values; ++i)
                    plain[i] = random ? static_cast<std::uint32_t>(rng()) : static_cast<std::uint32_t>(i / 64);
                std::vector<std::byte> frame(ZSTD_compressBound(values * sizeof(std::uint32_t)));
                const std::size_t n =
                    ZSTD_compress(frame.data(), frame.size(), plain.data(), values * sizeof(std::uint32_t), 1);
                QVERIFY(!ZSTD_isError(n));
                const QByteArray what = QByteArray(random ? "random " : "runs ") + QByteArray::number(qulonglong(raw)) +
                                        " bytes, " + QByteArray::number(qulonglong(n)) + " compressed";
                ImageReader r(frame.data(), n, true);
                std::size_t wrong = 0;
                for (std::size_t i = 0; i < values; ++i)
                    wrong += r.get<std::uint32_t>() != plain[i];
                QVERIFY2(wrong == 0, what.constData());
                QVERIFY2(r.at_end(), what.constData());
            }
    }

    void recordedTailIsCheckpointed()
    {
        // Rings closed and collected by one long final `gc`, then an `expect`: the end of the
        // run and the ends of the last statements (the gc's start and end among them) are what
        // stepping back from "last" restores, so the recorder keeps them, whatever the spacing.
        const auto scene = closed_rings(100, "gc\nexpect freed u0_0\n");
        QVERIFY2(scene, "the scene parses");
        const SimulationOptions o = fast_forwarded();
        // A store whose replay is slow beside its copies (1 ms a step, 1 ns a byte): every tail
        // checkpoint pays for itself, so the plan keeps every quiescent statement end of its
        // window, and the end.
        CheckpointStore store(CheckpointStore::kDefaultBudget, std::uint64_t(1) << 16);
        store.note_replay(1'000'000, std::chrono::seconds(1000));
        store.note_pack(std::size_t(1) << 40, std::chrono::nanoseconds(std::int64_t(1) << 40));
        const TailPlan plan = store.tail_plan(std::size_t(1) << 20);
        QVERIFY(plan.statements > 0 && plan.spacing == 1 && !plan.one_at_a_time);
        std::vector<std::uint64_t> tail_steps;
        std::uint64_t end = 0, gc_start = 0, gc_end = 0;
        {
            Simulation full(scene, o);
            std::vector<std::pair<std::uint64_t, std::uint64_t>> quiet; // (statements, steps)
            while (const Event *e = full.step())
                if (e->kind == EventKind::stmt_end && full.quiescent())
                    quiet.emplace_back(full.statements_executed(), full.steps());
            end = full.steps();
            QVERIFY(quiet.size() >= 3 && quiet.back().second == end);
            const std::uint64_t n = full.statements_executed();
            for (const auto &[statements, steps] : quiet)
                if (statements + plan.statements >= n && steps < end)
                    tail_steps.push_back(steps);
            gc_end = quiet[quiet.size() - 2].second;
            gc_start = quiet[quiet.size() - 3].second;
        }
        QVERIFY2(end - gc_end < 10, "the scene ends with a short statement after the gc");
        QVERIFY2(gc_end - gc_start > 1000, "the gc statement is long");
        QVERIFY(std::find(tail_steps.begin(), tail_steps.end(), gc_start) != tail_steps.end());
        // The store only has step 0, as if the spacing had left the tail bare.
        Simulation run(scene, o);
        store.add(run);
        run.advance_to(~std::uint64_t(0));
        QCOMPARE(run.steps(), end);
        QVERIFY2(end > (std::uint64_t(1) << 12), "long enough for the tail to be worth a checkpoint");
        std::atomic<bool> cancel{false};
        checkpoint_tail(run, store, cancel);
        store.flush();
        QCOMPARE(store.stats().count, 2 + tail_steps.size());
        QCOMPARE(store.at_or_before(end)->steps(), end);
        // A step back into the gc restores its start, not step 0; each tail state is the run's.
        QCOMPARE(store.at_or_before(gc_end - 1)->steps(), gc_start);
        for (std::uint64_t step : tail_steps) {
            const auto tail = store.at_or_before(step);
            QCOMPARE(tail->steps(), step);
            Simulation reference(scene, o);
            reference.advance_to(step);
            QCOMPARE(digest_text(Simulation(*tail)), digest_text(reference));
        }
        // Once more changes nothing: they are all stored already.
        checkpoint_tail(run, store, cancel);
        store.flush();
        QCOMPARE(store.stats().count, 2 + tail_steps.size());
    }

    void seekCostAndSpacingFollowTheMeasuredModel()
    {
        // The store estimates a seek from what it has measured: replay per micro-step, and a
        // restore per byte of the live state, counted only when the seek takes one.
        const auto scene = closed_rings(20, "gc\nexpect freed u0_0\n");
        QVERIFY2(scene, "the scene parses");
        auto store = std::make_shared<CheckpointStore>(CheckpointStore::kDefaultBudget, 64);
        Player player(scene, fast_forwarded(), store);
        player.seek(~std::uint64_t(0) >> 1);
        store->flush();
        const std::uint64_t here = player.position();
        QVERIFY(here > 200);
        using std::chrono::nanoseconds;
        QCOMPARE(store->estimated_seek_cost(here, here), nanoseconds(0));
        QVERIFY(store->estimated_seek_cost(0, 200) > store->estimated_seek_cost(0, 100));
        // A slow replay measured: a long forward seek costs about its steps at that rate.
        store->note_replay(1'000'000, std::chrono::seconds(10)); // 10 us a step, whatever came before
        const nanoseconds forward = store->estimated_seek_cost(0, 100);
        QVERIFY2(forward > std::chrono::microseconds(500), qPrintable(QString::number(forward.count())));
        // A slow restore measured: a step back (a restore, then a little replay) costs more than
        // a step forward, and a restore costs what the store's states weigh at that rate.
        store->note_restore(1'000, std::chrono::seconds(1)); // 1 ms a byte
        const nanoseconds back = store->estimated_seek_cost(here, here - 1);
        QVERIFY2(back > std::chrono::milliseconds(1000), qPrintable(QString::number(back.count())));
        QVERIFY(back > store->estimated_seek_cost(here - 1, here));
        // Spacing: never below the interval; a state whose packing costs more than the interval's
        // replay is spaced by that cost.
        QCOMPARE(store->spacing(0), std::uint64_t(64));
        QVERIFY(store->spacing(std::size_t(1) << 40) > 64);
    }

    void tailSpacingIsWhereACopyPaysBack()
    {
        // Where packing a copy costs as much as replaying many steps (a large state, a fast
        // scene), the tail keeps only the statement ends that far past the checkpoint before
        // them: the gc's end but not its start, near step 0 of a short run, and not the end,
        // a short `expect` past the gc's end. A state large beside the budget is packed one
        // copy at a time.
        const auto scene = closed_rings(100, "gc\nexpect freed u0_0\n");
        QVERIFY2(scene, "the scene parses");
        const SimulationOptions o = fast_forwarded();
        std::vector<std::pair<std::uint64_t, std::uint64_t>> quiet; // (statements, steps) of the
                                                                    // quiescent statement ends
        std::uint64_t statements = 0;
        {
            Simulation full(scene, o);
            while (const Event *e = full.step())
                if (e->kind == EventKind::stmt_end && full.quiescent())
                    quiet.emplace_back(full.statements_executed(), full.steps());
            statements = full.statements_executed();
        }
        QVERIFY(quiet.size() > 3);
        const std::uint64_t end = quiet.back().second, gc_end = quiet[quiet.size() - 2].second,
                            gc_start = quiet[quiet.size() - 3].second;
        Simulation run(scene, o);
        run.advance_to(~std::uint64_t(0));
        QCOMPARE(run.steps(), end);
        const std::size_t live = state_bytes(run);
        // Rates that space the tail by half the gc (1 ns a step): a copy of this state costs the
        // replay of half the gc for every step back that uses it.
        const std::uint64_t spacing = (gc_end - gc_start) / 2;
        const std::uint64_t pay_back = spacing * CheckpointStore::kStepsBackFromEnd;
        QVERIFY2(gc_start > spacing && spacing > 2 * (end - gc_end), "the gc is long, the expect after it short");
        auto shared = std::make_shared<CheckpointStore>(2 * live, std::uint64_t(1) << 12); // the end state: half
        CheckpointStore &store = *shared;
        store.note_replay(std::uint64_t(1) << 40, std::chrono::nanoseconds(std::int64_t(1) << 40));
        store.note_pack(std::size_t(1) << 40, std::chrono::nanoseconds(static_cast<std::int64_t>(
                                                  static_cast<double>(std::uint64_t(1) << 40) *
                                                  static_cast<double>(pay_back) / static_cast<double>(live))));
        const TailPlan plan = store.tail_plan(live);
        QVERIFY2(plan.spacing + 1 >= spacing && plan.spacing <= spacing + 1,
                 qPrintable(QString::number(plan.spacing) + " steps, not " + QString::number(spacing)));
        QVERIFY2(plan.one_at_a_time, "half the budget is a large state");
        QVERIFY(quiet.size() > plan.statements);
        // The boundaries the rule keeps, worked out here from the plain run: in the window, each
        // the spacing past the one kept before (step 0 first), then the end if it is as far.
        std::vector<std::uint64_t> kept{0};
        for (const auto &[at, steps] : quiet)
            if (at + plan.statements >= statements && steps < end && steps >= kept.back() + plan.spacing)
                kept.push_back(steps);
        QVERIFY2(std::find(kept.begin(), kept.end(), gc_end) != kept.end(), "the gc's end is kept");
        QVERIFY2(std::find(kept.begin(), kept.end(), gc_start) == kept.end(),
                 "the gc's start is near a boundary kept before it");
        QVERIFY2(end < kept.back() + plan.spacing, "the end is near the gc's end");
        Simulation start(scene, o);
        store.add(start);
        std::atomic<bool> cancel{false};
        checkpoint_tail(run, store, cancel);
        store.flush();
        // Exactly those: the gc's end serves "last", and a step back into the gc restores a
        // boundary the spacing or less before its start.
        QCOMPARE(store.stats().count, kept.size());
        QCOMPARE(store.at_or_before(end)->steps(), gc_end);
        QVERIFY(gc_start - store.at_or_before(gc_start)->steps() < plan.spacing);
        for (std::uint64_t step : kept) {
            QCOMPARE(store.at_or_before(step)->steps(), step);
            Simulation reference(scene, o);
            reference.advance_to(step);
            QCOMPARE(digest_text(Simulation(*store.at_or_before(step))), digest_text(reference));
        }
        // A player restoring from them (and freeing its state first) lands on every step of the
        // tail as a full run does, stepping back from the end; at the end, on the finished run.
        Player player(scene, o, shared);
        for (std::uint64_t step : {end, end - 1, gc_end, gc_start + 1, kept[1]}) {
            player.seek(step);
            Simulation reference(scene, o);
            reference.advance_to(step == end ? ~std::uint64_t(0) : step);
            QCOMPARE(player.position(), step);
            QCOMPARE(player.at_end(), step == end);
            QCOMPARE(digest_text(player.sim()), digest_text(reference));
        }
    }

    void aSeekToTheLastStepLandsOnTheFinishedRun()
    {
        // The state at a run's last step becomes its end only by the step that finds nothing
        // left (the end-of-run checks: here, a race that never ran). A store with no checkpoint
        // of the end still knows where it is, and a seek there takes that step.
        const auto scene =
            inflight::test::scene_of("socketpair a b\nspawn r when select a {\n  close b\n}\nwait\nclose a\n");
        QVERIFY2(scene, "the scene parses");
        Simulation full(scene);
        full.advance_to(~std::uint64_t(0));
        QVERIFY(full.finished() && !full.warnings().empty());
        const std::uint64_t end = full.steps();
        auto store = std::make_shared<CheckpointStore>();
        Simulation start(scene);
        store->add(start);
        std::atomic<bool> cancel{false};
        checkpoint_tail(full, *store, cancel);
        store->flush();
        QCOMPARE(store->end(), std::optional<std::uint64_t>(end));
        Player player(scene, {}, store);
        player.seek(end);
        QCOMPARE(player.position(), end);
        QVERIFY(player.at_end());
        QCOMPARE(player.sim().warnings().size(), full.warnings().size());
        QCOMPARE(digest_text(player.sim()), digest_text(full));
        // One step back is the last step's state, not finished.
        player.seek(end - 1);
        QVERIFY(!player.at_end());
    }

    void payBackAndSpacingFollowTheRates()
    {
        // The cost model in numbers: a copy pays back after the replay that costs as much as
        // packing it; the recorder's spacing is never below that, nor below its interval.
        CheckpointStore store(CheckpointStore::kDefaultBudget, 1000);
        store.note_replay(1'000'000, std::chrono::milliseconds(50));             // 50 ns a step
        store.note_pack(std::size_t(100) << 20, std::chrono::milliseconds(200)); // ~1.9 ns a byte
        const CostRates r = store.rates();
        QVERIFY(std::abs(r.replay_ns_per_step - 50) < 1e-9);
        const std::size_t live = std::size_t(10) << 20;
        const double expected = r.pack_ns_per_byte * static_cast<double>(live) / 50;
        QVERIFY(std::abs(static_cast<double>(store.pay_back_steps(live)) - expected) <= 1);
        QCOMPARE(store.spacing(1000), std::uint64_t(1000)); // a tiny state: the interval
        QCOMPARE(store.tail_plan(live).spacing, store.pay_back_steps(live) / CheckpointStore::kStepsBackFromEnd);
        QCOMPARE(store.tail_plan(100).spacing, std::uint64_t(1)); // a copy cheaper than a few steps of replay
        // Twice the replay cost halves the pay-back; twice the state doubles it.
        const std::uint64_t before = store.pay_back_steps(live);
        store.note_replay(1'000'000, std::chrono::milliseconds(150)); // now 100 ns a step
        QVERIFY(std::abs(static_cast<double>(store.pay_back_steps(live)) - static_cast<double>(before) / 2) <= 1);
        QVERIFY(std::abs(static_cast<double>(store.pay_back_steps(2 * live)) -
                         2 * static_cast<double>(store.pay_back_steps(live))) <= 2);
    }

    void spacingBoundsThePackingShareAndTheSeeksReplay()
    {
        // 50 ns a step and 2 ns a byte: a copy pays back after 0.04 steps a byte of state, the
        // longest replay a seek may be left with (kLongestSeekReplay) is 2,000,000 steps.
        CheckpointStore store(CheckpointStore::kDefaultBudget, 1000);
        store.note_replay(1'000'000, std::chrono::milliseconds(50));
        store.note_pack(std::size_t(100'000'000), std::chrono::milliseconds(200));
        const double longest = std::chrono::nanoseconds(CheckpointStore::kLongestSeekReplay).count() / 50.0;
        QCOMPARE(longest, 2'000'000.0);
        auto near = [](std::uint64_t got, double want) { return std::abs(static_cast<double>(got) - want) <= 2; };
        // A 1 MB state: packed for kPackShare of the recorder's time, well within the seek bound.
        const std::size_t small = 1'000'000;
        QVERIFY(store.pay_back_steps(small) / CheckpointStore::kPackShare < longest);
        QVERIFY(near(store.spacing(small), store.pay_back_steps(small) / CheckpointStore::kPackShare));
        // A 10 MB state: that share would leave a seek 2.7e6 steps of replay; the bound wins.
        const std::size_t medium = 10'000'000;
        QVERIFY(store.pay_back_steps(medium) / CheckpointStore::kPackShare > longest);
        QVERIFY(near(store.spacing(medium), longest));
        // A 100 MB state: its copy costs more than the longest replay saves; it is spaced as it
        // pays back, whatever the seek is left with.
        const std::size_t large = 100'000'000;
        QVERIFY(store.pay_back_steps(large) > longest);
        QCOMPARE(store.spacing(large), store.pay_back_steps(large));
    }

    void aLargeLiveStateLeavesCheckpointsLessRoom()
    {
        // The budget counts what time travel adds to the live state: past a quarter of the
        // budget, what the live state takes comes off the checkpoints' room (CheckpointStore::
        // room()), so the app holding a million-socket state stays within its memory goal.
        const auto scene = closed_rings(100, "gc\n");
        QVERIFY2(scene, "the scene parses");
        const SimulationOptions o = fast_forwarded();
        // Five quiescent statement ends spread over the run (a frozen copy is a fraction of a
        // live one: a few of them weigh about what the live state does).
        const std::vector<std::uint64_t> quiet = quiet_statement_ends(scene, o);
        QVERIFY(quiet.size() >= 100);
        std::vector<std::unique_ptr<Simulation>> states;
        for (std::size_t i = 0; i < 5; ++i)
            states.push_back(state_at(scene, o, quiet[i * (quiet.size() - 1) / 4]));
        // What they take frozen, with room to spare; and the live size of the last one.
        std::size_t frozen = 0;
        {
            CheckpointStore all(std::size_t(1) << 40);
            for (const auto &s : states)
                all.add(*s);
            all.flush();
            QCOMPARE(all.stats().count, states.size());
            frozen = all.stats().bytes;
        }
        const std::size_t live = state_bytes(*states.back());
        // A budget that holds them all, but whose room (budget - (live - budget / 4)) does not.
        const std::size_t budget = std::max(frozen + frozen / 8, live * 4 / 3 + 1);
        const std::size_t room = budget - (live - budget / 4);
        QVERIFY2(live > budget / 4 && room < frozen, "the live state is large against this budget");
        CheckpointStore store(budget);
        for (const auto &s : states)
            store.add(*s);
        store.flush();
        QVERIFY2(store.stats().thinned > 0, "thinned to its room, though within its budget");
        QVERIFY(store.stats().bytes <= room);
        // Thinning keeps the first and the newest: seeks still find them.
        QCOMPARE(store.at_or_before(states.front()->steps())->steps(), states.front()->steps());
        QCOMPARE(store.at_or_before(~std::uint64_t(0))->steps(), states.back()->steps());
    }

    void aStoreFullOfTailCheckpointsTakesNoMore()
    {
        // Tail checkpoints are never thinned. Where they fill the room a large live state
        // leaves, a spaced checkpoint would be packed (a copy of the whole state) and thinned
        // away at once, again at every offer: the store says it is full and due() says no.
        const auto scene = closed_rings(100, "gc\n");
        QVERIFY2(scene, "the scene parses");
        const SimulationOptions o = fast_forwarded();
        const std::vector<std::uint64_t> quiet = quiet_statement_ends(scene, o);
        QVERIFY(quiet.size() >= 10);
        std::vector<std::unique_ptr<Simulation>> tails;
        for (std::size_t i = quiet.size() - 3; i < quiet.size(); ++i)
            tails.push_back(state_at(scene, o, quiet[i]));
        const std::size_t live = state_bytes(*tails.back());
        Simulation start(scene, o);
        // Roomy: the three tails and step 0 fit.
        CheckpointStore roomy(std::size_t(1) << 40);
        roomy.add(start);
        for (const auto &t : tails)
            roomy.add_tail(*t);
        roomy.flush();
        QCOMPARE(roomy.stats().count, std::size_t(4));
        QVERIFY(!roomy.full());
        // A budget whose room the live state takes whole (room = budget * 5 / 4 - live = 0).
        CheckpointStore tight(live * 4 / 5);
        tight.add(start);
        for (const auto &t : tails)
            tight.add_tail(*t);
        tight.flush();
        QCOMPARE(tight.stats().count, std::size_t(4)); // undroppable, over its room
        QVERIFY(tight.full());
        const std::uint64_t far = quiet.back() + (std::uint64_t(1) << 40);
        QVERIFY(!tight.due(far, far));
    }

    // Rows as everySceneEveryCollector's, less the scenes whose full runs take minutes
    // (everySceneEveryCollector covers those fast-forwarded).
    void fastForwardNeverRenumbers_data()
    {
        QTest::addColumn<int>("index");
        const std::vector<Case> &all = shippedCases();
        for (std::size_t i = 0; i < all.size(); ++i)
            if (!all[i].file.contains(QStringLiteral("/large/")) &&
                !all[i].file.endsWith(QStringLiteral("autobind-exhaustion.scn")))
                QTest::newRow(label(all[i]).constData()) << static_cast<int>(i);
    }

    void fastForwardNeverRenumbers()
    {
        // Every event a fast-forwarded run shows is the event of the full run at that step.
        QFETCH(int, index);
        const Case &c = shippedCases().at(static_cast<std::size_t>(index));
        SimulationOptions full = options_for(c);
        SimulationOptions ff = full;
        ff.fast_forward = true;
        Simulation a(c.scene, full), b(c.scene, ff);
        std::uint64_t compared = 0;
        while (const Event *e = b.step()) {
            const Event mine = *e;
            while (a.steps() < mine.step && a.step()) { }
            const Event *ref = a.last_event();
            QVERIFY2(ref && ref->step == mine.step, label(c) + " step " + QByteArray::number(qulonglong(mine.step)));
            QVERIFY2(ref->kind == mine.kind && ref->a == mine.a && ref->b == mine.b && ref->before == mine.before &&
                         ref->time == mine.time,
                     label(c) + " same event at step " + QByteArray::number(qulonglong(mine.step)));
            ++compared;
        }
        a.run();
        QCOMPARE(b.steps(), a.steps());
        QVERIFY(compared > 0);
    }

    void reverseContinueLandsOnThePreviousHit()
    {
        // Hits found by one forward scan from step 0; from positions in between, the reverse
        // search must name the last hit before each, whichever segments it has to replay.
        for (const char *name :
             {"selftest-triangle-stream.scn", "selftest-mixed-lowpoint-stream.scn", "selftest-cross-edge-stream.scn"}) {
            ParseResult r = load_scene_file(std::string(INFLIGHT_SOURCE_DIR "/scenes/") + name);
            QVERIFY(r.ok());
            auto scene = std::make_shared<const Scene>(std::move(r.scene));
            StopConditions stops;
            stops.events.collection_starts = true;
            stops.events.invariant_violated = false;
            auto w = Watch::parse("u1 freed");
            QVERIFY(w);
            stops.watches.emplace_back(*w);
            auto q = Watch::parse("queue p1");
            QVERIFY(q);
            stops.watches.emplace_back(*q);
            SimulationOptions o;
            o.record = false;
            std::vector<std::uint64_t> hits;
            {
                Simulation sim(scene, o);
                StopConditions s = stops;
                s.start(sim.kernel());
                while (const Event *e = sim.step())
                    if (s.check(*e, sim.kernel()))
                        hits.push_back(e->step);
            }
            QVERIFY2(hits.size() >= 3, name);
            // Small checkpoint spacing: the search crosses several segments.
            auto store = std::make_shared<CheckpointStore>(CheckpointStore::kDefaultBudget, 8);
            Player player(scene, o, store);
            player.seek(~std::uint64_t(0) >> 1);
            const std::uint64_t total = player.position();
            for (std::uint64_t p : {total, hits.back(), hits[hits.size() / 2] + 1, hits.front() + 1, hits.front()}) {
                player.seek(p);
                const auto found = player.find_previous(stops);
                auto it = std::lower_bound(hits.begin(), hits.end(), p);
                if (it == hits.begin()) {
                    QVERIFY2(!found, name);
                } else {
                    QVERIFY2(found, name);
                    QCOMPARE(found->step, *std::prev(it));
                    QVERIFY(!found->why.empty());
                }
                QCOMPARE(player.position(), p); // the search does not move the player
            }
        }
    }

    void finalisingAnSccCountsAsItsOwnLevel()
    {
        // The walk finalises an SCC inline (no nested path per SCC), yet its events sit one
        // level below the DFS and the verdicts on its members one more, in the walk and in the
        // fast path, and collect_skb's splices (a path of its own that collect_skb calls) two
        // levels below the SCC: "step out of the current
        // function" leaves one SCC, not the whole DFS.
        std::size_t walked = 0, fast = 0, spliced = 0;
        for (const char *name : {"selftest-triangle-stream.scn", "cycle-kept-alive-by-open-fd.scn",
                                 "bugs/cve-2025-40214-stale-scc-index.scn"}) {
            ParseResult r = load_scene_file(std::string(INFLIGHT_SOURCE_DIR "/scenes/") + name);
            QVERIFY(r.ok());
            auto scene = std::make_shared<const Scene>(std::move(r.scene));
            SimulationOptions o;
            o.era = GcEra::graph;
            o.record = true;
            Simulation sim(scene, o);
            sim.run();
            int dfs = -1, scc = -1; // depth of the last vertex visit, of the last SCC found
            for (const Event &e : sim.events()) {
                switch (e.kind) {
                case EventKind::vertex_visit: dfs = e.depth; break;
                case EventKind::scc_found:
                    if (e.fn == KFn::__unix_walk_scc) {
                        QCOMPARE(int(e.depth), dfs + 1);
                        ++walked;
                    } else {
                        ++fast;
                    }
                    scc = e.depth;
                    break;
                case EventKind::scc_verdict: QCOMPARE(int(e.depth), scc); break;
                case EventKind::vertex_dead: QCOMPARE(int(e.depth), scc + 1); break;
                case EventKind::queue_splice:
                    if (e.fn == KFn::unix_collect_skb) {
                        QCOMPARE(int(e.depth), scc + 2);
                        ++spliced;
                    }
                    break;
                default: break;
                }
            }
        }
        QVERIFY(walked > 0 && fast > 0 && spliced > 0);
    }

    void stepOutOfTheCurrentFunction()
    {
        // From a step deep inside a collection, step_out_function() stops at the first step
        // of the same task yielded from a shallower path, and every step it ran was deeper.
        ParseResult r = load_scene_file(INFLIGHT_SOURCE_DIR "/scenes/selftest-triangle-stream.scn");
        QVERIFY(r.ok());
        auto scene = std::make_shared<const Scene>(std::move(r.scene));
        for (GcEra era : {GcEra::classic, GcEra::graph}) {
            SimulationOptions o;
            o.era = era;
            o.record = true;
            Simulation ref(scene, o);
            ref.run();
            const std::vector<Event> &all = ref.events();
            std::size_t tried = 0;
            for (std::size_t i = 0; i < all.size() && tried < 20; ++i) {
                if (all[i].depth < 3)
                    continue;
                ++tried;
                Player p(scene, o);
                p.seek(all[i].step);
                QCOMPARE(p.sim().last_event()->depth, all[i].depth);
                QVERIFY(p.step_out_function());
                const Event *e = p.sim().last_event();
                QVERIFY(e->depth < all[i].depth);
                for (std::size_t j = i + 1; j + 1 < e->step; ++j)
                    QVERIFY2(all[j].task != all[i].task || all[j].depth >= all[i].depth, "no shallower step skipped");
            }
            QVERIFY(tried > 0);
        }
    }

    void cliStepNumbersWithAndWithoutTrace()
    {
        // The report's micro-step count is the number of trace lines, for scenes whose
        // collections the report fast-forwards.
        const QStringList scenes = {QStringLiteral("selftest-triangle-stream.scn"),
                                    QStringLiteral("selftest-cross-edge-stream.scn"),
                                    QStringLiteral("etoomanyrefs.scn")};
        for (const QString &s : scenes) {
            const QString path = QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/") + s;
            QProcess report, trace;
            report.start(QStringLiteral(INFLIGHT_CLI), {QStringLiteral("run"), path});
            trace.start(QStringLiteral(INFLIGHT_CLI), {QStringLiteral("run"), path, QStringLiteral("--trace")});
            QVERIFY(report.waitForFinished(120000) && trace.waitForFinished(120000));
            const QString out = QString::fromUtf8(report.readAllStandardOutput());
            const auto m = QRegularExpression(QStringLiteral("micro-steps: (\\d+)")).match(out);
            QVERIFY2(m.hasMatch(), qPrintable(out.left(400)));
            qulonglong traced = 0;
            for (const QByteArray &line : trace.readAllStandardOutput().split('\n'))
                traced += !line.isEmpty() && std::isdigit(static_cast<unsigned char>(line.trimmed().front()));
            QCOMPARE(m.captured(1).toULongLong(), traced);
        }
    }
};

QTEST_GUILESS_MAIN(TestTimeTravel)
#include "test_timetravel.moc"
