// SPDX-License-Identifier: GPL-3.0-or-later
// "Why is it alive?" (engine/why_alive) and the CLI around it: the chain from a process fd while
// one exists, the collector's rule once none does, the release afterwards; `why`, `run --at`,
// `--trace --json` and the report's globals, through the real inflight-cli.

#include "inflight/kernel.hpp"
#include "inflight/parser.hpp"
#include "inflight/simulation.hpp"
#include "inflight/why_alive.hpp"

#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <string>

using namespace inflight;

namespace {

QString scene_path(const char *name) { return QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/") + QLatin1String(name); }

std::shared_ptr<const Scene> load(const QString &path)
{
    ParseResult r = load_scene_file(path.toStdString());
    if (!r.ok())
        return nullptr;
    return std::make_shared<const Scene>(std::move(r.scene));
}

std::shared_ptr<const Scene> parse(const std::string &text)
{
    ParseResult r = parse_scene(text, "test.scn");
    if (!r.ok())
        return nullptr;
    return std::make_shared<const Scene>(std::move(r.scene));
}

SimulationOptions every_step(std::optional<GcEra> era = std::nullopt)
{
    SimulationOptions o;
    o.era = era;
    o.record = false;
    o.fast_forward = false;
    return o;
}

std::uint32_t sock_of(const Simulation &sim, const std::string &label)
{
    const auto id = sim.kernel().name_pool.find(label);
    if (!id || *id >= sim.kernel().label_owner.size())
        return npos;
    return sim.kernel().label_owner[*id];
}

// Steps until the statement on scene line `line` has ended; feeds a tracker on the way.
bool run_through_line(Simulation &sim, std::uint32_t line, WhyTracker *tracker = nullptr)
{
    while (const Event *e = sim.step()) {
        if (tracker)
            tracker->observe(*e, sim.kernel());
        if (e->kind == EventKind::stmt_end && e->scene_line == line)
            return true;
    }
    return false;
}

void run_to_end(Simulation &sim, WhyTracker *tracker = nullptr)
{
    while (const Event *e = sim.step())
        if (tracker)
            tracker->observe(*e, sim.kernel());
}

struct Cli {
    int code = -1;
    QByteArray out, err;
};

Cli cli(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(INFLIGHT_CLI), args);
    Cli r;
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit)
        return r;
    r.code = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

// The oracle, kept apart from why's own forced collection: a copy of the state collected as a
// one-CPU `gc` statement collects it, and the sockets its sock_release events name.
std::set<std::uint32_t> freed_by_a_collection_now(const Kernel &k)
{
    Kernel copy(k);
    copy.concurrent = false;
    std::set<std::uint32_t> freed;
    auto drive = [&](Proc p) {
        while (const Event *e = p.next())
            if (e->kind == EventKind::sock_release)
                freed.insert(e->sock());
    };
    drive(copy.force_gc("gc statement"));
    for (Process &p : copy.processes)
        drive(copy.run_task_work(p));
    drive(copy.run_workqueue());
    return freed;
}

void gc_lines(const std::vector<Statement> &statements, std::set<std::uint32_t> &out)
{
    for (const Statement &s : statements) {
        if (s.op == Op::gc)
            out.insert(s.loc.line);
        gc_lines(s.body, out);
    }
}

// Steps until steps() == step; a tracker for `label` starts once the label names a socket.
bool step_to(Simulation &sim, std::uint64_t step, const std::string &label, std::optional<WhyTracker> &tracker)
{
    while (sim.steps() < step) {
        const Event *e = sim.step();
        if (!e)
            return false;
        if (!tracker && sock_of(sim, label) != npos)
            tracker.emplace(sock_of(sim, label));
        if (tracker)
            tracker->observe(*e, sim.kernel());
    }
    return true;
}

// Two sockets in a cycle through each other's queues (a's file in b's queue and back).
const char *kCycle = R"(scene "cycle"
set gc graph
socketpair a ap
socketpair b bp
send bp fds=a
send ap fds=b
close a
close b
close ap bp
)";

} // namespace

