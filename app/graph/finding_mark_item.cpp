// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/finding_mark_item.h"

#include "graph/graph_style.h"
#include "graph/node_item.h"

#include <QPainter>

#include <algorithm>

namespace {
constexpr double kRingGap = 7, kRingWidth = 5;
const QColor kFindingRed(0xd0, 0x10, 0x10);
} // namespace

FindingMarkItem::FindingMarkItem(NodeItem *node, QString finding)
    : GraphItem(node), node_(node), finding_(std::move(finding))
{
    setZValue(5);
    setAcceptedMouseButtons(Qt::NoButton);
}

QRectF FindingMarkItem::ring() const { return node_->box().adjusted(-kRingGap, -kRingGap, kRingGap, kRingGap); }

QRectF FindingMarkItem::boundingRect() const
{
    const double badge = graphStyle().labelMetrics.height();
    return ring().adjusted(-kRingWidth - badge / 2, -kRingWidth - badge / 2, kRingWidth, kRingWidth);
}

void FindingMarkItem::paint(QPainter *painter, const QStyleOptionGraphicsItem * /*option*/, QWidget * /*widget*/)
{
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QPen(kFindingRed, kRingWidth));
    painter->setBrush(Qt::NoBrush);
    const QRectF r = ring();
    painter->drawRoundedRect(r, 12, 12);
    // A round badge on the top left corner: seen even where the ring hides behind edges.
    const double d = graphStyle().labelMetrics.height();
    const QRectF badge(r.left() - d / 2, r.top() - d / 2, d, d);
    painter->setPen(Qt::NoPen);
    painter->setBrush(kFindingRed);
    painter->drawEllipse(badge);
    QFont f = graphStyle().label;
    f.setPixelSize(std::max(6, static_cast<int>(d * 0.7)));
    painter->setFont(f);
    painter->setPen(Qt::white);
    painter->drawText(badge, Qt::AlignCenter, QStringLiteral("!"));
}

QString FindingMarkItem::describe() const { return finding_.toHtmlEscaped(); }
