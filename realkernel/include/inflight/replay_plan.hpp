// SPDX-License-Identifier: GPL-3.0-or-later
// A scene turned into the list of concrete syscalls a real kernel can run: repeats unrolled,
// names expanded, every statement that has no real counterpart (modelled time, spawn
// interleavings, costs, fills too big for a host) listed with its line instead.
#pragma once

#include "inflight/scene.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace inflight {

// One statement of the unrolled scene, with its names expanded. The plan holds every statement
// the model executes (notes and expectations too), in the model's order, so step k of a plan
// is the k-th statement of a Simulation of the same scene.
struct ReplayStep {
    Op op = Op::note;
    SourceLoc loc;
    std::string process = "main";
    std::vector<std::string> names; // as Statement::names, expanded
    std::vector<std::string> fds;   // send fds= / recv fds=, expanded
    std::optional<std::string> address;
    SockType type = SockType::stream;
    std::uint64_t bytes = 1;
    bool oob = false;
    bool peek = false;
    SockOpt option = SockOpt::passrights;
    bool option_value = true;
    // Judge every socket's fate after this step (after a close, recv, gc, before an expect
    // about fates, and at the end): the real kernel is given time to settle there.
    bool observe = false;
    // The statement as written (its source line, trimmed), for reports.
    std::string text;
};

struct ReplayProblem {
    SourceLoc loc;
    std::string message;
};

// How much a replay may ask of the host. A scene over one of these is not run at all.
struct ReplayLimits {
    std::uint64_t max_steps = 4096;       // unrolled statements
    std::uint64_t max_sockets = 256;      // sockets created (socketpair 2, socket 1, connect 1)
    std::uint64_t max_fds_sent = 4096;    // fds attached to sends, summed
    std::uint64_t max_fds_per_send = 256; // one message (SCM_MAX_FD is 253: more is EINVAL)
    std::uint64_t max_bytes_per_send = 65536;
    std::uint64_t max_bytes = 1u << 20; // payload bytes of all sends
    std::uint64_t max_processes = 16;
};

struct ReplayPlan {
    std::string file;
    std::vector<ReplayStep> steps;
    // Statements the replayer cannot do for real; when not empty, nothing may run.
    std::vector<ReplayProblem> problems;
    // Things the real kernel decides by itself that the scene sets for the model (set autobind,
    // set table-lock, expect inflight/queue, variants): the replay goes on without them.
    std::vector<ReplayProblem> notes;
    std::vector<std::string> processes{"main"};
    std::vector<std::string> process_user{"root"}; // by process
    std::vector<std::string> users{"root"};
    std::uint64_t nofile = 1024;
    std::uint64_t sockets = 0; // created by the scene
    bool ok() const { return problems.empty(); }
};

// `privileged`: the replay may give processes other uids (the caller is root). Without it a
// user namespace maps only the caller's uid, so scenes with `user` lines cannot be replayed.
ReplayPlan plan_replay(const Scene &scene, bool privileged, const ReplayLimits &limits = {});

// "file:line:col: error: cannot replay on a real kernel: ..." for each problem.
std::vector<std::string> format_problems(const ReplayPlan &plan);

} // namespace inflight
