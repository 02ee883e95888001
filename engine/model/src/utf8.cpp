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

std::string printable(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    auto hex = [&](unsigned char c) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02X", c);
        out += buf;
    };
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const std::size_t n = utf8_sequence(s, i);
        if (n == 0 || c < 0x20 || c == 0x7F) {
            hex(c);
            ++i;
        } else if (n == 2 && c == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0) {
            // C1 controls (U+0080..U+009F): U+009B is CSI on some terminals.
            hex(c);
            hex(static_cast<unsigned char>(s[i + 1]));
            i += 2;
        } else {
            out.append(s.substr(i, n));
            i += n;
        }
    }
    return out;
}

} // namespace inflight
