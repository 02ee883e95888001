// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The pattern that tells a role apart without its colour: a dead (garbage) socket is hatched,
// a leaked one cross-hatched, every other role plain; a socket no fd reaches has a dashed outline. Colour-blind students read the verdict
// from the shape; the graph, the legend and the exports draw the same marks.

#include "inflight/graph_snapshot.hpp"

class QColor;
class QPainter;
class QPainterPath;

class QPen;

// The outline of a socket no fd reaches any more that no collection has judged yet: thick and
// dashed, in `border`, so a cycle waiting for the collector stands out from a reachable one.
QPen unreachableOutline(const QColor &border);

// True when `role` carries a mark.
bool hasRoleMark(inflight::GcRole role);

// Draws the mark of `role` inside `shape` in `ink` (the role's text colour, made translucent so
// the label stays legible over it); `spacing` is the distance between two lines.
void drawRoleMark(QPainter &painter, const QPainterPath &shape, inflight::GcRole role, const QColor &ink,
                  double spacing);
