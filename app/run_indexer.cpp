// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_indexer.h"

#include "inflight/beats.hpp"
#include "inflight/kernel_queries.hpp"
#include "inflight/player.hpp"
#include "inflight/report.hpp"
#include "inflight/run_budget.hpp"
#include "inflight/simulation.hpp"

#include <QCoreApplication>

using namespace inflight;

namespace {

// The indexer's own copy of the run: every event up to the cap, the landmarks the timeline and
// the event log need past it, within a memory budget.
class IndexRecorder {
public:
    IndexRecorder(std::size_t cap, std::size_t memory_bytes) : cap_(cap), memory_bytes_(memory_bytes) { }

    // False once the events kept take the whole memory budget.
    bool operator()(const Event &e)
    {
        if (events_.size() < cap_) {
            events_.push_back(e);
        } else {
            complete_ = false;
            keepLandmark(e);
        }
        // RecordedEvents::bytes() walks no events, but is not free: asked every 4096 events.
        return (++seen_ & 4095) != 0 || events_.bytes() < memory_bytes_;
    }

    // What was kept; the recorder is done with then.
    RecordedEvents takeEvents() { return std::move(events_); }
    // Whether every event was kept (no cap reached).
    bool complete() const { return complete_; }

private:
    void keepLandmark(const Event &e)
    {
        // A statement's end only when it failed (a warning tick) or ends a wait marker.
        if (e.kind == EventKind::gc_wait || e.kind == EventKind::wait_end) {
            if (waiting_.size() <= e.task)
                waiting_.resize(e.task + 1u, false);
            waiting_[e.task] = e.kind == EventKind::gc_wait;
        }
        if (e.kind == EventKind::stmt_end) {
            const bool ends_wait = e.task < waiting_.size() && waiting_[e.task];
            if (e.before != 0 || ends_wait)
                events_.push_back(e);
            if (ends_wait)
                waiting_[e.task] = false;
            return;
        }
        switch (e.kind) {
        case EventKind::stmt_begin:
        case EventKind::gc_begin:
        case EventKind::gc_end:
        case EventKind::finding:
        case EventKind::warning:
        case EventKind::gc_wait: // the timeline's wait markers
        case EventKind::wait_end: events_.push_back(e); break;
        default: break;
        }
    }

    RecordedEvents events_;
    bool complete_ = true;
    std::size_t cap_;
    std::size_t memory_bytes_;
    std::uint64_t seen_ = 0;
    std::vector<bool> waiting_; // by task: a gc_wait whose end the timeline still needs
};

// "the index reached its memory budget of 512 MiB at micro-step N (line 2)": which budget ended
// the index, and where.
QString index_budget_message(const Simulation &sim, RecordEnd end, const IndexLimits &limits)
{
    const QString where = QCoreApplication::translate("PlayerController", " at micro-step %1, after %2 statements")
                              .arg(QString::fromStdString(group_digits(sim.steps())),
                                   QString::fromStdString(group_digits(sim.statements_executed())));
    switch (end) {
    case RecordEnd::caller:
        return QCoreApplication::translate(
                   "PlayerController", "the index reached its memory budget of %1 MiB%2: the run is shown up to there")
            .arg(limits.memory_bytes >> 20)
            .arg(where);
    case RecordEnd::time:
        return QCoreApplication::translate("PlayerController",
                                           "the index reached its time budget of %1 s%2: the run is shown up to there")
            .arg(std::chrono::duration_cast<std::chrono::seconds>(limits.time).count())
            .arg(where);
    case RecordEnd::finished:
        if (auto limit = sim.limit_reached())
            return QString::fromStdString(limit->format());
        return {};
    case RecordEnd::cancelled: break;
    }
    return {};
}

} // namespace

std::shared_ptr<SessionIndex> index_run(const RunSession &session, std::size_t cap, const IndexLimits &limits,
                                        const std::atomic<bool> &cancel,
                                        const std::function<void(quint64, quint64)> &progress)
{
    SimulationOptions o = session.options;
    o.record = false;
    auto sim = std::make_unique<Simulation>(session.scene, o);
    IndexRecorder recorder(cap, limits.memory_bytes);
    std::uint64_t next_report = 1u << 20;
    const RecordEnd end = record_run(
        *sim, *session.checkpoints,
        [&](const Event &e) {
            if (e.step >= next_report) {
                next_report += 1u << 20;
                progress(e.step, sim->statements_executed());
            }
            return recorder(e);
        },
        cancel, RecordLimits{limits.time});
    if (end == RecordEnd::cancelled)
        return nullptr;
    auto index = std::make_shared<SessionIndex>();
    index->stopped_by = index_budget_message(*sim, end, limits);
    index->events = recorder.takeEvents();
    index->events.shrink_to_fit();
    index->complete = recorder.complete();
    index->total_steps = sim->steps();
    // The views' marks, found here: walks over every packed event, which the GUI thread
    // would otherwise spend as the index landed.
    index->landmarks = std::make_shared<const RunLandmarks>(run_landmarks(
        index->events, index->total_steps, session.options.era.value_or(session.scene->settings.gc), *session.scene));
    // Navigation (notes, statements, collections, the lesson's beats) as binary searches.
    index->navigation = std::make_shared<const RunIndex>(
        index->events, session.options.era.value_or(session.scene->settings.gc), finding_steps(*sim));
    // The latency panel's samples, and the task and user names its groups are called by.
    index->latency = std::make_shared<const latency::LatencyRun>(
        latency::LatencyRun{sim->take_latencies(), sim->tasks(), user_names(sim->kernel())});
    // Of the finished run, only what names its objects (the state goes, here, off the
    // GUI thread): it stays as endOfRun().
    index->finished = std::make_shared<const FinishedRun>(FinishedRun::of(*sim));
    index->ready = true;
    return index;
}
