// A located message about a scene file: "file:line:col: error: message".
#pragma once

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

} // namespace inflight