class TestWhy : public QObject {
    Q_OBJECT

private slots:
    // While u0's own fd is open, the chain is that fd, in both collector eras.
    void triangleChainStartsAtProcessFd_data()
    {
        QTest::addColumn<QString>("era");
        QTest::newRow("classic") << "classic";
        QTest::newRow("graph") << "graph";
    }
    void triangleChainStartsAtProcessFd()
    {
        QFETCH(QString, era);
        auto scene = load(scene_path("selftest-triangle-stream.scn"));
        QVERIFY(scene);
        Simulation sim(scene, every_step(parse_era(era.toStdString())));
        QVERIFY(run_through_line(sim, 13)); // send p0 fds=u2,u2: the first triangle is closed
        const WhyAlive w = why_alive(sim.kernel(), sock_of(sim, "u0"));
        QCOMPARE(w.verdict, WhyVerdict::reachable);
        QCOMPARE(w.chain.size(), std::size_t(1));
        QCOMPARE(w.chain[0].kind, WhyHop::Kind::fd);
        QCOMPARE(w.chain[0].fd_name, std::string("u0"));
        QCOMPARE(sim.kernel().processes[w.chain[0].process].name, std::string("main"));
        QVERIFY2(w.chain_text.rfind("process main fd ", 0) == 0, w.chain_text.c_str());
    }

    // With its own fd closed, a is reachable only through b's fd and b's receive queue: the
    // shortest chain is two hops and names the skb.
    void chainThroughAReceiveQueue()
    {
        auto scene = parse(kCycle);
        QVERIFY(scene);
        Simulation sim(scene, every_step());
        QVERIFY(run_through_line(sim, 7)); // close a
        const std::uint32_t a = sock_of(sim, "a"), b = sock_of(sim, "b");
        const WhyAlive w = why_alive(sim.kernel(), a);
        QCOMPARE(w.verdict, WhyVerdict::reachable);
        QCOMPARE(w.chain.size(), std::size_t(2));
        QCOMPARE(w.chain[0].kind, WhyHop::Kind::fd);
        QCOMPARE(w.chain[0].to, b);
        QCOMPARE(w.chain[1].kind, WhyHop::Kind::skb);
        QCOMPARE(w.chain[1].from, b);
        QCOMPARE(w.chain[1].to, a);
        QVERIFY2(w.chain_text.find("-> socket b -> skb #") != std::string::npos, w.chain_text.c_str());
        QVERIFY2(w.chain_text.find("in b's receive queue carries a's file -> socket a") != std::string::npos,
                 w.chain_text.c_str());
        QVERIFY(reachable_from_fds(sim.kernel(), a));
    }

    // Once the last fds are closed, the cycle is garbage to the next collection and, with the
    // tracker, the reason says none ran since.
    void closedCycleAwaitsTheCollector_data()
    {
        QTest::addColumn<QString>("era");
        QTest::newRow("classic") << "classic";
        QTest::newRow("graph") << "graph";
    }
    void closedCycleAwaitsTheCollector()
    {
        QFETCH(QString, era);
        auto scene = load(scene_path("selftest-triangle-stream.scn"));
        QVERIFY(scene);
        Simulation sim(scene, every_step(parse_era(era.toStdString())));
        // The tracker must start before the socket exists to see it become unreachable.
        WhyTracker tracker(0);
        QVERIFY(run_through_line(sim, 25, &tracker)); // close u0 ... u5
        QCOMPARE(sock_of(sim, "u0"), 0u);
        const WhyAlive w = why_alive(sim.kernel(), 0, &tracker.history());
        QCOMPARE(w.verdict, WhyVerdict::awaiting_gc);
        QCOMPARE(w.rule, std::string("garbage"));
        QVERIFY(tracker.history().unreachable_since.has_value());
        QVERIFY2(w.reason.find("no collection has run since it became unreachable") != std::string::npos,
                 w.reason.c_str());
        if (era == "graph") {
            QCOMPARE(w.group.size(), std::size_t(3));
            QVERIFY2(w.reason.find("{u0, u1, u2}") != std::string::npos, w.reason.c_str());
        } else {
            QVERIFY2(w.reason.find("file_count 2 == inflight 2") != std::string::npos, w.reason.c_str());
        }
        run_to_end(sim, &tracker);
        const WhyAlive after = why_alive(sim.kernel(), 0, &tracker.history());
        QCOMPARE(after.verdict, WhyVerdict::released);
        QCOMPARE(after.rule, std::string("gc"));
        QVERIFY(tracker.history().released_step.has_value());
        QVERIFY2(after.reason.find("after collection #1") != std::string::npos, after.reason.c_str());
    }

