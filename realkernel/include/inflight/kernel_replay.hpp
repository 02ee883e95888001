// SPDX-License-Identifier: GPL-3.0-or-later
// Runs a ReplayPlan as real syscalls on the running kernel, inside a fresh network namespace
// (and a user namespace when not root), in a forked child, so the calling process keeps no
// socket, no namespace and no descriptor of the replay. Each scene process is one more forked
// process inside the namespace; the child that made the namespace only coordinates and
// observes (UNIX_DIAG, /proc/net/unix, /proc/net/protocols) and reports over a pipe.
#pragma once

#include "inflight/replay_plan.hpp"

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace inflight {

struct KernelReplayOptions {
    // After a close, recv or gc, the socket set must stay unchanged this long before a verdict
    // is read (the kernel frees 8-12 ms after the last close on 6.18: deferred fput)...
    unsigned stable_ms = 100;
    // ... polled this often, and given up on after this long (the verdict is then marked
    // unsettled).
    unsigned poll_ms = 10;
    unsigned max_wait_ms = 1000;
    // The whole replay's wall-clock time: its child is killed past it (a scene of thousands of
    // observed statements waits stable_ms at each).
    unsigned timeout_s = 600;
    // What the model predicts at an observation (plan step -> label -> alive): while the set is
    // stable but not yet this, the wait goes on, up to max_wait_ms, for a kworker that a loaded
    // host runs late. It never makes a verdict: what the kernel shows then is what is judged.
    std::map<std::size_t, std::map<std::string, bool>> expected;
    // Set (by another thread): the caller no longer wants the run. Its child is killed within
    // kCancelPollMs and the run ends with ran == false.
    const std::atomic<bool> *cancel = nullptr;
    static constexpr int kCancelPollMs = 50;
};

// What one statement did on the kernel.
struct KernelStepResult {
    bool ran = false;                  // a syscall statement (not a note or an expectation)
    std::string error;                 // "" on success, else the errno's name, as "EPERM"
    long value = 0;                    // bytes sent / received
    std::vector<std::string> received; // recv: the labels of the sockets received, in order
};

// Every socket's fate after one step, by label.
struct KernelObservation {
    std::size_t step = 0;
    std::map<std::string, bool> alive;
    bool settled = true; // the set was stable before max_wait_ms
    unsigned waited_ms = 0;
    std::uint64_t unseen = 0; // sockets the protocol counts hold that no label accounts for
};

struct KernelRun {
    bool ran = false;      // the namespace was made and the plan run
    std::string failure;   // why not (or why it stopped), for the user
    std::string release;   // uname -r
    std::string version;   // uname -v
    std::string isolation; // "network namespace" / "user and network namespace"
    bool passrights_supported = false;
    bool diag_available = false;                // UNIX_DIAG answered (embryos are then seen through listeners)
    std::vector<std::string> labels;            // every socket created, in order of creation
    std::map<std::string, std::string> aliases; // accept's second label -> the socket's label
    std::vector<KernelStepResult> steps;        // by plan step
    std::vector<KernelObservation> observations;
    // After every process of the replay closed its descriptors and exited and a collection was
    // forced: the sockets the kernel still holds. They stay until the host reboots.
    std::vector<std::string> leaked;
    std::uint64_t leaked_unlabelled = 0;
};

// The plan must be ok(). Never throws for what the kernel does; a failure to set up is
// reported in KernelRun::failure with ran == false.
KernelRun run_on_kernel(const ReplayPlan &plan, const KernelReplayOptions &options = {});

// The run as one line of JSON, and back: how a replay's child reports to its parent, and how
// inflight-replay-agent reports from inside a virtual machine (--vm).
std::string kernel_run_json(const KernelRun &run);
// nullopt when `text` is not such a report.
std::optional<KernelRun> parse_kernel_run(const std::string &text);

// uname -r of the running kernel.
std::string running_kernel_release();
// uname -v (build number and, on some distributions, the upstream version).
std::string running_kernel_version();

// The errno's name ("EPERM"), or "E<n>" when it has none we know.
std::string errno_symbol(int err);

} // namespace inflight
