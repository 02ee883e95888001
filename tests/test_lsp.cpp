// SPDX-License-Identifier: GPL-3.0-or-later
// `inflight-cli lsp` driven over a pipe as an editor drives it: JSON-RPC 2.0 with
// Content-Length framing, a document opened with 20 mistakes, completion, hover, outline,
// shutdown and exit; and hostile streams through a pipe under a memory bound.
#include "memory_limit.hpp"

#include "inflight/statement_table.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

class Client {
public:
    Client()
    {
        process_.setProgram(QStringLiteral(INFLIGHT_CLI));
        process_.setArguments({QStringLiteral("lsp")});
        process_.start();
    }
    bool started() { return process_.waitForStarted(10000); }

    void send(const QJsonObject &message)
    {
        const QByteArray body = QJsonDocument(message).toJson(QJsonDocument::Compact);
        process_.write("Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
    }
    void request(int id, const QString &method, const QJsonObject &params = {})
    {
        send({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
              {QStringLiteral("id"), id},
              {QStringLiteral("method"), method},
              {QStringLiteral("params"), params}});
    }
    void notify(const QString &method, const QJsonObject &params = {})
    {
        send({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
              {QStringLiteral("method"), method},
              {QStringLiteral("params"), params}});
    }

    // The next message that answers `id`, or the next notification `method`; waits on the pipe.
    QJsonObject wait(int id, const QString &method = {})
    {
        for (;;) {
            while (auto m = take()) {
                if ((id >= 0 && m->value(QStringLiteral("id")).toInt(-1) == id) ||
                    (!method.isEmpty() && m->value(QStringLiteral("method")).toString() == method))
                    return *m;
            }
            if (!process_.waitForReadyRead(10000))
                return {};
            buffer_ += process_.readAllStandardOutput();
        }
    }
    QProcess &process() { return process_; }

private:
    std::optional<QJsonObject> take()
    {
        const qsizetype end = buffer_.indexOf("\r\n\r\n");
        if (end < 0)
            return std::nullopt;
        const QByteArray header = buffer_.left(end);
        const qsizetype at = header.indexOf("Content-Length:");
        if (at < 0)
            return std::nullopt;
        const int length = header.mid(at + 15).trimmed().toInt();
        if (buffer_.size() < end + 4 + length)
            return std::nullopt;
        const QByteArray body = buffer_.mid(end + 4, length);
        buffer_.remove(0, end + 4 + length);
        return QJsonDocument::fromJson(body).object();
    }
    QProcess process_;
    QByteArray buffer_;
};

QJsonObject doc(const QString &uri) { return {{QStringLiteral("uri"), uri}}; }

QJsonObject position(int line, int character)
{
    return {{QStringLiteral("line"), line}, {QStringLiteral("character"), character}};
}

// Twenty statement keywords, each misspelt its own way (alike messages would be folded).
struct Piped {
    int exit_code = -1; // -1: it did not end normally (a crash, or the hang guard)
    QByteArray out, err;
};

// `generator` (a shell command list writing the client's bytes) piped into `inflight-cli lsp`
// running under a memory bound of `vmem_kb`.
Piped piped_into_server(const QString &generator, const char *vmem_kb)
{
    QProcess p;
    p.start(QStringLiteral("/bin/sh"),
            {QStringLiteral("-c"),
             QStringLiteral("{ %1; } | { %2exec \"$0\" lsp; }").arg(generator, inflight_test::memory_limit(vmem_kb)),
             QStringLiteral(INFLIGHT_CLI)});
    // A guard against a hang, not a time limit: each case ends when its input does.
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit) {
        p.kill();
        p.waitForFinished();
        return {-1, p.readAllStandardOutput(), p.readAllStandardError()};
    }
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

// Shell commands that frame JSON text (no single quotes in it) as one message.
QString framed(const QByteArray &body)
{
    return QStringLiteral("printf 'Content-Length: %1\\r\\n\\r\\n%2'").arg(body.size()).arg(QString::fromLatin1(body));
}

// What a server bounded to this many kilobytes of address space (the CLI's own input limit and
// its parser fit many times over) must never need, whatever it is sent.
constexpr const char *kServerMemoryKb = "200000";

const char *const kTypos[20] = {"sned", "recb",      "clsoe",  "lsiten", "acept",   "socketpiar", "conect",
                                "bnid", "dupp",      "splcie", "wiat",   "expcet",  "noet",       "proces",
                                "usr",  "setsockop", "gcc",    "sockte", "connetc", "sendd"};

} // namespace

