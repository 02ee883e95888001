// SPDX-License-Identifier: GPL-3.0-or-later
// The common base of every item the graph scene draws: it can explain itself in plain words
// (the view shows that as the hover tooltip) and knows how much detail the painter can afford.
#pragma once

#include <QGraphicsItem>
#include <QString>

class QPainter;
class QStyleOptionGraphicsItem;

class GraphItem : public QGraphicsItem {
public:
    using QGraphicsItem::QGraphicsItem;
    // Rich text for the tooltip: what this is and what each number means.
    virtual QString describe() const = 0;

    // Level of detail of the current paint: 1 = natural size. Below kPlainLod items draw plain
    // shapes, below kTextLod no text.
    static double lod(const QStyleOptionGraphicsItem *option, const QPainter *painter);
    static constexpr double kPlainLod = 0.2;
    static constexpr double kTextLod = 0.4;
};
