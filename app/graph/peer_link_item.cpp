// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/peer_link_item.h"

#include "graph/node_item.h"
#include "graph/socket_item.h"
#include "theme.h"

#include <QCoreApplication>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace {

// Where the segment from a box's centre towards `to` leaves the box.
QPointF exitPoint(const QRectF &box, QPointF to)
{
    const QPointF c = box.center();
    const QPointF d = to - c;
    if (d.isNull())
        return c;
    const double sx = d.x() != 0 ? (box.width() / 2) / std::abs(d.x()) : 1e9;
    const double sy = d.y() != 0 ? (box.height() / 2) / std::abs(d.y()) : 1e9;
    return c + d * std::min({sx, sy, 1.0});
}

} // namespace

PeerLinkItem::PeerLinkItem(NodeItem *a, NodeItem *b) : a_(a), b_(b)
{
    setZValue(-1); // under the in-flight arrows
    sync();
}

void PeerLinkItem::setEnds(NodeItem *a, NodeItem *b)
{
    a_ = a;
    b_ = b;
    sync();
}

void PeerLinkItem::sync()
{
    const QRectF ra = a_->sceneBox(), rb = b_->sceneBox();
    const QLineF l(exitPoint(ra, rb.center()), exitPoint(rb, ra.center()));
    if (l == line_)
        return;
    prepareGeometryChange();
    line_ = l;
}

QRectF PeerLinkItem::boundingRect() const { return QRectF(line_.p1(), line_.p2()).normalized().adjusted(-6, -6, 6, 6); }

void PeerLinkItem::paint(QPainter *painter, const QStyleOptionGraphicsItem * /*option*/, QWidget * /*widget*/)
{
    if (line_.length() < 1)
        return;
    const Theme &t = Theme::instance();
    QColor c = t.edgeColor();
    c.setAlpha(150);
    painter->setRenderHint(QPainter::Antialiasing);
    // Two parallel strokes: a connection, not a reference (those are arrows).
    const QPointF n = QPointF(-line_.dy(), line_.dx()) / line_.length() * 2.5;
    QPen pen(c, 1.6 * t.fontScale());
    painter->setPen(pen);
    painter->drawLine(line_.translated(n));
    painter->drawLine(line_.translated(-n));
}

QString PeerLinkItem::describe() const
{
    auto label = [](NodeItem *n) {
        auto *s = dynamic_cast<SocketItem *>(n);
        return s ? s->label() : QStringLiteral("?");
    };
    return QCoreApplication::translate("PeerLinkItem",
                                       "<b>%1 ⟷ %2</b>: peers (unix_peer). What one sends lands in the other's "
                                       "receive queue.")
        .arg(label(a_), label(b_));
}
