// SPDX-License-Identifier: GPL-3.0-or-later
// What a layout job is asked for and what it answers: plain values, copied across threads.
// Units are scene units (1 unit = 1 Graphviz point); positions are node centres, y grows down.
#pragma once

#include "graph/graph_ids.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace graph {

struct LayoutNode {
    NodeKey key = 0;
    double width = 0, height = 0;
    bool pinned = false; // keep exactly at (x, y)
    bool seeded = false; // (x, y) is a starting guess for a free node
    double x = 0, y = 0;
    bool process = false; // a process box (kept on the left in large layouts)
};

struct LayoutEdge {
    NodeKey from = 0, to = 0; // one per in-flight copy or per fd (multi-edges are kept)
};

struct LayoutRequest {
    std::uint64_t generation = 0;
    bool full = false; // ignore pins: a fresh layout of everything
    std::vector<LayoutNode> nodes;
    std::vector<LayoutEdge> edges;
    double gap = 28;         // the least free space between two node boxes
    int dot_max_nodes = 300; // above: sfdp (full) / neato major (incremental), straight edges
    // Width / height of the pane the drawing is for (0: any). A full layout of up to
    // kArrangeMaxNodes nodes then arranges its parts to the pane's shape (arrangeForAspect()):
    // the whole graph fits the pane at the largest scale.
    double aspect = 0;
};

inline constexpr std::size_t kArrangeMaxNodes = 80;

struct LayoutPoint {
    double x = 0, y = 0;
};

struct LayoutResult {
    std::uint64_t generation = 0;
    bool ok = false;
    std::string error;
    std::string engine;                              // "dot", "sfdp", "neato", "none" (only pins)
    double ms = 0;                                   // wall time of the whole computation
    double graphviz_ms = 0;                          // of which inside Graphviz
    double overlap_ms = 0;                           // of which removing overlaps
    int moved = 0;                                   // boxes moved to remove overlaps
    std::vector<LayoutPoint> positions;              // in request.nodes order
    double left = 0, top = 0, right = 0, bottom = 0; // bounds of all node boxes
};

} // namespace graph
