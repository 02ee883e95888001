// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/process_item.h"

#include "graph/graph_style.h"
#include "theme.h"

#include <QPainter>

#include <algorithm>

ProcessItem::ProcessItem(std::shared_ptr<const inflight::GraphSnapshot> snapshot, std::size_t index)
    : NodeItem(graph::processKey(snapshot->processes[index].id)), snapshot_(std::move(snapshot)), index_(index)
{
    setZValue(1);
    relayout();
}

bool ProcessItem::setProcess(std::shared_ptr<const inflight::GraphSnapshot> snapshot, std::size_t index)
{
    snapshot_ = std::move(snapshot);
    index_ = index;
    update();
    return relayout();
}

void ProcessItem::restyle()
{
    relayout();
    update();
}

int ProcessItem::rowCount() const { return static_cast<int>(rows_.size()); }

QString ProcessItem::rowText(int row) const { return rows_[static_cast<std::size_t>(row)].text; }

namespace {

// "s3_17" -> ("s3_", 17); a name without a trailing number has no run.
bool splitTrailingNumber(std::string_view name, std::string &prefix, long &number)
{
    std::size_t i = name.size();
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
        --i;
    if (i == name.size() || i == 0 || name.size() - i > 9)
        return false;
    prefix = name.substr(0, i);
    number = 0;
    for (char c : name.substr(i))
        number = number * 10 + (c - '0');
    return true;
}

} // namespace

void ProcessItem::buildRows()
{
    rows_.clear();
    const auto &fds = process().fds;
    auto name_of = [this](const inflight::SnapshotFd &f) { return snapshot_->fd_name(f); };
    const bool summarise = static_cast<int>(fds.size()) > kMaxRows;
    for (std::size_t i = 0; i < fds.size();) {
        std::size_t j = i + 1;
        std::string prefix, next_prefix;
        long lo = 0, n = 0;
        if (summarise && splitTrailingNumber(name_of(fds[i]), prefix, lo)) {
            // A run: the same prefix, the number going up by one, as `name{a..b}` makes them.
            long expect = lo + 1;
            while (j < fds.size() && splitTrailingNumber(name_of(fds[j]), next_prefix, n) && next_prefix == prefix &&
                   n == expect) {
                ++j;
                ++expect;
            }
        }
        if (j - i < 3)
            j = i + 1; // a run of two reads better as two rows
        Row r;
        r.first_fd = fds[i].fd;
        if (j - i > 1)
            r.text = QStringLiteral("%1-%2  %3{%4..%5}")
                         .arg(fds[i].fd, 3)
                         .arg(fds[j - 1].fd)
                         .arg(QString::fromStdString(prefix))
                         .arg(lo)
                         .arg(lo + static_cast<long>(j - i) - 1);
        else
            r.text = QStringLiteral("%1  %2").arg(fds[i].fd, 3).arg(QString::fromStdString(name_of(fds[i])));
        const int row = static_cast<int>(rows_.size());
        if (row == kMaxRows - 1 && j < fds.size()) {
            // No room left: the rest in one row.
            rows_.push_back({QStringLiteral("+ %1 more fds").arg(fds.size() - i), fds[i].fd});
            break;
        }
        rows_.push_back(std::move(r));
        i = j;
    }
}

QString ProcessItem::title() const
{
    // Compact: the name alone (the user is in the tooltip).
    if (graphStyle().compact)
        return QString::fromStdString(process().name);
    return QStringLiteral("%1 · %2").arg(QString::fromStdString(process().name),
                                         QString::fromStdString(process().user));
}

double ProcessItem::titleHeight() const
{
    const GraphStyle &s = graphStyle();
    if (s.compact)
        return s.labelMetrics.height() + s.padding * 1.2;
    return s.processTitleMetrics.height() + s.padding;
}

double ProcessItem::rowHeight() const { return graphStyle().processRowMetrics.height() + 4; }

bool ProcessItem::relayout()
{
    buildRows();
    const GraphStyle &s = graphStyle();
    if (s.compact) {
        // The title band only: its fd edges leave from the right side.
        const double w = s.labelMetrics.horizontalAdvance(title()) + 2 * s.padding;
        const QSizeF old = box().size();
        setBoxSize(QSizeF(qMax(w, s.labelMetrics.height() * 2.5), titleHeight()));
        return old != box().size();
    }
    double w = s.processTitleMetrics.horizontalAdvance(title()) + 2 * s.padding;
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
    // The row whose fds include it; an fd the process does not hold points at the last row.
    const auto &fds = process().fds;
    const auto open = std::lower_bound(fds.begin(), fds.end(), fd,
                                       [](const inflight::SnapshotFd &f, int value) { return f.fd < value; });
    const int row =
        open == fds.end() || open->fd != fd
            ? rowCount() - 1
            : static_cast<int>(std::upper_bound(rows_.begin(), rows_.end(), fd,
                                                [](int value, const Row &r) { return value < r.first_fd; }) -
                               rows_.begin()) -
                  1;
    const QRectF b = box();
    if (graphStyle().compact) {
        // Spread along the right side in fd order, so the fd edges do not leave from one point.
        const auto rank = static_cast<double>(open - fds.begin());
        const double y = b.top() + b.height() * (rank + 1) / (static_cast<double>(fds.size()) + 1);
        return mapToScene(QPointF(b.right(), y));
    }
    const double y = b.top() + titleHeight() + (qMax(row, 0) + 0.5) * rowHeight() + 2;
    return mapToScene(QPointF(b.right(), y));
}

void ProcessItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget * /*widget*/)
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
    painter->setPen(t.processTextColor());
    painter->setFont(s.compact ? s.label : s.processTitle);
    painter->drawText(QRectF(b.left(), b.top(), b.width(), titleHeight()), Qt::AlignCenter, title());
    if (s.compact)
        return;
    painter->setFont(s.processRow);
    painter->setPen(t.foreground());
    if (process().fds.empty()) {
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
                       .arg(QString::fromStdString(process().name).toHtmlEscaped(),
                            QString::fromStdString(process().user).toHtmlEscaped());
    html += QStringLiteral("Each row is an open file descriptor: its number and the scene's name for it. ");
    html += QStringLiteral("A dashed arrow goes from the row to the socket the fd refers to.<br>");
    html += QStringLiteral("Open fds are where reachability starts: a socket reachable from an open fd can still be "
                           "used, so the collector never frees it.");
    if (process().fds.empty())
        html += QStringLiteral("<br>This process has no open socket fds right now.");
    return html;
}
