// SPDX-License-Identifier: GPL-3.0-or-later
// Which of the model's collectors stands for a given Linux release (uname -r), so a replay on
// the running kernel is compared with the right era.
#pragma once

#include "inflight/gc_era.hpp"

#include <string>

namespace inflight {

struct KernelProfile {
    std::string release; // as given, e.g. "6.18.44-fc-v669"
    int major = 0, minor = 0, patch = 0;
    GcEra era = GcEra::classic;
    bool unify_scc_index = false; // the 2026 scc_index fix (spec 5.13); no release is known to have it
    std::string reason;           // why this era, in a sentence
};

// 6.10 and later: graph; 6.9: async; the 2025 stable backports of the graph collector to 6.6.y
// (from about 6.6.93) and 6.1.y (from about 6.1.141): graph; everything older: classic.
// `version` is uname -v: where a distribution's release names its ABI rather than the upstream
// version (Debian's "6.1.0-50-cloud-amd64"), the version says it ("... Debian 6.1.176-1 ...").
KernelProfile profile_for_release(const std::string &release, const std::string &version = {});

} // namespace inflight
