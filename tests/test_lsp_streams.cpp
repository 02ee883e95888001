// SPDX-License-Identifier: GPL-3.0-or-later
// The language server's read loop driven in memory with hostile byte streams: malformed and
// oversized framing, JSON nested past any stack, ids that are not ids, and requests out of the
// protocol's order. Each case checks what the client receives (a JSON-RPC error, a log message, or
// the answer to the next request) and how the session ends.
#include "lsp_server.hpp"

#include <nlohmann/json.hpp>

#include <QTest>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

std::string frame(const std::string &body)
{
    return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::string request(int id, const std::string &method, const json &params = json::object())
{
    return frame(json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump());
}

std::string notification(const std::string &method, const json &params = json::object())
{
    return frame(json{{"jsonrpc", "2.0"}, {"method", method}, {"params", params}}.dump());
}

const std::string kInitialize = request(1, "initialize", {{"capabilities", json::object()}});
const std::string kShutdownAndExit = request(99, "shutdown") + notification("exit");

json open_params(const std::string &uri, const std::string &text, int version)
{
    return {{"textDocument", {{"uri", uri}, {"languageId", "inflight"}, {"version", version}, {"text", text}}}};
}

struct Session {
    int status = -1;
    std::vector<json> messages; // what the client received, in order
    std::string log;            // what the server wrote to stderr

    // The response to request `id`, or null when there was none.
    json response(int id) const
    {
        for (const json &m : messages)
            if (m.contains("id") && m["id"] == id)
                return m;
        return nullptr;
    }
    // Every notification `method`.
    std::vector<json> notifications(const std::string &method) const
    {
        std::vector<json> out;
        for (const json &m : messages)
            if (m.value("method", "") == method)
                out.push_back(m);
        return out;
    }
    int error_code(int id) const
    {
        const json r = response(id);
        return r.is_object() && r.contains("error") ? r["error"].value("code", 0) : 0;
    }
    // Errors answered with a null id (the request's own id could not be trusted).
    std::vector<int> null_id_errors() const
    {
        std::vector<int> out;
        for (const json &m : messages)
            if (m.contains("id") && m["id"].is_null() && m.contains("error"))
                out.push_back(m["error"].value("code", 0));
        return out;
    }
};

// Splits the server's output into messages; fails the test on anything that is not framed JSON.
std::vector<json> messages_of(const std::string &out)
{
    std::vector<json> list;
    std::size_t at = 0;
    while (at < out.size()) {
        const std::size_t end = out.find("\r\n\r\n", at);
        const std::string header = out.substr(at, end == std::string::npos ? std::string::npos : end - at);
        if (end == std::string::npos || header.rfind("Content-Length: ", 0) != 0) {
            QTest::qFail(("unframed output: " + out.substr(at, 200)).c_str(), __FILE__, __LINE__);
            return list;
        }
        const std::size_t length = std::stoul(header.substr(16));
        list.push_back(json::parse(out.substr(end + 4, length)));
        at = end + 4 + length;
    }
    return list;
}

// Runs the server over `input` (its std::cerr captured) until it returns.
Session run(const std::string &input)
{
    std::istringstream in(input);
    std::ostringstream out;
    std::ostringstream log;
    std::streambuf *const cerr = std::cerr.rdbuf(log.rdbuf());
    Session s;
    s.status = inflight::cli::run_language_server(in, out);
    std::cerr.rdbuf(cerr);
    s.messages = messages_of(out.str());
    s.log = log.str();
    return s;
}

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

constexpr std::size_t kDeep = 150'000;

} // namespace

class TestLspStreams : public QObject {
    Q_OBJECT
private slots:
    // A negative length is no length: the server says so and stops, instead of aborting.
    void negativeContentLengthStopsWithAMessage()
    {
        const Session s = run("Content-Length: -1\r\n\r\n" + kInitialize + kShutdownAndExit);
        QCOMPARE(s.status, 1);
        QVERIFY2(s.log.find("Content-Length '-1' is not a length in bytes") != std::string::npos, s.log.c_str());
        QVERIFY(s.messages.empty());
    }

    // Without a usable length the next message cannot be found: a prompt end with the reason,
    // not a server that reads on and never answers.
    void nonNumericContentLengthStopsWithAMessage()
    {
        for (const char *value : {"twelve", "+5", "5 5", "0x10", "99999999999999999999999"}) {
            const Session s = run(std::string("Content-Length: ") + value + "\r\n\r\n" + kInitialize);
            QCOMPARE(s.status, 1);
            QVERIFY2(s.log.find("is not a length in bytes") != std::string::npos, s.log.c_str());
            QVERIFY2(s.log.find("the server stops") != std::string::npos, s.log.c_str());
        }
        const Session none = run("Content-Type: application/vscode-jsonrpc\r\n\r\n{}" + kInitialize);
        QCOMPARE(none.status, 1);
        QVERIFY2(none.log.find("without Content-Length") != std::string::npos, none.log.c_str());
    }

