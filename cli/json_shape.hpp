// SPDX-License-Identifier: GPL-3.0-or-later
// A check of untrusted JSON text before it is parsed: nlohmann::json parses, copies, prints and
// compares by recursion, so text nested deeper than the stack allows would crash it, and a body
// of tiny values ("[[],[],...]") would become a tree many times its size. One pass over the
// bytes, counting brackets outside strings, refuses both without building anything.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace inflight::cli {

struct JsonShapeLimits {
    std::size_t max_depth = 64;       // arrays and objects inside one another
    std::size_t max_values = 1 << 16; // arrays, objects and the elements and members in them
};

// Why `text` must not be parsed, or nullopt when it is within `limits` (it may still be invalid
// JSON: the parser says so then).
std::optional<std::string> json_shape_problem(std::string_view text, const JsonShapeLimits &limits = {});

} // namespace inflight::cli
