// SPDX-License-Identifier: GPL-3.0-or-later
// Watchpoints, conditional line breakpoints and event breakpoints (engine/run/include/inflight/
// watch.hpp, line_breakpoint.hpp, event_breakpoints.hpp), and inflight-cli's --watch/--break.
// Watches are checked against a brute-force replay that reads the kernel's fields with code of
// its own; the event breakpoints against the events and state each era really produces.
#include "inflight/algorithm_listing.hpp"
#include "inflight/event_breakpoints.hpp"
#include "inflight/line_breakpoint.hpp"
#include "inflight/parser.hpp"
#include "inflight/watch.hpp"
#include "scene_runner.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace inflight;
using namespace inflight::test;

namespace {

std::shared_ptr<const Scene> load(const std::string &name)
{
    ParseResult r = load_scene_file(std::string(INFLIGHT_SOURCE_DIR "/scenes/") + name);
    if (!r.ok())
        return nullptr;
    return std::make_shared<const Scene>(std::move(r.scene));
}

SimulationOptions options_for(GcEra era)
{
    SimulationOptions o;
    o.era = era;
    o.record = false;
    return o;
}

// ---- the brute force: fields read without the watch code --------------------------------

using Reader = std::function<std::optional<std::int64_t>(const Kernel &)>;

// The first socket with this label, by a scan of every socket (not Kernel::find_label()).
const UnixSock *scan_for(const Kernel &k, const std::string &label)
{
    for (const UnixSock &u : k.socks)
        if (k.label_of(u) == label)
            return &u;
    return nullptr;
}

Reader of_socket(const std::string &label,
                 std::function<std::optional<std::int64_t>(const Kernel &, const UnixSock &)> f)
{
    return [label, f](const Kernel &k) -> std::optional<std::int64_t> {
        const UnixSock *u = scan_for(k, label);
        if (!u)
            return std::nullopt;
        return f(k, *u);
    };
}

struct Probe {
    std::string expr;
    Reader read;
    // A condition: holds when the value is present and compares so (op one of = > <, G for >=).
    char op = 0;
    std::int64_t rhs = 0;
};

std::vector<Probe> probes_for(const std::string &l)
{
    auto inflight = [](const Kernel &k, const UnixSock &u) -> std::optional<std::int64_t> {
        if (k.era() == GcEra::graph)
            return u.vertex ? static_cast<std::int64_t>(u.vertex->out_degree) : 0;
        return u.inflight;
    };
    auto refs = [](const Kernel &, const UnixSock &u) -> std::optional<std::int64_t> {
        if (!u.file)
            return std::nullopt;
        return u.file->count;
    };
    auto queue = [](const Kernel &, const UnixSock &u) -> std::optional<std::int64_t> {
        return static_cast<std::int64_t>(u.receive_queue.size());
    };
    auto scc = [](const Kernel &, const UnixSock &u) -> std::optional<std::int64_t> {
        if (!u.vertex)
            return std::nullopt;
        return static_cast<std::int64_t>(u.vertex->scc_index);
    };
    auto flags = [](const Kernel &k, const UnixSock &u) -> std::optional<std::int64_t> {
        if (k.era() == GcEra::graph)
            return std::nullopt;
        return u.gc_flags;
    };
    auto state = [](const Kernel &, const UnixSock &u) -> std::optional<std::int64_t> {
        return static_cast<std::int64_t>(u.state);
    };
    auto freed = [](const Kernel &, const UnixSock &u) -> std::optional<std::int64_t> { return u.released ? 1 : 0; };
    return {
        {"inflight " + l, of_socket(l, inflight)},
        {"refs " + l, of_socket(l, refs)},
        {"queue " + l, of_socket(l, queue)},
        {"scc_index " + l, of_socket(l, scc)},
        {"flags " + l, of_socket(l, flags)},
        {"state " + l, of_socket(l, state)},
        {l + " freed", of_socket(l, freed), '=', 1},
        {"inflight " + l + " >= 2", of_socket(l, inflight), 'G', 2},
        {"refs " + l + " == 1", of_socket(l, refs), '=', 1},
        {"queue " + l + " > 0", of_socket(l, queue), '>', 0},
        {"state " + l + " == connected", of_socket(l, state), '=', static_cast<std::int64_t>(SockState::connected)},
    };
}

std::vector<Probe> global_probes()
{
    auto tot = [](const Kernel &k) -> std::optional<std::int64_t> {
        return static_cast<std::int64_t>(k.unix_tot_inflight);
    };
    auto root = [](const Kernel &k) -> std::optional<std::int64_t> {
        return static_cast<std::int64_t>(k.users.front().unix_inflight);
    };
    auto gc = [](const Kernel &k) -> std::optional<std::int64_t> { return k.gc_in_progress ? 1 : 0; };
    return {
        {"unix_tot_inflight", tot},
        {"unix_tot_inflight >= 3", tot, 'G', 3},
        {"user root inflight", root},
        {"gc_in_progress", gc},
    };
}

bool brute_holds(const Probe &p, const std::optional<std::int64_t> &v)
{
    if (!v)
        return false;
    switch (p.op) {
    case '=': return *v == p.rhs;
    case '>': return *v > p.rhs;
    case '<': return *v < p.rhs;
    case 'G': return *v >= p.rhs;
    default: return *v != 0;
    }
}

struct Steps {
    std::vector<std::uint64_t> steps;
    std::vector<std::string> after; // change watches: the new value (numbers only)
};

// Every label the run ever makes (the end of the run knows them all).
std::vector<std::string> labels_of(const std::shared_ptr<const Scene> &scene, GcEra era, std::size_t max)
{
    Simulation sim(scene, options_for(era));
    sim.run();
    std::vector<std::string> out;
    for (const UnixSock &u : sim.kernel().socks)
        if (out.size() < max)
            out.push_back(sim.kernel().label_of(u));
    return out;
}

// Steps where the event breakpoint fires, over the whole run.
std::vector<std::uint64_t> break_steps(const std::shared_ptr<const Scene> &scene, GcEra era,
                                       const std::function<bool(const Event &, const Kernel &)> &fires)
{
    Simulation sim(scene, options_for(era));
    std::vector<std::uint64_t> out;
    while (const Event *e = sim.step())
        if (fires(*e, sim.kernel()))
            out.push_back(e->step);
    return out;
}

EventBreakpointSet only_garbage(const std::string &label)
{
    EventBreakpointSet b;
    b.invariant_violated = false;
    b.found_garbage = label;
    return b;
}

EventBreakpointSet only_candidate(const std::string &label)
{
    EventBreakpointSet b;
    b.invariant_violated = false;
    b.becomes_candidate = label;
    return b;
}

} // namespace

