// SPDX-License-Identifier: GPL-3.0-or-later
// The big view of the graph: wheel and +/- zoom about the cursor, drag to pan, F to fit. Until
// the user zooms or pans it follows the graph (fits after every layout); F returns to that.
// A graph too large to show whole at the label floor is followed by a camera that frames the
// step's subject, moving only when the subject leaves the view.
// Hover tooltips come from the items' describe(). Items pick their level of detail from the
// view's transform, so zoomed out the graph is drawn as plain boxes.
#pragma once

#include <QGraphicsView>

#include <optional>

class GraphScene;
class OverviewView;
class QVariantAnimation;

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
    // under the readable floor (then the camera: the subject at the floor's zoom).
    void fitAll();
    // F and the Fit button: the whole graph, however small (names under kTextLod's size are
    // drawn as plain boxes), until the user zooms or pans.
    void showEverything();
    // The normal (desk) floor for follow-mode fits; presentation's setMinimumLabelPixels() is stricter.
    void setReadableLabelPixels(double pixels) { readable_label_pixels_ = pixels; }
    bool followsGraph() const { return follow_; }
    void setFollowsGraph(bool on) { follow_ = on; }
    void centerOnItem(const QGraphicsItem *item); // only if it is not fully visible
    QRectF visibleSceneRect() const;
    // Fitting never zooms out so far that a socket's name is drawn under `pixels` on screen
    // (presentation mode: readable from the back row; the camera then frames the subject
    // instead of showing everything). 0: no floor.
    void setMinimumLabelPixels(double pixels);
    double labelFloorPixels() const; // the floor follow-mode fits keep to (0: none)
    // The camera: what the step is about, in scene coordinates. While the view follows the
    // graph and cannot show all of it at the floor, a subject out of sight is brought into view
    // in one smooth move (kCameraMs); a subject already in sight moves nothing. `wanted` is
    // the subject's own box: the view adds a margin where it has the room.
    // The room frameSubject() leaves round a subject, where the view has it, in scene units.
    static constexpr double kSubjectMargin = 20;
    void frameSubject(const QRectF &wanted);
    // Whether `subject` (scene units) fits the view at its zoom with that room round it.
    bool fitsWithMargin(const QRectF &subject) const;
    bool cameraMoving() const;
    void finishCameraMove();          // tests: jump to where the running move ends
    double labelScreenPixels() const; // the socket-name font's pixel size at the current zoom
    // Presentation mode's way back: the transform, centre and follow state to restore.
    struct Camera {
        QTransform transform;
        QPointF centre;
        bool follow = true, show_everything = false;
    };
    Camera camera() const;
    void setCamera(const Camera &camera);

    static constexpr int kCameraMs = 250;
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
    void moveCameraTo(const QPointF &wanted);
    // Where the view's centre goes to show `subject` in a view of `seen`'s size.
    static QPointF framingCentre(const QRectF &subject, const QRectF &seen);
    double fitZoom(const QRectF &rect) const;

    GraphScene *scene_;
    OverviewView *overview_;
    bool follow_ = true;
    double min_label_pixels_ = 0;
    double readable_label_pixels_ = 0;
    bool show_everything_ = false;
    std::optional<QRectF> subject_; // frameSubject()'s, in scene coordinates
    QVariantAnimation *camera_move_ = nullptr;
    QPoint press_pos_;
    bool press_on_background_ = false;
};
