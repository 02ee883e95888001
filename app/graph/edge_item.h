// SPDX-License-Identifier: GPL-3.0-or-later
// One in-flight file copy (A → B: A's file sits in B's receive queue), or - next to an
// aggregate - a bundle of copies drawn once with a count. Into an unaccepted embryo the arrow
// ends at the embryo, which sits inside its listener's box. A copy on the collector's hitlist
// is drawn red, thick and dash-dotted.
#pragma once

#include "graph/display_graph.h"
#include "graph/edge_geometry.h"
#include "graph/graph_item.h"
#include "inflight/graph_snapshot.hpp"

class NodeItem;

class EdgeItem : public GraphItem {
public:
    enum { Type = UserType + 4 };
    explicit EdgeItem(std::uint64_t key);

    int type() const override { return Type; }
    std::uint64_t key() const { return key_; }
    bool isBundle() const { return bundle_count_ > 0; }
    std::uint32_t count() const { return bundle_count_ ? bundle_count_ : 1; }

    void setEnds(NodeItem *from, NodeItem *to);
    NodeItem *from() const { return from_; }
    NodeItem *to() const { return to_; }
    void setLane(int index, int count, bool flip);
    void setCopy(const inflight::SnapshotEdge &edge, const QString &from_label, const QString &to_label,
                 const QString &listener_label);
    void setBundle(const graph::BundleEdge &bundle, const QString &from_text, const QString &to_text);
    const inflight::SnapshotEdge &copy() const { return copy_; }
    // The same copy at a later step (only on_hitlist can differ).
    void updateCopy(const inflight::SnapshotEdge &edge);
    void setHitlist(std::uint32_t on_hitlist); // copies of this edge on the hitlist
    // The graph walk examines this edge at this step (descends it, backtracks over it, or reads
    // its successor's scc_index): drawn with a wide halo.
    void setExamined(bool examined);
    bool isExamined() const { return examined_; }

    // Recomputes the curve from the ends' current positions.
    void route(const edge_geometry::Obstacles *obstacles);
    QPointF startPoint() const { return curve_.start; }
    QPointF endPoint() const { return curve_.end; }
    QPainterPath path() const { return curve_.path; }

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;
    QString describe() const override;

private:
    std::uint64_t key_;
    NodeItem *from_ = nullptr, *to_ = nullptr;
    int lane_ = 0, lanes_ = 1;
    bool flip_ = false;
    inflight::SnapshotEdge copy_;
    QString from_label_, to_label_, listener_label_;
    std::uint32_t bundle_count_ = 0;
    std::uint32_t hitlist_ = 0;
    bool examined_ = false;
    edge_geometry::Curve curve_;
    QRectF bounds_;
};
