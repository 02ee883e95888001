// SPDX-License-Identifier: GPL-3.0-or-later
// The project's scenes (scenes/*.scn) as tests: every scene is run under every collector its
// `set collectors` line lists, with the model's invariants checked after every micro-step, and
// must end with every expectation met, no finding and no unexpected syscall failure. The CLI is
// checked to report the same through its exit status.

#include "inflight/diagnostic.hpp"
#include "inflight/gc_era.hpp"
#include "inflight/kernel.hpp"
#include "inflight/parser.hpp"
#include "inflight/scene.hpp"
#include "inflight/simulation.hpp"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace inflight;

namespace {

void collect_expect_finding_lines(const std::vector<inflight::Statement> &list, std::set<std::uint32_t> &lines)
{
    for (const inflight::Statement &st : list) {
        if (st.op == inflight::Op::expect_finding)
            lines.insert(st.loc.line);
        collect_expect_finding_lines(st.body, lines);
    }
}

constexpr int kMinScenes = 10;

QString scenes_dir() { return QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes"); }

// Every scenes/*.scn and the bug gallery's scenes/bugs/*.scn, sorted by name.
QStringList scene_files()
{
    QStringList out;
    for (const QString &sub : {QString(), QStringLiteral("bugs")}) {
        const QDir dir(scenes_dir() + QLatin1Char('/') + sub);
        for (const QString &name : dir.entryList({QStringLiteral("*.scn")}, QDir::Files, QDir::Name))
            out << dir.filePath(name);
    }
    return out;
}

std::string read_text(const QString &path)
{
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string diagnostics_text(const std::vector<Diagnostic> &ds)
{
    std::string out;
    for (const auto &d : ds)
        out += d.format() + "\n";
    return out;
}

// One scene file, parsed, with the collectors its expectations hold for.
struct LoadedScene {
    std::string text; // the text that was parsed
    ParseResult parsed;
    std::vector<GcEra> collectors;
    std::string error; // why the scene cannot be run; empty when it can
};

LoadedScene load(const QString &path)
{
    LoadedScene s;
    s.text = read_text(path);
    const std::string file = path.toStdString();
    s.parsed = parse_scene(s.text, file);
    s.collectors = s.parsed.scene.settings.collectors;
    if (!s.parsed.ok()) {
        s.error = "the scene does not parse:\n" + diagnostics_text(s.parsed.diagnostics);
        return s;
    }
    if (!s.parsed.diagnostics.empty()) {
        s.error = "the scene has warnings:\n" + diagnostics_text(s.parsed.diagnostics);
        return s;
    }
    if (s.collectors.empty() && s.parsed.scene.settings.collector_kernels.empty()) {
        s.error = "no 'set collectors' line: every scene must say which collectors its expectations hold for";
        return s;
    }
    // The scene as written (its own `set gc` / `set kernel`) must be one of the runs.
    const KernelProfile &own = run_profile(s.parsed.scene.settings, SimulationOptions{});
    if (!written_for(s.parsed.scene.settings, own))
        s.error = "the scene's own kernel (" + std::string(own.name) + ") is not one of its collectors (" +
                  collectors_text(s.parsed.scene.settings) + ")";
    return s;
}

// The variants a scene's expectations name (expect buggy alive a): each is run as its own case.
void variants_expected(const std::vector<Statement> &statements, QStringList &out)
{
    for (const Statement &s : statements) {
        for (const std::string &v : s.only_variants)
            if (s.op != Op::note && !out.contains(QString::fromStdString(v)))
                out << QString::fromStdString(v);
        variants_expected(s.body, out);
    }
}

QByteArray row_name(const QString &path, const char *what)
{
    return (QFileInfo(path).fileName() + "/" + QString::fromLatin1(what)).toUtf8();
}

} // namespace

class TestScenes : public QObject {
    Q_OBJECT

private slots:
    // The scenes directory is found and holds the project's scenes.
    void sceneCount()
    {
        const QStringList files = scene_files();
        QVERIFY2(files.size() >= kMinScenes, qPrintable(QString("found %1 scenes under %2, expected at least %3")
                                                            .arg(files.size())
                                                            .arg(scenes_dir())
                                                            .arg(kMinScenes)));
    }

    // Every scene under every collector it lists.
    void runScene_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("kernel");  // a kernel profile; empty when the scene cannot be run
        QTest::addColumn<QString>("variant"); // a variant its expectations name, run as it says
        QTest::addColumn<QString>("error");
        for (const QString &path : scene_files()) {
            const LoadedScene s = load(path);
            if (!s.error.empty()) {
                QTest::newRow(row_name(path, "load").constData())
                    << path << QString() << QString() << QString::fromStdString(s.error);
                continue;
            }
            // Each era named as the profile it stands for, then each kernel profile named.
            QStringList kernels;
            for (GcEra era : s.collectors) {
                SimulationOptions o;
                o.era = era;
                const std::string_view name = run_profile(s.parsed.scene.settings, o).name;
                kernels << QString::fromLatin1(name.data(), qsizetype(name.size()));
            }
            for (const std::string &k : s.parsed.scene.settings.collector_kernels)
                kernels << QString::fromStdString(k);
            kernels.removeDuplicates();
            for (const QString &k : kernels)
                QTest::newRow(row_name(path, k.toUtf8().constData()).constData())
                    << path << k << QString() << QString();
            QStringList variants;
            variants_expected(s.parsed.scene.statements, variants);
            for (const QString &v : variants)
                QTest::newRow(row_name(path, ("variant " + v).toUtf8().constData()).constData())
                    << path << QString() << v << QString();
        }
    }

    void runScene()
    {
        QFETCH(QString, path);
        QFETCH(QString, kernel);
        QFETCH(QString, variant);
        QFETCH(QString, error);
        QVERIFY2(error.isEmpty(), qPrintable(error));

        LoadedScene s = load(path);
        QVERIFY2(s.parsed.ok(), diagnostics_text(s.parsed.diagnostics).c_str());

        // Every scene is first run fast-forwarded; one small enough is then run again with the
        // invariants checked after every micro-step (a 32,000-socket seed scene would take hours).
        constexpr std::uint64_t kCheckedStepBudget = 2'000'000;
        auto copy = std::make_shared<Scene>(s.parsed.scene);
        SimulationOptions fast;
        if (variant.isEmpty()) {
            fast.kernel = kernel_profile_by_name(kernel.toStdString());
            QVERIFY(fast.kernel);
        } else { // the variant's own settings, its kernel and fixes included
            auto v = std::find_if(copy->variants.begin(), copy->variants.end(),
                                  [&](const SceneVariant &x) { return QString::fromStdString(x.name) == variant; });
            QVERIFY2(v != copy->variants.end(), "expectations name a variant the scene does not have");
            copy->settings = v->settings;
        }
        auto scene = std::shared_ptr<const Scene>(copy);
        fast.checked = false;
        fast.record = false;
        fast.fast_forward = true;
        auto quick = std::make_unique<Simulation>(scene, fast);
        quick->run();
        std::unique_ptr<Simulation> checked_run;
        // The per-step checks walk every object: budget steps x sockets.
        const std::uint64_t work = quick->kernel().micro_steps_total * (quick->kernel().socks.size() + 1);
        if (quick->kernel().micro_steps_total < kCheckedStepBudget && work < 2'000'000'000ULL) {
            SimulationOptions options;
            options.kernel = fast.kernel;
            options.checked = true;
            options.record = false;
            checked_run = std::make_unique<Simulation>(scene, options);
            checked_run->run();
            // Fast-forwarding changes what is handed out, never what happens or when.
            QCOMPARE(checked_run->now_ns(), quick->now_ns());
            QCOMPARE(checked_run->kernel().gc_runs.size(), quick->kernel().gc_runs.size());
        }
        const Simulation &sim = checked_run ? *checked_run : *quick;

        std::string findings;
        for (const auto &f : sim.kernel().findings)
            findings += f.invariant + ": " + f.message + "\n";
        // A bug's scene may catch its bug: its `expect finding` lines name what it expects (and
        // fail if it is not found); any other scene must end with none.
        std::set<std::uint32_t> finding_lines;
        collect_expect_finding_lines(scene->statements, finding_lines);
        const bool expects_findings =
            std::any_of(sim.expectations().begin(), sim.expectations().end(),
                        [&](const ExpectationOutcome &e) { return finding_lines.count(e.line) != 0; });
        if (!expects_findings)
            QVERIFY2(sim.kernel().findings.empty(), ("invariant findings:\n" + findings).c_str());
        QVERIFY2(!sim.stopped_by_finding(), "the run stopped at a finding");
        QVERIFY(sim.finished());
        // Every task ran to its end: none was left asleep (a reader nobody writes to).
        for (const Task &t : sim.kernel().tasks)
            QVERIFY2(t.finished || t.kworker, ("task " + t.name + " did not finish").c_str());

        // A syscall failure must be matched by `expect error`; otherwise it is a warning.
        std::string warnings;
        for (const auto &w : sim.warnings())
            warnings += path.toStdString() + ":" + std::to_string(w.line) + ": " + w.message + "\n";
        QVERIFY2(sim.warnings().empty(), ("unexpected failures:\n" + warnings).c_str());

        QVERIFY2(!sim.expectations().empty(), "the scene checks nothing: it has no expect line");
        std::string failed;
        for (const auto &e : sim.expectations())
            if (!e.passed)
                failed += path.toStdString() + ":" + std::to_string(e.line) + ": " + e.message + "\n";
        QVERIFY2(sim.expectations_failed() == 0, ("failed expectations:\n" + failed).c_str());
    }

    // The CLI reports the same result through its exit status: 0 when every expectation holds,
    // 1 when one fails.
    void cliExitStatus_data()
    {
        QTest::addColumn<QString>("path"); // empty: write the failing scene below
        QTest::addColumn<QString>("era");
        QTest::addColumn<int>("status");
        const QStringList picks = {QStringLiteral("selftest-triangle-stream.scn"),
                                   QStringLiteral("selftest-mixed-lowpoint-stream.scn"),
                                   QStringLiteral("cycle-kept-alive-by-open-fd.scn")};
        for (const QString &name : picks) {
            const QString path = QDir(scenes_dir()).filePath(name);
            if (!QFile::exists(path)) {
                QTest::newRow(row_name(path, "missing").constData()) << path << QString() << -1;
                continue;
            }
            const LoadedScene s = load(path);
            if (!s.error.empty()) {
                QTest::newRow(row_name(path, "load").constData()) << path << QString() << -1;
                continue;
            }
            for (GcEra era : s.collectors) {
                const QString e = QString::fromLatin1(era_name(era).data(), era_name(era).size());
                QTest::newRow(row_name(path, era_name(era).data()).constData()) << path << e << 0;
            }
        }
        for (const char *e : {"classic", "async", "graph"})
            QTest::newRow((QByteArray("false-expectation/") + e).constData()) << QString() << QString(e) << 1;
    }

    void cliExitStatus()
    {
        QFETCH(QString, path);
        QFETCH(QString, era);
        QFETCH(int, status);
        QVERIFY2(status >= 0, qPrintable("cannot use " + path + " (missing or not loadable)"));

        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        QString file = path;
        if (path.isEmpty()) {
            // A cycle that nothing keeps alive, freed by the collection: `expect alive` is false.
            file = tmp.filePath(QStringLiteral("false-expectation.scn"));
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("scene \"A false expectation\"\n"
                    "socketpair a b\n"
                    "socketpair c d\n"
                    "send b fds=c\n"
                    "send d fds=a\n"
                    "close a b c d\n"
                    "gc\n"
                    "expect alive a c\n");
        }

        QProcess cli;
        cli.start(QStringLiteral(INFLIGHT_CLI), {"run", file, "--check", "--gc", era});
        QVERIFY2(cli.waitForFinished(60000), "inflight-cli did not finish");
        const QString out = QString::fromUtf8(cli.readAllStandardOutput() + cli.readAllStandardError());
        QVERIFY2(cli.exitStatus() == QProcess::NormalExit, qPrintable("inflight-cli crashed:\n" + out));
        QVERIFY2(
            cli.exitCode() == status,
            qPrintable(QString("inflight-cli exited %1, expected %2:\n%3").arg(cli.exitCode()).arg(status).arg(out)));
        if (status == 1)
            QVERIFY2(out.contains(QRegularExpression(QStringLiteral("expectations: \\d+ passed, [1-9]\\d* failed"))),
                     qPrintable(out));
    }

    // An ask's answer is an expectation checked once the statement after it has run: a right
    // one holds, a wrong one fails on the ask's line, in the run and in inflight-cli's report.
    void anAskIsCheckedAfterItsStatement()
    {
        const std::string text = "scene \"Questions\"\n"
                                 "set collectors graph\n"
                                 "socketpair a b\n"
                                 "send a fds=b\n"
                                 "close b\n"
                                 "ask \"Which socket does this gc free?\" answer freed b\n"
                                 "gc\n"
                                 "ask \"And this one?\" answer alive a\n"
                                 "close a\n"
                                 "ask \"What does closing a again return?\" answer error EBADF\n"
                                 "close a\n";
        ParseResult parsed = parse_scene(text, "questions.scn");
        QVERIFY2(parsed.ok(), diagnostics_text(parsed.diagnostics).c_str());
        Simulation sim(std::make_shared<const Scene>(std::move(parsed.scene)), SimulationOptions{});
        sim.run();
        const auto &outcomes = sim.expectations();
        QCOMPARE(outcomes.size(), std::size_t(3));
        QCOMPARE(outcomes[0].line, 6u);
        QVERIFY2(outcomes[0].passed, outcomes[0].message.c_str()); // freed by the gc after it
        QCOMPARE(outcomes[1].line, 8u);
        QVERIFY(!outcomes[1].passed); // closing a frees it: the wrong answer
        QCOMPARE(outcomes[2].line, 10u);
        QVERIFY2(outcomes[2].passed, outcomes[2].message.c_str()); // the close after it failed
        QVERIFY(sim.warnings().empty());                           // ... as the answer said
        // Each check is the ask's, after its statement's work: the ask's line, past the gc.
        std::vector<std::uint64_t> gc_end, checks;
        for (const Event &e : sim.events()) {
            if (e.kind == EventKind::gc_end)
                gc_end.push_back(e.step);
            if (e.kind == EventKind::expect_result) {
                checks.push_back(e.step);
                QCOMPARE(e.scene_line, outcomes[checks.size() - 1].line);
            }
        }
        QVERIFY(!gc_end.empty() && checks.size() == 3 && checks[0] > gc_end[0]);

        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString file = tmp.filePath(QStringLiteral("questions.scn"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text.c_str());
        f.close();
        QProcess cli;
        cli.start(QStringLiteral(INFLIGHT_CLI), {"run", file});
        QVERIFY2(cli.waitForFinished(60000), "inflight-cli did not finish");
        const QString out = QString::fromUtf8(cli.readAllStandardOutput());
        QCOMPARE(cli.exitCode(), 1);
        QVERIFY2(out.contains(QStringLiteral("questions.scn:8: FAILED: a was freed (expected alive)")),
                 qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("expectations: 2 passed, 1 failed")), qPrintable(out));
    }

    // The large scene (scenes/large/) is too long for checked mode: run it once, unchecked,
    // under the classic collector (the fastest; its expectations hold under all three).
    void largeSceneHoldsItsExpectations()
    {
        const QString path = QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/large/large-32000-in-flight.scn");
        ParseResult parsed = load_scene_file(path.toStdString());
        QVERIFY2(parsed.ok(), diagnostics_text(parsed.diagnostics).c_str());
        QCOMPARE(parsed.scene.settings.collectors.size(), std::size_t(3));
        SimulationOptions o;
        o.era = GcEra::classic;
        o.record = false;
        Simulation sim(std::make_shared<const Scene>(std::move(parsed.scene)), o);
        sim.run();
        QVERIFY(!sim.stopped_by_finding());
        QVERIFY(sim.warnings().empty());
        QCOMPARE(sim.expectations().size(), std::size_t(7));
        QCOMPARE(sim.expectations_failed(), std::size_t(0));
        QCOMPARE(sim.kernel().unix_tot_inflight, 0UL);
    }
};

QTEST_GUILESS_MAIN(TestScenes)
#include "test_scenes.moc"
