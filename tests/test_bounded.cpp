// SPDX-License-Identifier: GPL-3.0-or-later
// Bounded by design: one regression test per hostile case. Each runs inflight-cli
// under `ulimit -v 2000000` (2 GB of address space), so a case that grew without bound would
// die of bad_alloc instead of passing, and asserts the exit code (0, 1 or 2) and, where a
// budget ends the run, the located message naming it. The run lengths are chosen by budgets
// (--max-steps and friends), never by the wall clock.
#include "memory_limit.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QStringDecoder>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace {

using inflight_test::memory_limit;

// A guard against a hang, not an assertion on time: every case ends by a budget. Generous, for
// the sanitizer build on a loaded machine.
constexpr int kHangGuardMs = 900000;

struct CliResult {
    int exit_code = -1;
    QByteArray out, err;
};

// Runs inflight-cli with `args` under a 2 GB address-space limit, in `dir`.
CliResult run_cli(const QStringList &args, const QString &dir, const char *vmem_kb = "2000000")
{
    QProcess p;
    p.setWorkingDirectory(dir);
    QStringList sh{QStringLiteral("-c"), memory_limit(vmem_kb) + QStringLiteral("exec \"$0\" \"$@\""),
                   QStringLiteral(INFLIGHT_CLI)};
    sh += args;
    p.start(QStringLiteral("/bin/sh"), sh);
    if (!p.waitForFinished(kHangGuardMs) || p.exitStatus() != QProcess::NormalExit) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

// The same with a shell script instead of arguments ($CLI is inflight-cli): for a file name that
// is not UTF-8, which a QString argument could not carry.
CliResult run_cli_script(const QString &script, const QString &dir)
{
    QProcess p;
    p.setWorkingDirectory(dir);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("CLI"), QStringLiteral(INFLIGHT_CLI));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), memory_limit("2000000") + script});
    if (!p.waitForFinished(kHangGuardMs) || p.exitStatus() != QProcess::NormalExit) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

void write_file(const QString &path, const std::string &text)
{
    std::ofstream(path.toStdString(), std::ios::binary) << text;
}

bool valid_utf8(const QByteArray &bytes)
{
    QStringDecoder decoder(QStringDecoder::Utf8);
    const QString text = decoder.decode(bytes);
    (void)text;
    return !decoder.hasError();
}

QJsonObject json_object(const QByteArray &bytes)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    return error.error == QJsonParseError::NoError ? doc.object() : QJsonObject();
}

} // namespace

