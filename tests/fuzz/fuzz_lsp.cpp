// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: a byte stream as an editor, or anything else on the other end of the pipe,
// could send it to `inflight-cli lsp`, through the server's read loop in memory. It fails (abort)
// where the server would misbehave for any input: a crash or sanitizer report, an exit status
// other than 0 or 1, output that is not a sequence of framed JSON-RPC 2.0 messages, or output
// out of proportion to the input.
// Built by the `fuzz` preset (clang, -fsanitize=fuzzer); replay_main.cpp runs the same function
// over tests/fuzz/lsp/ in the normal build (ctest fuzz_lsp_replay).
#include "lsp_server.hpp"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

namespace {

// The most output a byte of input may cause: a short didOpen can be answered with a thousand
// diagnostics, a completion request with every statement's documentation.
constexpr std::size_t kOutputPerInputByte = 512;
constexpr std::size_t kOutputBase = 1 << 20;

[[noreturn]] void fail(const char *what, std::string_view detail)
{
    std::fprintf(stderr, "fuzz_lsp: %s\n%.*s\n", what, static_cast<int>(std::min<std::size_t>(detail.size(), 2000)),
                 detail.data());
    std::abort();
}

void check_message(std::string_view body)
{
    nlohmann::json message;
    try {
        message = nlohmann::json::parse(body);
    } catch (const std::exception &e) {
        fail("a message that is not valid JSON", std::string(e.what()) + "\n" + std::string(body));
    }
    if (!message.is_object() || message.value("jsonrpc", "") != "2.0")
        fail("a message that is not JSON-RPC 2.0", body);
    const bool notification = message.contains("method");
    if (notification == message.contains("id"))
        fail("neither a response nor a notification", body);
    if (!notification) {
        const nlohmann::json &id = message["id"];
        if (!id.is_null() && !id.is_string() && !id.is_number_integer())
            fail("a response with an id that is neither an integer nor a string", body);
        if (message.contains("result") == message.contains("error"))
            fail("a response needs exactly one of result and error", body);
    }
}

// The output, framed as the server frames it: "Content-Length: N\r\n\r\n" then N bytes.
void check_output(std::string_view out)
{
    constexpr std::string_view header = "Content-Length: ";
    while (!out.empty()) {
        if (out.substr(0, header.size()) != header)
            fail("output that is not a message header", out);
        out.remove_prefix(header.size());
        const std::size_t end = out.find("\r\n\r\n");
        std::size_t length = 0;
        const auto [at, ec] = std::from_chars(out.data(), out.data() + out.size(), length);
        if (end == std::string_view::npos || ec != std::errc() || at != out.data() + end ||
            length > out.size() - end - 4)
            fail("a bad Content-Length in the output", out);
        out.remove_prefix(end + 4);
        check_message(out.substr(0, length));
        out.remove_prefix(length);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    std::istringstream in(std::string(reinterpret_cast<const char *>(data), size));
    std::ostringstream out;
    std::ostringstream log;
    const int status = inflight::cli::run_language_server(in, out, log);
    if (status != 0 && status != 1)
        fail("an exit status other than 0 or 1", std::to_string(status));
    const std::string text = out.str();
    if (text.size() > kOutputBase + kOutputPerInputByte * size)
        fail("output out of proportion to the input", std::to_string(text.size()) + " bytes");
    check_output(text);
    return 0;
}
