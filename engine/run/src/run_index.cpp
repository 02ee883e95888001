// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/run_index.hpp"

#include <algorithm>

namespace inflight {

namespace {

// The last of sorted `steps` before here, and the first after it.
std::optional<std::uint64_t> last_before(const std::vector<std::uint64_t> &steps, std::uint64_t here)
{
    auto it = std::lower_bound(steps.begin(), steps.end(), here);
    if (it == steps.begin())
        return std::nullopt;
    return *std::prev(it);
}

std::optional<std::uint64_t> first_after(const std::vector<std::uint64_t> &steps, std::uint64_t here)
{
    auto it = std::upper_bound(steps.begin(), steps.end(), here);
    if (it == steps.end())
        return std::nullopt;
    return *it;
}

constexpr auto by_step = [](const auto &x, std::uint64_t step) { return x.step < step; };
constexpr auto step_by = [](std::uint64_t step, const auto &x) { return step < x.step; };

} // namespace

RunIndex::RunIndex(const RecordedEvents &events, GcEra era, std::vector<std::uint64_t> finding_steps)
    : beats_(find_beats(events, era, std::move(finding_steps)))
{
    for (const Event &e : events) {
        switch (e.kind) {
        case EventKind::stmt_begin:
            statements_.push_back({e.step, e.scene_line});
            lines_.emplace_back(e.scene_line, e.step);
            break;
        case EventKind::note:
            // A note, or an ask's question (its answer follows on the next step).
            if (e.fn == KFn::scene && e.scene_note_shows() != SceneNote::answer)
                notes_.push_back(e.step);
            break;
        case EventKind::gc_begin: collections_.push_back(e.step); break;
        default: break;
        }
    }
    std::sort(lines_.begin(), lines_.end());
}

std::optional<std::uint64_t> RunIndex::next_note(std::uint64_t here) const { return first_after(notes_, here); }

std::optional<std::uint64_t> RunIndex::previous_note(std::uint64_t here) const { return last_before(notes_, here); }

std::optional<StatementStart> RunIndex::statement_before(std::uint64_t here) const
{
    auto it = std::lower_bound(statements_.begin(), statements_.end(), here, by_step);
    if (it == statements_.begin())
        return std::nullopt;
    return *std::prev(it);
}

std::optional<StatementStart> RunIndex::statement_at_or_before(std::uint64_t here) const
{
    auto it = std::upper_bound(statements_.begin(), statements_.end(), here, step_by);
    if (it == statements_.begin())
        return std::nullopt;
    return *std::prev(it);
}

std::optional<StatementStart> RunIndex::next_statement(std::uint64_t here) const
{
    auto it = std::upper_bound(statements_.begin(), statements_.end(), here, step_by);
    if (it == statements_.end())
        return std::nullopt;
    return *it;
}

std::optional<std::uint64_t> RunIndex::first_start_of_line(std::uint32_t line) const
{
    auto it = std::lower_bound(lines_.begin(), lines_.end(), std::pair<std::uint32_t, std::uint64_t>(line, 0));
    if (it == lines_.end() || it->first != line)
        return std::nullopt;
    return it->second;
}

std::optional<std::uint64_t> RunIndex::next_start_of_line(std::uint32_t line, std::uint64_t here) const
{
    auto it = std::upper_bound(lines_.begin(), lines_.end(), std::pair<std::uint32_t, std::uint64_t>(line, here));
    if (it == lines_.end() || it->first != line)
        return std::nullopt;
    return it->second;
}

std::optional<std::uint64_t> RunIndex::collection_start_before(std::uint64_t here) const
{
    return last_before(collections_, here);
}

std::optional<Beat> RunIndex::next_beat(std::uint64_t here) const
{
    auto it = std::upper_bound(beats_.begin(), beats_.end(), here, step_by);
    if (it == beats_.end())
        return std::nullopt;
    return *it;
}

std::optional<Beat> RunIndex::previous_beat(std::uint64_t here) const
{
    auto it = std::lower_bound(beats_.begin(), beats_.end(), here, by_step);
    if (it == beats_.begin())
        return std::nullopt;
    return *std::prev(it);
}

std::size_t RunIndex::beats_up_to(std::uint64_t here) const
{
    return static_cast<std::size_t>(std::upper_bound(beats_.begin(), beats_.end(), here, step_by) - beats_.begin());
}

} // namespace inflight
