// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/release_profile.hpp"

#include <cstdio>

namespace inflight {

ReleaseProfile profile_for_release(const std::string &release, const std::string &version)
{
    ReleaseProfile p;
    p.release = release;
    std::sscanf(release.c_str(), "%d.%d.%d", &p.major, &p.minor, &p.patch);
    if (const auto at = version.find("Debian "); at != std::string::npos) {
        int major = 0, minor = 0, patch = 0;
        if (std::sscanf(version.c_str() + at + 7, "%d.%d.%d", &major, &minor, &patch) == 3 && major == p.major &&
            minor == p.minor)
            p.patch = patch;
    }
    const KernelVersion v{static_cast<std::uint16_t>(p.major), static_cast<std::uint16_t>(p.minor)};
    const bool before_backport =
        (v == KernelVersion{6, 6} && p.patch < 93) || (v == KernelVersion{6, 1} && p.patch < 141);
    // Ubuntu noble's 6.8.0-N took the graph collector with its "upstream stable to v6.6.93"
    // patch set from 6.8.0-98, then the MSG_PEEK and gc_in_progress fixes (112, 147): the
    // changes of the 6.6 profile (replayed on 6.8.0-151, docs/kernels.md). uname -r names the
    // ABI (6.8.0-151-generic), uname -v the distribution (#151-Ubuntu ...).
    int ubuntu_abi = 0;
    const bool ubuntu = version.find("-Ubuntu") != std::string::npos &&
                        std::sscanf(release.c_str(), "6.8.0-%d", &ubuntu_abi) == 1 && v == KernelVersion{6, 8};
    for (const KernelProfile &k : kernel_profiles())
        if (k.version <= v)
            p.kernel = &k;
    if (before_backport)
        p.kernel = kernel_profile_by_name("6.8");
    if (ubuntu && ubuntu_abi >= 98)
        p.kernel = kernel_profile_by_name("6.6");
    // The 4.4 profile keeps 4.4's order of restoring not_cycle_list before building the
    // hitlist; every later release builds the hitlist first (hitlist-before-restore), so a
    // release between 4.4 and 5.10 is modelled by 5.10, the oldest profile with that order.
    const KernelProfile *first_after_4_4 = kernel_profile_by_name("5.10");
    const bool between = v > KernelVersion{4, 4} && first_after_4_4 && v < first_after_4_4->version;
    if (between)
        p.kernel = first_after_4_4;
    if (!p.kernel)
        p.kernel = &kernel_profiles().front();
    p.era = p.kernel->era;
    p.unify_scc_index = p.kernel->changes.has(KernelChange::unify_scc_index);
    const std::string branch = std::to_string(p.major) + "." + std::to_string(p.minor);
    p.reason = ubuntu && ubuntu_abi >= 98
                   ? "Ubuntu 6.8.0-" + std::to_string(ubuntu_abi) +
                         ": the graph collector backported from 6.6.93 (since 6.8.0-98), as the 6.6 profile"
               : before_backport ? branch + ".y before the 2025 backport of the graph collector: classic, as 6.8"
               : between         ? "no " + branch +
                               " profile: 5.10, the oldest with the hitlist built before not_cycle_list is restored"
               : std::string(p.kernel->name) == branch
                   ? "the " + branch + " profile: " + std::string(p.kernel->title)
                   : "no " + branch + " profile: the newest below it, " + std::string(p.kernel->name) + " (" +
                         std::string(p.kernel->title) + ")";
    return p;
}

const KernelProfile &model_profile(const ReleaseProfile &release, std::optional<GcEra> chosen)
{
    if (chosen && *chosen != release.era)
        return default_kernel_profile(*chosen);
    return *release.kernel;
}

} // namespace inflight
