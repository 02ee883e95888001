// SPDX-License-Identifier: GPL-3.0-or-later
// A lesson's beats (inflight/beats.hpp) and the run's navigation index (inflight/run_index.hpp):
// the triangle lesson in at most a quarter of its micro-steps, with a beat at each note and at
// each phase of its collection; no beat that leaves the picture as it was; findings and notes
// as beats; a fast-forwarded collection still entered beat by beat; a long loop as a few rounds
// and its end; and every navigation
// answer equal to a walk over the recorded events.
#include "inflight/beats.hpp"
#include "inflight/graph_snapshot.hpp"
#include "inflight/kernel.hpp"
#include "inflight/parser.hpp"
#include "inflight/recorded_events.hpp"
#include "inflight/run_index.hpp"
#include "inflight/simulation.hpp"
#include "inflight/step_snapshot.hpp"
#include "scene_runner.hpp"

#include <QProcess>
#include <QtTest>

#include <algorithm>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace inflight;
using inflight::test::closed_rings;

namespace {

std::shared_ptr<const Scene> load(const std::string &relative, const std::string &variant = {})
{
    ParseResult r = load_scene_file(std::string(INFLIGHT_SOURCE_DIR) + "/scenes/" + relative);
    if (!r.ok())
        return nullptr;
    auto scene = std::make_shared<Scene>(std::move(r.scene));
    if (!variant.empty()) {
        auto it = std::find_if(scene->variants.begin(), scene->variants.end(),
                               [&](const SceneVariant &v) { return v.name == variant; });
        if (it == scene->variants.end())
            return nullptr;
        scene->settings = it->settings;
    }
    return scene;
}

SimulationOptions options(std::optional<GcEra> era = std::nullopt, bool fast_forward = false)
{
    SimulationOptions o;
    o.era = era;
    o.record = false;
    o.fast_forward = fast_forward;
    return o;
}

struct Recorded {
    RecordedEvents events;
    std::vector<Event> plain; // the same, for the brute-force walks
    std::vector<std::uint64_t> findings;
    GcEra era = GcEra::async;
    std::uint64_t total = 0;
};

Recorded record(const std::shared_ptr<const Scene> &scene, const SimulationOptions &o)
{
    Recorded r;
    Simulation sim(scene, o);
    while (const Event *e = sim.step()) {
        r.events.push_back(*e);
        r.plain.push_back(*e);
    }
    r.findings = finding_steps(sim);
    r.era = sim.era();
    r.total = sim.steps();
    return r;
}

// What the screen shows of the model at a step, as text: every socket's drawn fields, the
// in-flight copies, the fds, the collector's lists, stacks, hitlist and globals, the phase,
// and how many findings and failed statements the run has shown. The note box is not in it:
// a note beat changes the note on screen by being one.
std::string picture(const Simulation &sim, std::size_t failures)
{
    const GraphSnapshot g = snapshot_graph(sim.kernel());
    const StepSnapshot s = snapshot_step(sim);
    std::string out;
    auto put = [&out](long long v) { out += std::to_string(v) + ','; };
    for (const SnapshotNode &n : g.nodes) {
        for (long long v :
             {(long long)n.sock, (long long)n.peer, (long long)n.queue, (long long)n.file_refs, (long long)n.inflight,
              (long long)n.state, (long long)n.role, (long long)n.gc_flags, (long long)n.embryo})
            put(v);
        out += ';';
    }
    out += "|edges:";
    for (const SnapshotEdge &e : g.edges) {
        put(static_cast<long long>(e.id));
        put(e.from);
        put(e.to);
        put(e.on_hitlist);
    }
    out += "|fds:";
    for (const SnapshotProcess &p : g.processes)
        for (const SnapshotFd &f : p.fds) {
            put(f.fd);
            put(f.sock);
        }
    out += "|phase:";
    put(static_cast<long long>(s.gc_phase));
    put(s.collection_running);
    put(static_cast<long long>(s.collection));
    for (const auto *list : {&s.gc_inflight_list, &s.gc_candidates, &s.not_cycle_list}) {
        out += "|list:";
        for (const ListEntry &l : *list) {
            put(l.sock);
            put(l.inflight);
            put(l.gc_flags);
            put(static_cast<long long>(l.role));
        }
    }
    out += "|hitlist:";
    for (const SkbEntry &k : s.hitlist)
        put(k.id);
    out += "|vertices:";
    for (const VertexEntry &v : s.vertex_stack) {
        put(v.sock);
        put(v.index);
        put(v.scc_index);
    }
    out += "|edge stack:";
    for (const EdgeEntry &e : s.edge_stack) {
        put(e.from);
        put(e.to);
    }
    out += "|globals:";
    put(static_cast<long long>(s.globals.unix_tot_inflight));
    put(s.globals.gc_in_progress);
    put(s.globals.graph_maybe_cyclic);
    put(s.globals.graph_grouped);
    put(static_cast<long long>(s.globals.hitlist_size));
    out += "|tasks:";
    put(static_cast<long long>(s.tasks.size()));
    out += "|findings:";
    put(static_cast<long long>(sim.kernel().findings.size()));
    out += "|failures:";
    put(static_cast<long long>(failures));
    return out;
}

// The picture at each beat, by one run stepped with the options the beats were found under.
std::vector<std::string> pictures_at(const std::shared_ptr<const Scene> &scene, const SimulationOptions &o,
                                     const std::vector<Beat> &beats)
{
    std::vector<std::string> out;
    Simulation sim(scene, o);
    std::size_t failures = 0;
    auto next = beats.begin();
    while (next != beats.end()) {
        const Event *e = sim.step();
        if (!e)
            break;
        failures += e->kind == EventKind::stmt_end && e->error() != 0;
        if (e->step == next->step) {
            out.push_back(picture(sim, failures));
            ++next;
        }
    }
    return out;
}

// ---- brute force: the navigation questions answered by walking every event ----

std::optional<std::uint64_t> scan_next(const std::vector<Event> &ev, std::uint64_t here, bool (*is)(const Event &))
{
    for (const Event &e : ev)
        if (e.step > here && is(e))
            return e.step;
    return std::nullopt;
}

std::optional<std::uint64_t> scan_last(const std::vector<Event> &ev, std::uint64_t before_or_at,
                                       bool (*is)(const Event &))
{
    std::optional<std::uint64_t> out;
    for (const Event &e : ev)
        if (e.step <= before_or_at && is(e))
            out = e.step;
    return out;
}

bool is_note(const Event &e)
{
    return e.kind == EventKind::note && e.fn == KFn::scene && e.scene_note_shows() == SceneNote::note;
}
// Where N and P stop: a note, or an ask's question (not its answer, the step after it).
bool is_outline_stop(const Event &e)
{
    return e.kind == EventKind::note && e.fn == KFn::scene && e.scene_note_shows() != SceneNote::answer;
}
bool is_statement(const Event &e) { return e.kind == EventKind::stmt_begin; }
bool is_collection(const Event &e) { return e.kind == EventKind::gc_begin; }

std::optional<std::uint64_t> step_of(const std::optional<StatementStart> &s)
{
    return s ? std::optional<std::uint64_t>(s->step) : std::nullopt;
}
std::optional<std::uint64_t> step_of(const std::optional<Beat> &b)
{
    return b ? std::optional<std::uint64_t>(b->step) : std::nullopt;
}

} // namespace

