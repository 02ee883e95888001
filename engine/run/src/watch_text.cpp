// SPDX-License-Identifier: GPL-3.0-or-later
#include "watch_text.hpp"

#include "inflight/diagnostic.hpp"

#include <algorithm>

namespace inflight::detail {

namespace {

bool is_op_char(char c) { return c == '=' || c == '!' || c == '<' || c == '>'; }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

} // namespace

std::vector<WatchToken> watch_tokens(std::string_view text)
{
    std::vector<WatchToken> out;
    std::size_t i = 0;
    while (i < text.size()) {
        if (is_blank(text[i])) {
            ++i;
            continue;
        }
        const std::size_t start = i;
        const bool op = is_op_char(text[i]);
        while (i < text.size() && !is_blank(text[i]) && is_op_char(text[i]) == op)
            ++i;
        out.push_back(WatchToken{std::string(text.substr(start, i - start)), start + 1, op});
    }
    return out;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string_view> &candidates)
{
    std::string_view best;
    std::size_t best_distance = 3;
    for (std::string_view c : candidates) {
        const std::size_t d = edit_distance(word, c, 2);
        if (d < best_distance && d < word.size()) {
            best = c;
            best_distance = d;
        }
    }
    return best.empty() ? std::string() : "; did you mean '" + std::string(best) + "'?";
}

} // namespace inflight::detail
