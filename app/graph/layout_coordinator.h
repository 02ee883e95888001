// SPDX-License-Identifier: GPL-3.0-or-later
// Which layouts the graph scene needs and when, computed in the background and installed:
//  * the plan: the whole run replayed (time-boxed) to collect every socket it will ever have
//    (run_graph.h), then laid out once. Until it arrives, layouts wait for it; afterwards new
//    sockets appear at their planned place. Too large or too slow a run has no plan: layouts
//    are then incremental;
//  * the layout of what is on screen, asked for by the scene when nodes appear or boxes grow.
// Each is a JobTracker lane on the background pool: a newer request makes the one running
// stale, and a stale plan or layout is never installed. The scene builds the requests (it
// knows the items and their boxes) and moves its items to a layout's positions.
#pragma once

#include "graph/graph_ids.h"
#include "graph/layout_request.h"
#include "graph/run_graph.h"
#include "jobs/job_tracker.h"

#include <QObject>
#include <QPointF>

#include <memory>
#include <unordered_map>
#include <vector>

class GraphScene;

class LayoutCoordinator : public QObject {
    Q_OBJECT
public:
    using Plan = std::unordered_map<graph::NodeKey, QPointF>; // node -> planned centre

    explicit LayoutCoordinator(GraphScene &scene);

    // Starts the plan of `scene`'s whole run, superseding any plan on its way.
    void planRun(std::shared_ptr<const inflight::Scene> scene, const inflight::SimulationOptions &options);
    // Lays out a collected run: the plan's second half.
    void planCollected(std::shared_ptr<const graph::RunGraph> run);
    bool hasPlan() const { return !plan_.empty(); }
    const graph::RunGraph *runGraph() const { return run_.get(); }
    // Off: always place new nodes incrementally (neato with survivors pinned).
    void setPlanEnabled(bool on) { plan_enabled_ = on; }

    // Asks for a layout of the scene's current nodes. Survivors stay pinned unless `full`;
    // full with a plan puts every node at its planned place, without one it is a fresh layout
    // of everything (dot or sfdp). While a plan is on its way the layout waits for it. Returns
    // the generation of the layout that will be installed.
    std::uint64_t requestLayout(bool full);
    // A fresh layout of what is on screen now, forgetting the plan (the "Tidy layout" button).
    void tidy();
    // New box sizes or pane shape: plan again (a plan's spacing is for the old boxes), then
    // lay everything out.
    void layOutAgain();
    // A new graph: the plan is forgotten and every plan or layout on its way is stale.
    void clear();

    bool pending() const { return layouts_.isRunning() || plans_.isRunning(); }
    std::uint64_t requestedGeneration() const { return layouts_.generation(); }
    std::uint64_t appliedGeneration() const { return applied_; }
    // Layouts that came back stale (superseded or cancelled) and were not installed.
    int staleResultsDropped() const { return stale_; }
    // Installs a layout; false (and nothing changes) unless it is the newest one requested.
    bool applyLayout(const graph::LayoutResult &result);
    // The last installed layout (engine, timings); nullptr before the first.
    const graph::LayoutResult *lastLayout() const { return last_layout_.get(); }

signals:
    void planReady(); // the plan arrived (or failed)

private:
    void startPlanLayout();
    void onPlanLaidOut(const graph::LayoutResult &result);
    void planFailed();
    bool planning() const { return plan_enabled_ && !plan_dropped_; }

    GraphScene &scene_;
    Plan plan_;
    std::vector<graph::NodeKey> plan_keys_;      // the nodes of the plan's layout, in order
    std::shared_ptr<const graph::RunGraph> run_; // kept to plan again when box sizes change
    bool plan_enabled_ = true, plan_dropped_ = false, layout_deferred_ = false;
    std::vector<graph::NodeKey> request_keys_; // the nodes of the newest layout request, in order
    std::uint64_t applied_ = 0;
    int stale_ = 0;
    std::shared_ptr<const graph::LayoutResult> last_layout_;
    // A plan is collected, then laid out: one lane, so a new plan supersedes either half.
    JobTracker plans_{this};
    JobTracker layouts_{this};
};