class TestBeats : public QObject {
    Q_OBJECT
private slots:
    void triangleBeats_data();
    void triangleBeats();
    void noBeatLeavesThePictureUnchanged_data();
    void noBeatLeavesThePictureUnchanged();
    void findingsAndNotesAreBeats();
    void fastForwardedCollectionIsEntered();
    void aLongLoopIsAFewRoundsAndItsEnd();
    void navigationEqualsALinearScan_data();
    void navigationEqualsALinearScan();
    void cliListsTheSameBeats();
};

void TestBeats::triangleBeats_data()
{
    QTest::addColumn<int>("era");
    QTest::newRow("graph") << static_cast<int>(GcEra::graph);
    QTest::newRow("classic") << static_cast<int>(GcEra::classic);
    QTest::newRow("async") << static_cast<int>(GcEra::async);
}

void TestBeats::triangleBeats()
{
    QFETCH(int, era);
    const auto scene = load("selftest-triangle-stream.scn");
    QVERIFY(scene);
    const Recorded r = record(scene, options(static_cast<GcEra>(era)));
    const RunIndex index(r.events, r.era, r.findings);
    const std::vector<Beat> &beats = index.beats();
    // The classroom's figure: at most a quarter of the micro-steps a clicker walked.
    QVERIFY2(beats.size() * 4 <= r.total,
             qPrintable(QStringLiteral("%1 beats for %2 micro-steps").arg(beats.size()).arg(r.total)));
    QVERIFY(beats.size() >= 20); // six notes, six socketpairs, six sends, the collection...
    for (std::size_t i = 1; i < beats.size(); ++i)
        QVERIFY2(beats[i - 1].step < beats[i].step, "beats in step order, one a step");
    // A beat at each note.
    int notes = 0;
    for (const Event &e : r.plain)
        if (is_note(e)) {
            ++notes;
            auto it = std::find_if(beats.begin(), beats.end(), [&](const Beat &b) { return b.step == e.step; });
            QVERIFY2(it != beats.end() && it->kind == BeatKind::note, qPrintable(QString::number(e.step)));
        }
    QCOMPARE(notes, 6);
    // The ask before the collection: its question, then its answer on the next step, each a beat;
    // the collection is the beat after them.
    const auto question =
        std::find_if(beats.begin(), beats.end(), [](const Beat &b) { return b.kind == BeatKind::question; });
    QVERIFY(question != beats.end() && question + 2 < beats.end());
    QCOMPARE((question + 1)->kind, BeatKind::answer);
    QCOMPARE((question + 1)->step, question->step + 1);
    QCOMPARE(question->scene_line, (question + 1)->scene_line);
    QCOMPARE((question + 2)->kind, BeatKind::collection_begins);
    QCOMPARE(std::count_if(beats.begin(), beats.end(), [](const Beat &b) { return b.kind == BeatKind::question; }), 1);
    // The collection's phases, in their order, between its beginning and its end.
    std::vector<std::string> collection;
    bool inside = false;
    for (const Beat &b : beats) {
        if (b.kind == BeatKind::collection_begins)
            inside = true;
        if (!inside)
            continue;
        collection.push_back(b.kind == BeatKind::phase_begins ? std::string(gc_phase_name(b.phase))
                                                              : std::string(beat_kind_name(b.kind)));
        if (b.kind == BeatKind::collection_ends)
            break;
    }
    const std::vector<std::string> expected =
        static_cast<GcEra>(era) == GcEra::graph
            ? std::vector<std::string>{"collection begins", "walk",  "scc verdict",
                                       "scc verdict",       "purge", "collection ends"}
            : std::vector<std::string>{"collection begins", "select", "decrement",      "restore",
                                       "hitlist",           "purge",  "collection ends"};
    QCOMPARE(collection, expected);
    // The statement that starts the collection and the one after it end on beats of their own.
    const auto close_p0 =
        std::find_if(beats.begin(), beats.end(), [](const Beat &b) { return b.kind == BeatKind::collection_ends; });
    QVERIFY(close_p0 != beats.end() && std::next(close_p0) != beats.end());
    QCOMPARE(std::next(close_p0)->kind, BeatKind::statement);
}

