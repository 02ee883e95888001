// SPDX-License-Identifier: GPL-3.0-or-later
// An open fd: a dashed arrow from a process's fd row to the socket it refers to (or, next to
// an aggregate, one arrow for all of a process's fds into it, with a count). This is what
// makes "reachable from an open fd" visible.
#pragma once

#include "graph/edge_geometry.h"
#include "graph/graph_item.h"

class NodeItem;
class ProcessItem;

class FdEdgeItem : public GraphItem {
public:
    enum { Type = UserType + 5 };
    explicit FdEdgeItem(std::uint64_t key);

    int type() const override { return Type; }
    std::uint64_t key() const { return key_; }
    void setEnds(ProcessItem *process, NodeItem *to, int fd, const QString &fd_name, const QString &to_label,
                 std::uint32_t count);
    ProcessItem *process() const { return process_; }
    NodeItem *to() const { return to_; }
    int fd() const { return fd_; }
    std::uint32_t count() const { return count_; }
    // A process with many fds: its edges are drawn only when emphasized (the selected socket's);
    // the sockets' fd tabs say the rest.
    void setFaint(bool faint);
    bool isFaint() const { return faint_; }
    void setEmphasized(bool on);
    bool isDrawn() const { return !faint_ || emphasized_; }

    void route(const edge_geometry::Obstacles *obstacles);
    QPointF startPoint() const { return curve_.start; }
    QPointF endPoint() const { return curve_.end; }

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;
    QString describe() const override;

private:
    std::uint64_t key_;
    ProcessItem *process_ = nullptr;
    NodeItem *to_ = nullptr;
    int fd_ = -1;
    QString fd_name_, to_label_;
    std::uint32_t count_ = 1;
    bool faint_ = false, emphasized_ = false;
    edge_geometry::Curve curve_;
    QRectF bounds_;
};
