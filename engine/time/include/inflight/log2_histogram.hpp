// SPDX-License-Identifier: GPL-3.0-or-later
// The power-of-two latency histogram of bcc's funclatency, built from the model's LatencySamples,
// and its renderings: funclatency's own text (so a run can be laid next to the bcc output quoted in
// the commit that made sendmsg stop waiting for the collector), CSV and JSON. Also the split of a
// run's samples into groups (by task, user or kind of call) that the latency panel draws one
// histogram per group for.
#pragma once

#include "inflight/latency.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inflight {

// funclatency's -u / -m: a sample is divided by the unit (integer division) before it is bucketed,
// exactly as the BPF program does `delta /= 1000` before bpf_log2l().
enum class TimeUnit : std::uint8_t { ns, us, ms };
std::uint64_t unit_divisor(TimeUnit u);  // 1, 1000, 1000000
std::string_view unit_label(TimeUnit u); // "nsecs", "usecs", "msecs" (funclatency's column header)

class Log2Histogram {
public:
    // Bucket 0 holds only 0; bucket i >= 1 holds [2^(i-1), 2^i - 1]; 64 covers up to 2^64 - 1.
    static constexpr int kBuckets = 65;
    static int bucket_of(std::uint64_t value);
    static std::uint64_t bucket_low(int bucket);
    static std::uint64_t bucket_high(int bucket);

    explicit Log2Histogram(TimeUnit unit = TimeUnit::ns);

    TimeUnit unit() const { return unit_; }
    // Re-buckets every kept sample under another unit.
    void set_unit(TimeUnit unit);
    void add(std::uint64_t ns);
    // `times` samples of the same value, kept as one count (latency_counts.hpp: the calls past
    // the latency-samples budget): buckets, totals and percentiles stay exact.
    void add(std::uint64_t ns, std::uint64_t times);
    // Takes back the last add(ns): a live view stepping back past a call's return. False (and
    // nothing changed) when that cannot be undone exactly: the last value added was not `ns`,
    // counted values were added, or the total saturated. Cheap where clear() and adding every
    // earlier value again is not: the percentiles' sorted copy is kept, not sorted again.
    bool remove_last(std::uint64_t ns);
    void clear();

    std::uint64_t count() const { return values_ns().size() + counted_calls_; }
    bool empty() const { return count() == 0; }
    const std::array<std::uint64_t, kBuckets> &buckets() const { return buckets_; }
    std::uint64_t bucket_count(int bucket) const;
    // The lowest and highest non-empty bucket (-1 when empty) and the fullest bucket's count.
    int first_bucket() const;
    int last_bucket() const;
    std::uint64_t max_bucket_count() const;

    // In nanoseconds, exact.
    std::uint64_t total_ns() const { return total_ns_; }
    std::uint64_t min_ns() const { return empty() ? 0 : min_ns_; }
    std::uint64_t max_ns() const { return empty() ? 0 : max_ns_; }
    double mean_ns() const;
    // Nearest-rank percentile (p in (0, 100]): the smallest sample with at least p% of the samples
    // at or below it. 0 when empty.
    std::uint64_t percentile_ns(double p) const;
    // The samples added one by one, in the order they were added (not the counted ones).
    const std::vector<std::uint64_t> &values_ns() const { return values_ ? *values_ : no_values(); }

    // In the histogram's unit, truncated as funclatency prints them: total = total_ns / unit,
    // avg = total / count.
    std::uint64_t total() const;
    std::uint64_t average() const;
    std::uint64_t percentile(double p) const { return percentile_ns(p) / unit_divisor(unit_); }
    std::uint64_t max() const { return max_ns() / unit_divisor(unit_); }

private:
    TimeUnit unit_;
    // The samples and their sorted copy are shared between copies of a histogram until one of
    // them changes (copy on write): a view keeps a copy of what it draws, and the million-bind
    // scene's histograms hold a million samples each.
    using Values = std::vector<std::uint64_t>;
    static const Values &no_values();
    std::array<std::uint64_t, kBuckets> buckets_{};
    std::shared_ptr<Values> values_;                 // null: none
    std::map<std::uint64_t, std::uint64_t> counted_; // value -> times (add(ns, times))
    std::uint64_t counted_calls_ = 0;
    std::uint64_t total_ns_ = 0; // saturating
    std::uint64_t min_ns_ = 0, max_ns_ = 0;
    // Sorted copy for percentiles, extended lazily: samples arrive in small batches while a run
    // plays, so the new tail is sorted and merged instead of sorting everything again.
    mutable std::shared_ptr<Values> sorted_;
};

