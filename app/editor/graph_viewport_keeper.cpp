// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph_viewport_keeper.h"

#include "../graph/graph_scene.h"
#include "../graph/graph_view.h"
#include "../player_controller.h"

namespace editor {

GraphViewportKeeper::GraphViewportKeeper(PlayerController &controller, GraphView &view, QObject *parent)
    : QObject(parent), controller_(controller), view_(view)
{
    connect(&controller_, &PlayerController::aboutToRerun, this, &GraphViewportKeeper::save);
    connect(&controller_, &PlayerController::sceneLoaded, this, [this] {
        if (!controller_.isRerun()) {
            saved_ = false; // another scene: its own fit
            until_layout_ = false;
            return;
        }
        restore();
        until_layout_ = true;
    });
    connect(view_.graphScene(), &GraphScene::layoutApplied, this, [this] {
        if (!until_layout_)
            return;
        until_layout_ = false;
        restore();
    });
}

void GraphViewportKeeper::save()
{
    if (until_layout_ && saved_) // re-run again before the last one's layout: keep what was restored
        return;
    saved_ = true;
    follows_ = view_.followsGraph();
    transform_ = view_.transform();
    centre_ = view_.mapToScene(view_.viewport()->rect().center());
}

void GraphViewportKeeper::restore()
{
    // Following the graph, the re-run's layout fits it as before: nothing to put back.
    if (!saved_ || follows_)
        return;
    view_.setFollowsGraph(false);
    view_.setTransform(transform_);
    view_.centerOn(centre_);
}

} // namespace editor
