// SPDX-License-Identifier: GPL-3.0-or-later
// Every micro-step of the run (controller.timeline(); past PlayerController::kIndexCap events
// only its landmarks) as a table: step, scene line, kernel
// function, event kind and a description (inflight::describe). Nothing is stored per row:
// data() reads the recorded event and makes its text on demand, so a run of a million events
// costs the timeline itself and nothing more. Descriptions name sockets through the kernel at
// the end of the run (computed once, off the GUI thread), so rows ahead of the current
// position name sockets that do not exist yet.
#pragma once

#include "inflight/event.hpp"

#include <QAbstractTableModel>

#include <cstdint>
#include <memory>

class PlayerController;

namespace inflight {
class Kernel;
class RunNames;
struct FinishedRun;
class Simulation;
} // namespace inflight

namespace docks {

class EventLogModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { StepColumn, LineColumn, FunctionColumn, EventColumn, DescriptionColumn, ColumnCount };

    explicit EventLogModel(PlayerController &controller, QObject *parent = nullptr);
    ~EventLogModel() override;

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

    inflight::Event eventAt(int row) const; // decoded from the packed timeline
    // The row of the current micro-step (-1 at step 0, before the index is ready, or when the
    // step is past the index cap and was not kept).
    int currentRow() const;
    // The last row whose step is <= `step` (-1 if none).
    int rowAtOrBefore(std::uint64_t step) const;
    // The kernel that names sockets: the finished run's end state (the index's own run, never
    // the live model). Only once labelsReady().
    const inflight::RunNames &labels() const;
    bool labelsReady() const { return static_cast<bool>(end_); }

signals:
    void labelsChanged();

private:
    void reindex();
    void moved();

    PlayerController &controller_;
    int count_ = 0;
    std::uint64_t shown_pos_ = 0;
    std::shared_ptr<const inflight::FinishedRun> end_;
};

} // namespace docks
