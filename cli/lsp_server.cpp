// SPDX-License-Identifier: GPL-3.0-or-later
#include "lsp_server.hpp"

#include "json_shape.hpp"
#include "lsp_framing.hpp"

#include "inflight/language_service.hpp"
#include "inflight/run_budget.hpp"

#include <iostream>
#include <stdexcept>
#include <string_view>

namespace inflight::cli {
namespace {

using nlohmann::json;

// LSP counts a line's characters in UTF-16 code units; the engine in bytes. A byte that is not
// valid UTF-8 counts as one unit.
std::size_t sequence_length(unsigned char lead)
{
    return lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 1;
}

// 1-based byte column -> 0-based UTF-16 character.
std::uint32_t utf16_of(std::string_view line, std::uint32_t col)
{
    const std::size_t bytes = col ? std::min<std::size_t>(col - 1, line.size()) : 0;
    std::uint32_t units = 0;
    for (std::size_t i = 0; i < bytes;) {
        const std::size_t n = sequence_length(static_cast<unsigned char>(line[i]));
        units += n == 4 ? 2 : 1;
        i += n;
    }
    // Past the end (a missing '{' after the last word): keep the distance.
    if (col && col - 1 > line.size())
        units += static_cast<std::uint32_t>(col - 1 - line.size());
    return units;
}

// 0-based UTF-16 character -> 1-based byte column.
std::uint32_t col_of(std::string_view line, std::uint32_t character)
{
    std::size_t i = 0;
    std::uint32_t units = 0;
    while (i < line.size() && units < character) {
        const std::size_t n = sequence_length(static_cast<unsigned char>(line[i]));
        units += n == 4 ? 2 : 1;
        i += n;
    }
    return static_cast<std::uint32_t>(std::min(i, line.size()) + 1);
}

std::string_view line_of(const std::vector<std::string_view> &lines, std::uint32_t line)
{
    return line >= 1 && line <= lines.size() ? lines[line - 1] : std::string_view();
}

json position(const std::vector<std::string_view> &lines, std::uint32_t line, std::uint32_t col)
{
    const std::uint32_t l = line ? line - 1 : 0;
    return {{"line", l}, {"character", line ? utf16_of(line_of(lines, line), col) : 0}};
}

json range(const std::vector<std::string_view> &lines, std::uint32_t line, std::uint32_t col, std::uint32_t end_col)
{
    return {{"start", position(lines, line, col)}, {"end", position(lines, line, std::max(end_col, col))}};
}

json response(const json &id, json result) { return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}; }

// JSON-RPC's and LSP's error codes.
enum ErrorCode : int {
    parse_error = -32700,
    invalid_request = -32600,
    method_not_found = -32601,
    invalid_params = -32602,
    server_not_initialized = -32002,
};

json error_response(const json &id, ErrorCode code, const std::string &message)
{
    return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

// Text from the input quoted in a reply: bounded (a method name may be megabytes long).
std::string excerpt(std::string_view s)
{
    constexpr std::size_t kShown = 200;
    return s.size() <= kShown ? std::string(s) : std::string(s.substr(0, kShown)) + "...";
}

// params that do not have the shape a method needs: InvalidParams for a request.
struct InvalidParams : std::runtime_error {
    using std::runtime_error::runtime_error;
};

const json &member(const json &object, const char *key)
{
    if (!object.is_object())
        throw InvalidParams(std::string("an object with '") + key + "' was expected");
    const auto it = object.find(key);
    if (it == object.end())
        throw InvalidParams(std::string("'") + key + "' is missing");
    return *it;
}

const json &object_member(const json &object, const char *key)
{
    const json &value = member(object, key);
    if (!value.is_object())
        throw InvalidParams(std::string("'") + key + "' must be an object");
    return value;
}

std::string string_member(const json &object, const char *key)
{
    const json &value = member(object, key);
    if (!value.is_string())
        throw InvalidParams(std::string("'") + key + "' must be a string");
    return value.get<std::string>();
}

std::int64_t integer_member(const json &object, const char *key)
{
    const json &value = member(object, key);
    if (!value.is_number_integer() || (value.is_number_unsigned() && value.get<std::uint64_t>() > INT64_MAX))
        throw InvalidParams(std::string("'") + key + "' must be an integer");
    return value.get<std::int64_t>();
}

// A 0-based line or character: LSP's uinteger, less one so that adding 1 cannot wrap.
std::uint32_t position_member(const json &object, const char *key)
{
    const json &value = member(object, key);
    if (!value.is_number_unsigned() || value.get<std::uint64_t>() >= UINT32_MAX)
        throw InvalidParams(std::string("'") + key + "' must be an integer from 0 to " +
                            std::to_string(UINT32_MAX - 1));
    return value.get<std::uint32_t>();
}

// Open documents together: each at most max_document_bytes(), and not unboundedly many.
std::uint64_t max_open_bytes() { return 16 * max_document_bytes(); }

// What one open document costs: its uri and text, and the bookkeeping around them (so that a
// flood of empty documents is bounded too).
std::uint64_t entry_bytes(const std::string &uri, const std::string &text)
{
    constexpr std::uint64_t kBookkeeping = 256;
    return uri.size() + text.size() + kBookkeeping;
}

json diagnostics_message(const std::string &uri, std::optional<std::int64_t> version, json list)
{
    json params = {{"uri", uri}, {"diagnostics", std::move(list)}};
    if (version)
        params["version"] = *version;
    return {{"jsonrpc", "2.0"}, {"method", "textDocument/publishDiagnostics"}, {"params", std::move(params)}};
}

// A document that is not kept, with the reason on its first line.
json refusal(const std::string &uri, std::int64_t version, const std::string &why)
{
    const json start = {{"line", 0}, {"character", 0}};
    return diagnostics_message(uri, version,
                               json::array({{{"range", {{"start", start}, {"end", start}}},
                                             {"severity", 1},
                                             {"source", "inflight"},
                                             {"message", why}}}));
}

int severity_of(inflight::Diagnostic::Severity s)
{
    switch (s) {
    case inflight::Diagnostic::Severity::error: return 1;
    case inflight::Diagnostic::Severity::warning: return 2;
    case inflight::Diagnostic::Severity::note: return 3;
    }
    return 1;
}

int completion_kind(inflight::CompletionItem::Kind k)
{
    // LSP's CompletionItemKind: Keyword 14, Property 10, Value 12, Variable 6.
    switch (k) {
    case inflight::CompletionItem::Kind::statement: return 14;
    case inflight::CompletionItem::Kind::keyword: return 14;
    case inflight::CompletionItem::Kind::option: return 10;
    case inflight::CompletionItem::Kind::value: return 12;
    case inflight::CompletionItem::Kind::name: return 6;
    }
    return 1;
}

int symbol_kind(inflight::SceneSymbol::Kind k)
{
    // LSP's SymbolKind: File 1, Namespace 3, Class 5, Variable 13, Object 19, Module 2.
    switch (k) {
    case inflight::SceneSymbol::Kind::title: return 1;
    case inflight::SceneSymbol::Kind::user: return 19;
    case inflight::SceneSymbol::Kind::process: return 5;
    case inflight::SceneSymbol::Kind::socket: return 13;
    case inflight::SceneSymbol::Kind::block: return 3;
    }
    return 13;
}

} // namespace

std::uint64_t max_document_bytes() { return budget_info(Budget::input_bytes).default_value; }

std::uint64_t max_message_bytes() { return 6 * max_document_bytes() + 64 * 1024; }

LanguageServer::LanguageServer(std::ostream &log) : log_(log) { }

json LanguageServer::publish(const std::string &uri) const
{
    json list = json::array();
    std::optional<std::int64_t> version;
    if (const auto doc = documents_.find(uri); doc != documents_.end()) {
        version = doc->second.version;
        const std::string &text = doc->second.text;
        const auto lines = inflight::split_lines(text);
        for (const inflight::Diagnostic &d : inflight::check_text(text, uri)) {
            json item = {{"range", range(lines, d.loc.line, d.loc.col ? d.loc.col : 1, d.end_col)},
                         {"severity", severity_of(d.severity)},
                         {"source", "inflight"},
                         {"message", d.message}};
            if (d.fix)
                item["data"] = {{"fix",
                                 {{"range", range(lines, d.fix->line, d.fix->col, d.fix->end_col)},
                                  {"newText", d.fix->replacement}}}};
            list.push_back(std::move(item));
        }
    }
    return diagnostics_message(uri, version, std::move(list));
}

std::optional<std::string> LanguageServer::store(const std::string &uri, std::string text, std::int64_t version)
{
    forget(uri); // whatever happens, the text held before is not the editor's any more
    const std::uint64_t cost = entry_bytes(uri, text);
    if (text.size() > max_document_bytes())
        return "the document has " + group_digits(text.size()) + " bytes, more than the limit of " +
               group_digits(max_document_bytes()) +
               " bytes of a scene; it is not checked (inflight-cli check --limit input-bytes=N checks a larger file)";
    if (open_bytes_ + cost > max_open_bytes())
        return "the open documents together would have more than " + group_digits(max_open_bytes()) +
               " bytes; close some to check this one";
    open_bytes_ += cost;
    documents_.emplace(uri, Document{std::move(text), version});
    return std::nullopt;
}

void LanguageServer::forget(const std::string &uri)
{
    if (const auto it = documents_.find(uri); it != documents_.end()) {
        open_bytes_ -= entry_bytes(it->first, it->second.text);
        documents_.erase(it);
    }
}

json LanguageServer::completion(const json &params) const
{
    const std::string uri = string_member(object_member(params, "textDocument"), "uri");
    const json &at = object_member(params, "position");
    const std::uint32_t line = position_member(at, "line") + 1;
    const std::uint32_t character = position_member(at, "character");
    const auto doc = documents_.find(uri);
    if (doc == documents_.end())
        return json::array();
    const auto lines = inflight::split_lines(doc->second.text);
    const std::uint32_t col = col_of(line_of(lines, line), character);
    std::uint32_t start = col;
    json items = json::array();
    for (const inflight::CompletionItem &c : inflight::complete_at(doc->second.text, line, col, &start)) {
        json item = {{"label", c.label}, {"kind", completion_kind(c.kind)}, {"detail", c.detail}};
        if (!c.documentation.empty())
            item["documentation"] = {{"kind", "plaintext"}, {"value", c.documentation}};
        item["textEdit"] = {{"range", range(lines, line, start, col)}, {"newText", c.label}};
        items.push_back(std::move(item));
    }
    return {{"isIncomplete", false}, {"items", std::move(items)}};
}

json LanguageServer::hover(const json &params) const
{
    const std::string uri = string_member(object_member(params, "textDocument"), "uri");
    const json &at = object_member(params, "position");
    const std::uint32_t line = position_member(at, "line") + 1;
    const std::uint32_t character = position_member(at, "character");
    const auto doc = documents_.find(uri);
    if (doc == documents_.end())
        return nullptr;
    const auto lines = inflight::split_lines(doc->second.text);
    const auto h = inflight::hover_at(doc->second.text, line, col_of(line_of(lines, line), character));
    if (!h)
        return nullptr;
    return {{"contents", {{"kind", "plaintext"}, {"value", h->text}}},
            {"range", range(lines, h->line, h->col, h->end_col)}};
}

json LanguageServer::symbols(const json &params) const
{
    const std::string uri = string_member(object_member(params, "textDocument"), "uri");
    const auto doc = documents_.find(uri);
    json list = json::array();
    if (doc == documents_.end())
        return list;
    const auto lines = inflight::split_lines(doc->second.text);
    for (const inflight::SceneSymbol &s : inflight::document_symbols(doc->second.text)) {
        const json selection = range(lines, s.line, s.col, s.end_col);
        json whole = selection;
        if (s.end_line > s.line)
            whole["end"] =
                position(lines, s.end_line, static_cast<std::uint32_t>(line_of(lines, s.end_line).size() + 1));
        list.push_back({{"name", s.name.empty() ? std::string("(unnamed)") : s.name},
                        {"detail", s.detail},
                        {"kind", symbol_kind(s.kind)},
                        {"range", std::move(whole)},
                        {"selectionRange", selection}});
    }
    return list;
}

std::vector<json> LanguageServer::report(const std::string &problem)
{
    log_ << "inflight-cli lsp: " << problem << '\n';
    log_.flush();
    if (!initialized_ || exited_)
        return {};
    // MessageType 1: Error.
    return {{{"jsonrpc", "2.0"}, {"method", "window/logMessage"}, {"params", {{"type", 1}, {"message", problem}}}}};
}

std::vector<json> LanguageServer::receive(std::string_view body)
{
    // Checked before parsing: nlohmann::json recurses on nesting (parse, copy, dump, destroy).
    if (const auto problem = json_shape_problem(body))
        return {error_response(nullptr, parse_error, "parse error: " + *problem)};
    json message;
    try {
        message = json::parse(body);
    } catch (const json::exception &e) {
        // Not only parse_error: a number beyond a double's range (1e999) is out_of_range 406.
        return {error_response(nullptr, parse_error, "parse error: " + excerpt(e.what()))};
    }
    return handle(message);
}

std::vector<json> LanguageServer::handle(const json &message)
{
    if (!message.is_object())
        return {error_response(nullptr, invalid_request, "a message must be a JSON object")};
    const auto id_at = message.find("id");
    const bool request = id_at != message.end();
    // LSP's ids are integers or strings; anything else is never echoed back.
    if (request && !id_at->is_string() && !id_at->is_number_integer())
        return {error_response(nullptr, invalid_request, "an id must be an integer or a string")};
    const json id = request ? *id_at : json();
    const auto version = message.find("jsonrpc");
    const auto method_at = message.find("method");
    if (method_at == message.end()) {
        if (request && (message.contains("result") || message.contains("error")))
            return {}; // a response, and this server sends no requests: nothing to match it with
        return request ? std::vector<json>{error_response(id, invalid_request, "a request needs a method")}
                       : report("a message with neither a method nor an id");
    }
    if (version == message.end() || *version != "2.0" || !method_at->is_string()) {
        const std::string problem = "not a JSON-RPC 2.0 request (\"jsonrpc\": \"2.0\" and a string method)";
        return request ? std::vector<json>{error_response(id, invalid_request, problem)} : report(problem);
    }
    const std::string method = method_at->get<std::string>();
    const auto params_at = message.find("params");
    const json no_params = json::object();
    const json &params = params_at == message.end() ? no_params : *params_at;
    if (!params.is_object() && !params.is_array()) {
        const std::string problem = "the params of " + excerpt(method) + " must be an object or an array";
        return request ? std::vector<json>{error_response(id, invalid_params, problem)} : report(problem);
    }

    if (method == "exit") {
        exited_ = true;
        return {};
    }
    if (!initialized_ && method != "initialize") {
        if (request)
            return {
                error_response(id, server_not_initialized,
                               "the server is not initialized yet: " + excerpt(method) + " came before initialize")};
        return {}; // LSP: notifications before initialize are dropped
    }
    if (shutdown_) {
        if (request)
            return {error_response(id, invalid_request, excerpt(method) + " came after shutdown")};
        return {};
    }
    std::vector<json> out;
    try {
        dispatch(method, id, params, out);
    } catch (const InvalidParams &e) {
        const std::string problem = "invalid params of " + excerpt(method) + ": " + e.what();
        if (!request)
            return report(problem);
        out.push_back(error_response(id, invalid_params, problem));
    }
    return out;
}

void LanguageServer::dispatch(const std::string &method, const json &id, const json &params, std::vector<json> &out)
{
    const bool request = !id.is_null();
    if (method == "initialize") {
        if (!request)
            throw InvalidParams("initialize is a request: it needs an id");
        if (initialized_) {
            out.push_back(error_response(id, invalid_request, "initialize came twice"));
            return;
        }
        initialized_ = true;
        out.push_back(response(id, {{"capabilities",
                                     {{"textDocumentSync", {{"openClose", true}, {"change", 1}}},
                                      {"completionProvider", {{"triggerCharacters", {" ", "=", ",", ":"}}}},
                                      {"hoverProvider", true},
                                      {"documentSymbolProvider", true}}},
                                    {"serverInfo", {{"name", "inflight-cli lsp"}}}}));
    } else if (method == "shutdown") {
        shutdown_ = true;
        if (request)
            out.push_back(response(id, nullptr));
    } else if (method == "textDocument/didOpen") {
        const json &doc = object_member(params, "textDocument");
        const std::string uri = string_member(doc, "uri");
        const std::int64_t version = integer_member(doc, "version");
        const auto refused = store(uri, string_member(doc, "text"), version);
        out.push_back(refused ? refusal(uri, version, *refused) : publish(uri));
    } else if (method == "textDocument/didChange") {
        const json &doc = object_member(params, "textDocument");
        const std::string uri = string_member(doc, "uri");
        const std::int64_t version = integer_member(doc, "version");
        const json &changes = member(params, "contentChanges");
        if (!changes.is_array())
            throw InvalidParams("'contentChanges' must be an array");
        // Full sync: the last change holds the whole text.
        std::optional<std::string> refused;
        if (!changes.empty())
            refused = store(uri, string_member(changes.back(), "text"), version);
        else if (auto it = documents_.find(uri); it != documents_.end())
            it->second.version = version;
        out.push_back(refused ? refusal(uri, version, *refused) : publish(uri));
    } else if (method == "textDocument/didClose") {
        const std::string uri = string_member(object_member(params, "textDocument"), "uri");
        forget(uri);
        // Clear what the editor shows for a file no longer open.
        out.push_back(publish(uri));
    } else if (method == "textDocument/completion") {
        out.push_back(response(id, completion(params)));
    } else if (method == "textDocument/hover") {
        out.push_back(response(id, hover(params)));
    } else if (method == "textDocument/documentSymbol") {
        out.push_back(response(id, symbols(params)));
    } else if (request) {
        out.push_back(error_response(id, method_not_found, "method not found: " + excerpt(method)));
    }
    // Other notifications (initialized, $/cancelRequest, $/setTrace, ...) need no answer.
}

void write_message(std::ostream &out, const json &message)
{
    const std::string body = message.dump(-1, ' ', false, json::error_handler_t::replace);
    out << "Content-Length: " << body.size() << "\r\n\r\n" << body;
    out.flush();
}

int run_language_server(std::istream &in, std::ostream &out, std::ostream &log)
{
    LanguageServer server(log);
    FrameReader reader(*in.rdbuf(), FramingLimits{1024, max_message_bytes()});
    const auto send = [&](const std::vector<json> &messages) {
        for (const json &m : messages)
            write_message(out, m);
        return static_cast<bool>(out);
    };
    for (;;) {
        Frame frame = reader.next();
        bool sent = true;
        switch (frame.kind) {
        case Frame::Kind::message: sent = send(server.receive(frame.body)); break;
        case Frame::Kind::skipped:
            sent = send(server.report(frame.problem + "; the message was skipped (a document may have at most " +
                                      group_digits(max_document_bytes()) + " bytes)"));
            break;
        case Frame::Kind::end:
            if (!frame.problem.empty())
                server.report(frame.problem);
            return 1; // the input ended without `exit`
        case Frame::Kind::lost:
            server.report(frame.problem + "; where the next message starts cannot be known, so the server stops");
            return 1;
        }
        if (!sent) {
            log << "inflight-cli lsp: cannot write to the client; the server stops\n";
            return 1;
        }
        if (server.exited())
            return server.exit_code();
    }
}

int run_language_server(std::istream &in, std::ostream &out)
{
    if (&in == &std::cin)
        std::ios::sync_with_stdio(false);
    return run_language_server(in, out, std::cerr);
}

} // namespace inflight::cli
