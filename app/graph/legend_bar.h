// SPDX-License-Identifier: GPL-3.0-or-later
// The key under the graph: what each fill colour (GC role), outline (socket type) and line
// (in-flight copy, copy on the hitlist, open fd) means. Wraps to more rows when narrow.
#pragma once

#include <QWidget>

class LegendBar : public QWidget {
    Q_OBJECT
public:
    explicit LegendBar(QWidget *parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    struct Entry;
    // Lays the entries out for `width`; returns the height used (and paints if a painter is given).
    int layoutEntries(int width, QPainter *painter) const;
};
