// SPDX-License-Identifier: GPL-3.0-or-later
// Kernel profiles and named changes: the tables, `set kernel` / `set fix` / --kernel,
// and every version-dependent rule, each shown on both of its sides.
#include "inflight/kernel_profile.hpp"
#include "inflight/parser.hpp"
#include "inflight/report.hpp"
#include "inflight/simulation.hpp"
#include "inflight/statement_table.hpp"
#include "scene_runner.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <algorithm>
#include <set>

using namespace inflight;
using namespace inflight::test;

namespace {

// Runs `text` under the profile `kernel` (with the invariants checked after every micro-step).
std::unique_ptr<Simulation> run_on(const std::string &kernel, const std::string &text, bool checked = true)
{
    auto scene = scene_of(text);
    if (!scene)
        return nullptr;
    SimulationOptions o;
    o.kernel = kernel_profile_by_name(kernel);
    if (!o.kernel)
        return nullptr;
    o.checked = checked;
    auto sim = std::make_unique<Simulation>(scene, o);
    sim->run();
    return sim;
}

bool alive(const Simulation &s, const char *label)
{
    const UnixSock *u = s.kernel().find_label(label);
    return u && !u->released;
}

std::string warnings_of(const Simulation &s)
{
    std::string out;
    for (const SceneWarning &w : s.warnings())
        out += w.message + "\n";
    return out;
}

const char *kMixedLowpoint = "set gc graph\nsocketpair u0 p0\nsocketpair u1 p1\nsocketpair u2 p2\n"
                             "send p1 fds=u0,u0\nsend p2 fds=u1,u1\nsend p1 fds=u2,u2\nsend p0 fds=u1,u1\n"
                             "close u0 u1 u2 p0 p1 p2\ngc\n";

// Spec 5.3: an OOB skb carrying its own socket's fd.
const char *kOobSelfReference = "socketpair a b stream\nsend b fds=a oob\nclose a b\ngc\n";

// Spec 5.5: an unaccepted embryo holding an OOB skb with its listener's fd.
const char *kEmbryoOob = "socket l stream\nbind l @unix-oob\nlisten l\nsocket c stream\nconnect c l\n"
                         "send c fds=l oob\nclose l\nclose c\ngc\n";

// Spec 5.3, CVE-2024-26750: one OOB skb in a's queue carrying a and b. fds=a,b puts b in flight
// first, so b leads gc_candidates; fds=b,a puts a first. Closing b2 collects both.
std::string oob_pair(const char *fds)
{
    return std::string("socketpair a a2 stream\nsocketpair b b2\nsend a2 fds=") + fds +
           " oob\nclose a b\nclose b2\nclose a2\n";
}

bool hung_with(const Simulation &s, const char *cve)
{
    const auto &f = s.kernel().findings;
    return f.size() == 1 && f[0].warning && f[0].invariant.rfind(cve, 0) == 0 && s.kernel().collector().hung();
}

// Spec 5.4: c2's own fd as an unread OOB byte that a normal read skips.
const char *kStaleOob = "socketpair c1 c2 stream\nsend c1 fds=c2 oob\nrecv c2\nexpect error EAGAIN\n"
                        "close c2\nclose c1\n";

// The order of unix_gc()'s last two steps: c is reachable (a copy in x's queue, x open) and
// also queued in g, which forms a garbage cycle with h.
const char *kNotCycleInGarbage = "socketpair x x2\nsocketpair c c2\nsocketpair g g2\nsocketpair h h2\n"
                                 "send x2 fds=c\nsend g2 fds=c\nsend g2 fds=h\nsend h2 fds=g\n"
                                 "close c c2 g g2 h h2\n";

} // namespace

