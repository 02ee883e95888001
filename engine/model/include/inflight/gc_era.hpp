// SPDX-License-Identifier: GPL-3.0-or-later
// The three collector eras Inflight models, and the kernel versions each stands for.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace inflight {

enum class GcEra : unsigned char {
    classic, // 2.6.23 - 6.8: synchronous unix_gc() in the caller
    async,   // 6.9: the same algorithm run as queued work (Kuniyuki Iwashima's series)
    graph,   // 6.10 - 6.18: vertices, edges and Tarjan's SCC walk
};

// The eras' names in the enum's order: the one list the parser, its completions and the
// reports all read (constexpr so the language's static tables can point at it).
inline constexpr std::array<std::string_view, 3> kEraNames{"classic", "async", "graph"};

std::string_view era_name(GcEra era);         // "classic", "async", "graph"
std::string_view era_kernel_label(GcEra era); // e.g. "6.10-6.18 (modelled: 6.18)"
std::optional<GcEra> parse_era(std::string_view name);

} // namespace inflight
