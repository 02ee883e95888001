// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/run_landmarks.hpp"

#include "inflight/algorithm_listing.hpp"

#include <algorithm>
#include <map>

namespace inflight {

namespace {

void note_lines(const std::vector<Statement> &list, std::vector<std::uint32_t> &out)
{
    for (const Statement &s : list) {
        if (s.op == Op::note || s.ask) // an ask's question is part of the lesson's outline
            out.push_back(s.loc.line);
        note_lines(s.body, out);
    }
}

// Collections pair gc_begin with gc_end by run number. A wait starts at a task's gc_wait and
// ends when it wakes (wait_end for the collector) - or, when the waiter ran the queued
// collection itself (one task: flush_work() runs it inline, no wait_end), at that collection's
// gc_end; at the end of its statement at the latest.
class SpanFinder {
public:
    SpanFinder(std::uint64_t total, std::vector<RunSpan> &collections, std::vector<RunSpan> &waits)
        : total_(total), collections_(collections), waits_(waits)
    { }
    void see(const Event &e)
    {
        switch (e.kind) {
        case EventKind::gc_begin:
            open_runs_[e.a] = collections_.size();
            collections_.push_back({e.step, total_, static_cast<int>(e.task)});
            break;
        case EventKind::gc_end:
            if (auto it = open_runs_.find(e.a); it != open_runs_.end()) {
                collections_[it->second].last = e.step;
                open_runs_.erase(it);
            }
            for (const auto &[task, i] : open_waits_)
                if (waits_[i].last == total_)
                    waits_[i].last = e.step; // provisional: a later wait_end extends it
            break;
        case EventKind::gc_wait:
            open_waits_[static_cast<int>(e.task)] = waits_.size();
            waits_.push_back({e.step, total_, static_cast<int>(e.task)});
            break;
        case EventKind::wait_end:
        case EventKind::stmt_end:
            // The task's wake-up from this wait, or the end of its statement at the latest.
            if (auto it = open_waits_.find(static_cast<int>(e.task)); it != open_waits_.end()) {
                RunSpan &m = waits_[it->second];
                const bool woke = e.kind == EventKind::wait_end && e.after == static_cast<std::int64_t>(WaitFor::gc);
                if (woke || m.last == total_)
                    m.last = e.step;
                open_waits_.erase(it);
            }
            break;
        default: break;
        }
    }

private:
    std::uint64_t total_;
    std::vector<RunSpan> &collections_, &waits_;
    std::map<std::uint32_t, std::size_t> open_runs_;
    std::map<int, std::size_t> open_waits_;
};

} // namespace

void run_spans(const RecordedEvents &events, std::uint64_t total, std::vector<RunSpan> &collections,
               std::vector<RunSpan> &waits)
{
    SpanFinder spans(total, collections, waits);
    for (const Event &e : events)
        spans.see(e);
}

RunLandmarks run_landmarks(const RecordedEvents &events, std::uint64_t total, GcEra era, const Scene &scene)
{
    RunLandmarks m;
    std::vector<std::uint32_t> notes;
    note_lines(scene.statements, notes);
    std::sort(notes.begin(), notes.end());
    SpanFinder spans(total, m.collections, m.waits);
    std::size_t row = 0;
    for (const Event &e : events) {
        spans.see(e);
        if (e.kind == EventKind::gc_begin) {
            m.gc_steps.push_back(e.step);
            m.gc_begin_rows.push_back(row);
        } else if ((e.kind == EventKind::stmt_end && e.before != 0) || e.kind == EventKind::finding) {
            m.warning_steps.push_back(e.step);
        } else if (e.kind == EventKind::expect_result) {
            m.expectation_steps.push_back(e.step);
        } else if (e.kind == EventKind::stmt_begin && std::binary_search(notes.begin(), notes.end(), e.scene_line)) {
            m.note_steps.emplace_back(e.step, e.scene_line);
        }
        if (const std::uint16_t line = listing_line_of(e, era))
            m.listing_lines.emplace_back(e.step, line);
        ++row;
    }
    return m;
}

} // namespace inflight
