// SPDX-License-Identifier: GPL-3.0-or-later
#include "live_latency.h"

#include <algorithm>
#include <numeric>

using namespace inflight;

namespace latency {

LiveLatency::LiveLatency() : run_(std::make_shared<LatencyRun>()) { rebuild(); }

void LiveLatency::setRun(std::shared_ptr<const LatencyRun> run)
{
    run_ = run ? std::move(run) : std::make_shared<LatencyRun>();
    // Calls are recorded as they return, which is already last_step order; sort anyway, stably,
    // since the panel's "returned by now" cut depends on it.
    by_return_.resize(run_->samples.size());
    std::iota(by_return_.begin(), by_return_.end(), std::size_t{0});
    std::stable_sort(by_return_.begin(), by_return_.end(), [this](std::size_t a, std::size_t b) {
        return run_->samples[a].last_step < run_->samples[b].last_step;
    });
    rebuild();
}

void LiveLatency::setGroupBy(GroupBy by)
{
    if (by == by_)
        return;
    by_ = by;
    rebuild();
}

void LiveLatency::setUnit(TimeUnit unit)
{
    if (unit == unit_)
        return;
    unit_ = unit;
    all_.set_unit(unit);
    groups_->set_unit(unit);
}

void LiveLatency::rebuild()
{
    groups_ = std::make_unique<SampleGroups>(by_, unit_, run_->tasks, run_->user_names);
    all_ = Log2Histogram(unit_);
    shown_ = 0;
    const std::uint64_t step = position_;
    position_ = 0;
    setPosition(step);
}

void LiveLatency::addShown(std::size_t sample)
{
    groups_->add(run_->samples[sample], sample);
    all_.add(run_->samples[sample].duration_ns);
}

LiveLatency::Change LiveLatency::setPosition(std::uint64_t step)
{
    const std::size_t groups_before = groups_->groups().size();
    bool restarted = false, took_back = false;
    // Backwards past a few returns (a step back): take those calls back one by one. Starting
    // again would re-sort every shown duration for the percentiles on the GUI thread, at a
    // cost in proportion to the run so far, for a step back of one call.
    constexpr std::size_t kTakeBackAtMost = 64;
    for (std::size_t taken = 0; step < position_ && shown_ > 0; ++taken) {
        const std::size_t last = by_return_[shown_ - 1];
        const LatencySample &s = run_->samples[last];
        if (s.last_step <= step)
            break;
        if (taken == kTakeBackAtMost || !all_.remove_last(s.duration_ns) || !groups_->remove_last(s, last)) {
            // Further back, or a group would empty: start again (linear in what is shown).
            groups_->clear();
            all_.clear();
            shown_ = 0;
            restarted = true;
            break;
        }
        --shown_;
        took_back = true;
    }
    position_ = step;
    const std::size_t shown_before = shown_;
    while (shown_ < by_return_.size() && run_->samples[by_return_[shown_]].last_step <= step)
        addShown(by_return_[shown_++]);
    if (restarted || groups_->groups().size() != groups_before)
        return Change::groups;
    return took_back || shown_ != shown_before ? Change::counts : Change::none;
}

bool LiveLatency::isVisible(std::size_t sample) const
{
    return sample < run_->samples.size() && run_->samples[sample].last_step <= position_;
}

std::vector<std::size_t> LiveLatency::callsIn(int group, std::uint64_t lo, std::uint64_t hi) const
{
    std::vector<std::size_t> out;
    const std::uint64_t div = unit_divisor(unit_);
    auto take = [&](std::size_t i) {
        const std::uint64_t v = run_->samples[i].duration_ns / div;
        if (v >= lo && v <= hi)
            out.push_back(i);
    };
    if (group < 0) {
        for (std::size_t k = 0; k < shown_; ++k)
            take(by_return_[k]);
    } else if (static_cast<std::size_t>(group) < groups().size()) {
        for (std::size_t i : groups()[static_cast<std::size_t>(group)].samples)
            take(i);
    }
    return out;
}

std::optional<std::size_t> LiveLatency::callAt(std::uint64_t step, std::uint32_t task) const
{
    for (std::size_t i = 0; i < run_->samples.size(); ++i) {
        const LatencySample &s = run_->samples[i];
        if (s.task == task && s.first_step <= step && step <= s.last_step)
            return i;
    }
    return std::nullopt;
}

int LiveLatency::groupOf(std::size_t sample) const
{
    if (sample >= run_->samples.size())
        return -1;
    const std::string name = groups_->name_of(run_->samples[sample]);
    const auto &g = groups();
    for (std::size_t i = 0; i < g.size(); ++i)
        if (g[i].name == name)
            return static_cast<int>(i);
    return -1;
}

} // namespace latency
