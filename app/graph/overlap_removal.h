// SPDX-License-Identifier: GPL-3.0-or-later
// Moves boxes apart so that no two overlap: boxes are placed one after the other, each at its
// wanted centre or, if that spot is taken, at the nearest free spot found on a spiral around it.
// Earlier boxes have priority (put pinned ones first: they only move if they overlap each other).
#pragma once

#include <vector>

namespace graph {

struct PlacedBox {
    double x = 0, y = 0; // wanted centre in, final centre out
    double width = 0, height = 0;
};

// Returns how many boxes were moved. `gap` is the least free space kept between two boxes.
int removeOverlaps(std::vector<PlacedBox> &boxes, double gap);

} // namespace graph
