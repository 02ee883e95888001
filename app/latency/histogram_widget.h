// SPDX-License-Identifier: GPL-3.0-or-later
// One funclatency histogram drawn as bars: a row per power-of-two bucket from the first
// non-empty one to the last, the range in monospace digits, the count, and a bar scaled to the
// fullest bucket, with funclatency's avg/total/count line under it. Readable on a projector: it
// follows the theme's font scale. Hovering a row highlights it; clicking it emits the bucket's
// range. The latency panel shows one per group and two side by side for A/B; the autobind panel
// uses it for its probe counts (setValueLabel()).
#pragma once

#include "inflight/log2_histogram.hpp"

#include <QString>
#include <QVector>
#include <QWidget>

#include <cstdint>

namespace latency {

class HistogramWidget : public QWidget {
    Q_OBJECT
public:
    explicit HistogramWidget(QWidget *parent = nullptr);

    // The histogram to draw (copied, in its own unit); setUnit() re-buckets it, as funclatency
    // -u/-m would.
    void setHistogram(const inflight::Log2Histogram &h);
    const inflight::Log2Histogram &histogram() const { return hist_; }
    void setTitle(const QString &title);
    QString title() const { return title_; }
    void setUnit(inflight::TimeUnit unit);
    inflight::TimeUnit unit() const { return hist_.unit(); }
    // The values' name in the header when they are not times ("probes"); empty: the unit's
    // funclatency label (nsecs, usecs, msecs).
    void setValueLabel(const QString &label);
    QString valueLabel() const;
    // Draw buckets [first, last] whatever is in them (A/B: both sides on the same rows), and scale
    // bars to `max_count` rather than to this histogram's fullest bucket (0: own). -1: automatic.
    void setBucketRange(int first, int last);
    void setScaleMax(std::uint64_t max_count);
    // A bucket drawn as selected (the one whose calls are listed), or -1.
    void setSelectedBucket(int bucket);
    int selectedBucket() const { return selected_; }

    // The rows drawn: bucket, its range in the unit, and its count.
    struct Row {
        int bucket = 0;
        std::uint64_t lo = 0, hi = 0, count = 0;
    };
    const QVector<Row> &rows() const { return rows_; }
    // "1048576 -> 2097151" (bucket 0 and 1 are "0" and "1").
    static QString rangeText(int bucket);
    // Geometry, for tests and hit testing: the row at a point (-1: none) and a row's bar.
    int rowAt(const QPoint &p) const;
    QRect rowRect(int row) const;
    QRect barRect(int row) const;
    int hoveredRow() const { return hovered_; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    // A bar was clicked: its range in the histogram's unit, and its bucket.
    void barClicked(quint64 lo, quint64 hi);
    void bucketClicked(int bucket);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *e) override;
    void mousePressEvent(QMouseEvent *e) override;
    void leaveEvent(QEvent *event) override;

private:
    struct Metrics {
        int margin, title_h, header_h, row_h, footer_h, range_w, count_w;
    };
    Metrics metrics() const;
    QVector<Row> computeRows() const;
    void rowsChanged();

    inflight::Log2Histogram hist_;
    QString title_;
    QString value_label_;
    int range_first_ = -1, range_last_ = -1;
    std::uint64_t scale_max_ = 0;
    int selected_ = -1;
    int hovered_ = -1;
    QVector<Row> rows_;
};

} // namespace latency
