// SPDX-License-Identifier: GPL-3.0-or-later
// Many identical strongly connected groups drawn as one node: a stack of cards titled
// "16 sockets × 2000" with the shape in words ("ring · stream") and a bar showing how many of
// the member sockets have each GC role at this step. Double-click expands it (GraphScene).
#pragma once

#include "graph/display_graph.h"
#include "graph/node_item.h"

#include <array>

class AggregateItem : public NodeItem {
public:
    enum { Type = UserType + 3 };
    static constexpr int kRoles = 7;

    explicit AggregateItem(const graph::AggregateGroup &group);
    int type() const override { return Type; }
    const graph::AggregateGroup &group() const { return group_; }
    std::size_t instanceCount() const { return group_.instances.size(); }

    bool setGroup(const graph::AggregateGroup &group); // true when the size changed
    void setRoleCounts(const std::array<std::uint32_t, kRoles> &counts);
    void restyle();
    QString title() const;

    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;
    QString describe() const override;

private:
    bool relayout();

    graph::AggregateGroup group_;
    std::array<std::uint32_t, kRoles> roles_{};
};
