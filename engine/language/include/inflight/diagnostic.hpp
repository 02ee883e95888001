// SPDX-License-Identifier: GPL-3.0-or-later
// A located message about a scene file: "file:line:col: error: message".
#pragma once

#include <cstddef>
#include <string_view>

#include <cstdint>
#include <string>
#include <vector>

namespace inflight {

struct SourceLoc {
    std::uint32_t line = 0; // 1-based; 0 = no line (e.g. the file could not be opened)
    std::uint32_t col = 0;  // 1-based column of the offending token
};

struct Diagnostic {
    enum class Severity : unsigned char { error, warning, note };
    Severity severity = Severity::error;
    std::string file;
    SourceLoc loc;
    std::string message;

    // "file:line:col: error: message" (or "file: error: message" without a line).
    std::string format() const;
};

bool has_errors(const std::vector<Diagnostic> &diagnostics);

// Edit distance counting a swap of two neighbours as one edit ("sned" is 1 from "send"),
// giving up (returning max + 1) when it must exceed `max`: the did-you-mean of every message.
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t max);

} // namespace inflight
