// SPDX-License-Identifier: GPL-3.0-or-later
// Which of the model's kernel profiles stands for a given Linux release (uname -r), so a replay
// on the running kernel is compared with the right collector and changes.
#pragma once

#include "inflight/gc_era.hpp"
#include "inflight/kernel_profile.hpp"

#include <optional>
#include <string>

namespace inflight {

struct ReleaseProfile {
    std::string release; // as given, e.g. "6.18.44-fc-v669"
    int major = 0, minor = 0, patch = 0;
    const KernelProfile *kernel = nullptr; // the newest profile at or below the release
    GcEra era = GcEra::classic;            // kernel->era
    bool unify_scc_index = false;          // the 2026 scc_index fix (spec 5.13): 7.3 and later
    std::string reason;                    // why this profile, in a sentence
};

// The newest profile whose version is at or below the release's; 6.1.y before 6.1.141 and 6.6.y
// before 6.6.93 (the 2025 stable backports of the graph collector) are classic: the 6.8 profile.
// `version` is uname -v: where a distribution's release names its ABI rather than the upstream
// version (Debian's "6.1.0-50-cloud-amd64"), the version says it ("... Debian 6.1.176-1 ...").
ReleaseProfile profile_for_release(const std::string &release, const std::string &version = {});

// The profile to compare with: the release's own, or the default of the era chosen with --gc
// when that is another one.
const KernelProfile &model_profile(const ReleaseProfile &release, std::optional<GcEra> chosen);

} // namespace inflight
