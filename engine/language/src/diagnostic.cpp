#include "inflight/diagnostic.hpp"

#include <algorithm>

namespace inflight {
namespace {

const char *severity_word(Diagnostic::Severity severity)
{
    switch (severity) {
    case Diagnostic::Severity::error:
        return "error";
    case Diagnostic::Severity::warning:
        return "warning";
    case Diagnostic::Severity::note:
        return "note";
    }
    return "error";
}

} // namespace

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
    return std::any_of(diagnostics.begin(), diagnostics.end(), [](const Diagnostic &d) {
        return d.severity == Diagnostic::Severity::error;
    });
}

} // namespace inflight
