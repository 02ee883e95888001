// SPDX-License-Identifier: GPL-3.0-or-later
// Expansion of $var and ${expr} inside names, with the loop variables of enclosing repeats.
#pragma once

#include "inflight/scene.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace inflight {

// Innermost binding last.
using Bindings = std::vector<std::pair<std::string, std::int64_t>>;

// Expands a template: "$i" and "${expr}" (expr: integers, loop variables, + - * / % and
// parentheses). Returns nullopt and sets `error` (with the 0-based offset in `error_offset`)
// when a variable is unbound or the expression is malformed.
std::optional<std::string> expand_name(std::string_view text, const Bindings &bindings, std::string *error = nullptr,
                                       std::size_t *error_offset = nullptr);

// Convenience for the simulation: the template is known to be valid (check_scene passed).
std::string expand(const NameTemplate &name, const Bindings &bindings);

} // namespace inflight
