// SPDX-License-Identifier: GPL-3.0-or-later
// A located message about a scene file: "file:line:col: error: message".
#pragma once

#include <cstddef>
#include <string_view>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace inflight {

struct SourceLoc {
    std::uint32_t line = 0; // 1-based; 0 = no line (e.g. the file could not be opened)
    std::uint32_t col = 0;  // 1-based column of the offending token
};

// A replacement an editor can apply with one click: the did-you-mean of a message. Replaces
// the bytes [col, end_col) of `line` (1-based byte columns, end exclusive) with `replacement`.
struct FixIt {
    std::uint32_t line = 0;
    std::uint32_t col = 0;
    std::uint32_t end_col = 0;
    std::string replacement;
};

struct Diagnostic {
    enum class Severity : unsigned char { error, warning, note };
    Severity severity = Severity::error;
    std::string file;
    SourceLoc loc;
    // One past the last byte of the offending text on loc.line (exclusive, 1-based), so an editor
    // can underline exactly it; 0 until parse_scene() fills it in (see range_end()).
    std::uint32_t end_col = 0;
    std::string message;
    std::optional<FixIt> fix;
    // Alike diagnostics folded into this one as they came (keep_diagnostic()): fold_repeats()
    // says "... and N more like this" for them.
    std::uint64_t repeats = 0;

    // "file:line:col: error: message" (or "file: error: message" without a line).
    std::string format() const;
};

bool has_errors(const std::vector<Diagnostic> &diagnostics);

const char *severity_word(Diagnostic::Severity severity); // "error", "warning", "note"

// Where the word that starts at 1-based byte column `col` of `line` ends (exclusive): a quoted
// string to its closing quote, ${...} whole, otherwise up to a space, ',', '=', '#', '"' or the
// end. A column past the end of the line (a missing '{') covers one column.
std::uint32_t word_end(std::string_view line, std::uint32_t col);

// One mistake repeated by a range or a repeat (fds=s{0..99999} naming undefined fds) gives
// 100,000 diagnostics at one column: each run of neighbours at the same place and severity, or
// with the same message, keeps its first `keep` and ends with one note "... and 99,999 more like
// this". The errors still count: a folded run of errors keeps its first error.
void fold_repeats(std::vector<Diagnostic> &diagnostics, std::size_t keep = 3);

// The diagnostics a parse keeps: a scene of a million mistakes must not take a million messages
// of memory. keep_diagnostic() folds a fourth alike neighbour into the third (its `repeats`) and
// counts, without keeping, whatever comes once kDiagnosticsKept are kept.
inline constexpr std::size_t kDiagnosticsKept = 1000;
void keep_diagnostic(std::vector<Diagnostic> &out, Diagnostic d, std::uint64_t &dropped);
// The same fold decided before a message is built (100,000 of them cost seconds): true, and
// the fold counted, when the last three kept are errors at `loc` in `file`.
bool fold_error_at(std::vector<Diagnostic> &out, const std::string &file, SourceLoc loc);
// The note that ends a list that dropped some: "... and N more diagnostics not shown".
Diagnostic dropped_note(const std::string &file, std::uint64_t dropped);

// Edit distance counting a swap of two neighbours as one edit ("sned" is 1 from "send"),
// giving up (returning max + 1) when it must exceed `max`: the did-you-mean of every message.
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t max);

} // namespace inflight