    // A reachable socket in flight also says how the collector sees it: a, with its fd, is not
    // a candidate (classic) / fails out_degree == file_count (graph); b, in a's queue, is
    // restored by the walk.
    void reachableSocketsCarryTheCollectorsView()
    {
        auto scene = load(scene_path("cycle-kept-alive-by-open-fd.scn"));
        QVERIFY(scene);
        {
            Simulation sim(scene, every_step(GcEra::classic));
            QVERIFY(run_through_line(sim, 20)); // the first gc: only a's fd is left
            const WhyAlive a = why_alive(sim.kernel(), sock_of(sim, "a"));
            QCOMPARE(a.verdict, WhyVerdict::reachable);
            QCOMPARE(a.collector_rule, std::string("not a candidate"));
            QVERIFY2(a.collector_view.find("file_count 2 > inflight 1") != std::string::npos, a.collector_view.c_str());
            const WhyAlive b = why_alive(sim.kernel(), sock_of(sim, "b"));
            QCOMPARE(b.chain.size(), std::size_t(2));
            QCOMPARE(b.collector_rule, std::string("inflight after dec_inflight"));
            QVERIFY2(b.collector_view.find("in the queue of a, which is not a candidate") != std::string::npos,
                     b.collector_view.c_str());
        }
        {
            Simulation sim(scene, every_step(GcEra::graph));
            QVERIFY(run_through_line(sim, 20));
            const WhyAlive b = why_alive(sim.kernel(), sock_of(sim, "b"));
            QCOMPARE(b.collector_rule, std::string("out_degree != file_count"));
            QCOMPARE(b.culprit, sock_of(sim, "a"));
            QVERIFY2(b.collector_view.find("vertex a has out_degree 1 != file_count 2") != std::string::npos,
                     b.collector_view.c_str());
        }
    }

    // The triangle's p0 goes by close(), not by the collector.
    void releasedByClose()
    {
        auto scene = load(scene_path("selftest-triangle-stream.scn"));
        QVERIFY(scene);
        Simulation sim(scene, every_step());
        run_to_end(sim);
        const WhyAlive w = why_alive(sim.kernel(), sock_of(sim, "p0"));
        QCOMPARE(w.verdict, WhyVerdict::released);
        QCOMPARE(w.rule, std::string("close"));
    }

    // Graph collector without the fix: the SCC {u0, u1, u2} survives because vertex u1 (scc_index
    // 2) has an edge to u2 (scc_index 3) in the same SCC.
    void mixedLowpointNamesTheSccIndexDefect()
    {
        auto scene = load(scene_path("selftest-mixed-lowpoint-stream.scn"));
        QVERIFY(scene);
        Simulation sim(scene, every_step());
        WhyTracker tracker(0);
        run_to_end(sim, &tracker);
        QVERIFY(!sim.kernel().config().has(KernelChange::unify_scc_index));
        for (const char *label : {"u0", "u1", "u2"}) {
            const WhyAlive w = why_alive(sim.kernel(), sock_of(sim, label), &tracker.history());
            QCOMPARE(w.verdict, WhyVerdict::left_by_gc);
            QVERIFY(w.scc_index_defect);
            QCOMPARE(w.rule, std::string("scc_index mismatch in one SCC"));
            QCOMPARE(w.culprit, sock_of(sim, "u1"));
            QCOMPARE(w.group.size(), std::size_t(3));
            QVERIFY2(w.reason.find("vertex u1 (scc_index 2, but u2 has scc_index 3)") != std::string::npos,
                     w.reason.c_str());
            QVERIFY2(w.reason.find("unify-scc-index") != std::string::npos, w.reason.c_str());
        }
        // Both collections ran while it was unreachable and left it.
        QCOMPARE(tracker.history().runs_while_unreachable.size(), std::size_t(2));
        const WhyAlive u3 = why_alive(sim.kernel(), sock_of(sim, "u3"));
        QCOMPARE(u3.culprit, sock_of(sim, "u4"));
    }

