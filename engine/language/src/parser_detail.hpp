// SPDX-License-Identifier: GPL-3.0-or-later
// Engine-internal entry points shared by the parser's translation units (not public API).
#pragma once

#include "inflight/diagnostic.hpp"
#include "inflight/scene.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace inflight::detail {

// Syntax-only check of a name template, for the parser: every $var must be one of
// `bound_vars`, every ${expr} well formed, and every literal character one of [A-Za-z0-9_] or
// `extra_literal_chars`. Nothing is evaluated, so a division by zero that depends on a loop
// variable is not an error here (check_scene reports it when it unrolls the scene).
bool check_name_template(std::string_view text, const std::vector<std::string> &bound_vars,
                         std::string_view extra_literal_chars, std::string_view what, std::string *error,
                         std::size_t *error_offset);

// Put into `unreliable` (below) when a `set cpus` line was dropped: the checker then does not
// report "cpu N does not exist" on every cpu= that the broken line was meant to allow. No word of
// a scene contains a space, so it cannot clash with a name.
inline constexpr std::string_view kUnreliableCpus = "set cpus";

// check_scene() as the parser calls it: `unreliable` holds the words of lines the parser had
// to drop, so that a broken `socketpair a b` does not also produce "unknown name 'a'" on every
// later line that uses a. Null means "nothing was dropped". Returns how many diagnostics it
// did not keep (kDiagnosticsKept).
std::uint64_t check_scene_after_parse(const Scene &scene, std::vector<Diagnostic> &out,
                                      const std::unordered_set<std::string> *unreliable);

} // namespace inflight::detail
