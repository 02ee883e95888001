// SPDX-License-Identifier: GPL-3.0-or-later
// Keeps the graph's viewport across a live re-run of the edited scene: the zoom, the centre and
// whether the view follows the graph, as the user left them. A re-run otherwise starts the graph
// afresh (cleared, re-laid out, fitted), which would throw away a zoom on the part being worked on.
#pragma once

#include <QObject>
#include <QPointF>
#include <QTransform>

class GraphView;
class PlayerController;

namespace editor {

class GraphViewportKeeper : public QObject {
    Q_OBJECT
public:
    // Connect after the graph panel: its own sceneLoaded() handler runs first and starts afresh.
    GraphViewportKeeper(PlayerController &controller, GraphView &view, QObject *parent = nullptr);

private:
    void save();
    void restore();

    PlayerController &controller_;
    GraphView &view_;
    bool saved_ = false;
    bool follows_ = true;
    QTransform transform_;
    QPointF centre_;
    bool until_layout_ = false; // the re-run's first layout may move the scene under the view
};

} // namespace editor