class TestWatch : public QObject {
    Q_OBJECT
private slots:
    // (i) Every watch fires at exactly the steps a brute-force replay finds.
    void watchesFireWhereABruteForceReplaySeesTheChange_data()
    {
        QTest::addColumn<QString>("scene");
        QTest::addColumn<int>("era");
        for (const char *s : {"selftest-mixed-lowpoint-stream-fixed.scn", "selftest-mixed-lowpoint-stream.scn",
                              "cycle-broken-by-recv.scn", "listener-over-own-embryo.scn",
                              "msg-peek-keeps-cycle-alive.scn", "embryo-carrying-fds.scn"})
            for (GcEra era : {GcEra::classic, GcEra::async, GcEra::graph})
                QTest::newRow((std::string(s) + "/" + std::string(era_name(era))).c_str())
                    << QString::fromLatin1(s) << int(era);
    }

    void watchesFireWhereABruteForceReplaySeesTheChange()
    {
        QFETCH(QString, scene);
        QFETCH(int, era);
        auto sc = load(scene.toStdString());
        QVERIFY(sc);
        const GcEra e = static_cast<GcEra>(era);
        std::vector<Probe> probes = global_probes();
        for (const std::string &l : labels_of(sc, e, 5))
            for (Probe &p : probes_for(l))
                probes.push_back(std::move(p));

        std::vector<Watchpoint> watches;
        for (const Probe &p : probes) {
            WatchError err;
            auto w = Watch::parse(p.expr, &err);
            QVERIFY2(w, qPrintable(QString::fromStdString(p.expr + ": " + err.format())));
            QCOMPARE(w->is_condition(), p.op != 0);
            watches.emplace_back(std::move(*w));
        }
        std::vector<Steps> got(probes.size()), want(probes.size());
        std::vector<std::optional<std::int64_t>> last(probes.size());
        std::vector<bool> last_holds(probes.size());

        Simulation sim(sc, options_for(e));
        for (std::size_t i = 0; i < probes.size(); ++i) {
            watches[i].reset(sim.kernel());
            last[i] = probes[i].read(sim.kernel());
            last_holds[i] = brute_holds(probes[i], last[i]);
        }
        std::size_t total = 0;
        while (const Event *ev = sim.step()) {
            const Kernel &k = sim.kernel();
            for (std::size_t i = 0; i < probes.size(); ++i) {
                if (auto c = watches[i].check(k))
                    got[i].steps.push_back(ev->step), got[i].after.push_back(c->after);
                const auto v = probes[i].read(k);
                const bool h = brute_holds(probes[i], v);
                if (probes[i].op ? (h && !last_holds[i]) : v != last[i]) {
                    want[i].steps.push_back(ev->step);
                    want[i].after.push_back(probes[i].op ? "true" : v ? std::to_string(*v) : "none");
                }
                last[i] = v;
                last_holds[i] = h;
            }
        }
        for (std::size_t i = 0; i < probes.size(); ++i) {
            total += want[i].steps.size();
            QVERIFY2(got[i].steps == want[i].steps, qPrintable(QString::fromStdString(probes[i].expr)));
            // state and gc_in_progress are printed as words: only numbers are compared as text.
            if (probes[i].expr.rfind("state ", 0) != 0 && probes[i].expr != "gc_in_progress")
                QVERIFY2(got[i].after == want[i].after, qPrintable(QString::fromStdString(probes[i].expr)));
        }
        QVERIFY(total > 10); // the scene changes what is watched: the comparison means something
    }

