// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/stop_conditions.hpp"

#include "inflight/event.hpp"

namespace inflight {

void StopConditions::start(const Kernel &k)
{
    for (Watchpoint &w : watches)
        w.reset(k);
}

std::optional<std::string> StopConditions::check(const Event &e, const Kernel &k)
{
    std::optional<std::string> fired;
    for (std::size_t i = 0; i < watches.size(); ++i)
        if (auto c = watches[i].check(k); c && !fired)
            fired = "watch " + std::to_string(i + 1) + " (" + watches[i].watch().text() + "): " + c->before + " -> " +
                    c->after;
    for (const LineBreakpoint &l : lines)
        if (l.hits(e, k))
            return "breakpoint at line " + l.text();
    if (const EventBreak b = events.check(e, k); b != EventBreak::none)
        return events.describe(b);
    return fired;
}

} // namespace inflight
