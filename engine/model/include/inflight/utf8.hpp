// SPDX-License-Identifier: GPL-3.0-or-later
// UTF-8 at the edges: a scene file is bytes, but JSON must be UTF-8 and a terminal must not be
// sent escape sequences from a title. The parser warns where a file is not UTF-8; JSON output
// replaces such bytes (nlohmann's serializer, report.cpp), text output escapes them (printable()).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace inflight {

// Length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlongs, no surrogates, at
// most U+10FFFF), or 0 when the byte there does not start one.
std::size_t utf8_sequence(std::string_view s, std::size_t i);

// Offset of the first byte that is not part of well-formed UTF-8, if any.
std::optional<std::size_t> first_invalid_utf8(std::string_view s);

// For a terminal: control bytes (C0, DEL, C1) and bytes that are not UTF-8 become \xNN,
// a backslash stays a backslash; every other character is kept as it is.
std::string printable(std::string_view s);

} // namespace inflight