class TestBounded : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString path(const char *name) const { return dir_.filePath(QLatin1String(name)); }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // 1. repeat 1000000000 { gc }: one record per collection grew until bad_alloc.
    void case01_collections_are_counted_past_their_budget()
    {
        write_file(path("gc.scn"), "repeat 1000000000 {\n  gc\n}\n");
        const CliResult r =
            run_cli({"run", "gc.scn", "--json", "--max-steps", "3000000", "--limit", "collections=50"}, dir_.path());
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains("gc.scn:2:3: error: limit 'steps' reached"), r.err.constData());
        const QJsonObject report = json_object(r.out);
        QCOMPARE(report.value("gc_runs").toArray().size(), 50);
        QVERIFY(report.value("gc_runs_total").toInteger() > 100'000);
        QCOMPARE(report.value("limit").toObject().value("name").toString(), QStringLiteral("steps"));
    }

    // 1. The same with failing statements (one warning each) and timed calls (one sample each).
    void case01_warnings_and_latency_samples_are_bounded()
    {
        write_file(path("fail.scn"), "socketpair a b\nclose b\nrepeat 1000000000 {\n  send a\n}\n");
        const CliResult r = run_cli({"run", "fail.scn", "--max-steps", "400000"}, dir_.path());
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains("fail.scn:4:3: error: limit 'steps' reached"), r.err.constData());
        QVERIFY(r.out.contains("warning: send failed with EPIPE"));
        QVERIFY2(QRegularExpression(QStringLiteral("\\.\\.\\. and [0-9,]+ more \\(the warnings budget keeps 1,000\\)"))
                     .match(QString::fromUtf8(r.out))
                     .hasMatch(),
                 r.out.right(400).constData());
        QVERIFY(r.out.count("warning: send failed") == 1000);
    }

    // 1. Past the latency-samples budget the calls are counted per duration: every figure of the
    // histograms is the same as with every sample kept.
    void case01_latency_figures_exact_past_the_budget()
    {
        write_file(path("lat.scn"),
                   "socketpair a b\nrepeat 3000 {\n  send a fds=b\n  recv b fds=c$i\n  close c$i\n}\n");
        const CliResult all = run_cli({"run", "lat.scn", "--json"}, dir_.path());
        const CliResult few = run_cli({"run", "lat.scn", "--json", "--limit", "latency-samples=100"}, dir_.path());
        QCOMPARE(all.exit_code, 0);
        QCOMPARE(few.exit_code, 0);
        const QJsonArray a = json_object(all.out).value("time").toObject().value("latency").toArray();
        const QJsonArray f = json_object(few.out).value("time").toObject().value("latency").toArray();
        QVERIFY(!a.isEmpty());
        QCOMPARE(f.size(), a.size());
        for (qsizetype i = 0; i < a.size(); ++i) {
            QJsonObject x = a[i].toObject(), y = f[i].toObject();
            QVERIFY(x.value("kept_one_by_one").toInteger() > y.value("kept_one_by_one").toInteger());
            x.remove("kept_one_by_one");
            y.remove("kept_one_by_one");
            QCOMPARE(y, x);
        }
    }

    // 2. splice of the documented maximum queued 16.7 million skbs.
    void case02_splice_ends_at_the_skb_budget()
    {
        write_file(path("splice.scn"), "socketpair a b\nsplice a bytes=1099511627776\nsplice a bytes=1099511627776\n");
        const CliResult r = run_cli({"run", "splice.scn"}, dir_.path());
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains("splice.scn:2:1: error: limit 'queued-skbs' reached: at most 1,000,000"),
                 r.err.constData());
        const CliResult bytes = run_cli({"run", "splice.scn", "--limit", "queued-bytes=1000000"}, dir_.path());
        QCOMPARE(bytes.exit_code, 2);
        QVERIFY2(bytes.err.contains("splice.scn:2:1: error: limit 'queued-bytes' reached"), bytes.err.constData());
    }

    // 3. /dev/zero was read until bad_alloc; a FIFO with no writer blocked forever.
    void case03_only_regular_files_are_read()
    {
        CliResult r = run_cli({"run", "/dev/zero"}, dir_.path());
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains("/dev/zero: error: cannot open scene file: it is a character device"),
                 r.err.constData());
        QVERIFY(::mkfifo(path("fifo.scn").toLocal8Bit().constData(), 0600) == 0);
        r = run_cli({"check", "fifo.scn"}, dir_.path());
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains("fifo.scn: error: cannot open scene file: it is a FIFO"), r.err.constData());
        r = run_cli({"run", "."}, dir_.path());
        QCOMPARE(r.exit_code, 2);
        QVERIFY(r.err.contains("it is a directory"));
        write_file(path("small.scn"), "socketpair a b\n");
        r = run_cli({"run", "small.scn", "--limit", "input-bytes=8"}, dir_.path());
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains("small.scn: error: limit 'input-bytes' reached: at most 8 bytes of scene file (the "
                                "file has 15 bytes)"),
                 r.err.constData());
    }

    // 4. Parsing costs memory in proportion to the input, so the input is bounded. The largest
    // files the input-bytes budget admits (2 MiB) of the two worst kinds parse in little address
    // space: a million two-byte names on one line in 100 MB (the CLI alone maps most of that),
    // a statement every three bytes in 700 MB. A 10 MB file is refused before it is read.
    void case04_parsing_a_large_file_stays_small()
    {
        constexpr std::size_t kCap = 2u << 20;
        std::string names = "socketpair a b\nclose";
        while (names.size() < kCap - 3)
            names += " a";
        names += "\n";
        write_file(path("names.scn"), names);
        CliResult r = run_cli({"check", "names.scn"}, dir_.path(), "100000");
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(r.err.isEmpty(), r.err.left(400).constData());

        std::string lines;
        while (lines.size() + 3 <= kCap)
            lines += "gc\n";
        write_file(path("lines.scn"), lines);
        r = run_cli({"check", "lines.scn"}, dir_.path(), "700000");
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(r.err.isEmpty(), r.err.left(400).constData());

        while (names.size() < 10'000'000)
            names += "close a\n";
        write_file(path("names.scn"), names);
        r = run_cli({"check", "names.scn"}, dir_.path(), "700000");
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains("names.scn: error: limit 'input-bytes' reached: at most 2,097,152 bytes of scene file "
                                "(the file has 10,000,"),
                 r.err.constData());
    }

    // 5. Seven lines naming 100,000 fds each made check run for minutes: look-ups are budgeted.
    void case05_checking_is_bounded_by_name_lookups()
    {
        std::string text = "repeat 100000 {\n  socket s$i\n}\nsocketpair a b\nrepeat 1000 {\n";
        for (int i = 0; i < 7; ++i)
            text += "  send a fds=s{0..99999}\n";
        text += "}\n";
        write_file(path("lookups.scn"), text);
        const CliResult r = run_cli({"check", "lookups.scn"}, dir_.path());
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(r.err.contains("note: limit 'name-lookups' reached: at most 10,000,000"), r.err.constData());
    }

    // 5. The same amplification in the parser: 300 such lines (7 KB) would make 30 million
    // names; the names ranges make are budgeted.
    void case05_ranges_are_bounded_by_range_names()
    {
        std::string text = "socketpair a b\n";
        for (int i = 0; i < 300; ++i)
            text += "send a fds=s{0..99999}\n";
        write_file(path("ranges.scn"), text);
        const CliResult r = run_cli({"check", "ranges.scn"}, dir_.path(), "700000");
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(
            r.err.contains("ranges.scn:12:13: error: limit 'range-names' reached: at most 1,000,000 names from ranges"),
            r.err.constData());
        QVERIFY(r.err.count('\n') < 60);
    }

    // 6. A 20,000-pair ring collected on every sendmsg, with no way to bound it.
    void case06_a_long_run_is_bounded_by_max_steps_and_timeout()
    {
        // The shipped 32,000-in-flight scene: 30 s on a 2-core machine when run to its end.
        const QString ring = QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/large/large-32000-in-flight.scn");
        CliResult r = run_cli({"run", ring, "--max-steps", "1000000"}, dir_.path());
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(
            QRegularExpression(QStringLiteral("large-32000-in-flight.scn:[0-9]+:[0-9]+: error: limit 'steps' reached: "
                                              "at most 1,000,000 micro-steps"))
                .match(QString::fromUtf8(r.err))
                .hasMatch(),
            r.err.constData());
        r = run_cli({"run", ring, "--timeout", "0.2"}, dir_.path());
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains("error: --timeout 0.2 s reached at micro-step"), r.err.constData());
        QVERIFY(r.out.contains("collections:"));
    }

    // 7. Modelled time wrapped: an average below its median. It saturates and ends the run.
    void case07_modelled_time_never_wraps()
    {
        write_file(path("time.scn"),
                   "set cost splice_kib 1000000000000\nsocketpair a b\nsplice a bytes=1099511627776\n");
        CliResult r = run_cli({"run", "time.scn", "--json"}, dir_.path());
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains("time.scn:3:1: error: limit 'time-ns' reached"), r.err.constData());
        write_file(path("sends.scn"),
                   "set cost syscall 1000000000000\nsocketpair a b\nrepeat 100 {\n  send a\n  recv b\n}\n");
        r = run_cli({"run", "sends.scn", "--json", "--limit", "time-ns=20000000000000"}, dir_.path());
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains("sends.scn:4:3: error: limit 'time-ns' reached: at most 20,000,000,000,000 ns"),
                 r.err.constData());
        for (const auto &g : json_object(r.out).value("time").toObject().value("latency").toArray()) {
            const QJsonObject o = g.toObject();
            QVERIFY(o.value("avg_ns").toDouble() <= o.value("max_ns").toDouble());
            QVERIFY(o.value("p50_ns").toDouble() <= o.value("max_ns").toDouble());
        }
    }

    // 8. --json --hist with variants printed several objects back to back, none named.
    void case08_variants_are_one_json_object()
    {
        write_file(path("variants.scn"),
                   "socketpair a b\nrepeat 20 {\n  send a\n  recv b\n}\n"
                   "variant slow {\n  set cost syscall 500\n}\nvariant fast {\n  set cost syscall 5\n}\n");
        const CliResult r = run_cli({"run", "variants.scn", "--json", "--hist"}, dir_.path());
        QCOMPARE(r.exit_code, 0);
        const QJsonArray variants = json_object(r.out).value("variants").toArray();
        QCOMPARE(variants.size(), 2);
        QCOMPARE(variants[0].toObject().value("variant").toString(), QStringLiteral("slow"));
        QCOMPARE(variants[1].toObject().value("variant").toString(), QStringLiteral("fast"));
        QVERIFY(variants[1].toObject().value("time").toObject().value("end_ns").toInteger() <
                variants[0].toObject().value("time").toObject().value("end_ns").toInteger());
    }

    // 9. Invalid UTF-8 went raw into --json; escape bytes went raw to the terminal.
    void case09_output_is_valid_utf8_and_escaped()
    {
        const QByteArray local = dir_.path().toLocal8Bit() + "/bad\xff.scn";
        std::ofstream(local.constData(), std::ios::binary) << "scene \"bad \xff title \x1b[31mred\"\nsocketpair a b\n";
        CliResult r = run_cli_script(QStringLiteral("exec \"$CLI\" run bad?.scn --json"), dir_.path());
        QCOMPARE(r.exit_code, 0);
        QVERIFY(valid_utf8(r.out));
        const QJsonObject report = json_object(r.out);
        QCOMPARE(report.value("file").toString(), QStringLiteral("bad\uFFFD.scn"));
        QCOMPARE(report.value("scene").toString(), QStringLiteral("bad \uFFFD title \u001B[31mred"));
        QVERIFY2(r.err.contains(".scn:1:12: warning: byte 0xFF is not UTF-8"), r.err.constData());
        QVERIFY(!r.err.contains('\xff'));
        r = run_cli_script(QStringLiteral("exec \"$CLI\" run bad?.scn"), dir_.path());
        QCOMPARE(r.exit_code, 0);
        QVERIFY(!r.out.contains('\x1b'));
        QVERIFY(r.out.contains("scene: bad \\xFF title \\x1B[31mred"));
        ::unlink(local.constData()); // QTemporaryDir cannot name it to remove it
    }

    // 10. A byte-order mark gave "unknown statement 'socketpair'" with the BOM invisible.
    void case10_bom_is_accepted()
    {
        write_file(path("bom.scn"), "\xEF\xBB\xBFsocketpair a b\nexpect alive a\n");
        const CliResult r = run_cli({"run", "bom.scn"}, dir_.path());
        QCOMPARE(r.exit_code, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
    }

    // 11. One range mistake printed 100,000 errors at the same column.
    void case11_repeated_errors_are_folded()
    {
        write_file(path("range.scn"), "socketpair a b\nsend a fds=s{0..99999}\n");
        const CliResult r = run_cli({"check", "range.scn"}, dir_.path());
        QCOMPARE(r.exit_code, 2);
        QCOMPARE(r.err.count('\n'), 4);
        QVERIFY2(r.err.contains("range.scn:2:12: note: ... and 99,997 more like this"), r.err.constData());
    }

    // 12. Three messages that misled.
    void case12_messages_say_what_is_wrong()
    {
        write_file(path("v.scn"), "variant {\n}\n");
        CliResult r = run_cli({"check", "v.scn"}, dir_.path());
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains("e.g. 'variant no_fix {'"), r.err.constData());
        write_file(path("v2.scn"), "variant no_fix {\n  set gc graph\n}\n");
        QCOMPARE(run_cli({"check", "v2.scn"}, dir_.path()).exit_code, 0); // the suggestion is accepted

        write_file(path("e.scn"), "socketpair a b\nexpect alive embryo(embryo(c))\n");
        r = run_cli({"check", "e.scn"}, dir_.path());
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains("not another embryo(...)"), r.err.constData());
        QVERIFY(!r.err.contains("only for expect statements"));

        write_file(path("w.scn"), "spawn a {\n  wait a\n}\n");
        r = run_cli({"check", "w.scn"}, dir_.path());
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains("w.scn:2:8: error: wait: 'a' is the task running this wait"), r.err.constData());
    }

    // 13. --json on an invalid scene printed nothing on stdout.
    void case13_json_diagnostics_for_an_invalid_scene()
    {
        write_file(path("bad.scn"), "socketpair a b\nsned a\n");
        const CliResult run = run_cli({"run", "bad.scn", "--json"}, dir_.path());
        QCOMPARE(run.exit_code, 2);
        const QJsonArray d = json_object(run.out).value("diagnostics").toArray();
        QCOMPARE(d.size(), 1);
        const QJsonObject first = d[0].toObject();
        QCOMPARE(first.value("file").toString(), QStringLiteral("bad.scn"));
        QCOMPARE(first.value("line").toInt(), 2);
        QCOMPARE(first.value("col").toInt(), 1);
        QCOMPARE(first.value("severity").toString(), QStringLiteral("error"));
        QVERIFY(first.value("message").toString().contains(QStringLiteral("did you mean 'send'")));
        const CliResult check = run_cli({"check", "bad.scn", "--json"}, dir_.path());
        QCOMPARE(check.exit_code, 2);
        QCOMPARE(check.out, run.out); // the same fields, the same object
    }

    // --watch and --break on a collection repeated a billion times: the hits listed stop at the
    // hits budget, and the rest are counted.
    void watch_and_break_hits_are_capped()
    {
        const QString scene =
            QStringLiteral(INFLIGHT_SOURCE_DIR "/tests/fuzz/regressions/issue15-case01-repeat-gc.scn");
        CliResult r = run_cli({"run", scene, "--watch", "gc_in_progress", "--break", "2", "--limit", "hits=1000",
                               "--max-steps", "100000"},
                              dir_.path());
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains("error: limit 'steps' reached: at most 100,000 micro-steps"), r.err.constData());
        const QList<QByteArray> lines = r.out.split('\n');
        qsizetype listed = 0;
        for (const QByteArray &l : lines)
            listed += l.startsWith("watch 1 ") || l.startsWith("break line 2 ");
        QCOMPARE(listed, 1000);
        QVERIFY2(QRegularExpression(QStringLiteral("\\n\\.\\.\\. and [0-9,]+ more hits, not listed: limit 'hits' "
                                                   "reached: at most 1,000 watch and break hits listed"))
                     .match(QString::fromUtf8(r.out))
                     .hasMatch(),
                 r.out.right(2000).constData());
        QVERIFY(r.out.contains("collections:"));

        r = run_cli({"run", scene, "--json", "--break", "2", "--limit", "hits=10", "--max-steps", "10000"},
                    dir_.path());
        QCOMPARE(r.exit_code, 2);
        const QJsonObject report = json_object(r.out);
        QCOMPARE(report.value("hits").toArray().size(), 10);
        QVERIFY(report.value("hits_not_listed").toInteger() > 1000);

        // The default budget, with no option: 100,000 listed.
        r = run_cli({"run", scene, "--watch", "gc_in_progress", "--max-steps", "1000000"}, dir_.path());
        QCOMPARE(r.exit_code, 2);
        QCOMPARE(r.out.count("\nwatch 1 ") + r.out.startsWith("watch 1 "), 100000);
        QVERIFY2(r.out.contains("more hits, not listed: limit 'hits' reached: at most 100,000"),
                 r.out.right(2000).constData());
    }

    // --timeout ends every way of stepping a run: --watch, --break, --at and why.
    void every_stepping_command_honours_the_timeout()
    {
        const QString scene =
            QStringLiteral(INFLIGHT_SOURCE_DIR "/tests/fuzz/regressions/issue15-case01-repeat-gc.scn");
        const QByteArray reached("issue15-case01-repeat-gc.scn:2:3: error: --timeout 0.5 s reached at micro-step");
        for (const char *option : {"--watch", "--break"}) {
            const CliResult r =
                run_cli({"run", scene, option, std::strcmp(option, "--watch") == 0 ? "gc_in_progress" : "2",
                         "--timeout", "0.5"},
                        dir_.path());
            QCOMPARE(r.exit_code, 2);
            QVERIFY2(r.err.contains(reached), r.err.constData());
            QVERIFY2(r.out.contains("collections:"), option); // the report of the run that far
        }
        CliResult r = run_cli({"run", scene, "--at", "1000000000000", "--timeout", "0.5"}, dir_.path());
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains(reached), r.err.constData());
        QVERIFY(r.err.contains("nothing is shown"));
        QVERIFY(r.out.isEmpty());

        r = run_cli({"why", scene, "a", "--timeout", "0.5"}, dir_.path());
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains(reached), r.err.constData());
        r = run_cli({"why", scene, "a", "--max-steps", "1000"}, dir_.path());
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains("issue15-case01-repeat-gc.scn:2:3: error: limit 'steps' reached: at most 1,000 "
                                "micro-steps"),
                 r.err.constData());
        r = run_cli({"why", scene, "a", "--timeout", "soon"}, dir_.path());
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains("bad --timeout 'soon'"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestBounded)
#include "test_bounded.moc"