    // With `set fix unify-scc-index` the same scene is collected.
    void mixedLowpointWithTheFixIsCollected()
    {
        auto scene = load(scene_path("selftest-mixed-lowpoint-stream-fixed.scn"));
        QVERIFY(scene);
        Simulation sim(scene, every_step());
        run_to_end(sim);
        QVERIFY(sim.kernel().config().has(KernelChange::unify_scc_index));
        const WhyAlive w = why_alive(sim.kernel(), sock_of(sim, "u1"));
        QCOMPARE(w.verdict, WhyVerdict::released);
        QCOMPARE(w.rule, std::string("gc"));
    }

    // Classic: the embryo's u->oob_skb keeps the skb carrying l off every queue, so the restore
    // walk keeps l; the embryo's own answer is its listener's.
    void embryoOobLeakNamesTheOobSkb()
    {
        auto scene = load(scene_path("embryo-oob-leak-classic.scn"));
        QVERIFY(scene);
        Simulation sim(scene, every_step());
        run_to_end(sim);
        const WhyAlive l = why_alive(sim.kernel(), sock_of(sim, "l"));
        QCOMPARE(l.verdict, WhyVerdict::left_by_gc);
        QCOMPARE(l.rule, std::string("inflight after dec_inflight"));
        QVERIFY2(l.reason.find("u->oob_skb of embryo(c)") != std::string::npos, l.reason.c_str());
        const WhyAlive e = why_alive(sim.kernel(), sock_of(sim, "embryo(c)"));
        QCOMPARE(e.verdict, WhyVerdict::left_by_gc);
        QVERIFY2(e.reason.find("listener l") != std::string::npos, e.reason.c_str());
    }

    // At every micro-step of a few scenes, for every socket: an answer with a rule and a reason,
    // "reachable" exactly when an fd reaches it (with a chain from an fd to it), "released"
    // exactly when it is.
    void verdictsAgreeWithTheStateAtEveryStep_data()
    {
        QTest::addColumn<QString>("scene");
        QTest::addColumn<QString>("era");
        for (const char *s : {"selftest-triangle-stream.scn", "msg-peek-keeps-cycle-alive.scn",
                              "embryo-carrying-fds.scn", "selftest-self-ref-listener-oob.scn"})
            for (const char *e : {"classic", "async", "graph"})
                QTest::newRow((std::string(s) + "/" + e).c_str()) << QString(s) << QString(e);
    }
    void verdictsAgreeWithTheStateAtEveryStep()
    {
        QFETCH(QString, scene);
        QFETCH(QString, era);
        auto sc = load(scene_path(scene.toUtf8().constData()));
        QVERIFY(sc);
        Simulation sim(sc, every_step(parse_era(era.toStdString())));
        std::size_t reachable = 0, unreachable = 0;
        while (sim.step()) {
            const Kernel &k = sim.kernel();
            for (const UnixSock &u : k.socks) {
                const WhyAlive w = why_alive(k, u.id);
                QVERIFY(!w.reason.empty());
                QVERIFY(!w.rule.empty());
                QCOMPARE(w.verdict == WhyVerdict::released, u.released);
                if (!u.released)
                    QCOMPARE(w.verdict == WhyVerdict::reachable, reachable_from_fds(k, u.id));
                if (w.verdict == WhyVerdict::reachable) {
                    ++reachable;
                    QVERIFY(!w.chain.empty());
                    QCOMPARE(w.chain.front().kind, WhyHop::Kind::fd);
                    QCOMPARE(w.chain.back().to, u.id);
                } else {
                    unreachable += !u.released;
                    QVERIFY(w.chain.empty());
                }
            }
        }
        QVERIFY(reachable > 0);
        QVERIFY(unreachable > 0);
    }

