// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/gc_era.hpp"

#include <array>

namespace inflight {
namespace {

struct EraInfo {
    GcEra era;
    std::string_view name;
    std::string_view kernel_label;
};

// Indexed by the enum's value, so the lookups below are a single array access.
constexpr std::array<EraInfo, 3> kEras{{
    {GcEra::classic, "classic", "2.6.23-6.8 (modelled: 6.8)"},
    {GcEra::async, "async", "6.9"},
    {GcEra::graph, "graph", "6.10-6.18 (modelled: 6.18)"},
}};

} // namespace

std::string_view era_name(GcEra era) { return kEras[static_cast<std::size_t>(era)].name; }

std::string_view era_kernel_label(GcEra era) { return kEras[static_cast<std::size_t>(era)].kernel_label; }

std::optional<GcEra> parse_era(std::string_view name)
{
    for (const auto &info : kEras)
        if (info.name == name)
            return info.era;
    return std::nullopt;
}

} // namespace inflight
