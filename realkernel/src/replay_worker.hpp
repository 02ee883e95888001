// SPDX-License-Identifier: GPL-3.0-or-later
// One scene process of a replay: a forked process inside the replay's namespace that runs the
// statements it is told to, with its own descriptors, and answers what each did.
#pragma once

#include "inflight/replay_plan.hpp"

#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

namespace inflight::realkernel {

// What a worker answers for one statement.
struct WorkerReply {
    int err = 0;                       // errno of the first failing call, 0 on success
    long value = 0;                    // bytes, or the socket type after connect
    std::vector<std::uint64_t> inodes; // sockets the statement created, connected or received
};

class Worker {
public:
    // Forks the worker, which has the plan from the fork. `uid` 0 stays root; `nofile` is its
    // RLIMIT_NOFILE.
    Worker(const ReplayPlan &plan, unsigned uid, std::uint64_t nofile);
    ~Worker(); // asks it to exit if it still runs, and reaps it
    Worker(const Worker &) = delete;
    Worker &operator=(const Worker &) = delete;

    bool started() const { return pid_ > 0; }
    // Runs plan step `index`; false when the worker is gone.
    bool run(std::size_t index, WorkerReply &reply);
    // Closes every descriptor it holds, exits, and is reaped.
    void finish();

private:
    pid_t pid_ = -1;
    int cmd_ = -1;   // our end: step numbers go out
    int reply_ = -1; // our end: replies come back
};

} // namespace inflight::realkernel
