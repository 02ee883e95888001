// SPDX-License-Identifier: GPL-3.0-or-later
// What inflight-cli tells a person: text that reaches the terminal is escaped (a note's escape
// sequences, a file name's bidi controls), each message about a file names its real problem,
// and options it cannot honour are refused before anything runs.
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct CliResult {
    int exit_code = -1;
    QByteArray out, err;
};

// A guard against a hang, not an assertion on time.
constexpr int kHangGuardMs = 60000;

CliResult run_cli(const QStringList &arguments, const QString &dir = QString())
{
    QProcess p;
    if (!dir.isEmpty())
        p.setWorkingDirectory(dir);
    p.start(QStringLiteral(INFLIGHT_CLI), arguments);
    if (!p.waitForFinished(kHangGuardMs) || p.exitStatus() != QProcess::NormalExit) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

bool write_file(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size() && f.flush();
}

QString scene(const char *name) { return QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/") + QLatin1String(name); }

// What a terminal must never be sent from a scene or an argument: ESC, BEL, C1 CSI, RLO.
bool has_raw_control(const QByteArray &text)
{
    return text.contains('\x1b') || text.contains('\x07') || text.contains("\xc2\x9b") || text.contains("\xe2\x80\xae");
}

QByteArray describe(const CliResult &r)
{
    return "exit " + QByteArray::number(r.exit_code) + "\nstdout:\n" + r.out.left(2000) + "\nstderr:\n" +
           r.err.left(2000);
}

const QByteArray kHostileNote = "note \"title \x1b]0;pwned\x07 \x1b[31mred \xc2\x9b"
                                "2J \xe2\x80\xae"
                                "drow\"";

} // namespace

class TestCliMessages : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

    // A scene file in the test's directory; empty when it could not be written.
    QString file(const QString &name, const QByteArray &bytes)
    {
        const QString path = dir_.filePath(name);
        return write_file(path, bytes) ? path : QString();
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // A note's escape sequences, C1 controls and bidi controls reach --trace, the report and
    // --at's state as visible escapes.
    void traceAndStateEscapeSceneText()
    {
        const QString path = file(QStringLiteral("hostile-note.scn"),
                                  "scene \"t \xe2\x80\xae\"\nsocketpair a b\n" + kHostileNote + "\nclose a b\n");
        QVERIFY(!path.isEmpty());
        for (const QStringList &args :
             {QStringList{QStringLiteral("run"), path, QStringLiteral("--trace")},
              QStringList{QStringLiteral("run"), path, QStringLiteral("--at"), QStringLiteral("3")},
              QStringList{QStringLiteral("run"), path}}) {
            const CliResult r = run_cli(args);
            QVERIFY2(r.exit_code == 0, describe(r).constData());
            QVERIFY2(!has_raw_control(r.out) && !has_raw_control(r.err), describe(r).constData());
            QVERIFY2(r.out.contains("t <U+202E>"), describe(r).constData());
        }
        const CliResult trace = run_cli({QStringLiteral("run"), path, QStringLiteral("--trace")});
        QVERIFY2(trace.out.contains("note: title \\x1B]0;pwned\\x07 \\x1B[31mred <U+009B>2J <U+202E>drow"),
                 describe(trace).constData());
        // JSON Lines keep the text itself, as JSON escapes.
        const CliResult json =
            run_cli({QStringLiteral("run"), path, QStringLiteral("--trace"), QStringLiteral("--json")});
        QVERIFY2(json.exit_code == 0 && json.out.contains("\\u001b[31mred"), describe(json).constData());
    }

    // File names and arguments are echoed escaped in every kind of message.
    void messagesEscapeFileNamesAndArguments()
    {
        const QString evil = QStringLiteral("evil\x1b[31m\u202e.scn");
        const CliResult missing = run_cli({QStringLiteral("run"), dir_.filePath(evil)});
        QCOMPARE(missing.exit_code, 2);
        QVERIFY2(!has_raw_control(missing.err) && missing.err.contains("evil\\x1B[31m<U+202E>.scn: error:"),
                 describe(missing).constData());

        const CliResult option = run_cli({QStringLiteral("run"), scene("self-reference.scn"), QStringLiteral("--unit"),
                                          QStringLiteral("\x1b[2J\u202e")});
        QCOMPARE(option.exit_code, 2);
        QVERIFY2(!has_raw_control(option.err) && option.err.contains("unknown unit '\\x1B[2J<U+202E>'"),
                 describe(option).constData());

        // --at past the end names the file; a --watch warning (a $ name only a run knows) too.
        const QString named = file(evil, "scene \"t\"\nrepeat 2 {\n  socketpair a$i b$i\n}\n");
        QVERIFY(!named.isEmpty());
        const CliResult at = run_cli({QStringLiteral("run"), named, QStringLiteral("--at"), QStringLiteral("99999")});
        QCOMPARE(at.exit_code, 2);
        QVERIFY2(!has_raw_control(at.err) && at.err.contains("<U+202E>.scn: error: step 99999 is past the end"),
                 describe(at).constData());
        const CliResult watch = run_cli(
            {QStringLiteral("run"), named, QStringLiteral("--watch"), QStringLiteral("inflight z\x1b[31m\u202e")});
        QVERIFY2(!has_raw_control(watch.err) && watch.err.contains("no socket labelled 'z\\x1B[31m<U+202E>'"),
                 describe(watch).constData());
    }

    void fileProblemsAreNamed_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("CR-only") << QByteArray("scene \"t\"\rsocketpair a b\rclose a b\r")
                                 << QByteArray(":1:10: error: the lines of this file end with a carriage return "
                                               "(U+000D) alone");
        QTest::newRow("stray CR") << QByteArray("scene \"t\"\nsocketpair a b\nsend a fds=\rb\n")
                                  << QByteArray(":3:12: error: a carriage return (U+000D) in the middle of a line");
        QTest::newRow("UTF-16LE") << QByteArray("\xff\xfes\0c\0e\0n\0e\0\n\0", 14)
                                  << QByteArray(":1:1: error: the file is encoded as UTF-16LE");
        QTest::newRow("second BOM") << QByteArray("\xef\xbb\xbf\xef\xbb\xbfscene \"t\"\n")
                                    << QByteArray(":1:1: warning: a second byte-order mark (U+FEFF)");
        QTest::newRow("U+202E in a name")
            << QByteArray("socketpair a\xe2\x80\xae"
                          "b c\n")
            << QByteArray(":1:13: error: bad name 'a<U+202E>b': character U+202E is not allowed in a name");
    }
    void fileProblemsAreNamed()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QByteArray, message);
        const QString path = file(QStringLiteral("problem.scn"), bytes);
        QVERIFY(!path.isEmpty());
        const CliResult r = run_cli({QStringLiteral("check"), path});
        QVERIFY2(r.err.contains(message), describe(r).constData());
        QVERIFY2(!has_raw_control(r.err) && !r.err.contains("\xef\xbb\xbf"), describe(r).constData());
    }

    // The advice of the input-bytes message is an option that exists, not the file's own
    // `set limit`, which cannot raise a limit checked before the file is read.
    void inputBytesAdviceWorks()
    {
        const CliResult small = run_cli({QStringLiteral("check"), scene("self-reference.scn"),
                                         QStringLiteral("--limit"), QStringLiteral("input-bytes=10")});
        QCOMPARE(small.exit_code, 2);
        QVERIFY2(small.err.contains("raise it with inflight-cli's --limit input-bytes=N") &&
                     !small.err.contains("set limit"),
                 describe(small).constData());
        const CliResult raised = run_cli({QStringLiteral("check"), scene("self-reference.scn"),
                                          QStringLiteral("--limit"), QStringLiteral("input-bytes=100000")});
        QVERIFY2(raised.exit_code == 0, describe(raised).constData());
    }

    // A watch or a breakpoint's condition on a socket the scene never names could never fire:
    // refused before the run, with the name meant.
    void unknownLabelsAreRefused_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("break, close to a label")
            << QStringLiteral("--break") << QStringLiteral("8 if bb1 alive")
            << QByteArray("--break '8 if bb1 alive': no statement of the scene names a socket 'bb1', so it would "
                          "read none throughout; did you mean 'bb'?");
        QTest::newRow("break, far from every label")
            << QStringLiteral("--break") << QStringLiteral("8 if zz alive")
            << QByteArray("names a socket 'zz', so it would read none throughout (its names: a, ap, b, bb, bp)");
        QTest::newRow("watch") << QStringLiteral("--watch") << QStringLiteral("inflight apx")
                               << QByteArray(
                                      "names a socket 'apx', so it would read none throughout; did you mean 'ap'?");
        QTest::newRow("user") << QStringLiteral("--watch") << QStringLiteral("user bob inflight")
                              << QByteArray("names a user 'bob', so it would read none throughout (its users: root)");
    }
    void unknownLabelsAreRefused()
    {
        QFETCH(QString, option);
        QFETCH(QString, value);
        QFETCH(QByteArray, message);
        const CliResult r = run_cli({QStringLiteral("run"), scene("cycle-broken-by-recv.scn"), option, value});
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains(message), describe(r).constData());
        QVERIFY2(r.out.isEmpty(), describe(r).constData()); // nothing ran
    }

    // Names that only a run knows ($ templates) are checked after it, for breakpoints too.
    void unknownLabelInTemplatedSceneIsReported()
    {
        const QString path =
            file(QStringLiteral("templated.scn"), "scene \"t\"\nrepeat 2 {\n  socketpair a$i b$i\n}\n");
        QVERIFY(!path.isEmpty());
        const CliResult r =
            run_cli({QStringLiteral("run"), path, QStringLiteral("--break"), QStringLiteral("3 if zz alive")});
        QVERIFY2(r.err.contains("--break '3 if zz alive': no socket labelled 'zz' exists in this run"),
                 describe(r).constData());
        const CliResult ok =
            run_cli({QStringLiteral("run"), path, QStringLiteral("--break"), QStringLiteral("3 if a1 alive")});
        QVERIFY2(ok.exit_code == 0 && !ok.err.contains("no socket labelled"), describe(ok).constData());
    }

    // Every number on the command line is all digits (seconds: and one '.'), or refused.
    void numbersAreStrict_data()
    {
        QTest::addColumn<QStringList>("args");
        const QString s = scene("cycle-broken-by-recv.scn");
        const auto row = [&](const char *name, QStringList args) { QTest::newRow(name) << args; };
        row("--timeout space", {QStringLiteral("run"), s, QStringLiteral("--timeout"), QStringLiteral(" 3")});
        row("--timeout sign", {QStringLiteral("run"), s, QStringLiteral("--timeout"), QStringLiteral("+3")});
        row("--timeout hex", {QStringLiteral("run"), s, QStringLiteral("--timeout"), QStringLiteral("0x10")});
        row("--timeout exponent", {QStringLiteral("run"), s, QStringLiteral("--timeout"), QStringLiteral("1e3")});
        row("--timeout suffix", {QStringLiteral("run"), s, QStringLiteral("--timeout"), QStringLiteral("3s")});
        row("--at suffix", {QStringLiteral("run"), s, QStringLiteral("--at"), QStringLiteral("3x")});
        row("--at sign", {QStringLiteral("run"), s, QStringLiteral("--at"), QStringLiteral("+3")});
        row("--max-steps suffix", {QStringLiteral("run"), s, QStringLiteral("--max-steps"), QStringLiteral("1k")});
        row("--limit suffix", {QStringLiteral("run"), s, QStringLiteral("--limit"), QStringLiteral("steps=5x")});
        row("--seed space", {QStringLiteral("run"), s, QStringLiteral("--seed"), QStringLiteral(" 1")});
        row("why --at suffix",
            {QStringLiteral("why"), s, QStringLiteral("a"), QStringLiteral("--at"), QStringLiteral("3z")});
        row("why --timeout hex",
            {QStringLiteral("why"), s, QStringLiteral("a"), QStringLiteral("--timeout"), QStringLiteral("0x1")});
        row("replay --stable-ms suffix",
            {QStringLiteral("replay"), s, QStringLiteral("--stable-ms"), QStringLiteral("50abc")});
        row("replay --timeout space", {QStringLiteral("replay"), s, QStringLiteral("--timeout"), QStringLiteral(" 5")});
    }
    void numbersAreStrict()
    {
        QFETCH(QStringList, args);
        const CliResult r = run_cli(args);
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.startsWith("inflight-cli: error: "), describe(r).constData());
        QVERIFY2(r.out.isEmpty(), describe(r).constData());
    }

    void decimalSecondsAreAccepted()
    {
        for (const QString &t : {QStringLiteral("2.5"), QStringLiteral("30")}) {
            const CliResult r =
                run_cli({QStringLiteral("run"), scene("cycle-broken-by-recv.scn"), QStringLiteral("--timeout"), t});
            QVERIFY2(r.exit_code == 0, describe(r).constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestCliMessages)
#include "test_cli_messages.moc"
