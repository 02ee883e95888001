// SPDX-License-Identifier: GPL-3.0-or-later
// inflight-cli's --watch EXPR and --break LINE[ if COND]: the run is stepped one micro-step at a
// time (no fast-forward, so the step numbers are the app's) and every hit is listed before the
// report, or as the report's "hits" array with --json.
#pragma once

#include "inflight/line_breakpoint.hpp"
#include "inflight/watch.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace inflight {
struct Event;
struct Scene;
class Simulation;
} // namespace inflight

namespace inflight::cli {

struct Hit {
    bool is_watch = true;
    std::size_t number = 0; // 1-based, in command-line order of its kind
    std::string expr;       // the watch expression, or the breakpoint as given
    std::uint64_t step = 0;
    std::uint32_t line = 0;    // the scene line being executed at that step
    std::string before, after; // watches only
};

// The hits of one run: the first ones listed, up to the run's `hits` budget, the rest counted.
struct Hits {
    std::vector<Hit> listed;
    std::uint64_t not_listed = 0;
    std::uint64_t limit = 0; // the budget they were listed under
};

class RunProgress;

class Watches {
public:
    // Both return a message located in the option's text on a bad expression.
    std::optional<std::string> add_watch(const std::string &expr);
    std::optional<std::string> add_break(const std::string &spec);
    bool empty() const { return watches_.empty() && breaks_.empty(); }
    // A breakpoint on a line without a statement can never stop, and a watch or a breakpoint's
    // condition on a socket or user the scene never names can never fire: say so before running.
    std::optional<std::string> check_scene(const Scene &scene) const;

    // Steps sim to its end, or until `progress` says the timeout has passed, calling each_step
    // (if any) after every micro-step; returns the hits.
    Hits run(Simulation &sim, RunProgress &progress, const std::function<void(const Event &)> &each_step);
    // After a run: the watches and conditions whose socket or user never existed (they read
    // none throughout), for the names check_scene() cannot know before the run ($ templates).
    std::vector<std::string> never_existed(const Simulation &sim) const;

private:
    std::vector<Watchpoint> watches_;
    std::vector<LineBreakpoint> breaks_;
};

// "watch 1 (inflight a >= 2) at step 57 line 12: false -> true" / "break line 14 at step 80"
std::string hit_line(const Hit &h);
// "... and 12 more hits, not listed: limit 'hits' reached: ...", or empty when every hit is listed.
std::string hits_not_listed_line(const Hits &hits);
// The report's JSON object with "hits": [...] (and "hits_not_listed": N past the budget) as its
// last members.
std::string json_with_hits(std::string report, const Hits &hits);

} // namespace inflight::cli