class TestKernelProfiles : public QObject {
    Q_OBJECT
private slots:
    void tablesAreConsistent()
    {
        QVERIFY(kernel_profiles().size() >= 10);
        std::set<std::string_view> names;
        for (const KernelProfile &p : kernel_profiles()) {
            QVERIFY2(names.insert(p.name).second, p.name.data());
            QVERIFY(!p.title.empty());
            QVERIFY(p.changes.has(KernelChange::graph_gc) == (p.era == GcEra::graph));
            QVERIFY(p.changes.has(KernelChange::gc_async) == (p.era != GcEra::classic));
        }
        for (GcEra e : {GcEra::classic, GcEra::async, GcEra::graph})
            QCOMPARE(default_kernel_profile(e).era, e);
        QCOMPARE(default_kernel_profile(GcEra::graph).name, std::string_view("6.18"));
        // The language's word lists (completion, LANGUAGE.md) are the tables' names.
        QCOMPARE(kernel_names().size(), kernel_profiles().size());
        for (std::size_t i = 0; i < kernel_names().size(); ++i)
            QCOMPARE(kernel_names()[i], kernel_profiles()[i].name);
        QCOMPARE(fix_names().size(), kernel_change_table().size());
        for (std::size_t i = 0; i < fix_names().size(); ++i) {
            const KernelChangeInfo &c = kernel_change_table()[i];
            QCOMPARE(fix_names()[i], c.name);
            QVERIFY(!c.subject.empty() && !c.summary.empty());
            QVERIFY2(c.commit.empty() || c.commit.size() == 12, c.name.data());
            QCOMPARE(kernel_change_by_name(c.name), std::optional<KernelChange>(c.id));
        }
    }

    // `set kernel` sets the era; a later `set gc` of another era replaces the profile; `set fix`
    // turns one change over; --kernel wins over both.
    void settingsPickTheProfile()
    {
        auto sim = run_scene("set kernel 6.1\nsocketpair a b\n");
        QCOMPARE(sim->kernel().era(), GcEra::graph);
        QCOMPARE(sim->kernel().config().profile, std::string_view("6.1"));
        sim = run_scene("set kernel 6.1\nset gc classic\nsocketpair a b\n");
        QCOMPARE(sim->kernel().config().profile, std::string_view("6.8"));
        sim = run_scene("set kernel 6.12\nset gc graph\nsocketpair a b\n");
        QCOMPARE(sim->kernel().config().profile, std::string_view("6.12"));
        sim = run_scene("set kernel 6.12\nset fix so-passrights\nsocketpair a b\n");
        QVERIFY(sim->kernel().config().has(KernelChange::so_passrights));
        QVERIFY(!kernel_profile_by_name("6.12")->changes.has(KernelChange::so_passrights));
        QCOMPARE(fixes_turned_over(sim->kernel()), std::vector<std::string>{"+so-passrights"});
        sim = run_on("5.10", "set kernel 6.18\nsocketpair a b\n");
        QCOMPARE(sim->kernel().config().profile, std::string_view("5.10"));
        // --gc keeps the scene's own profile of that era, else the era's default.
        auto scene = scene_of("set kernel 6.10\nsocketpair a b\n");
        SimulationOptions o;
        o.era = GcEra::graph;
        QCOMPARE(run_profile(scene->settings, o).name, std::string_view("6.10"));
        o.era = GcEra::async;
        QCOMPARE(run_profile(scene->settings, o).name, std::string_view("6.9"));
    }

    // msg-oob (5.15): before it, MSG_OOB is EOPNOTSUPP on send and on recv.
    void msgOobArrivesIn515()
    {
        const std::string text = "socketpair a b stream\nsend a bytes=1 oob\nexpect error EOPNOTSUPP\n";
        auto old = run_on("5.10", text);
        QVERIFY2(old->expectations_failed() == 0 && old->warnings().empty(), warnings_of(*old).c_str());
        auto newer = run_on("5.15", text);
        QCOMPARE(newer->expectations_failed(), 1u);
        auto recv = run_on("5.10", "socketpair a b stream\nrecv b oob\nexpect error EOPNOTSUPP\n");
        QCOMPARE(recv->expectations_failed(), 0u);
    }

    // so-passrights (6.16): before it, setsockopt(SO_PASSRIGHTS) is ENOPROTOOPT and every
    // receiver takes SCM_RIGHTS.
    void soPassrightsArrivesIn616()
    {
        auto older = run_on("6.12", "socketpair a b\nsetsockopt b passrights=off\nexpect error ENOPROTOOPT\n");
        QVERIFY2(older->expectations_failed() == 0, warnings_of(*older).c_str());
        auto newer = run_on("6.18", "socketpair a b\nsocketpair c d\nsetsockopt b passrights=off\n"
                                    "send a fds=c\nexpect error EPERM\n");
        QVERIFY2(newer->expectations_failed() == 0, warnings_of(*newer).c_str());
    }