void TestBeats::noBeatLeavesThePictureUnchanged_data()
{
    QTest::addColumn<QString>("scene");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("era");
    QTest::addColumn<bool>("fastForward");
    const int graph = static_cast<int>(GcEra::graph), classic = static_cast<int>(GcEra::classic);
    QTest::newRow("triangle graph") << "selftest-triangle-stream.scn"
                                    << "" << graph << false;
    QTest::newRow("triangle classic") << "selftest-triangle-stream.scn"
                                      << "" << classic << false;
    QTest::newRow("triangle fast-forwarded") << "selftest-triangle-stream.scn"
                                             << "" << graph << true;
    QTest::newRow("cycle kept alive") << "cycle-kept-alive-by-open-fd.scn"
                                      << "" << -1 << false;
    QTest::newRow("mixed lowpoint") << "selftest-mixed-lowpoint-stream.scn"
                                    << "" << -1 << false;
    QTest::newRow("cve-2021-0920 buggy") << "bugs/cve-2021-0920-peek-classic.scn"
                                         << "buggy" << -1 << false;
    QTest::newRow("cve-2025-40214") << "bugs/cve-2025-40214-stale-scc-index.scn"
                                    << "" << -1 << false;
    QTest::newRow("embryo oob classic") << "bugs/embryo-oob-classic.scn"
                                        << "" << -1 << false;
    QTest::newRow("listener oob") << "selftest-triangle-listener-oob.scn"
                                  << "" << -1 << false;
    // Loops of thousands of rounds, each shown as a few rounds and its end.
    QTest::newRow("scm credentials") << "seed-scm-credentials.scn"
                                     << "" << -1 << false;
    QTest::newRow("splice checksum") << "seed-splice-checksum.scn"
                                     << "" << -1 << false;
}

