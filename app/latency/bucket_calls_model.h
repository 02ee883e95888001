// SPDX-License-Identifier: GPL-3.0-or-later
// The calls behind one bar: which task made each, when it started, how long it took and how much
// of that it spent waiting for a collection or spinning on a lock, and the scene line. A
// snapshot taken when the bar is clicked, so the list holds still while the scene plays.
#pragma once

#include "live_latency.h"

#include <QAbstractTableModel>

#include <cstddef>
#include <memory>
#include <vector>

namespace latency {

class BucketCallsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TaskColumn, StartColumn, DurationColumn, WaitedColumn, SpunColumn, LineColumn, ColumnCount };
    static constexpr int SampleRole = Qt::UserRole + 1;    // the sample's index in the run (qulonglong)
    static constexpr int FirstStepRole = Qt::UserRole + 2; // the call's first micro-step (qulonglong)

    explicit BucketCallsModel(QObject *parent = nullptr);

    void setCalls(std::shared_ptr<const LatencyRun> run, std::vector<std::size_t> samples, inflight::TimeUnit unit);
    void clear();
    const std::vector<std::size_t> &samples() const { return samples_; }
    // The row of a sample, or -1.
    int rowOf(std::size_t sample) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    std::shared_ptr<const LatencyRun> run_;
    std::vector<std::size_t> samples_;
    inflight::TimeUnit unit_ = inflight::TimeUnit::ns;
};

} // namespace latency
