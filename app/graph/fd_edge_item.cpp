// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/fd_edge_item.h"

#include "graph/graph_style.h"
#include "graph/process_item.h"
#include "inflight/graph_snapshot.hpp"
#include "theme.h"

#include <QPainter>
#include <QPainterPathStroker>

#include <cmath>

FdEdgeItem::FdEdgeItem(std::uint64_t key) : key_(key) { setZValue(0); }

void FdEdgeItem::setEnds(ProcessItem *process, NodeItem *to, int fd, const QString &fd_name, const QString &to_label,
                         std::uint32_t count)
{
    process_ = process;
    to_ = to;
    fd_ = fd;
    fd_name_ = fd_name;
    to_label_ = to_label;
    count_ = count;
}

void FdEdgeItem::setFaint(bool faint)
{
    if (faint == faint_)
        return;
    faint_ = faint;
    update();
}

void FdEdgeItem::setEmphasized(bool on)
{
    if (on == emphasized_)
        return;
    prepareGeometryChange(); // the shape appears or vanishes
    emphasized_ = on;
    update();
}

void FdEdgeItem::route(const edge_geometry::Obstacles *obstacles)
{
    if (!process_ || !to_)
        return;
    const double arrow = graphStyle().arrowLength * 0.9;
    const QPointF start = process_->fdAnchor(fd_);
    edge_geometry::Curve best = edge_geometry::fdCurve(start, to_, -1, 0, arrow);
    if (obstacles && !obstacles->empty()) {
        int best_hits = edge_geometry::obstacleHits(best, process_, to_, *obstacles);
        const QPointF target = to_->mapToScene(QPointF(0, 0));
        const double length = std::hypot(target.x() - start.x(), target.y() - start.y());
        // First a shorter lead-out (hugging the process side), then bends, nearest first.
        const std::pair<double, double> tries[] = {{20, 0},    {-1, 40},           {-1, -40},          {20, 40},
                                                   {20, -40},  {-1, 80},           {-1, -80},          {-1, 140},
                                                   {-1, -140}, {-1, 0.4 * length}, {-1, -0.4 * length}};
        for (const auto &[lead, shift] : tries) {
            if (best_hits == 0)
                break;
            const edge_geometry::Curve c = edge_geometry::fdCurve(start, to_, lead, shift, arrow);
            const int h = edge_geometry::obstacleHits(c, process_, to_, *obstacles);
            if (h < best_hits) {
                best = c;
                best_hits = h;
            }
        }
    }
    curve_ = best;
    prepareGeometryChange();
    bounds_ = curve_.path.boundingRect().united(curve_.arrow.boundingRect()).adjusted(-6, -6, 6, 6);
    if (count_ > 1) {
        const QPointF m = edge_geometry::pointAt(curve_, 0.5);
        bounds_ = bounds_.united(QRectF(m.x() - 60, m.y() - 20, 120, 40));
    }
    update();
}

QRectF FdEdgeItem::boundingRect() const { return bounds_; }

QPainterPath FdEdgeItem::shape() const
{
    if (!isDrawn())
        return {};
    QPainterPathStroker stroker;
    stroker.setWidth(8);
    return stroker.createStroke(curve_.path);
}

void FdEdgeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget * /*widget*/)
{
    if (!isDrawn())
        return;
    const Theme &t = Theme::instance();
    const QColor c = t.processColor();
    const double lod = GraphItem::lod(option, painter);
    if (lod < kPlainLod) {
        painter->setPen(QPen(c, 0));
        painter->drawLine(curve_.start, curve_.end);
        return;
    }
    QPen pen(c, 1.8, Qt::CustomDashLine, Qt::FlatCap);
    pen.setDashPattern(QList<qreal>{4, 3});
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(curve_.path);
    // An open arrowhead: fd edges are references, not copies in flight.
    painter->setPen(QPen(c, 2.0, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    const QPolygonF a = curve_.arrow;
    painter->drawPolyline(QPolygonF() << a[1] << a[0] << a[2]);
    if (count_ > 1 && lod >= kTextLod) {
        const GraphStyle &s = graphStyle();
        const QString text = QStringLiteral("%1 fds").arg(count_);
        const QPointF m = edge_geometry::pointAt(curve_, 0.5);
        const double w = s.edgeLabelMetrics.horizontalAdvance(text) + 10, h = s.edgeLabelMetrics.height() + 2;
        const QRectF r(m.x() - w / 2, m.y() - h / 2, w, h);
        painter->setPen(QPen(c, 1));
        painter->setBrush(t.background());
        painter->drawRoundedRect(r, 5, 5);
        painter->setFont(s.edgeLabel);
        painter->drawText(r, Qt::AlignCenter, text);
    }
}

QString FdEdgeItem::describe() const
{
    const QString proc = process_ ? QString::fromStdString(process_->process().name).toHtmlEscaped() : QString();
    if (count_ > 1)
        return QStringLiteral("<b>%1 open fds</b> of process %2 point into %3.<br>Open fds keep sockets reachable: the "
                              "collector never frees what an open fd reaches.")
            .arg(count_)
            .arg(proc, to_label_.toHtmlEscaped());
    return QStringLiteral(
               "<b>fd %1 (%2)</b> of process %3 refers to socket <b>%4</b>.<br>An open fd is a root: %4, and "
               "everything in flight in its queue, stays reachable while the fd is open.")
        .arg(fd_)
        .arg(fd_name_.toHtmlEscaped(), proc, to_label_.toHtmlEscaped());
}
