// SPDX-License-Identifier: GPL-3.0-or-later
#include "json_shape.hpp"

#include "inflight/run_budget.hpp"

namespace inflight::cli {

std::optional<std::string> json_shape_problem(std::string_view text, const JsonShapeLimits &limits)
{
    std::size_t depth = 0;
    std::size_t values = 0;
    bool in_string = false;
    bool escaped = false;
    for (const char c : text) {
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
            continue;
        }
        switch (c) {
        case '"': in_string = true; break;
        case '[':
        case '{':
            if (++depth > limits.max_depth)
                return "JSON nested more than " + std::to_string(limits.max_depth) + " levels deep";
            [[fallthrough]];
        case ',':
            if (++values > limits.max_values)
                return "JSON with more than " + group_digits(limits.max_values) + " values";
            break;
        case ']':
        case '}':
            if (depth > 0)
                --depth;
            break;
        default: break;
        }
    }
    return std::nullopt;
}

} // namespace inflight::cli
