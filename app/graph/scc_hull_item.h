// SPDX-License-Identifier: GPL-3.0-or-later
// An SCC of the running graph collection drawn around its members: a shaded hull from the step
// the walk cuts it off the stack (or the fast path takes its ring) to the collection's end,
// with a caption giving its verdict and, when alive, what keeps it alive. The fill follows the
// verdict's role colour; a dead SCC is also hatched and a ring's outline dashed, so neither is
// told by colour alone.
#pragma once

#include "graph/graph_item.h"
#include "inflight/graph_snapshot.hpp"

#include <QPainterPath>

class SccHullItem : public GraphItem {
public:
    enum { Type = UserType + 22 };
    SccHullItem(const inflight::SnapshotScc &scc, QString caption);
    int type() const override { return Type; }

    const inflight::SnapshotScc &scc() const { return scc_; }
    QString caption() const { return caption_; }
    // True when the verdict or caption changed.
    bool setScc(const inflight::SnapshotScc &scc, QString caption);
    // Wraps the members' boxes (scene coordinates) in a convex hull, or in a bubble round them
    // where the hull would take in a box of `taken` (every box drawn) that is not a member; its
    // caption under it or, when `taken` has no room there, over it.
    void reshape(const std::vector<QRectF> &member_boxes, const std::vector<QRectF> &taken);
    QRectF captionRect() const { return caption_rect_; }
    // The caption is an item of its own, over the boxes (the hull is under them); the scene adds
    // it beside the hull, and it goes with the hull.
    GraphItem *captionItem() const { return caption_item_; }
    ~SccHullItem() override;

    QRectF boundingRect() const override;
    QPainterPath shape() const override { return hull_; }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;
    QString describe() const override;

private:
    class Caption;
    QFont captionFont() const;
    void paintCaption(QPainter *painter) const;
    inflight::SnapshotScc scc_;
    QString caption_;
    QPainterPath hull_;
    QRectF caption_rect_;
    GraphItem *caption_item_; // last: its constructor reads the hull's other members
};
