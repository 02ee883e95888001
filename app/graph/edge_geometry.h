// SPDX-License-Identifier: GPL-3.0-or-later
// Curves for edges between node boxes: a quadratic bent sideways (parallel edges get distinct
// bends, so a socket sent twice in one message shows as two curves), a loop for a socket in
// its own queue, a bend that avoids other boxes in small graphs, and arrowheads.
#pragma once

#include <QPainterPath>
#include <QPointF>
#include <QPolygonF>
#include <QRectF>

#include <unordered_map>
#include <vector>

class NodeItem;

namespace edge_geometry {

struct Obstacle {
    const NodeItem *node;
    QRectF rect; // scene
};

// Node boxes bucketed in a uniform grid, so "which boxes contain this point" is cheap.
class Obstacles {
public:
    void add(const NodeItem *node, const QRectF &rect);
    bool empty() const { return list_.empty(); }
    // Calls f(obstacle) for each box that may contain p.
    template <typename F>
    void near(const QPointF &p, F &&f) const
    {
        auto it = cells_.find(key(cell(p.x()), cell(p.y())));
        if (it != cells_.end())
            for (int i : it->second)
                f(list_[static_cast<std::size_t>(i)]);
    }

private:
    static long cell(double v);
    static long long key(long x, long y)
    {
        return (static_cast<long long>(x) << 32) ^ static_cast<long long>(static_cast<unsigned>(y));
    }
    std::vector<Obstacle> list_;
    std::unordered_map<long long, std::vector<int>> cells_;
};

struct Curve {
    QPointF start, end; // on the two outlines (end = arrow tip)
    QPointF c1, c2;     // cubic control points
    QPainterPath path;  // the stroke (stops short of the tip, under the arrowhead)
    QPolygonF arrow;    // filled triangle at `end`
};

// The bend (sideways offset of the middle, scene units) of lane `index` of `count` parallel
// edges, `spacing` apart; `flip` when the edge runs against its pair's canonical direction.
double laneBend(int index, int count, double spacing, bool flip);

// An edge between two nodes: `bend` as preferred; with obstacles, the nearest bend whose curve
// misses every box other than the ends' (and their parents').
Curve route(const NodeItem *from, const NodeItem *to, double bend, double arrow_length, const Obstacles *obstacles);

// A loop on the top of a node, for a socket whose file is in its own queue; lane > 0 is wider.
Curve loop(const NodeItem *node, int lane, double arrow_length);

// How many sample points of the curve fall inside boxes other than its ends' (and their parents').
int obstacleHits(const Curve &c, const NodeItem *from, const NodeItem *to, const Obstacles &obstacles);

// An fd edge: leaves the process row horizontally at `start` (for `lead` units, negative:
// proportional to the distance), arrives at the socket's outline; `shift` moves the middle
// sideways (so that it goes around boxes).
Curve fdCurve(const QPointF &start, const NodeItem *to, double lead, double shift, double arrow_length);

QPolygonF arrowHead(const QPointF &tip, const QPointF &from, double length);
QPointF pointAt(const Curve &c, double t);

} // namespace edge_geometry
