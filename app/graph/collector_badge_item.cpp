// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/walk_mark_item.h"

#include "graph/graph_style.h"
#include "graph/socket_item.h"
#include "theme.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>

namespace {
constexpr double kPadX = 6, kPadY = 1, kGap = 5;
} // namespace

WalkMarkItem::WalkMarkItem(SocketItem *socket, const inflight::SnapshotWalkMark &mark)
    : GraphItem(socket), socket_(socket), mark_(mark)
{
    setZValue(4);
    setAcceptedMouseButtons(Qt::NoButton);
}

bool WalkMarkItem::setMark(const inflight::SnapshotWalkMark &mark)
{
    if (mark.index == mark_.index && mark.scc_index == mark_.scc_index && mark.stack_place == mark_.stack_place)
        return false;
    prepareGeometryChange();
    mark_ = mark;
    update();
    return true;
}

QString WalkMarkItem::numbersText() const { return QStringLiteral("%1 / %2").arg(mark_.index).arg(mark_.scc_index); }

QString WalkMarkItem::placeText() const
{
    return mark_.stack_place ? QStringLiteral("#%1").arg(mark_.stack_place) : QString();
}

QFont WalkMarkItem::numbersFont() const
{
    // As large as the counts line of a box; in the presentation layout (no counts line) the
    // numbers are what the lesson is read from: nearly the name's size.
    const GraphStyle &s = graphStyle();
    if (!s.compact)
        return s.counts;
    QFont f = s.label;
    f.setPixelSize(std::max(6, qRound(s.label.pixelSize() * 0.8)));
    return f;
}

QFont WalkMarkItem::placeFont() const
{
    QFont f = numbersFont();
    f.setPixelSize(std::max(6, qRound(f.pixelSize() * 0.75)));
    f.setBold(false);
    return f;
}

QRectF WalkMarkItem::badge() const
{
    const QFontMetricsF numbers(numbersFont()), place(placeFont());
    const QString where = placeText();
    const double w = numbers.horizontalAdvance(numbersText()) +
                     (where.isEmpty() ? 0 : place.horizontalAdvance(where) + kGap) + 2 * kPadX;
    const double h = numbers.height() + 2 * kPadY;
    // On the box's top edge, at its right, over the border only: the name stays whole.
    const QRectF b = socket_->box();
    return QRectF(b.right() - w + kPadX, b.top() - h + 4, w, h);
}

QRectF WalkMarkItem::boundingRect() const { return badge().adjusted(-1.5, -1.5, 1.5, 1.5); }

void WalkMarkItem::paint(QPainter *painter, const QStyleOptionGraphicsItem * /*option*/, QWidget * /*widget*/)
{
    const Theme &t = Theme::instance();
    painter->setRenderHint(QPainter::Antialiasing);
    const QRectF r = badge();
    // On the stack: solid; cut off it, waiting for the verdict: dashed.
    QPen pen(t.highContrast() ? QColor(Qt::black) : QColor(0x30, 0x30, 0x38), 1.6,
             mark_.stack_place ? Qt::SolidLine : Qt::DashLine);
    painter->setPen(pen);
    painter->setBrush(QColor(Qt::white));
    painter->drawRoundedRect(r, r.height() / 3, r.height() / 3);
    painter->setPen(QColor(Qt::black));
    QRectF text = r.adjusted(kPadX, 0, -kPadX, 0);
    const QString where = placeText();
    if (!where.isEmpty()) {
        painter->setFont(placeFont());
        painter->drawText(text, Qt::AlignLeft | Qt::AlignVCenter, where);
        text.setLeft(text.left() + QFontMetricsF(placeFont()).horizontalAdvance(where) + kGap);
    }
    painter->setFont(numbersFont());
    painter->drawText(text, Qt::AlignLeft | Qt::AlignVCenter, numbersText());
}

QString WalkMarkItem::describe() const
{
    const QString where =
        mark_.stack_place ? QStringLiteral("On the walk's vertex stack, #%1 from the bottom.").arg(mark_.stack_place)
                          : QStringLiteral("Cut off the stack with its SCC, waiting for the verdict.");
    return QStringLiteral("%1<br><b>index %2</b>: the order the walk visited it in.<br><b>scc_index %3</b>: the "
                          "lowest index it reaches. The walk cuts an SCC off the stack at the vertex whose two are "
                          "equal.")
        .arg(where)
        .arg(mark_.index)
        .arg(mark_.scc_index);
}