void TestBeats::noBeatLeavesThePictureUnchanged()
{
    QFETCH(QString, scene);
    QFETCH(QString, variant);
    QFETCH(int, era);
    QFETCH(bool, fastForward);
    const auto s = load(scene.toStdString(), variant.toStdString());
    QVERIFY(s);
    const SimulationOptions o = options(era < 0 ? std::nullopt : std::optional(static_cast<GcEra>(era)), fastForward);
    const Recorded r = record(s, o);
    const std::vector<Beat> beats = find_beats(r.events, r.era, r.findings);
    const std::vector<std::string> pics = pictures_at(s, o, beats);
    QCOMPARE(pics.size(), beats.size()); // every beat is a step the run stops at
    for (std::size_t i = 1; i < beats.size(); ++i) {
        if (beats[i].kind == BeatKind::note || beats[i].kind == BeatKind::question || beats[i].kind == BeatKind::answer)
            continue; // the note box shows its text (an ask's question, then its answer)
        QVERIFY2(pics[i] != pics[i - 1],
                 qPrintable(QStringLiteral("beat %1 (step %2, line %3, %4) shows what beat %5 showed")
                                .arg(i + 1)
                                .arg(beats[i].step)
                                .arg(beats[i].scene_line)
                                .arg(QString::fromUtf8(beat_kind_name(beats[i].kind).data(),
                                                       static_cast<int>(beat_kind_name(beats[i].kind).size())))
                                .arg(i)));
    }
}

void TestBeats::findingsAndNotesAreBeats()
{
    const auto scene = load("bugs/cve-2021-0920-peek-classic.scn", "buggy");
    QVERIFY(scene);
    const Recorded r = record(scene, options());
    QVERIFY2(!r.findings.empty(), "the buggy side makes a finding");
    const RunIndex index(r.events, r.era, r.findings);
    auto beat_at = [&](std::uint64_t step) -> const Beat * {
        for (const Beat &b : index.beats())
            if (b.step == step)
                return &b;
        return nullptr;
    };
    for (std::uint64_t f : r.findings) {
        const Beat *b = beat_at(f);
        QVERIFY2(b && b->kind == BeatKind::finding, qPrintable(QStringLiteral("finding at step %1").arg(f)));
    }
    int notes = 0;
    for (const Event &e : r.plain)
        if (is_note(e)) {
            ++notes;
            const Beat *b = beat_at(e.step);
            QVERIFY2(b && b->kind == BeatKind::note, qPrintable(QStringLiteral("note at step %1").arg(e.step)));
        }
    QVERIFY(notes >= 3);
    // The fixed side makes none, and has no finding beat.
    const auto fixed = load("bugs/cve-2021-0920-peek-classic.scn", "fixed");
    QVERIFY(fixed);
    const Recorded f = record(fixed, options());
    QVERIFY(f.findings.empty());
    const std::vector<Beat> fixed_beats = find_beats(f.events, f.era, f.findings);
    QVERIFY(std::none_of(fixed_beats.begin(), fixed_beats.end(),
                         [](const Beat &b) { return b.kind == BeatKind::finding; }));
}

