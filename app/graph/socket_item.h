// SPDX-License-Identifier: GPL-3.0-or-later
// One socket. The outline tells the type (stream: rounded box, dgram: cut corners, seqpacket:
// square box with bars), the fill its GC role at this step; a listener has a double border and
// holds its unaccepted embryos (child SocketItems) in an "accept queue" strip; an embryo is a
// small dotted box; a released socket fades (low opacity, dashed outline) instead of vanishing.
#pragma once

#include "graph/node_item.h"
#include "inflight/graph_snapshot.hpp"

#include <vector>

class SocketItem : public NodeItem {
public:
    enum { Type = UserType + 1 };
    // `label`: the node's label (the snapshot keeps it as a name id: GraphSnapshot::label_of).
    SocketItem(const inflight::SnapshotNode &node, QString label, bool graph_era, QGraphicsItem *parent = nullptr);

    int type() const override { return Type; }
    std::uint32_t sock() const { return node_.sock; }
    const inflight::SnapshotNode &node() const { return node_; }
    const QString &label() const { return label_; }
    bool isEmbryoChild() const { return parentItem() != nullptr; }

    // New state at this step. Returns true when the box changed size.
    bool setNode(const inflight::SnapshotNode &node, const QString &label, bool graph_era);
    // For a listener: the embryo items it holds (children of this item). Returns true when the
    // box changed size.
    bool setEmbryos(const std::vector<SocketItem *> &embryos);
    // Drops the list without re-arranging (before embryo items are deleted).
    void forgetEmbryos() { embryos_.clear(); }
    // How many open fds (of all processes) refer to it: drawn as a tab on its left side.
    void setOpenFds(int count);
    int openFds() const { return open_fds_; }
    // Recomputes sizes after a theme change.
    void restyle();

    QString countsText() const;
    QPainterPath outline() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;
    QString describe() const override;

private:
    bool relayout();
    double headerHeight() const;

    inflight::SnapshotNode node_;
    QString label_;
    bool graph_era_ = false;
    std::vector<SocketItem *> embryos_;
    QString counts_;
    int open_fds_ = 0;
};

// Plain-words explanation of a GC role (shared with the legend and aggregate tooltips).
QString roleExplanation(inflight::GcRole role, bool graph_era);
QString roleName(inflight::GcRole role);
QString sockTypeName(inflight::SockType type);
