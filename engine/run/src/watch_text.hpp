// SPDX-License-Identifier: GPL-3.0-or-later
// Engine-internal: the words of a watch or breakpoint expression, and did-you-mean (not public API).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace inflight::detail {

struct WatchToken {
    std::string text;
    std::size_t column = 1; // 1-based, in the text given to watch_tokens()
    bool is_op = false;     // a run of = ! < > characters
};

// Splits at blanks, and around operator characters so that `inflight a>=2` reads as four words.
std::vector<WatchToken> watch_tokens(std::string_view text);

// "; did you mean 'inflight'?" when a candidate is within edit distance 2 (not for a one-letter
// word, which is close to everything), else "".
std::string did_you_mean(std::string_view word, const std::vector<std::string_view> &candidates);

} // namespace inflight::detail