    // oob-gc-kfree (6.8, and 5.15.149): without it the classic collector leaves the OOB skb's
    // extra reference, and the self-referencing socket leaks (spec 5.3).
    void oobSelfReferenceLeaksWithoutTheKfreeFix()
    {
        auto fixed = run_on("6.8", kOobSelfReference);
        QVERIFY(!alive(*fixed, "a"));
        auto buggy = run_on("6.8", std::string("set fix oob-gc-kfree off\n") + kOobSelfReference);
        QVERIFY(buggy->kernel().findings.empty());
        QVERIFY(alive(*buggy, "a"));
        // The graph collector of 6.18 has no such code: the fix line warns and changes nothing.
        ParseResult r = parse_scene(std::string("set gc graph\nset fix oob-gc-kfree\n") + kOobSelfReference, "t");
        QVERIFY(r.ok());
        QCOMPARE(r.diagnostics.size(), std::size_t{1});
        QVERIFY(r.diagnostics[0].message.find("only applies to 'set gc classic' or 'set gc async'") !=
                std::string::npos);
    }

    // The three forms of 6.8-rc's OOB purge: oob-gc-before-purge (aa82ac51d633) drops the
    // references before the purge and always gets through; before it, the loop after the purge
    // hangs on a leftover without oob_skb at the head (CVE-2024-26750), and before
    // oob-gc-first-socket (25236c91b5ab) list_for_each_entry_safe() hangs when one kfree_skb()
    // unlinks the next socket too (CVE-2024-26780). Each hangs on the order the other survives.
    void oobPurgeLoopsHangByCandidateOrder()
    {
        const std::string b_first = oob_pair("a,b"), a_first = oob_pair("b,a");
        const std::string while_loop = "set fix oob-gc-before-purge off\n";
        const std::string safe_loop = while_loop + "set fix oob-gc-first-socket off\n";
        for (const std::string &order : {b_first, a_first}) {
            auto fixed = run_on("6.8", order);
            QVERIFY2(fixed->kernel().findings.empty(), findings_of(*fixed).c_str());
            QVERIFY(!alive(*fixed, "a") && !alive(*fixed, "b"));
        }
        auto hang = run_on("6.8", while_loop + b_first);
        QVERIFY2(hung_with(*hang, "CVE-2024-26750"), findings_of(*hang).c_str());
        QVERIFY(alive(*hang, "a") && alive(*hang, "b"));
        // The hung task never clears gc_in_progress: close a2's collection does not start.
        QVERIFY(hang->kernel().gc_in_progress);
        QCOMPARE(hang->kernel().gc_runs.size(), std::size_t{1});
        auto through = run_on("6.8", while_loop + a_first);
        QVERIFY(through->kernel().findings.empty());
        QVERIFY(!alive(*through, "a") && !alive(*through, "b"));

        auto safe_through = run_on("6.8", safe_loop + b_first);
        QVERIFY(safe_through->kernel().findings.empty());
        QVERIFY(!alive(*safe_through, "a") && !alive(*safe_through, "b"));
        auto safe_hang = run_on("6.8", safe_loop + a_first);
        QVERIFY2(hung_with(*safe_hang, "CVE-2024-26780"), findings_of(*safe_hang).c_str());

        // The 6.9 work item hangs the same way, and no later run is queued.
        auto async = run_on("6.9", while_loop + b_first + "socketpair d e\nsend d fds=e\nclose e d\n");
        QVERIFY2(hung_with(*async, "CVE-2024-26750"), findings_of(*async).c_str());
        QVERIFY(alive(*async, "e"));
    }

