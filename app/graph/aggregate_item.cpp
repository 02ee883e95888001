// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/aggregate_item.h"

#include "graph/graph_style.h"
#include "graph/socket_item.h"
#include "theme.h"

#include <QLocale>
#include <QPainter>

namespace {
constexpr double kStack = 5; // offset of each card behind the front one
constexpr double kBar = 10;  // height of the role bar
} // namespace

AggregateItem::AggregateItem(const graph::AggregateGroup &group) : NodeItem(group.key), group_(group)
{
    setZValue(1);
    relayout();
}

bool AggregateItem::setGroup(const graph::AggregateGroup &group)
{
    group_ = group;
    update();
    return relayout();
}

void AggregateItem::setRoleCounts(const std::array<std::uint32_t, kRoles> &counts)
{
    if (counts == roles_)
        return;
    roles_ = counts;
    update();
}

void AggregateItem::restyle()
{
    relayout();
    update();
}

QString AggregateItem::title() const
{
    // Single sockets of one process read as a count of that process's sockets.
    if (group_.sockets_per_instance == 1 && !group_.owner.empty())
        return QStringLiteral("%1 sockets of %2")
            .arg(QLocale().toString(static_cast<qulonglong>(group_.instances.size())),
                 QString::fromStdString(group_.owner));
    return QStringLiteral("%1 socket%2 × %3")
        .arg(group_.sockets_per_instance)
        .arg(group_.sockets_per_instance == 1 ? QString() : QStringLiteral("s"),
             QLocale().toString(static_cast<qulonglong>(group_.instances.size())));
}

bool AggregateItem::relayout()
{
    const GraphStyle &s = graphStyle();
    const QString sub = QString::fromStdString(group_.shape + " · " + group_.types);
    const double w = qMax(s.labelMetrics.horizontalAdvance(title()), s.smallMetrics.horizontalAdvance(sub)) +
                     2 * s.padding + 2 * kStack;
    const double h = s.labelMetrics.height() + s.smallMetrics.height() + kBar + 1.6 * s.padding + 2 * kStack;
    const QSizeF old = box().size();
    setBoxSize(QSizeF(qMax(w, 130.0), h));
    return old != box().size();
}

void AggregateItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget * /*widget*/)
{
    const Theme &t = Theme::instance();
    const QRectF b = box();
    // The front card; two more peek out behind it (up and to the right).
    const QRectF front = b.adjusted(0, 2 * kStack, -2 * kStack, 0);
    std::uint32_t total = 0, most = 0;
    int main_role = 0;
    for (int r = 0; r < kRoles; ++r) {
        total += roles_[static_cast<std::size_t>(r)];
        if (roles_[static_cast<std::size_t>(r)] > most) {
            most = roles_[static_cast<std::size_t>(r)];
            main_role = r;
        }
    }
    const QColor fill = t.roleColor(static_cast<inflight::GcRole>(main_role));
    const double lod = GraphItem::lod(option, painter);
    if (lod < kPlainLod) {
        painter->fillRect(b, fill);
        return;
    }
    drawHighlight(painter);
    const QColor border = t.highContrast() ? QColor(Qt::black) : QColor(0x50, 0x50, 0x60);
    painter->setPen(QPen(border, 1.6));
    for (int k = 2; k >= 0; --k) {
        painter->setBrush(k ? fill.lighter(108) : fill);
        painter->drawRoundedRect(front.translated(k * kStack, -k * kStack), 8, 8);
    }
    // Role bar: each role's share of the member sockets.
    const QRectF bar(front.left() + 8, front.bottom() - kBar - 6, front.width() - 16, kBar);
    if (total) {
        double x = bar.left();
        for (int r = 0; r < kRoles; ++r) {
            const double w = bar.width() * roles_[static_cast<std::size_t>(r)] / total;
            if (w <= 0)
                continue;
            painter->fillRect(QRectF(x, bar.top(), w, bar.height()), t.roleColor(static_cast<inflight::GcRole>(r)));
            x += w;
        }
    }
    painter->setPen(QPen(border, 1));
    painter->setBrush(Qt::NoBrush);
    painter->drawRect(bar);
    if (lod < kTextLod)
        return;
    const GraphStyle &s = graphStyle();
    painter->setPen(t.roleTextColor(static_cast<inflight::GcRole>(main_role)));
    painter->setFont(s.label);
    const double top = front.top() + s.padding * 0.5;
    painter->drawText(QRectF(front.left(), top, front.width(), s.labelMetrics.height()), Qt::AlignCenter, title());
    painter->setFont(s.small);
    painter->drawText(QRectF(front.left(), top + s.labelMetrics.height(), front.width(), s.smallMetrics.height()),
                      Qt::AlignCenter, QString::fromStdString(group_.shape + " · " + group_.types));
}

QString AggregateItem::describe() const
{
    QString html = QStringLiteral("<b>%1</b> — %2 identical groups of %3 socket%4 (%5, %6).<br>")
                       .arg(title())
                       .arg(group_.instances.size())
                       .arg(group_.sockets_per_instance)
                       .arg(group_.sockets_per_instance == 1 ? QString() : QStringLiteral("s"),
                            QString::fromStdString(group_.shape), QString::fromStdString(group_.types));
    html += QStringLiteral(
        "The graph is too large to draw every socket, so groups that look the same (a strongly connected "
        "group of the same shape, with the same links to the outside) are drawn once.<br>");
    html += QStringLiteral("Each group holds %1 in-flight cop%2 inside itself; %3 fd%4 of processes point into it.<br>")
                .arg(group_.edges_per_instance)
                .arg(group_.edges_per_instance == 1 ? QStringLiteral("y") : QStringLiteral("ies"))
                .arg(group_.fds_per_instance)
                .arg(group_.fds_per_instance == 1 ? QString() : QStringLiteral("s"));
    html += QStringLiteral("<b>Roles now</b> (the bar):");
    for (int r = 0; r < kRoles; ++r)
        if (roles_[static_cast<std::size_t>(r)])
            html += QStringLiteral("<br>&nbsp;&nbsp;%1 %2")
                        .arg(roles_[static_cast<std::size_t>(r)])
                        .arg(roleName(static_cast<inflight::GcRole>(r)));
    html += QStringLiteral("<br><i>Double-click to draw some of them one by one.</i>");
    if (group_.expanded_instances)
        html += QStringLiteral(" (%1 already are.)").arg(group_.expanded_instances);
    return html;
}
