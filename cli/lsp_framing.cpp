// SPDX-License-Identifier: GPL-3.0-or-later
#include "lsp_framing.hpp"

#include "inflight/run_budget.hpp"

#include <algorithm>
#include <array>
#include <charconv>

namespace inflight::cli {
namespace {

constexpr std::size_t kChunk = 64 * 1024;

bool same_name(std::string_view a, std::string_view b)
{
    const auto lower = [](unsigned char c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; };
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [&](char x, char y) { return lower(x) == lower(y); });
}

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

// Header bytes quoted in a message for a log or a terminal: short, printable ASCII only.
std::string quoted(std::string_view s)
{
    constexpr std::size_t kShown = 40;
    std::string out = "'";
    for (std::size_t i = 0; i < std::min(s.size(), kShown); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c < 0x7F && c != '\\') {
            out += static_cast<char>(c);
        } else {
            static constexpr char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
        }
    }
    out += s.size() > kShown ? "...'" : "'";
    return out;
}

void add_problem(std::string &problems, const std::string &problem)
{
    if (!problems.empty())
        problems += "; ";
    problems += problem;
}

} // namespace

std::optional<std::uint64_t> parse_content_length(std::string_view value)
{
    if (value.empty() || !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    std::uint64_t n = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || end != value.data() + value.size())
        return std::nullopt; // too large for 64 bits
    return n;
}

FrameReader::LineEnd FrameReader::read_header_line(std::string &line)
{
    line.clear();
    bool too_long = false;
    for (;;) {
        const int c = in_.sbumpc();
        if (c == std::streambuf::traits_type::eof())
            return LineEnd::input_ended;
        if (c == '\n')
            break;
        if (line.size() <= limits_.max_header_line) // one byte over: the '\r' of a full line
            line += static_cast<char>(c);
        else
            too_long = true; // read on to the line's end, keeping nothing
    }
    if (!line.empty() && line.back() == '\r')
        line.pop_back();
    return too_long || line.size() > limits_.max_header_line ? LineEnd::too_long : LineEnd::complete;
}

bool FrameReader::discard(std::uint64_t bytes)
{
    std::array<char, kChunk> sink;
    while (bytes > 0) {
        const auto want = static_cast<std::streamsize>(std::min<std::uint64_t>(bytes, sink.size()));
        const std::streamsize got = in_.sgetn(sink.data(), want);
        if (got <= 0)
            return false;
        bytes -= static_cast<std::uint64_t>(got);
    }
    return true;
}

bool FrameReader::read_body(std::uint64_t bytes, std::string &body)
{
    // Grown as the bytes arrive: a length is only a claim until then.
    body.clear();
    while (body.size() < bytes) {
        const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(bytes - body.size(), kChunk));
        const std::size_t at = body.size();
        body.resize(at + want);
        const std::streamsize got = in_.sgetn(body.data() + at, static_cast<std::streamsize>(want));
        body.resize(at + static_cast<std::size_t>(std::max<std::streamsize>(got, 0)));
        if (got < static_cast<std::streamsize>(want))
            return false;
    }
    return true;
}

Frame FrameReader::next()
{
    std::optional<std::uint64_t> length;
    bool length_unusable = false;
    bool in_header = false;
    std::string problems;
    std::string line;
    for (;;) {
        const LineEnd end = read_header_line(line);
        if (end == LineEnd::input_ended) {
            if (!in_header && line.empty())
                return {Frame::Kind::end, {}, {}};
            return {Frame::Kind::end, {}, "the input ended inside a message header"};
        }
        if (end == LineEnd::too_long) {
            in_header = true;
            add_problem(problems, "a header line longer than " + std::to_string(limits_.max_header_line) + " bytes");
            continue;
        }
        if (line.empty()) {
            if (in_header)
                break;
            continue; // blank lines between messages
        }
        in_header = true;
        const std::size_t colon = line.find(':');
        if (colon == std::string::npos) {
            add_problem(problems, "a header line without ':' " + quoted(line));
            continue;
        }
        // LSP's headers are HTTP's: names are case-insensitive. Content-Type and any other
        // header do not change how the content is read.
        if (!same_name(trimmed(std::string_view(line).substr(0, colon)), "Content-Length"))
            continue;
        const std::string_view value = trimmed(std::string_view(line).substr(colon + 1));
        const auto n = parse_content_length(value);
        if (!n) {
            length_unusable = true;
            add_problem(problems, "Content-Length " + quoted(value) + " is not a length in bytes");
        } else if (length && *length != *n) {
            length_unusable = true;
            add_problem(problems, "two different Content-Length headers");
        } else {
            length = n;
        }
    }
    if (!length || length_unusable)
        return {Frame::Kind::lost,
                {},
                problems.empty() ? std::string("a message header without Content-Length") : problems};
    if (*length > limits_.max_body)
        add_problem(problems, "a message of " + group_digits(*length) + " bytes, more than the limit of " +
                                  group_digits(limits_.max_body) + " bytes");
    if (!problems.empty()) {
        if (!discard(*length))
            return {Frame::Kind::end, {}, problems + "; the input ended inside that message"};
        return {Frame::Kind::skipped, {}, problems};
    }
    Frame frame;
    if (!read_body(*length, frame.body))
        return {Frame::Kind::end,
                {},
                "the input ended inside a message (" + group_digits(frame.body.size()) + " of " +
                    group_digits(*length) + " bytes)"};
    frame.kind = Frame::Kind::message;
    return frame;
}

} // namespace inflight::cli
