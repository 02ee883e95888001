// SPDX-License-Identifier: GPL-3.0-or-later
// Timed calls past the latency-samples budget (run_budget.hpp), summarised without losing
// anything a histogram or a percentile needs: one exact count per (task, call, kind, duration).
// A deterministic model repeats the same few durations, so a billion calls take a few entries;
// the latency-values budget bounds the entries of a scene whose durations all differ.
#pragma once

#include "inflight/latency.hpp"

#include <cstdint>
#include <map>
#include <tuple>

namespace inflight {

class LatencyCounts {
public:
    struct Key {
        std::uint16_t task = 0;
        KFn fn = KFn::sys_sendmsg;
        CallKind kind = CallKind::no_fd;
        std::uint64_t duration_ns = 0;
        auto operator<=>(const Key &) const = default;
    };
    struct Counts {
        std::uint64_t calls = 0;
        std::uint64_t waited_ns = 0, spun_ns = 0; // summed (saturating)
        std::uint64_t waits = 0;                  // calls that waited for a collection
    };

    void add(const LatencySample &s);
    std::size_t distinct() const { return counts_.size(); }
    std::uint64_t calls() const { return calls_; }
    bool empty() const { return counts_.empty(); }
    // In (task, fn, kind, duration) order: each group's durations ascending.
    const std::map<Key, Counts> &entries() const { return counts_; }

private:
    std::map<Key, Counts> counts_;
    std::uint64_t calls_ = 0;
};

} // namespace inflight
