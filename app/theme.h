// SPDX-License-Identifier: GPL-3.0-or-later
// Colours and font scale shared by every view. Presentation mode raises the font scale and
// switches to high-contrast colours that still read on a projector, light on dark if the
// presenter chose the dark theme; views repaint on changed().
#pragma once

#include "inflight/graph_snapshot.hpp"

#include <QColor>
#include <QFont>
#include <QObject>
#include <QPalette>

class Theme : public QObject {
    Q_OBJECT
public:
    static Theme &instance();

    double fontScale() const { return font_scale_; }
    bool highContrast() const { return high_contrast_; }
    // The zoom range; a scale outside it (a hand-edited setting: 1e9, NaN) is clamped into it,
    // as a huge one would make every label, edge and cache of the graph huge.
    static constexpr double kMinFontScale = 0.6;
    static constexpr double kMaxFontScale = 3.0;
    void setFontScale(double scale);
    void setHighContrast(bool on);
    // Light text and marks on a dark ground: for a dark room, or a projector whose white
    // washes the picture out. Every colour below follows it, and widgetPalette() gives the
    // widgets the same ground.
    bool dark() const { return dark_; }
    void setDark(bool on);
    // The collector running is the graph one (6.10+): its walk's stack has its own colour and
    // the legend its own names (on the vertex stack, alive SCC, dead SCC).
    bool graphEra() const { return graph_era_; }
    void setGraphEra(bool on);

    // The fill of a socket node by its GC role at this step (under the graph collector a
    // `candidate` is a vertex on the walk's stack, drawn in another colour than classic's).
    QColor roleColor(inflight::GcRole role) const;
    QColor roleTextColor(inflight::GcRole role) const;
    QColor background() const;
    QColor foreground() const;
    QColor edgeColor() const;
    QColor hitlistEdgeColor() const;  // an in-flight copy on the collector's hitlist
    QColor examinedEdgeColor() const; // the halo of the edge the graph walk examines
    QColor processColor() const;      // process boxes and their fd edges
    QColor processTextColor() const;  // a process box's title, on processColor()
    QColor selectionColor() const;
    QColor highlightLineColor() const; // current line in the algorithm and scene views
    QColor ink() const;                // outlines and strokes drawn over fills and the ground
    QColor mutedText() const;          // secondary text: captions, the algorithm's comments
    // The outline of a shape filled with `fill`: darker on a light ground, lighter on a dark one.
    QColor outlineOf(const QColor &fill) const;
    QColor panelColor() const;             // the fill of badges and keys drawn over the graph
    QColor noteBackground() const;         // a note beside the narration
    QColor announcementBackground() const; // news that needs the eye: where two runs part
    // The widgets' palette: `standard` (the style's own) in the light themes, a dark one in
    // the dark theme.
    QPalette widgetPalette(const QPalette &standard) const;
    // A font of `points` (at scale 1), scaled.
    QFont font(double points, bool bold = false) const;
    QFont monoFont(double points) const;

signals:
    void changed();

private:
    Theme() = default;
    double font_scale_ = 1.0;
    bool graph_era_ = false;
    bool high_contrast_ = false;
    bool dark_ = false;
};
