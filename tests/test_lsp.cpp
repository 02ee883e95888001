// SPDX-License-Identifier: GPL-3.0-or-later
// `inflight-cli lsp` driven over a pipe as an editor drives it: JSON-RPC 2.0 with
// Content-Length framing, a document opened with 20 mistakes, completion, hover, outline,
// shutdown and exit.
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
        QCOMPARE(static_cast<std::size_t>(inflight::statement_names().size()), std::size_t(24)); // with delayed_fput
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
};

QTEST_MAIN(TestLsp)
#include "test_lsp.moc"
