// SPDX-License-Identifier: GPL-3.0-or-later
#include "lsp_server.hpp"

#include "inflight/language_service.hpp"

#include <iostream>
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

json error_response(const json &id, int code, const std::string &message)
{
    return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
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

json LanguageServer::publish(const std::string &uri)
{
    const std::string &text = documents_[uri];
    const auto lines = inflight::split_lines(text);
    json list = json::array();
    for (const inflight::Diagnostic &d : inflight::check_text(text, uri)) {
        json item = {{"range", range(lines, d.loc.line, d.loc.col ? d.loc.col : 1, d.end_col)},
                     {"severity", severity_of(d.severity)},
                     {"source", "inflight"},
                     {"message", d.message}};
        if (d.fix)
            item["data"] = {
                {"fix",
                 {{"range", range(lines, d.fix->line, d.fix->col, d.fix->end_col)}, {"newText", d.fix->replacement}}}};
        list.push_back(std::move(item));
    }
    return {{"jsonrpc", "2.0"},
            {"method", "textDocument/publishDiagnostics"},
            {"params", {{"uri", uri}, {"diagnostics", std::move(list)}}}};
}

json LanguageServer::completion(const json &params) const
{
    const std::string uri = params.at("textDocument").at("uri").get<std::string>();
    const auto doc = documents_.find(uri);
    if (doc == documents_.end())
        return json::array();
    const auto lines = inflight::split_lines(doc->second);
    const std::uint32_t line = params.at("position").at("line").get<std::uint32_t>() + 1;
    const std::uint32_t col = col_of(line_of(lines, line), params.at("position").at("character").get<std::uint32_t>());
    std::uint32_t start = col;
    json items = json::array();
    for (const inflight::CompletionItem &c : inflight::complete_at(doc->second, line, col, &start)) {
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
    const std::string uri = params.at("textDocument").at("uri").get<std::string>();
    const auto doc = documents_.find(uri);
    if (doc == documents_.end())
        return nullptr;
    const auto lines = inflight::split_lines(doc->second);
    const std::uint32_t line = params.at("position").at("line").get<std::uint32_t>() + 1;
    const std::uint32_t col = col_of(line_of(lines, line), params.at("position").at("character").get<std::uint32_t>());
    const auto h = inflight::hover_at(doc->second, line, col);
    if (!h)
        return nullptr;
    return {{"contents", {{"kind", "plaintext"}, {"value", h->text}}},
            {"range", range(lines, h->line, h->col, h->end_col)}};
}

json LanguageServer::symbols(const json &params) const
{
    const std::string uri = params.at("textDocument").at("uri").get<std::string>();
    const auto doc = documents_.find(uri);
    json list = json::array();
    if (doc == documents_.end())
        return list;
    const auto lines = inflight::split_lines(doc->second);
    for (const inflight::SceneSymbol &s : inflight::document_symbols(doc->second)) {
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

std::vector<json> LanguageServer::handle(const json &message)
{
    std::vector<json> out;
    if (!message.is_object() || !message.contains("method")) {
        if (message.is_object() && message.contains("id"))
            out.push_back(error_response(message["id"], -32600, "not a request"));
        return out; // a response to something we never asked: nothing to do
    }
    const std::string method = message["method"].is_string() ? message["method"].get<std::string>() : "";
    const bool request = message.contains("id");
    const json id = request ? message["id"] : json();
    const json params = message.value("params", json::object());
    try {
        if (method == "initialize") {
            out.push_back(response(id, {{"capabilities",
                                         {{"textDocumentSync", {{"openClose", true}, {"change", 1}}},
                                          {"completionProvider", {{"triggerCharacters", {" ", "=", ",", ":"}}}},
                                          {"hoverProvider", true},
                                          {"documentSymbolProvider", true}}},
                                        {"serverInfo", {{"name", "inflight-cli lsp"}}}}));
        } else if (method == "initialized" || method == "$/cancelRequest" || method == "$/setTrace") {
            // notifications that need no answer
        } else if (method == "shutdown") {
            shutdown_ = true;
            out.push_back(response(id, nullptr));
        } else if (method == "exit") {
            exited_ = true;
        } else if (method == "textDocument/didOpen") {
            const json &doc = params.at("textDocument");
            const std::string uri = doc.at("uri").get<std::string>();
            documents_[uri] = doc.at("text").get<std::string>();
            out.push_back(publish(uri));
        } else if (method == "textDocument/didChange") {
            const std::string uri = params.at("textDocument").at("uri").get<std::string>();
            // Full sync: the last change holds the whole text.
            const json &changes = params.at("contentChanges");
            if (!changes.empty())
                documents_[uri] = changes.back().at("text").get<std::string>();
            out.push_back(publish(uri));
        } else if (method == "textDocument/didClose") {
            const std::string uri = params.at("textDocument").at("uri").get<std::string>();
            documents_.erase(uri);
            // Clear what the editor shows for a file no longer open.
            out.push_back({{"jsonrpc", "2.0"},
                           {"method", "textDocument/publishDiagnostics"},
                           {"params", {{"uri", uri}, {"diagnostics", json::array()}}}});
        } else if (method == "textDocument/completion") {
            out.push_back(response(id, completion(params)));
        } else if (method == "textDocument/hover") {
            out.push_back(response(id, hover(params)));
        } else if (method == "textDocument/documentSymbol") {
            out.push_back(response(id, symbols(params)));
        } else if (request) {
            out.push_back(error_response(id, -32601, "method not found: " + method));
        }
    } catch (const json::exception &e) {
        if (request)
            out.push_back(error_response(id, -32602, std::string("invalid params: ") + e.what()));
    }
    return out;
}

std::optional<std::string> read_message(std::istream &in, std::string *error)
{
    std::size_t length = 0;
    bool have_length = false;
    std::string header;
    while (std::getline(in, header)) {
        if (!header.empty() && header.back() == '\r')
            header.pop_back();
        if (header.empty()) {
            if (have_length)
                break;
            continue; // stray blank line between messages
        }
        constexpr std::string_view key = "Content-Length:";
        if (header.size() > key.size() && std::string_view(header).substr(0, key.size()) == key) {
            try {
                length = std::stoul(header.substr(key.size()));
                have_length = true;
            } catch (const std::exception &) {
                if (error)
                    *error = "bad Content-Length header: " + header;
            }
        }
    }
    if (!in || !have_length)
        return std::nullopt;
    std::string body(length, '\0');
    in.read(body.data(), static_cast<std::streamsize>(length));
    if (static_cast<std::size_t>(in.gcount()) != length)
        return std::nullopt;
    return body;
}

void write_message(std::ostream &out, const json &message)
{
    const std::string body = message.dump(-1, ' ', false, json::error_handler_t::replace);
    out << "Content-Length: " << body.size() << "\r\n\r\n" << body;
    out.flush();
}

int run_language_server(std::istream &in, std::ostream &out)
{
    std::ios::sync_with_stdio(false);
    LanguageServer server;
    std::string error;
    while (auto body = read_message(in, &error)) {
        json message;
        try {
            message = json::parse(*body);
        } catch (const json::parse_error &e) {
            write_message(out, {{"jsonrpc", "2.0"},
                                {"id", nullptr},
                                {"error", {{"code", -32700}, {"message", std::string("parse error: ") + e.what()}}}});
            continue;
        }
        for (const json &reply : server.handle(message))
            write_message(out, reply);
        if (server.exited())
            return server.exit_code();
    }
    return server.exited() ? server.exit_code() : 1;
}

} // namespace inflight::cli
