// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/scc_hull_item.h"

#include "graph/graph_style.h"
#include "theme.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPathStroker>

#include <algorithm>
#include <cmath>
#include <limits>

using inflight::GcRole;
using inflight::SnapshotScc;

namespace {

// Andrew's monotone chain: the convex hull of the points, counter-clockwise.
QPolygonF convexHull(std::vector<QPointF> pts)
{
    std::sort(pts.begin(), pts.end(),
              [](QPointF a, QPointF b) { return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y()); });
    pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
    if (pts.size() < 3)
        return QPolygonF(QList<QPointF>(pts.begin(), pts.end()));
    const auto cross = [](QPointF o, QPointF a, QPointF b) {
        return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
    };
    std::vector<QPointF> hull(2 * pts.size());
    std::size_t k = 0;
    for (const QPointF &p : pts) {
        while (k >= 2 && cross(hull[k - 2], hull[k - 1], p) <= 0)
            --k;
        hull[k++] = p;
    }
    for (std::size_t i = pts.size() - 1, lower = k + 1; i-- > 0;) {
        while (k >= lower && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0)
            --k;
        hull[k++] = pts[i];
    }
    hull.resize(k - 1);
    return QPolygonF(QList<QPointF>(hull.begin(), hull.end()));
}

GcRole verdictRole(SnapshotScc::Verdict v)
{
    switch (v) {
    case SnapshotScc::Verdict::judging: return GcRole::scc_pending;
    case SnapshotScc::Verdict::alive: return GcRole::not_cycle;
    case SnapshotScc::Verdict::dead: return GcRole::garbage;
    }
    return GcRole::scc_pending;
}

double hullPadding() { return graphStyle().compact ? 9 : 12; }

// The members' boxes joined along a minimum spanning tree of their centres (Prim's, as there
// are few): the shape of a bubble set, which goes round the members only where the convex hull
// would take in a box that is not one of them.
QPainterPath bubble(const std::vector<QRectF> &boxes, double pad)
{
    QPainterPath shape;
    shape.setFillRule(Qt::WindingFill);
    for (const QRectF &b : boxes)
        shape.addRoundedRect(b.adjusted(-pad, -pad, pad, pad), pad, pad);
    std::vector<bool> joined(boxes.size(), false);
    std::vector<double> best(boxes.size(), std::numeric_limits<double>::infinity());
    std::vector<std::size_t> from(boxes.size(), 0);
    QPainterPathStroker stroke;
    stroke.setWidth(pad * 1.6);
    stroke.setCapStyle(Qt::RoundCap);
    best[0] = 0;
    for (std::size_t round = 0; round < boxes.size(); ++round) {
        std::size_t next = boxes.size();
        for (std::size_t i = 0; i < boxes.size(); ++i)
            if (!joined[i] && (next == boxes.size() || best[i] < best[next]))
                next = i;
        joined[next] = true;
        if (round > 0) {
            QPainterPath link(boxes[from[next]].center());
            link.lineTo(boxes[next].center());
            shape.addPath(stroke.createStroke(link));
        }
        for (std::size_t i = 0; i < boxes.size(); ++i) {
            const QPointF d = boxes[i].center() - boxes[next].center();
            const double distance = std::hypot(d.x(), d.y());
            if (!joined[i] && distance < best[i]) {
                best[i] = distance;
                from[i] = next;
            }
        }
    }
    return shape.simplified();
}

} // namespace

class SccHullItem::Caption : public GraphItem {
public:
    explicit Caption(const SccHullItem *hull) : hull_(hull)
    {
        setZValue(4.5); // over boxes and edges: a student reads the verdict whole
        setAcceptedMouseButtons(Qt::NoButton);
    }
    QRectF boundingRect() const override { return hull_->caption_rect_.adjusted(-1, -1, 1, 1); }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget * /*widget*/) override
    {
        if (lod(option, painter) >= kTextLod)
            hull_->paintCaption(painter);
    }
    QString describe() const override { return hull_->describe(); }
    void changeGeometry() { prepareGeometryChange(); }

