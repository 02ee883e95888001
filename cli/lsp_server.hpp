// SPDX-License-Identifier: GPL-3.0-or-later
// `inflight-cli lsp`: a Language Server (LSP 3.17 subset) over stdin/stdout, so VS Code, Kate,
// Neovim and Qt Creator show the diagnostics, completions, hover text and outline the app's
// editor shows, from the same engine calls (inflight/language_service.hpp).
// JSON-RPC 2.0 messages framed by "Content-Length: N\r\n\r\n"; documents are synced whole.
#pragma once

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace inflight::cli {

class LanguageServer {
public:
    // One message in; the responses and notifications to send, in order.
    std::vector<nlohmann::json> handle(const nlohmann::json &message);
    bool exited() const { return exited_; }
    // The process's exit status after `exit`: 0 when `shutdown` came first (LSP's rule).
    int exit_code() const { return shutdown_ ? 0 : 1; }

private:
    nlohmann::json publish(const std::string &uri);
    nlohmann::json completion(const nlohmann::json &params) const;
    nlohmann::json hover(const nlohmann::json &params) const;
    nlohmann::json symbols(const nlohmann::json &params) const;

    std::map<std::string, std::string> documents_; // uri -> text
    bool shutdown_ = false;
    bool exited_ = false;
};

// Reads one framed message; nullopt at the end of input. A malformed header or body is skipped
// (`error` says why) rather than ending the session.
std::optional<std::string> read_message(std::istream &in, std::string *error = nullptr);
void write_message(std::ostream &out, const nlohmann::json &message);

// The server's loop: until `exit` or the end of input. Returns the exit status.
int run_language_server(std::istream &in, std::ostream &out);

} // namespace inflight::cli