void TestBeats::fastForwardedCollectionIsEntered()
{
    // The app fast-forwards a large scene: a collection's micro-steps are not handed out. Its
    // phases and the SCCs it frees still are, so a lesson enters it beat by beat.
    constexpr int kRings = 40;
    const auto scene = closed_rings(kRings, "note \"One collection frees them all.\"\ngc\n");
    QVERIFY(scene);
    const SimulationOptions ff = options(GcEra::graph, true);
    const Recorded r = record(scene, ff);
    const std::vector<Beat> beats = find_beats(r.events, r.era, r.findings);
    // The last collection: the `gc` statement's.
    auto end =
        std::find_if(beats.rbegin(), beats.rend(), [](const Beat &b) { return b.kind == BeatKind::collection_ends; });
    QVERIFY(end != beats.rend());
    auto begin = std::find_if(end, beats.rend(), [](const Beat &b) { return b.kind == BeatKind::collection_begins; });
    QVERIFY(begin != beats.rend());
    const std::uint64_t first = begin->step, last = end->step;
    int verdicts = 0, phases = 0;
    bool purge = false;
    for (const Beat &b : beats) {
        if (b.step <= first || b.step >= last)
            continue;
        verdicts += b.kind == BeatKind::scc_verdict;
        phases += b.kind == BeatKind::phase_begins;
        purge = purge || (b.kind == BeatKind::phase_begins && b.phase == GcPhase::purge);
    }
    QCOMPARE(verdicts, kRings); // every ring is an SCC found dead
    QVERIFY(phases >= 2 && purge);
    // Entered at the same steps as a run that steps into everything: the same beats inside.
    const Recorded full = record(scene, options(GcEra::graph, false));
    const std::vector<Beat> full_beats = find_beats(full.events, full.era, full.findings);
    std::vector<std::uint64_t> mine, theirs;
    for (const Beat &b : beats)
        if (b.step >= first && b.step <= last)
            mine.push_back(b.step);
    for (const Beat &b : full_beats)
        if (b.step >= first && b.step <= last)
            theirs.push_back(b.step);
    QCOMPARE(mine, theirs);
    // And the fast-forwarded run still skips the walk's micro-steps.
    auto inside = [&](const std::vector<Event> &ev) {
        return std::count_if(ev.begin(), ev.end(), [&](const Event &e) { return e.step >= first && e.step <= last; });
    };
    QVERIFY2(inside(r.plain) * 4 < inside(full.plain),
             qPrintable(QStringLiteral("%1 of %2 micro-steps shown").arg(inside(r.plain)).arg(inside(full.plain))));
}