    // At every quiescent statement end of every shipped scene (long runs sampled), for every
    // socket no fd reaches: why says awaiting_gc (or pending_release) exactly when a collection
    // run on a copy of the state releases it, and left_by_gc exactly when it does not. Where
    // the scene's next statement is `gc`, what that statement really frees is what why said.
    void verdictsAreWhatACollectionNowDoes_data()
    {
        QTest::addColumn<QString>("scene");
        const QString root = QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes");
        QStringList files;
        QDirIterator it(root, {QStringLiteral("*.scn")}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files << it.next().mid(root.size() + 1);
        files.sort();
        for (const QString &f : files) {
            // The large scenes and the autobind fills are about scale, not the collector.
            if (f.startsWith(QLatin1String("large/")) || f.startsWith(QLatin1String("autobind-")))
                continue;
            QTest::newRow(f.toUtf8().constData()) << f;
        }
        QVERIFY(files.size() > 30);
    }
    void verdictsAreWhatACollectionNowDoes()
    {
        QFETCH(QString, scene);
        auto sc = load(scene_path(scene.toUtf8().constData()));
        QVERIFY(sc);
        std::set<std::uint32_t> gcs;
        gc_lines(sc->statements, gcs);
        Simulation sim(sc, every_step());
        // A long run is checked at a thinning sample of its statement ends (the first ones all,
        // then every 8th, then every 64th), up to kChecks of them within its first kEnds.
        constexpr std::uint64_t kChecks = 120, kEnds = 2048;
        std::uint64_t ends = 0, checked = 0, unreachable = 0, continuations = 0;
        std::optional<std::set<std::uint32_t>> predicted; // freed by a collection, said at the last end
        std::optional<std::set<std::uint32_t>> gc_freed;  // what the running `gc` statement released
        while (const Event *e = sim.step()) {
            if (e->kind == EventKind::stmt_begin && predicted && gcs.count(e->scene_line) && !sim.concurrent())
                gc_freed.emplace();
            if (gc_freed && e->kind == EventKind::sock_release)
                gc_freed->insert(e->sock());
            if (e->kind != EventKind::stmt_end)
                continue;
            if (gc_freed) {
                QCOMPARE(*gc_freed, *predicted);
                ++continuations;
                gc_freed.reset();
            }
            predicted.reset();
            if (checked >= kChecks || ends >= kEnds)
                break;
            ++ends;
            const bool sample = ends <= 64 || (ends <= 512 && ends % 8 == 0) || ends % 64 == 0;
            if (!sample || !sim.quiescent())
                continue;
            ++checked;
            const Kernel &k = sim.kernel();
            const std::set<std::uint32_t> freed = freed_by_a_collection_now(k);
            std::set<std::uint32_t> said;
            for (const UnixSock &u : k.socks) {
                if (u.released || reachable_from_fds(k, u.id))
                    continue;
                ++unreachable;
                const WhyAlive w = why_alive(k, u.id);
                const std::string where =
                    scene.toStdString() + " step " + std::to_string(sim.steps()) + ": " + why_text(k, w);
                QVERIFY2(w.verdict == WhyVerdict::awaiting_gc || w.verdict == WhyVerdict::pending_release ||
                             w.verdict == WhyVerdict::left_by_gc,
                         where.c_str());
                QVERIFY2((w.verdict != WhyVerdict::left_by_gc) == (freed.count(u.id) != 0), where.c_str());
                if (w.verdict != WhyVerdict::left_by_gc)
                    said.insert(u.id);
            }
            // A collection only ever releases sockets no fd reaches.
            for (std::uint32_t id : freed)
                QVERIFY2(said.count(id), (scene.toStdString() + ": " + k.label_of_id(id)).c_str());
            predicted = said;
        }
        QVERIFY(checked > 0);
        qDebug("%s: %llu statement ends, %llu checked, %llu unreachable sockets, %llu gc statements", qPrintable(scene),
               static_cast<unsigned long long>(ends), static_cast<unsigned long long>(checked),
               static_cast<unsigned long long>(unreachable), static_cast<unsigned long long>(continuations));
    }

    // Between collections why predicts, and says so: at step 150 of mixed_lowpoint no
    // collection has run, and the scc_index values it quotes are those a walk run now on a
    // copy compares, not a verdict of the past.
    void betweenCollectionsWhyPredicts()
    {
        auto scene = load(scene_path("selftest-mixed-lowpoint-stream.scn"));
        QVERIFY(scene);
        Simulation sim(scene, every_step());
        std::optional<WhyTracker> tracker;
        QVERIFY(step_to(sim, 150, "u2", tracker));
        const Kernel &k = sim.kernel();
        QVERIFY(k.gc_runs.empty());
        const std::uint32_t u1 = sock_of(sim, "u1"), u2 = sock_of(sim, "u2");
        // The values the walk of a collection run now compares when it says u1 is alive.
        std::string values;
        {
            Kernel copy(k);
            copy.concurrent = false;
            Proc p = copy.force_gc("gc statement");
            while (const Event *e = p.next())
                if (e->kind == EventKind::vertex_dead && e->sock() == u1 && !e->dead())
                    values = "vertex u1 (scc_index " + std::to_string(copy.socks[u1].vertex->scc_index) + ", but u2 " +
                             "has scc_index " + std::to_string(copy.socks[u2].vertex->scc_index) + ")";
        }
        QVERIFY(!values.empty());
        const WhyAlive w = why_alive(k, u2, &tracker->history());
        QCOMPARE(w.verdict, WhyVerdict::left_by_gc);
        QCOMPARE(w.rule, std::string("scc_index mismatch in one SCC"));
        QVERIFY2(w.reason.rfind("a collection run now would leave it: ", 0) == 0, w.reason.c_str());
        QVERIFY2(w.reason.find("would be judged alive by Tarjan's walk because, in that walk, " + values) !=
                     std::string::npos,
                 w.reason.c_str());
        QVERIFY2(w.reason.find("was judged") == std::string::npos, w.reason.c_str());
        QVERIFY2(w.reason.find("no collection has run since it became unreachable") != std::string::npos,
                 w.reason.c_str());

        Cli r = cli({"why", scene_path("selftest-mixed-lowpoint-stream.scn"), "u2", "--at", "150"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("u2: left_by_gc (scc_index mismatch in one SCC)"), r.out.constData());
        QVERIFY2(r.out.contains("a collection run now would leave it"), r.out.constData());
    }

    // At the very micro-step where unix_vertex_dead(u1) returns alive, the running walk has
    // judged the SCC {u0, u1, u2}: why says so, with the values that walk compared.
    void judgedAliveAtTheVertexDeadStep()
    {
        auto scene = load(scene_path("selftest-mixed-lowpoint-stream.scn"));
        QVERIFY(scene);
        for (const char *label : {"u1", "u2"}) {
            Simulation sim(scene, every_step());
            std::optional<WhyTracker> tracker;
            QVERIFY(step_to(sim, 191, label, tracker));
            const Event *e = sim.last_event();
            QVERIFY(e);
            QCOMPARE(e->kind, EventKind::vertex_dead);
            QCOMPARE(e->sock(), sock_of(sim, "u1"));
            QVERIFY(!e->dead());
            const WhyAlive w = why_alive(sim.kernel(), sock_of(sim, label), &tracker->history());
            QCOMPARE(w.verdict, WhyVerdict::left_by_gc);
            QCOMPARE(w.rule, std::string("scc_index mismatch in one SCC"));
            QCOMPARE(w.culprit, sock_of(sim, "u1"));
            QVERIFY(w.scc_index_defect);
            QCOMPARE(w.group.size(), std::size_t(3));
            QVERIFY2(w.reason.find("judged its SCC {u0, u1, u2} alive at step 191: unix_vertex_dead(u1) returned "
                                   "alive because vertex u1 (scc_index 2, but u2 has scc_index 3)") !=
                         std::string::npos,
                     w.reason.c_str());
        }
        Cli r = cli({"why", scene_path("selftest-mixed-lowpoint-stream.scn"), "u2", "--at", "191"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("u2: left_by_gc (scc_index mismatch in one SCC)"), r.out.constData());
        QVERIFY2(!r.out.contains("not judged yet"), r.out.constData());
    }

    // ---- the CLI ---------------------------------------------------------------------------

    void cliWhyTextAndExitCodes()
    {
        const QString scene = scene_path("selftest-triangle-stream.scn");
        Cli r = cli({"why", scene, "u0", "--at", "100"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("u0: reachable (fd)"), r.out.constData());
        QVERIFY2(r.out.contains("chain: process main fd 3 (u0) -> socket u0"), r.out.constData());

        r = cli({"why", scene, "u0"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("u0: released (gc)"), r.out.constData());

        r = cli({"why", scene_path("selftest-mixed-lowpoint-stream.scn"), "u2"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("left_by_gc (scc_index mismatch in one SCC)"), r.out.constData());

        r = cli({"why", scene, "nosuch"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(scene.toUtf8() + ": error: no socket labelled 'nosuch' at step"), r.err.constData());
        QVERIFY(r.out.isEmpty());

        r = cli({"why", scene, "u0", "--at", "999999"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("error: step 999999 is past the end of the run"), r.err.constData());

        r = cli({"why", scene, "u0", "--at", "12x"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("bad step '12x'"), r.err.constData());

        r = cli({"why", scene});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("no socket label given"), r.err.constData());

        // A label that exists only later in the run.
        r = cli({"why", scene, "u5", "--at", "2"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("no socket labelled 'u5' at step 2"), r.err.constData());
    }

    void cliWhyJson()
    {
        Cli r =
            cli({"why", scene_path("selftest-triangle-stream.scn"), "u0", "--at", "140", "--gc", "graph", "--json"});
        QCOMPARE(r.code, 0);
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &err);
        QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));
        const QJsonObject o = doc.object();
        QCOMPARE(o["socket"].toString(), QStringLiteral("u0"));
        QCOMPARE(o["step"].toInt(), 140);
        QCOMPARE(o["verdict"].toString(), QStringLiteral("awaiting_gc"));
        QCOMPARE(o["group"].toArray().size(), 3);

        r = cli({"why", scene_path("selftest-triangle-stream.scn"), "u0", "--at", "100", "--json"});
        const QJsonObject reach = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(reach["verdict"].toString(), QStringLiteral("reachable"));
        const QJsonArray chain = reach["chain"].toArray();
        QCOMPARE(chain.size(), 1);
        QCOMPARE(chain[0].toObject()["kind"].toString(), QStringLiteral("fd"));
        QCOMPARE(chain[0].toObject()["fd_name"].toString(), QStringLiteral("u0"));
        QCOMPARE(chain[0].toObject()["fd"].toInt(), 3);
    }

    void cliRunAtShowsTheState()
    {
        const QString scene = scene_path("selftest-mixed-lowpoint-stream.scn");
        Cli r = cli({"run", scene, "--at", "150"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("state at step 150"), r.out.constData());
        QVERIFY2(r.out.contains("unvisited_vertices: u0 u1 u2 u3 u4 u5"), r.out.constData());
        QVERIFY2(r.out.contains("unix_tot_inflight 16"), r.out.constData());
        QVERIFY2(r.out.contains("user root (uid 0) unix_inflight 16"), r.out.constData());
        QVERIFY2(r.out.contains("unix_vertex_max_scc_index 8"), r.out.constData());
        QVERIFY2(r.out.contains("unix_graph_maybe_cyclic true, unix_graph_grouped false"), r.out.constData());
        QVERIFY(!r.out.contains("expectations:")); // the state, not the report

        r = cli({"run", scene, "--at", "150", "--json"});
        QCOMPARE(r.code, 0);
        QJsonParseError err;
        const QJsonObject o = QJsonDocument::fromJson(r.out, &err).object();
        QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));
        QCOMPARE(o["step"].toInt(), 150);
        QCOMPARE(o["sockets"].toArray().size(), 12);
        const QJsonObject u1 = o["sockets"].toArray()[2].toObject();
        QCOMPARE(u1["label"].toString(), QStringLiteral("u1"));
        QCOMPARE(u1["out_degree"].toInt(), 4);
        QCOMPARE(u1["vertex"].toObject()["scc_index"].toInt(), 4);
        QCOMPARE(o["lists"].toObject()["unvisited_vertices"].toArray().size(), 6);
        const QJsonObject g = o["globals"].toObject();
        QCOMPARE(g["unix_tot_inflight"].toInt(), 16);
        QCOMPARE(g["users"].toArray()[0].toObject()["unix_inflight"].toInt(), 16);
        QCOMPARE(g["graph"].toObject()["max_scc_index"].toInt(), 8);
        QCOMPARE(g["gc_in_progress"].toBool(), false);

        // Classic lists and flags.
        r = cli({"run", scene_path("selftest-triangle-stream.scn"), "--gc", "classic", "--at", "140"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("gc_inflight_list: u0 u1 u2 u3 u4 u5"), r.out.constData());
        QVERIFY2(r.out.contains("gc_candidates: (empty)"), r.out.constData());

        // With --trace --json, the steps up to it and the state are JSON Lines.
        r = cli({"run", scene, "--at", "20", "--trace", "--json"});
        QCOMPARE(r.code, 0);
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 21);
        for (const QByteArray &l : lines)
            QVERIFY2(QJsonDocument::fromJson(l).isObject(), l.constData());
        QCOMPARE(QJsonDocument::fromJson(lines.back()).object()["step"].toInt(), 20);
        QVERIFY(QJsonDocument::fromJson(lines.back()).object()["globals"].isObject());

        r = cli({"run", scene, "--at", "100000"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(scene.toUtf8() + ": error: step 100000 is past the end"), r.err.constData());
        r = cli({"run", scene, "--at"});
        QCOMPARE(r.code, 2);
    }

    // Every line of --trace --json is a JSON object; the last is the report, and there is one
    // line per micro-step before it.
    void cliTraceJsonIsJsonLines()
    {
        Cli r = cli({"run", scene_path("selftest-triangle-stream.scn"), "--trace", "--json"});
        QCOMPARE(r.code, 0);
        QList<QByteArray> lines = r.out.split('\n');
        QVERIFY(!lines.isEmpty() && lines.back().isEmpty()); // ends with a newline
        lines.pop_back();
        QVERIFY(lines.size() > 10);
        QJsonObject last;
        for (int i = 0; i < lines.size(); ++i) {
            QJsonParseError err;
            const QJsonDocument d = QJsonDocument::fromJson(lines[i], &err);
            QVERIFY2(err.error == QJsonParseError::NoError && d.isObject(),
                     qPrintable(QString("line %1: %2: %3").arg(i + 1).arg(err.errorString(), lines[i])));
            const QJsonObject o = d.object();
            if (i + 1 < lines.size()) {
                QCOMPARE(o["step"].toInt(), i + 1);
                QVERIFY(o.contains("line") && o.contains("fn") && o.contains("kind") && o.contains("text"));
            } else {
                last = o;
            }
        }
        QVERIFY(last.contains("expectations"));
        QCOMPARE(last["steps"].toInt(), lines.size() - 1);
        QVERIFY(last["globals"].isObject());
    }

    void cliJsonReportHasGlobals()
    {
        Cli r = cli({"run", scene_path("selftest-mixed-lowpoint-stream.scn"), "--json"});
        QCOMPARE(r.code, 0);
        QJsonParseError err;
        const QJsonObject o = QJsonDocument::fromJson(r.out, &err).object();
        QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));
        const QJsonObject g = o["globals"].toObject();
        QVERIFY(!g.isEmpty());
        // The leaked SCCs keep their 16 fds in flight at the end.
        QCOMPARE(g["unix_tot_inflight"].toInt(), 16);
        QCOMPARE(g["hitlist"].toInt(), 0);
        QCOMPARE(g["graph"].toObject()["grouped"].toBool(), true);
        QVERIFY(g["users"].isArray());

        r = cli({"run", scene_path("selftest-triangle-stream.scn"), "--json", "--gc", "classic"});
        const QJsonObject c = QJsonDocument::fromJson(r.out).object()["globals"].toObject();
        QCOMPARE(c["unix_tot_inflight"].toInt(), 0);
        QVERIFY(c["graph"].isNull());
    }

    // A scene title that is not UTF-8 gives UTF-8 JSON with U+FFFD in every JSON output.
    void cliJsonIsValidUtf8()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("latin1.scn");
        {
            std::ofstream f(path.toStdString(), std::ios::binary);
            f << "scene \"caf\xe9 \xff\"\nset gc graph\nsocketpair a b\nclose b\n";
        }
        for (const QStringList &args :
             {QStringList{"run", path, "--json"}, QStringList{"run", path, "--trace", "--json"},
              QStringList{"run", path, "--at", "3", "--json"}}) {
            const Cli r = cli(args);
            QCOMPARE(r.code, 0);
            QVERIFY2(QUtf8StringView(r.out).isValidUtf8(), qPrintable(args.join(' ')));
            const QByteArray last = r.out.trimmed().split('\n').back();
            const QByteArray doc = args.contains("--trace") ? last : r.out;
            const QJsonObject o = QJsonDocument::fromJson(doc).object();
            QCOMPARE(o["scene"].toString(), QStringLiteral("caf\uFFFD \uFFFD"));
        }
    }
};

QTEST_GUILESS_MAIN(TestWhy)
#include "test_why.moc"
