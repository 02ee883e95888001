// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/role_mark.h"

#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPainterPathStroker>

QPen unreachableOutline(const QColor &border)
{
    QPen pen(border, 3.0, Qt::CustomDashLine, Qt::FlatCap);
    pen.setDashPattern({2.5, 1.5});
    return pen;
}

bool hasRoleMark(inflight::GcRole role)
{
    return role == inflight::GcRole::garbage || role == inflight::GcRole::leaked;
}

void drawRoleMark(QPainter &painter, const QPainterPath &shape, inflight::GcRole role, const QColor &ink,
                  double spacing)
{
    if (!hasRoleMark(role) || spacing <= 0)
        return;
    QColor line = ink;
    line.setAlphaF(0.35);
    const QRectF r = shape.boundingRect();
    // Lines at 45°, drawn across the whole box: from each point of the bottom-left to top-right
    // diagonal band. A leak adds the other direction.
    QPainterPath hatch;
    const int lines = static_cast<int>((r.width() + r.height()) / spacing);
    for (int i = 0; i <= lines; ++i) {
        const double d = i * spacing;
        hatch.moveTo(r.left() + d - r.height(), r.bottom());
        hatch.lineTo(r.left() + d, r.top());
        if (role == inflight::GcRole::leaked) {
            hatch.moveTo(r.left() + d - r.height(), r.top());
            hatch.lineTo(r.left() + d, r.bottom());
        }
    }
    painter.save();
    if (painter.paintEngine() && painter.paintEngine()->type() == QPaintEngine::SVG) {
        // An SVG keeps no clip: the lines are cut to the shape as geometry, or they would
        // stick out of every dead box of an exported picture.
        QPainterPathStroker stroke;
        stroke.setWidth(spacing / 4);
        stroke.setCapStyle(Qt::FlatCap);
        painter.fillPath(stroke.createStroke(hatch).intersected(shape), line);
    } else {
        painter.setClipPath(shape, Qt::IntersectClip);
        painter.setPen(QPen(line, spacing / 4, Qt::SolidLine, Qt::FlatCap));
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(hatch);
    }
    painter.restore();
}
