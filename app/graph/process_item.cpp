// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/process_item.h"

#include "graph/graph_style.h"
#include "theme.h"

#include <QPainter>

ProcessItem::ProcessItem(const inflight::SnapshotProcess &process)
    : NodeItem(graph::processKey(process.id)), process_(process)
{
    setZValue(1);
    relayout();
}

bool ProcessItem::setProcess(const inflight::SnapshotProcess &process)
{
    process_ = process;
    update();
    return relayout();
}

void ProcessItem::restyle()
{
    relayout();
    update();
}

int ProcessItem::rowCount() const
{
    const int n = static_cast<int>(process_.fds.size());
    return n > kMaxRows ? kMaxRows : n;
}

QString ProcessItem::rowText(int row) const
{
    const int n = static_cast<int>(process_.fds.size());
    if (n > kMaxRows && row == kMaxRows - 1)
        return QStringLiteral("+ %1 more fds").arg(n - kMaxRows + 1);
    const auto &fd = process_.fds[static_cast<std::size_t>(row)];
    return QStringLiteral("%1  %2").arg(fd.fd, 3).arg(QString::fromStdString(fd.name));
}

double ProcessItem::titleHeight() const
{
    const GraphStyle &s = graphStyle();
    return s.processTitleMetrics.height() + s.padding;
}

double ProcessItem::rowHeight() const { return graphStyle().processRowMetrics.height() + 4; }

bool ProcessItem::relayout()
{
    const GraphStyle &s = graphStyle();
    const QString title =
        QStringLiteral("%1 · %2").arg(QString::fromStdString(process_.name), QString::fromStdString(process_.user));
    double w = s.processTitleMetrics.horizontalAdvance(title) + 2 * s.padding;
    for (int r = 0; r < rowCount(); ++r)
        w = qMax(w, s.processRowMetrics.horizontalAdvance(rowText(r)) + 2 * s.padding + 8);
    const int rows = qMax(rowCount(), 1);
    const double h = titleHeight() + rows * rowHeight() + s.padding * 0.6;
    const QSizeF old = box().size();
    setBoxSize(QSizeF(qMax(w, 110.0), h));
    return old != box().size();
}

QPointF ProcessItem::fdAnchor(int fd) const
{
    int row = rowCount() - 1;
    for (int r = 0; r < rowCount(); ++r)
        if (process_.fds[static_cast<std::size_t>(r)].fd == fd) {
            row = r;
            break;
        }
    if (static_cast<int>(process_.fds.size()) > kMaxRows && row >= kMaxRows - 1)
        row = kMaxRows - 1;
    const QRectF b = box();
    const double y = b.top() + titleHeight() + (qMax(row, 0) + 0.5) * rowHeight() + 2;
    return mapToScene(QPointF(b.right(), y));
}

void ProcessItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const Theme &t = Theme::instance();
    const QColor c = t.processColor();
    const QRectF b = box();
    const double lod = GraphItem::lod(option, painter);
    if (lod < kPlainLod) {
        painter->fillRect(b, c);
        return;
    }
    const GraphStyle &s = graphStyle();
    drawHighlight(painter);
    painter->setPen(QPen(c, 2.2));
    painter->setBrush(t.background().lighter(102));
    painter->drawRoundedRect(b, 6, 6);
    // The title band.
    QPainterPath band;
    band.setFillRule(Qt::WindingFill);
    band.addRoundedRect(QRectF(b.left(), b.top(), b.width(), titleHeight()), 6, 6);
    band.addRect(QRectF(b.left(), b.top() + titleHeight() / 2, b.width(), titleHeight() / 2));
    painter->setPen(Qt::NoPen);
    painter->setBrush(c);
    painter->drawPath(band);
    if (lod < kTextLod)
        return;
    painter->setPen(Qt::white);
    painter->setFont(s.processTitle);
    painter->drawText(
        QRectF(b.left(), b.top(), b.width(), titleHeight()), Qt::AlignCenter,
        QStringLiteral("%1 · %2").arg(QString::fromStdString(process_.name), QString::fromStdString(process_.user)));
    painter->setFont(s.processRow);
    painter->setPen(t.foreground());
    if (process_.fds.empty()) {
        painter->setPen(c);
        painter->drawText(QRectF(b.left() + s.padding, b.top() + titleHeight() + 2, b.width() - s.padding, rowHeight()),
                          Qt::AlignVCenter | Qt::AlignLeft, QStringLiteral("no open fds"));
        return;
    }
    for (int r = 0; r < rowCount(); ++r) {
        const QRectF row(b.left() + s.padding, b.top() + titleHeight() + 2 + r * rowHeight(), b.width() - 2 * s.padding,
                         rowHeight());
        painter->drawText(row, Qt::AlignVCenter | Qt::AlignLeft, rowText(r));
        // A small port where the fd edge leaves the box.
        painter->setBrush(c);
        painter->setPen(Qt::NoPen);
        painter->drawEllipse(QPointF(b.right(), row.center().y()), 3.5, 3.5);
        painter->setPen(t.foreground());
    }
}

QString ProcessItem::describe() const
{
    QString html = QStringLiteral("<b>Process %1</b>, run by %2.<br>")
                       .arg(QString::fromStdString(process_.name).toHtmlEscaped(),
                            QString::fromStdString(process_.user).toHtmlEscaped());
    html += QStringLiteral("Each row is an open file descriptor: its number and the scene's name for it. ");
    html += QStringLiteral("A dashed arrow goes from the row to the socket the fd refers to.<br>");
    html += QStringLiteral("Open fds are where reachability starts: a socket reachable from an open fd can still be "
                           "used, so the collector never frees it.");
    if (process_.fds.empty())
        html += QStringLiteral("<br>This process has no open socket fds right now.");
    return html;
}
