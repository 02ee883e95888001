// SPDX-License-Identifier: GPL-3.0-or-later
// The one Graphviz worker: a dedicated thread with three one-slot job queues, taken in this
// order - replaying a scene to collect its RunGraph (collectRun), laying out that whole run
// (submitPlan), and the layout of what is on screen (submit). Nothing blocks the caller; a job
// still waiting when a newer one of its kind arrives is dropped unrun (superseded). Results
// come back on the GUI thread through queued signals; the receiver compares generations and
// ignores stale results.
#pragma once

#include "graph/layout_request.h"
#include "graph/run_graph.h"

#include <QObject>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

class LayoutEngine : public QObject {
    Q_OBJECT
public:
    explicit LayoutEngine(QObject *parent = nullptr);
    ~LayoutEngine() override; // waits for a layout in progress to finish

    void submit(graph::LayoutRequest request);
    void submitPlan(graph::LayoutRequest request);
    struct RunJob {
        std::uint64_t generation = 0;
        std::shared_ptr<const inflight::Scene> scene;
        inflight::SimulationOptions options;
        graph::RunGraphLimits limits;
        std::shared_ptr<std::atomic<bool>> cancel;
    };
    void collectRun(RunJob job);
    // Requests dropped before they ran because a newer one arrived.
    int supersededCount() const { return superseded_.load(); }
    bool busy() const { return busy_.load(); }

signals:
    void finished(std::shared_ptr<const graph::LayoutResult> result);
    void planFinished(std::shared_ptr<const graph::LayoutResult> result);
    // run is null when the scene was too large or slow to replay (or the job was cancelled).
    void runCollected(quint64 generation, std::shared_ptr<const graph::RunGraph> run);

private:
    void run();

    std::mutex mutex_;
    std::condition_variable wake_;
    std::optional<graph::LayoutRequest> pending_, pending_plan_;
    std::optional<RunJob> pending_run_;
    bool stop_ = false;
    std::atomic<int> superseded_{0};
    std::atomic<bool> busy_{false};
    std::thread worker_;
};
