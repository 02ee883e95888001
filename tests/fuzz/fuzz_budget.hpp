// SPDX-License-Identifier: GPL-3.0-or-later
// The run budgets of every fuzz target: small enough for thousands of executions a second,
// whatever a scene sets with `set limit`.
#pragma once

#include "inflight/parser.hpp"
#include "inflight/run_budget.hpp"

namespace inflight::fuzz {

inline RunBudget fuzz_ceiling()
{
    RunBudget b;
    b.set(Budget::objects, 2'000);
    b.set(Budget::steps, 20'000);
    b.set(Budget::collections, 64);
    b.set(Budget::warnings, 64);
    b.set(Budget::latency_samples, 256);
    b.set(Budget::latency_values, 4'096);
    b.set(Budget::queued_skbs, 4'096);
    b.set(Budget::queued_bytes, 1ull << 30);
    b.set(Budget::name_lookups, 200'000);
    b.set(Budget::range_names, 20'000);
    return b;
}

// Parse limits whose budgets a scene cannot raise past fuzz_ceiling().
inline const ParseLimits &fuzz_parse_limits()
{
    static const ParseLimits limits{{}, fuzz_ceiling()};
    return limits;
}

} // namespace inflight::fuzz
