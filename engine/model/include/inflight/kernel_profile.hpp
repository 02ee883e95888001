// SPDX-License-Identifier: GPL-3.0-or-later
// Kernel profiles: the kernels a scene can name with `set kernel VERSION`. Each is a collector
// era and the set of named changes (kernel_change.hpp) that kernel has: those of its release and
// before, and the ones its stable branch took back (6.1.y and 6.6.y run the graph collector).
// `set gc classic|async|graph` stays as shorthand for the era's default profile.
#pragma once

#include "inflight/gc_era.hpp"
#include "inflight/kernel_change.hpp"

#include <span>
#include <string_view>

namespace inflight {

struct KernelProfile {
    std::string_view name;  // "6.1", as `set kernel` and --kernel spell it
    KernelVersion version;  // the release the profile stands for
    std::string_view title; // one line for the Collector box and `inflight-cli kernels`
    GcEra era;
    KernelChanges changes;
    bool default_of_era = false; // what `set gc ERA` means
    // The real kernels it was checked against (docs/kernels.md), "" when none could be: what
    // the About box and `inflight-cli kernels` claim, and no more.
    std::string_view checked;
};

std::span<const KernelProfile> kernel_profiles(); // oldest first
const KernelProfile *kernel_profile_by_name(std::string_view name);
const KernelProfile &default_kernel_profile(GcEra era); // classic 6.8, async 6.9, graph 6.18
// Whether a collector has the code a change touches (unify-scc-index: graph only).
bool kernel_change_applies(GcEra era, KernelChange c);

} // namespace inflight
