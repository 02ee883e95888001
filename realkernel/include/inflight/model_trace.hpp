// SPDX-License-Identifier: GPL-3.0-or-later
// What the model predicts for a replay plan: the errno of every statement, the sockets each
// recv hands over, and every socket's fate at the plan's observation points, for one era.
#pragma once

#include "inflight/gc_era.hpp"
#include "inflight/replay_plan.hpp"
#include "inflight/scene.hpp"

#include "inflight/kernel_profile.hpp"

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace inflight {

struct ModelTrace {
    const KernelProfile *kernel = nullptr; // the profile the model ran
    GcEra era = GcEra::graph;
    bool unify_scc_index = false;
    std::vector<bool> ran;                                       // by plan step: a syscall statement ran
    std::vector<std::string> errors;                             // by plan step: "" or "EPERM"
    std::vector<std::vector<std::string>> received;              // by plan step: recv's sockets, by label
    std::map<std::size_t, std::map<std::string, bool>> alive_at; // observation step -> label -> alive
    // Observation step -> labels the model holds alive although no fd reaches them and no
    // collection has looked at them since: garbage awaiting a collection. The real collector is
    // global, so a close anywhere on the host may collect them early; either fate agrees.
    std::map<std::size_t, std::set<std::string>> pending_at;
    std::vector<std::string> labels; // every socket, in order of creation
    std::vector<std::string> leaked; // alive at the end, reached by no process fd
    std::string failure;             // the run stopped early (a budget), else ""
};

// The fates a replay may wait for (KernelReplayOptions::expected): every socket at every
// observation, except garbage awaiting a collection (either fate is right for it).
std::map<std::size_t, std::map<std::string, bool>> expected_fates(const ModelTrace &trace);

// Runs `scene` on the kernel profile `kernel`, as the real kernel of that version would: the
// scene's own `set gc`, `set kernel` and `set fix` lines give way to the profile.
ModelTrace trace_model(const Scene &scene, const ReplayPlan &plan, const KernelProfile &kernel);

} // namespace inflight
