// SPDX-License-Identifier: GPL-3.0-or-later
// RecordedEvents, the packed form of a run's events the app keeps: every event comes back
// exactly as it went in, whatever the order it is read in, and the searches by step agree with
// the same searches over a plain vector. Runs of shipped scenes give real events; made-up ones
// give the edge cases (npos, negative and huge values, gaps in the steps, a lone last block).
#include "inflight/algorithm_listing.hpp"
#include "inflight/parser.hpp"
#include "inflight/recorded_events.hpp"
#include "inflight/run_landmarks.hpp"
#include "inflight/simulation.hpp"

#include <QTest>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

using namespace inflight;

namespace {

bool same(const Event &x, const Event &y)
{
    return x.step == y.step && x.kind == y.kind && x.fn == y.fn && x.from == y.from && x.to == y.to &&
           x.algo_line == y.algo_line && x.scene_line == y.scene_line && x.a == y.a && x.b == y.b && x.c == y.c &&
           x.before == y.before && x.after == y.after && x.time == y.time && x.task == y.task && x.depth == y.depth;
}

std::vector<Event> run_of(const char *scene_file)
{
    std::ifstream in(std::string(INFLIGHT_SOURCE_DIR) + "/scenes/" + scene_file);
    std::stringstream text;
    text << in.rdbuf();
    auto scene = std::make_shared<const Scene>(parse_scene(text.str(), scene_file).scene);
    Simulation sim(scene);
    std::vector<Event> events;
    while (const Event *e = sim.step())
        events.push_back(*e);
    return events;
}

RecordedEvents packed(const std::vector<Event> &events)
{
    RecordedEvents r;
    for (const Event &e : events)
        r.push_back(e);
    return r;
}

// Every way of reading gives back `want`.
void check_reads(const RecordedEvents &got, const std::vector<Event> &want)
{
    QCOMPARE(got.size(), want.size());
    std::size_t i = 0;
    for (const Event &e : got) // forward, decoding as it goes
        QVERIFY2(same(e, want[i++]), qPrintable(QString("forward, event %1").arg(i - 1)));
    for (std::size_t j = want.size(); j-- > 0;) // backward, across blocks
        QVERIFY2(same(got[j], want[j]), qPrintable(QString("backward, event %1").arg(j)));
    std::mt19937 rng(7);
    for (int k = 0; k < 2000 && !want.empty(); ++k) { // anywhere
        const std::size_t j = rng() % want.size();
        QVERIFY2(same(got[j], want[j]), qPrintable(QString("random, event %1").arg(j)));
    }
    if (!want.empty())
        QVERIFY(same(got.back(), want.back()));
}

// The searches agree with partition_point over the vector, for steps in and between events.
void check_searches(const RecordedEvents &got, const std::vector<Event> &want)
{
    std::vector<std::uint64_t> probes{0, 1, 2};
    std::mt19937 rng(5);
    for (int k = 0; k < 1500 && !want.empty(); ++k) {
        const std::uint64_t s = want[rng() % want.size()].step;
        probes.insert(probes.end(), {s - 1, s, s + 1});
    }
    if (!want.empty())
        probes.insert(probes.end(), {want.front().step, want.back().step, want.back().step + 1});
    std::sort(probes.begin(), probes.end());
    probes.erase(std::unique(probes.begin(), probes.end()), probes.end());
    for (std::uint64_t s : probes) {
        const auto after = std::partition_point(want.begin(), want.end(), [s](const Event &e) { return e.step <= s; });
        const std::size_t last =
            after == want.begin() ? want.size() : static_cast<std::size_t>(after - want.begin()) - 1;
        QCOMPARE(got.last_at_or_before(s), last);
        const auto first = std::partition_point(want.begin(), want.end(), [s](const Event &e) { return e.step < s; });
        QCOMPARE(got.first_at_or_after(s), static_cast<std::size_t>(first - want.begin()));
        // And the iterators serve the standard algorithms the app uses.
        const auto it = std::partition_point(got.begin(), got.end(), [s](const Event &e) { return e.step <= s; });
        QCOMPARE(static_cast<std::size_t>(it - got.begin()), static_cast<std::size_t>(after - want.begin()));
    }
}

} // namespace

class TestRecordedEvents : public QObject {
    Q_OBJECT

private slots:
    void shippedRunsComeBackExactly()
    {
        for (const char *scene :
             {"selftest-triangle-stream.scn", "selftest-mixed-lowpoint-stream.scn", "seed-scm-credentials.scn"}) {
            const std::vector<Event> want = run_of(scene);
            QVERIFY2(want.size() > RecordedEvents::kBlock, scene); // more than one block
            RecordedEvents got = packed(want);
            got.shrink_to_fit();
            check_reads(got, want);
            check_searches(got, want);
            // The point of packing: a quarter of the plain vector or less.
            QVERIFY2(got.bytes() * 4 <= want.size() * sizeof(Event),
                     qPrintable(QString("%1: %2 bytes for %3 events").arg(scene).arg(got.bytes()).arg(want.size())));
        }
    }

