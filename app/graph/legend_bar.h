// SPDX-License-Identifier: GPL-3.0-or-later
// The key under the graph: what each fill colour (GC role), outline (socket type) and line
// (in-flight copy, copy on the hitlist, open fd) means. Wraps to more rows when narrow; past
// three rows only the colours are kept. The
// roles are the running collector's only, in its words (classic: candidate, maybe cycle, not
// cycle, garbage; graph: on the vertex stack, alive SCC, dead SCC); the shapes and lines start
// a row of their own.
#pragma once

#include <QStringList>
#include <QWidget>

#include <vector>

class LegendBar : public QWidget {
    Q_OBJECT
public:
    explicit LegendBar(QWidget *parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    // The entries' texts in order, "|" where a new row starts (for tests).
    QStringList entryTexts() const;
    // Only the colours (presentation mode: the shapes row gives the graph its height back).
    void setCompact(bool on);
    // What the graph draws now, by bits: 1 << GcRole for the roles, and the collector's marks.
    // A compact key names only these, so it explains every mark on screen in as few rows.
    enum Mark : unsigned { walk_numbers = 1, scc_hull = 2, examined_edge = 4, candidate_counts = 8, scan_cursor = 16 };
    void setOnGraph(unsigned roles, unsigned marks);

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    struct Entry;
    // Lays the entries out for `width`; returns the height used (and paints if a painter is given).
    int layoutEntries(int width, QPainter *painter, bool with_shapes) const;
    std::vector<Entry> entries(bool with_shapes) const;
    bool withShapes(int width) const; // not compact, and the whole key fits in three rows
    bool compact_ = false;
    double compact_scale_ = 0; // the theme's font scale when it became compact
    unsigned roles_on_graph_ = ~0u, marks_on_graph_ = ~0u;
};
