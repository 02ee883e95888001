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
#include <QScrollBar>
#include <QToolTip>
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
    connect(scene_, &GraphScene::layoutApplied, this, [this] {
        if (follow_)
            fitAll();
        viewChanged();
    });
    connect(scene_, &QGraphicsScene::sceneRectChanged, this, [this] { viewChanged(); });
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

void GraphView::fitAll()
{
    follow_ = true;
    const QRectF r = scene_->sceneRect();
    if (r.width() <= 1 || r.height() <= 1)
        return;
    fitInView(r, Qt::KeepAspectRatio);
    const double label_px = graphStyle().label.pixelSize();
    const double pixels = std::max(min_label_pixels_, show_everything_ ? 0.0 : readable_label_pixels_);
    const double floor = pixels > 0 && label_px > 0 ? pixels / label_px : 0;
    const double z = std::clamp(zoom(), std::min(floor, kMaxFitZoom), kMaxFitZoom);
    if (z != zoom()) {
        setTransform(QTransform::fromScale(z, z));
        centerOn(focus_point_ && pixels > 0 ? *focus_point_ : r.center());
    }
    viewChanged();
}

void GraphView::showEverything()
{
    show_everything_ = true;
    fitAll();
}

void GraphView::keepInView(const QGraphicsItem *item)
{
    if (!item)
        return;
    const QRectF r = item->sceneBoundingRect();
    focus_point_ = r.center();
    if (!visibleSceneRect().contains(r)) {
        centerOn(r.center());
        viewChanged();
    }
}

void GraphView::setMinimumLabelPixels(double pixels)
{
    min_label_pixels_ = pixels;
    if (pixels <= 0)
        focus_point_.reset();
    if (follow_)
        fitAll();
}

double GraphView::labelScreenPixels() const { return zoom() * graphStyle().label.pixelSize(); }

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
    const int w = qBound(160, width() / 5, 320), h = qBound(110, height() / 5, 220);
    overview_->setGeometry(width() - w - 10, height() - h - 10, w, h);
}

void GraphView::viewChanged()
{
    // The overview shows up as soon as part of the graph is off screen (not when presenting:
    // the close-up follows the step, and the map would cover a corner of it), and only in a
    // view at least three maps wide and high: in a small panel (a projector's 1280x800 with
    // every dock open) it would hide the very sockets the step is about.
    const QRectF content = scene_->sceneRect().adjusted(30, 30, -30, -30);
    const bool room = width() >= 3 * overview_->width() && height() >= 3 * overview_->height();
    overview_->setVisible(min_label_pixels_ <= 0 && room && content.isValid() &&
                          !visibleSceneRect().contains(content));
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
