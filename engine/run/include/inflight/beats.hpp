// SPDX-License-Identifier: GPL-3.0-or-later
// A lesson's beats: the places a presenter's clicker stops at. A micro-step is too fine for a
// classroom (a note costs three presses, a statement that changes nothing costs as many as
// one that does), a statement too coarse (a collection is one statement). A beat is each
// statement that changes the picture, each phase of a collection, each SCC's verdict, each
// note, each question and its answer, and each finding, and every beat changes what the screen shows: a statement that
// changes nothing visible joins the next beat, and of a long loop's rounds a few are beats and
// then its end (a thousand sends, or a thousand collections, are shown as two and the last).
// Found in one walk over a run's recorded events, so the app, the CLI and the exports stop at the
// same places.
#pragma once

#include "inflight/gc_era.hpp"
#include "inflight/gc_phase.hpp"
#include "inflight/recorded_events.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace inflight {

class Simulation;

enum class BeatKind : std::uint8_t {
    statement,         // a statement that changed the picture, at its end
    statement_fails,   // a statement that returned an error, at its end
    note,              // a note statement's text is shown
    question,          // an ask's question is shown (the picture before what it asks about)
    answer,            // the ask's answer is shown, on the same picture
    collection_begins, // gc_begin
    phase_begins,      // the first micro-step of one of the collection's phases (Beat::phase)
    scc_verdict,       // the graph collector judged one SCC
    collection_ends,   // gc_end
    finding,           // an invariant, a kernel WARN, a use-after-free
};
std::string_view beat_kind_name(BeatKind kind); // "statement", "note", ...

struct Beat {
    std::uint64_t step = 0; // the position the beat shows: the state after this micro-step
    BeatKind kind = BeatKind::statement;
    GcPhase phase = GcPhase::none; // phase_begins: which
    std::uint32_t scene_line = 0;  // the statement running at the step
};

// Whether the micro-step changes what the views draw or list (a socket, a file count, an fd,
// a queue, an edge, a list, the walk's stacks): a statement made only of micro-steps that do
// not is no beat of its own.
bool changes_picture(const Event &e);

// The beats of a recorded run, in step order, one per step. `finding_steps`: the step of each
// finding (findings are kept by the kernel, not recorded as events), in any order; `era`: whose
// listing tells a collection's phases.
std::vector<Beat> find_beats(const RecordedEvents &events, GcEra era, std::vector<std::uint64_t> finding_steps);

// The step of each finding the run has made so far, in order.
std::vector<std::uint64_t> finding_steps(const Simulation &sim);

} // namespace inflight
