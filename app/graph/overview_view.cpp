// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/overview_view.h"

#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "theme.h"

#include <QMouseEvent>

OverviewView::OverviewView(GraphView *main, QWidget *parent) : QGraphicsView(main->scene(), parent), main_(main)
{
    setInteractive(false);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFrameShape(QFrame::Box);
    setLineWidth(1);
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Overview: click or drag to move the view"));
    connect(main->scene(), &QGraphicsScene::sceneRectChanged, this, [this] { refit(); });
}

void OverviewView::refit()
{
    const QRectF r = scene()->sceneRect();
    if (r.width() > 1 && r.height() > 1)
        fitInView(r, Qt::KeepAspectRatio);
    viewport()->update();
}

void OverviewView::resizeEvent(QResizeEvent *event)
{
    QGraphicsView::resizeEvent(event);
    refit();
}

void OverviewView::drawForeground(QPainter *painter, const QRectF & /*rect*/)
{
    const QRectF visible = main_->visibleSceneRect();
    QColor c = Theme::instance().selectionColor();
    painter->setPen(QPen(c, 0)); // cosmetic: 1 px whatever the scale
    c.setAlpha(40);
    painter->setBrush(c);
    painter->drawRect(visible);
}

void OverviewView::moveMainTo(const QPoint &pos)
{
    main_->setFollowsGraph(false);
    main_->centerOn(mapToScene(pos));
    viewport()->update();
}

void OverviewView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton)
        moveMainTo(event->pos());
}

void OverviewView::mouseMoveEvent(QMouseEvent *event)
{
    if (event->buttons() & Qt::LeftButton)
        moveMainTo(event->pos());
}

void OverviewView::wheelEvent(QWheelEvent *event) { event->accept(); }
