// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/diagnostic.hpp"

#include <algorithm>
#include <vector>

namespace inflight {

const char *severity_word(Diagnostic::Severity severity)
{
    switch (severity) {
    case Diagnostic::Severity::error: return "error";
    case Diagnostic::Severity::warning: return "warning";
    case Diagnostic::Severity::note: return "note";
    }
    return "error";
}

std::uint32_t word_end(std::string_view line, std::uint32_t col)
{
    if (col == 0)
        return 0;
    std::size_t p = col - 1;
    if (p >= line.size())
        return col + 1;
    if (line[p] == '"') {
        for (++p; p < line.size(); ++p) {
            if (line[p] == '\\' && p + 1 < line.size()) {
                ++p;
                continue;
            }
            if (line[p] == '"') {
                ++p;
                break;
            }
        }
        return static_cast<std::uint32_t>(p + 1);
    }
    const std::size_t start = p;
    while (p < line.size()) {
        const char c = line[p];
        if (c == '$' && p + 1 < line.size() && line[p + 1] == '{') {
            const std::size_t close = line.find('}', p);
            p = close == std::string_view::npos ? line.size() : close + 1;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '"' || c == '#' ||
            (p > start && (c == ',' || c == '=' || c == ':')))
            break;
        ++p;
    }
    if (p == start)
        ++p; // a lone ',' or '=': still one column to point at
    return static_cast<std::uint32_t>(p + 1);
}

std::string Diagnostic::format() const
{
    // The GNU "file:line:col:" shape, so editors and IDEs can jump to the location.
    std::string out = file;
    if (loc.line != 0) {
        out += ':';
        out += std::to_string(loc.line);
        if (loc.col != 0) {
            out += ':';
            out += std::to_string(loc.col);
        }
    }
    out += ": ";
    out += severity_word(severity);
    out += ": ";
    out += message;
    return out;
}

bool has_errors(const std::vector<Diagnostic> &diagnostics)
{
    return std::any_of(diagnostics.begin(), diagnostics.end(),
                       [](const Diagnostic &d) { return d.severity == Diagnostic::Severity::error; });
}

// Edit distance counting a swap of two neighbours as one edit ("sned" is 1 from "send"),
// giving up (returning max + 1) when it must exceed `max`. Only for short words.
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t max)
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
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            std::size_t best = std::min({d[(i - 1) * w + j] + 1, d[i * w + j - 1] + 1, d[(i - 1) * w + j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                best = std::min(best, d[(i - 2) * w + j - 2] + 1);
            d[i * w + j] = best;
        }
    }
    return std::min(d[a.size() * w + b.size()], max + 1);
}

namespace {

bool alike(const Diagnostic &a, const Diagnostic &b)
{
    return a.severity == b.severity && a.file == b.file &&
           ((a.loc.line == b.loc.line && a.loc.col == b.loc.col) || a.message == b.message);
}

std::string grouped(std::uint64_t n)
{
    std::string count = std::to_string(n);
    for (int p = static_cast<int>(count.size()) - 3; p > 0; p -= 3)
        count.insert(static_cast<std::size_t>(p), ",");
    return count;
}

} // namespace

void fold_repeats(std::vector<Diagnostic> &diagnostics, std::size_t keep)
{
    std::vector<Diagnostic> out;
    for (std::size_t i = 0; i < diagnostics.size();) {
        std::size_t j = i + 1;
        while (j < diagnostics.size() && alike(diagnostics[i], diagnostics[j]))
            ++j;
        std::uint64_t more = 0;
        for (std::size_t k = i; k < j; ++k) {
            more += diagnostics[k].repeats;
            if (k >= i + keep)
                ++more;
        }
        for (std::size_t k = i; k < std::min(j, i + keep); ++k) {
            out.push_back(std::move(diagnostics[k]));
            out.back().repeats = 0;
        }
        if (more) {
            Diagnostic note;
            note.severity = Diagnostic::Severity::note;
            note.file = out.back().file;
            note.loc = out.back().loc;
            note.message = "... and " + grouped(more) + " more like this";
            out.push_back(std::move(note));
        }
        i = j;
    }
    diagnostics = std::move(out);
}

void keep_diagnostic(std::vector<Diagnostic> &out, Diagnostic d, std::uint64_t &dropped)
{
    const std::size_t n = out.size();
    if (n >= 3 && alike(out[n - 1], d) && alike(out[n - 2], d) && alike(out[n - 3], d)) {
        ++out.back().repeats;
        return;
    }
    if (n >= kDiagnosticsKept) {
        ++dropped;
        return;
    }
    out.push_back(std::move(d));
}

bool fold_error_at(std::vector<Diagnostic> &out, const std::string &file, SourceLoc loc)
{
    const std::size_t n = out.size();
    if (n < 3)
        return false;
    for (std::size_t i = n - 3; i < n; ++i)
        if (out[i].severity != Diagnostic::Severity::error || out[i].loc.line != loc.line ||
            out[i].loc.col != loc.col || out[i].file != file)
            return false;
    ++out.back().repeats;
    return true;
}

Diagnostic dropped_note(const std::string &file, std::uint64_t dropped)
{
    Diagnostic d;
    d.severity = Diagnostic::Severity::note;
    d.file = file;
    d.message = "... and " + grouped(dropped) + " more diagnostics not shown (the first " +
                std::to_string(kDiagnosticsKept) + " are)";
    return d;
}

} // namespace inflight
