// SPDX-License-Identifier: GPL-3.0-or-later
// A process: the root of reachability. A box with a title band ("main · root") and one row per
// open fd ("3  a": fd number and the scene's name for it). Each fd row is where the dashed fd
// edge to its socket starts. A table longer than the box summarises runs of fds whose names
// differ only in a trailing number as one row in the scene's own range notation
// ("5-1994  s3_{0..1989}", the 1,990 sockets a `repeat` made), then shows "+ N more".
#pragma once

#include "graph/node_item.h"
#include "inflight/graph_snapshot.hpp"

#include <memory>
#include <vector>

class ProcessItem : public NodeItem {
public:
    enum { Type = UserType + 2 };
    static constexpr int kMaxRows = 24;

    // The snapshot's process at `index`, shared with the snapshot (it names the fds too): the
    // million-bind scene's process has a million fds, and a copy per item would hold them again.
    ProcessItem(std::shared_ptr<const inflight::GraphSnapshot> snapshot, std::size_t index);
    int type() const override { return Type; }
    std::uint32_t processId() const { return process().id; }
    const inflight::SnapshotProcess &process() const { return snapshot_->processes[index_]; }

    // Returns true when the box changed size.
    bool setProcess(std::shared_ptr<const inflight::GraphSnapshot> snapshot, std::size_t index);
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
    struct Row {
        QString text;
        int first_fd = 0;
    };
    bool relayout();
    void buildRows();
    QString title() const; // "main · root"; compact: "main"
    double titleHeight() const;
    double rowHeight() const;

    std::shared_ptr<const inflight::GraphSnapshot> snapshot_;
    std::size_t index_ = 0;
    // At most kMaxRows, the last may be "+ N more fds". In fd order, as the snapshot lists them:
    // a row holds the fds from its first_fd to the next row's (searched, not a map per fd).
    std::vector<Row> rows_;
};