void TestBeats::aLongLoopIsAFewRoundsAndItsEnd()
{
    // 40 socketpairs: the first, two rounds more, and the loop's end. Three sends: each one.
    // 30 collections in a loop: the first, two more, each whole, and the last one's end.
    const auto scene = inflight::test::scene_of("set gc graph\n"
                                                "note \"Pairs.\"\n"
                                                "repeat 40 as i {\n"     // line 3
                                                "  socketpair a$i b$i\n" // line 4
                                                "}\n"
                                                "note \"A short loop.\"\n"
                                                "repeat 3 as i {\n"
                                                "  send b$i fds=a$i\n" // line 8
                                                "}\n"
                                                "close a0 a1 a2\n"
                                                "note \"Collections.\"\n"
                                                "repeat 30 {\n"
                                                "  gc\n" // line 13
                                                "}\n");
    QVERIFY(scene);
    const Recorded r = record(scene, options(GcEra::graph));
    const std::vector<Beat> beats = find_beats(r.events, r.era, r.findings);
    auto at_line = [&](std::uint32_t line, BeatKind kind) {
        std::vector<Beat> out;
        std::copy_if(beats.begin(), beats.end(), std::back_inserter(out),
                     [&](const Beat &b) { return b.scene_line == line && b.kind == kind; });
        return out;
    };
    // The socketpairs: four beats, the last where the loop's last statement ends.
    const std::vector<Beat> pairs = at_line(4, BeatKind::statement);
    QCOMPARE(pairs.size(), std::size_t(4));
    std::uint64_t loop_end = 0;
    for (const Event &e : r.plain)
        if (e.kind == EventKind::stmt_end && e.scene_line == 4)
            loop_end = e.step;
    QCOMPARE(pairs.back().step, loop_end);
    // Every pair exists at that beat: it shows the state after all 40 rounds.
    QCOMPARE(at_line(8, BeatKind::statement).size(), std::size_t(3));
    // The collections: three whole ones (each begins and ends), then the last one's end.
    const std::vector<Beat> begins = at_line(13, BeatKind::collection_begins);
    const std::vector<Beat> ends = at_line(13, BeatKind::collection_ends);
    QCOMPARE(begins.size(), std::size_t(3));
    QCOMPARE(ends.size(), std::size_t(4));
    for (std::size_t i = 0; i < begins.size(); ++i)
        QVERIFY(begins[i].step < ends[i].step && (i + 1 == begins.size() || ends[i].step < begins[i + 1].step));
    QCOMPARE(beats.back().kind, BeatKind::collection_ends);
    std::uint64_t last_gc_end = 0;
    for (const Event &e : r.plain)
        if (e.kind == EventKind::gc_end)
            last_gc_end = e.step;
    QCOMPARE(ends.back().step, last_gc_end);
    // Each of the three notes is still a beat of its own.
    QCOMPARE(std::count_if(beats.begin(), beats.end(), [](const Beat &b) { return b.kind == BeatKind::note; }), 3);
}

void TestBeats::navigationEqualsALinearScan_data()
{
    QTest::addColumn<QString>("scene");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<bool>("fastForward");
    QTest::newRow("triangle") << "selftest-triangle-stream.scn"
                              << "" << false;
    QTest::newRow("cve-2021-0920 buggy") << "bugs/cve-2021-0920-peek-classic.scn"
                                         << "buggy" << false;
    QTest::newRow("mixed lowpoint") << "selftest-mixed-lowpoint-stream.scn"
                                    << "" << false;
    QTest::newRow("cycle kept alive, fast-forwarded") << "cycle-kept-alive-by-open-fd.scn"
                                                      << "" << true;
    QTest::newRow("rings, fast-forwarded") << ""
                                           << "" << true;
}

void TestBeats::navigationEqualsALinearScan()
{
    QFETCH(QString, scene);
    QFETCH(QString, variant);
    QFETCH(bool, fastForward);
    const auto s = scene.isEmpty() ? closed_rings(6, "gc\n") : load(scene.toStdString(), variant.toStdString());
    QVERIFY(s);
    const Recorded r = record(s, options(std::nullopt, fastForward));
    const RunIndex index(r.events, r.era, r.findings);
    const std::vector<Beat> &beats = index.beats();
    std::uint32_t max_line = 0;
    for (const Event &e : r.plain)
        max_line = std::max(max_line, e.scene_line);
    for (std::uint64_t here = 0; here <= r.total + 1; ++here) {
        const QByteArray at = "at step " + QByteArray::number(qulonglong(here));
        QVERIFY2(index.next_note(here) == scan_next(r.plain, here, is_outline_stop), at);
        QVERIFY2(index.previous_note(here) == (here ? scan_last(r.plain, here - 1, is_outline_stop) : std::nullopt),
                 at);
        QVERIFY2(step_of(index.next_statement(here)) == scan_next(r.plain, here, is_statement), at);
        QVERIFY2(step_of(index.statement_at_or_before(here)) == scan_last(r.plain, here, is_statement), at);
        QVERIFY2(step_of(index.statement_before(here)) ==
                     (here ? scan_last(r.plain, here - 1, is_statement) : std::nullopt),
                 at);
        QVERIFY2(index.collection_start_before(here) ==
                     (here ? scan_last(r.plain, here - 1, is_collection) : std::nullopt),
                 at);
        std::optional<std::uint64_t> next_beat, previous_beat;
        std::size_t up_to = 0;
        for (const Beat &b : beats) {
            if (b.step > here && !next_beat)
                next_beat = b.step;
            if (b.step < here)
                previous_beat = b.step;
            up_to += b.step <= here;
        }
        QVERIFY2(step_of(index.next_beat(here)) == next_beat, at);
        QVERIFY2(step_of(index.previous_beat(here)) == previous_beat, at);
        QVERIFY2(index.beats_up_to(here) == up_to, at);
        if (auto n = index.next_statement(here)) {
            const auto it =
                std::find_if(r.plain.begin(), r.plain.end(), [&](const Event &e) { return e.step == n->step; });
            QVERIFY2(it != r.plain.end() && it->scene_line == n->scene_line, at);
        }
    }
    for (std::uint32_t line = 0; line <= max_line + 1; ++line) {
        std::vector<std::uint64_t> starts;
        for (const Event &e : r.plain)
            if (e.kind == EventKind::stmt_begin && e.scene_line == line)
                starts.push_back(e.step);
        const QByteArray at = "line " + QByteArray::number(line);
        QVERIFY2(index.first_start_of_line(line) ==
                     (starts.empty() ? std::nullopt : std::optional<std::uint64_t>(starts.front())),
                 at);
        for (std::uint64_t here = 0; here <= r.total; here += std::max<std::uint64_t>(1, r.total / 97)) {
            auto it = std::upper_bound(starts.begin(), starts.end(), here);
            QVERIFY2(index.next_start_of_line(line, here) ==
                         (it == starts.end() ? std::nullopt : std::optional<std::uint64_t>(*it)),
                     at);
        }
    }
}

