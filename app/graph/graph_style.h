// SPDX-License-Identifier: GPL-3.0-or-later
// Fonts, metrics and pens of the graph items, derived from the Theme. Sizes are in scene units
// (pixel-sized fonts), so text scales with the view's zoom and renders the same into a QImage,
// an SVG or a screen. Rebuilt by GraphScene when Theme::changed() fires.
#pragma once

#include <QFont>
#include <QFontMetricsF>

struct GraphStyle {
    QFont label;  // socket name
    QFont counts; // "refs 2 · in flight 1"
    QFont small;  // embryo labels, aggregate subtitles
    QFont processTitle;
    QFont processRow; // monospaced fd rows
    QFont edgeLabel;  // bundle counts
    QFontMetricsF labelMetrics{QFont()};
    QFontMetricsF countsMetrics{QFont()};
    QFontMetricsF smallMetrics{QFont()};
    QFontMetricsF processTitleMetrics{QFont()};
    QFontMetricsF processRowMetrics{QFont()};
    QFontMetricsF edgeLabelMetrics{QFont()};
    double padding = 10;     // inside node boxes
    double laneSpacing = 22; // between parallel edges
    double arrowLength = 13;
    // The presentation layout: boxes hold their name only (the counts and a process's fd rows,
    // secondary text a back row cannot read, are left to the tooltip) and sit closer together.
    bool compact = false;
};

const GraphStyle &graphStyle();
void refreshGraphStyle(); // after Theme::changed()
// Compact boxes on or off (the scene lays out again: GraphScene::setCompact()).
void setCompactGraphStyle(bool on);
