// SPDX-License-Identifier: GPL-3.0-or-later
// Reading and checking scene files.
#pragma once

#include "inflight/diagnostic.hpp"
#include "inflight/scene.hpp"

#include <cstdint>
#include <optional>
#include <utility>

#include <string>
#include <string_view>
#include <vector>

namespace inflight {

struct ParseResult {
    Scene scene;
    std::vector<Diagnostic> diagnostics; // every problem in the file, in line order
    bool ok() const { return !has_errors(diagnostics); }
};

// Parses scene text. Never throws on bad input: every problem becomes a Diagnostic and parsing
// continues with the next line. Includes check_scene() when the syntax is sound enough to check.
ParseResult parse_scene(std::string_view text, std::string file_name);

// Budgets set by the host rather than the scene: `overrides` replace the scene's `set limit`
// lines (inflight-cli --limit; the checker's objects and name-lookups budgets apply at parse
// time), then every budget is held to at most `ceiling` when one is given (for a host that
// must bound even what a scene asks for: the fuzz target, a server).
struct ParseLimits {
    std::vector<std::pair<Budget, std::uint64_t>> overrides;
    std::optional<RunBudget> ceiling;
};
ParseResult parse_scene(std::string_view text, std::string file_name, const ParseLimits &limits);

// Reads and parses a file; a missing or unreadable file is one diagnostic ("path: error: ...").
// Only a regular file is read (a FIFO would block, /dev/zero never ends), and at most the
// input-bytes budget of it (run_budget.hpp, or its override in `limits`): a larger one is
// rejected unread.
ParseResult load_scene_file(const std::string &path, const ParseLimits &limits = {});

void check_scene(const Scene &scene, std::vector<Diagnostic> &out);

} // namespace inflight
