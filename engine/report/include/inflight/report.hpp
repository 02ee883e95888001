// SPDX-License-Identifier: GPL-3.0-or-later
// What inflight-cli prints after a run: a text summary, the JSON object of the issue, and the
// one-line-per-micro-step trace.
#pragma once

#include "inflight/event.hpp"
#include "inflight/latency.hpp"
#include "inflight/log2_histogram.hpp"
#include "inflight/recorded_events.hpp"
#include "inflight/scene.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace inflight {

class Kernel;
class RunNames;
class Simulation;

// "kernel profile 6.18 (6.18.y: ...) +unify-scc-index": the profile and the changes the scene's
// `set fix` lines turned over (+ on, - off).
std::string kernel_text(const Kernel &k);
std::vector<std::string> fixes_turned_over(const Kernel &k);
std::string report_text(const Simulation &sim);
std::string report_json(const Simulation &sim);
// "     42  L7  select_candidates  candidate_check  b: file refs 2 == inflight 2: candidate"
// With the scene, a statement's steps name its text (see describe()).
std::string trace_line(const Event &e, const Kernel &k, const Scene *scene = nullptr);

// Every event as JSON: {"scene", "gc", "events": [{step, line, fn, kind, a, b, c, before, after,
// text}]}, objects named by their labels: the finished run's names name any step's objects.
std::string trace_json(const RecordedEvents &events, const RunNames &names, const std::string &scene_title,
                       const Scene *scene = nullptr);

// Modelled time: "410 ns", "1.83 ms", "1.577 s".
std::string format_ns(std::uint64_t ns);

// The run's timed calls grouped by task and call kind, durations sorted (for percentiles).
struct LatencyGroup {
    std::string name;       // "sane, sendmsg, no fd"
    std::uint32_t task = 0; // the first task of that name
    std::string task_name;
    CallKind kind = CallKind::no_fd;
    KFn fn = KFn::sys_sendmsg;
    std::vector<std::uint64_t> durations; // the calls kept one by one (Simulation::latencies()), sorted
    // The calls past the latency-samples budget (Kernel::latency_counts): (duration, calls),
    // ascending. Counts, totals and percentiles below cover both, exactly.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> counted;
    std::uint64_t waited_ns = 0, spun_ns = 0;
    std::size_t waits = 0; // calls that waited for a collection

    std::uint64_t count() const;
    std::uint64_t total_ns() const;   // saturating: a sum never wraps below its parts
    std::uint64_t average_ns() const; // exact quotient of the true sum
    std::uint64_t max_ns() const;
    std::uint64_t percentile(double p) const; // nearest rank, p in 0..100
    void add_to(Log2Histogram &h) const;
};
std::vector<LatencyGroup> latency_groups(const Simulation &sim);
// Nearest-rank percentile of sorted values (p in 0..100).
std::uint64_t nearest_rank(const std::vector<std::uint64_t> &sorted, double p);
std::string time_summary_text(const Simulation &sim);
std::string time_json(const Simulation &sim);

// Escapes a string for a JSON string literal (without the quotes).
std::string json_escape(const std::string &s);

} // namespace inflight
