// SPDX-License-Identifier: GPL-3.0-or-later
// A node of the graph (socket, process or aggregate): a box centred on the item's origin whose
// outline edges are clipped to, plus the selection highlight. Subclasses paint themselves.
#pragma once

#include "graph/graph_ids.h"
#include "graph/graph_item.h"

#include <QPainterPath>
#include <QPolygonF>
#include <QRectF>

class NodeItem : public GraphItem {
public:
    explicit NodeItem(graph::NodeKey key, QGraphicsItem *parent = nullptr);

    graph::NodeKey key() const { return key_; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    // The box in item coordinates, centred on (0, 0).
    QRectF box() const { return box_; }
    QRectF sceneBox() const { return mapRectToScene(box_); }
    // The drawn outline in item coordinates (default: the box).
    virtual QPainterPath outline() const;
    // Where the segment from the node's centre towards `sceneTarget` leaves the outline.
    QPointF boundaryPoint(const QPointF &sceneTarget) const;

    void setHighlighted(bool on);
    bool highlighted() const { return highlighted_; }
    // Changed by the last move (a beat, a step): a bold ring the eye goes to, gone at the next.
    // Black on a white halo, so it reads on every fill and to every eye.
    void setChanged(bool on);
    bool changed() const { return changed_; }

    // Layout bookkeeping: where the last applied layout wants the node.
    QPointF target() const { return target_; }
    void setTarget(const QPointF &p) { target_ = p; }

protected:
    void setBoxSize(const QSizeF &size); // keeps the centre; invalidates the outline cache
    void drawHighlight(QPainter *painter) const;
    static constexpr double kMargin = 8; // room for the highlight ring around the box

private:
    graph::NodeKey key_;
    QRectF box_;
    QPointF target_;
    bool highlighted_ = false;
    bool changed_ = false;
    mutable QPolygonF outline_polygon_;
};