private:
    const SccHullItem *hull_;
};

SccHullItem::SccHullItem(const SnapshotScc &scc, QString caption)
    : scc_(scc), caption_(std::move(caption)), caption_item_(new Caption(this))
{
    setZValue(-2); // under the edges, the peer links and the boxes it surrounds
    setAcceptedMouseButtons(Qt::NoButton);
}

SccHullItem::~SccHullItem() { delete caption_item_; }

bool SccHullItem::setScc(const SnapshotScc &scc, QString caption)
{
    const bool changed = scc.verdict != scc_.verdict || caption != caption_ || scc.on_ring != scc_.on_ring;
    scc_ = scc;
    caption_ = std::move(caption);
    if (changed) {
        update();
        caption_item_->update();
    }
    return changed;
}

QFont SccHullItem::captionFont() const
{
    // The size of the walk's numbers: read with them from the back row.
    const GraphStyle &s = graphStyle();
    QFont f = s.compact ? s.label : s.counts;
    if (s.compact)
        f.setPixelSize(std::max(6, qRound(s.label.pixelSize() * 0.7)));
    f.setBold(true);
    return f;
}

void SccHullItem::reshape(const std::vector<QRectF> &member_boxes, const std::vector<QRectF> &taken)
{
    prepareGeometryChange();
    static_cast<Caption *>(caption_item_)->changeGeometry();
    hull_ = QPainterPath();
    caption_rect_ = QRectF();
    caption_item_->setVisible(isVisible());
    if (member_boxes.empty())
        return;
    const double pad = hullPadding();
    std::vector<QPointF> corners;
    for (const QRectF &b : member_boxes) {
        const QRectF r = b.adjusted(-pad, -pad, pad, pad);
        corners.insert(corners.end(), {r.topLeft(), r.topRight(), r.bottomLeft(), r.bottomRight()});
    }
    hull_.addPolygon(convexHull(std::move(corners)));
    hull_.closeSubpath();
    // A box the hull takes in that is not a member would read as one: go round the members.
    const bool takes_in_another = std::any_of(taken.begin(), taken.end(), [&](const QRectF &t) {
        const bool member = std::find(member_boxes.begin(), member_boxes.end(), t) != member_boxes.end();
        return !member && hull_.intersects(t.adjusted(pad / 2, pad / 2, -pad / 2, -pad / 2));
    });
    if (takes_in_another)
        hull_ = bubble(member_boxes, pad);
    // The caption under the hull, at its left (the walk's badges sit on the boxes' top edges);
    // over it when other boxes are in the way below and not above.
    const QFontMetricsF fm(captionFont());
    const QRectF box = hull_.boundingRect();
    const QSizeF size(fm.horizontalAdvance(caption_) + 12, fm.height() + 4);
    // Under the hull at its left first, then over it, then sliding along under and over it,
    // then beside it: the first place that covers no box and stays within the picture's bounds
    // (the camera frames the boxes: a caption beyond them may not fit on screen), or else the
    // one that covers least of the boxes and of the outside.
    std::vector<QRectF> places{QRectF(QPointF(box.left(), box.bottom() + 2), size),
                               QRectF(QPointF(box.left(), box.top() - 2 - size.height()), size)};
    constexpr double kSlide = 8;
    for (double x = box.left() - size.width() + kSlide; x <= box.right(); x += kSlide)
        if (x != box.left())
            for (double y : {box.bottom() + 2, box.top() - 2 - size.height()})
                places.emplace_back(QPointF(x, y), size);
    const double middle = box.center().y() - size.height() / 2;
    places.emplace_back(QPointF(box.left() - 2 - size.width(), middle), size);
    places.emplace_back(QPointF(box.right() + 2, middle), size);
    QRectF bounds = box;
    for (const QRectF &t : taken)
        bounds |= t;
    // Only the boxes near the hull can be covered: a large scene's thousands are not scanned
    // once per place.
    const QRectF near = box.adjusted(-size.width(), -size.height() - 2, size.width(), size.height() + 2);
    std::vector<QRectF> nearby;
    for (const QRectF &t : taken)
        if (t.intersects(near))
            nearby.push_back(t);
    const auto covered = [&](const QRectF &r) {
        const QRectF inside = bounds.intersected(r);
        double area = r.width() * r.height() - inside.width() * inside.height();
        for (const QRectF &t : nearby) {
            const QRectF both = t.intersected(r);
            area += both.width() * both.height();
        }
        return area;
    };
    caption_rect_ = places[0];
    double least = covered(places[0]);
    for (const QRectF &place : places) {
        if (least == 0)
            break;
        if (const double area = covered(place); area < least) {
            least = area;
            caption_rect_ = place;
        }
    }
}