    void watchValuesInWords()
    {
        auto sc = load("selftest-mixed-lowpoint-stream.scn");
        QVERIFY(sc);
        Simulation sim(sc, options_for(GcEra::graph));
        auto state = Watch::parse("state u0");
        auto freed = Watch::parse("u0 freed");
        auto cmp = Watch::parse("inflight u0>=2");
        QVERIFY(state && freed && cmp);
        Watchpoint ws(*state), wf(*freed), wc(*cmp);
        QCOMPARE(ws.current(sim.kernel()), std::string("none")); // u0 does not exist yet
        QCOMPARE(wf.current(sim.kernel()), std::string("none"));
        QCOMPARE(wc.current(sim.kernel()), std::string("false (none)"));
        sim.run();
        QCOMPARE(ws.current(sim.kernel()), std::string("connected")); // its fd closed, the socket never released
        QCOMPARE(wf.current(sim.kernel()), std::string("false"));     // leaked: never freed
        QCOMPARE(wc.current(sim.kernel()), std::string("true (2)"));
    }

    // A conditional line breakpoint stops at stmt_begin only while its condition holds.
    void conditionalLineBreakpoint()
    {
        auto sc = load("selftest-mixed-lowpoint-stream.scn");
        QVERIFY(sc);
        // Line 9 (socketpair u$i p$i) runs six times; u0 exists from the first one's end on.
        auto first = LineBreakpoint::parse("9 if inflight u0 == none");
        auto every = LineBreakpoint::parse("9");
        auto never = LineBreakpoint::parse("13 if u0 freed");
        QVERIFY(first && every && never);
        QCOMPARE(first->text(), std::string("9 if inflight u0 == none"));
        std::vector<std::uint64_t> f, a, n, begins;
        Simulation sim(sc, options_for(GcEra::graph));
        while (const Event *e = sim.step()) {
            if (e->kind == EventKind::stmt_begin && e->scene_line == 9)
                begins.push_back(e->step);
            if (first->hits(*e, sim.kernel()))
                f.push_back(e->step);
            if (every->hits(*e, sim.kernel()))
                a.push_back(e->step);
            if (never->hits(*e, sim.kernel()))
                n.push_back(e->step);
        }
        QCOMPARE(begins.size(), std::size_t(6));
        QCOMPARE(a, begins);
        QCOMPARE(f, std::vector<std::uint64_t>{begins.front()});
        QVERIFY(n.empty());
        QVERIFY(scene_has_statement_on_line(*sc, 9));
        QVERIFY(!scene_has_statement_on_line(*sc, 8));  // the repeat's own line
        QVERIFY(!scene_has_statement_on_line(*sc, 10)); // its closing brace
    }

