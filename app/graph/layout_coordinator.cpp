// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/layout_coordinator.h"

#include "graph/graph_scene.h"
#include "graph/graphviz_layout.h"

namespace {

// A layout, on the pool. A job already stale when it gets a thread is not computed: only its
// generation goes back, to be dropped.
graph::LayoutResult layOut(const graph::LayoutRequest &request, const JobControl &control)
{
    graph::LayoutResult result;
    if (!control.cancelled())
        result = graph::computeLayout(request);
    result.generation = control.generation();
    return result;
}

} // namespace

LayoutCoordinator::LayoutCoordinator(GraphScene &scene) : scene_(scene) { }

void LayoutCoordinator::planRun(std::shared_ptr<const inflight::Scene> scene,
                                const inflight::SimulationOptions &options)
{
    if (!planning() || !scene)
        return;
    plans_.start(
        [scene = std::move(scene), options](const JobControl &control) {
            std::shared_ptr<const graph::RunGraph> run;
            if (auto collected = graph::collectRunGraph(scene, options, {}, &control.cancelFlag()))
                run = std::make_shared<const graph::RunGraph>(std::move(*collected));
            return run;
        },
        [this](std::shared_ptr<const graph::RunGraph> run) {
            if (!run || !planning()) {
                planFailed(); // too large or too long to replay: lay out incrementally
                return;
            }
            planCollected(std::move(run));
        });
}

void LayoutCoordinator::planCollected(std::shared_ptr<const graph::RunGraph> run)
{
    if (!planning() || !run)
        return;
    run_ = std::move(run);
    startPlanLayout();
}

void LayoutCoordinator::startPlanLayout()
{
    graph::LayoutRequest request = scene_.planRequest(*run_);
    plan_keys_.clear();
    plan_keys_.reserve(request.nodes.size());
    for (const graph::LayoutNode &n : request.nodes)
        plan_keys_.push_back(n.key);
    plans_.start([request = std::move(request)](const JobControl &control) { return layOut(request, control); },
                 [this](const graph::LayoutResult &result) { onPlanLaidOut(result); },
                 [](const graph::LayoutResult &) {});
}

void LayoutCoordinator::onPlanLaidOut(const graph::LayoutResult &result)
{
    if (!result.ok) {
        planFailed();
        return;
    }
    if (result.positions.size() == plan_keys_.size())
        for (std::size_t i = 0; i < plan_keys_.size(); ++i)
            plan_[plan_keys_[i]] = QPointF(result.positions[i].x, result.positions[i].y);
    // Adopt it: everything goes to its planned place.
    if (layout_deferred_ || scene_.hasPlacedNodes()) {
        layout_deferred_ = false;
        requestLayout(true);
    }
    emit planReady();
}

void LayoutCoordinator::planFailed()
{
    if (layout_deferred_) {
        layout_deferred_ = false;
        requestLayout(!scene_.hasPlacedNodes());
    }
    emit planReady();
}

void LayoutCoordinator::tidy()
{
    plan_.clear();
    plan_dropped_ = true;
    plans_.cancel();
    requestLayout(true);
}

void LayoutCoordinator::layOutAgain()
{
    if (run_ && planning()) {
        plan_.clear();
        startPlanLayout();
    }
    if (scene_.socketItemCount() > 0 || scene_.processItemCount() > 0)
        requestLayout(true);
}

void LayoutCoordinator::clear()
{
    layouts_.cancel();
    plans_.cancel();
    request_keys_.clear();
    plan_.clear();
    plan_keys_.clear();
    run_.reset();
    plan_dropped_ = layout_deferred_ = false;
}

std::uint64_t LayoutCoordinator::requestLayout(bool full)
{
    if (plans_.isRunning()) {
        // The plan will place these nodes; ask once it is here.
        layout_deferred_ = true;
        return layouts_.generation();
    }
    const bool use_plan = plan_enabled_ && !plan_.empty();
    graph::LayoutRequest request = scene_.layoutRequest(full, use_plan ? &plan_ : nullptr);
    request_keys_.clear();
    request_keys_.reserve(request.nodes.size());
    for (const graph::LayoutNode &n : request.nodes)
        request_keys_.push_back(n.key);
    layouts_.start([request = std::move(request)](const JobControl &control) { return layOut(request, control); },
                   [this](const graph::LayoutResult &result) { applyLayout(result); },
                   [this](const graph::LayoutResult &) { ++stale_; });
    return layouts_.generation();
}

bool LayoutCoordinator::applyLayout(const graph::LayoutResult &result)
{
    if (!layouts_.isCurrent(result.generation) || result.positions.size() != request_keys_.size()) {
        ++stale_;
        return false;
    }
    applied_ = result.generation;
    last_layout_ = std::make_shared<const graph::LayoutResult>(result);
    scene_.place(request_keys_, result);
    return true;
}
