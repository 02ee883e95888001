// SPDX-License-Identifier: GPL-3.0-or-later
// The latency panel's table beside the histograms: one row for all calls returned so far, then
// one per group, with p50, p90, p99, max, count and average in the chosen unit. Percentiles are
// nearest-rank over the exact samples, not read off the buckets.
#pragma once

#include "inflight/log2_histogram.hpp"

#include <QAbstractTableModel>
#include <QVector>

#include <cstdint>
#include <vector>

namespace latency {

class PercentileModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { GroupColumn, P50Column, P90Column, P99Column, MaxColumn, CountColumn, AvgColumn, ColumnCount };
    // Qt::UserRole: the row's group position in the groups given to setHistograms (-1: all calls).
    static constexpr int GroupRole = Qt::UserRole + 1;

    explicit PercentileModel(QObject *parent = nullptr);

    // Row 0 is `all`; rows 1.. are `groups` in order. Keeps the rows (and a view's selection)
    // when only the numbers changed.
    void setHistograms(const inflight::Log2Histogram &all, const std::vector<inflight::SampleGroup> &groups,
                       inflight::TimeUnit unit);

    struct Stats {
        QString name;
        std::uint64_t count = 0;
        double avg_ns = 0;
        std::uint64_t p50_ns = 0, p90_ns = 0, p99_ns = 0, max_ns = 0;
    };
    const QVector<Stats> &stats() const { return rows_; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    QVector<Stats> rows_;
    inflight::TimeUnit unit_ = inflight::TimeUnit::ns;
};

} // namespace latency
