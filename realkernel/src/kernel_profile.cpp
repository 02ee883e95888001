// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/kernel_profile.hpp"

#include <cstdio>

namespace inflight {

KernelProfile profile_for_release(const std::string &release, const std::string &version)
{
    KernelProfile p;
    p.release = release;
    std::sscanf(release.c_str(), "%d.%d.%d", &p.major, &p.minor, &p.patch);
    if (const auto at = version.find("Debian "); at != std::string::npos) {
        int major = 0, minor = 0, patch = 0;
        if (std::sscanf(version.c_str() + at + 7, "%d.%d.%d", &major, &minor, &patch) == 3 && major == p.major &&
            minor == p.minor)
            p.patch = patch;
    }
    const int v = p.major * 1000 + p.minor;
    if (v >= 6010) {
        p.era = GcEra::graph;
        p.reason = "Linux 6.10 and later collect with the graph (Tarjan SCC) collector";
    } else if (v == 6009) {
        p.era = GcEra::async;
        p.reason = "Linux 6.9 runs the classic algorithm as queued work";
    } else if ((v == 6006 && p.patch >= 93) || (v == 6001 && p.patch >= 141)) {
        p.era = GcEra::graph;
        p.reason = "the 2025 stable backport brought the graph collector to " + std::to_string(p.major) + "." +
                   std::to_string(p.minor) + ".y";
    } else {
        p.era = GcEra::classic;
        p.reason = "before 6.9 the classic collector runs synchronously";
    }
    // The 2026 fix that unifies scc_index (spec 5.13) is in no release this profile can name:
    // a graph kernel is modelled without it, and leaks mixed_lowpoint as 6.1 and 6.18 do.
    p.unify_scc_index = false;
    return p;
}

} // namespace inflight
