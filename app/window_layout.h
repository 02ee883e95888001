// SPDX-License-Identifier: GPL-3.0-or-later
// Where the docks go and how much of the window each gets. Sizes are shares of the window,
// not pixels, so a 1280×720 projector and a 3840×2160 desk show the same picture:
//
//   +-----------+----------------------------+------------+
//   | Scene     |                            | Algorithm  |
//   |           |          graph             | (the code  |
//   +-----------+                            |  needs the |
//   | Inspector |----------------------------+  height)   |
//   | Watches … | Lists      | Event log / … |            |
//   +-----------+------------+---------------+------------+
//
// Presentation mode keeps only what a class watches: the graph, the algorithm with its
// narration and current line, and the collector's lists (the rest can be shown from View).
#pragma once

#include <QList>
#include <QSize>

class QDockWidget;
class QMainWindow;

struct WindowDocks {
    QDockWidget *scene = nullptr;
    QDockWidget *inspector = nullptr;
    QDockWidget *watches = nullptr;
    QDockWidget *expectations = nullptr;
    QDockWidget *algorithm = nullptr;
    QDockWidget *lists = nullptr;
    QDockWidget *log = nullptr;
    QDockWidget *latency = nullptr;
    QDockWidget *autobind = nullptr;

    QList<QDockWidget *> all() const
    {
        return {scene, inspector, watches, expectations, algorithm, lists, log, latency, autobind};
    }
};

namespace window_layout {

// Shares of the window's width and height (the minimums are in the .cpp).
inline constexpr double kLeftShare = 0.25;   // scene and inspector
inline constexpr double kRightShare = 0.27;  // algorithm
inline constexpr double kBottomShare = 0.30; // lists, event log
inline constexpr double kSceneOverInspector = 0.62;
inline constexpr double kListsOverLog = 0.5;       // of the width under the graph
inline constexpr double kPresentationRight = 0.34; // algorithm, larger text
inline constexpr double kPresentationBottom = 0.27;

// The default arrangement: areas, splits and tabs (not sizes).
void arrange(QMainWindow &window, const WindowDocks &docks);
// Sizes the docks from the window's current size: the default shares, or presentation's.
void applyShares(QMainWindow &window, const WindowDocks &docks, bool presentation);
// After the window went from `from` to `to`: every docked dock keeps its share of it (Qt would
// give all the change to the central widget).
void keepShares(QMainWindow &window, const WindowDocks &docks, QSize from, QSize to);
// Shows only the docks presentation mode keeps.
void showForPresentation(const WindowDocks &docks);

} // namespace window_layout
