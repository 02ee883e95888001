// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/run_budget.hpp"

namespace inflight {

namespace {

// The defaults: every scene in scenes/ fits with room to spare (the largest, autobind-fill and
// autobind-exhaustion, make 2^20 timed calls; large-32000-in-flight takes ~10^8 micro-steps),
// and together they keep a run under 2 GB (tests/CMakeLists.txt runs the worst cases under
// `ulimit -v`): 2M sockets ~ 1 GB, 4M samples x 56 B, 1M skbs, 1M duration counts, a 2 MiB
// scene file parsed.
constexpr BudgetInfo kTable[kBudgetCount] = {
    {Budget::objects, "objects", 2'000'000, "sockets", true},
    {Budget::steps, "steps", 1'000'000'000, "micro-steps", true},
    {Budget::collections, "collections", 100'000, "collection records kept", false},
    {Budget::warnings, "warnings", 1'000, "warnings kept", false},
    {Budget::latency_samples, "latency-samples", 4'000'000, "latency samples kept one by one", false},
    {Budget::latency_values, "latency-values", 1'000'000, "distinct latency values counted", true},
    {Budget::queued_skbs, "queued-skbs", 1'000'000, "sk_buffs alive at once", true},
    {Budget::queued_bytes, "queued-bytes", 64ull << 30, "bytes queued at once", true},
    // Parsing takes up to ~180 bytes per byte of input (a file of `gc` lines: a 352-byte
    // Statement per 3 bytes, doubled while the vector grows): 2 MiB, hundreds of times the
    // largest shipped scene, stays under 400 MB.
    {Budget::input_bytes, "input-bytes", 2ull << 20, "bytes of scene file", true},
    {Budget::name_lookups, "name-lookups", 10'000'000, "name look-ups in the checker", true},
    {Budget::time_ns, "time-ns", kSaturatedU64, "ns of modelled time", true},
    // A range is the one place where a few bytes of input become many names (~80 bytes each).
    {Budget::range_names, "range-names", 1'000'000, "names from ranges {A..B}", true},
    // A watch that fires on every collection of `repeat 1000000000 { gc }` would list a
    // billion lines; a person reads the first ones, and a hit is ~150 bytes.
    {Budget::hits, "hits", 100'000, "watch and break hits listed", false},
};

} // namespace

std::span<const BudgetInfo> budget_table() { return kTable; }

const BudgetInfo &budget_info(Budget b) { return kTable[static_cast<std::size_t>(b)]; }

std::optional<Budget> budget_by_name(std::string_view name)
{
    for (const BudgetInfo &i : kTable)
        if (i.name == name)
            return i.id;
    return std::nullopt;
}

RunBudget::RunBudget()
{
    for (const BudgetInfo &i : kTable)
        limits_[static_cast<std::size_t>(i.id)] = i.default_value;
}

std::string group_digits(std::uint64_t n)
{
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

std::string budget_message(const BudgetBreach &b)
{
    const BudgetInfo &i = budget_info(b.which);
    std::string m =
        "limit '" + std::string(i.name) + "' reached: at most " + group_digits(b.limit) + " " + std::string(i.what);
    if (!b.detail.empty())
        m += " (" + b.detail + ")";
    // A file's size is checked before it is read, so its own `set limit` line cannot raise it.
    if (b.which == Budget::input_bytes)
        m += "; raise it with inflight-cli's --limit input-bytes=N";
    else
        m += "; raise it with 'set limit " + std::string(i.name) + " N' or --limit " + std::string(i.name) + "=N";
    return m;
}

} // namespace inflight
