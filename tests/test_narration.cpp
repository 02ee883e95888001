// SPDX-License-Identifier: GPL-3.0-or-later
// Plain words everywhere: every event of every shipped scene, under every collector, is
// narrated (and described) in words a student can follow, never as a raw return code
// ("returned 5"), a statement ordinal ("statement 29") or a flag dump ("grouped=false"); a few
// known steps say exactly what they should, and the end of a run tells what the collector freed,
// what leaked and whether the expectations held.
#include "inflight/algorithm_listing.hpp"
#include "inflight/finished_run.hpp"
#include "inflight/glossary.hpp"
#include "inflight/kernel.hpp"
#include "inflight/kernel_queries.hpp"
#include "inflight/narrate.hpp"
#include "inflight/parser.hpp"
#include "inflight/run_names.hpp"
#include "inflight/run_summary.hpp"
#include "inflight/simulation.hpp"

#include <QDir>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace inflight;

namespace {

std::shared_ptr<const Scene> load(const QString &path)
{
    ParseResult r = load_scene_file(path.toStdString());
    if (!r.ok())
        return nullptr;
    return std::make_shared<const Scene>(std::move(r.scene));
}

QString scene_path(const char *name) { return QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/") + QLatin1String(name); }

SimulationOptions under(GcEra era)
{
    SimulationOptions o;
    o.era = era;
    o.record = false;
    return o;
}

// The forms the narration must never show.
const QRegularExpression &raw_return()
{
    static const QRegularExpression re(QStringLiteral("\\breturned -?\\d+"));
    return re;
}
const QRegularExpression &raw_statement()
{
    static const QRegularExpression re(QStringLiteral("\\bstatement \\d+"));
    return re;
}
const QRegularExpression &flag_dump()
{
    static const QRegularExpression re(QStringLiteral("\\w+=(false|true)\\b"));
    return re;
}

// Why a text breaks the rules, or empty.
QString fault_of(const QString &t)
{
    if (t.trimmed().isEmpty())
        return QStringLiteral("empty");
    for (const QRegularExpression *re : {&raw_return(), &raw_statement(), &flag_dump()})
        if (const auto m = re->match(t); m.hasMatch())
            return QStringLiteral("raw form \"%1\"").arg(m.captured(0));
    return {};
}

// The first kernel identifier (a word with an underscore, not a function call) that the
// glossary does not explain, or empty: a student meeting a name in the narration can look it up.
// The scene's own names (sockets, fds, processes, tasks) are the author's, not the kernel's.
QString unglossed(const QString &t, const RunNames &scene_names)
{
    static const QRegularExpression ident(QStringLiteral("\\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\\b(?!\\()"));
    auto scenes_own = [&](const std::string &w) {
        if (scene_names.name_pool().find(w))
            return true;
        for (std::size_t i = 0; i < scene_names.process_count(); ++i)
            if (scene_names.process_name(i) == w)
                return true;
        for (std::size_t i = 0; i < scene_names.task_count(); ++i)
            if (scene_names.task_name(i) == w)
                return true;
        return false;
    };
    for (auto it = ident.globalMatch(t); it.hasNext();) {
        const std::string word = it.next().captured(0).toStdString();
        if (!glossary_entry(word) && !scenes_own(word))
            return QString::fromStdString(word);
    }
    return {};
}

// Runs a scene to its end (or `cap` steps) and collects the narration of each step.
struct Walk {
    std::vector<std::string> narrations, descriptions;
    std::vector<Event> events;
    std::string end; // narrate_run_end() once finished
    RunNames names;  // the scene's names, as the run left them
    bool finished = false;
};

Walk walk(const std::shared_ptr<const Scene> &scene, GcEra era, std::uint64_t cap = 0)
{
    Walk w;
    Simulation sim(scene, under(era));
    while (const Event *e = sim.step()) {
        w.events.push_back(*e);
        w.narrations.push_back(narrate(*e, sim.kernel(), &sim.scene()));
        w.descriptions.push_back(describe(*e, sim.kernel(), &sim.scene()));
        if (cap && sim.steps() >= cap) {
            w.names = RunNames::of(sim.kernel());
            return w;
        }
    }
    w.names = RunNames::of(sim.kernel());
    w.finished = true;
    w.end = narrate_run_end(sim);
    // INFLIGHT_NARRATION_DUMP=1: print the story, to read it as a student would.
    if (qEnvironmentVariableIsSet("INFLIGHT_NARRATION_DUMP"))
        for (std::size_t i = 0; i < w.events.size(); ++i)
            qInfo("%llu %s | %s", static_cast<unsigned long long>(w.events[i].step), w.descriptions[i].c_str(),
                  w.narrations[i].c_str());
    if (qEnvironmentVariableIsSet("INFLIGHT_NARRATION_DUMP"))
        qInfo("end | %s", w.end.c_str());
    return w;
}

bool any_contains(const Walk &w, EventKind kind, const std::string &text)
{
    for (std::size_t i = 0; i < w.events.size(); ++i)
        if (w.events[i].kind == kind && w.narrations[i].find(text) != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestNarration : public QObject {
    Q_OBJECT
private slots:
    // The app names a finished run's objects from its RunNames, not its state: every event
    // reads the same either way, and every label finds the same socket.
    void runNamesNameAsTheFinishedKernelDoes_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *f :
             {"seed-autobind-race.scn", "embryo-oob-leak-classic.scn", "selftest-triangle-listener.scn",
              "seed-scm-credentials.scn", "kworker-after-next-close.scn", "etoomanyrefs.scn", "autobind-fill.scn"})
            QTest::newRow(f) << QString::fromLatin1(f);
    }

    void runNamesNameAsTheFinishedKernelDoes()
    {
        QFETCH(QString, name);
        auto scene = load(scene_path(name.toLatin1().constData()));
        QVERIFY(scene);
        Simulation sim(scene, SimulationOptions{});
        std::vector<Event> events;
        while (const Event *e = sim.step())
            if (events.size() < 50000)
                events.push_back(*e);
        const Kernel &k = sim.kernel();
        const FinishedRun run = FinishedRun::of(sim);
        const RunNames &names = run.names;
        QCOMPARE(names.socket_count(), k.socks.size());
        for (const Event &e : events) {
            QCOMPARE(describe(e, names, scene.get()), describe(e, k, scene.get()));
            QCOMPARE(narrate(e, names, scene.get()), narrate(e, k, scene.get()));
        }
        for (std::uint32_t id = 0; id <= k.socks.size(); ++id)
            QCOMPARE(names.label_of_id(id), k.label_of_id(id));
        for (const UnixSock &u : k.socks)
            QCOMPARE(names.socket_labelled(k.label_of(u)), socket_labelled(k, k.label_of(u)));
        QCOMPARE(names.socket_labelled("no such socket"), std::optional<std::uint32_t>());
        QCOMPARE(run.ending, narrate_run_end(sim));
        QCOMPARE(run.expectations.size(), sim.expectations().size());
        QCOMPARE(run.tasks.size(), sim.tasks().size());
    }

    void everyStepOfEveryScene_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("era");
        QDir dir(QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes"));
        QStringList files;
        for (const QString &f : dir.entryList({QStringLiteral("*.scn")}, QDir::Files, QDir::Name))
            files << dir.filePath(f);
        QDir large(dir.filePath(QStringLiteral("large")));
        for (const QString &f : large.entryList({QStringLiteral("*.scn")}, QDir::Files, QDir::Name))
            files << large.filePath(f);
        QVERIFY(files.size() > 30);
        for (const QString &f : files)
            for (GcEra era : {GcEra::classic, GcEra::async, GcEra::graph})
                QTest::newRow(
                    qPrintable(QFileInfo(f).fileName() + QLatin1Char('/') + QLatin1String(era_name(era).data())))
                    << f << static_cast<int>(era);
    }

    void everyStepOfEveryScene()
    {
        QFETCH(QString, path);
        QFETCH(int, era);
        auto scene = load(path);
        QVERIFY2(scene, qPrintable(path));
        // Every event kind a scene has is reached in its first steps or its collections; the
        // seed and large scenes repeat the same kinds millions of times: a cap keeps this quick.
        const Walk w = walk(scene, static_cast<GcEra>(era), 30000);
        QVERIFY(!w.events.empty());
        for (std::size_t i = 0; i < w.events.size(); ++i) {
            const QString n = QString::fromStdString(w.narrations[i]);
            const QString d = QString::fromStdString(w.descriptions[i]);
            const QString where = QStringLiteral("step %1 (%2): ")
                                      .arg(w.events[i].step)
                                      .arg(QLatin1String(event_kind_name(w.events[i].kind).data()));
            QVERIFY2(fault_of(n).isEmpty(), qPrintable(where + fault_of(n) + QStringLiteral(" in narration: ") + n));
            QVERIFY2(fault_of(d).isEmpty(), qPrintable(where + fault_of(d) + QStringLiteral(" in description: ") + d));
            // A note and a statement's echo quote the author's text; the rest is the narration's own.
            const bool authors_text = w.events[i].kind == EventKind::note || w.events[i].kind == EventKind::stmt_begin;
            QVERIFY2(authors_text || unglossed(n, w.names).isEmpty(),
                     qPrintable(where + unglossed(n, w.names) + QStringLiteral(" is not in the glossary: ") + n));
        }
        if (w.finished) {
            const QString end = QString::fromStdString(w.end);
            QVERIFY2(fault_of(end).isEmpty(), qPrintable(end));
            QVERIFY(end.contains(QStringLiteral("The scene is over")));
            QVERIFY(end.contains(QStringLiteral("expectation")));
        }
    }

    // The words a lesson cannot do without, each with its entry; every spelling is found once.
    void theGlossaryExplainsTheLessonWords()
    {
        for (const char *word :
             {"refs", "file_count", "inflight", "out_degree", "vertex", "SCC", "index", "scc_index", "candidate",
              "hitlist", "skb", "embryo", "peer", "OOB", "PEEK", "task_work", "kworker", "Collection"})
            QVERIFY2(glossary_entry(word), word);
        QCOMPARE(glossary_entry("unix_no_such_lock"), nullptr);
        QCOMPARE(glossary_entry("SKB"), nullptr); // only a first letter is folded
        std::set<std::string_view> seen;
        for (const GlossaryEntry &e : glossary()) {
            QVERIFY(!e.meaning.empty());
            for (std::string_view one : glossary_spellings(e)) {
                QVERIFY2(seen.insert(one).second, std::string(one).c_str());
                QCOMPARE(glossary_entry(one), &e);
            }
        }
    }

    // Hovering a narration explains its terms: two-word spellings win over their first word,
    // each entry comes once, in the order the text uses them.
    void aNarrationsTermsAreFoundInOrder()
    {
        const auto terms = glossary_terms_in(
            "Tarjan pops u0 off the vertex stack; u0's out_degree is 1. The hitlist takes skb#2 — in flight, "
            "a copy; Collection #1 ends; the hitlist again.");
        std::vector<std::string_view> names;
        for (const GlossaryEntry *e : terms)
            names.push_back(e->term);
        const std::vector<std::string_view> expected{"vertex stack", "out_degree", "hitlist",
                                                     "skb",          "in flight",  "garbage collector (unix_gc)"};
        QCOMPARE(names, expected);
        QVERIFY(glossary_terms_in("nothing here to explain").empty());
    }

    void sendmsgSaysBytesAndFds()
    {
        const Walk w = walk(load(scene_path("selftest-triangle-stream.scn")), GcEra::classic);
        QVERIFY(any_contains(w, EventKind::stmt_end, "sendmsg() on p1 sent 1 byte with 2 fds (u0, u0)."));
        QVERIFY(any_contains(w, EventKind::stmt_begin, "Line 12: send p1 fds=u0,u0"));
        // A repeat block's templates are told as each iteration expands them.
        QVERIFY(any_contains(w, EventKind::stmt_end, "socketpair(): u3 and p3 are open"));
        QVERIFY(any_contains(w, EventKind::stmt_begin, "two connected stream sockets, u5 and p5."));
        QVERIFY(any_contains(w, EventKind::stmt_end, "u0, u1, u2, u3, u4 and u5 are closed."));
        // Closing u0 leaves the copies in flight; closing p0 drops the last reference.
        QVERIFY(any_contains(w, EventKind::fd_close, "u0's file still has 2 references"));
        QVERIFY(any_contains(w, EventKind::fd_close, "was the last reference to p0's file"));
        QVERIFY(any_contains(w, EventKind::expect_result,
                             "The expectation on line 32 holds: u0, u1, u2, u3, u4, u5 and p0 are freed."));
        // The ask before close p0: its question, its answer, and the answer's check after it.
        QVERIFY(
            any_contains(w, EventKind::note, "Question: Closing p0 starts a collection. Which sockets will it free?"));
        QVERIFY(any_contains(w, EventKind::note, "Answer: u0, u1, u2, u3, u4, u5 and p0 are freed."));
        QVERIFY(any_contains(w, EventKind::expect_result,
                             "The answer to the question on line 30 holds: u0, u1, u2, u3, u4, u5 and p0 are freed."));
        QVERIFY(any_contains(w, EventKind::note, "Note: The triangle test from scm_rights.c."));
        QVERIFY2(w.end.find("The collector freed u0, u1, u2, u3, u4 and u5 (6 sockets).") != std::string::npos,
                 w.end.c_str());
        QVERIFY2(w.end.find("Nothing leaked.") != std::string::npos, w.end.c_str());
        QVERIFY2(w.end.find("Every expectation held (") != std::string::npos, w.end.c_str());
    }

    // The fds a send passes in a repeat block, as that iteration expanded them; a long list as
    // its first names and its last (the count says how many).
    void anFdListIsSaidAsItRan()
    {
        auto scene = parse_scene("set gc graph\n"
                                 "repeat 2 as k {\n"
                                 "  socketpair c$k d$k\n"
                                 "  repeat 12 as i {\n"
                                 "    socket s${k}_$i\n"
                                 "  }\n"
                                 "  send c$k fds=s${k}_{0..11}\n"
                                 "  send c$k fds=s${k}_0,s${k}_1\n"
                                 "  recv d$k fds=r${k}_{0..11}\n"
                                 "}\n",
                                 "t.scn");
        QVERIFY(scene.ok());
        const Walk w = walk(std::make_shared<const Scene>(std::move(scene.scene)), GcEra::graph);
        QVERIFY(any_contains(w, EventKind::stmt_end,
                             "sendmsg() on c1 sent 1 byte with 12 fds (s1_0, s1_1, s1_2, …, s1_11)."));
        QVERIFY(
            any_contains(w, EventKind::stmt_begin,
                         "sendmsg() on c0 sends 1 byte passing 12 fds (s0_0, s0_1, s0_2, …, s0_11) with SCM_RIGHTS."));
        QVERIFY(any_contains(w, EventKind::stmt_end, "sendmsg() on c1 sent 1 byte with 2 fds (s1_0, s1_1)."));
        QVERIFY(any_contains(w, EventKind::stmt_end, "the fds it carried are now open as r1_0, r1_1, r1_2, …, r1_11."));
        // Never the template itself, but where the narration quotes the scene's line.
        for (const std::string &text : w.narrations) {
            const auto quoted_line = text.find(" — ");
            const std::string told = quoted_line == std::string::npos ? text : text.substr(quoted_line);
            QVERIFY2(told.find("${") == std::string::npos, text.c_str());
        }
    }

    void recvmsgSaysWhichFdItGot()
    {
        auto scene = parse_scene(
            "set gc graph\nsocketpair a a2\nsocketpair b b2\nsend a fds=b\nrecv a2 fds=x\nclose x\n", "t.scn");
        QVERIFY(scene.ok());
        const Walk w = walk(std::make_shared<const Scene>(std::move(scene.scene)), GcEra::graph);
        QVERIFY(
            any_contains(w, EventKind::fd_install, "recvmsg() got fd 7: a copy of b's file comes out of the message"));
        QVERIFY(
            any_contains(w, EventKind::stmt_end, "recvmsg() on a2 got 1 byte; the fds it carried are now open as x."));
        QVERIFY(any_contains(w, EventKind::stmt_end, "x is closed."));
        QVERIFY2(w.end.find("No collection ran.") != std::string::npos, w.end.c_str());
        QVERIFY2(w.end.find("The scene checks no expectation.") != std::string::npos, w.end.c_str());
    }

    void graphStateIsToldInWords()
    {
        const Walk w = walk(load(scene_path("selftest-mixed-lowpoint-stream.scn")), GcEra::graph);
        QVERIFY(any_contains(w, EventKind::graph_state,
                             "The walk is done: the graph is now grouped into SCCs (unix_graph_grouped)"));
        QVERIFY(any_contains(w, EventKind::graph_state, "a cycle may now exist (unix_graph_maybe_cyclic is set)"));
        QVERIFY(any_contains(w, EventKind::graph_state, "The walk starts by clearing unix_graph_maybe_cyclic"));
        // The collection that finds nothing says so; the run's end names the leak.
        QVERIFY(any_contains(w, EventKind::gc_end, "ends: it found no garbage."));
        QVERIFY2(w.end.find("u0, u1, u2, u3, u4 and u5 leaked: they are alive, no open fd reaches them, and the "
                            "collector left them.") != std::string::npos,
                 w.end.c_str());
        QVERIFY2(w.end.find("The collector ran 2 times and freed nothing.") != std::string::npos, w.end.c_str());
    }

    // An alive SCC's verdict gives the true reason it stays: what keeps its alive member, never
    // its cycle (a cycle keeps nothing alive on its own).
    void anAliveSccSaysWhatKeepsIt()
    {
        const Walk open_fd = walk(load(scene_path("cycle-kept-alive-by-open-fd.scn")), GcEra::graph);
        QVERIFY(any_contains(open_fd, EventKind::scc_verdict,
                             "The SCC of b is alive and stays, because a is held from outside flight (an open "
                             "fd"));
        const Walk lowpoint = walk(load(scene_path("selftest-mixed-lowpoint-stream.scn")), GcEra::graph);
        QVERIFY(any_contains(lowpoint, EventKind::scc_verdict,
                             "because u1's file sits with u2, a member that kept another scc_index"));
        for (const Walk *w : {&open_fd, &lowpoint})
            for (std::size_t i = 0; i < w->events.size(); ++i)
                if (w->events[i].kind == EventKind::scc_verdict && !w->events[i].dead())
                    QVERIFY2(w->narrations[i].find("because") != std::string::npos, w->narrations[i].c_str());
    }

    void aGraphWithoutCyclesSaysNoCycleCanExist()
    {
        // A chain with no cycle: the walk's end says the next collection will be skipped.
        auto scene =
            parse_scene("set gc graph\nsocketpair a a2\nsocketpair b b2\nsend a fds=b2\nsend b fds=a\ngc\n", "t.scn");
        QVERIFY(scene.ok());
        const Walk w = walk(std::make_shared<const Scene>(std::move(scene.scene)), GcEra::graph);
        QVERIFY(any_contains(w, EventKind::graph_state, "no cyclic SCC is left, so no cycle can exist"));
    }

    // CVE-2024-26750's buggy side: the collection's last step is the loop after the purge that
    // spins for ever. It says so (narration and --trace's short form), and the listing shows
    // that loop, not `gc_in_progress = false`, which the kernel's task never reaches. The fixed
    // side's collection ends as usual.
    void aHungCollectionSaysItNeverEnds()
    {
        ParseResult r = load_scene_file(INFLIGHT_SOURCE_DIR "/scenes/bugs/cve-2024-26750-oob-gc-hang.scn");
        QVERIFY(r.ok());
        for (const bool buggy : {true, false}) {
            auto scene = std::make_shared<Scene>(r.scene);
            for (const SceneVariant &v : scene->variants)
                if (v.name == (buggy ? "buggy" : "fixed"))
                    scene->settings = v.settings;
            Simulation sim(scene, SimulationOptions{});
            bool seen = false;
            while (const Event *e = sim.step()) {
                if (e->kind != EventKind::gc_end || e->run() != 1)
                    continue;
                seen = true;
                const std::string said = narrate(*e, sim.kernel(), &sim.scene());
                const std::string short_form = describe(*e, sim.kernel(), &sim.scene());
                QCOMPARE(e->run_hung(), buggy);
                if (buggy) {
                    QCOMPARE(e->algo_line, static_cast<std::uint16_t>(AlgoLine::classic_oob_loop));
                    QVERIFY2(said.find("Collection #1 never ends") != std::string::npos &&
                                 said.find("gc_in_progress still set") != std::string::npos &&
                                 said.find("task hung in __unix_gc()") != std::string::npos &&
                                 said.find("Collection #1 ends") == std::string::npos,
                             said.c_str());
                    QVERIFY2(short_form.find("collection #1 hangs") != std::string::npos, short_form.c_str());
                    QVERIFY(sim.kernel().gc_in_progress);
                } else {
                    QCOMPARE(e->algo_line, static_cast<std::uint16_t>(AlgoLine::classic_end));
                    QVERIFY2(said.find("Collection #1 ends") != std::string::npos, said.c_str());
                }
            }
            QVERIFY(seen);
        }
        // The loop's line is in the classic listing, between the purge and the end.
        const auto &listing = algorithm_listing(GcEra::classic);
        const auto at = [&](AlgoLine l) {
            return std::find_if(listing.begin(), listing.end(), [l](const ListingLine &x) { return x.id == l; });
        };
        QVERIFY(at(AlgoLine::classic_purge) < at(AlgoLine::classic_oob_loop));
        QVERIFY(at(AlgoLine::classic_oob_loop) < at(AlgoLine::classic_end));
        QVERIFY(at(AlgoLine::classic_end) != listing.end());
    }

    void failuresSayTheErrno()
    {
        auto scene =
            parse_scene("set gc classic\nsocket s\nclose s\nclose s\nexpect error EBADF\nexpect alive s\n", "t.scn");
        QVERIFY(scene.ok());
        const Walk w = walk(std::make_shared<const Scene>(std::move(scene.scene)), GcEra::classic);
        QVERIFY(any_contains(w, EventKind::stmt_end, "failed with EBADF (Bad file descriptor)."));
        QVERIFY(any_contains(w, EventKind::expect_result, "The expectation on line 6 FAILED"));
        QVERIFY2(w.end.find("1 of 2 expectations FAILED: line 6") != std::string::npos, w.end.c_str());
    }
};

QTEST_GUILESS_MAIN(TestNarration)
#include "test_narration.moc"