    // Header names are case-insensitive (LSP's headers are HTTP's).
    void headerNamesInAnyCase()
    {
        std::string input = kInitialize + kShutdownAndExit;
        for (std::size_t at = 0; (at = input.find("Content-Length", at)) != std::string::npos; ++at)
            input.replace(at, 14, at == 0 ? "content-length" : "CONTENT-LENGTH");
        const Session s = run(input);
        QVERIFY(s.response(1).contains("result"));
        QVERIFY(s.response(99).contains("result"));
        QCOMPARE(s.status, 0);
    }

    // A length far beyond the limit: the declared bytes are passed over unread (nothing is
    // allocated for them) and the message after them is answered.
    void overLimitMessageIsSkippedAndTheNextAnswered()
    {
        const std::uint64_t length = inflight::cli::max_message_bytes() + 1;
        std::string body = json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "shutdown"}}.dump();
        body.resize(length, ' ');
        const Session s =
            run(kInitialize + frame(body) +
                request(3, "textDocument/documentSymbol", {{"textDocument", {{"uri", "file:///a.scn"}}}}) +
                kShutdownAndExit);
        QVERIFY2(s.response(2).is_null(), s.response(2).dump().c_str()); // never read
        QVERIFY(s.response(3).contains("result"));
        QVERIFY(s.response(99).contains("result"));
        QCOMPARE(s.status, 0);
        const auto logged = s.notifications("window/logMessage");
        QCOMPARE(logged.size(), std::size_t(1));
        const std::string text = logged[0]["params"]["message"];
        QVERIFY2(text.find("more than the limit") != std::string::npos, text.c_str());
        QVERIFY2(text.find("skipped") != std::string::npos, text.c_str());
    }

    // A Content-Length of 2^64 - 1 with a hundred bytes after it: skipped until the input ends.
    void hugeContentLengthEndsWithTheInput()
    {
        const Session s = run("Content-Length: 18446744073709551615\r\n\r\n" + kInitialize);
        QCOMPARE(s.status, 1);
        QVERIFY(s.messages.empty());
        QVERIFY2(s.log.find("more than the limit") != std::string::npos, s.log.c_str());
        QVERIFY2(s.log.find("the input ended inside that message") != std::string::npos, s.log.c_str());
    }

    // A header line past the bound is read to its end and not kept; the message it belongs to
    // is skipped by its length, and the next is answered.
    void overlongHeaderLineSkipsItsMessage()
    {
        const std::string body = json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "shutdown"}}.dump();
        const std::string input = kInitialize + "X-Padding: " + std::string(4096, 'x') +
                                  "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body +
                                  kShutdownAndExit;
        const Session s = run(input);
        QVERIFY(s.response(2).is_null());
        QVERIFY(s.response(99).contains("result"));
        QCOMPARE(s.status, 0);
        QVERIFY2(s.log.find("a header line longer than 1024 bytes") != std::string::npos, s.log.c_str());

        // A line that never ends: the input runs out while it is discarded.
        const Session endless = run(kInitialize + "Content-Length: 1" + std::string(8 << 20, '1'));
        QCOMPARE(endless.status, 1);
        QVERIFY2(endless.log.find("the input ended inside a message header") != std::string::npos, endless.log.c_str());
    }

    // Nesting past the depth limit is refused before it is parsed, wherever it is: the id, the
    // params, a notification. The session goes on.
    void deepNestingIsAParseError()
    {
        const std::vector<std::string> bodies = {
            R"({"jsonrpc":"2.0","id":)" + nested(kDeep) + R"(,"method":"shutdown"})",
            R"({"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":)" + nested(kDeep) + "}",
            R"({"jsonrpc":"2.0","method":"initialized","params":{"x":)" + nested(kDeep) + "}}",
            nested(kDeep),
        };
        for (const std::string &body : bodies) {
            const Session s = run(kInitialize + frame(body) + kShutdownAndExit);
            QCOMPARE(s.null_id_errors(), std::vector<int>{-32700});
            QVERIFY(s.response(2).is_null());
            QVERIFY(s.response(99).contains("result"));
            QCOMPARE(s.status, 0);
        }
        // 64 levels are fine (an unknown request: method not found), 65 are not.
        const auto at_depth = [](std::size_t depth) {
            return R"({"jsonrpc":"2.0","id":2,"method":"x/y","params":)" + nested(depth - 1) + "}";
        };
        QCOMPARE(run(kInitialize + frame(at_depth(64))).error_code(2), -32601);
        QCOMPARE(run(kInitialize + frame(at_depth(65))).null_id_errors(), std::vector<int>{-32700});
        // Brackets inside strings are text, not nesting.
        const Session text =
            run(kInitialize + notification("textDocument/didOpen", open_params("file:///b.scn", nested(kDeep), 1)));
        QCOMPARE(text.notifications("textDocument/publishDiagnostics").size(), std::size_t(1));
    }

    // A number no double can hold is a parse error like any other, and the server goes on.
    void numberOutOfRangeIsAParseError()
    {
        for (const char *number : {"1e999", "-1e999", "55555.5555e555555555555555552777777777"}) {
            const std::string body =
                std::string(R"({"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"x":)") + number + "}}";
            const Session s = run(kInitialize + frame(body) + kShutdownAndExit);
            QCOMPARE(s.null_id_errors(), std::vector<int>{-32700});
            QVERIFY(s.response(99).contains("result"));
            QCOMPARE(s.status, 0);
        }
    }

    // An id is an integer or a string; anything else is an invalid request answered with a null id.
    void idsThatAreNotIds()
    {
        for (const char *id : {R"({"a":1})", "[2]", "1.5", "true", "null"}) {
            const Session s =
                run(kInitialize + frame(std::string(R"({"jsonrpc":"2.0","method":"shutdown","id":)") + id + "}") +
                    notification("exit"));
            QCOMPARE(s.null_id_errors(), std::vector<int>{-32600});
            QCOMPARE(s.status, 1); // the shutdown was refused, so the exit came without one
        }
        const Session string_id = run(kInitialize + frame(R"({"jsonrpc":"2.0","method":"shutdown","id":"s1"})"));
        QVERIFY(string_id.messages.back()["id"] == "s1");
    }

    // Before initialize: requests get ServerNotInitialized, notifications are dropped, exit exits.
    void requestsBeforeInitialize()
    {
        const Session s =
            run(request(5, "textDocument/hover",
                        {{"textDocument", {{"uri", "file:///a.scn"}}}, {"position", {{"line", 0}, {"character", 0}}}}) +
                notification("textDocument/didOpen", open_params("file:///a.scn", "sned a\n", 1)) +
                request(6, "shutdown") + kInitialize + kShutdownAndExit);
        QCOMPARE(s.error_code(5), -32002);
        QCOMPARE(s.error_code(6), -32002);
        QVERIFY(s.notifications("textDocument/publishDiagnostics").empty());
        QVERIFY(s.response(1).contains("result"));
        QCOMPARE(s.status, 0);
        QCOMPARE(run(notification("exit")).status, 1);
    }

    // After shutdown: requests are invalid, notifications dropped; exit then ends with 0.
    void requestsAfterShutdown()
    {
        const Session s = run(
            kInitialize + request(2, "shutdown") +
            request(3, "textDocument/documentSymbol", {{"textDocument", {{"uri", "file:///a.scn"}}}}) +
            request(4, "shutdown") + notification("textDocument/didOpen", open_params("file:///a.scn", "sned a\n", 1)) +
            notification("exit") + request(5, "shutdown"));
        QVERIFY(s.response(2).contains("result"));
        QCOMPARE(s.error_code(3), -32600);
        QCOMPARE(s.error_code(4), -32600);
        QVERIFY(s.notifications("textDocument/publishDiagnostics").empty());
        QVERIFY(s.response(5).is_null()); // nothing is read after exit
        QCOMPARE(s.status, 0);
    }

    // Params of the wrong shape are InvalidParams, for every method that reads them.
    void paramsOfTheWrongType()
    {
        const json bad_position = {{"textDocument", {{"uri", "file:///a.scn"}}},
                                   {"position", {{"line", -1}, {"character", 0}}}};
        const Session s = run(
            kInitialize + request(2, "textDocument/hover", bad_position) +
            request(3, "textDocument/completion", {{"textDocument", {{"uri", 5}}}}) +
            request(4, "textDocument/documentSymbol", json::array({1, 2})) +
            frame(R"({"jsonrpc":"2.0","id":5,"method":"textDocument/hover","params":"x"})") +
            request(6, "textDocument/hover",
                    {{"textDocument", {{"uri", "file:///a.scn"}}}, {"position", {{"line", 0}, {"character", 1.5}}}}) +
            notification("textDocument/didOpen", {{"textDocument", "x"}}) + kShutdownAndExit);
        for (int id = 2; id <= 6; ++id)
            QCOMPARE(s.error_code(id), -32602);
        const auto logged = s.notifications("window/logMessage");
        QCOMPARE(logged.size(), std::size_t(1)); // the notification has no id to answer
        QCOMPARE(s.status, 0);
    }

    void unknownRequestIsMethodNotFound()
    {
        const Session s =
            run(kInitialize + request(2, "workspace/symbol") + notification("x/unknown") + kShutdownAndExit);
        QCOMPARE(s.error_code(2), -32601);
        QCOMPARE(s.messages.size(), std::size_t(3)); // initialize, the error, shutdown: nothing for the notification
    }

    // Published diagnostics say which version of the document they are for.
    void publishedDiagnosticsCarryTheVersion()
    {
        const std::string uri = "file:///v.scn";
        const Session s = run(kInitialize + notification("textDocument/didOpen", open_params(uri, "sned a\n", 7)) +
                              notification("textDocument/didChange",
                                           {{"textDocument", {{"uri", uri}, {"version", 8}}},
                                            {"contentChanges", json::array({{{"text", "socketpair a b\n"}}})}}) +
                              kShutdownAndExit);
        const auto published = s.notifications("textDocument/publishDiagnostics");
        QCOMPARE(published.size(), std::size_t(2));
        QCOMPARE(published[0]["params"]["version"].get<int>(), 7);
        QCOMPARE(published[0]["params"]["diagnostics"].size(), std::size_t(1));
        QCOMPARE(published[1]["params"]["version"].get<int>(), 8);
        QCOMPARE(published[1]["params"]["diagnostics"].size(), std::size_t(0));
    }

    // A document over the CLI's input-bytes limit is not kept or checked, on open and on change;
    // the editor is told why, on the document itself.
    void documentOverTheInputLimitIsRefused()
    {
        const std::string uri = "file:///big.scn";
        const std::string big(inflight::cli::max_document_bytes() + 1, '\n');
        const auto change = [&](const std::string &text, int version) {
            return notification("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", version}}},
                                                           {"contentChanges", json::array({{{"text", text}}})}});
        };
        const Session s =
            run(kInitialize + notification("textDocument/didOpen", open_params(uri, big, 1)) + change("sned a\n", 2) +
                change(big, 3) + request(4, "textDocument/documentSymbol", {{"textDocument", {{"uri", uri}}}}) +
                kShutdownAndExit);
        const auto published = s.notifications("textDocument/publishDiagnostics");
        QCOMPARE(published.size(), std::size_t(3));
        for (std::size_t i : {0, 2}) {
            const json &list = published[i]["params"]["diagnostics"];
            QCOMPARE(list.size(), std::size_t(1));
            const std::string message = list[0]["message"];
            QVERIFY2(message.find("more than the limit of 2,097,152 bytes") != std::string::npos, message.c_str());
        }
        const std::string checked = published[1]["params"]["diagnostics"][0]["message"];
        QVERIFY2(checked.find("sned") != std::string::npos, checked.c_str());
        QVERIFY(s.response(4)["result"] == json::array()); // the refused text is not kept
    }

    // Open documents are bounded together too: past the total, the next one is refused until
    // another is closed.
    void openDocumentsAreBoundedTogether()
    {
        // One comment line: quick to check, so that the bound is what the test spends time on.
        const std::string text = "#" + std::string(inflight::cli::max_document_bytes() - 1, 'x');
        const auto uri = [](int i) { return "file:///" + std::to_string(i) + ".scn"; };
        std::string input = kInitialize;
        for (int i = 0; i < 16; ++i)
            input += notification("textDocument/didOpen", open_params(uri(i), text, 1));
        input += notification("textDocument/didClose", {{"textDocument", {{"uri", uri(0)}}}}) +
                 notification("textDocument/didOpen", open_params(uri(15), "sned a\n", 2)) + kShutdownAndExit;
        const Session s = run(input);
        const auto published = s.notifications("textDocument/publishDiagnostics");
        QCOMPARE(published.size(), std::size_t(18));
        for (int i = 0; i < 15; ++i)
            QVERIFY(published[i]["params"]["diagnostics"].empty());
        const std::string refused = published[15]["params"]["diagnostics"][0]["message"];
        QVERIFY2(refused.find("the open documents together") != std::string::npos, refused.c_str());
        const std::string checked = published[17]["params"]["diagnostics"][0]["message"];
        QVERIFY2(checked.find("sned") != std::string::npos, checked.c_str());
    }
};

QTEST_MAIN(TestLspStreams)
#include "test_lsp_streams.moc"
