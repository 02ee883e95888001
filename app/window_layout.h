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
// Presentation mode keeps only what a class watches: the graph with at least 60% of the screen,
// the algorithm column on the right with the narration and the current line (the lists the beat
// needs are a line under the graph), and, for a scene about a panel (its latencies, its name
// space), that panel under the graph. The rest can be shown from View.
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
inline constexpr double kPresentationRight = 0.25; // algorithm, larger text
inline constexpr double kPresentationPanel = 0.38; // a scene's own panel, under the graph

// The default arrangement: areas, splits and tabs (not sizes).
void arrange(QMainWindow &window, const WindowDocks &docks);
// Sizes the docks from the window's current size: the default shares, or presentation's. At
// the default shares the lists and the log are put side by side or tabbed (lists in front) by
// whether the row under the graph gives each its readable width.
void applyShares(QMainWindow &window, const WindowDocks &docks, bool presentation);
// The least width the Collector's lists need: their globals line at the dock's font, unwrapped
// as far as it reasonably goes (the dock is tabbed with the log when the row cannot give it).
int listsReadableWidth();
// After the window went from `from` to `to`: every docked dock keeps its share of it (Qt would
// give all the change to the central widget).
void keepShares(QMainWindow &window, const WindowDocks &docks, QSize from, QSize to);
// Shows only the docks presentation mode keeps: the algorithm, and `panel` (the scene's own
// panel, or nullptr) docked alone under the graph.
void showForPresentation(QMainWindow &window, const WindowDocks &docks, QDockWidget *panel);
// Undoes what showForPresentation() changed that the window's saved state does not hold.
void endPresentation(QMainWindow &window);

} // namespace window_layout
