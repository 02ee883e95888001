// SPDX-License-Identifier: GPL-3.0-or-later
// The limits of one run, in one place. A scene is untrusted input (students share them, bug
// reports attach them): whatever it asks for, a run's memory and time are bounded by these
// budgets, and reaching one ends the run with a located error naming it, never bad_alloc.
// Each budget has a default every shipped scene fits; `set limit NAME N` (scenes/LANGUAGE.md)
// and inflight-cli's --limit NAME=N raise or lower it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace inflight {

enum class Budget : unsigned char {
    objects,         // sockets a scene may create (checked statically, before the run)
    steps,           // micro-steps a run may take (absorbed ones included)
    collections,     // collection records kept for the report; later runs are counted only
    warnings,        // run warnings kept; later ones are counted only ("... and N more")
    latency_samples, // timed calls kept one by one; later ones are kept as exact counts per duration
    latency_values,  // distinct (group, duration) counts kept beyond latency_samples
    queued_skbs,     // sk_buffs alive at once (queued, in flight, on the hitlist)
    queued_bytes,    // bytes queued at once in every receive queue together
    input_bytes,     // size of a scene file (regular files only)
    name_lookups,    // name look-ups the static checker may make (its work, not statements)
    time_ns,         // modelled nanoseconds a task's clock may reach (the clock never wraps)
    range_names,     // names the parser makes from ranges (fds=s{0..99999}: 13 bytes, 100,000 names)
    hits,            // watch and breakpoint hits listed; later ones are counted only
};
inline constexpr std::size_t kBudgetCount = 13;

struct BudgetInfo {
    Budget id;
    std::string_view name; // as written after `set limit` and in --limit NAME=N
    std::uint64_t default_value;
    std::string_view what; // "micro-steps", in "the run reached its limit of N micro-steps"
    bool ends_run;         // reaching it ends the run (else: later items are only counted)
};

// Every budget, in enum order.
std::span<const BudgetInfo> budget_table();
const BudgetInfo &budget_info(Budget b);
std::optional<Budget> budget_by_name(std::string_view name);

// A set of limits: the defaults, with `set limit` lines and command-line options on top.
class RunBudget {
public:
    RunBudget();
    std::uint64_t operator[](Budget b) const { return limits_[static_cast<std::size_t>(b)]; }
    void set(Budget b, std::uint64_t n) { limits_[static_cast<std::size_t>(b)] = n; }
    bool operator==(const RunBudget &) const = default;

private:
    std::array<std::uint64_t, kBudgetCount> limits_{};
};

// A budget a run reached: which, and what was being done ("splice of 1099511627776 bytes").
struct BudgetBreach {
    Budget which = Budget::steps;
    std::uint64_t limit = 0;
    std::string detail;
};

// "the run reached its limit of 1,000,000 queued sk_buffs (splice ...); raise it with
// 'set limit queued-skbs N' or --limit queued-skbs=N"
std::string budget_message(const BudgetBreach &b);

// 1234567 -> "1,234,567": limits and counts are read by people.
std::string group_digits(std::uint64_t n);

// a + b and a * b, stuck at the largest value instead of wrapping (modelled time, counts).
constexpr std::uint64_t kSaturatedU64 = ~std::uint64_t(0);
inline std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b)
{
    std::uint64_t r = 0;
    return __builtin_add_overflow(a, b, &r) ? kSaturatedU64 : r;
}
inline std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b)
{
    std::uint64_t r = 0;
    return __builtin_mul_overflow(a, b, &r) ? kSaturatedU64 : r;
}

} // namespace inflight