QRectF SccHullItem::boundingRect() const { return hull_.boundingRect().adjusted(-3, -3, 3, 3); }

void SccHullItem::paint(QPainter *painter, const QStyleOptionGraphicsItem * /*option*/, QWidget * /*widget*/)
{
    if (hull_.isEmpty())
        return;
    const Theme &t = Theme::instance();
    const GcRole role = verdictRole(scc_.verdict);
    painter->setRenderHint(QPainter::Antialiasing);
    QColor fill = t.roleColor(role);
    fill.setAlpha(t.highContrast() ? 70 : 90);
    QPen outline(t.outlineOf(t.roleColor(role)), 2.5, scc_.on_ring ? Qt::DashLine : Qt::SolidLine);
    outline.setJoinStyle(Qt::RoundJoin);
    painter->setPen(outline);
    painter->setBrush(fill);
    painter->drawPath(hull_);
    if (scc_.verdict == SnapshotScc::Verdict::dead) {
        // Hatched as the dead boxes are: dead is not red alone.
        QColor hatch = t.outlineOf(t.roleColor(role));
        hatch.setAlpha(110);
        painter->setPen(Qt::NoPen);
        painter->setBrush(QBrush(hatch, Qt::BDiagPattern));
        painter->drawPath(hull_);
    }
}

void SccHullItem::paintCaption(QPainter *painter) const
{
    if (caption_rect_.isEmpty() || !isVisible())
        return;
    const Theme &t = Theme::instance();
    const GcRole role = verdictRole(scc_.verdict);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QPen(t.outlineOf(t.roleColor(role)), 1.5, scc_.on_ring ? Qt::DashLine : Qt::SolidLine));
    painter->setBrush(t.background());
    painter->drawRoundedRect(caption_rect_, 4, 4);
    painter->setPen(t.foreground());
    painter->setFont(captionFont());
    painter->drawText(caption_rect_.adjusted(6, 0, -6, 0), Qt::AlignLeft | Qt::AlignVCenter, caption_);
}

QString SccHullItem::describe() const
{
    QString what;
    switch (scc_.verdict) {
    case SnapshotScc::Verdict::judging:
        what = QStringLiteral("Cut off the walk's stack: unix_vertex_dead() is judging each member.");
        break;
    case SnapshotScc::Verdict::alive:
        what = QStringLiteral("Alive: one member is held from outside the SCC, so the collector keeps them all.");
        break;
    case SnapshotScc::Verdict::dead:
        what = QStringLiteral("Dead: every member's file refs are its copies in flight inside the SCC; the "
                              "collector purges their queues.");
        break;
    }
    const QString ring = scc_.on_ring ? QStringLiteral("<br>The fast path judged the ring the last full walk left "
                                                       "(unix_walk_scc_fast()), without walking again.")
                                      : QString();
    return QStringLiteral("<b>%1</b><br>%2%3").arg(caption_.toHtmlEscaped(), what, ring);
}
