// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/gc_era.hpp"

#include <array>

namespace inflight {
namespace {

// Indexed by the enum's value, as kEraNames is, so the lookups below are a single array access.
constexpr std::array<std::string_view, kEraNames.size()> kKernelLabels{
    "2.6.23-6.8 (modelled: 6.8)",
    "6.9",
    "6.10-6.18 (modelled: 6.18)",
};
static_assert(static_cast<std::size_t>(GcEra::graph) + 1 == kEraNames.size(), "one name per era");

} // namespace

std::string_view era_name(GcEra era) { return kEraNames[static_cast<std::size_t>(era)]; }

std::string_view era_kernel_label(GcEra era) { return kKernelLabels[static_cast<std::size_t>(era)]; }

std::optional<GcEra> parse_era(std::string_view name)
{
    for (std::size_t i = 0; i < kEraNames.size(); ++i)
        if (kEraNames[i] == name)
            return static_cast<GcEra>(i);
    return std::nullopt;
}

} // namespace inflight