// bcc's print_log2_hist() layout followed by funclatency's summary line:
//
//          nsecs               : count     distribution
//         1048576 -> 2097151    : 3881     |****************************************|
//   ...
//   (blank line)
//   avg = 1825567 nsecs, total: 7477526027 nsecs, count: 4096
//
// Rows run from the first non-empty bucket (strip_leading_zero, print_log2_hist's option; false
// prints from the first row as funclatency does) to the last non-empty one. Star bars are 40
// wide, scaled to the fullest bucket; past bucket 32 the columns widen to 20 and the bars halve,
// as in bcc. As in bcc, a 0 shares the first row ("0 -> 1") with 1: bpf_log2l(0) is 1 there.
// `label`, when not empty, is printed on a line of its own first (bcc's "Function = ..." line of
// a sectioned histogram). `unit` re-buckets the samples when it differs from the histogram's.
// An empty histogram prints only the label.
std::string funclatency_text(const Log2Histogram &h, TimeUnit unit, std::string_view label = {},
                             bool strip_leading_zero = true);
inline std::string funclatency_text(const Log2Histogram &h) { return funclatency_text(h, h.unit()); }

// "bucket_low,bucket_high,count" then one row per bucket from the first to the last non-empty one,
// with the buckets' true ranges (bucket 0 is "0,0"), in the histogram's unit.
std::string histogram_csv(const Log2Histogram &h);
// {"unit", "buckets": [{"low", "high", "count"}...], "count", "total", "avg", "p50", "p90", "p99",
// "max"}: the same rows as the CSV, values in the histogram's unit (truncated as in the text).
std::string histogram_json(const Log2Histogram &h);

// A over B: how many times slower A's average and p99 are (nullopt when B's is 0 or either side
// is empty). The panel's A/B comparison shows these, e.g. 1825567 ns / 410 ns = 4452x.
struct LatencyRatio {
    std::optional<double> avg;
    std::optional<double> p99;
};
LatencyRatio latency_ratio(const Log2Histogram &a, const Log2Histogram &b);

// ---- groups ----------------------------------------------------------------------------------

enum class GroupBy : std::uint8_t { task, user, call_kind };
std::string_view group_by_name(GroupBy by); // "task", "user", "call kind"

struct SampleGroup {
    std::string name;                 // the task's name, the user's name, call_kind_name()
    std::uint64_t order = 0;          // groups are kept sorted by this (first task, user id, kind)
    std::vector<std::size_t> samples; // indices into the sample vector given to add()
    Log2Histogram histogram;
};

// Splits samples into groups one sample at a time, so a live view can feed it as a run plays.
// Tasks are grouped by name (a scene that spawns "sender" four times gets one "sender" group).
class SampleGroups {
public:
    // `tasks` and `user_names` (Kernel::users by index) name the groups; both must outlive this.
    SampleGroups(GroupBy by, TimeUnit unit, const std::vector<TaskInfo> &tasks,
                 const std::vector<std::string> &user_names);

    GroupBy by() const { return by_; }
    // Adds the sample (its position `index` in the caller's vector) and returns its group's
    // position. A new group may shift the positions of later ones.
    std::size_t add(const LatencySample &s, std::size_t index);
    // Takes back the last add(s, index): false (nothing changed) when that sample is not the
    // last of its group, or its group would be left empty (the groups would change).
    bool remove_last(const LatencySample &s, std::size_t index);
    const std::vector<SampleGroup> &groups() const { return groups_; }
    void set_unit(TimeUnit unit);
    void clear();

    std::string name_of(const LatencySample &s) const;
    std::uint64_t order_of(const LatencySample &s) const;

private:
    GroupBy by_;
    TimeUnit unit_;
    const std::vector<TaskInfo> &tasks_;
    const std::vector<std::string> &user_names_;
    std::vector<SampleGroup> groups_;
    std::map<std::string, std::size_t, std::less<>> by_name_;
};

// All of `samples` at once, in the groups' order.
std::vector<SampleGroup> group_samples(const LatencyLog &samples, GroupBy by, TimeUnit unit,
                                       const std::vector<TaskInfo> &tasks, const std::vector<std::string> &user_names);

} // namespace inflight
