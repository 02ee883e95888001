// SPDX-License-Identifier: GPL-3.0-or-later
// One layout, computed with Graphviz (cgraph + gvc) and finished without it:
//  * full layout: dot (rankdir=LR) up to request.dot_max_nodes nodes, above that sfdp with
//    pack=true, packmode=array, splines=false; processes are then left out of Graphviz and
//    stacked in a column on the left (a process holding every fd would glue all components);
//  * incremental layout: neato with every pinned node at pos="x,y!" and the free ones started
//    at their seeds; the drawing is moved back so pinned nodes stay exactly where they were;
//  * then overlaps are removed (pinned nodes keep their place unless they overlap each other).
// Thread-safe: every Graphviz call (agopen to agclose) runs behind one process-wide mutex with
// the C numeric locale on the calling thread. The GUI calls it from LayoutCoordinator's background jobs.
#pragma once

#include "graph/layout_request.h"

#include <string>

namespace graph {

LayoutResult computeLayout(const LayoutRequest &request);
// The full layout of a small graph for a pane of request.aspect (computeLayout() calls it): the
// connected groups of sockets as dot draws them (left to right or top down), packed in rows, the
// processes in a column on the left or a row on top - the arrangement that fits the pane at the
// largest scale. Fills result.positions; false (result.error set) when Graphviz fails.
bool arrangeForAspect(const LayoutRequest &request, LayoutResult &result);
// The version of the Graphviz library loaded at run time (gvcVersion), for the About box.
std::string graphvizVersion();

} // namespace graph
