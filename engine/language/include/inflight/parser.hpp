// Reading and checking scene files.
#pragma once

#include "inflight/diagnostic.hpp"
#include "inflight/scene.hpp"

#include <cstdint>

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
// The same, with every budget the scene raises with `set limit` held to at most `ceiling`
// (for a host that must bound even what a scene asks for: the fuzz target, a server).
ParseResult parse_scene(std::string_view text, std::string file_name, const RunBudget &ceiling);

// Reads and parses a file; a missing or unreadable file is one diagnostic ("path: error: ...").
// Only a regular file is read (a FIFO would block, /dev/zero never ends), and at most
// max_bytes of it (the input-bytes budget, run_budget.hpp): a larger one is rejected unread.
ParseResult load_scene_file(const std::string &path, std::uint64_t max_bytes = RunBudget()[Budget::input_bytes]);

// Static checks over the whole (unrolled) scene: unknown names, processes, users and labels,
// the object limit. Appends to `out`.
void check_scene(const Scene &scene, std::vector<Diagnostic> &out);

} // namespace inflight
