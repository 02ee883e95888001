// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/log2_histogram.hpp"

#include "inflight/run_budget.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>

namespace inflight {

std::uint64_t unit_divisor(TimeUnit u)
{
    switch (u) {
    case TimeUnit::ns: return 1;
    case TimeUnit::us: return 1'000;
    case TimeUnit::ms: return 1'000'000;
    }
    return 1;
}

std::string_view unit_label(TimeUnit u)
{
    switch (u) {
    case TimeUnit::ns: return "nsecs";
    case TimeUnit::us: return "usecs";
    case TimeUnit::ms: return "msecs";
    }
    return "nsecs";
}

// ---- Log2Histogram ---------------------------------------------------------------------------

int Log2Histogram::bucket_of(std::uint64_t value)
{
    return value == 0 ? 0 : std::bit_width(value); // bit_width(v) = floor(log2 v) + 1
}

std::uint64_t Log2Histogram::bucket_low(int bucket) { return bucket <= 0 ? 0 : std::uint64_t{1} << (bucket - 1); }

std::uint64_t Log2Histogram::bucket_high(int bucket)
{
    if (bucket <= 0)
        return 0;
    if (bucket >= 64)
        return ~std::uint64_t{0};
    return (std::uint64_t{1} << bucket) - 1;
}

Log2Histogram::Log2Histogram(TimeUnit unit) : unit_(unit) { }

const Log2Histogram::Values &Log2Histogram::no_values()
{
    static const Values none;
    return none;
}

namespace {

using Shared = std::shared_ptr<std::vector<std::uint64_t>>;

// Copy on write: p's samples, made p's own first (a new, empty vector when it has none).
std::vector<std::uint64_t> &unshared(Shared &p)
{
    if (!p)
        p = std::make_shared<std::vector<std::uint64_t>>();
    else if (p.use_count() > 1)
        p = std::make_shared<std::vector<std::uint64_t>>(*p);
    return *p;
}

// Empties p: in place when p alone holds the samples (their room is kept for the adds that
// follow: a live view stepping back clears and adds them again), else lets the others keep them.
void emptied(Shared &p)
{
    if (p && p.use_count() == 1)
        p->clear();
    else
        p.reset();
}

} // namespace

void Log2Histogram::set_unit(TimeUnit unit)
{
    if (unit == unit_)
        return;
    unit_ = unit;
    buckets_.fill(0);
    const std::uint64_t div = unit_divisor(unit_);
    for (std::uint64_t v : values_ns())
        ++buckets_[static_cast<std::size_t>(bucket_of(v / div))];
    for (const auto &[v, times] : counted_)
        buckets_[static_cast<std::size_t>(bucket_of(v / div))] += times;
}

void Log2Histogram::add(std::uint64_t ns)
{
    ++buckets_[static_cast<std::size_t>(bucket_of(ns / unit_divisor(unit_)))];
    if (empty() || ns < min_ns_)
        min_ns_ = ns;
    if (empty() || ns > max_ns_)
        max_ns_ = ns;
    unshared(values_).push_back(ns);
    total_ns_ = saturating_add(total_ns_, ns);
}

void Log2Histogram::add(std::uint64_t ns, std::uint64_t times)
{
    if (times == 0)
        return;
    buckets_[static_cast<std::size_t>(bucket_of(ns / unit_divisor(unit_)))] += times;
    if (empty() || ns < min_ns_)
        min_ns_ = ns;
    if (empty() || ns > max_ns_)
        max_ns_ = ns;
    counted_[ns] += times;
    counted_calls_ += times;
    total_ns_ = saturating_add(total_ns_, saturating_mul(ns, times));
}

bool Log2Histogram::remove_last(std::uint64_t ns)
{
    if (values_ns().empty() || values_ns().back() != ns || !counted_.empty() ||
        total_ns_ == std::numeric_limits<std::uint64_t>::max())
        return false;
    --buckets_[static_cast<std::size_t>(bucket_of(ns / unit_divisor(unit_)))];
    total_ns_ -= ns;
    if (sorted_ && sorted_->size() == values_->size()) { // the sorted copy holds it too
        Values &sorted = unshared(sorted_);
        sorted.erase(std::lower_bound(sorted.begin(), sorted.end(), ns));
    }
    Values &values = unshared(values_);
    values.pop_back();
    if (values.empty()) {
        min_ns_ = max_ns_ = 0;
    } else if (ns == min_ns_ || ns == max_ns_) {
        const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
        min_ns_ = *lo;
        max_ns_ = *hi;
    }
    return true;
}

void Log2Histogram::clear()
{
    buckets_.fill(0);
    emptied(values_);
    emptied(sorted_);
    counted_.clear();
    counted_calls_ = 0;
    total_ns_ = min_ns_ = max_ns_ = 0;
}

std::uint64_t Log2Histogram::bucket_count(int bucket) const
{
    return bucket < 0 || bucket >= kBuckets ? 0 : buckets_[static_cast<std::size_t>(bucket)];
}

int Log2Histogram::first_bucket() const
{
    for (int i = 0; i < kBuckets; ++i)
        if (buckets_[static_cast<std::size_t>(i)])
            return i;
    return -1;
}

int Log2Histogram::last_bucket() const
{
    for (int i = kBuckets - 1; i >= 0; --i)
        if (buckets_[static_cast<std::size_t>(i)])
            return i;
    return -1;
}

std::uint64_t Log2Histogram::max_bucket_count() const { return *std::max_element(buckets_.begin(), buckets_.end()); }

double Log2Histogram::mean_ns() const
{
    return empty() ? 0.0 : static_cast<double>(total_ns_) / static_cast<double>(count());
}

std::uint64_t Log2Histogram::percentile_ns(double p) const
{
    if (empty())
        return 0;
    const Values &values = values_ns();
    if (!sorted_ || sorted_->size() < values.size()) {
        Values &sorted = unshared(sorted_);
        const auto old = static_cast<std::ptrdiff_t>(sorted.size());
        sorted.insert(sorted.end(), values.begin() + old, values.end());
        std::sort(sorted.begin() + old, sorted.end());
        std::inplace_merge(sorted.begin(), sorted.begin() + old, sorted.end());
    }
    const Values &sorted = *sorted_;
    // Nearest rank: rank = ceil(p/100 * N), 1-based, at least 1.
    const double n = static_cast<double>(count());
    auto rank = static_cast<std::uint64_t>(std::ceil(std::clamp(p, 0.0, 100.0) / 100.0 * n - 1e-9));
    rank = std::clamp<std::uint64_t>(rank, 1, count());
    if (counted_.empty())
        return sorted[static_cast<std::size_t>(rank - 1)];
    // Walk the sorted samples and the counted values together, in value order.
    std::size_t i = 0;
    auto c = counted_.begin();
    std::uint64_t seen = 0;
    for (;;) {
        const bool take_sorted = i < sorted.size() && (c == counted_.end() || sorted[i] <= c->first);
        if (take_sorted) {
            if (++seen >= rank)
                return sorted[i];
            ++i;
        } else {
            seen += c->second;
            if (seen >= rank)
                return c->first;
            ++c;
        }
    }
}

std::uint64_t Log2Histogram::total() const { return total_ns_ / unit_divisor(unit_); }

std::uint64_t Log2Histogram::average() const
{
    // funclatency: (total / unit) / count, printed with %ld. The exact quotient, floored.
    if (empty())
        return 0;
    const auto den = static_cast<unsigned __int128>(unit_divisor(unit_)) * count();
    return static_cast<std::uint64_t>(total_ns_ / den);
}

// ---- renderings ------------------------------------------------------------------------------

namespace {

void appendf(std::string &out, const char *format, auto... args)
{
    char buf[256];
    const int n = std::snprintf(buf, sizeof buf, format, args...);
    if (n > 0)
        out.append(buf, std::min<std::size_t>(static_cast<std::size_t>(n), sizeof buf - 1));
}

// bcc's _stars(): floor(width * val / val_max) stars, at most `width`.
std::string stars(std::uint64_t val, std::uint64_t val_max, int width)
{
    if (val_max == 0)
        return {};
    const auto n = static_cast<unsigned __int128>(width) * val / val_max;
    return std::string(static_cast<std::size_t>(std::min<unsigned __int128>(n, static_cast<unsigned>(width))), '*');
}

} // namespace

std::string funclatency_text(const Log2Histogram &h_in, TimeUnit unit, std::string_view label, bool strip_leading_zero)
{
    Log2Histogram rebucketed(unit);
    const Log2Histogram *hp = &h_in;
    if (h_in.unit() != unit) {
        rebucketed = h_in;
        rebucketed.set_unit(unit);
        hp = &rebucketed;
    }
    const Log2Histogram &h = *hp;

    std::string out;
    if (!label.empty()) {
        out.append(label);
        out.push_back('\n');
    }
    // bcc's slots: bpf_log2l() puts 0 and 1 both in slot 1; slot 0 is never filled or printed.
    std::array<std::uint64_t, Log2Histogram::kBuckets> slots = h.buckets();
    slots[1] += slots[0];
    slots[0] = 0;
    int idx_max = -1;
    std::uint64_t val_max = 0;
    for (int i = 0; i < Log2Histogram::kBuckets; ++i) {
        const std::uint64_t v = slots[static_cast<std::size_t>(i)];
        if (v > 0)
            idx_max = i;
        val_max = std::max(val_max, v);
    }
    const bool wide = idx_max > 32;
    const int width = wide ? 20 : 10;
    const int bar = wide ? 20 : 40;
    if (idx_max > 0) {
        if (wide)
            appendf(out, "               %-29s : count     distribution\n", std::string(unit_label(unit)).c_str());
        else
            appendf(out, "     %-19s : count     distribution\n", std::string(unit_label(unit)).c_str());
    }
    bool strip = strip_leading_zero;
    for (int i = 1; i <= idx_max; ++i) {
        std::uint64_t low = Log2Histogram::bucket_low(i);
        const std::uint64_t high = Log2Histogram::bucket_high(i);
        if (low == high)
            low -= 1;
        const std::uint64_t val = slots[static_cast<std::size_t>(i)];
        if (strip && val == 0)
            continue;
        strip = false;
        appendf(out, "%*llu -> %-*llu : %-8llu |%-*s|\n", width, static_cast<unsigned long long>(low), width,
                static_cast<unsigned long long>(high), static_cast<unsigned long long>(val), bar,
                stars(val, val_max, bar).c_str());
    }
    if (h.count() > 0) {
        const std::string u(unit_label(unit));
        appendf(out, "\navg = %llu %s, total: %llu %s, count: %llu\n", static_cast<unsigned long long>(h.average()),
                u.c_str(), static_cast<unsigned long long>(h.total()), u.c_str(),
                static_cast<unsigned long long>(h.count()));
    }
    return out;
}

std::string histogram_csv(const Log2Histogram &h)
{
    std::string out = "bucket_low,bucket_high,count\n";
    const int first = h.first_bucket(), last = h.last_bucket();
    for (int i = first; first >= 0 && i <= last; ++i)
        appendf(out, "%llu,%llu,%llu\n", static_cast<unsigned long long>(Log2Histogram::bucket_low(i)),
                static_cast<unsigned long long>(Log2Histogram::bucket_high(i)),
                static_cast<unsigned long long>(h.bucket_count(i)));
    return out;
}

std::string histogram_json(const Log2Histogram &h)
{
    std::string out = "{\n  \"unit\": \"";
    out.append(unit_label(h.unit()));
    out += "\",\n  \"buckets\": [";
    const int first = h.first_bucket(), last = h.last_bucket();
    for (int i = first; first >= 0 && i <= last; ++i)
        appendf(out, "%s\n    {\"low\": %llu, \"high\": %llu, \"count\": %llu}", i == first ? "" : ",",
                static_cast<unsigned long long>(Log2Histogram::bucket_low(i)),
                static_cast<unsigned long long>(Log2Histogram::bucket_high(i)),
                static_cast<unsigned long long>(h.bucket_count(i)));
    out += first >= 0 ? "\n  ],\n" : "],\n";
    auto field = [&](const char *name, std::uint64_t v, bool last_field = false) {
        appendf(out, "  \"%s\": %llu%s\n", name, static_cast<unsigned long long>(v), last_field ? "" : ",");
    };
    field("count", h.count());
    field("total", h.total());
    field("avg", h.average());
    field("p50", h.percentile(50));
    field("p90", h.percentile(90));
    field("p99", h.percentile(99));
    field("max", h.max(), true);
    out += "}\n";
    return out;
}

LatencyRatio latency_ratio(const Log2Histogram &a, const Log2Histogram &b)
{
    LatencyRatio r;
    if (a.empty() || b.empty())
        return r;
    if (b.mean_ns() > 0)
        r.avg = a.mean_ns() / b.mean_ns();
    const auto b99 = b.percentile_ns(99);
    if (b99 > 0)
        r.p99 = static_cast<double>(a.percentile_ns(99)) / static_cast<double>(b99);
    return r;
}

// ---- groups ----------------------------------------------------------------------------------

std::string_view group_by_name(GroupBy by)
{
    switch (by) {
    case GroupBy::task: return "task";
    case GroupBy::user: return "user";
    case GroupBy::call_kind: return "call kind";
    }
    return "?";
}

SampleGroups::SampleGroups(GroupBy by, TimeUnit unit, const std::vector<TaskInfo> &tasks,
                           const std::vector<std::string> &user_names)
    : by_(by), unit_(unit), tasks_(tasks), user_names_(user_names)
{ }

std::string SampleGroups::name_of(const LatencySample &s) const
{
    switch (by_) {
    case GroupBy::task:
        if (s.task < tasks_.size())
            return tasks_[s.task].name;
        return "task " + std::to_string(s.task);
    case GroupBy::user:
        if (s.user < user_names_.size() && !user_names_[s.user].empty())
            return user_names_[s.user];
        return "user " + std::to_string(s.user);
    case GroupBy::call_kind: return std::string(call_kind_name(s.kind));
    }
    return {};
}

std::uint64_t SampleGroups::order_of(const LatencySample &s) const
{
    switch (by_) {
    case GroupBy::task:
        // The first task of that name, so "main" comes first and spawned blocks follow in order.
        if (s.task < tasks_.size())
            for (std::size_t i = 0; i < tasks_.size(); ++i)
                if (tasks_[i].name == tasks_[s.task].name)
                    return i;
        return s.task;
    case GroupBy::user: return s.user;
    case GroupBy::call_kind: return static_cast<std::uint64_t>(s.kind);
    }
    return 0;
}

std::size_t SampleGroups::add(const LatencySample &s, std::size_t index)
{
    std::string name = name_of(s);
    auto it = by_name_.find(name);
    std::size_t g;
    if (it != by_name_.end()) {
        g = it->second;
    } else {
        SampleGroup group{name, order_of(s), {}, Log2Histogram(unit_)};
        auto pos = std::upper_bound(groups_.begin(), groups_.end(), group.order,
                                    [](std::uint64_t o, const SampleGroup &x) { return o < x.order; });
        g = static_cast<std::size_t>(pos - groups_.begin());
        groups_.insert(pos, std::move(group));
        for (std::size_t i = g; i < groups_.size(); ++i)
            by_name_[groups_[i].name] = i;
    }
    groups_[g].samples.push_back(index);
    groups_[g].histogram.add(s.duration_ns);
    return g;
}

bool SampleGroups::remove_last(const LatencySample &s, std::size_t index)
{
    const auto it = by_name_.find(name_of(s));
    if (it == by_name_.end())
        return false;
    SampleGroup &g = groups_[it->second];
    if (g.samples.size() < 2 || g.samples.back() != index || !g.histogram.remove_last(s.duration_ns))
        return false;
    g.samples.pop_back();
    return true;
}

void SampleGroups::set_unit(TimeUnit unit)
{
    unit_ = unit;
    for (SampleGroup &g : groups_)
        g.histogram.set_unit(unit);
}

void SampleGroups::clear()
{
    groups_.clear();
    by_name_.clear();
}

std::vector<SampleGroup> group_samples(const LatencyLog &samples, GroupBy by, TimeUnit unit,
                                       const std::vector<TaskInfo> &tasks, const std::vector<std::string> &user_names)
{
    SampleGroups groups(by, unit, tasks, user_names);
    for (std::size_t i = 0; i < samples.size(); ++i)
        groups.add(samples[i], i);
    return groups.groups();
}

} // namespace inflight