class TestLsp : public QObject {
    Q_OBJECT
private slots:
    void aSessionAsAnEditorRunsIt()
    {
        Client c;
        QVERIFY(c.started());
        c.request(1, QStringLiteral("initialize"), {{QStringLiteral("capabilities"), QJsonObject()}});
        const QJsonObject init = c.wait(1);
        const QJsonObject caps = init[QStringLiteral("result")].toObject()[QStringLiteral("capabilities")].toObject();
        QVERIFY(caps[QStringLiteral("hoverProvider")].toBool());
        QVERIFY(caps[QStringLiteral("documentSymbolProvider")].toBool());
        QCOMPARE(caps[QStringLiteral("textDocumentSync")].toObject()[QStringLiteral("change")].toInt(), 1);
        c.notify(QStringLiteral("initialized"));

        // 20 mistakes, one per line, after two good lines.
        QString text = QStringLiteral("socketpair a b\nsocketpair c d\n");
        for (const char *typo : kTypos)
            text += QString::fromLatin1(typo) + QStringLiteral(" a\n");
        const QString uri = QStringLiteral("file:///tmp/twenty.scn");
        c.notify(
            QStringLiteral("textDocument/didOpen"),
            {{QStringLiteral("textDocument"), QJsonObject{{QStringLiteral("uri"), uri},
                                                          {QStringLiteral("languageId"), QStringLiteral("inflight")},
                                                          {QStringLiteral("version"), 1},
                                                          {QStringLiteral("text"), text}}}});
        const QJsonObject published = c.wait(-1, QStringLiteral("textDocument/publishDiagnostics"));
        const QJsonArray diagnostics =
            published[QStringLiteral("params")].toObject()[QStringLiteral("diagnostics")].toArray();
        QCOMPARE(diagnostics.size(), 20);
        for (int i = 0; i < 20; ++i) {
            const QJsonObject d = diagnostics[i].toObject();
            const QJsonObject range = d[QStringLiteral("range")].toObject();
            QCOMPARE(range[QStringLiteral("start")].toObject()[QStringLiteral("line")].toInt(), i + 2);
            QCOMPARE(range[QStringLiteral("start")].toObject()[QStringLiteral("character")].toInt(), 0);
            // The range is exactly the misspelt word.
            QCOMPARE(range[QStringLiteral("end")].toObject()[QStringLiteral("character")].toInt(),
                     static_cast<int>(std::strlen(kTypos[i])));
            QCOMPARE(d[QStringLiteral("severity")].toInt(), 1);
            QVERIFY2(d[QStringLiteral("message")].toString().contains(QString::fromLatin1(kTypos[i])),
                     qPrintable(d[QStringLiteral("message")].toString()));
        }
        // The did-you-mean comes as a replacement of that range.
        const QJsonObject fix =
            diagnostics[0].toObject()[QStringLiteral("data")].toObject()[QStringLiteral("fix")].toObject();
        QCOMPARE(fix[QStringLiteral("newText")].toString(), QStringLiteral("send"));

        // A change fixes one line: one fewer diagnostic.
        text.replace(QStringLiteral("sned a"), QStringLiteral("send a"));
        c.notify(QStringLiteral("textDocument/didChange"),
                 {{QStringLiteral("textDocument"),
                   QJsonObject{{QStringLiteral("uri"), uri}, {QStringLiteral("version"), 2}}},
                  {QStringLiteral("contentChanges"), QJsonArray{QJsonObject{{QStringLiteral("text"), text}}}}});
        const QJsonObject republished = c.wait(-1, QStringLiteral("textDocument/publishDiagnostics"));
        QCOMPARE(republished[QStringLiteral("params")].toObject()[QStringLiteral("diagnostics")].toArray().size(), 19);

        // Completion at the start of a line offers every statement.
        text += QStringLiteral("\n");
        c.notify(QStringLiteral("textDocument/didChange"),
                 {{QStringLiteral("textDocument"),
                   QJsonObject{{QStringLiteral("uri"), uri}, {QStringLiteral("version"), 3}}},
                  {QStringLiteral("contentChanges"), QJsonArray{QJsonObject{{QStringLiteral("text"), text}}}}});
        c.wait(-1, QStringLiteral("textDocument/publishDiagnostics"));
        c.request(2, QStringLiteral("textDocument/completion"),
                  {{QStringLiteral("textDocument"), doc(uri)}, {QStringLiteral("position"), position(23, 0)}});
        const QJsonArray items = c.wait(2)[QStringLiteral("result")].toObject()[QStringLiteral("items")].toArray();
        QStringList labels;
        for (const QJsonValue &i : items)
            labels << i.toObject()[QStringLiteral("label")].toString();
        QCOMPARE(static_cast<std::size_t>(inflight::statement_names().size()), std::size_t(25)); // with ask
        for (std::string_view name : inflight::statement_names())
            QVERIFY2(labels.contains(QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size()))),
                     name.data());

        // Hover on `send` explains it.
        c.request(4, QStringLiteral("textDocument/hover"),
                  {{QStringLiteral("textDocument"), doc(uri)}, {QStringLiteral("position"), position(2, 2)}});
        const QString hover = c.wait(4)[QStringLiteral("result")]
                                  .toObject()[QStringLiteral("contents")]
                                  .toObject()[QStringLiteral("value")]
                                  .toString();
        QVERIFY2(hover.startsWith(QStringLiteral("send S [fds=A,B,...]")), qPrintable(hover));
        QVERIFY2(hover.contains(QStringLiteral("SCM_RIGHTS")), qPrintable(hover));

        // The outline names the four sockets.
        c.request(5, QStringLiteral("textDocument/documentSymbol"), {{QStringLiteral("textDocument"), doc(uri)}});
        QStringList symbols;
        for (const QJsonValue &s : c.wait(5)[QStringLiteral("result")].toArray())
            symbols << s.toObject()[QStringLiteral("name")].toString();
        QCOMPARE(symbols,
                 (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("d")}));

        // An unknown request is an error response, not silence.
        c.request(6, QStringLiteral("textDocument/formatting"), {{QStringLiteral("textDocument"), doc(uri)}});
        QCOMPARE(c.wait(6)[QStringLiteral("error")].toObject()[QStringLiteral("code")].toInt(), -32601);

        c.request(7, QStringLiteral("shutdown"));
        const QJsonObject down = c.wait(7);
        QVERIFY(down.contains(QStringLiteral("result")));
        QVERIFY(down[QStringLiteral("result")].isNull());
        c.notify(QStringLiteral("exit"));
        QVERIFY(c.process().waitForFinished(10000));
        QCOMPARE(c.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(c.process().exitCode(), 0);
    }

    // check --json: the same diagnostics for scripts, with the end column and the fix-it.
    void checkJsonHasEndColumnsAndFixes()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile f(dir.filePath(QStringLiteral("j.scn")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("socketpair a b\nsned a fds=b\nclose zz\n");
        f.close();
        QProcess p;
        p.start(QStringLiteral(INFLIGHT_CLI), {QStringLiteral("check"), f.fileName(), QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 2);
        const QJsonArray list =
            QJsonDocument::fromJson(p.readAllStandardOutput()).object()[QStringLiteral("diagnostics")].toArray();
        QCOMPARE(list.size(), 2);
        const QJsonObject sned = list[0].toObject();
        QCOMPARE(sned[QStringLiteral("line")].toInt(), 2);
        QCOMPARE(sned[QStringLiteral("col")].toInt(), 1);
        QCOMPARE(sned[QStringLiteral("end_col")].toInt(), 5);
        QCOMPARE(sned[QStringLiteral("severity")].toString(), QStringLiteral("error"));
        const QJsonObject fix = sned[QStringLiteral("fix")].toObject();
        QCOMPARE(fix[QStringLiteral("replacement")].toString(), QStringLiteral("send"));
        QCOMPARE(fix[QStringLiteral("col")].toInt(), 1);
        QCOMPARE(fix[QStringLiteral("end_col")].toInt(), 5);
        const QJsonObject zz = list[1].toObject();
        QCOMPARE(zz[QStringLiteral("col")].toInt(), 7);
        QCOMPARE(zz[QStringLiteral("end_col")].toInt(), 9);
        QVERIFY(zz[QStringLiteral("fix")].isNull());
    }

    void completionAfterAStatementOffersItsOptionsAndNames()
    {
        Client c;
        QVERIFY(c.started());
        c.request(1, QStringLiteral("initialize"));
        c.wait(1);
        const QString uri = QStringLiteral("file:///tmp/opts.scn");
        const QString text = QStringLiteral("socketpair a b\nsend a \nset gc \n");
        c.notify(QStringLiteral("textDocument/didOpen"),
                 {{QStringLiteral("textDocument"), QJsonObject{{QStringLiteral("uri"), uri},
                                                               {QStringLiteral("version"), 1},
                                                               {QStringLiteral("text"), text}}}});
        c.wait(-1, QStringLiteral("textDocument/publishDiagnostics"));
        const auto labels_at = [&](int id, int line, int character) {
            c.request(
                id, QStringLiteral("textDocument/completion"),
                {{QStringLiteral("textDocument"), doc(uri)}, {QStringLiteral("position"), position(line, character)}});
            QStringList out;
            for (const QJsonValue &i :
                 c.wait(id)[QStringLiteral("result")].toObject()[QStringLiteral("items")].toArray())
                out << i.toObject()[QStringLiteral("label")].toString();
            return out;
        };
        const QStringList send = labels_at(2, 1, 7);
        for (const char *want : {"fds=", "bytes=", "to=", "oob", "a", "b"})
            QVERIFY2(send.contains(QString::fromLatin1(want)), want);
        const QStringList gc = labels_at(3, 2, 7);
        QCOMPARE(gc, (QStringList{QStringLiteral("classic"), QStringLiteral("async"), QStringLiteral("graph")}));
        // exit without shutdown: status 1, as LSP says.
        c.notify(QStringLiteral("exit"));
        QVERIFY(c.process().waitForFinished(10000));
        QCOMPARE(c.process().exitCode(), 1);
    }

    // A 55 MB didOpen is more than any document the server keeps: it is passed over as it
    // arrives, never held, and the request after it is answered.
    void aFiftyFiveMegabyteDidOpenIsSkippedInBoundedMemory()
    {
        const QByteArray before =
            "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":"
            "{\"uri\":\"file:///big.scn\",\"languageId\":\"inflight\",\"version\":1,\"text\":\"";
        const QByteArray after = "\"}}}";
        const qint64 text_bytes = 55 * 1000 * 1000;
        const QString generator =
            framed("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}") +
            QStringLiteral(
                "; printf 'Content-Length: %1\\r\\n\\r\\n%2'; head -c %3 /dev/zero | tr '\\0' a; printf '%4'; ")
                .arg(before.size() + text_bytes + after.size())
                .arg(QString::fromLatin1(before))
                .arg(text_bytes)
                .arg(QString::fromLatin1(after)) +
            framed("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"shutdown\"}") + QStringLiteral("; ") +
            framed("{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
        const Piped r = piped_into_server(generator, kServerMemoryKb);
        QVERIFY2(r.exit_code == 0, r.err.constData());
        QVERIFY2(r.out.contains("{\"id\":2,\"jsonrpc\":\"2.0\",\"result\":null}"), r.out.right(300).constData());
        QVERIFY(!r.out.contains("publishDiagnostics"));
        QVERIFY2(r.err.contains("more than the limit") && r.err.contains("skipped"), r.err.constData());
    }

    // 119 bytes claiming 1.47 GB: nothing is allocated for bytes that never come.
    void aHugeContentLengthAllocatesNothing()
    {
        const Piped r = piped_into_server(
            QStringLiteral("printf 'Content-Length: 1470000000\\r\\n\\r\\n%1'")
                .arg(QStringLiteral(
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":{}}}")),
            kServerMemoryKb);
        QCOMPARE(r.exit_code, 1);
        QVERIFY2(r.err.contains("1,470,000,000 bytes, more than the limit"), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    // A header line that never ends (256 MiB without a line break) is not kept.
    void anEndlessHeaderLineIsReadInBoundedMemory()
    {
        const Piped r = piped_into_server(
            QStringLiteral("printf 'Content-Length: 1'; head -c 268435456 /dev/zero | tr '\\0' 1"), kServerMemoryKb);
        QCOMPARE(r.exit_code, 1);
        QVERIFY2(r.err.contains("the input ended inside a message header"), r.err.constData());
    }

    // After a Content-Length that is not a number the server cannot find the next message: it
    // says so and exits, rather than waiting for ever with the client waiting on it.
    void aBadContentLengthEndsTheServerWithAMessage()
    {
        for (const char *header : {"Content-Length: twelve", "Content-Length: -1"}) {
            Client c;
            QVERIFY(c.started());
            c.process().write(QByteArray(header) + "\r\n\r\n{}");
            c.request(1, QStringLiteral("initialize"));
            // The pipe stays open: only the server can end the session.
            QVERIFY(c.process().waitForFinished(10000));
            QCOMPARE(c.process().exitStatus(), QProcess::NormalExit);
            QCOMPARE(c.process().exitCode(), 1);
            const QByteArray err = c.process().readAllStandardError();
            QVERIFY2(err.contains("is not a length in bytes") && err.contains("the server stops"), err.constData());
        }
    }
};

QTEST_MAIN(TestLsp)
#include "test_lsp.moc"
