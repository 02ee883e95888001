// SPDX-License-Identifier: GPL-3.0-or-later
// export-c under attack: scene text that tries to end a comment or a string literal of the
// generated C (line splices made of CR, LF and CRLF, backslashes, trigraphs, `*/`, NUL bytes,
// UTF-8 and U+202E, in the title, notes, trailing comments and the file name) stays data under
// gcc and clang, in their default mode, -std=c11 and -trigraphs. Each program is compiled, run
// and its preprocessed source scanned: the payload never runs and is never outside a string
// literal. The program refuses to run outside a fresh network namespace unless told to.
#include "inflight/c_literal.hpp"
#include "inflight/export_c.hpp"
#include "inflight/model_trace.hpp"
#include "inflight/replay_plan.hpp"
#include "inflight/utf8.hpp"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace inflight;

namespace {

// What every payload does when it runs: prints PWNED (spelled in two literals, so the marker in
// the output cannot be the scene's own text echoed) and exits 42. `pwned_marker` is the name
// the scan of the preprocessed source looks for outside string literals.
const std::string kPayloadInMain = R"({ int pwned_marker = 42; puts("PWN" "ED"); return pwned_marker; })";
const std::string kPayloadAtFileScope = R"(int puts(const char *); void exit(int); )"
                                        R"(__attribute__((constructor)) static void pwned_marker(void) )"
                                        R"({ puts("PWN" "ED"); exit(42); })";
constexpr int kPayloadStatus = 42;

// A literal's bytes up to its terminating NUL, NULs inside included.
template <std::size_t N>
std::string with_nul(const char (&s)[N])
{
    return std::string(s, N - 1);
}

// The payload as it must be written inside a quoted scene string (the title).
std::string quoted(const std::string &s)
{
    std::string out;
    for (char ch : s) {
        if (ch == '"' || ch == '\\')
            out += '\\';
        out += ch;
    }
    return out;
}

struct Ran {
    int status = -1; // exit code; -1 when it did not exit normally or did not start
    QByteArray out, err;
};

Ran run(const QString &program, const QStringList &args, int timeout_ms = 20000)
{
    QProcess p;
    p.start(program, args);
    Ran r;
    if (!p.waitForStarted(timeout_ms))
        return r;
    if (!p.waitForFinished(timeout_ms)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.status = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QString cli() { return QStringLiteral(INFLIGHT_CLI); }

bool write_bytes(const std::filesystem::path &path, const std::string &bytes)
{
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << bytes;
    f.close();
    return bool(f);
}

// How often `word` occurs as an identifier outside string and character literals of
// preprocessed C (comments are gone after -E; `#` lines are line markers).
int identifier_outside_literals(const std::string &c, const std::string &word)
{
    int found = 0;
    const auto ident = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
    for (std::size_t i = 0; i < c.size();) {
        const char ch = c[i];
        if (ch == '"' || ch == '\'') {
            for (++i; i < c.size() && c[i] != ch && c[i] != '\n'; ++i)
                if (c[i] == '\\')
                    ++i;
            ++i;
        } else if (ident(ch)) {
            std::size_t end = i;
            while (end < c.size() && ident(c[end]))
                ++end;
            if (c.compare(i, end - i, word) == 0 && end - i == word.size())
                ++found;
            i = end;
        } else {
            ++i;
        }
    }
    return found;
}

// A scene with its payload, written where the row says.
struct Hostile {
    std::string scene;                    // the file's bytes
    std::vector<std::string> directories; // the path under the temporary directory, one entry a level
    std::string file = "scene.scn";
};

Hostile in_scene(std::string text) { return {std::move(text), {}, "scene.scn"}; }

// The file name as the attack, as it would end a comment holding the path. `splice` is the
// directories that follow "x*" (a trigraph's `/` ends a directory name), then comes a directory
// named after the payload, then the file "* rest.scn".
Hostile in_path(std::vector<std::string> splice)
{
    splice.front().insert(0, "x*");
    splice.push_back(" " + kPayloadAtFileScope + " ");
    return {"scene \"path\"\nsocketpair a b stream\nclose a b\n", std::move(splice), "* rest.scn"};
}

const QStringList kCompilers = {QStringLiteral("gcc"), QStringLiteral("clang")};

struct Mode {
    const char *name;
    QStringList flags;
};
const std::vector<Mode> kModes = {
    {"default", {}}, {"c11", {QStringLiteral("-std=c11")}}, {"trigraphs", {QStringLiteral("-trigraphs")}}};

const QStringList kWarnings = {QStringLiteral("-Wall"), QStringLiteral("-Werror=trigraphs")};

} // namespace

Q_DECLARE_METATYPE(Hostile)

class TestExportC : public QObject {
    Q_OBJECT

private slots:
    void c_literal_escapes_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QByteArray>("literal");
        QTest::newRow("plain") << QByteArray("socketpair a b") << QByteArray("\"socketpair a b\"");
        QTest::newRow("quote and backslash") << QByteArray("a\"b\\c") << QByteArray("\"a\\\"b\\\\c\"");
        QTest::newRow("trigraph") << QByteArray("?\?/?\?=") << QByteArray("\"\\?\\?/\\?\\?=\"");
        QTest::newRow("CR LF tab") << QByteArray("\r\n\t") << QByteArray("\"\\015\\012\\011\"");
        QTest::newRow("NUL before a digit") << QByteArray("\0"
                                                          "7",
                                                          2)
                                            << QByteArray("\"\\0007\"");
        QTest::newRow("DEL") << QByteArray("\x7f") << QByteArray("\"\\177\"");
        QTest::newRow("U+202E") << QByteArray("\xe2\x80\xae") << QByteArray("\"\\342\\200\\256\"");
        QTest::newRow("comment markers") << QByteArray("*/ /* //") << QByteArray("\"*/ /* //\"");
        QTest::newRow("empty") << QByteArray() << QByteArray("\"\"");
    }

    void c_literal_escapes()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QByteArray, literal);
        QCOMPARE(QByteArray::fromStdString(c_literal(bytes.toStdString())), literal);
    }

    // Every byte value, and each followed by a digit, reads back as itself through a compiler.
    void c_literal_round_trips_every_byte()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("gcc")).isEmpty())
            QSKIP("gcc is not installed: the program cannot be compiled");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::string all;
        for (int b = 0; b < 256; ++b)
            all += static_cast<char>(b);
        const std::string text = all + "0" + all + "7?" + "?\?/?\?=?\?'";
        const std::filesystem::path c = dir.filePath(QStringLiteral("bytes.c")).toStdString();
        QVERIFY(write_bytes(c, "#include <stdio.h>\nstatic const char s[] = " + c_literal(text) +
                                   ";\nint main(void) { fwrite(s, 1, sizeof(s) - 1, stdout); return 0; }\n"));
        const QString exe = dir.filePath(QStringLiteral("bytes"));
        for (const Mode &mode : kModes) {
            const Ran cc = run(QStringLiteral("gcc"), kWarnings + mode.flags +
                                                          QStringList{QStringLiteral("-Werror"), QStringLiteral("-o"),
                                                                      exe, QString::fromStdString(c.string())});
            QVERIFY2(cc.status == 0, cc.err.constData());
            const Ran r = run(exe, {});
            QCOMPARE(r.status, 0);
            QCOMPARE(r.out, QByteArray::fromStdString(text));
        }
    }

    void injections_are_inert_data()
    {
        QTest::addColumn<Hostile>("hostile");
        QTest::addColumn<QString>("compiler");
        const std::string pair = "scene \"t\"\nsocketpair a b stream\n";
        const std::vector<std::pair<const char *, Hostile>> cases = {
            {"note, CR splice ends the comment",
             in_scene(pair + "note \"harmless\" # *\\\r/ " + kPayloadInMain + " /* rest\nclose a b\n")},
            {"title, escaped backslash and CR splice, file-scope constructor",
             in_scene("scene \"*\\\\\r/ " + quoted(kPayloadAtFileScope) +
                      " /* rest\"\nsocketpair a b stream\nclose a b\n")},
            {"title, trigraph splice",
             in_scene("scene \"*?\?/\r/ " + quoted(kPayloadAtFileScope) + " /* rest\"\nsocketpair a b stream\n")},
            {"note, trigraph ?\?/ then CR splice",
             in_scene(pair + "note \"x\" # *?\?/\r/ " + kPayloadInMain + " /* rest\n")},
            {"statement comment, trigraph ?\?/ ends the string literal",
             in_scene("scene \"t\"\nsocketpair a b stream # ?\?/\", SOCK_STREAM, (char[]){97, 0}, (char[]){98, 0}, 0); "
                      "{ int pwned_marker = 42; return pwned_marker; } //\nclose a b\n")},
            {"statement comment, every trigraph",
             in_scene(pair + "close a b # ?\?= ?\?( ?\?) ?\?< ?\?> ?\?' ?\?! ?\?- ?\?/\n")},
            {"statement comment, backslash before CR",
             in_scene(pair + "close a b # x\\\r\", 0); " + kPayloadInMain + " //\n")},
            {"note, comment closers and openers",
             in_scene(pair + "note \"a */ int pwned_marker; /* b\" # */ /* */ //\n")},
            {"note, NUL byte before a CR splice",
             in_scene(pair + with_nul("note \"x\" # \0*\\\r/ ") + kPayloadInMain + " /* rest\n")},
            {"note, UTF-8 and U+202E around a CR splice",
             in_scene(pair + "note \"\xc3\xa9 \xe2\x80\xae x\" # \xe2\x80\xae*\\\r/ " + kPayloadInMain + " /* rest\n")},
            {"title, U+202E and UTF-8", in_scene("scene \"\xe2\x80\xae dlrow \xc3\xa9\"\nsocketpair a b stream\n")},
            {"file name, LF splice", in_path({"\\\n"})},
            {"file name, CR splice", in_path({"\\\r"})},
            {"file name, CRLF splice", in_path({"\\\r\n"})},
            {"file name, trigraph splice", in_path({"?\?", "\n"})},
        };
        for (const auto &[name, hostile] : cases)
            for (const QString &compiler : kCompilers)
                QTest::addRow("%s, %s", name, qPrintable(compiler)) << hostile << compiler;
    }

    void injections_are_inert()
    {
        QFETCH(Hostile, hostile);
        QFETCH(QString, compiler);
        if (QStandardPaths::findExecutable(compiler).isEmpty())
            QSKIP(qPrintable(compiler + QStringLiteral(" is not installed: its rows cannot compile the program")));
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        std::filesystem::path dir = tmp.path().toStdString();
        for (const std::string &d : hostile.directories) {
            dir /= d;
            std::error_code ec;
            QVERIFY2(std::filesystem::create_directory(dir, ec), ec.message().c_str());
        }
        const std::filesystem::path scene = dir / hostile.file;
        QVERIFY(write_bytes(scene, hostile.scene));
        const QString c = tmp.filePath(QStringLiteral("scene.c")), exe = tmp.filePath(QStringLiteral("scene"));
        const Ran exported =
            run(cli(), {QStringLiteral("export-c"), QString::fromStdString(scene.string()), QStringLiteral("-o"), c});
        QVERIFY2(exported.status == 0, exported.err.constData());

        for (const Mode &mode : kModes) {
            const QString where = compiler + QStringLiteral(" (") + QLatin1String(mode.name) + QStringLiteral(")");
            const QStringList flags = kWarnings + mode.flags;
            // (c) after every translation phase the payload is only ever inside string literals.
            const Ran pre = run(compiler, flags + QStringList{QStringLiteral("-E"), c});
            QVERIFY2(identifier_outside_literals(pre.out.toStdString(), "pwned_marker") == 0,
                     qPrintable(where + QStringLiteral(": the payload is code")));
            QVERIFY2(identifier_outside_literals(pre.out.toStdString(), "main") > 0,
                     qPrintable(where + QStringLiteral(": the scan found no code at all")));
            QVERIFY2(pre.status == 0, qPrintable(where + QStringLiteral(": ") + QString::fromUtf8(pre.err)));
            // (a) it compiles, with no trigraph in sight.
            const Ran cc = run(compiler, flags + QStringList{QStringLiteral("-o"), exe, c});
            QVERIFY2(cc.status == 0, qPrintable(where + QStringLiteral(": ") + QString::fromUtf8(cc.err)));
            // (b) it runs the scene, not the payload.
            const Ran r = run(exe, {QStringLiteral("--allow-host-namespace")});
            const QString said = where + QStringLiteral(":\n") + QString::fromUtf8(r.out + r.err);
            QVERIFY2(r.status != kPayloadStatus, qPrintable(said));
            QVERIFY2(!r.out.split('\n').contains("PWNED"), qPrintable(said));
            QVERIFY2(r.status == 0, qPrintable(said));
            QVERIFY2(r.out.contains("ok: the kernel agrees with the model"), qPrintable(said));
        }
    }

    // The program shows the scene's text (terminal-safe) as it runs: the title, the file, each
    // note when it is reached.
    void title_file_and_notes_are_printed()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const std::filesystem::path scene = tmp.filePath(QStringLiteral("shown.scn")).toStdString();
        QVERIFY(write_bytes(scene, "scene \"Shown \\\"title\\\" \xe2\x80\xae\"\nsocketpair a b stream\n"
                                   "note \"first \x1b[31m\"\nclose a\nnote \"second\"\nclose b\n"));
        const QString c = tmp.filePath(QStringLiteral("shown.c")), exe = tmp.filePath(QStringLiteral("shown"));
        const Ran exported =
            run(cli(), {QStringLiteral("export-c"), QString::fromStdString(scene.string()), QStringLiteral("-o"), c});
        QVERIFY2(exported.status == 0, exported.err.constData());
        const Ran cc = run(QStringLiteral("cc"), kWarnings + QStringList{QStringLiteral("-o"), exe, c});
        QVERIFY2(cc.status == 0, cc.err.constData());
        const Ran r = run(exe, {QStringLiteral("--allow-host-namespace")});
        QCOMPARE(r.status, 0);
        const QList<QByteArray> lines = r.out.split('\n');
        QVERIFY2(lines.size() > 5, r.out.constData());
        QCOMPARE(lines[0], QByteArray::fromStdString("scene: " + printable("Shown \"title\" \xe2\x80\xae")));
        QCOMPARE(lines[1], QByteArray("from: ") + QByteArray::fromStdString(scene.string()));
        QVERIFY(lines[2].startsWith("model: "));
        // The escape byte is shown, not sent to the terminal.
        QVERIFY(!r.out.contains('\x1b'));
        QVERIFY2(r.out.contains(QByteArray::fromStdString("line 3: " + printable("note \"first \x1b[31m\"") + "\n")),
                 r.out.constData());
        QVERIFY2(r.out.indexOf("line 3: note") < r.out.indexOf("line 5: note \"second\"\n"), r.out.constData());
    }

    // Names and addresses: the parser takes none of these, so nothing reaches the exporter.
    void hostile_names_are_refused_data()
    {
        QTest::addColumn<QByteArray>("statement");
        QTest::newRow("comment closer in a name") << QByteArray("socketpair a*/x b stream");
        QTest::newRow("backslash in a name") << QByteArray("socketpair a\\ b stream");
        QTest::newRow("trigraph in a name") << QByteArray("socketpair a?\?/ b stream");
        QTest::newRow("CR in a name") << QByteArray("socketpair a\rb c stream");
        QTest::newRow("NUL in a name") << QByteArray::fromStdString(with_nul("socketpair a\0b c stream"));
        QTest::newRow("U+202E in a name") << QByteArray("socketpair a\xe2\x80\xae b stream");
        QTest::newRow("quote in an address") << QByteArray("socket s stream\nbind s @x\"y");
        QTest::newRow("trigraph in an address") << QByteArray("socket s stream\nbind s @x?\?/");
        QTest::newRow("CR in an address") << QByteArray("socket s stream\nbind s @x\r/y");
        QTest::newRow("comment closer in an address") << QByteArray("socket s stream\nbind s @x*/y");
    }

    void hostile_names_are_refused()
    {
        QFETCH(QByteArray, statement);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString scene = tmp.filePath(QStringLiteral("names.scn"));
        QVERIFY(write_bytes(scene.toStdString(), "scene \"names\"\n" + statement.toStdString() + "\n"));
        QCOMPARE(run(cli(), {QStringLiteral("check"), scene}).status, 2);
        const Ran exported = run(cli(), {QStringLiteral("export-c"), scene});
        QCOMPARE(exported.status, 2);
        QVERIFY(exported.out.isEmpty());
    }

    // A scene export-c cannot write is refused with its file and lines, the file name shown
    // terminal-safe.
    void refusal_shows_the_file_name_safely()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const std::filesystem::path scene = tmp.filePath(QStringLiteral("x\x1b[31m.scn")).toStdString();
        QVERIFY(std::filesystem::copy_file(INFLIGHT_SOURCE_DIR "/scenes/seed-splice-checksum.scn", scene));
        const Ran r = run(cli(), {QStringLiteral("export-c"), QString::fromStdString(scene.string())});
        QCOMPARE(r.status, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains("error: cannot export"), r.err.constData());
        QVERIFY2(!r.err.contains('\x1b'), r.err.constData());
        QVERIFY2(r.err.contains(QByteArray::fromStdString(printable(scene.string()))), r.err.constData());
    }

    // The exporter itself does not trust what the parser lets through: names, addresses and the
    // file name of a plan built by hand reach the program as data.
    void hostile_plan_is_inert()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("gcc")).isEmpty())
            QSKIP("gcc is not installed: the program cannot be compiled");
        const std::string evil_a = "a*/\\\r\n?\?/\"" + kPayloadInMain + "/*";
        const std::string evil_b = with_nul("b\0\xe2\x80\xae?\?=\\");
        ReplayPlan plan;
        plan.file = "plan*\\\r/" + kPayloadAtFileScope + "/*";
        ReplayStep pair;
        pair.op = Op::socketpair;
        pair.names = {evil_a, evil_b};
        pair.text = "socketpair ?\?/\\\r\n";
        ReplayStep bind;
        bind.op = Op::bind;
        bind.names = {evil_a};
        bind.address = "addr?\?/\\\r*/\n" + kPayloadInMain;
        bind.text = "bind";
        ReplayStep close;
        close.op = Op::close;
        close.names = {evil_a, evil_b};
        close.text = "close";
        plan.steps = {pair, bind, close};
        ModelTrace model;
        model.errors.assign(plan.steps.size(), "");
        model.received.assign(plan.steps.size(), {});
        const ExportResult out = export_c(plan, model, "title", "model");
        QVERIFY(out.problems.empty());

        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString c = tmp.filePath(QStringLiteral("plan.c")), exe = tmp.filePath(QStringLiteral("plan"));
        QVERIFY(write_bytes(c.toStdString(), out.source));
        for (const Mode &mode : kModes) {
            const QStringList flags = kWarnings + mode.flags;
            const Ran cc = run(QStringLiteral("gcc"), flags + QStringList{QStringLiteral("-o"), exe, c});
            QVERIFY2(cc.status == 0, cc.err.constData());
            const Ran pre = run(QStringLiteral("gcc"), flags + QStringList{QStringLiteral("-E"), c});
            QCOMPARE(identifier_outside_literals(pre.out.toStdString(), "pwned_marker"), 0);
            const Ran r = run(exe, {QStringLiteral("--allow-host-namespace")});
            QVERIFY2(r.status == 0, (r.out + r.err).constData());
            QVERIFY(!r.out.split('\n').contains("PWNED"));
        }
    }

    // An errno name is spliced into the program as an <errno.h> macro: only the model's own.
    void unknown_errno_is_refused()
    {
        ReplayPlan plan;
        ReplayStep pair;
        pair.op = Op::socketpair;
        pair.names = {"a", "b"};
        pair.text = "socketpair a b";
        plan.steps = {pair};
        ModelTrace model;
        model.errors = {"EPERM); " + kPayloadInMain + " (0"};
        model.received.assign(plan.steps.size(), {});
        const ExportResult out = export_c(plan, model, "title", "model");
        QCOMPARE(out.problems.size(), std::size_t(1));
        QVERIFY2(out.problems[0].message.find("errno") != std::string::npos, out.problems[0].message.c_str());
        QVERIFY(out.source.empty());

        model.errors = {"EPERM"};
        const ExportResult known = export_c(plan, model, "title", "model");
        QVERIFY(known.problems.empty());
        QVERIFY(known.source.find(", EPERM);\n") != std::string::npos);
    }

    // Where no fresh network namespace can be made, the program says why and does not run the
    // scene; --allow-host-namespace runs it in the current one. In a user namespace without an
    // id mapping, both unshare() calls fail with EPERM: no capability over the network
    // namespace, and an unmapped uid may not create a nested user namespace.
    void refuses_the_host_namespace()
    {
        const QString unshare = QStandardPaths::findExecutable(QStringLiteral("unshare"));
        if (unshare.isEmpty())
            QSKIP("util-linux unshare is not installed: no way to make unshare() fail here");
        if (run(unshare, {QStringLiteral("--user"), QStringLiteral("true")}).status != 0)
            QSKIP("user namespaces are not available: the unmapped one that makes unshare() fail cannot be made");
        const QString exe = build_plain_scene();
        QVERIFY(!exe.isEmpty());

        const Ran refused = run(unshare, {QStringLiteral("--user"), exe});
        QCOMPARE(refused.status, 3);
        QVERIFY2(refused.err.contains(QByteArray("unshare(CLONE_NEWNET): ") + std::strerror(EPERM)),
                 refused.err.constData());
        QVERIFY2(refused.err.contains("refusing to run in the current network namespace"), refused.err.constData());
        QVERIFY2(refused.err.contains("--allow-host-namespace"), refused.err.constData());
        QVERIFY(!refused.out.contains("ok: the kernel agrees"));
        QVERIFY(!refused.out.contains("line "));

        const Ran allowed = run(unshare, {QStringLiteral("--user"), exe, QStringLiteral("--allow-host-namespace")});
        QVERIFY2(allowed.status == 0, (allowed.out + allowed.err).constData());
        QVERIFY(allowed.err.contains("note: --allow-host-namespace: running in the current network namespace"));
        QVERIFY(allowed.out.contains("ok: the kernel agrees with the model"));
    }

    void checks_its_arguments()
    {
        const QString exe = build_plain_scene();
        QVERIFY(!exe.isEmpty());
        const Ran unknown = run(exe, {QStringLiteral("--bogus")});
        QCOMPARE(unknown.status, 2);
        QVERIFY2(unknown.err.contains("usage: "), unknown.err.constData());
        QVERIFY(unknown.out.isEmpty());
        const Ran extra = run(exe, {QStringLiteral("--allow-host-namespace"), QStringLiteral("x")});
        QCOMPARE(extra.status, 2);
        const Ran help = run(exe, {QStringLiteral("--help")});
        QCOMPARE(help.status, 0);
        QVERIFY(help.out.contains("--allow-host-namespace"));
    }

private:
    QTemporaryDir plain_dir_;

    // A two-socket scene, exported and compiled once for the tests that only run it.
    QString build_plain_scene()
    {
        const QString exe = plain_dir_.filePath(QStringLiteral("plain"));
        if (QFile::exists(exe))
            return exe;
        const QString scene = plain_dir_.filePath(QStringLiteral("plain.scn")),
                      c = plain_dir_.filePath(QStringLiteral("plain.c"));
        if (!write_bytes(scene.toStdString(), "scene \"plain\"\nsocketpair a b stream\nnote \"done\"\n"))
            return {};
        if (run(cli(), {QStringLiteral("export-c"), scene, QStringLiteral("-o"), c}).status != 0)
            return {};
        if (run(QStringLiteral("cc"), kWarnings + QStringList{QStringLiteral("-o"), exe, c}).status != 0)
            return {};
        return exe;
    }
};

QTEST_GUILESS_MAIN(TestExportC)
#include "test_export_c.moc"
