// SPDX-License-Identifier: GPL-3.0-or-later
// Scenes replayed on the machine's own kernel (in a fresh network namespace) agree
// with the model of that kernel's era; scenes the replayer cannot do are refused with their
// lines; a replay leaves no descriptor and no child behind; export-c programs compile with the
// system compiler and pass on this kernel, and fail where the model is wrong for it.
#include "inflight/export_c.hpp"
#include "inflight/kernel_profile.hpp"
#include "inflight/kernel_replay.hpp"
#include "inflight/model_trace.hpp"
#include "inflight/parser.hpp"
#include "inflight/release_profile.hpp"
#include "inflight/replay_diff.hpp"
#include "inflight/replay_plan.hpp"
#include "network_namespace.hpp"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <thread>

using namespace inflight;

namespace {

QString source_path(const QString &rel) { return QStringLiteral(INFLIGHT_SOURCE_DIR "/") + rel; }

std::string read_text(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}

struct Replayed {
    ReplayPlan plan;
    ModelTrace model;
    KernelRun kernel;
    ReplayReport report;
};

// Parses, plans, models with the profile of the running kernel, runs on it, compares.
std::unique_ptr<Replayed> replay_text(const std::string &text, const std::string &name)
{
    ParseResult parsed = parse_scene(text, name);
    if (!parsed.ok()) {
        for (const Diagnostic &d : parsed.diagnostics)
            qWarning("%s", d.format().c_str());
        return nullptr;
    }
    auto r = std::make_unique<Replayed>();
    r->plan = plan_replay(parsed.scene, geteuid() == 0);
    const ReleaseProfile profile = profile_for_release(running_kernel_release(), running_kernel_version());
    r->model = trace_model(parsed.scene, r->plan, *profile.kernel);
    KernelReplayOptions options;
    options.expected = expected_fates(r->model);
    r->kernel = run_on_kernel(r->plan, options);
    r->report = compare_replay(r->plan, r->model, r->kernel, profile);
    return r;
}

int open_fd_count()
{
    int n = 0;
    for ([[maybe_unused]] const auto &e : std::filesystem::directory_iterator("/proc/self/fd"))
        ++n;
    return n;
}

// The dgram variant of a stream selftest scene: the selftest's "dgram" fixture with the same
// send_fd() sequence (scm_rights.c runs every test under every variant).
std::string as_dgram(std::string text)
{
    for (std::size_t at; (at = text.find("p$i stream")) != std::string::npos;)
        text.replace(at, 10, "p$i dgram");
    return text;
}

struct CliResult {
    int exit_code = -1;
    QString out, err;
};

CliResult run_program(const QString &program, const QStringList &args, int timeout_ms = 120000)
{
    QProcess p;
    p.start(program, args);
    CliResult r;
    if (!p.waitForFinished(timeout_ms)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.exit_code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QString cli() { return QStringLiteral(INFLIGHT_CLI); }

// The processes whose parent is `parent`, from /proc/PID/stat (the field after the command).
std::vector<pid_t> children_of(pid_t parent)
{
    std::vector<pid_t> out;
    std::error_code ec;
    for (const auto &e : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        const std::string stat = read_text(QString::fromStdString(e.path().string() + "/stat"));
        const auto close = stat.rfind(')');
        if (close == std::string::npos)
            continue;
        char state = 0;
        int ppid = 0;
        if (std::sscanf(stat.c_str() + close + 1, " %c %d", &state, &ppid) == 2 && ppid == parent)
            out.push_back(static_cast<pid_t>(std::stoi(name)));
    }
    return out;
}

// Gone: no such process, or a zombie (dead, waiting for whoever reaps orphans).
bool process_gone(pid_t pid)
{
    const std::string stat = read_text(QStringLiteral("/proc/%1/stat").arg(pid));
    const auto close = stat.rfind(')');
    return close == std::string::npos || stat.find(" Z ", close) == close + 1;
}

// A replay long enough to be caught running: every gc waits for the socket set to settle.
QString slow_replay_scene(const QTemporaryDir &dir)
{
    const QString path = dir.filePath(QStringLiteral("slow.scn"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    QByteArray text = "scene \"slow\"\nsocketpair a b\nsend a fds=b\nclose b\n";
    for (int i = 0; i < 1000; ++i)
        text += "gc\n";
    f.write(text);
    return path;
}

} // namespace

class TestReplay : public QObject {
    Q_OBJECT

private slots:
    void profiles()
    {
        QCOMPARE(profile_for_release("6.18.44-fc-v669").era, GcEra::graph);
        QCOMPARE(profile_for_release("6.10.0").era, GcEra::graph);
        QCOMPARE(profile_for_release("6.9.12").era, GcEra::async);
        QCOMPARE(profile_for_release("6.8.0-45-generic").era, GcEra::classic);
        QCOMPARE(profile_for_release("6.1.192").era, GcEra::graph); // the 2025 stable backport
        QCOMPARE(profile_for_release("6.1.100").era, GcEra::classic);
        QCOMPARE(profile_for_release("6.6.93").era, GcEra::graph);
        QCOMPARE(profile_for_release("5.10.262").era, GcEra::classic);
        QCOMPARE(profile_for_release("7.0.1").era, GcEra::graph);
        QVERIFY(!profile_for_release("6.18.44").unify_scc_index);
        // Each release is modelled by the newest profile at or below it.
        QCOMPARE(QString::fromLatin1(profile_for_release("6.17.13").kernel->name.data(), 4), QStringLiteral("6.17"));
        QVERIFY(profile_for_release("6.17.13").kernel->changes.has(KernelChange::so_passrights)); // since 6.16
        QCOMPARE(QString::fromLatin1(profile_for_release("6.16.2").kernel->name.data(), 4), QStringLiteral("6.12"));
        QCOMPARE(QString::fromLatin1(profile_for_release("7.1.13").kernel->name.data(), 3), QStringLiteral("7.0"));
        QVERIFY(!profile_for_release("7.1.13").unify_scc_index); // mixed_lowpoint leaks on 7.1.13
        QCOMPARE(QString::fromLatin1(profile_for_release("6.1.100").kernel->name.data(), 3), QStringLiteral("6.8"));
        QCOMPARE(QString::fromLatin1(profile_for_release("5.10.262").kernel->name.data(), 4), QStringLiteral("5.10"));
        // 4.4 as released has the old order of unix_gc()'s last two steps; 4.19 has the new one.
        QCOMPARE(QString::fromLatin1(profile_for_release("4.4.0").kernel->name.data(), 3), QStringLiteral("4.4"));
        QCOMPARE(QString::fromLatin1(profile_for_release("4.19.316").kernel->name.data(), 4), QStringLiteral("5.10"));
        // Debian names the ABI in uname -r; uname -v has the upstream version.
        QCOMPARE(
            profile_for_release("6.1.0-50-cloud-amd64", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.176-1 (2025-10-15)").era,
            GcEra::graph);
        QCOMPARE(profile_for_release("6.1.0-50-cloud-amd64", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.100-1").era,
                 GcEra::classic);
        QCOMPARE(profile_for_release("6.1.0-50-cloud-amd64", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.176-1").patch, 176);
        // Ubuntu noble's 6.8 carries the graph collector from 6.8.0-98 (the 6.6.93 backport).
        const ReleaseProfile noble = profile_for_release("6.8.0-151-generic", "#151-Ubuntu SMP PREEMPT_DYNAMIC");
        QCOMPARE(noble.era, GcEra::graph);
        QCOMPARE(QString::fromLatin1(noble.kernel->name.data(), 3), QStringLiteral("6.6"));
        QCOMPARE(profile_for_release("6.8.0-83-generic", "#83-Ubuntu SMP").era, GcEra::classic);
        QCOMPARE(profile_for_release("5.15.0-204-generic", "#214-Ubuntu SMP").era, GcEra::classic);
    }

    void scenes_agree_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("dgram");
        // Every selftest scene (self_ref, triangle, cross_edge, backtrack_from_scc,
        // mixed_lowpoint; stream, dgram, listener, oob, disabled variants)...
        const QStringList selftests =
            QDir(source_path(QStringLiteral("scenes"))).entryList({QStringLiteral("selftest-*.scn")}, QDir::Files);
        for (const QString &f : selftests)
            QTest::newRow(qPrintable(f)) << QStringLiteral("scenes/") + f << false;
        // ... the dgram variants the scenes directory has no file for ...
        for (const char *f : {"selftest-cross-edge-stream.scn", "selftest-backtrack-from-scc-stream.scn",
                              "selftest-mixed-lowpoint-stream.scn"})
            QTest::newRow(qPrintable(QStringLiteral("dgram of ") + QLatin1String(f)))
                << QStringLiteral("scenes/") + QLatin1String(f) << true;
        // ... and scenes that use recv (fds mapped back), dup, errnos, embryos with fds.
        for (const char *f :
             {"passrights-off.scn", "cycle-broken-by-recv.scn", "chain-freed-without-gc.scn", "embryo-carrying-fds.scn",
              "msg-peek-keeps-cycle-alive.scn", "close-of-dup-triggers-nothing.scn", "cycle-kept-alive-by-open-fd.scn"})
            QTest::newRow(f) << QStringLiteral("scenes/") + QLatin1String(f) << false;
    }

    void scenes_agree()
    {
        INFLIGHT_REQUIRE_NETWORK_NAMESPACE();
        QFETCH(QString, file);
        QFETCH(bool, dgram);
        std::string text = read_text(source_path(file));
        QVERIFY2(!text.empty(), qPrintable(file));
        if (dgram)
            text = as_dgram(text);
        auto r = replay_text(text, file.toStdString());
        QVERIFY(r);
        const std::vector<std::string> problems = format_problems(r->plan);
        QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
        QVERIFY2(r->kernel.ran, r->kernel.failure.c_str());
        QVERIFY(!r->kernel.observations.empty());
        // The same sockets on both sides, under the same labels (embryos included).
        QCOMPARE(r->kernel.labels.size(), r->model.labels.size());
        const std::string text_report = replay_report_text(r->report);
        QVERIFY2(r->report.agrees(), text_report.c_str());
        QCOMPARE(r->report.sockets_agree(), r->report.sockets.size());
        // Not vacuous: the replay saw sockets freed and sockets alive over the run.
        bool saw_freed = false, saw_alive = false;
        for (const KernelObservation &o : r->kernel.observations)
            for (const auto &[label, alive] : o.alive)
                (alive ? saw_alive : saw_freed) = true;
        QVERIFY2(saw_freed && saw_alive, text_report.c_str());
        if (file.contains(QStringLiteral("mixed-lowpoint-stream")) &&
            profile_for_release(running_kernel_release()).era == GcEra::graph) {
            // What the graph kernels do without the scc_index fix: both SCCs leak, and stay.
            const std::vector<std::string> leaked{"u0", "u1", "u2", "u3", "u4", "u5"};
            QCOMPARE(r->report.leaked_on_kernel, leaked);
            QVERIFY(text_report.find("leaked on this kernel: u0 u1 u2 u3 u4 u5") != std::string::npos);
        } else {
            QVERIFY2(r->report.leaked_on_kernel.empty(), text_report.c_str());
        }
    }

    void selftests_present()
    {
        // The agreement test above covers every selftest graph, as the issue asks.
        const QStringList files =
            QDir(source_path(QStringLiteral("scenes"))).entryList({QStringLiteral("selftest-*.scn")}, QDir::Files);
        for (const char *name : {"self-ref-stream", "self-ref-dgram", "triangle-stream", "triangle-dgram",
                                 "cross-edge-stream", "backtrack-from-scc-stream", "mixed-lowpoint-stream"})
            QVERIFY2(files.contains(QStringLiteral("selftest-%1.scn").arg(QLatin1String(name))), name);
    }

    void processes_users_and_limits()
    {
        // etoomanyrefs.scn: process p of user alice under RLIMIT_NOFILE 64 fills its in-flight
        // allowance, then every send with fds fails with ETOOMANYREFS; main (root) is exempt.
        const std::string text = read_text(source_path(QStringLiteral("scenes/etoomanyrefs.scn")));
        if (geteuid() != 0) {
            // One uid only in an unprivileged user namespace: refused at the `user` line.
            ParseResult parsed = parse_scene(text, "etoomanyrefs.scn");
            const ReplayPlan plan = plan_replay(parsed.scene, false);
            QVERIFY(!plan.ok());
            QCOMPARE(plan.problems.front().loc.line, 8u); // `user alice`
            return;
        }
        INFLIGHT_REQUIRE_NETWORK_NAMESPACE();
        auto r = replay_text(text, "etoomanyrefs.scn");
        QVERIFY(r);
        QVERIFY2(r->kernel.ran, r->kernel.failure.c_str());
        QVERIFY2(r->report.agrees(), replay_report_text(r->report).c_str());
        std::size_t toomanyrefs = 0, sends_ok = 0;
        for (std::size_t k = 0; k < r->plan.steps.size(); ++k) {
            if (r->plan.steps[k].op != Op::send)
                continue;
            toomanyrefs += r->kernel.steps[k].error == "ETOOMANYREFS";
            sends_ok += r->kernel.steps[k].error.empty();
        }
        QCOMPARE(toomanyrefs, std::size_t(2));
        QCOMPARE(sends_ok, std::size_t(65 + 1 + 100));
    }

    // A recv brings in every socket its message carries, whatever the scene named (or did not
    // name) them: the model's list is what was installed, as the kernel side records inodes.
    void model_lists_every_socket_a_recv_brings()
    {
        ParseResult parsed = parse_scene("socketpair a b\nsocketpair c d\nsend a fds=c,d\nrecv b\n"
                                         "send a fds=c\nrecv b fds=x\nrecv b\n",
                                         "recv.scn");
        QVERIFY(parsed.ok());
        const ReplayPlan plan = plan_replay(parsed.scene, false);
        const ModelTrace model = trace_model(parsed.scene, plan, *kernel_profile_by_name("6.18"));
        std::vector<std::vector<std::string>> received;
        for (std::size_t k = 0; k < plan.steps.size(); ++k)
            if (plan.steps[k].op == Op::recv)
                received.push_back(model.received[k]);
        const std::vector<std::vector<std::string>> want{{"c", "d"}, {"c"}, {}};
        QCOMPARE(received, want);
    }

    // The socket layer's answers once a peer is gone agree with the kernel's: a reset read
    // once, end of file after it, EPIPE on a send; recv without fds= names what it received.
    void peer_gone_and_unnamed_fds_agree_with_the_kernel()
    {
        INFLIGHT_REQUIRE_NETWORK_NAMESPACE();
        auto r = replay_text("socketpair a b\nsend b\nsend a\nclose b\nrecv a\nrecv a\nexpect error ECONNRESET\n"
                             "recv a\nsend a\nexpect error EPIPE\n"
                             "socketpair c d seqpacket\nsend c\nsend d\nclose d\nrecv c\nexpect error ECONNRESET\n"
                             "recv c\nrecv c\nsend c\nexpect error EPIPE\n"
                             "socketpair e f\nsocketpair g h\nsend e fds=g,h\nrecv f\n",
                             "peer-gone.scn");
        QVERIFY(r);
        QVERIFY2(r->kernel.ran, r->kernel.failure.c_str());
        const std::string text_report = replay_report_text(r->report);
        QVERIFY2(r->report.agrees(), text_report.c_str());
        QCOMPARE(r->report.statements_agree, r->report.statements);
        QVERIFY(r->report.statements >= 15);
    }

    void replay_reports_a_difference()
    {
        INFLIGHT_REQUIRE_NETWORK_NAMESPACE();
        // The classic model frees mixed_lowpoint; this kernel's era is what decides, so compare
        // with the era that is wrong for it, and expect the difference located at the close.
        if (profile_for_release(running_kernel_release()).era != GcEra::graph)
            QSKIP("this assertion needs a graph-era kernel (6.10+, or a backport); the running kernel is not one");
        const CliResult r = run_program(
            cli(), {QStringLiteral("replay"), source_path(QStringLiteral("scenes/selftest-mixed-lowpoint-stream.scn")),
                    QStringLiteral("--gc"), QStringLiteral("classic")});
        QCOMPARE(r.exit_code, 1);
        QVERIFY2(r.out.contains(QStringLiteral("selftest-mixed-lowpoint-stream.scn:28: close p0 p1 p2 p3 p4 p5")),
                 qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("sockets u0 u1 u2 u3 u4 u5: model freed, kernel alive")));
        QVERIFY(r.out.contains(QStringLiteral("agrees on 6 of 12 sockets; they differ")));
        QVERIFY(r.out.contains(QStringLiteral("leaked on this kernel: u0 u1 u2 u3 u4 u5")));

        const CliResult j = run_program(
            cli(), {QStringLiteral("replay"), source_path(QStringLiteral("scenes/selftest-mixed-lowpoint-stream.scn")),
                    QStringLiteral("--json")});
        QCOMPARE(j.exit_code, 0);
        const QJsonObject o = QJsonDocument::fromJson(j.out.toUtf8()).object();
        QCOMPARE(o.value(QStringLiteral("agrees")).toBool(), true);
        QCOMPARE(o.value(QStringLiteral("sockets")).toArray().size(), 12);
        QCOMPARE(o.value(QStringLiteral("leaked_on_kernel")).toArray().size(), 6);
        QVERIFY(o.value(QStringLiteral("summary")).toString().contains(QStringLiteral("agrees on 12 of 12 sockets")));
    }

    void cannot_replay_lists_lines()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("timed.scn"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("scene \"not for a real kernel\"\n" // 1
                "set cpus 2\n"                      // 2
                "set cost syscall 500\n"            // 3
                "socketpair a b\n"                  // 4
                "spawn t cpu=1 {\n"                 // 5
                "  send a fds=b\n"                  // 6
                "}\n"                               // 7
                "wait t\n"                          // 8
                "splice a bytes=4096\n"             // 9
                "close a b\n");                     // 10
        f.close();
        const CliResult r = run_program(cli(), {QStringLiteral("replay"), path});
        QCOMPARE(r.exit_code, 2);
        for (int line : {2, 3, 5, 8, 9})
            QVERIFY2(
                r.err.contains(QStringLiteral("timed.scn:%1:").arg(line) + QLatin1String("1: error: cannot replay")),
                qPrintable(QString::number(line) + QStringLiteral(": ") + r.err));
        QVERIFY(!r.err.contains(QStringLiteral("timed.scn:4:")));
        QVERIFY(r.err.contains(QStringLiteral("nothing was run")));
        QVERIFY(r.out.isEmpty());

        // --json lists the same lines.
        const CliResult j = run_program(cli(), {QStringLiteral("replay"), path, QStringLiteral("--json")});
        QCOMPARE(j.exit_code, 2);
        const QJsonArray list =
            QJsonDocument::fromJson(j.out.toUtf8()).object().value(QStringLiteral("cannot_replay")).toArray();
        QCOMPARE(list.size(), 5);
        QCOMPARE(list.at(0).toObject().value(QStringLiteral("line")).toInt(), 2);

        // A fill too big for a host: refused at the repeat, before anything is unrolled.
        ParseResult big = parse_scene("repeat 1000000 {\n  socketpair a$i b$i\n}\n", "fill.scn");
        QVERIFY(big.ok());
        const ReplayPlan plan = plan_replay(big.scene, true);
        QVERIFY(!plan.ok());
        QCOMPARE(plan.problems.front().loc.line, 1u);
        QVERIFY(plan.steps.empty());
        const KernelRun refused = run_on_kernel(plan);
        QVERIFY(!refused.ran);
    }

    void replay_leaves_nothing_open()
    {
        INFLIGHT_REQUIRE_NETWORK_NAMESPACE();
        const std::string text = read_text(source_path(QStringLiteral("scenes/selftest-triangle-listener.scn")));
        const int before = open_fd_count();
        const auto netns_before = std::filesystem::read_symlink("/proc/self/ns/net");
        auto r = replay_text(text, "selftest-triangle-listener.scn");
        QVERIFY(r);
        QVERIFY2(r->kernel.ran, r->kernel.failure.c_str());
        QCOMPARE(open_fd_count(), before);
        // Every child (the namespace's coordinator and its scene processes) has been reaped.
        errno = 0;
        QCOMPARE(waitpid(-1, nullptr, WNOHANG), -1);
        QCOMPARE(errno, ECHILD);
        // The namespace was the child's: this process is still in the one it started in.
        QVERIFY(r->kernel.isolation.find("network namespace") != std::string::npos);
        QCOMPARE(std::filesystem::read_symlink("/proc/self/ns/net"), netns_before);
    }

    // kill -9 of `inflight-cli replay` takes its namespace's coordinator and scene processes with it.
    void killed_replay_leaves_no_process()
    {
        INFLIGHT_REQUIRE_NETWORK_NAMESPACE();
        QTemporaryDir dir;
        const QString scene = slow_replay_scene(dir);
        QVERIFY(!scene.isEmpty());
        QProcess p;
        p.start(cli(), {QStringLiteral("replay"), scene});
        QVERIFY(p.waitForStarted());
        const auto cli_pid = static_cast<pid_t>(p.processId());
        // The coordinator (the CLI's child) and its scene process (the worker, its child).
        std::vector<pid_t> coordinator, workers;
        QTRY_VERIFY_WITH_TIMEOUT((coordinator = children_of(cli_pid)).size() == 1 &&
                                     !(workers = children_of(coordinator.front())).empty(),
                                 20000);
        p.kill(); // SIGKILL: no handler runs
        QVERIFY(p.waitForFinished());
        QTRY_VERIFY_WITH_TIMEOUT(process_gone(coordinator.front()), 10000);
        for (const pid_t w : workers)
            QTRY_VERIFY_WITH_TIMEOUT(process_gone(w), 10000);
    }

    // A replay whose caller gives up (the window that asked for it closed) ends at once, and
    // what it started ends with it.
    void cancelled_replay_ends_with_its_processes()
    {
        std::atomic<bool> cancel{true};
        KernelReplayOptions options;
        options.cancel = &cancel;
        ParseResult pair = parse_scene("socketpair a b\n", "pair.scn");
        QVERIFY(pair.ok());
        const ReplayPlan now = plan_replay(pair.scene, geteuid() == 0);
        QVERIFY(now.ok());
        const KernelRun before = run_on_kernel(now, options); // cancelled before it started
        QVERIFY(!before.ran);
        QCOMPARE(before.failure, std::string("the replay was cancelled"));

        INFLIGHT_REQUIRE_NETWORK_NAMESPACE();
        QTemporaryDir dir;
        const QString scene = slow_replay_scene(dir);
        QVERIFY(!scene.isEmpty());
        ParseResult slow = load_scene_file(scene.toStdString());
        QVERIFY(slow.ok());
        const ReplayPlan plan = plan_replay(slow.scene, geteuid() == 0);
        QVERIFY(plan.ok());
        cancel = false;
        KernelRun run;
        std::vector<pid_t> coordinator;
        {
            std::thread replay([&] { run = run_on_kernel(plan, options); });
            // Cancels and joins however the block is left (a failed wait returns from here).
            struct CancelAndJoin {
                std::atomic<bool> &cancel;
                std::thread &thread;
                ~CancelAndJoin()
                {
                    cancel = true;
                    thread.join();
                }
            } end{cancel, replay};
            QTRY_VERIFY_WITH_TIMEOUT(!(coordinator = children_of(getpid())).empty(), 20000);
        }
        QVERIFY(!run.ran);
        QCOMPARE(run.failure, std::string("the replay was cancelled"));
        for (const pid_t child : coordinator)
            QVERIFY(process_gone(child)); // killed and reaped before run_on_kernel returned
    }

    // --timeout bounds the whole replay; what it started ends with it.
    void replay_timeout_bounds_the_run()
    {
        INFLIGHT_REQUIRE_NETWORK_NAMESPACE();
        QTemporaryDir dir;
        const QString scene = slow_replay_scene(dir);
        QVERIFY(!scene.isEmpty());
        const CliResult r =
            run_program(cli(), {QStringLiteral("replay"), scene, QStringLiteral("--timeout"), QStringLiteral("1")});
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("error: the replay did not finish in 1 s")), qPrintable(r.err));
        const CliResult bad =
            run_program(cli(), {QStringLiteral("replay"), scene, QStringLiteral("--timeout"), QStringLiteral("0")});
        QCOMPARE(bad.exit_code, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("--timeout needs a number of seconds")), qPrintable(bad.err));
        // A number with anything after it is no number.
        const CliResult trailing = run_program(
            cli(), {QStringLiteral("replay"), scene, QStringLiteral("--stable-ms"), QStringLiteral("50abc")});
        QCOMPARE(trailing.exit_code, 2);
        QVERIFY2(trailing.err.contains(QStringLiteral("--stable-ms needs a number of milliseconds")),
                 qPrintable(trailing.err));
    }

    // A failure text that is not UTF-8 (here a path from the command line) is still valid JSON.
    void replay_json_error_is_utf8()
    {
        const QString scene = source_path(QStringLiteral("scenes/selftest-self-ref-stream.scn"));
        const CliResult r = run_program(
            QStringLiteral("/bin/sh"),
            {QStringLiteral("-c"), QStringLiteral("exec \"$0\" replay --json --vm \"$(printf '/x/\\377')\" \"$1\""),
             cli(), scene});
        QCOMPARE(r.exit_code, 2);
        QJsonParseError e;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &e);
        QVERIFY2(e.error == QJsonParseError::NoError, qPrintable(r.out + r.err));
        QVERIFY2(
            doc.object().value(QStringLiteral("error")).toString().startsWith(QStringLiteral("no kernel image at /x/")),
            qPrintable(r.out));
        // The terminal gets the byte named, not sent.
        QVERIFY2(r.err.contains(QStringLiteral("/x/\\xFF")), qPrintable(r.err));
    }

    void vm_without_a_kernel_image_says_so()
    {
        const CliResult r = run_program(cli(), {QStringLiteral("replay"),
                                                source_path(QStringLiteral("scenes/selftest-self-ref-stream.scn")),
                                                QStringLiteral("--vm"), QStringLiteral("/nonexistent/vmlinuz")});
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("error: no kernel image at /nonexistent/vmlinuz")), qPrintable(r.err));
    }

