// SPDX-License-Identifier: GPL-3.0-or-later
// How two runs of one scene (two variants, or two kernel profiles) are kept at the same place,
// and where they first differ. Their step numbers do not agree (a fixed kernel may take more or
// fewer micro-steps), so a place is named by the statement (its scene line and which run of that
// line: a repeat's iteration) and, within it, how many of the lesson's beats are shown.
// Qt-free: it reads the runs' indexes only.
#pragma once

#include "inflight/recorded_events.hpp"
#include "inflight/run_index.hpp"
#include "inflight/run_names.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace side_by_side {

// A place in a run that another run of the same scene can find.
struct Place {
    std::uint32_t line = 0;       // the statement's scene line (0: before the first statement)
    std::uint32_t iteration = 0;  // which run of that line, from 0
    std::uint32_t beats_into = 0; // beats of that statement at or before the place
    bool operator==(const Place &) const = default;
};

// The place shown at `step` of the run `index` describes.
Place placeAt(const inflight::RunIndex &index, std::uint64_t step);
// The step of `to` that shows `place`: its statement's beat of that number (its last one when it
// has fewer), the statement's start when no beat of it is shown yet. A statement the other run
// never made (a note of one variant only) has none. `total`: the run's last step.
std::optional<std::uint64_t> stepOf(const inflight::RunIndex &to, std::uint64_t total, const Place &place);
// From a step of the run `from` to the same place in `to`; where `to` never made that statement,
// to the end of the nearest one before it that both runs made.
std::uint64_t follow(const inflight::RunIndex &from, std::uint64_t step, const inflight::RunIndex &to,
                     std::uint64_t to_total);

// What one statement of a run did that could differ between kernels, in words ("fails with
// EAGAIN", "frees an skb", "releases c2", "finding: …").
struct Outcome {
    std::uint32_t line = 0;
    std::uint32_t iteration = 0;
    std::uint64_t first_step = 0; // its stmt_begin
    std::vector<std::string> facts;
};
std::vector<Outcome> outcomes(const inflight::RecordedEvents &events, const inflight::RunNames &names);

// The first statement both runs made whose outcomes differ.
struct Divergence {
    std::uint32_t line = 0;
    std::uint32_t iteration = 0;
    std::uint64_t step_a = 0, step_b = 0;    // the statement's start in each run
    std::vector<std::string> only_a, only_b; // facts of one run and not the other
    // "Here the runs differ (line 27): fixed frees an skb; buggy does not."
    std::string announcement(const std::string &name_a, const std::string &name_b) const;
};
std::optional<Divergence> firstDivergence(const std::vector<Outcome> &a, const std::vector<Outcome> &b);

} // namespace side_by_side