    // oob-stale-clear (b46f4eaa4f0e, 6.9; 6.8.y and older stable trees): a normal read that
    // skips an unread OOB byte clears oob_skb. Before it the skb stays held off the queue and
    // the socket it carries can never be collected by the classic collector.
    void staleOobSkbLeaksWithoutTheClear()
    {
        auto fixed = run_on("6.8", kStaleOob);
        QVERIFY2(fixed->expectations_failed() == 0 && fixed->warnings().empty(), warnings_of(*fixed).c_str());
        QVERIFY(!alive(*fixed, "c2"));
        auto buggy = run_on("6.8", std::string("set fix oob-stale-clear off\n") + kStaleOob);
        QVERIFY(buggy->kernel().findings.empty());
        const UnixSock &c2 = sock(*buggy, "c2");
        QVERIFY(!c2.released);
        QCOMPARE(c2.inflight, 1L);
        QVERIFY(c2.receive_queue.empty());
        QVERIFY(c2.oob_skb != nullptr && !c2.oob_skb->hook.is_linked());
        // Every classic profile with MSG_OOB has the fix (5.15.y and 6.8.y by backport); the
        // model acts on it for the classic collector only, and says so.
        for (const char *k : {"5.15", "6.8", "6.9"})
            QVERIFY2(kernel_profile_by_name(k)->changes.has(KernelChange::oob_stale_clear), k);
        ParseResult r = parse_scene("set gc graph\nset fix oob-stale-clear\nsocketpair a b\n", "t");
        QVERIFY(r.ok());
        QCOMPARE(r.diagnostics.size(), std::size_t{1});
    }

    // hitlist-before-restore: 4.4 as released restored not_cycle_list (clearing the candidate
    // flag) before building the hitlist, so a reachable candidate queued in a garbage socket
    // never got back the count the decrement pass took; the garbage socket's release then took
    // one more. It leaves flight while a copy of it is still queued in x (receiving that copy
    // would hit the BUG_ON in unix_notinflight()). The later order keeps the count right.
    void notCycleRestoreOrder()
    {
        QVERIFY(!kernel_profile_by_name("4.4")->changes.has(KernelChange::classic_hitlist_first));
        QVERIFY(kernel_profile_by_name("5.10")->changes.has(KernelChange::classic_hitlist_first));
        auto later = run_on("5.10", std::string(kNotCycleInGarbage) + "recv x fds=c3\n");
        QVERIFY2(later->kernel().findings.empty(), findings_of(*later).c_str());
        QVERIFY(!alive(*later, "g") && !alive(*later, "h"));
        QCOMPARE(sock(*later, "c").inflight, 0L); // its one copy was received
        QVERIFY(alive(*later, "c"));

        // The model counts the copies in flight after each collection: the one that leaves c
        // short is a finding at once (the run stops there, as at a BUG_ON).
        auto old = run_on("4.4", kNotCycleInGarbage, false);
        QVERIFY(old->stopped_by_finding());
        QCOMPARE(old->kernel().findings.size(), std::size_t{1});
        QCOMPARE(old->kernel().findings[0].invariant, std::string("u->inflight == copies in flight"));
        QVERIFY(old->kernel().findings[0].message.rfind("c:", 0) == 0);
        QVERIFY(!alive(*old, "g") && !alive(*old, "h"));
        const UnixSock &c = sock(*old, "c");
        QCOMPARE(c.inflight, 0L);     // one short: a copy is still in x's queue...
        QCOMPARE(c.file->count, 1L);  // ...holding the file's only reference
        QVERIFY(!c.link.is_linked()); // and c is on no GC list
        // The same scene with the later order on 4.4 is clean.
        QVERIFY(run_on("4.4", std::string("set fix hitlist-before-restore\n") + kNotCycleInGarbage)
                    ->kernel()
                    .findings.empty());
    }

    // remove-iouring-gc (6.9): a leftover candidate WARNs and stays on gc_candidates; up to 6.8
    // the io_uring loop moves it back to gc_inflight_list, flags still set, and no one is told.
    void leftoversWarnFrom69AndMoveBackBefore()
    {
        // Up to the close that collects (the scene's last `gc` would scan the leftover again).
        const std::string text = std::string(kEmbryoOob).substr(0, std::string(kEmbryoOob).size() - 3);
        auto warned = run_on("6.9", text);
        QCOMPARE(warned->kernel().findings.size(), std::size_t{1});
        QVERIFY(warned->kernel().findings[0].warning);
        QCOMPARE(warned->kernel().find_label("l")->on, ListId::gc_candidates);
        auto looped = run_on("6.8", text);
        QVERIFY(looped->kernel().findings.empty());
        const UnixSock *l = looped->kernel().find_label("l");
        QVERIFY(!l->released); // the leak of spec 5.5
        QCOMPARE(l->on, ListId::gc_inflight_list);
        QVERIFY(l->gc_flags & UNIX_GC_CANDIDATE); // the loop leaves the flags alone
        auto no_loop = run_on("6.8", "set fix remove-iouring-gc\n" + text);
        QCOMPARE(no_loop->kernel().findings.size(), std::size_t{1});
    }

