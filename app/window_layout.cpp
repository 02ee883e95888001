// SPDX-License-Identifier: GPL-3.0-or-later
#include "window_layout.h"

#include "docks/dock_common.h"
#include "docks/scene_dock.h"
#include "editor/scene_editor.h"
#include "theme.h"

#include <QDockWidget>
#include <QFontMetrics>
#include <QMainWindow>

#include <algorithm>
#include <cmath>
#include <utility>

namespace window_layout {

namespace {

// The scene's text needs 40 columns beside its gutter: statements must not wrap.
int sceneMinimumWidth(const WindowDocks &d)
{
    auto *scene = qobject_cast<docks::SceneDock *>(d.scene);
    if (!scene || !scene->textView())
        return 300;
    const editor::SceneEditor *view = scene->textView();
    const QFontMetrics fm(view->font());
    // Text, margins (numbers, markers, folds), scroll bar, frame and the dock's margins.
    int margins = 0;
    for (int m = 0; m < 3; ++m)
        margins += view->marginWidth(m);
    // (+8: Scintilla's own left and right text margins and caret.)
    return fm.horizontalAdvance(QString(40, QLatin1Char('m'))) + margins + 40;
}

// The lists' rows and globals are set in the dock's row font (docks::kRowPoints at the theme's
// scale); 36 characters hold a global and its value with the next one beginning.
constexpr int kListsColumns = 36;
// The algorithm column at its narrowest: a code line still wraps to two or three rows.
constexpr int kMinRightColumn = 290;

bool docked(const QDockWidget *d) { return d && d->isVisible() && !d->isFloating(); }

int share(int total, double s) { return static_cast<int>(std::lround(total * s)); }

} // namespace

int listsReadableWidth()
{
    const QFontMetrics fm(Theme::instance().font(docks::kRowPoints));
    // The text, the dock's margins and its scroll bar.
    return fm.horizontalAdvance(QString(kListsColumns, QLatin1Char('n'))) + 40;
}

void arrange(QMainWindow &w, const WindowDocks &d)
{
    // Side docks own the corners, so the bottom row sits under the graph only.
    w.setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    w.setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    for (QDockWidget *dock : d.all())
        dock->setFloating(false);
    w.addDockWidget(Qt::LeftDockWidgetArea, d.scene);
    w.addDockWidget(Qt::RightDockWidgetArea, d.algorithm);
    w.addDockWidget(Qt::BottomDockWidgetArea, d.lists);
    // The inspector has its own place under the script: selecting a socket must not hide the
    // current line. Watches share its place (the other "what is it now" view).
    w.splitDockWidget(d.scene, d.inspector, Qt::Vertical);
    w.tabifyDockWidget(d.inspector, d.watches);
    w.tabifyDockWidget(d.inspector, d.expectations);
    d.inspector->raise();
    w.splitDockWidget(d.lists, d.log, Qt::Horizontal);
    w.tabifyDockWidget(d.log, d.latency);
    w.tabifyDockWidget(d.log, d.autobind);
    for (QDockWidget *dock : d.all())
        dock->show();
    d.log->raise();
}

namespace {

// The side columns' widths at the default shares. The scene's 40 columns come first; the graph
// between the columns cannot be narrower than its own minimum (its bars, the timeline's row),
// so what it lacks is taken from the algorithm, not silently from the scene by the layout.
std::pair<int, int> sideColumns(const QMainWindow &w, const WindowDocks &d)
{
    const int width = w.width();
    const int left = std::max(share(width, kLeftShare), sceneMinimumWidth(d));
    const QWidget *centre = w.centralWidget();
    const int centre_min = centre ? centre->minimumSizeHint().expandedTo(centre->minimumSize()).width() : 0;
    const int right =
        std::max(std::min(std::max(share(width, kRightShare), 320), width - left - centre_min), kMinRightColumn);
    return {left, right};
}

// Side by side where each gets a readable width; else tabs of the whole row, the lists in
// front. Decided on the window's own width (a first show knows it only then). True when side
// by side.
bool arrangeRowUnderGraph(QMainWindow &w, const WindowDocks &d)
{
    const auto [left, right] = sideColumns(w, d);
    const bool side_by_side = w.width() - left - right >= 2 * listsReadableWidth();
    if (side_by_side == w.tabifiedDockWidgets(d.lists).isEmpty())
        return side_by_side;
    if (side_by_side)
        w.splitDockWidget(d.lists, d.log, Qt::Horizontal);
    else
        w.tabifyDockWidget(d.lists, d.log);
    w.tabifyDockWidget(d.log, d.latency);
    w.tabifyDockWidget(d.log, d.autobind);
    (side_by_side ? d.log : d.lists)->raise();
    return side_by_side;
}

} // namespace

void applyShares(QMainWindow &w, const WindowDocks &d, bool presentation)
{
    const int width = w.width(), height = w.height();
    if (presentation) {
        w.resizeDocks({d.algorithm}, {share(width, kPresentationRight)}, Qt::Horizontal);
        for (QDockWidget *panel : {d.latency, d.autobind})
            if (docked(panel))
                w.resizeDocks({panel}, {share(height, kPresentationPanel)}, Qt::Vertical);
        return;
    }
    const auto [left, right] = sideColumns(w, d);
    // The row under the graph first: resizing it moves the side columns' separators, so the
    // columns are sized last.
    const int under_graph = std::max(1, width - left - right);
    auto inRow = [&w](QDockWidget *dock) {
        return !dock->isFloating() && dock->toggleViewAction()->isChecked() &&
               w.dockWidgetArea(dock) == Qt::BottomDockWidgetArea;
    };
    if (inRow(d.lists) && inRow(d.log) && arrangeRowUnderGraph(w, d)) {
        // Side by side: the lists keep their readable width whatever the log asks for.
        const int lists = std::max(share(under_graph, kListsOverLog), std::min(listsReadableWidth(), under_graph));
        w.resizeDocks({d.lists, d.log}, {lists, std::max(1, under_graph - lists)}, Qt::Horizontal);
    }
    w.resizeDocks({d.lists}, {share(height, kBottomShare)}, Qt::Vertical);
    w.resizeDocks({d.scene, d.inspector}, {share(height, kSceneOverInspector), share(height, 1 - kSceneOverInspector)},
                  Qt::Vertical);
    w.resizeDocks({d.scene, d.algorithm}, {left, right}, Qt::Horizontal);
}

void keepShares(QMainWindow &w, const WindowDocks &d, QSize from, QSize to)
{
    if (from.width() <= 0 || from.height() <= 0 || from == to)
        return;
    const double sx = double(to.width()) / from.width(), sy = double(to.height()) / from.height();
    // One dock per place: the side columns by width, the bottom row by height.
    QList<QDockWidget *> wide, tall;
    QList<int> widths, heights;
    for (QDockWidget *dock : {d.scene, d.inspector, d.algorithm}) {
        if (!docked(dock) || w.dockWidgetArea(dock) == Qt::BottomDockWidgetArea)
            continue;
        wide << dock;
        widths << std::max(1, static_cast<int>(std::lround(dock->width() * sx)));
    }
    for (QDockWidget *dock : {d.lists, d.log, d.latency, d.autobind}) {
        if (!docked(dock) || w.dockWidgetArea(dock) != Qt::BottomDockWidgetArea)
            continue;
        tall << dock;
        heights << std::max(1, static_cast<int>(std::lround(dock->height() * sy)));
        break; // the row has one height
    }
    if (!wide.isEmpty())
        w.resizeDocks(wide, widths, Qt::Horizontal);
    if (!tall.isEmpty())
        w.resizeDocks(tall, heights, Qt::Vertical);
}

void showForPresentation(QMainWindow &w, const WindowDocks &d, QDockWidget *panel)
{
    // A scene's own panel spans the screen under the graph and the lesson's column: its bars
    // and its figures side by side at the presentation's size.
    w.setCorner(Qt::BottomRightCorner, panel ? Qt::BottomDockWidgetArea : Qt::RightDockWidgetArea);
    for (QDockWidget *dock : d.all())
        dock->setVisible(dock == d.algorithm || dock == panel);
    if (panel) {
        // Alone under the graph (out of its tabs), so that it is seen whatever was in front.
        panel->setFloating(false);
        w.addDockWidget(Qt::BottomDockWidgetArea, panel);
        panel->show();
        panel->raise();
    }
}

void endPresentation(QMainWindow &w)
{
    // saveState() does not keep the corners: the side docks own them again.
    w.setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
}

} // namespace window_layout