    // (ii) Found garbage follows the SCC's verdict, not one vertex's.
    void foundGarbageWaitsForTheSccVerdict()
    {
        auto leak = load("selftest-mixed-lowpoint-stream.scn");
        QVERIFY(leak);
        // u0's own vertex_dead says dead (then u1's says alive and the SCC survives): the old
        // breakpoint stopped there. The test is only meaningful if that event happens.
        auto vertex_dead_u0 = break_steps(leak, GcEra::graph, [](const Event &e, const Kernel &k) {
            return e.kind == EventKind::vertex_dead && e.before == 1 && k.label_of_id(e.a) == "u0";
        });
        QVERIFY(!vertex_dead_u0.empty());
        const auto b = only_garbage("u0");
        QVERIFY(break_steps(leak, GcEra::graph, [&](const Event &e, const Kernel &k) {
                    return b.check(e, k) == EventBreak::found_garbage;
                }).empty());

        // With the fix the SCCs are dead: every member stops at its SCC's dead verdict, once.
        auto fixed = load("selftest-mixed-lowpoint-stream-fixed.scn");
        QVERIFY(fixed);
        std::map<std::string, std::vector<std::uint64_t>> at;
        std::vector<std::uint64_t> dead_verdicts;
        {
            Simulation sim(fixed, options_for(GcEra::graph));
            std::vector<EventBreakpointSet> sets;
            for (int i = 0; i < 6; ++i)
                sets.push_back(only_garbage("u" + std::to_string(i)));
            while (const Event *e = sim.step()) {
                if (e->kind == EventKind::scc_verdict && e->before == 1)
                    dead_verdicts.push_back(e->step);
                for (const auto &s : sets)
                    if (s.check(*e, sim.kernel()) == EventBreak::found_garbage) {
                        QCOMPARE(e->kind, EventKind::scc_verdict);
                        QVERIFY(verdict_of(sim.kernel(), *sim.kernel().find_label(s.found_garbage)->vertex) == 1);
                        at[s.found_garbage].push_back(e->step);
                    }
            }
            for (int i = 0; i < 6; ++i)
                QCOMPARE(sock(sim, "u" + std::to_string(i)).freed_by, FreedBy::gc);
        }
        QCOMPARE(dead_verdicts.size(), std::size_t(2));
        for (int i = 0; i < 6; ++i)
            QCOMPARE(at["u" + std::to_string(i)].size(), std::size_t(1));
        // {u0, u1, u2} and {u3, u4, u5} are the two SCCs: one verdict each.
        QCOMPARE(at["u1"], at["u0"]);
        QCOMPARE(at["u2"], at["u0"]);
        QCOMPARE(at["u4"], at["u3"]);
        QCOMPARE(at["u5"], at["u3"]);
        QVERIFY(at["u0"] != at["u3"]);
        QVERIFY(at["u0"].front() == dead_verdicts[0] || at["u0"].front() == dead_verdicts[1]);
    }

    // Classic and async: found garbage stops once, while the hitlist loop scans the socket.
    void foundGarbageInTheClassicCollectors_data()
    {
        QTest::addColumn<int>("era");
        QTest::newRow("classic") << int(GcEra::classic);
        QTest::newRow("async") << int(GcEra::async);
    }

