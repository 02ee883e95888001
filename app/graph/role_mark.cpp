// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/role_mark.h"

#include <QPainter>
#include <QPainterPath>

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
    painter.save();
    painter.setClipPath(shape, Qt::IntersectClip);
    QColor line = ink;
    line.setAlphaF(0.35);
    painter.setPen(QPen(line, spacing / 4, Qt::SolidLine, Qt::FlatCap));
    const QRectF r = shape.boundingRect();
    // Lines at 45°, drawn across the whole box: from each point of the bottom-left to top-right
    // diagonal band. A leak adds the other direction.
    const int lines = static_cast<int>((r.width() + r.height()) / spacing);
    for (int i = 0; i <= lines; ++i) {
        const double d = i * spacing;
        painter.drawLine(QPointF(r.left() + d - r.height(), r.bottom()), QPointF(r.left() + d, r.top()));
        if (role == inflight::GcRole::leaked)
            painter.drawLine(QPointF(r.left() + d - r.height(), r.top()), QPointF(r.left() + d, r.bottom()));
    }
    painter.restore();
}
