// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/c_literal.hpp"

namespace inflight {

std::string c_literal(std::string_view bytes)
{
    std::string out = "\"";
    out.reserve(bytes.size() + 2);
    for (const char ch : bytes) {
        const auto b = static_cast<unsigned char>(ch);
        if (ch == '"' || ch == '\\' || ch == '?') {
            out += '\\';
            out += ch;
        } else if (b >= 0x20 && b < 0x7f) {
            out += ch;
        } else {
            // Always three digits: "\0" followed by a scene's "7" would otherwise read as "\07".
            out += '\\';
            out += static_cast<char>('0' + (b >> 6));
            out += static_cast<char>('0' + ((b >> 3) & 7));
            out += static_cast<char>('0' + (b & 7));
        }
    }
    return out + "\"";
}

} // namespace inflight