    void foundGarbageInTheClassicCollectors()
    {
        QFETCH(int, era);
        auto fixed = load("selftest-mixed-lowpoint-stream-fixed.scn");
        QVERIFY(fixed);
        Simulation sim(fixed, options_for(static_cast<GcEra>(era)));
        const auto b = only_garbage("u1");
        std::vector<std::uint64_t> hits;
        while (const Event *e = sim.step())
            if (b.check(*e, sim.kernel()) == EventBreak::found_garbage) {
                hits.push_back(e->step);
                QCOMPARE(sim.kernel().gc_phase, GcPhase::hitlist);
                QCOMPARE(sim.kernel().label_of_id(e->a), std::string("u1"));
                QCOMPARE(sim.kernel().find_label("u1")->on, ListId::gc_candidates);
            }
        QCOMPARE(hits.size(), std::size_t(1));
        QCOMPARE(sock(sim, "u1").freed_by, FreedBy::gc);
    }

    // A listener is scanned once per embryo; it is found garbage once.
    void listenerFoundGarbageOnce()
    {
        // The listener's fd travels into its own two embryos' queues, then every fd closes.
        auto sc = scene_of("socket l\nbind l @srv\nlisten l\nsocket c1\nconnect c1 @srv\nsocket c2\n"
                           "connect c2 @srv\nsend c1 fds=l\nsend c2 fds=l\nclose c1 c2 l\ngc\n"
                           "expect freed l\n");
        QVERIFY(sc);
        for (GcEra era : {GcEra::classic, GcEra::async, GcEra::graph}) {
            const auto b = only_garbage("l");
            std::size_t scans = 0;
            Simulation sim(sc, options_for(era));
            std::vector<std::uint64_t> hits;
            while (const Event *e = sim.step()) {
                if (e->kind == EventKind::scan && e->algo_line == std::uint16_t(AlgoLine::classic_hitlist_scan) &&
                    sim.kernel().label_of_id(e->a) == "l")
                    ++scans;
                if (b.check(*e, sim.kernel()) == EventBreak::found_garbage)
                    hits.push_back(e->step);
            }
            QVERIFY2(sock(sim, "l").released, era_name(era).data());
            if (era != GcEra::graph)
                QCOMPARE(scans, std::size_t(2)); // one per embryo: the breakpoint must not stop twice
            QCOMPARE(hits.size(), std::size_t(1));
        }
    }

    // (ii) Becomes a candidate fires in the graph fast path too, for every vertex of the ring.
    void candidateInTheGraphFastPath()
    {
        auto sc = load("selftest-mixed-lowpoint-stream.scn");
        QVERIFY(sc);
        std::map<std::string, std::vector<std::uint64_t>> at;
        std::map<std::string, std::vector<EventKind>> kinds;
        std::vector<GcRun> runs;
        {
            Simulation sim(sc, options_for(GcEra::graph));
            std::vector<EventBreakpointSet> sets;
            for (int i = 0; i < 6; ++i)
                sets.push_back(only_candidate("u" + std::to_string(i)));
            while (const Event *e = sim.step())
                for (const auto &s : sets)
                    if (s.check(*e, sim.kernel()) == EventBreak::becomes_candidate) {
                        at[s.becomes_candidate].push_back(e->step);
                        kinds[s.becomes_candidate].push_back(e->kind);
                    }
            runs = sim.kernel().gc_runs;
        }
        // The scene's last two collections: a Tarjan walk, then the `gc` on the fast path.
        QVERIFY(runs.size() >= 2);
        const GcRun &walk = runs[runs.size() - 2], &fast = runs.back();
        QVERIFY(!walk.fast_path && !walk.skipped);
        QVERIFY(fast.fast_path);
        for (int i = 0; i < 6; ++i) {
            const std::string l = "u" + std::to_string(i);
            QCOMPARE(at[l].size(), std::size_t(2));
            QCOMPARE(kinds[l][0], EventKind::vertex_visit);
            QVERIFY(at[l][0] >= walk.first_step && at[l][0] <= walk.last_step);
            QCOMPARE(kinds[l][1], EventKind::scc_found);
            QVERIFY(at[l][1] >= fast.first_step && at[l][1] <= fast.last_step);
        }
        // One ring per SCC: its members stop together, the other SCC's elsewhere.
        QCOMPARE(at["u1"][1], at["u0"][1]);
        QCOMPARE(at["u2"][1], at["u0"][1]);
        QCOMPARE(at["u5"][1], at["u3"][1]);
        QVERIFY(at["u0"][1] != at["u3"][1]);
    }

