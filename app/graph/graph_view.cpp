// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/graph_view.h"

#include "graph/graph_style.h"

#include "graph/graph_item.h"
#include "graph/graph_scene.h"
#include "graph/node_item.h"
#include "graph/overview_view.h"
#include "theme.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QLineF>
#include <QScrollBar>
#include <QToolTip>
#include <QVariantAnimation>
#include <QWheelEvent>

#include <algorithm>

#include <cmath>

GraphView::GraphView(GraphScene *scene, QWidget *parent) : QGraphicsView(scene, parent), scene_(scene)
{
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFrameShape(QFrame::NoFrame);
    setFocusPolicy(Qt::StrongFocus);
    setOptimizationFlags(QGraphicsView::DontSavePainterState);
    overview_ = new OverviewView(this, this);
    overview_->hide();
    camera_move_ = new QVariantAnimation(this);
    camera_move_->setDuration(kCameraMs);
    camera_move_->setEasingCurve(QEasingCurve::InOutCubic);
    connect(camera_move_, &QVariantAnimation::valueChanged, this, [this](const QVariant &v) {
        centerOn(v.toPointF());
        viewChanged();
    });
    connect(scene_, &GraphScene::layoutApplied, this, [this] {
        if (follow_)
            fitAll();
        viewChanged();
    });
    // The rect grows once the edges are routed after a move: a view that follows fits again.
    connect(scene_, &QGraphicsScene::sceneRectChanged, this, [this] {
        if (follow_)
            fitAll();
        else
            viewChanged();
    });
}

QRectF GraphView::visibleSceneRect() const { return mapToScene(viewport()->rect()).boundingRect(); }

void GraphView::zoomAt(double factor, const QPoint &view_pos)
{
    const double z = zoom();
    factor = std::clamp(z * factor, kMinZoom, kMaxZoom) / z;
    if (std::abs(factor - 1) < 1e-9)
        return;
    const QPointF before = mapToScene(view_pos);
    const ViewportAnchor anchor = transformationAnchor();
    setTransformationAnchor(QGraphicsView::NoAnchor);
    scale(factor, factor);
    // Keep the scene point under the cursor where it was.
    const QPointF after = mapToScene(view_pos);
    const QPointF delta = after - before;
    centerOn(mapToScene(viewport()->rect().center()) - delta);
    setTransformationAnchor(anchor);
    viewChanged();
}

void GraphView::zoomBy(double factor)
{
    stopFollowing();
    zoomAt(factor, viewport()->rect().center());
}

double GraphView::fitZoom(const QRectF &rect) const
{
    const QRectF port = viewport()->rect();
    if (rect.width() <= 0 || rect.height() <= 0 || port.width() <= 2 || port.height() <= 2)
        return zoom();
    // fitInView()'s own margin: two pixels each side.
    return std::min((port.width() - 4) / rect.width(), (port.height() - 4) / rect.height());
}

double GraphView::labelFloorPixels() const
{
    return show_everything_ ? 0.0 : std::max(min_label_pixels_, readable_label_pixels_);
}

void GraphView::fitAll()
{
    follow_ = true;
    const QRectF r = scene_->sceneRect();
    if (r.width() <= 1 || r.height() <= 1)
        return;
    camera_move_->stop();
    const double label_px = graphStyle().label.pixelSize();
    const double pixels = labelFloorPixels();
    const double floor = pixels > 0 && label_px > 0 ? pixels / label_px : 0;
    const double whole = fitZoom(r);
    const double z = std::clamp(whole, std::min(floor, kMaxFitZoom), kMaxFitZoom);
    setTransform(QTransform::fromScale(z, z));
    if (z <= whole) {
        centerOn(r.center());
    } else if (subject_) {
        // Closer than the whole graph: the subject stays where it is if it is in sight.
        const QRectF seen = visibleSceneRect();
        if (!seen.contains(*subject_))
            centerOn(framingCentre(*subject_, seen));
    } else {
        // No subject yet: the top left, where the processes and the first sockets are.
        const QRectF seen = visibleSceneRect();
        centerOn(r.topLeft() + QPointF(seen.width() / 2, seen.height() / 2));
    }
    viewChanged();
}

void GraphView::showEverything()
{
    show_everything_ = true;
    fitAll();
}

void GraphView::frameSubject(const QRectF &wanted)
{
    // Only the part inside the scene can be brought into view (its margin is narrower than
    // the subject's).
    // A margin round it where the view has the room: a subject that just fits is shown whole
    // rather than its margin.
    const QRectF seen = visibleSceneRect();
    const double mx = std::clamp((seen.width() - wanted.width()) / 2, 0.0, kSubjectMargin);
    const double my = std::clamp((seen.height() - wanted.height()) / 2, 0.0, kSubjectMargin);
    const QRectF subject = wanted.adjusted(-mx, -my, mx, my) & scene_->sceneRect();
    if (subject.isEmpty())
        return;
    subject_ = subject;
    if (!follow_)
        return; // the user zoomed or panned: the view is theirs
    if (seen.contains(subject))
        return;
    moveCameraTo(framingCentre(subject, seen));
}

bool GraphView::fitsWithMargin(const QRectF &subject) const
{
    const QRectF seen = visibleSceneRect();
    return subject.width() + 2 * kSubjectMargin <= seen.width() &&
           subject.height() + 2 * kSubjectMargin <= seen.height();
}