void TestBeats::cliListsTheSameBeats()
{
    // `inflight-cli beats`: one line a beat, "number step line kind [phase]", for scripts.
    const QString file = QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/bugs/cve-2021-0920-peek-classic.scn");
    QProcess cli;
    cli.start(QStringLiteral(INFLIGHT_CLI),
              {QStringLiteral("beats"), file, QStringLiteral("--variant"), QStringLiteral("buggy")});
    QVERIFY(cli.waitForFinished(30000));
    QCOMPARE(cli.exitCode(), 0);
    QStringList lines = QString::fromUtf8(cli.readAllStandardOutput()).split(u'\n', Qt::SkipEmptyParts);
    QVERIFY(!lines.isEmpty() && lines.front().startsWith(u'#'));
    lines.removeFirst();
    const auto scene = load("bugs/cve-2021-0920-peek-classic.scn", "buggy");
    QVERIFY(scene);
    const Recorded r = record(scene, options());
    const std::vector<Beat> beats = find_beats(r.events, r.era, r.findings);
    QCOMPARE(static_cast<std::size_t>(lines.size()), beats.size());
    for (std::size_t i = 0; i < beats.size(); ++i) {
        const Beat &b = beats[i];
        QString want = QStringLiteral("%1 %2 %3 %4")
                           .arg(i + 1)
                           .arg(b.step)
                           .arg(b.scene_line)
                           .arg(QString::fromUtf8(beat_kind_name(b.kind).data(),
                                                  static_cast<qsizetype>(beat_kind_name(b.kind).size())));
        if (b.kind == BeatKind::phase_begins)
            want += u' ' + QString::fromUtf8(gc_phase_name(b.phase).data(),
                                             static_cast<qsizetype>(gc_phase_name(b.phase).size()));
        QCOMPARE(lines[static_cast<qsizetype>(i)], want);
    }
    QVERIFY(lines.filter(QStringLiteral(" finding")).size() >= 1);
    // A scene that is not one: located message, exit 2.
    cli.start(QStringLiteral(INFLIGHT_CLI), {QStringLiteral("beats"), QStringLiteral("/nonexistent.scn")});
    QVERIFY(cli.waitForFinished(30000));
    QCOMPARE(cli.exitCode(), 2);
    QVERIFY(cli.readAllStandardError().contains("/nonexistent.scn"));
}

QTEST_APPLESS_MAIN(TestBeats)
#include "test_beats.moc"