    // oob-no-skb-get (6.12) and embryo-oob-gc (6.10): on 6.10 the graph collector drops the
    // OOB reference by hand, an embryo's only with the fix; from 6.12 there is none to drop.
    void embryoOobOnTheGraphCollector()
    {
        QVERIFY(!alive(*run_on("6.10", kEmbryoOob), "l"));
        QVERIFY(!alive(*run_on("6.10", kOobSelfReference), "a"));
        auto buggy = run_on("6.10", std::string("set fix embryo-oob-gc off\n") + kEmbryoOob);
        QVERIFY(alive(*buggy, "l")); // 041933a1ec7b's leak
        auto later = run_on("6.18", std::string("set fix embryo-oob-gc off\n") + kEmbryoOob);
        QVERIFY(!alive(*later, "l")); // no reference of its own: nothing to forget
    }

    // fpl-dead (1af2dface5d2, 7172dc93d621; 6.10): every graph profile has it, and `set fix` may
    // turn it off. Off, unix_del_edges() reads each edge's successor during the purge too: a
    // garbage cycle's purge marks the graph maybe-cyclic again through a successor that is
    // itself garbage (unix_update_graph()); on, a dead list's successors are left alone. (The
    // use-after-free that read can be is test_races' delayedFputOnAnotherCpuFreesTheSuccessorMidPurge.)
    void fplDeadLeavesADeadListsSuccessorAlone()
    {
        QVERIFY(kernel_change_info(KernelChange::fpl_dead).not_modelled.empty());
        for (const KernelProfile &p : kernel_profiles())
            QCOMPARE(p.changes.has(KernelChange::fpl_dead), p.era == GcEra::graph);
        const std::string cycle = "socketpair a a2\nsocketpair b b2\nsend a2 fds=b\nsend b2 fds=a\n"
                                  "close a2 b2 a b\ngc\n";
        for (const bool fixed : {false, true}) {
            auto scene = scene_of(std::string(fixed ? "" : "set fix fpl-dead off\n") + cycle);
            QVERIFY(scene);
            SimulationOptions o;
            o.kernel = kernel_profile_by_name("6.10");
            o.record = true;
            o.checked = true;
            Simulation sim(scene, o);
            sim.run();
            QVERIFY2(sim.kernel().findings.empty(), findings_of(sim).c_str());
            QVERIFY(!alive(sim, "a") && !alive(sim, "b"));
            const auto &ev = sim.events();
            const auto purge = std::find_if(ev.begin(), ev.end(), [](const Event &e) {
                return e.kind == EventKind::skb_free && e.fn == KFn::skb_queue_purge;
            });
            QVERIFY(purge != ev.end());
            const auto end = std::find_if(purge, ev.end(), [](const Event &e) { return e.kind == EventKind::gc_end; });
            const bool marked = std::any_of(purge, end, [](const Event &e) {
                return e.kind == EventKind::graph_state && e.fn == KFn::unix_update_graph;
            });
            QCOMPARE(marked, !fixed);
        }
    }

    // schedule-gc (6.19): close() queues a collection only while the graph may be cyclic; 6.18
    // queues one on every close while anything is in flight, and it skips.
    void closeSchedulesOnlyWhatMayBeCyclic()
    {
        const std::string chain = "socketpair a b\nsocketpair c d\nsend a fds=c\nclose c\nclose d\n";
        auto old = run_on("6.18", chain);
        QVERIFY(!old->kernel().gc_runs.empty());
        for (const GcRun &r : old->kernel().gc_runs)
            QVERIFY(r.skipped);
        auto newer = run_on("6.19", chain);
        QCOMPARE(newer->kernel().gc_runs.size(), std::size_t{0});
        // A cycle is still collected once it may exist.
        auto cycle = run_on("6.19", "socketpair a b\nsend a fds=b\nclose a b\n");
        QVERIFY(!alive(*cycle, "a") && !alive(*cycle, "b"));
    }

