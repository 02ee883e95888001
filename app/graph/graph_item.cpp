// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/graph_item.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

double GraphItem::lod(const QStyleOptionGraphicsItem *option, const QPainter *painter)
{
    return option ? QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform()) : 1.0;
}
