// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/run_summary.hpp"

#include "inflight/kernel.hpp"
#include "inflight/simulation.hpp"
#include "inflight/why_alive.hpp"

#include <string>
#include <vector>

namespace inflight {

namespace {

// "a", "a and b", "a, b and c"; past `shown` names, "and N more".
std::string names_text(const Kernel &k, const std::vector<std::uint32_t> &ids, std::size_t shown = 12)
{
    std::string out;
    const std::size_t n = std::min(ids.size(), shown);
    for (std::size_t i = 0; i < n; ++i) {
        if (i)
            out += (i + 1 == n && n == ids.size()) ? " and " : ", ";
        out += k.label_of_id(ids[i]);
    }
    if (ids.size() > n)
        out += " and " + std::to_string(ids.size() - n) + " more";
    return out;
}

std::string sockets_text(std::size_t n) { return n == 1 ? "1 socket" : std::to_string(n) + " sockets"; }

} // namespace

std::string narrate_run_end(const Simulation &sim)
{
    const Kernel &k = sim.kernel();
    std::string out = "The scene is over";
    if (sim.stopped_by_finding() && !k.findings.empty())
        out += ", stopped by a kernel check that failed (" + k.findings.back().invariant + ")";
    else if (!k.findings.empty())
        out += "; the kernel warned on the way (" + k.findings.front().invariant + ") and went on";
    out += ". ";

    std::vector<std::uint32_t> by_gc, with_gc;
    for (const UnixSock &u : k.socks) {
        if (!u.released)
            continue;
        if (u.freed_by == FreedBy::gc)
            by_gc.push_back(u.id);
        else if (u.freed_by == FreedBy::cascade)
            with_gc.push_back(u.id);
    }
    const std::size_t runs = k.gc_runs.size();
    if (runs == 0)
        out += "No collection ran. ";
    else if (by_gc.empty())
        out += "The collector ran " + std::string(runs == 1 ? "once" : std::to_string(runs) + " times") +
               " and freed nothing. ";
    else
        out += "The collector freed " + names_text(k, by_gc) + " (" + sockets_text(by_gc.size()) + "). ";
    if (!with_gc.empty())
        out += names_text(k, with_gc) + (with_gc.size() == 1 ? " was" : " were") +
               " freed when a released socket's queue was purged. ";

    // Leaked: alive, no fd reaches it, the collector left it. The marks of the last collection
    // where it made them, else the state's own answer (a collection would leave them).
    std::vector<std::uint32_t> leaked;
    if (!k.leaked.empty()) {
        for (const auto &[id, why] : k.leaked)
            if (!k.socks[id].released)
                leaked.push_back(id);
    } else if (k.socks.size() <= WhyTracker::kLargeScene) {
        for (const LeakedSocket &l : leaks_of(k))
            leaked.push_back(l.sock);
    }
    if (leaked.empty())
        out += "Nothing leaked. ";
    else
        out += names_text(k, leaked) + (leaked.size() == 1 ? " leaked: it is" : " leaked: they are") +
               " alive, no open fd reaches " + (leaked.size() == 1 ? "it" : "them") + ", and the collector left " +
               (leaked.size() == 1 ? "it. " : "them. ");

    const auto &ex = sim.expectations();
    const std::size_t failed = sim.expectations_failed();
    if (ex.empty()) {
        out += "The scene checks no expectation.";
    } else if (failed == 0) {
        out += ex.size() == 1
                   ? "Its one expectation held."
                   : "Every expectation held (" + std::to_string(ex.size()) + " of " + std::to_string(ex.size()) + ").";
    } else {
        out += std::to_string(failed) + " of " + std::to_string(ex.size()) + " expectations FAILED";
        std::size_t told = 0;
        for (const ExpectationOutcome &o : ex)
            if (!o.passed && told++ < 3)
                out += std::string(told == 1 ? ": " : "; ") + "line " + std::to_string(o.line) + ", " + o.message;
        out += ".";
    }
    return out;
}

} // namespace inflight
