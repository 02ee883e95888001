// SPDX-License-Identifier: GPL-3.0-or-later
// inflight-cli's output reaches its reader whole, or the CLI says it did not: stdout on a full
// device (/dev/full) ends every command with a non-zero exit and a message naming the error;
// `export-c -o` onto a file it cannot finish leaves the old file as it was; `-o` never
// overwrites the scene it reads.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

namespace {

struct CliResult {
    int exit_code = -1;
    QByteArray out, err;
};

// A guard against a hang, not an assertion on time.
constexpr int kHangGuardMs = 60000;

// Runs `script` with sh, $0 being inflight-cli, in `dir`. SIGXFSZ is ignored so that a write
// past `ulimit -f` fails with EFBIG, as a full disk fails with ENOSPC, instead of killing.
CliResult run_script(const QString &script, const QString &dir)
{
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start(QStringLiteral("/bin/sh"),
            {QStringLiteral("-c"), QStringLiteral("trap '' XFSZ; ") + script, QStringLiteral(INFLIGHT_CLI)});
    if (!p.waitForFinished(kHangGuardMs) || p.exitStatus() != QProcess::NormalExit) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

QString scene(const char *name) { return QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/") + QLatin1String(name); }

QByteArray read_all(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

bool write_all(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size() && f.flush();
}

} // namespace

class TestCliOutput : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void stdoutOnAFullDeviceFailsWithAMessage_data()
    {
        QTest::addColumn<QString>("arguments");
        const QString triangle = QStringLiteral("'") + scene("self-reference.scn") + QStringLiteral("'");
        QTest::newRow("run --json") << QStringLiteral("run ") + triangle + QStringLiteral(" --json");
        QTest::newRow("run text") << QStringLiteral("run ") + triangle;
        QTest::newRow("run --trace --json") << QStringLiteral("run ") + triangle + QStringLiteral(" --trace --json");
        QTest::newRow("check --json") << QStringLiteral("check ") + triangle + QStringLiteral(" --json");
        QTest::newRow("kernels --json") << QStringLiteral("kernels --json");
        QTest::newRow("kernels") << QStringLiteral("kernels");
        QTest::newRow("export-c to stdout") << QStringLiteral("export-c ") + triangle;
        QTest::newRow("--version") << QStringLiteral("--version");
        QTest::newRow("--help") << QStringLiteral("--help");
        // The language server's answer to `initialize` goes nowhere.
        QTest::newRow("lsp") << QStringLiteral("lsp < lsp-initialize.txt");
    }
    void stdoutOnAFullDeviceFailsWithAMessage()
    {
        QFETCH(QString, arguments);
        const QByteArray init = R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})";
        QVERIFY(write_all(dir_.filePath(QStringLiteral("lsp-initialize.txt")),
                          "Content-Length: " + QByteArray::number(init.size()) + "\r\n\r\n" + init));
        // The same command to a file writes something: the failure is the device's, not the
        // command's.
        const CliResult ok =
            run_script(QStringLiteral("\"$0\" ") + arguments + QStringLiteral(" > ok.out"), dir_.path());
        QVERIFY2(ok.exit_code >= 0 && ok.exit_code <= 1, ok.err.constData());
        QVERIFY(!read_all(dir_.filePath(QStringLiteral("ok.out"))).isEmpty());

        const CliResult full =
            run_script(QStringLiteral("\"$0\" ") + arguments + QStringLiteral(" > /dev/full"), dir_.path());
        QCOMPARE(full.exit_code, 2);
        QVERIFY2(full.err.contains("inflight-cli: error: cannot write the output: No space left on device"),
                 full.err.constData());
    }

    void exportOntoItsInputIsRefused()
    {
        const QString copy = dir_.filePath(QStringLiteral("input.scn"));
        const QByteArray text = read_all(scene("self-reference.scn"));
        QVERIFY(write_all(copy, text));
        // By its name, and by other names for the same file: a hard link, a symbolic link.
        const QString hard = dir_.filePath(QStringLiteral("hard-link.c"));
        const QString soft = dir_.filePath(QStringLiteral("symbolic-link.c"));
        QVERIFY(::link(qPrintable(copy), qPrintable(hard)) == 0);
        QVERIFY(QFile::link(copy, soft));
        for (const QString &out : {copy, hard, soft}) {
            const CliResult r = run_script(QStringLiteral("\"$0\" export-c input.scn -o '%1'").arg(out), dir_.path());
            QCOMPARE(r.exit_code, 2);
            QVERIFY2(r.err.contains("it is the input file"), r.err.constData());
            QCOMPARE(read_all(copy), text);
        }
    }

    void exportThatCannotBeFinishedKeepsTheOldOutput()
    {
        const QString out = dir_.filePath(QStringLiteral("kept.c"));
        // Larger than `ulimit -f 1` (512 bytes) lets through, so the write fails part way.
        const QByteArray old = QByteArray("/* an earlier export */\n").repeated(100);
        QVERIFY(write_all(out, old));
        const CliResult r = run_script(
            QStringLiteral("ulimit -f 1; exec \"$0\" export-c '%1' -o kept.c").arg(scene("self-reference.scn")),
            dir_.path());
        QCOMPARE(r.exit_code, 2);
        QVERIFY2(r.err.contains("kept.c: writing: File too large; the file on disk is unchanged"), r.err.constData());
        QCOMPARE(read_all(out), old);
        // No temporary file is left beside it.
        QCOMPARE(QDir(dir_.path()).entryList({QStringLiteral("*kept.c*")}, QDir::Files | QDir::Hidden),
                 QStringList{QStringLiteral("kept.c")});
        // With room, the same command replaces it.
        const CliResult fine = run_script(
            QStringLiteral("exec \"$0\" export-c '%1' -o kept.c").arg(scene("self-reference.scn")), dir_.path());
        QCOMPARE(fine.exit_code, 0);
        QVERIFY(read_all(out).contains("int main("));
    }
};

QTEST_GUILESS_MAIN(TestCliOutput)
#include "test_cli_output.moc"
