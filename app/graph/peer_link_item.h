// SPDX-License-Identifier: GPL-3.0-or-later
// The link between two peers (unix_peer): the ends of a socketpair, a client and the socket
// accept() gave. Drawn as a short double line between the boxes, under the arrows: it shows
// why `send a2` lands in a's queue. The layout keeps peers side by side (an extra edge each).
#pragma once

#include "graph/graph_item.h"

#include <QLineF>

class NodeItem;

class PeerLinkItem : public GraphItem {
public:
    enum { Type = UserType + 7 };
    PeerLinkItem(NodeItem *a, NodeItem *b);

    int type() const override { return Type; }
    NodeItem *a() const { return a_; }
    NodeItem *b() const { return b_; }
    void setEnds(NodeItem *a, NodeItem *b);
    // Follow the boxes (after a layout or an animation frame).
    void sync();
    QLineF line() const { return line_; }

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;
    QString describe() const override;

private:
    NodeItem *a_;
    NodeItem *b_;
    QLineF line_;
};