    void edgeValuesAndGaps()
    {
        std::vector<Event> want;
        std::mt19937_64 rng(11);
        std::uint64_t step = 0, time = 0;
        for (int i = 0; i < 3 * int(RecordedEvents::kBlock) + 17; ++i) { // a partial last block
            Event e;
            step += (i % 50 == 0) ? 1 + rng() % 1000000 : 1; // landmarks only, past the app's cap
            e.step = step;
            time += rng() % 3 ? rng() % 100 : rng();
            e.time = time;
            e.kind = static_cast<EventKind>(rng() % (static_cast<int>(EventKind::task_switch) + 1));
            e.fn = static_cast<KFn>(rng() % 8);
            e.from = static_cast<ListId>(rng() % 4);
            e.to = static_cast<ListId>(rng() % 4);
            e.algo_line = static_cast<std::uint16_t>(rng());
            e.scene_line = i % 7 ? static_cast<std::uint32_t>(rng() % 40) : 0xfffffffeu;
            e.a = i % 3 ? npos : static_cast<std::uint32_t>(rng());
            e.b = i % 5 ? static_cast<std::uint32_t>(i) : npos;
            e.c = 0;
            e.before = i % 4 == 0 ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(rng() % 9);
            e.after = i % 4 == 1 ? std::numeric_limits<std::int64_t>::max() : static_cast<std::int64_t>(rng() % 9);
            e.task = static_cast<std::uint16_t>(rng() % 3 ? 0 : rng());
            e.depth = static_cast<std::uint8_t>(rng());
            want.push_back(e);
        }
        const RecordedEvents got = packed(want);
        check_reads(got, want);
        check_searches(got, want);
    }

    void copiesAreIndependent()
    {
        const std::vector<Event> want = run_of("selftest-triangle-stream.scn");
        RecordedEvents a = packed(want);
        const Event first = a[0]; // this thread now has a's first block decoded
        RecordedEvents b = a;
        a.clear();
        QVERIFY(a.empty());
        QCOMPARE(a.begin(), a.end());
        check_reads(b, want);
        // Refilled with other events of the same count: no stale decoded block is served.
        for (const Event &e : want) {
            Event other = e;
            other.a = e.a + 1;
            a.push_back(other);
        }
        QCOMPARE(a[0].a, first.a + 1);
        RecordedEvents c = std::move(b);
        QVERIFY(b.empty());
        check_reads(c, want);
        b = c;
        check_reads(b, want);
    }

    // The views' marks, found in one walk as a run is indexed, are where the events say.
    void landmarksOfShippedRuns()
    {
        for (const char *file : {"selftest-triangle-stream.scn", "embryo-oob-leak-classic.scn"}) {
            std::ifstream in(std::string(INFLIGHT_SOURCE_DIR) + "/scenes/" + file);
            std::stringstream text;
            text << in.rdbuf();
            const Scene scene = parse_scene(text.str(), file).scene;
            const std::vector<Event> events = run_of(file);
            const RecordedEvents recorded = packed(events);
            const GcEra era = scene.settings.gc;
            const RunLandmarks m = run_landmarks(recorded, events.back().step, era, scene);
            // Collections: every gc_begin, by step and by row, each with its band.
            std::size_t begins = 0;
            for (const Event &e : events)
                begins += e.kind == EventKind::gc_begin;
            QVERIFY2(begins > 0, file);
            QCOMPARE(m.gc_steps.size(), begins);
            QCOMPARE(m.gc_begin_rows.size(), begins);
            QCOMPARE(m.collections.size(), begins);
            for (std::size_t i = 0; i < begins; ++i) {
                const Event &e = events[m.gc_begin_rows[i]];
                QCOMPARE(e.kind, EventKind::gc_begin);
                QCOMPARE(m.gc_steps[i], e.step);
                QCOMPARE(m.collections[i].first, e.step);
                QVERIFY(m.collections[i].last > e.step);
            }
            // Expectations: as many checks as the scene's expect statements ran.
            QVERIFY(!m.expectation_steps.empty());
            for (std::uint64_t step : m.expectation_steps)
                QCOMPARE(events[step - 1].kind, EventKind::expect_result);
            // Notes: a stmt_begin on a line that holds a note (or an ask) statement, every one.
            std::size_t notes_begun = 0;
            for (const auto &[step, line] : m.note_steps) {
                const Event &e = events[step - 1];
                QCOMPARE(e.kind, EventKind::stmt_begin);
                QCOMPARE(e.scene_line, line);
                QVERIFY2(scene.lines[line - 1].find("note") != std::string::npos ||
                             scene.lines[line - 1].find("ask") != std::string::npos,
                         file);
                ++notes_begun;
            }
            QVERIFY2(notes_begun >= 2, file);
            // Listing lines: in step order, and a collection starts on its era's first line.
            QVERIFY(std::is_sorted(m.listing_lines.begin(), m.listing_lines.end()));
            for (const auto &[step, line] : m.listing_lines)
                QCOMPARE(line, listing_line_of(events[step - 1], era));
            const auto first = std::find_if(m.listing_lines.begin(), m.listing_lines.end(),
                                            [&](const auto &l) { return l.first == m.gc_steps.front(); });
            QVERIFY(first != m.listing_lines.end());
            QCOMPARE(first->second,
                     static_cast<std::uint16_t>(era == GcEra::graph ? AlgoLine::graph_begin : AlgoLine::classic_begin));
        }
    }

    void readsFromManyThreads()
    {
        // The app reads its index on the GUI thread while an export may read it on another:
        // each thread decodes into its own block.
        const std::vector<Event> want = run_of("selftest-mixed-lowpoint-stream.scn");
        const RecordedEvents got = packed(want);
        std::atomic<int> wrong{0};
        std::vector<std::thread> readers;
        for (int t = 0; t < 4; ++t)
            readers.emplace_back([&, t] {
                std::mt19937 rng(t);
                for (int k = 0; k < 20000; ++k) {
                    const std::size_t j = rng() % want.size();
                    if (!same(got[j], want[j]))
                        ++wrong;
                }
            });
        for (auto &r : readers)
            r.join();
        QCOMPARE(wrong.load(), 0);
    }
};

QTEST_GUILESS_MAIN(TestRecordedEvents)
#include "test_recorded_events.moc"