    void candidateInTheClassicCollector()
    {
        auto sc = load("selftest-mixed-lowpoint-stream-fixed.scn");
        QVERIFY(sc);
        const auto b = only_candidate("u2");
        Simulation sim(sc, options_for(GcEra::classic));
        std::size_t hits = 0;
        while (const Event *e = sim.step())
            if (b.check(*e, sim.kernel()) == EventBreak::becomes_candidate) {
                ++hits;
                QCOMPARE(e->kind, EventKind::list_move);
                QVERIFY(sim.kernel().find_label("u2")->gc_flags & UNIX_GC_CANDIDATE);
            }
        QVERIFY(hits >= 1);
    }

    // (iii) Bad expressions: a message located at the offending word.
    void parseErrorsAreLocated_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("says");
        QTest::newRow("unknown field") << "infligt a" << 1 << "did you mean 'inflight'?";
        QTest::newRow("field typo later") << "  scc_indx a" << 3 << "did you mean 'scc_index'?";
        QTest::newRow("no label") << "inflight" << 9 << "needs a socket label";
        QTest::newRow("single =") << "inflight a = 2" << 12 << "did you mean '=='?";
        QTest::newRow("no space op") << "inflight a=>2" << 11 << "not an operator";
        QTest::newRow("not a number") << "inflight a >= two" << 15 << "not a number";
        QTest::newRow("missing value") << "refs a ==" << 10 << "expected a value";
        QTest::newRow("ordered state") << "state a < listening" << 9 << "only with == or !=";
        QTest::newRow("unknown state") << "state a == listenning" << 12 << "did you mean 'listening'?";
        QTest::newRow("predicate typo") << "a fred" << 3 << "did you mean 'freed'?";
        QTest::newRow("trailing word") << "queue a > 0 b" << 13 << "unexpected 'b'";
        QTest::newRow("no operator") << "queue a 0" << 9 << "expected an operator";
        QTest::newRow("bool value") << "gc_in_progress == yes" << 19 << "true or false";
        QTest::newRow("user field") << "user alice inflihgt" << 12 << "did you mean 'inflight'?";
        QTest::newRow("empty") << "   " << 1 << "empty watch";
    }

    void parseErrorsAreLocated()
    {
        QFETCH(QString, text);
        QFETCH(int, column);
        QFETCH(QString, says);
        WatchError e;
        QVERIFY(!Watch::parse(text.toStdString(), &e));
        QVERIFY2(QString::fromStdString(e.message).contains(says), e.message.c_str());
        QCOMPARE(int(e.column), column);
    }

    void breakpointParseErrorsAreLocated()
    {
        WatchError e;
        QVERIFY(!LineBreakpoint::parse("x12", &e));
        QCOMPARE(int(e.column), 1);
        QVERIFY(!LineBreakpoint::parse("14 when a", &e));
        QCOMPARE(int(e.column), 4);
        QVERIFY(!LineBreakpoint::parse("14 if", &e));
        QCOMPARE(int(e.column), 6);
        // The condition's column counts from the start of the breakpoint's text.
        QVERIFY(!LineBreakpoint::parse("14 if infligt a", &e));
        QCOMPARE(int(e.column), 7);
        QVERIFY(QString::fromStdString(e.message).contains("did you mean 'inflight'?"));
        auto ok = LineBreakpoint::parse(" 14  if queue a > 0");
        QVERIFY(ok);
        QCOMPARE(ok->line(), 14u);
        QVERIFY(ok->condition());
    }

    // (iv) inflight-cli --watch prints the steps the library finds.
    void cliPrintsTheLibrarysSteps()
    {
        const std::string name = "selftest-mixed-lowpoint-stream.scn";
        const std::vector<std::string> exprs = {"inflight u0", "u0 candidate", "unix_tot_inflight >= 10"};
        auto sc = load(name);
        QVERIFY(sc);
        // The library, stepped as the CLI must step it: every micro-step.
        std::vector<QString> want;
        std::uint64_t steps = 0;
        {
            std::vector<Watchpoint> ws;
            for (const auto &x : exprs)
                ws.emplace_back(*Watch::parse(x));
            Simulation sim(sc, SimulationOptions{});
            for (auto &w : ws)
                w.reset(sim.kernel());
            while (const Event *e = sim.step())
                for (std::size_t i = 0; i < ws.size(); ++i)
                    if (auto c = ws[i].check(sim.kernel()))
                        want.push_back(QStringLiteral("%1 %2").arg(i + 1).arg(e->step));
            steps = sim.steps();
        }
        QVERIFY(want.size() > 5);

        const QString file = QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/") + QString::fromStdString(name);
        QStringList args{"run", file};
        for (const auto &x : exprs)
            args << "--watch" << QString::fromStdString(x);
        QProcess cli;
        cli.start(QStringLiteral(INFLIGHT_CLI), args);
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        const QString out = QString::fromUtf8(cli.readAllStandardOutput());
        static const QRegularExpression hit(
            QStringLiteral("^watch (\\d+) \\((.*)\\) at step (\\d+) line (\\d+): (.*) -> (.*)$"),
            QRegularExpression::MultilineOption);
        std::vector<QString> got;
        for (auto it = hit.globalMatch(out); it.hasNext();) {
            const auto m = it.next();
            QCOMPARE(m.captured(2).toStdString(), exprs[m.captured(1).toUInt() - 1]);
            got.push_back(m.captured(1) + " " + m.captured(3));
        }
        QCOMPARE(got, want);
        QVERIFY(out.indexOf(QStringLiteral("watch ")) < out.indexOf(QStringLiteral("scene: "))); // before the report

        // --json: the same hits as an array, in a JSON object that still parses.
        args << "--json"
             << "--break"
             << "13";
        QProcess json;
        json.start(QStringLiteral(INFLIGHT_CLI), args);
        QVERIFY(json.waitForFinished(60000));
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(json.readAllStandardOutput(), &err);
        QVERIFY2(doc.isObject(), qPrintable(err.errorString()));
        const QJsonArray hits = doc.object().value("hits").toArray();
        std::vector<QString> got_json;
        int breaks = 0;
        for (const auto &v : hits) {
            const QJsonObject h = v.toObject();
            if (h.value("kind").toString() == "break") {
                ++breaks;
                QCOMPARE(h.value("line").toInt(), 13);
                continue;
            }
            got_json.push_back(QStringLiteral("%1 %2").arg(h.value("number").toInt()).arg(h.value("step").toInteger()));
        }
        QCOMPARE(got_json, want);
        QCOMPARE(breaks, 1);
        QCOMPARE(std::uint64_t(doc.object().value("steps").toInteger()), steps); // every micro-step, none absorbed
    }

    void cliRefusesBadWatchesWithALocation()
    {
        const QString file = QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/selftest-mixed-lowpoint-stream.scn");
        QProcess cli;
        cli.start(QStringLiteral(INFLIGHT_CLI), {"run", file, "--watch", "inflight u0 => 2"});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 2);
        const QString err = QString::fromUtf8(cli.readAllStandardError());
        QVERIFY2(err.contains("column 13: '=>' is not an operator"), qPrintable(err));

        QProcess line;
        line.start(QStringLiteral(INFLIGHT_CLI), {"run", file, "--break", "10"});
        QVERIFY(line.waitForFinished(60000));
        QCOMPARE(line.exitCode(), 2);
        QVERIFY(QString::fromUtf8(line.readAllStandardError())
                    .contains("selftest-mixed-lowpoint-stream.scn:10 has no statement"));
    }
};

QTEST_GUILESS_MAIN(TestWatch)
#include "test_watch.moc"
