// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/node_item.h"

#include "theme.h"

#include <QPainter>

#include <cmath>

NodeItem::NodeItem(graph::NodeKey key, QGraphicsItem *parent) : GraphItem(parent), key_(key)
{
    setAcceptHoverEvents(false);
}

QRectF NodeItem::boundingRect() const { return box_.adjusted(-kMargin, -kMargin, kMargin, kMargin); }

QPainterPath NodeItem::shape() const
{
    QPainterPath p;
    p.addRect(box_);
    return p;
}

QPainterPath NodeItem::outline() const
{
    QPainterPath p;
    p.addRect(box_);
    return p;
}

void NodeItem::setBoxSize(const QSizeF &size)
{
    const QRectF box(-size.width() / 2, -size.height() / 2, size.width(), size.height());
    if (box == box_)
        return;
    prepareGeometryChange();
    box_ = box;
    outline_polygon_.clear();
}

QPointF NodeItem::boundaryPoint(const QPointF &sceneTarget) const
{
    if (outline_polygon_.isEmpty())
        outline_polygon_ = outline().toFillPolygon();
    const QPointF t = mapFromScene(sceneTarget);
    const double len = std::hypot(t.x(), t.y());
    if (len < 1e-6)
        return mapToScene(QPointF(0, 0));
    // A ray from the centre: the nearest crossing with an outline segment (the outline is
    // convex or nearly so, so there is one).
    const QPointF d(t.x() / len, t.y() / len);
    double best = -1;
    const int n = static_cast<int>(outline_polygon_.size());
    for (int i = 0; i < n; ++i) {
        const QPointF a = outline_polygon_[i], b = outline_polygon_[(i + 1) % n];
        const QPointF e = b - a;
        const double den = d.x() * e.y() - d.y() * e.x();
        if (std::abs(den) < 1e-12)
            continue;
        const double s = (a.x() * e.y() - a.y() * e.x()) / den; // distance along the ray
        const double u = (a.x() * d.y() - a.y() * d.x()) / den; // position along the segment
        if (s > 0 && u >= -1e-9 && u <= 1 + 1e-9 && (best < 0 || s < best))
            best = s;
    }
    if (best < 0)
        return mapToScene(QPointF(0, 0));
    return mapToScene(d * best);
}

void NodeItem::setHighlighted(bool on)
{
    if (on == highlighted_)
        return;
    highlighted_ = on;
    update();
}

void NodeItem::setChanged(bool on)
{
    if (on == changed_)
        return;
    changed_ = on;
    update();
}

void NodeItem::drawHighlight(QPainter *painter) const
{
    if (changed_) {
        painter->setBrush(Qt::NoBrush);
        painter->setPen(QPen(Qt::white, 7));
        painter->drawRoundedRect(box_.adjusted(-4.5, -4.5, 4.5, 4.5), 9, 9);
        painter->setPen(QPen(Qt::black, 3));
        painter->drawRoundedRect(box_.adjusted(-4.5, -4.5, 4.5, 4.5), 9, 9);
    }
    if (!highlighted_)
        return;
    QColor c = Theme::instance().selectionColor();
    painter->setBrush(Qt::NoBrush);
    c.setAlpha(90);
    painter->setPen(QPen(c, 9));
    painter->drawRoundedRect(box_.adjusted(-3, -3, 3, 3), 9, 9);
    painter->setPen(QPen(Theme::instance().selectionColor(), 3.5));
    painter->drawRoundedRect(box_.adjusted(-3, -3, 3, 3), 9, 9);
}
