// SPDX-License-Identifier: GPL-3.0-or-later
// Where the classic collection is: an arrow at the left of the socket whose queue it scans
// (decrementing, or sending to the hitlist) or that the restore walk's cursor has just passed,
// in the orange of the edge the graph walk examines: "the collector is here". A child of the
// socket, so it moves with it.
#pragma once

#include "graph/graph_item.h"

class SocketItem;

class ScanCursorItem : public GraphItem {
public:
    enum { Type = UserType + 23 };
    explicit ScanCursorItem(SocketItem *socket);
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;
    QString describe() const override;

private:
    QPolygonF arrow() const;
    SocketItem *socket_;
};