QPointF GraphView::framingCentre(const QRectF &subject, const QRectF &seen)
{
    // Centred, or as much of it as fits: its top left part, where a row of sockets starts (the
    // centre of a subject larger than the view may fall between its parts and show none).
    QPointF to = subject.center();
    if (subject.width() > seen.width())
        to.setX(subject.left() + seen.width() / 2);
    if (subject.height() > seen.height())
        to.setY(subject.top() + seen.height() / 2);
    return to;
}

void GraphView::moveCameraTo(const QPointF &wanted)
{
    // Where the view can go: its centre stays far enough inside the scene for the view to
    // stay in it (centerOn() would stop there too).
    const QRectF scene = scene_->sceneRect(), seen = visibleSceneRect();
    auto reachable = [](double v, double lo, double hi, double half) {
        return hi - lo <= 2 * half ? (lo + hi) / 2 : std::clamp(v, lo + half, hi - half);
    };
    const QPointF centre(reachable(wanted.x(), scene.left(), scene.right(), seen.width() / 2),
                         reachable(wanted.y(), scene.top(), scene.bottom(), seen.height() / 2));
    const QPointF from = mapToScene(viewport()->rect().center());
    // A subject a few pixels short of the edge is seen: no move for it.
    constexpr double kLeastMovePixels = 8;
    if (QLineF(mapFromScene(from), mapFromScene(centre)).length() < kLeastMovePixels)
        return;
    camera_move_->stop();
    if (!isVisible()) {
        centerOn(centre);
        viewChanged();
        return;
    }
    camera_move_->setStartValue(from);
    camera_move_->setEndValue(centre);
    camera_move_->start();
}

bool GraphView::cameraMoving() const { return camera_move_->state() == QAbstractAnimation::Running; }

void GraphView::finishCameraMove()
{
    if (!cameraMoving())
        return;
    const QPointF to = camera_move_->endValue().toPointF();
    camera_move_->stop();
    centerOn(to);
    viewChanged();
}

void GraphView::setMinimumLabelPixels(double pixels)
{
    min_label_pixels_ = pixels;
    if (follow_)
        fitAll();
}

double GraphView::labelScreenPixels() const { return zoom() * graphStyle().label.pixelSize(); }

GraphView::Camera GraphView::camera() const
{
    return {transform(), mapToScene(viewport()->rect().center()), follow_, show_everything_};
}

void GraphView::setCamera(const Camera &camera)
{
    camera_move_->stop();
    follow_ = camera.follow;
    show_everything_ = camera.show_everything;
    if (follow_) {
        fitAll();
        return;
    }
    setTransform(camera.transform);
    centerOn(camera.centre);
    viewChanged();
}

void GraphView::centerOnItem(const QGraphicsItem *item)
{
    if (!item)
        return;
    const QRectF r = item->sceneBoundingRect();
    if (!visibleSceneRect().contains(r)) {
        stopFollowing();
        centerOn(r.center());
        viewChanged();
    }
}

void GraphView::wheelEvent(QWheelEvent *event)
{
    camera_move_->stop();
    stopFollowing();
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0)
        zoomAt(std::pow(1.2, steps), event->position().toPoint());
    event->accept();
}

void GraphView::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_F: showEverything(); return;
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomBy(1.25); return;
    case Qt::Key_Minus: zoomBy(1 / 1.25); return;
    case Qt::Key_0:
        stopFollowing();
        setTransform(QTransform());
        viewChanged();
        return;
    default: QGraphicsView::keyPressEvent(event);
    }
}

void GraphView::mousePressEvent(QMouseEvent *event)
{
    press_pos_ = event->pos();
    press_on_background_ = true;
    for (QGraphicsItem *item : items(event->pos()))
        if (dynamic_cast<NodeItem *>(item))
            press_on_background_ = false;
    QGraphicsView::mousePressEvent(event);
}

void GraphView::mouseReleaseEvent(QMouseEvent *event)
{
    QGraphicsView::mouseReleaseEvent(event);
    const QPoint d = event->pos() - press_pos_;
    if (event->button() == Qt::LeftButton && press_on_background_ && d.manhattanLength() < 4)
        emit backgroundClicked();
    else if (press_on_background_)
        stopFollowing(); // the user panned
}

void GraphView::resizeEvent(QResizeEvent *event)
{
    QGraphicsView::resizeEvent(event);
    if (follow_)
        fitAll();
    placeOverview();
    viewChanged();
}

void GraphView::scrollContentsBy(int dx, int dy)
{
    QGraphicsView::scrollContentsBy(dx, dy);
    viewChanged();
}

void GraphView::placeOverview()
{
    // Small in a small pane (a projector's), where it must not hide what the step is about.
    const int w = qBound(110, width() / 5, 320), h = qBound(70, height() / 4, 220);
    overview_->setGeometry(width() - w - 8, height() - h - 8, w, h);
}

void GraphView::viewChanged()
{
    // The overview shows up as soon as part of the graph is off screen (presenting too: the
    // class sees where the camera is), in a view at least three maps wide and high: in a
    // smaller one it would hide the very sockets the step is about.
    const QRectF content = scene_->sceneRect().adjusted(30, 30, -30, -30);
    const bool room = width() >= 3 * overview_->width() && height() >= 3 * overview_->height();
    overview_->setVisible(room && content.isValid() && !visibleSceneRect().contains(content));
    overview_->viewport()->update();
    emit visibleRectChanged();
}

bool GraphView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        for (QGraphicsItem *item : items(help->pos())) {
            if (auto *g = dynamic_cast<GraphItem *>(item)) {
                QToolTip::showText(help->globalPos(),
                                   QStringLiteral("<table width=440><tr><td>%1</td></tr></table>").arg(g->describe()),
                                   viewport());
                return true;
            }
        }
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    return QGraphicsView::viewportEvent(event);
}
