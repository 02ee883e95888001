// SPDX-License-Identifier: GPL-3.0-or-later
// `inflight-cli lsp`: a Language Server (LSP 3.17 subset) over stdin/stdout, so VS Code, Kate,
// Neovim and Qt Creator show the diagnostics, completions, hover text and outline the app's
// editor shows, from the same engine calls (inflight/language_service.hpp).
// JSON-RPC 2.0 messages framed by "Content-Length: N\r\n\r\n" (lsp_framing.hpp); documents are
// synced whole. The input is untrusted: every message is bounded in size (a document at most the
// CLI's input-bytes limit) and in JSON nesting before it is parsed, and a bad one is answered
// with a JSON-RPC error or logged, never a crash.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inflight::cli {

class LanguageServer {
public:
    // `log` receives what cannot be answered (a message without an id that failed).
    explicit LanguageServer(std::ostream &log);

    // One message's content in; the responses and notifications to send, in order.
    std::vector<nlohmann::json> receive(std::string_view body);
    // A problem with no request to answer: logged, and sent as window/logMessage once the client
    // has initialized (the returned messages).
    std::vector<nlohmann::json> report(const std::string &problem);

    bool exited() const { return exited_; }
    // The process's exit status after `exit`: 0 when `shutdown` came first (LSP's rule).
    int exit_code() const { return shutdown_ ? 0 : 1; }

private:
    struct Document {
        std::string text;
        std::int64_t version = 0;
    };

    std::vector<nlohmann::json> handle(const nlohmann::json &message);
    void dispatch(const std::string &method, const nlohmann::json &id, const nlohmann::json &params,
                  std::vector<nlohmann::json> &out);
    // Keeps `text` as the document `uri`, or says why it is not kept (too large).
    std::optional<std::string> store(const std::string &uri, std::string text, std::int64_t version);
    void forget(const std::string &uri);
    nlohmann::json publish(const std::string &uri) const;
    nlohmann::json completion(const nlohmann::json &params) const;
    nlohmann::json hover(const nlohmann::json &params) const;
    nlohmann::json symbols(const nlohmann::json &params) const;

    std::ostream &log_;
    std::map<std::string, Document> documents_; // by uri
    std::uint64_t open_bytes_ = 0;              // entry_bytes() of documents_
    bool initialized_ = false;
    bool shutdown_ = false;
    bool exited_ = false;
};

// The largest message read: a document of the CLI's input-bytes limit in which every byte is
// escaped as \u00XX, with room for the request around it.
std::uint64_t max_message_bytes();
// The largest document kept: the CLI's input-bytes limit, as `inflight-cli check` has.
std::uint64_t max_document_bytes();

void write_message(std::ostream &out, const nlohmann::json &message);

// The server's loop: until `exit`, the end of input, or input whose framing is lost. Returns the
// exit status.
int run_language_server(std::istream &in, std::ostream &out, std::ostream &log);
// The same, logging to stderr.
int run_language_server(std::istream &in, std::ostream &out);

} // namespace inflight::cli
