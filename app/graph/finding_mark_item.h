// SPDX-License-Identifier: GPL-3.0-or-later
// The marker of a finding (a kernel WARN, a use-after-free, a leak) on an object it names: a
// thick red ring around the node's box with a warning sign, a child of the node so it moves
// with it. Its tooltip is the finding.
#pragma once

#include "graph/graph_item.h"

class NodeItem;

class FindingMarkItem : public GraphItem {
public:
    enum { Type = UserType + 20 };
    FindingMarkItem(NodeItem *node, QString finding);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;
    QString describe() const override;

private:
    QRectF ring() const;

    NodeItem *node_;
    QString finding_;
};
