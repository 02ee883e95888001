// SPDX-License-Identifier: GPL-3.0-or-later
// A Diagnostic as JSON, the same fields for `check --json`, `run --json` and the language server:
// file, line, col, end_col, severity, message, text and fix (null, or line/col/end_col/replacement).
#pragma once

#include "inflight/diagnostic.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace inflight::cli {

nlohmann::json diagnostic_json(const inflight::Diagnostic &d);
// {"diagnostics": [...]}, pretty-printed, with a final newline.
std::string diagnostics_json(const std::vector<inflight::Diagnostic> &diagnostics);

} // namespace inflight::cli
