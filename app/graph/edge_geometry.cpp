// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/edge_geometry.h"

#include "graph/node_item.h"

#include <cmath>

namespace edge_geometry {

namespace {

QPointF unit(const QPointF &v)
{
    const double l = std::hypot(v.x(), v.y());
    return l > 1e-9 ? v / l : QPointF(1, 0);
}

QPointF cubicAt(const QPointF &a, const QPointF &b, const QPointF &c, const QPointF &d, double t)
{
    const double u = 1 - t;
    return u * u * u * a + 3 * u * u * t * b + 3 * u * t * t * c + t * t * t * d;
}

Curve finish(Curve c, double arrow_length)
{
    // The stroke stops inside the arrowhead so the line does not poke through its tip.
    const QPointF dir = unit(c.end - c.c2);
    const QPointF stop = c.end - dir * (arrow_length * 0.7);
    c.path = QPainterPath(c.start);
    c.path.cubicTo(c.c1, c.c2 - dir * (arrow_length * 0.2), stop);
    c.arrow = arrowHead(c.end, c.c2, arrow_length);
    return c;
}

} // namespace

constexpr double kObstacleCell = 120;

long Obstacles::cell(double v) { return static_cast<long>(std::floor(v / kObstacleCell)); }

void Obstacles::add(const NodeItem *node, const QRectF &rect)
{
    const int index = static_cast<int>(list_.size());
    const QRectF r = rect.adjusted(-4, -4, 4, 4);
    list_.push_back({node, r});
    for (long x = cell(r.left()); x <= cell(r.right()); ++x)
        for (long y = cell(r.top()); y <= cell(r.bottom()); ++y)
            cells_[key(x, y)].push_back(index);
}

double laneBend(int index, int count, double spacing, bool flip)
{
    const double b = (index - (count - 1) / 2.0) * spacing;
    return flip ? -b : b;
}

QPointF pointAt(const Curve &c, double t) { return cubicAt(c.start, c.c1, c.c2, c.end, t); }

QPolygonF arrowHead(const QPointF &tip, const QPointF &from, double length)
{
    const QPointF d = unit(tip - from);
    const QPointF n(-d.y(), d.x());
    const QPointF base = tip - d * length;
    QPolygonF p;
    p << tip << base + n * (length * 0.42) << base - n * (length * 0.42);
    return p;
}

static Curve bent(const NodeItem *from, const NodeItem *to, double bend)
{
    const QPointF a = from->mapToScene(QPointF(0, 0)), b = to->mapToScene(QPointF(0, 0));
    const QPointF d = b - a;
    const QPointF n = unit(QPointF(-d.y(), d.x()));
    // A quadratic with control point m + 2·bend·n peaks `bend` away from the straight line.
    const QPointF ctrl = (a + b) / 2 + n * (2 * bend);
    Curve c;
    // Leave and arrive towards the control point - unless it lies inside the box itself.
    const bool straight = std::abs(bend) < 0.5;
    c.start = from->boundaryPoint(straight || from->sceneBox().adjusted(-8, -8, 8, 8).contains(ctrl) ? b : ctrl);
    c.end = to->boundaryPoint(straight || to->sceneBox().adjusted(-8, -8, 8, 8).contains(ctrl) ? a : ctrl);
    // The quadratic start–ctrl–end written as a cubic.
    c.c1 = c.start + (ctrl - c.start) * (2.0 / 3.0);
    c.c2 = c.end + (ctrl - c.end) * (2.0 / 3.0);
    return c;
}

int obstacleHits(const Curve &c, const NodeItem *from, const NodeItem *to, const Obstacles &obstacles)
{
    int count = 0;
    for (int i = 1; i < 16; ++i) {
        const double t = i / 16.0;
        const QPointF p = pointAt(c, t);
        obstacles.near(p, [&](const Obstacle &o) {
            if (!o.rect.contains(p))
                return;
            // The ends' own boxes count too, away from the ends: a curve that runs under its
            // target to come in from the far side is as bad as one through a stranger. The
            // box holding an embryo end is always crossed.
            const bool parent = (from && o.node == from->parentItem()) || (to && o.node == to->parentItem());
            const bool own_end = (o.node == from && t < 0.3) || (o.node == to && t > 0.7);
            if (!parent && !own_end)
                ++count;
        });
    }
    return count;
}

Curve fdCurve(const QPointF &start, const NodeItem *to, double lead, double shift, double arrow_length)
{
    Curve c;
    c.start = start;
    const QPointF target = to->mapToScene(QPointF(0, 0));
    const double dx = lead >= 0 ? lead : std::max(50.0, std::abs(target.x() - start.x()) * 0.45);
    c.c1 = start + QPointF(dx, shift);
    // Arrive along the ray from the socket's centre through `aim`: the end is where that ray
    // leaves the outline and the last control point lies on it, outside the box, so the
    // arrowhead is never hidden under the socket.
    QPointF aim = c.c1 + QPointF(0, shift);
    if (to->sceneBox().adjusted(-8, -8, 8, 8).contains(aim))
        aim = start; // an aim inside the box would turn the approach inwards
    c.end = to->boundaryPoint(aim);
    const QPointF back = aim - c.end;
    const double l = std::hypot(back.x(), back.y());
    c.c2 = c.end + (l > 1e-6 ? back / l * std::min(70.0, l / 2) : QPointF());
    return finish(c, arrow_length);
}

Curve route(const NodeItem *from, const NodeItem *to, double bend, double arrow_length, const Obstacles *obstacles)
{
    Curve best = bent(from, to, bend);
    if (obstacles && !obstacles->empty()) {
        const QPointF a = from->mapToScene(QPointF(0, 0)), b = to->mapToScene(QPointF(0, 0));
        const double length = std::hypot(b.x() - a.x(), b.y() - a.y());
        auto hits = [&](const Curve &c) { return obstacleHits(c, from, to, *obstacles); };
        int best_hits = hits(best);
        const double sign = bend < 0 ? -1 : 1;
        // Nearest first: a bend just big enough to clear the boxes in the way, growing in
        // steps; fractions of the length only as a last resort.
        for (double k : {40.0, -40.0, 70.0, -70.0, 110.0, -110.0, 160.0, -160.0, 230.0, -230.0, 0.3 * length,
                         -0.3 * length, 0.5 * length, -0.5 * length}) {
            if (best_hits == 0)
                break;
            const Curve c = bent(from, to, bend + sign * k);
            const int h = hits(c);
            if (h < best_hits) {
                best = c;
                best_hits = h;
            }
        }
    }
    return finish(best, arrow_length);
}

Curve loop(const NodeItem *node, int lane, double arrow_length)
{
    const QRectF r = node->sceneBox();
    const double spread = std::min(r.width() * 0.32, 30.0) + lane * 8;
    const double height = 46 + lane * 20;
    const double cx = r.center().x() + r.width() * 0.18;
    Curve c;
    c.start = node->boundaryPoint(QPointF(cx + spread, r.top() - 1));
    c.end = node->boundaryPoint(QPointF(cx - spread, r.top() - 1));
    c.c1 = QPointF(cx + spread + 26 + lane * 10, r.top() - height);
    c.c2 = QPointF(cx - spread - 26 - lane * 10, r.top() - height);
    return finish(c, arrow_length);
}

} // namespace edge_geometry
