// SPDX-License-Identifier: GPL-3.0-or-later
// The central graph panel: a search box and buttons over the graph view (with its bird's-eye
// overview), the legend under it. It follows the PlayerController: a new step is a new
// snapshot, the shared selection is highlighted, a click on a socket selects it.
#pragma once

#include "graph/graph_export.h"
#include "graph/graph_view.h"
#include "graph/step_subject.h"

#include <QWidget>

#include <cstdint>
#include <optional>
#include <utility>

class GraphScene;
class LegendBar;
class OverviewView;
class PlayerController;
class QLabel;
class QTimer;
class QLineEdit;

// When the graph follows a move, given how long its last refresh took and whether the player
// is playing: at once (a frame or less), once per `interval_ms` while the moves go on, or once
// they have stopped for `interval_ms` (each move restarts the wait).
struct GraphRefreshPlan {
    enum When { now, every_interval, when_quiet } when = now;
    int interval_ms = 0;
};
GraphRefreshPlan planGraphRefresh(qint64 last_refresh_ms, bool playing);

namespace inflight {
struct Event;
}

class GraphPanel : public QWidget {
    Q_OBJECT
public:
    explicit GraphPanel(PlayerController &controller, QWidget *parent = nullptr);
    ~GraphPanel() override;

    GraphScene *scene() const { return scene_; }
    GraphView *view() const { return view_; }
    OverviewView *overview() const;
    QLineEdit *searchBox() const { return search_; }
    LegendBar *legend() const { return legend_; }

    int socketItemCount() const;
    int edgeItemCount() const;
    int fdEdgeItemCount() const;
    int processItemCount() const;
    int aggregateItemCount() const;

    // Selects and centres the next socket whose label contains `text` (case-insensitive),
    // wrapping around; draws it out of an aggregate if needed. False when nothing matches.
    bool findNext(const QString &text);

    // Exports of what is drawn (for the main window's File menu); false and `error` when the
    // file could not be written (graph_export.h).
    // PNG and SVG carry `captions` around the graph; the PNG has `scale` pixels per view pixel.
    bool exportPng(const QString &path, QString *error = nullptr, const graph_export::Captions &captions = {},
                   double scale = 2.0);
    bool exportSvg(const QString &path, QString *error = nullptr, const graph_export::Captions &captions = {});
    bool exportDot(const QString &path, QString *error = nullptr);

    // Tests, benchmarks and the lesson exports: spins an event loop until the newest layout is
    // applied (and its animation finished). False on timeout.
    bool waitForLayout(int ms = 10000);

    bool presenting() const { return presenting_; }
    // What the current step is about (the camera frames it) and the finding it announces.
    const StepSubject &subject() const { return subject_; }

public slots:
    void refresh(); // a snapshot of the controller's current step
    void fitAll();  // F
    // Draws the current step now if a redraw is being held back (a slow redraw makes the next
    // ones wait up to 500 ms, so stepping stays responsive); tests synchronise on it.
    void flushRefresh();
    // Presentation mode: the presentation layout (compact boxes arranged to the pane's shape),
    // socket names never under `min_label_pixels` on screen (the camera frames the step's
    // subject when the whole graph cannot be shown so), the legend shows the colours only.
    // Leaving it gives back the view's zoom and centre as they were.
    void setPresentation(bool on, double min_label_pixels);
    void tidyLayout(); // a fresh layout of everything (nothing pinned)

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void onSceneLoaded();
    void applyLabelFloors();
    static std::optional<std::pair<std::uint32_t, std::uint32_t>> examinedEdge(const inflight::Event *e);
    void followSubject(const inflight::GraphSnapshot &snapshot);
    void frameSubject(); // the camera on the current subject's items, where they are
    // What the legend names while presenting, with the scene's roles: the collector's marks drawn now.
    unsigned marksOnGraph() const;
    double paneAspect() const;
    void onSelectionChanged();
    void positionMoved();
    void centreWhenShown(std::uint32_t sock);

    PlayerController &controller_;
    GraphScene *scene_;
    GraphView *view_;
    LegendBar *legend_;
    bool presenting_ = false;
    double presentation_label_pixels_ = 0;
    double font_scale_ = 0;        // the theme's, as last seen
    double text_label_pixels_ = 0; // Larger text's: the names' size on screen it asked for
    StepSubject subject_;
    std::optional<GraphView::Camera> camera_before_presenting_;
    // Puts that camera back once the normal layout is in; one at most, dropped with the panel.
    QMetaObject::Connection restore_camera_after_layout_;
    double aspect_before_presenting_ = 0;
    QTimer *aspect_timer_ = nullptr; // the pane's shape settles before the graph is arranged to it
    QWidget *top_bar_ = nullptr;     // the search box and the buttons
    QLineEdit *search_;
    QLabel *status_;
    std::optional<std::uint32_t> last_match_;
    // A graph that takes longer than a frame to snapshot (a million sockets: a third of a
    // second) is refreshed at most once per that long while the steps come, the rest of the
    // window following each step at once.
    QTimer *deferred_ = nullptr;
    qint64 last_refresh_ms_ = 0;
    bool refresh_owed_ = false; // a deferred refresh fell while a seek was under way
};
