// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/collector_badge_item.h"

#include "graph/graph_style.h"
#include "graph/socket_item.h"
#include "theme.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>

namespace {
constexpr double kPadX = 6, kPadY = 1, kGap = 5;
} // namespace

CollectorBadgeItem::CollectorBadgeItem(SocketItem *socket, const inflight::SnapshotWalkMark &mark)
    : GraphItem(socket), socket_(socket), walk_(true), mark_(mark)
{
    setZValue(4);
    setAcceptedMouseButtons(Qt::NoButton);
}

CollectorBadgeItem::CollectorBadgeItem(SocketItem *socket, std::int32_t file_refs, std::int32_t inflight)
    : GraphItem(socket), socket_(socket), walk_(false), file_refs_(file_refs), inflight_(inflight)
{
    setZValue(4);
    setAcceptedMouseButtons(Qt::NoButton);
}

bool CollectorBadgeItem::setCounts(std::int32_t file_refs, std::int32_t inflight)
{
    if (file_refs == file_refs_ && inflight == inflight_)
        return false;
    prepareGeometryChange();
    file_refs_ = file_refs;
    inflight_ = inflight;
    update();
    return true;
}

bool CollectorBadgeItem::setMark(const inflight::SnapshotWalkMark &mark)
{
    if (mark.index == mark_.index && mark.scc_index == mark_.scc_index && mark.stack_place == mark_.stack_place)
        return false;
    prepareGeometryChange();
    mark_ = mark;
    update();
    return true;
}

QString CollectorBadgeItem::numbersText() const
{
    return walk_ ? QStringLiteral("%1 / %2").arg(mark_.index).arg(mark_.scc_index)
                 : QStringLiteral("%1 / %2").arg(file_refs_).arg(inflight_);
}

QString CollectorBadgeItem::placeText() const
{
    return walk_ && mark_.stack_place ? QStringLiteral("#%1").arg(mark_.stack_place) : QString();
}

QFont CollectorBadgeItem::numbersFont() const
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

QFont CollectorBadgeItem::placeFont() const
{
    QFont f = numbersFont();
    f.setPixelSize(std::max(6, qRound(f.pixelSize() * 0.75)));
    f.setBold(false);
    return f;
}

QRectF CollectorBadgeItem::badge() const
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

QRectF CollectorBadgeItem::boundingRect() const { return badge().adjusted(-1.5, -1.5, 1.5, 1.5); }

void CollectorBadgeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem * /*option*/, QWidget * /*widget*/)
{
    const Theme &t = Theme::instance();
    painter->setRenderHint(QPainter::Antialiasing);
    const QRectF r = badge();
    // On the stack (or a classic candidate): solid; cut off the stack, waiting for the verdict:
    // dashed.
    QPen pen(t.ink(), 1.6, !walk_ || mark_.stack_place ? Qt::SolidLine : Qt::DashLine);
    painter->setPen(pen);
    painter->setBrush(t.panelColor());
    painter->drawRoundedRect(r, r.height() / 3, r.height() / 3);
    painter->setPen(t.foreground());
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

QString CollectorBadgeItem::describe() const
{
    if (!walk_)
        return QStringLiteral("<b>file refs %1 / inflight %2</b><br>A candidate: its file refs (file_count) equalled "
                              "its copies in flight when the collection began. The scan takes 1 off inflight for each "
                              "copy that sits in another candidate's queue; a candidate left above 0 is referenced "
                              "from outside the candidates, and the restore walk keeps it and what it holds.")
            .arg(file_refs_)
            .arg(inflight_);
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
