// SPDX-License-Identifier: GPL-3.0-or-later
#include "window_layout.h"

#include "docks/dock_common.h"
#include "docks/scene_dock.h"
#include "editor/scene_editor.h"
#include "theme.h"

#include <QDockWidget>
#include <QFontMetrics>
#include <QGuiApplication>
#include <QMainWindow>
#include <QScreen>

#include <algorithm>
#include <cmath>

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
    // The row under the graph holds the lists and the log side by side where each gets a
    // readable width; else they are tabs of the whole row (the lists in front).
    // (Arranged before its first show, the window is about to fill the screen.)
    const QScreen *screen = QGuiApplication::primaryScreen();
    const int width = w.isVisible() || !screen ? w.width() : screen->availableGeometry().width();
    const int left = std::max(share(width, kLeftShare), sceneMinimumWidth(d));
    const int right = std::max(share(width, kRightShare), 320);
    const int under_graph = width - left - right;
    const bool side_by_side = under_graph >= 2 * listsReadableWidth();
    if (side_by_side)
        w.splitDockWidget(d.lists, d.log, Qt::Horizontal);
    else
        w.tabifyDockWidget(d.lists, d.log);
    w.tabifyDockWidget(d.log, d.latency);
    w.tabifyDockWidget(d.log, d.autobind);
    for (QDockWidget *dock : d.all())
        dock->show();
    (side_by_side ? d.log : d.lists)->raise();
}

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
    const int left = std::max(share(width, kLeftShare), sceneMinimumWidth(d));
    const int right = std::max(share(width, kRightShare), 320);
    // The row under the graph first: resizing it moves the side columns' separators, so the
    // columns are sized last.
    const int under_graph = std::max(1, width - left - right);
    if (w.tabifiedDockWidgets(d.lists).isEmpty()) {
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

} // namespace window_layout
