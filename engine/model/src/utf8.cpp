// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/utf8.hpp"

#include <cstdio>

namespace inflight {

std::size_t utf8_sequence(std::string_view s, std::size_t i)
{
    const auto b = [&](std::size_t j) { return j < s.size() ? static_cast<unsigned char>(s[j]) : 0u; };
    const unsigned c = b(i);
    auto cont = [&](std::size_t j, unsigned lo = 0x80, unsigned hi = 0xBF) { return b(j) >= lo && b(j) <= hi; };
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        return cont(i + 1) ? 2 : 0;
    if (c == 0xE0)
        return cont(i + 1, 0xA0) && cont(i + 2) ? 3 : 0;
    if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF)
        return cont(i + 1) && cont(i + 2) ? 3 : 0;
    if (c == 0xED)
        return cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : 0;
    if (c == 0xF0)
        return cont(i + 1, 0x90) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    if (c >= 0xF1 && c <= 0xF3)
        return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    if (c == 0xF4)
        return cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    return 0;
}

std::optional<std::size_t> first_invalid_utf8(std::string_view s)
{
    for (std::size_t i = 0; i < s.size();) {
        // ASCII runs are the common case: skip them a byte at a time without the table.
        if (static_cast<unsigned char>(s[i]) < 0x80) {
            ++i;
            continue;
        }
        const std::size_t n = utf8_sequence(s, i);
        if (n == 0)
            return i;
        i += n;
    }
    return std::nullopt;
}

bool is_invisible_code_point(char32_t cp)
{
    // Unicode's format characters (general category Cf), the line and paragraph separators
    // (Zl, Zp), C1 controls, and fillers that render as nothing (Hangul fillers, the combining
    // grapheme joiner, Khmer inherent vowels), as ranges of code points.
    struct Range {
        char32_t first, last;
    };
    static constexpr Range kInvisible[] = {
        {0x0080, 0x009F},   {0x00AD, 0x00AD},   {0x034F, 0x034F},   {0x0600, 0x0605},   {0x061C, 0x061C},
        {0x06DD, 0x06DD},   {0x070F, 0x070F},   {0x0890, 0x0891},   {0x08E2, 0x08E2},   {0x115F, 0x1160},
        {0x17B4, 0x17B5},   {0x180B, 0x180F},   {0x200B, 0x200F},   {0x2028, 0x202E},   {0x2060, 0x206F},
        {0x3164, 0x3164},   {0xFDD0, 0xFDEF},   {0xFE00, 0xFE0F},   {0xFEFF, 0xFEFF},   {0xFFA0, 0xFFA0},
        {0xFFF9, 0xFFFB},   {0xFFFE, 0xFFFF},   {0x110BD, 0x110BD}, {0x110CD, 0x110CD}, {0x13430, 0x1343F},
        {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0000, 0xE0FFF},
    };
    if (cp < 0x80)
        return false;
    if ((cp & 0xFFFE) == 0xFFFE) // U+xFFFE and U+xFFFF of every plane are noncharacters
        return true;
    for (const Range &r : kInvisible)
        if (cp >= r.first && cp <= r.last)
            return true;
    return false;
}

char32_t utf8_code_point(std::string_view s, std::size_t i, std::size_t n)
{
    const auto b = [&](std::size_t j) { return static_cast<char32_t>(static_cast<unsigned char>(s[i + j])); };
    switch (n) {
    case 1: return b(0);
    case 2: return (b(0) & 0x1F) << 6 | (b(1) & 0x3F);
    case 3: return (b(0) & 0x0F) << 12 | (b(1) & 0x3F) << 6 | (b(2) & 0x3F);
    case 4: return (b(0) & 0x07) << 18 | (b(1) & 0x3F) << 12 | (b(2) & 0x3F) << 6 | (b(3) & 0x3F);
    default: return 0xFFFD;
    }
}

std::string code_point_name(char32_t cp)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(cp));
    return buf;
}

std::string printable(std::string_view s, LineBreaks line_breaks)
{
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const std::size_t n = utf8_sequence(s, i);
        if (c == '\n' && line_breaks == LineBreaks::keep) {
            out += '\n';
            ++i;
        } else if (n == 0 || c < 0x20 || c == 0x7F) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02X", c);
            out += buf;
            ++i;
        } else if (const char32_t cp = utf8_code_point(s, i, n); is_invisible_code_point(cp)) {
            out += "<" + code_point_name(cp) + ">";
            i += n;
        } else {
            out.append(s.substr(i, n));
            i += n;
        }
    }
    return out;
}

} // namespace inflight
