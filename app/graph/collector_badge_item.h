// SPDX-License-Identifier: GPL-3.0-or-later
// The numbers a collector decides a socket by, on a badge over the socket's top edge:
//  * the graph walk (6.10+): "index / scc_index", with the vertex's place on the walk's stack
//    ("#2", counted from the bottom) while it is on it. A lesson on Tarjan's walk is read from
//    these: an SCC is cut off the stack at the vertex whose two numbers are equal;
//  * the classic scan (up to 6.9): a candidate's "file refs / inflight". It became a candidate
//    because the two were equal; the scan's decrements take inflight down, and what is left
//    above 0 is referenced from outside the candidates.
// A child of the socket, so it moves with it.
#pragma once

#include "graph/graph_item.h"
#include "inflight/graph_snapshot.hpp"

class SocketItem;

class CollectorBadgeItem : public GraphItem {
public:
    enum { Type = UserType + 21 };
    CollectorBadgeItem(SocketItem *socket, const inflight::SnapshotWalkMark &mark);
    // A classic candidate's counts.
    CollectorBadgeItem(SocketItem *socket, std::int32_t file_refs, std::int32_t inflight);
    int type() const override { return Type; }
    bool isWalkMark() const { return walk_; }
    const inflight::SnapshotWalkMark &mark() const { return mark_; }
    // True when the numbers changed.
    bool setMark(const inflight::SnapshotWalkMark &mark);
    bool setCounts(std::int32_t file_refs, std::int32_t inflight);

    // "3 / 2": what the badge reads (the stack place beside it).
    QString numbersText() const;
    QString placeText() const; // "#2", or empty once cut off the stack (and for counts)

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;
    QString describe() const override;

private:
    QFont numbersFont() const;
    QFont placeFont() const;
    QRectF badge() const;

    SocketItem *socket_;
    bool walk_;
    inflight::SnapshotWalkMark mark_{};
    std::int32_t file_refs_ = 0, inflight_ = 0;
};
