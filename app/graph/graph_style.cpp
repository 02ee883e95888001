// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/graph_style.h"

#include "theme.h"

namespace {

// Theme fonts are in points at the Theme's scale; the scene wants pixel sizes (96 dpi).
QFont pixelFont(QFont f)
{
    f.setPixelSize(qMax(6, qRound(f.pointSizeF() * 96.0 / 72.0)));
    return f;
}

bool compact_style = false;

GraphStyle make()
{
    const Theme &t = Theme::instance();
    GraphStyle s;
    s.label = pixelFont(t.font(13.5, true));
    s.counts = pixelFont(t.font(11));
    s.small = pixelFont(t.font(9.5));
    s.processTitle = pixelFont(t.font(12, true));
    s.processRow = pixelFont(t.monoFont(11));
    s.edgeLabel = pixelFont(t.font(10, true));
    s.labelMetrics = QFontMetricsF(s.label);
    s.countsMetrics = QFontMetricsF(s.counts);
    s.smallMetrics = QFontMetricsF(s.small);
    s.processTitleMetrics = QFontMetricsF(s.processTitle);
    s.processRowMetrics = QFontMetricsF(s.processRow);
    s.edgeLabelMetrics = QFontMetricsF(s.edgeLabel);
    const double k = t.fontScale();
    s.padding = 10 * k;
    s.laneSpacing = 22 * k;
    s.arrowLength = 13 * k;
    s.compact = compact_style;
    if (s.compact)
        s.padding = 7 * k;
    return s;
}

GraphStyle &storage()
{
    static GraphStyle s = make();
    return s;
}

} // namespace

const GraphStyle &graphStyle() { return storage(); }

void refreshGraphStyle() { storage() = make(); }

void setCompactGraphStyle(bool on)
{
    compact_style = on;
    refreshGraphStyle();
}
