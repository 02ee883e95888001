// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/edge_item.h"

#include "graph/graph_style.h"
#include "graph/node_item.h"
#include "theme.h"

#include <QPainter>
#include <QPainterPathStroker>

#include <cmath>

EdgeItem::EdgeItem(std::uint64_t key) : key_(key) { setZValue(0); }

void EdgeItem::setEnds(NodeItem *from, NodeItem *to)
{
    from_ = from;
    to_ = to;
    // An arrow into an embryo has to be drawn over the listener box that holds the embryo.
    setZValue((to && to->parentItem() ? 3 : 0) + (examined_ ? 0.5 : 0));
}

void EdgeItem::setLane(int index, int count, bool flip)
{
    lane_ = index;
    lanes_ = count;
    flip_ = flip;
}

void EdgeItem::setCopy(const inflight::SnapshotEdge &edge, const QString &from_label, const QString &to_label,
                       const QString &listener_label)
{
    copy_ = edge;
    from_label_ = from_label;
    to_label_ = to_label;
    listener_label_ = listener_label;
    bundle_count_ = 0;
    setHitlist(edge.on_hitlist ? 1 : 0);
}

void EdgeItem::updateCopy(const inflight::SnapshotEdge &edge)
{
    copy_ = edge;
    setHitlist(edge.on_hitlist ? 1 : 0);
}

void EdgeItem::setBundle(const graph::BundleEdge &bundle, const QString &from_text, const QString &to_text)
{
    bundle_count_ = bundle.count;
    from_label_ = from_text;
    to_label_ = to_text;
    setHitlist(bundle.on_hitlist);
}

void EdgeItem::setHitlist(std::uint32_t on_hitlist)
{
    if (on_hitlist == hitlist_)
        return;
    hitlist_ = on_hitlist;
    update();
}

void EdgeItem::route(const edge_geometry::Obstacles *obstacles)
{
    if (!from_ || !to_)
        return;
    const GraphStyle &s = graphStyle();
    const double arrow = s.arrowLength * (hitlist_ ? 1.2 : 1.0);
    if (from_ == to_)
        curve_ = edge_geometry::loop(from_, lane_, arrow);
    else
        curve_ = edge_geometry::route(from_, to_, edge_geometry::laneBend(lane_, lanes_, s.laneSpacing, flip_), arrow,
                                      obstacles);
    prepareGeometryChange();
    bounds_ = curve_.path.boundingRect().united(curve_.arrow.boundingRect()).adjusted(-8, -8, 8, 8);
    if (bundle_count_) {
        const QPointF m = edge_geometry::pointAt(curve_, 0.5);
        bounds_ = bounds_.united(QRectF(m.x() - 60, m.y() - 20, 120, 40));
    }
    update();
}

QRectF EdgeItem::boundingRect() const { return bounds_; }

void EdgeItem::setExamined(bool examined)
{
    if (examined == examined_)
        return;
    examined_ = examined;
    // Over the other copies, under the nodes.
    setZValue((to_ && to_->parentItem() ? 3 : 0) + (examined ? 0.5 : 0));
    update();
}

QPainterPath EdgeItem::shape() const
{
    QPainterPathStroker stroker;
    stroker.setWidth(10);
    QPainterPath p = stroker.createStroke(curve_.path);
    p.addPolygon(curve_.arrow);
    return p;
}

void EdgeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget * /*widget*/)
{
    const Theme &t = Theme::instance();
    const bool hit = hitlist_ > 0;
    const QColor c = hit ? t.hitlistEdgeColor() : t.edgeColor();
    const double lod = GraphItem::lod(option, painter);
    double width = hit ? 3.2 : 2.0;
    if (bundle_count_ > 1)
        width += std::min(4.0, std::log2(double(bundle_count_)) * 0.6);
    if (lod < kPlainLod) {
        painter->setPen(QPen(c, 0)); // cosmetic hairline
        painter->drawLine(curve_.start, curve_.end);
        return;
    }
    if (examined_) {
        painter->setPen(QPen(t.examinedEdgeColor(), width + 9, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        painter->setBrush(Qt::NoBrush);
        painter->drawPath(curve_.path);
        width += 1.5;
    }
    QPen pen(c, width, hit ? Qt::DashDotLine : Qt::SolidLine, Qt::FlatCap, Qt::RoundJoin);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(curve_.path);
    painter->setPen(QPen(c, 1));
    painter->setBrush(c);
    painter->drawPolygon(curve_.arrow);
    if (bundle_count_ && lod >= kTextLod) {
        const GraphStyle &s = graphStyle();
        const QString text = QStringLiteral("× %1").arg(bundle_count_);
        const QPointF m = edge_geometry::pointAt(curve_, 0.5);
        const double w = s.edgeLabelMetrics.horizontalAdvance(text) + 10, h = s.edgeLabelMetrics.height() + 2;
        const QRectF r(m.x() - w / 2, m.y() - h / 2, w, h);
        painter->setPen(QPen(c, 1));
        painter->setBrush(t.background());
        painter->drawRoundedRect(r, 5, 5);
        painter->setFont(s.edgeLabel);
        painter->setPen(c);
        painter->drawText(r, Qt::AlignCenter, text);
    }
}

QString EdgeItem::describe() const
{
    if (bundle_count_) {
        QString html = QStringLiteral("<b>%1 in-flight cop%2</b> from %3 into %4.<br>")
                           .arg(bundle_count_)
                           .arg(bundle_count_ == 1 ? QStringLiteral("y") : QStringLiteral("ies"),
                                from_label_.toHtmlEscaped(), to_label_.toHtmlEscaped());
        html += QStringLiteral("Drawn as one arrow because one end is a group of identical sockets. Each copy is a "
                               "socket's file waiting in another socket's receive queue.");
        if (hitlist_)
            html += QStringLiteral("<br><b>%1</b> of them are on the collector's hitlist, about to be purged.")
                        .arg(hitlist_);
        return html;
    }
    QString html = QStringLiteral("<b>%1 → %2</b>: a copy of <b>%1</b>'s file, in flight.<br>")
                       .arg(from_label_.toHtmlEscaped(), to_label_.toHtmlEscaped());
    html += QStringLiteral("It sits in a message (skb %1) in <b>%2</b>'s receive queue. Until someone receives that "
                           "message, this copy keeps %3 alive — which is why the collector follows it.")
                .arg(copy_.skb)
                .arg(to_label_.toHtmlEscaped(), from_label_.toHtmlEscaped());
    if (!listener_label_.isEmpty())
        html += QStringLiteral("<br>%1 is an embryo nobody has accepted yet, waiting in <b>%2</b>'s accept queue: the "
                               "collector counts this copy as held by the listener %2.")
                    .arg(to_label_.toHtmlEscaped(), listener_label_.toHtmlEscaped());
    if (hitlist_)
        html += QStringLiteral(
            "<br><b>On the hitlist</b>: the collector has found this copy unreachable and will purge it.");
    return html;
}
