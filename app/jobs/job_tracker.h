// SPDX-License-Identifier: GPL-3.0-or-later
// One lane of background work whose result the GUI thread installs: at most one job of a lane
// is current, starting another makes the one before stale, and a stale job's result never
// reaches the code that would install it.
//
// Why one mechanism: a result computed for an older request (a seek superseded by a newer one,
// an index of a run that was since replaced, a parse of text since edited) must be dropped,
// and each hand-written way of deciding that was a place to get it wrong. Here a job is stale
// exactly when the tracker started a newer one or was cancelled since; the job's cancel flag
// (the engine's `const std::atomic<bool> &`) is set at that moment, so the engine gives up at
// its next statement end. Every job runs on background::pool().
//
// A stale result still comes back, to the `stale` handler: it may own something the GUI thread
// wants back (the Player a superseded seek took) or something large that must not be freed
// between two frames (the default: freed on the pool).
#pragma once

#include "background_job.h"

#include <QMetaObject>
#include <QObject>
#include <QPointer>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

// What a running job sees of its tracker.
class JobControl {
public:
    // Set once the job is stale: what the engine's loops poll.
    const std::atomic<bool> &cancelFlag() const { return *flag_; }
    bool cancelled() const { return flag_->load(std::memory_order_relaxed); }
    // The job's generation: what JobTracker::isCurrent() is asked about it.
    std::uint64_t generation() const { return generation_; }
    // Runs `report` on the tracker's thread if the job is still current then (progress reports).
    template <class Report>
    void post(Report report) const;

private:
    friend class JobTracker;
    JobControl(std::shared_ptr<std::atomic<bool>> flag, QPointer<QObject> context, class JobTracker *tracker,
               std::uint64_t generation)
        : flag_(std::move(flag)), context_(std::move(context)), tracker_(tracker), generation_(generation)
    { }
    std::shared_ptr<std::atomic<bool>> flag_;
    QPointer<QObject> context_;
    JobTracker *tracker_;
    std::uint64_t generation_;
};

class JobTracker {
public:
    // Results are delivered on `context`'s thread, and only while it lives: the tracker must be
    // owned by `context` (a member of it), so a delivery that finds the context finds the
    // tracker.
    explicit JobTracker(QObject *context) : context_(context) { }
    ~JobTracker() { cancel(); }
    JobTracker(const JobTracker &) = delete;
    JobTracker &operator=(const JobTracker &) = delete;

    // From start() until the current job's result is delivered (or cancel()).
    bool isRunning() const { return running_; }
    // Whether the job started as `generation` is the current one.
    bool isCurrent(std::uint64_t generation) const { return generation == generation_; }
    // The current generation: the newest job's, or one past it after cancel(). It only grows,
    // so a result that carries its job's generation can be ordered against another's.
    std::uint64_t generation() const { return generation_; }

    // Every job started so far becomes stale, and its cancel flag is set.
    void cancel()
    {
        ++generation_;
        running_ = false;
        if (flag_)
            flag_->store(true);
        flag_.reset();
    }

    // Runs job(const JobControl &) on the pool, after making the job before stale. Its result
    // goes to done(result) on the context's thread if the job is current then, else to
    // stale(result).
    template <class Job, class Done, class Stale>
    void start(Job job, Done done, Stale stale);
    template <class Job, class Done>
    void start(Job job, Done done)
    {
        start(std::move(job), std::move(done), [](auto result) {
            // Freed on the pool: a stale result may be a run of hundreds of MB.
            auto last = std::make_shared<decltype(result)>(std::move(result));
            background::start([last = std::move(last)]() mutable { last.reset(); });
        });
    }

private:
    QPointer<QObject> context_;
    std::shared_ptr<std::atomic<bool>> flag_;
    std::uint64_t generation_ = 0;
    bool running_ = false;
};

template <class Report>
void JobControl::post(Report report) const
{
    if (cancelled())
        return;
    background::handOver([&] {
        QMetaObject::invokeMethod(
            context_.data(),
            [tracker = tracker_, context = context_, generation = generation_, report = std::move(report)]() mutable {
                background::takeHandOff();
                if (context && tracker->isCurrent(generation))
                    report();
            },
            Qt::QueuedConnection);
    });
}

template <class Job, class Done, class Stale>
void JobTracker::start(Job job, Done done, Stale stale)
{
    using Result = std::invoke_result_t<Job &, const JobControl &>;
    static_assert(!std::is_void_v<Result>, "a job returns what it made");
    cancel();
    running_ = true;
    const std::uint64_t generation = generation_;
    flag_ = std::make_shared<std::atomic<bool>>(false);
    // Shared, so that the callables stay copyable (QRunnable's std::function) while the job and
    // its result may be move-only (a Player).
    auto work = std::make_shared<Job>(std::move(job));
    auto deliver = std::make_shared<std::pair<Done, Stale>>(std::move(done), std::move(stale));
    background::start([control = JobControl(flag_, context_, this, generation), work, deliver]() mutable {
        auto result = std::make_shared<std::optional<Result>>((*work)(control));
        work.reset(); // what the job captured goes here, off the GUI thread
        background::handOver([&] {
            QMetaObject::invokeMethod(
                control.context_.data(),
                [tracker = control.tracker_, context = control.context_, generation = control.generation_, result,
                 deliver]() mutable {
                    background::takeHandOff();
                    if (!context)
                        return;
                    if (tracker->isCurrent(generation)) {
                        tracker->running_ = false;
                        deliver->first(std::move(**result));
                    } else {
                        deliver->second(std::move(**result));
                    }
                },
                Qt::QueuedConnection);
        });
    });
}
