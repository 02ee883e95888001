// SPDX-License-Identifier: GPL-3.0-or-later
// The graph walk's numbers on a vertex it follows (graph era): a badge over the socket's top edge
// reading "index / scc_index", with the vertex's place on the walk's stack ("#2", counted from
// the bottom) while it is on it. A lesson on Tarjan's walk is read from these: an SCC is cut off
// the stack at the vertex whose two numbers are equal. A child of the socket, so it moves with it.
#pragma once

#include "graph/graph_item.h"
#include "inflight/graph_snapshot.hpp"

class SocketItem;

class WalkMarkItem : public GraphItem {
public:
    enum { Type = UserType + 21 };
    WalkMarkItem(SocketItem *socket, const inflight::SnapshotWalkMark &mark);

    int type() const override { return Type; }
    const inflight::SnapshotWalkMark &mark() const { return mark_; }
    // True when the numbers changed.
    bool setMark(const inflight::SnapshotWalkMark &mark);
    // "3 / 2": what the badge reads (the stack place beside it).
    QString numbersText() const;
    QString placeText() const; // "#2", or empty once cut off the stack
    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;
    QString describe() const override;

private:
    QFont numbersFont() const;
    QFont placeFont() const;
    QRectF badge() const;

    SocketItem *socket_;
    inflight::SnapshotWalkMark mark_;
};
