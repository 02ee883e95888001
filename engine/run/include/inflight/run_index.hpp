// SPDX-License-Identifier: GPL-3.0-or-later
// Where a recorded run can be navigated to, as sorted vectors made once when the run is
// indexed (off the GUI thread): every statement's start and line, every note, every
// collection's start and the lesson's beats (beats.hpp). Each question - the next note, the
// statement before here, the next run of a line, the beat after here - is a binary search,
// whatever the run's length, where a walk over the recorded events would cost a decode per
// event.
#pragma once

#include "inflight/beats.hpp"
#include "inflight/gc_era.hpp"
#include "inflight/recorded_events.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace inflight {

struct StatementStart {
    std::uint64_t step = 0; // its stmt_begin
    std::uint32_t scene_line = 0;
};

class RunIndex {
public:
    RunIndex() = default;
    // `finding_steps`: the run's findings (finding_steps()), which the events do not record.
    RunIndex(const RecordedEvents &events, GcEra era, std::vector<std::uint64_t> finding_steps);

    const std::vector<Beat> &beats() const { return beats_; }
    const std::vector<StatementStart> &statements() const { return statements_; }

    // ---- notes (the `note` statements' texts and the `ask` statements' questions shown) ----
    std::optional<std::uint64_t> next_note(std::uint64_t here) const;     // the first after here
    std::optional<std::uint64_t> previous_note(std::uint64_t here) const; // the last before here

    // ---- statements ----
    // The statement that began last before here (step < here) / at or before here.
    std::optional<StatementStart> statement_before(std::uint64_t here) const;
    std::optional<StatementStart> statement_at_or_before(std::uint64_t here) const;
    // The first statement that begins after here.
    std::optional<StatementStart> next_statement(std::uint64_t here) const;
    // The first start of the statement on `line` (any run of it), and the first after here.
    std::optional<std::uint64_t> first_start_of_line(std::uint32_t line) const;
    std::optional<std::uint64_t> next_start_of_line(std::uint32_t line, std::uint64_t here) const;

    // ---- collections ----
    // The gc_begin of the last collection that began before here.
    std::optional<std::uint64_t> collection_start_before(std::uint64_t here) const;

    // ---- beats ----
    std::optional<Beat> next_beat(std::uint64_t here) const;     // the first beat after here
    std::optional<Beat> previous_beat(std::uint64_t here) const; // the last beat before here
    // How many beats are at or before here: the 1-based number of the beat on screen (0: none
    // yet).
    std::size_t beats_up_to(std::uint64_t here) const;

private:
    std::vector<Beat> beats_;
    std::vector<StatementStart> statements_;                     // in step order
    std::vector<std::pair<std::uint32_t, std::uint64_t>> lines_; // (line, step), sorted
    std::vector<std::uint64_t> notes_, collections_;
};

} // namespace inflight
