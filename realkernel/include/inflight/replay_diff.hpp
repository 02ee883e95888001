// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel's verdicts beside the model's: per socket at the end of the scene, and statement
// by statement where they differ (an errno, the sockets a recv received, a fate after a close
// or a gc).
#pragma once

#include "inflight/kernel_replay.hpp"
#include "inflight/model_trace.hpp"
#include "inflight/release_profile.hpp"
#include "inflight/replay_plan.hpp"

#include <optional>
#include <string>
#include <vector>

namespace inflight {

struct SocketVerdict {
    std::string label;
    std::optional<bool> model_alive;  // nullopt: the model never made this socket
    std::optional<bool> kernel_alive; // nullopt: the kernel run never made it
    // The model holds it as garbage no collection has looked at yet, and the kernel freed it:
    // a collection started elsewhere on the host got there first. Counts as agreement.
    bool collected_early = false;
    bool agree() const { return model_alive == kernel_alive || collected_early; }
};

struct ReplayDifference {
    std::size_t step = 0;
    SourceLoc loc;
    std::string statement; // as written
    std::string what;      // "socket u0: model freed, kernel alive"
    // For a fate: the socket, and the verdicts without it ("model freed, kernel alive"), so
    // the text report can say it once for every socket that differs the same way.
    std::string label;
    std::string verdicts;
};

struct ReplayReport {
    std::string file;
    ReleaseProfile profile;
    GcEra era = GcEra::graph;              // the model's era (the profile's unless --gc)
    bool era_chosen = false;               // the caller chose an era other than the profile's
    const KernelProfile *kernel = nullptr; // the profile the model ran
    bool unify_scc_index = false;
    std::string isolation;
    std::vector<SocketVerdict> sockets; // at the end of the scene
    std::vector<ReplayDifference> differences;
    std::size_t statements = 0, statements_agree = 0; // syscall statements compared by errno
    std::vector<std::string> leaked_on_kernel;        // kept after every replay process exited
    std::uint64_t leaked_unlabelled = 0;
    std::vector<std::string> model_leaked; // the model's end state: no fd reaches them
    std::vector<std::string> notes;        // unsettled waits, unseen sockets, ignored lines
    std::size_t sockets_agree() const;
    bool agrees() const { return differences.empty(); }
};

ReplayReport compare_replay(const ReplayPlan &plan, const ModelTrace &model, const KernelRun &kernel,
                            const ReleaseProfile &profile);

std::string replay_report_text(const ReplayReport &r);
std::string replay_report_json(const ReplayReport &r);
// "Linux 6.18.44 agrees on 12 of 12 sockets"
std::string agreement_sentence(const ReplayReport &r);

} // namespace inflight
