// SPDX-License-Identifier: GPL-3.0-or-later
// The latency samples the panel shows at the player's current step: only the calls that have
// returned by then (last_step <= step), grouped and bucketed. Moving forward adds the newly
// returned calls to the histograms one by one, so playing a scene costs a few additions per
// frame however long the run is; only moving backwards rebuilds.
#pragma once

#include "inflight/latency.hpp"
#include "inflight/log2_histogram.hpp"
#include "latency_run.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace latency {

class LiveLatency {
public:
    LiveLatency();

    void setRun(std::shared_ptr<const LatencyRun> run);
    const LatencyRun &run() const { return *run_; }
    void setGroupBy(inflight::GroupBy by);
    inflight::GroupBy groupBy() const { return by_; }
    void setUnit(inflight::TimeUnit unit);
    inflight::TimeUnit unit() const { return unit_; }

    // What setPosition() changed: nothing, only counts, or the set of groups (views showing one
    // widget per group rebuild them).
    enum class Change { none, counts, groups };
    Change setPosition(std::uint64_t step);
    std::uint64_t position() const { return position_; }

    // The calls returned so far: all of them, and by group.
    const inflight::Log2Histogram &all() const { return all_; }
    const std::vector<inflight::SampleGroup> &groups() const { return groups_->groups(); }
    std::size_t visibleCount() const { return shown_; }
    bool isVisible(std::size_t sample) const;
    const inflight::LatencySample &sample(std::size_t index) const { return run_->samples[index]; }

    // The visible calls of a group (-1: all) whose duration, in the unit, is in [lo, hi].
    std::vector<std::size_t> callsIn(int group, std::uint64_t lo, std::uint64_t hi) const;
    // The call `task` was making at `step` (first_step <= step <= last_step), visible or not.
    std::optional<std::size_t> callAt(std::uint64_t step, std::uint32_t task) const;
    // The group (position in groups()) a visible sample is in.
    int groupOf(std::size_t sample) const;

private:
    void rebuild();
    void addShown(std::size_t sample);

    std::shared_ptr<const LatencyRun> run_;
    inflight::GroupBy by_ = inflight::GroupBy::call_kind;
    inflight::TimeUnit unit_ = inflight::TimeUnit::ns;
    std::unique_ptr<inflight::SampleGroups> groups_;
    inflight::Log2Histogram all_;
    std::vector<std::size_t> by_return_; // sample indices ordered by last_step
    std::size_t shown_ = 0;              // by_return_[0, shown_) are visible
    std::uint64_t position_ = 0;
};

} // namespace latency
