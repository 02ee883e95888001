// SPDX-License-Identifier: GPL-3.0-or-later
// UTF-8 at the edges: a scene file is bytes, but JSON must be UTF-8 and a terminal must not be
// sent escape sequences from a title. The parser warns where a file is not UTF-8; JSON output
// replaces such bytes (nlohmann's serializer, report.cpp), text output escapes them and every
// control or invisible character (printable()).
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

// Whether code point `cp` changes how a terminal or an editor shows the text around it without
// being seen itself: C1 controls, bidirectional controls (Trojan Source: U+202E shows a name
// backwards), zero-width and other format characters, line and paragraph separators,
// noncharacters. printable() names these instead of sending them.
bool is_invisible_code_point(char32_t cp);

// The code point of the well-formed sequence of `n` bytes at s[i] (n from utf8_sequence()).
char32_t utf8_code_point(std::string_view s, std::size_t i, std::size_t n);

// "U+202E": how messages name a code point.
std::string code_point_name(char32_t cp);

enum class LineBreaks : unsigned char { escape, keep };

// The one way text from a scene, a file name or an argument reaches a terminal. Printable UTF-8
// is kept as it is (a backslash too); C0 controls, ESC and DEL become \xNN, as does every byte
// that is not UTF-8; invisible code points (is_invisible_code_point) become <U+202E>. With
// LineBreaks::keep, '\n' stays (for text of several lines that is escaped as a whole).
std::string printable(std::string_view s, LineBreaks line_breaks = LineBreaks::escape);

} // namespace inflight
