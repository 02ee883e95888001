// SPDX-License-Identifier: GPL-3.0-or-later
// The LSP base protocol's framing ("Content-Length: N\r\n\r\n" then N bytes), read from an
// untrusted byte stream in bounded memory: header lines have a maximum length, header names
// are case-insensitive, Content-Length is digits only and at most `max_body`, and nothing is
// allocated from a declared length before its bytes have arrived. A message whose headers are
// bad but whose length is known is skipped unread, so the next one is read normally; without a
// length the stream cannot be followed and the reader says so.
#pragma once

#include <cstdint>
#include <optional>
#include <streambuf>
#include <string>
#include <string_view>

namespace inflight::cli {

struct FramingLimits {
    std::size_t max_header_line = 1024; // bytes of one header line, its line end excluded
    std::uint64_t max_body = 0;         // bytes of one message's content
};

struct Frame {
    enum class Kind : unsigned char {
        message, // `body` holds the content
        skipped, // a bad or too large message, passed over unread; `problem` says why
        end,     // the input ended; `problem` is set when it ended inside a message
        lost,    // the framing cannot be followed any more (no usable length); `problem` says why
    };
    Kind kind = Kind::end;
    std::string body;
    std::string problem;
};

class FrameReader {
public:
    FrameReader(std::streambuf &in, FramingLimits limits) : in_(in), limits_(limits) { }
    Frame next();

private:
    enum class LineEnd : unsigned char { complete, too_long, input_ended };
    LineEnd read_header_line(std::string &line);
    bool discard(std::uint64_t bytes);
    bool read_body(std::uint64_t bytes, std::string &body);

    std::streambuf &in_;
    FramingLimits limits_;
};

// A Content-Length value: decimal digits only (no sign, no spaces inside), at most 2^64 - 1.
std::optional<std::uint64_t> parse_content_length(std::string_view value);

} // namespace inflight::cli
