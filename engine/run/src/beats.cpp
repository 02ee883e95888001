// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/beats.hpp"

#include "inflight/algorithm_listing.hpp"
#include "inflight/kernel.hpp"
#include "inflight/simulation.hpp"

#include <algorithm>

namespace inflight {

std::string_view beat_kind_name(BeatKind kind)
{
    switch (kind) {
    case BeatKind::statement: return "statement";
    case BeatKind::statement_fails: return "statement fails";
    case BeatKind::note: return "note";
    case BeatKind::question: return "question";
    case BeatKind::answer: return "answer";
    case BeatKind::collection_begins: return "collection begins";
    case BeatKind::phase_begins: return "phase begins";
    case BeatKind::scc_verdict: return "scc verdict";
    case BeatKind::collection_ends: return "collection ends";
    case BeatKind::finding: return "finding";
    }
    return "?";
}

bool changes_picture(const Event &e)
{
    switch (e.kind) {
    // The script's own bookkeeping, checks that look without touching, locks, waits, time.
    case EventKind::stmt_begin:
    case EventKind::stmt_end:
    case EventKind::note:
    case EventKind::expect_result:
    case EventKind::warning:
    case EventKind::finding:
    case EventKind::gc_call:
    case EventKind::gc_wait:
    case EventKind::gc_skip:
    case EventKind::candidate_check:
    case EventKind::scan:
    case EventKind::fput_deferred:
    case EventKind::wait_end:
    case EventKind::lock_spin:
    case EventKind::task_exit:
    case EventKind::task_switch:
    case EventKind::autobind_probe:
    case EventKind::autobind_fail:
    case EventKind::splice_chunk:
    case EventKind::creds_ref:
    case EventKind::sched_point: return false;
    case EventKind::gc_queued: return !e.already_pending(); // gc_in_progress is set
    case EventKind::scc_index_update: return e.scc_index().before != e.scc_index().after;
    default: return true;
    }
}

namespace {

// The phase a collector's listing line belongs to (none: a line of no one phase, or none).
GcPhase phase_of_line(std::uint16_t line)
{
    if (!line)
        return GcPhase::none;
    switch (static_cast<AlgoLine>(line)) {
    case AlgoLine::classic_select_loop:
    case AlgoLine::classic_select_check:
    case AlgoLine::classic_select_move: return GcPhase::select;
    case AlgoLine::classic_dec_loop:
    case AlgoLine::classic_dec_scan:
    case AlgoLine::classic_dec_inflight: return GcPhase::decrement;
    case AlgoLine::classic_restore_loop:
    case AlgoLine::classic_restore_check:
    case AlgoLine::classic_restore_move:
    case AlgoLine::classic_restore_scan:
    case AlgoLine::classic_restore_inc:
    case AlgoLine::classic_restore_move_tail: return GcPhase::restore;
    case AlgoLine::classic_hitlist_loop:
    case AlgoLine::classic_hitlist_scan:
    case AlgoLine::classic_hitlist_inc:
    case AlgoLine::classic_hitlist_move: return GcPhase::hitlist;
    case AlgoLine::classic_purge:
    case AlgoLine::classic_oob_loop:
    case AlgoLine::graph_purge: return GcPhase::purge;
    case AlgoLine::graph_walk_loop:
    case AlgoLine::graph_enter:
    case AlgoLine::graph_edge_loop:
    case AlgoLine::graph_tree_edge:
    case AlgoLine::graph_backtrack:
    case AlgoLine::graph_back_edge:
    case AlgoLine::graph_root_check:
    case AlgoLine::graph_scc_cut:
    case AlgoLine::graph_unify:
    case AlgoLine::graph_vertex_dead:
    case AlgoLine::graph_collect:
    case AlgoLine::graph_cyclic:
    case AlgoLine::graph_swap_marks: return GcPhase::walk;
    case AlgoLine::graph_fast_loop:
    case AlgoLine::graph_fast_dead: return GcPhase::fast_walk;
    default: return GcPhase::none;
    }
}

// Phases follow each other in this order within a collection; a line of an earlier phase seen
// later (the restore of not_cycle_list after the hitlist, say) starts no new one.
int phase_rank(GcPhase p)
{
    switch (p) {
    case GcPhase::none: return 0;
    case GcPhase::select: return 1;
    case GcPhase::decrement: return 2;
    case GcPhase::restore: return 3;
    case GcPhase::hitlist:
    case GcPhase::walk:
    case GcPhase::fast_walk: return 4;
    case GcPhase::purge: return 5;
    }
    return 0;
}

// Two beats at one step are one: the one that says most.
int beat_rank(BeatKind k)
{
    switch (k) {
    case BeatKind::statement: return 0;
    case BeatKind::statement_fails: return 1;
    case BeatKind::phase_begins: return 2;
    case BeatKind::scc_verdict: return 3;
    case BeatKind::collection_ends: return 4;
    case BeatKind::collection_begins: return 5;
    case BeatKind::note:
    case BeatKind::question:
    case BeatKind::answer: return 6;
    case BeatKind::finding: return 7;
    }
    return 0;
}

BeatKind beat_of(SceneNote shows)
{
    switch (shows) {
    case SceneNote::note: break;
    case SceneNote::question: return BeatKind::question;
    case SceneNote::answer: return BeatKind::answer;
    }
    return BeatKind::note;
}

class BeatFinder {
public:
    explicit BeatFinder(std::vector<Beat> &out) : out_(out) { }
    void add(std::uint64_t step, BeatKind kind, std::uint32_t line, GcPhase phase = GcPhase::none)
    {
        changed_ = false;
        if (!out_.empty() && out_.back().step == step) {
            if (beat_rank(kind) > beat_rank(out_.back().kind))
                out_.back() = Beat{step, kind, phase, line};
            return;
        }
        out_.push_back(Beat{step, kind, phase, line});
    }
    void see_change(const Event &e) { changed_ = changed_ || changes_picture(e); }
    bool changed() const { return changed_; }

private:
    std::vector<Beat> &out_;
    bool changed_ = false;
};

// A loop's later rounds show the same things again. The beats fall into units: a statement, or
// a whole collection (its phases and verdicts, and whatever ran beside it). A unit whose kind and
// scene line had a unit since the last note, finding or failed statement repeats what the class
// has seen. A lesson's short loop is shown round by round (ten socketpairs, ten beats); of a
// loop of more than kRoundsShownWhole rounds a presenter shows a few and then its end, not each
// of its thousand rounds (4,096 sends that each wait for a collection): the first kRoundsShown
// rounds of repeats stay whole and the last unit's last beat stays. A round is as many units as
// the run repeats different ones. A collection is never cut inside.
constexpr std::size_t kRoundsShownWhole = 10;
constexpr std::size_t kRoundsShown = 2;

bool breaks_repeats(BeatKind k)
{
    return k == BeatKind::note || k == BeatKind::question || k == BeatKind::answer || k == BeatKind::finding ||
           k == BeatKind::statement_fails;
}

std::vector<Beat> without_long_repeats(const std::vector<Beat> &beats)
{
    struct Unit {
        std::size_t first = 0, end = 0; // beats[first, end)
        bool collection = false;
        std::uint32_t line = 0;
        bool breaks = false; // holds a note, a finding or a failed statement
    };
    std::vector<Unit> units;
    for (std::size_t i = 0; i < beats.size();) {
        Unit u{i, i + 1, beats[i].kind == BeatKind::collection_begins, beats[i].scene_line,
               breaks_repeats(beats[i].kind)};
        if (u.collection) {
            int open = 1;
            for (; u.end < beats.size() && open > 0; ++u.end) {
                open += beats[u.end].kind == BeatKind::collection_begins;
                open -= beats[u.end].kind == BeatKind::collection_ends;
                u.breaks = u.breaks || breaks_repeats(beats[u.end].kind);
            }
        }
        units.push_back(u);
        i = u.end;
    }
    // Which units repeat one before them.
    std::vector<bool> repeated(units.size(), false);
    std::vector<std::pair<bool, std::uint32_t>> seen; // units' (collection, line) since a break, sorted
    for (std::size_t k = 0; k < units.size(); ++k) {
        const Unit &u = units[k];
        if (u.breaks) {
            seen.clear();
            continue;
        }
        const std::pair key(u.collection, u.line);
        const auto at = std::lower_bound(seen.begin(), seen.end(), key);
        if (at != seen.end() && *at == key)
            repeated[k] = true;
        else
            seen.insert(at, key);
    }
    std::vector<Beat> kept;
    kept.reserve(beats.size());
    auto keep = [&](const Unit &u) {
        kept.insert(kept.end(), beats.begin() + static_cast<std::ptrdiff_t>(u.first),
                    beats.begin() + static_cast<std::ptrdiff_t>(u.end));
    };
    for (std::size_t k = 0; k < units.size();) {
        if (!repeated[k]) {
            keep(units[k++]);
            continue;
        }
        std::size_t end = k;
        std::vector<std::pair<bool, std::uint32_t>> round; // the run's different units
        for (; end < units.size() && repeated[end]; ++end) {
            const std::pair key(units[end].collection, units[end].line);
            if (std::find(round.begin(), round.end(), key) == round.end())
                round.push_back(key);
        }
        if (end - k <= kRoundsShownWhole * round.size()) {
            for (; k < end; ++k)
                keep(units[k]);
            continue;
        }
        for (std::size_t j = k; j < k + kRoundsShown * round.size(); ++j)
            keep(units[j]);
        kept.push_back(beats[units[end - 1].end - 1]);
        k = end;
    }
    return kept;
}

} // namespace

std::vector<Beat> find_beats(const RecordedEvents &events, GcEra era, std::vector<std::uint64_t> finding_steps)
{
    std::sort(finding_steps.begin(), finding_steps.end());
    auto finding = finding_steps.begin();
    std::vector<Beat> beats;
    BeatFinder found(beats);
    int collections_open = 0;
    int phase = 0; // the rank of the open collection's phase
    std::uint32_t line = 0;
    for (const Event &e : events) {
        line = e.scene_line;
        // A finding made at a step the index skipped (past its cap) is still a beat.
        for (; finding != finding_steps.end() && *finding < e.step; ++finding)
            found.add(*finding, BeatKind::finding, line);
        found.see_change(e);
        if (collections_open > 0) {
            const GcPhase p = phase_of_line(listing_line_of(e, era));
            if (phase_rank(p) > phase) {
                phase = phase_rank(p);
                found.add(e.step, BeatKind::phase_begins, line, p);
            }
        }
        switch (e.kind) {
        case EventKind::gc_begin:
            ++collections_open;
            phase = 0;
            found.add(e.step, BeatKind::collection_begins, line);
            break;
        case EventKind::gc_end:
            collections_open = std::max(0, collections_open - 1);
            found.add(e.step, BeatKind::collection_ends, line);
            break;
        case EventKind::scc_verdict: found.add(e.step, BeatKind::scc_verdict, line); break;
        case EventKind::note:
            if (e.fn == KFn::scene)
                found.add(e.step, beat_of(e.scene_note_shows()), line);
            break;
        case EventKind::stmt_end:
            if (e.error() != 0)
                found.add(e.step, BeatKind::statement_fails, line);
            else if (found.changed())
                found.add(e.step, BeatKind::statement, line);
            break;
        default: break;
        }
        if (finding != finding_steps.end() && *finding == e.step) {
            found.add(e.step, BeatKind::finding, line);
            while (finding != finding_steps.end() && *finding == e.step)
                ++finding;
        }
    }
    for (; finding != finding_steps.end(); ++finding)
        if (beats.empty() || beats.back().step < *finding)
            found.add(*finding, BeatKind::finding, line);
    return without_long_repeats(beats);
}

std::vector<std::uint64_t> finding_steps(const Simulation &sim)
{
    std::vector<std::uint64_t> steps;
    steps.reserve(sim.kernel().findings.size());
    for (const Finding &f : sim.kernel().findings)
        steps.push_back(f.step);
    return steps;
}

} // namespace inflight
