// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/latency_counts.hpp"

#include "inflight/run_budget.hpp"

namespace inflight {

void LatencyCounts::add(const LatencySample &s)
{
    Counts &c = counts_[Key{static_cast<std::uint16_t>(s.task), s.fn, s.kind, s.duration_ns}];
    ++c.calls;
    c.waited_ns = saturating_add(c.waited_ns, s.waited_ns);
    c.spun_ns = saturating_add(c.spun_ns, s.spun_ns);
    c.waits += s.waited_ns > 0;
    ++calls_;
}

} // namespace inflight
