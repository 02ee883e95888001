#include "watch_text.hpp"

#include <algorithm>

namespace inflight::detail {

namespace {

bool is_op_char(char c) { return c == '=' || c == '!' || c == '<' || c == '>'; }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Optimal string alignment distance (a swap of neighbours is one edit: "infilght" is 1 from
// "inflight"), capped at max + 1.
std::size_t distance(std::string_view a, std::string_view b, std::size_t max)
{
    const std::size_t diff = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
    if (diff > max || a.size() > 64 || b.size() > 64)
        return max + 1;
    const std::size_t w = b.size() + 1;
    std::vector<std::size_t> d((a.size() + 1) * w);
    for (std::size_t i = 0; i <= a.size(); ++i)
        d[i * w] = i;
    for (std::size_t j = 0; j <= b.size(); ++j)
        d[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t best = std::min({d[(i - 1) * w + j] + 1, d[i * w + j - 1] + 1,
                                         d[(i - 1) * w + j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                best = std::min(best, d[(i - 2) * w + j - 2] + 1);
            d[i * w + j] = best;
        }
    return std::min(d[a.size() * w + b.size()], max + 1);
}

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
        const std::size_t d = distance(word, c, 2);
        if (d < best_distance && d < word.size()) {
            best = c;
            best_distance = d;
        }
    }
    return best.empty() ? std::string() : "; did you mean '" + std::string(best) + "'?";
}

} // namespace inflight::detail
