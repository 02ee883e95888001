// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/layout_engine.h"

#include "background_job.h"
#include "graph/graphviz_layout.h"

#include <QMetaObject>

LayoutEngine::LayoutEngine(QObject *parent) : QObject(parent)
{
    worker_ = std::thread([this] { run(); });
}

LayoutEngine::~LayoutEngine()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
        pending_.reset();
        pending_plan_.reset();
        if (pending_run_ && pending_run_->cancel)
            pending_run_->cancel->store(true);
        pending_run_.reset();
    }
    wake_.notify_one();
    worker_.join();
}

void LayoutEngine::submit(graph::LayoutRequest request)
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (pending_)
            ++superseded_;
        pending_ = std::move(request);
    }
    wake_.notify_one();
}

void LayoutEngine::submitPlan(graph::LayoutRequest request)
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (pending_plan_)
            ++superseded_;
        pending_plan_ = std::move(request);
    }
    wake_.notify_one();
}

void LayoutEngine::collectRun(RunJob job)
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (pending_run_)
            ++superseded_;
        pending_run_ = std::move(job);
    }
    wake_.notify_one();
}

void LayoutEngine::run()
{
    background::lowerThisThread(); // the window never waits on a layout: it draws the last one
    for (;;) {
        graph::LayoutRequest request;
        std::optional<RunJob> run_job;
        bool plan = false;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [this] { return stop_ || pending_ || pending_plan_ || pending_run_; });
            if (stop_)
                return;
            busy_ = true;
            if (pending_run_) {
                run_job = std::move(pending_run_);
                pending_run_.reset();
            } else {
                plan = pending_plan_.has_value();
                auto &slot = plan ? pending_plan_ : pending_;
                request = std::move(*slot);
                slot.reset();
            }
        }
        if (run_job) {
            std::shared_ptr<const graph::RunGraph> collected;
            if (auto r =
                    graph::collectRunGraph(run_job->scene, run_job->options, run_job->limits, run_job->cancel.get()))
                collected = std::make_shared<const graph::RunGraph>(std::move(*r));
            run_job->scene.reset(); // the scene copy dies here, not on the GUI thread
            busy_ = false;
            const quint64 generation = run_job->generation;
            QMetaObject::invokeMethod(
                this, [this, generation, collected] { emit runCollected(generation, collected); },
                Qt::QueuedConnection);
            continue;
        }
        auto result = std::make_shared<const graph::LayoutResult>(graph::computeLayout(request));
        busy_ = false;
        // Delivered on this object's (the GUI) thread; dropped by Qt if the engine is gone.
        if (plan)
            QMetaObject::invokeMethod(
                this, [this, result] { emit planFinished(result); }, Qt::QueuedConnection);
        else
            QMetaObject::invokeMethod(
                this, [this, result] { emit finished(result); }, Qt::QueuedConnection);
    }
}
