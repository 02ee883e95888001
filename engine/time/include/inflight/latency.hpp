// SPDX-License-Identifier: GPL-3.0-or-later
// What the modelled clock measured: one sample per timed call (sendmsg, autobind), the tasks
// that made them, and the collector's own runs. The latency panel, `inflight-cli run --hist`
// and the tests read these; the histograms are built from them (log2_histogram.hpp).
#pragma once

#include "inflight/append_only_log.hpp"
#include "inflight/event.hpp"

#include <cstdint>
#include <string>

namespace inflight {

// How a sendmsg is grouped in the panel: the wait rules differ for each (spec 2.2, 3.2).
enum class CallKind : std::uint8_t {
    no_fd,         // no SCM_RIGHTS at all
    with_fds,      // passes fds, none of them AF_UNIX sockets (fpl->count_unix == 0)
    with_unix_fds, // passes at least one AF_UNIX socket
    autobind,      // a unix_autobind() call (explicit bind without a name, or implicit)
};
std::string_view call_kind_name(CallKind k); // "no fd", "with fds", "with AF_UNIX fds", "autobind"

struct LatencySample {
    // 56 bytes: a 2^20-bind scene keeps 2^20 samples. The 64-bit figures a caller may pass on by
    // reference are plain fields; the rest are bit-fields of ample width (a call that waited
    // 2^48 ns would have waited 78 hours; 2^48 micro-steps take years to run).
    std::uint64_t start_ns = 0;        // modelled clock at entry
    std::uint64_t duration_ns = 0;     // entry to return, as funclatency measures it
    std::uint64_t spun_ns = 0;         // of which: spinning on unix_gc_lock or a hash lock
    std::uint64_t last_step = 0;       // the call's last micro-step (first_step below)
    std::uint64_t waited_ns : 48 = 0;  // of which: waiting for a collection (sync run, flush_work, unix_gc_wait)
    std::uint64_t user : 16 = 0;       // user id (Kernel::users; a scene declares each on a line)
    std::uint64_t first_step : 48 = 0; // the call's first micro-step (for jumping to it)
    std::uint64_t task : 16 = 0;       // index into Simulation::tasks() (16 bits, as Event::task)
    std::uint64_t probes : 23 = 0;     // autobind: names tried (at most 2^20)
    bool failed : 1 = false;           // the call returned an error
    std::uint64_t scene_line : 24 = 0;
    KFn fn : 8 = KFn::sys_sendmsg; // sys_sendmsg or unix_autobind
    CallKind kind : 8 = CallKind::no_fd;
};
static_assert(sizeof(LatencySample) == 56, "LatencySample: 56 bytes, see above");

// Every timed call of a run, in the order the calls returned. Never reallocated (a million
// samples are not copied when the millionth-and-first arrives), and a copy of the model state
// shares the samples it has in common with the original (checkpoints, restores).
using LatencyLog = AppendOnlyLog<LatencySample>;

// A thread of execution in the model: the main script, a spawned block, or the kworker that
// runs queued collections and delayed fput.
struct TaskInfo {
    std::string name;          // "main", the spawn name, or "kworker"
    std::uint32_t process = 0; // Kernel::processes index (kworker: npos)
    std::uint32_t cpu = 0;
    bool kworker = false;
};

} // namespace inflight
