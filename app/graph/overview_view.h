// SPDX-License-Identifier: GPL-3.0-or-later
// The bird's-eye view: the whole graph, small, in a corner of the big view, with the big
// view's visible area outlined. Click or drag in it to move the big view there.
#pragma once

#include <QGraphicsView>

class GraphView;

class OverviewView : public QGraphicsView {
    Q_OBJECT
public:
    OverviewView(GraphView *main, QWidget *parent = nullptr);

protected:
    void drawForeground(QPainter *painter, const QRectF &rect) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;

private:
    void refit();
    void moveMainTo(const QPoint &pos);

    GraphView *main_;
};
