// SPDX-License-Identifier: GPL-3.0-or-later
// A process: the root of reachability. A box with a title band ("main · root") and one row per
// open fd ("3  a": fd number and the scene's name for it). Each fd row is where the dashed fd
// edge to its socket starts. Long fd tables show the first rows and "+ N more".
#pragma once

#include "graph/node_item.h"
#include "inflight/graph_snapshot.hpp"

class ProcessItem : public NodeItem {
public:
    enum { Type = UserType + 2 };
    static constexpr int kMaxRows = 24;

    explicit ProcessItem(const inflight::SnapshotProcess &process);
    int type() const override { return Type; }
    std::uint32_t processId() const { return process_.id; }
    const inflight::SnapshotProcess &process() const { return process_; }

    // Returns true when the box changed size.
    bool setProcess(const inflight::SnapshotProcess &process);
    void restyle();
    // The number of fd rows drawn (the last may be "+ N more").
    int rowCount() const;
    // Row text, for tests and the DOT export: "3  a".
    QString rowText(int row) const;
    // Scene point on the right edge of the row listing `fd` (the "+ N more" row for the rest).
    QPointF fdAnchor(int fd) const;

    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;
    QString describe() const override;

private:
    bool relayout();
    double titleHeight() const;
    double rowHeight() const;

    inflight::SnapshotProcess process_;
};
