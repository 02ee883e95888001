// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/overlap_removal.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace graph {

namespace {

// A uniform grid over placed boxes: each box is listed in every cell it touches.
class BoxGrid {
public:
    explicit BoxGrid(double cell) : cell_(cell) { }

    bool isFree(double cx, double cy, double w, double h, double gap, const std::vector<PlacedBox> &boxes) const
    {
        const double l = cx - w / 2 - gap, r = cx + w / 2 + gap, t = cy - h / 2 - gap, b = cy + h / 2 + gap;
        for (long gx = cellOf(l); gx <= cellOf(r); ++gx)
            for (long gy = cellOf(t); gy <= cellOf(b); ++gy) {
                auto it = cells_.find(key(gx, gy));
                if (it == cells_.end())
                    continue;
                for (int i : it->second) {
                    const PlacedBox &o = boxes[static_cast<std::size_t>(i)];
                    if (o.x - o.width / 2 < r && o.x + o.width / 2 > l && o.y - o.height / 2 < b &&
                        o.y + o.height / 2 > t)
                        return false;
                }
            }
        return true;
    }

    void add(int index, const PlacedBox &p)
    {
        for (long gx = cellOf(p.x - p.width / 2); gx <= cellOf(p.x + p.width / 2); ++gx)
            for (long gy = cellOf(p.y - p.height / 2); gy <= cellOf(p.y + p.height / 2); ++gy)
                cells_[key(gx, gy)].push_back(index);
    }

private:
    long cellOf(double v) const { return static_cast<long>(std::floor(v / cell_)); }
    static std::uint64_t key(long gx, long gy)
    {
        return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(gx)) << 32) | static_cast<std::uint32_t>(gy);
    }
    double cell_;
    std::unordered_map<std::uint64_t, std::vector<int>> cells_;
};

} // namespace

int removeOverlaps(std::vector<PlacedBox> &boxes, double gap)
{
    if (boxes.empty())
        return 0;
    // Cells about the size of a typical box keep both the lookups and the lists short.
    std::vector<double> sizes;
    sizes.reserve(boxes.size());
    for (const PlacedBox &b : boxes)
        sizes.push_back(std::max(b.width, b.height));
    std::nth_element(sizes.begin(), sizes.begin() + static_cast<long>(sizes.size() / 2), sizes.end());
    BoxGrid grid(std::max(40.0, sizes[sizes.size() / 2] + gap));

    int moved = 0;
    double right = -1e300, top = 1e300; // of everything placed so far
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        PlacedBox &b = boxes[i];
        if (!std::isfinite(b.x) || !std::isfinite(b.y))
            b.x = b.y = 0;
        if (!grid.isFree(b.x, b.y, b.width, b.height, gap, boxes)) {
            // Rings of growing radius; the step is half the smaller side, so no gap is skipped
            // that the box could fit in. Points on a ring are tried nearest-first along it.
            // The search is bounded: past it, the box goes right of everything (always free).
            const double step = std::max(8.0, (std::min(b.width, b.height) + gap) / 2);
            bool placed = false;
            long tries = 0;
            for (int ring = 1; ring < 4000 && !placed && tries < 20000; ++ring) {
                const double radius = ring * step;
                const int count = std::max(8, static_cast<int>(2 * M_PI * radius / step));
                for (int k = 0; k < count && !placed; ++k, ++tries) {
                    // 0, +1, -1, +2, -2 ... around the downward direction: prefer moving down,
                    // then sideways, which keeps rows and columns of a layout readable.
                    const int j = (k % 2 ? 1 : -1) * ((k + 1) / 2);
                    const double angle = M_PI / 2 + 2 * M_PI * j / count;
                    const double x = b.x + radius * std::cos(angle), y = b.y + radius * std::sin(angle);
                    if (grid.isFree(x, y, b.width, b.height, gap, boxes)) {
                        b.x = x;
                        b.y = y;
                        placed = true;
                    }
                }
            }
            if (!placed) {
                b.x = right + gap + b.width / 2;
                b.y = top + b.height / 2;
            }
            ++moved;
        }
        right = std::max(right, b.x + b.width / 2);
        top = std::min(top, b.y - b.height / 2);
        grid.add(static_cast<int>(i), b);
    }
    return moved;
}

} // namespace graph
