// SPDX-License-Identifier: GPL-3.0-or-later
// A long run on a terminal: a progress line on stderr (steps, statement line, modelled time)
// redrawn a few times a second, and --timeout, which ends the run between two steps.
#pragma once

#include "inflight/diagnostic.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

namespace inflight {
class Simulation;
}

namespace inflight::cli {

// --timeout's value: decimal seconds ("3", "0.5"), more than 0 and at most 1e9, or nullopt.
std::optional<double> parse_timeout_seconds(const char *text);

class RunProgress {
public:
    explicit RunProgress(std::optional<double> timeout_s);
    // After each step the driver sees; false: the timeout has passed, stop.
    bool tick(const Simulation &sim)
    {
        // The clock is read every 4096 steps: a step is far cheaper than a clock read.
        return (++ticks_ & 4095) != 0 || slow_tick(sim);
    }
    void done(); // erases the progress line
    bool timed_out() const { return timed_out_; }
    // "file:line:col: error: --timeout 5 s reached at micro-step N ...", at the statement running
    // then; `outcome` says what the command shows of the run that far.
    Diagnostic timeout_diagnostic(const Simulation &sim,
                                  std::string_view outcome = "the report shows the run up to there") const;

private:
    bool slow_tick(const Simulation &sim);

    std::optional<double> timeout_s_;
    bool tty_ = false;
    bool drawn_ = false;
    bool timed_out_ = false;
    std::uint64_t ticks_ = 0;
    std::chrono::steady_clock::time_point start_, last_draw_;
};

} // namespace inflight::cli