    void export_c_passes_data()
    {
        QTest::addColumn<QString>("file");
        const QStringList selftests =
            QDir(source_path(QStringLiteral("scenes"))).entryList({QStringLiteral("selftest-*.scn")}, QDir::Files);
        for (const QString &f : selftests)
            QTest::newRow(qPrintable(f)) << QStringLiteral("scenes/") + f;
    }

    void export_c_passes()
    {
        INFLIGHT_REQUIRE_NETWORK_NAMESPACE();
        QFETCH(QString, file);
        QTemporaryDir dir;
        const QString c = dir.filePath(QStringLiteral("scene.c")), exe = dir.filePath(QStringLiteral("scene"));
        const CliResult e =
            run_program(cli(), {QStringLiteral("export-c"), source_path(file), QStringLiteral("-o"), c});
        QCOMPARE(e.exit_code, 0);
        QVERIFY(QFile::exists(c));
        QVERIFY(compile(c, exe));
        const CliResult run = run_program(exe, {});
        QVERIFY2(run.exit_code == 0, qPrintable(run.out + run.err));
        QVERIFY(run.out.contains(QStringLiteral("ok: the kernel agrees with the model")));
    }

    void export_c_fails_on_a_mismatch()
    {
        INFLIGHT_REQUIRE_NETWORK_NAMESPACE();
        // The classic model is wrong for mixed_lowpoint on a graph kernel: the program must say
        // so with FAIL lines and exit 1.
        if (profile_for_release(running_kernel_release()).era != GcEra::graph)
            QSKIP("this assertion needs a graph-era kernel (6.10+, or a backport); the running kernel is not one");
        QTemporaryDir dir;
        const QString c = dir.filePath(QStringLiteral("scene.c")), exe = dir.filePath(QStringLiteral("scene"));
        const CliResult e =
            run_program(cli(), {QStringLiteral("export-c"),
                                source_path(QStringLiteral("scenes/selftest-mixed-lowpoint-stream.scn")),
                                QStringLiteral("--gc"), QStringLiteral("classic"), QStringLiteral("-o"), c});
        QCOMPARE(e.exit_code, 0);
        QVERIFY(compile(c, exe));
        const CliResult run = run_program(exe, {});
        QCOMPARE(run.exit_code, 1);
        QVERIFY2(run.out.contains(QStringLiteral("FAIL line 28: after close p0 p1 p2 p3 p4 p5: socket u0 is alive, "
                                                 "the model says freed")),
                 qPrintable(run.out));
    }

    void export_c_refuses_what_it_cannot_write()
    {
        const CliResult r = run_program(
            cli(), {QStringLiteral("export-c"), source_path(QStringLiteral("scenes/seed-splice-checksum.scn"))});
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("error: cannot export")), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

private:
    // The system compiler, static where a static libc is installed (as the issue asks), else
    // dynamic; warnings are errors, so the generated C stays clean.
    static bool compile(const QString &c, const QString &exe)
    {
        const QStringList flags = {QStringLiteral("-O2"),
                                   QStringLiteral("-Wall"),
                                   QStringLiteral("-Wextra"),
                                   QStringLiteral("-Werror"),
                                   QStringLiteral("-o"),
                                   exe,
                                   c};
        CliResult r = run_program(QStringLiteral("cc"), QStringList{QStringLiteral("-static")} + flags);
        if (r.exit_code != 0 && r.err.contains(QStringLiteral("cannot find -lc"))) {
            qInfo("no static libc here: compiling dynamically");
            r = run_program(QStringLiteral("cc"), flags);
        }
        if (r.exit_code != 0)
            qWarning("%s", qPrintable(r.err));
        return r.exit_code == 0;
    }
};

QTEST_GUILESS_MAIN(TestReplay)
#include "test_replay.moc"