    // unify-scc-index (7.3, in 7.2.y): mixed_lowpoint leaks before it and is freed with it, as
    // real kernels did (7.1.13 leaked, 7.2.13 and 7.3.4 freed it).
    void mixedLowpointByVersion()
    {
        for (const char *k : {"6.1", "6.18", "6.19", "7.0"})
            QVERIFY2(alive(*run_on(k, kMixedLowpoint), "u0"), k);
        for (const char *k : {"7.2", "7.3"})
            QVERIFY2(!alive(*run_on(k, kMixedLowpoint), "u0"), k);
        QVERIFY(!alive(*run_on("6.18", std::string("set fix unify-scc-index\n") + kMixedLowpoint), "u0"));
    }

    // The table-lock and autobind defaults follow the profile; the scene's own line wins.
    void lockAndAutobindDefaults()
    {
        auto old = run_on("5.10", "socketpair a b\n");
        QVERIFY(old->kernel().config().global_table_lock);
        QCOMPARE(old->kernel().config().autobind, AutobindMode::sequential);
        auto newer = run_on("6.1", "socketpair a b\n");
        QVERIFY(!newer->kernel().config().global_table_lock);
        QCOMPARE(newer->kernel().config().autobind, AutobindMode::random);
        auto chosen = run_on("5.10", "set autobind random\nset table-lock per-bucket\nsocketpair a b\n");
        QVERIFY(!chosen->kernel().config().global_table_lock);
        QCOMPARE(chosen->kernel().config().autobind, AutobindMode::random);
    }

    // inflight-cli kernels --json and run --kernel, as scripts use them.
    void cli()
    {
        QProcess p;
        p.start(QStringLiteral(INFLIGHT_CLI), {QStringLiteral("kernels"), QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        const QJsonArray all = QJsonDocument::fromJson(p.readAllStandardOutput()).array();
        QVERIFY(all.size() >= 10);
        for (const QJsonValue &v : all) {
            const QJsonObject o = v.toObject();
            QVERIFY(o.contains(QStringLiteral("kernel")) && o.contains(QStringLiteral("era")));
            for (const QJsonValue &f : o.value(QStringLiteral("fixes")).toArray())
                for (const char *field : {"name", "commit", "version", "summary", "on"})
                    QVERIFY2(f.toObject().contains(QLatin1String(field)), field);
        }
        const QString scene = QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/selftest-mixed-lowpoint-stream.scn");
        p.start(QStringLiteral(INFLIGHT_CLI),
                {QStringLiteral("run"), scene, QStringLiteral("--kernel"), QStringLiteral("7.3")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 1); // the scene expects the leak 7.3 no longer has
        QVERIFY(p.readAllStandardOutput().contains("kernel profile 7.3"));
        QVERIFY(p.readAllStandardError().contains("not for graph (7.3)"));
        p.start(QStringLiteral(INFLIGHT_CLI),
                {QStringLiteral("run"), scene, QStringLiteral("--kernel"), QStringLiteral("6.7")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 2);
        // --trace prints the hang of CVE-2024-26750's buggy side at the collection's last step,
        // where the fixed side's collection ends.
        const QString hang = QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/bugs/cve-2024-26750-oob-gc-hang.scn");
        for (const char *variant : {"buggy", "fixed"}) {
            p.start(QStringLiteral(INFLIGHT_CLI), {QStringLiteral("run"), hang, QStringLiteral("--variant"),
                                                   QLatin1String(variant), QStringLiteral("--trace")});
            QVERIFY(p.waitForFinished(30000));
            QCOMPARE(p.exitCode(), 0);
            const QByteArray trace = p.readAllStandardOutput();
            const bool buggy = std::string_view(variant) == "buggy";
            QCOMPARE(trace.contains("gc_end            collection #1 hangs: the loop after the purge spins for ever"),
                     buggy);
            QCOMPARE(trace.contains("gc_end            collection #1 ends"), !buggy);
        }
    }
};

QTEST_GUILESS_MAIN(TestKernelProfiles)
#include "test_kernel_profiles.moc"
