// SPDX-License-Identifier: GPL-3.0-or-later
// What the views mark on a recorded run, found in one walk when the run is indexed (off the GUI
// thread): the timeline's ticks and bands, the algorithm pane's line at any step, where each
// collection's events start for the SCC panel. The large scenes record hundreds of thousands of
// events; a walk per view for its own marks would hold the GUI thread once per view as the
// index lands.
#pragma once

#include "inflight/gc_era.hpp"
#include "inflight/recorded_events.hpp"
#include "inflight/scene.hpp"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace inflight {

// A stretch of the run: a collection (task: the one that ran it) or a task's wait for one.
struct RunSpan {
    std::uint64_t first = 0, last = 0;
    int task = 0;
};

struct RunLandmarks {
    std::vector<std::uint64_t> gc_steps;          // each collection's gc_begin
    std::vector<std::size_t> gc_begin_rows;       // the row of each of those gc_begin events
    std::vector<std::uint64_t> warning_steps;     // a statement that failed, a finding
    std::vector<std::uint64_t> expectation_steps; // each expect statement's check
    // (step, listing line) of every event that shows a line of the era's listing, in step order.
    std::vector<std::pair<std::uint64_t, std::uint16_t>> listing_lines;
    // (step, scene line) of every note and ask statement that began, in step order.
    std::vector<std::pair<std::uint64_t, std::uint32_t>> note_steps;
    std::vector<RunSpan> collections, waits;
};

// `total`: the run's last step (a collection or wait still open at the end lasts until then);
// `era`: the collector whose listing the lines are of; `scene`: where the note statements are.
RunLandmarks run_landmarks(const RecordedEvents &events, std::uint64_t total, GcEra era, const Scene &scene);

// The collections and the waits for one alone (RunLandmarks::collections and ::waits).
void run_spans(const RecordedEvents &events, std::uint64_t total, std::vector<RunSpan> &collections,
               std::vector<RunSpan> &waits);

} // namespace inflight
