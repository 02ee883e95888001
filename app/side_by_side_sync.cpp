// SPDX-License-Identifier: GPL-3.0-or-later
#include "side_by_side_sync.h"

#include "inflight/errno_code.hpp"
#include "inflight/event.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <utility>

namespace side_by_side {

namespace {

// The step where the `iteration`-th run of `line` begins.
std::optional<std::uint64_t> startOf(const inflight::RunIndex &index, std::uint32_t line, std::uint32_t iteration)
{
    std::optional<std::uint64_t> at = index.first_start_of_line(line);
    for (std::uint32_t i = 0; at && i < iteration; ++i)
        at = index.next_start_of_line(line, *at);
    return at;
}

std::string joined(const std::vector<std::string> &facts)
{
    std::string out;
    for (const std::string &f : facts)
        out += (out.empty() ? "" : ", ") + f;
    return out;
}

} // namespace

Place placeAt(const inflight::RunIndex &index, std::uint64_t step)
{
    const auto stmt = index.statement_at_or_before(step);
    if (!stmt)
        return {};
    Place place;
    place.line = stmt->scene_line;
    for (auto at = index.first_start_of_line(place.line); at && *at < stmt->step;
         at = index.next_start_of_line(place.line, *at))
        ++place.iteration;
    const std::size_t before = stmt->step == 0 ? 0 : index.beats_up_to(stmt->step - 1);
    place.beats_into = static_cast<std::uint32_t>(index.beats_up_to(step) - before);
    return place;
}

std::optional<std::uint64_t> stepOf(const inflight::RunIndex &to, std::uint64_t total, const Place &place)
{
    if (place.line == 0)
        return std::uint64_t{0};
    const auto start = startOf(to, place.line, place.iteration);
    if (!start)
        return std::nullopt;
    const auto next = to.next_statement(*start);
    const std::uint64_t end = next ? next->step - 1 : total;
    if (place.beats_into == 0)
        return *start;
    const std::size_t first = *start == 0 ? 0 : to.beats_up_to(*start - 1);
    const std::size_t last = to.beats_up_to(end); // one past the statement's last beat
    if (last == first)
        return end; // no beat of its own: what it did is on screen at its end
    const std::size_t k = std::min<std::size_t>(first + place.beats_into, last) - 1;
    return to.beats()[k].step;
}

std::uint64_t follow(const inflight::RunIndex &from, std::uint64_t step, const inflight::RunIndex &to,
                     std::uint64_t to_total)
{
    Place place = placeAt(from, step);
    while (true) {
        if (const auto there = stepOf(to, to_total, place))
            return *there;
        // A statement of one run only: the end of the one before it.
        const auto start = startOf(from, place.line, place.iteration);
        const auto before = start ? from.statement_before(*start) : std::nullopt;
        if (!before)
            return 0;
        place = placeAt(from, before->step);
        place.beats_into = std::numeric_limits<std::uint32_t>::max();
    }
}

std::vector<Outcome> outcomes(const inflight::RecordedEvents &events, const inflight::RunNames &names)
{
    std::vector<Outcome> out;
    std::map<std::uint32_t, std::uint32_t> runs_of_line;
    std::size_t skbs_freed = 0;
    const auto close_skbs = [&] {
        if (skbs_freed > 0 && !out.empty())
            out.back().facts.push_back(skbs_freed == 1 ? "frees an skb"
                                                       : "frees " + std::to_string(skbs_freed) + " skbs");
        skbs_freed = 0;
    };
    for (const inflight::Event &e : events) {
        using K = inflight::EventKind;
        if (e.kind == K::stmt_begin) {
            close_skbs();
            out.push_back({e.scene_line, runs_of_line[e.scene_line]++, e.step, {}});
            continue;
        }
        if (out.empty())
            continue;
        auto &facts = out.back().facts;
        switch (e.kind) {
        case K::stmt_end:
            if (e.before != 0)
                facts.push_back("fails with " +
                                std::string(inflight::errno_name(static_cast<inflight::Errno>(e.before))));
            break;
        case K::sock_release: facts.push_back("releases " + names.label_of_id(e.a)); break;
        case K::skb_free: ++skbs_freed; break;
        case K::gc_end:
            facts.push_back(e.before == 0 ? "the collector finds no garbage"
                                          : "the collector finds " + std::to_string(e.before) + " garbage");
            break;
        case K::finding:
            if (e.a < names.finding_count())
                facts.push_back("finding: " + names.finding(e.a).invariant);
            break;
        default: break;
        }
    }
    close_skbs();
    return out;
}

std::optional<Divergence> firstDivergence(const std::vector<Outcome> &a, const std::vector<Outcome> &b)
{
    std::map<std::pair<std::uint32_t, std::uint32_t>, const Outcome *> in_b;
    for (const Outcome &o : b)
        in_b.emplace(std::pair{o.line, o.iteration}, &o);
    for (const Outcome &oa : a) {
        const auto it = in_b.find({oa.line, oa.iteration});
        if (it == in_b.end())
            continue; // a statement of one run only (a variant's note) is no outcome to compare
        const Outcome &ob = *it->second;
        std::vector<std::string> fa = oa.facts, fb = ob.facts;
        std::sort(fa.begin(), fa.end());
        std::sort(fb.begin(), fb.end());
        if (fa == fb)
            continue;
        Divergence d{oa.line, oa.iteration, oa.first_step, ob.first_step, {}, {}};
        std::set_difference(fa.begin(), fa.end(), fb.begin(), fb.end(), std::back_inserter(d.only_a));
        std::set_difference(fb.begin(), fb.end(), fa.begin(), fa.end(), std::back_inserter(d.only_b));
        return d;
    }
    return std::nullopt;
}

std::string Divergence::announcement(const std::string &name_a, const std::string &name_b) const
{
    // What each run did that the other did not; a run that did none of it "does not".
    std::string said = "Here the runs differ (line " + std::to_string(line) + "): ";
    const auto part = [](const std::string &name, const std::vector<std::string> &facts) {
        return facts.empty() ? name + " does not" : name + " " + joined(facts);
    };
    if (only_a.empty())
        return said + part(name_b, only_b) + "; " + part(name_a, only_a) + ".";
    return said + part(name_a, only_a) + "; " + part(name_b, only_b) + ".";
}

} // namespace side_by_side
