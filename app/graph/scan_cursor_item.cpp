// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/scan_cursor_item.h"

#include "graph/graph_style.h"
#include "graph/socket_item.h"
#include "theme.h"

#include <QPainter>

ScanCursorItem::ScanCursorItem(SocketItem *socket) : GraphItem(socket), socket_(socket)
{
    setZValue(4);
    setAcceptedMouseButtons(Qt::NoButton);
}

QPolygonF ScanCursorItem::arrow() const
{
    // As tall as the box's name, pointing at its left edge from outside.
    const QRectF b = socket_->box();
    const double h = std::max(10.0, graphStyle().labelMetrics.height() * 0.9), w = h * 1.1;
    const double y = b.center().y(), tip = b.left() - 3;
    return QPolygonF() << QPointF(tip, y) << QPointF(tip - w * 0.55, y - h / 2) << QPointF(tip - w * 0.55, y - h / 5)
                       << QPointF(tip - w, y - h / 5) << QPointF(tip - w, y + h / 5)
                       << QPointF(tip - w * 0.55, y + h / 5) << QPointF(tip - w * 0.55, y + h / 2);
}

QRectF ScanCursorItem::boundingRect() const { return arrow().boundingRect().adjusted(-2, -2, 2, 2); }

void ScanCursorItem::paint(QPainter *painter, const QStyleOptionGraphicsItem * /*option*/, QWidget * /*widget*/)
{
    const Theme &t = Theme::instance();
    painter->setRenderHint(QPainter::Antialiasing);
    QColor fill = t.examinedEdgeColor();
    fill.setAlpha(255);
    painter->setPen(QPen(t.ink(), 1.5));
    painter->setBrush(fill);
    painter->drawPolygon(arrow());
}

QString ScanCursorItem::describe() const
{
    return QStringLiteral("<b>Where the classic collection is</b><br>It scans this socket's receive queue: each "
                          "candidate whose file sits there gets its inflight taken down (decrement), put back "
                          "(restore) or its message moved to the hitlist. During the restore walk it is the socket "
                          "the cursor has just passed.");
}
