// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The pattern that tells a role apart without its colour: a dead (garbage) socket is hatched,
// a leaked one cross-hatched, every other role plain. Colour-blind students read the verdict
// from the shape; the graph, the legend and the exports draw the same marks.

#include "inflight/graph_snapshot.hpp"

class QColor;
class QPainter;
class QPainterPath;

// True when `role` carries a mark.
bool hasRoleMark(inflight::GcRole role);

// Draws the mark of `role` inside `shape` in `ink` (the role's text colour, made translucent so
// the label stays legible over it); `spacing` is the distance between two lines.
void drawRoleMark(QPainter &painter, const QPainterPath &shape, inflight::GcRole role, const QColor &ink,
                  double spacing);
