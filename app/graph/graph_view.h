// SPDX-License-Identifier: GPL-3.0-or-later
// The big view of the graph: wheel and +/- zoom about the cursor, drag to pan, F to fit. Until
// the user zooms or pans it follows the graph (fits after every layout); F returns to that.
// Hover tooltips come from the items' describe(). Items pick their level of detail from the
// view's transform, so zoomed out the graph is drawn as plain boxes.
#pragma once

#include <QGraphicsView>

#include <optional>

class GraphScene;
class OverviewView;

class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphView(GraphScene *scene, QWidget *parent = nullptr);

    GraphScene *graphScene() const { return scene_; }
    OverviewView *overview() const { return overview_; }
    double zoom() const { return transform().m11(); }
    void zoomBy(double factor);                         // about the view's centre
    void zoomAt(double factor, const QPoint &view_pos); // keeping the scene point under view_pos
    // Follows the graph again and fits it: the whole graph, unless that would draw socket names
    // under the readable floor (then as much as fits at the floor, around keepInView()'s item).
    void fitAll();
    // F and the Fit button: the whole graph, however small, until the user zooms or pans.
    void showEverything();
    // The normal (desk) floor for follow-mode fits; presentation's setMinimumLabelPixels() is stricter.
    void setReadableLabelPixels(double pixels) { readable_label_pixels_ = pixels; }
    bool followsGraph() const { return follow_; }
    void setFollowsGraph(bool on) { follow_ = on; }
    void centerOnItem(const QGraphicsItem *item); // only if it is not fully visible
    QRectF visibleSceneRect() const;
    // Fitting never zooms out so far that a socket's name is drawn under `pixels` on screen
    // (presentation mode: readable from the back row; the view then follows the current step
    // instead of showing everything). 0: no floor.
    void setMinimumLabelPixels(double pixels);
    // Presentation: keep this item in sight without leaving follow mode; a fit that cannot
    // show everything at the label floor centres on it rather than on the graph's middle.
    void keepInView(const QGraphicsItem *item);
    double labelScreenPixels() const; // the socket-name font's pixel size at the current zoom

    static constexpr double kMinZoom = 0.01, kMaxZoom = 8, kMaxFitZoom = 1.6;

signals:
    void visibleRectChanged();
    void backgroundClicked();

protected:
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;
    bool viewportEvent(QEvent *event) override;

private:
    void placeOverview();
    void stopFollowing()
    {
        follow_ = false;
        show_everything_ = false;
    }
    void viewChanged();

    GraphScene *scene_;
    OverviewView *overview_;
    bool follow_ = true;
    double min_label_pixels_ = 0;
    double readable_label_pixels_ = 0;
    bool show_everything_ = false;
    std::optional<QPointF> focus_point_; // keepInView()'s item, in scene coordinates
    QPoint press_pos_;
    bool press_on_background_ = false;
};
