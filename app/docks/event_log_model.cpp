// SPDX-License-Identifier: GPL-3.0-or-later
#include "event_log_model.h"

#include "dock_common.h"

#include "../player_controller.h"
#include "../theme.h"

#include "inflight/narrate.hpp"
#include "inflight/report.hpp"
#include "inflight/run_summary.hpp"
#include "inflight/simulation.hpp"

#include <QBrush>

#include <algorithm>
#include <limits>

using namespace inflight;

namespace docks {

EventLogModel::EventLogModel(PlayerController &controller, QObject *parent)
    : QAbstractTableModel(parent), controller_(controller)
{
    connect(&controller_, &PlayerController::indexReadyChanged, this, &EventLogModel::reindex);
    connect(&controller_, &PlayerController::sceneLoaded, this, &EventLogModel::reindex);
    connect(&controller_, &PlayerController::positionChanged, this, &EventLogModel::moved);
    // Theme changes need no signal here: the view repaints with its new font and palette, and
    // data() answers the current colours.
    reindex();
}

EventLogModel::~EventLogModel() = default;

void EventLogModel::reindex()
{
    const bool ready = controller_.indexReady();
    const auto &tl = controller_.timeline();
    const int n = ready ? static_cast<int>(std::min<std::size_t>(tl.size(), std::numeric_limits<int>::max())) : 0;
    beginResetModel();
    count_ = n;
    shown_pos_ = controller_.position();
    // The index's finished run names every socket, also those created after the current step.
    end_ = ready ? controller_.endOfRun() : nullptr;
    endResetModel();
    if (end_)
        emit labelsChanged();
}

const RunNames &EventLogModel::labels() const
{
    Q_ASSERT(end_); // rows exist only once the run is indexed, and with them its end
    return end_->names;
}

int EventLogModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : count_; }

int EventLogModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

Event EventLogModel::eventAt(int row) const { return controller_.timeline()[static_cast<std::size_t>(row)]; }

int EventLogModel::rowAtOrBefore(std::uint64_t step) const
{
    // Rows are in step order; past PlayerController::kIndexCap only landmarks are recorded, so
    // the row of a step is searched, not computed.
    const auto &tl = controller_.timeline();
    const auto end = tl.begin() + count_;
    const auto it = std::upper_bound(tl.begin(), end, step, [](std::uint64_t s, const Event &e) { return s < e.step; });
    return static_cast<int>(it - tl.begin()) - 1;
}

int EventLogModel::currentRow() const
{
    const std::uint64_t pos = controller_.position();
    const int row = pos ? rowAtOrBefore(pos) : -1;
    return row >= 0 && eventAt(row).step == pos ? row : -1;
}

Qt::ItemFlags EventLogModel::flags(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this || index.row() >= rowCount())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
}

QVariant EventLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case StepColumn: return tr("Step");
        case LineColumn: return tr("Line");
        case FunctionColumn: return tr("Kernel function");
        case EventColumn: return tr("Event");
        case DescriptionColumn: return tr("What happened");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case StepColumn: return tr("The micro-step number. Click a row to go there.");
        case LineColumn: return tr("The scene line whose statement was running.");
        case FunctionColumn: return tr("The kernel function (or syscall) the micro-step belongs to.");
        case EventColumn: return tr("What kind of micro-step it is.");
        case DescriptionColumn: return tr("The objects and values involved. Hover for a plain-words explanation.");
        default: return {};
        }
    }
    return {};
}

QVariant EventLogModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.model() != this || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const int row = index.row();
    if (static_cast<std::size_t>(row) >= controller_.timeline().size())
        return {};
    const Event &e = eventAt(row);
    const std::uint64_t pos = controller_.position();
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case StepColumn: return QVariant::fromValue<qulonglong>(e.step);
        case LineColumn: return e.scene_line ? QVariant(e.scene_line) : QVariant(QString());
        case FunctionColumn: return qs(kfn_name(e.fn));
        case EventColumn: return qs(event_kind_name(e.kind));
        case DescriptionColumn: return QString::fromStdString(describe(e, labels(), &controller_.scene()));
        default: return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == DescriptionColumn) {
            QString tip = QString::fromStdString(narrate(e, labels(), &controller_.scene()));
            // The run's last step also tells how the run ended.
            if (end_ && row + 1 == count_)
                tip += QStringLiteral("\n\n") + QString::fromStdString(end_->ending);
            // Which task ran it and when (modelled clock): how interleaved tasks are told apart.
            const auto &tasks = end_->tasks;
            if (end_->concurrent && e.task < tasks.size())
                tip += tr("\n(%1 on cpu %2, t = %3)")
                           .arg(QString::fromStdString(tasks[e.task].name))
                           .arg(tasks[e.task].cpu)
                           .arg(QString::fromStdString(format_ns(e.time)));
            return tip;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == StepColumn || index.column() == LineColumn)
            return static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::BackgroundRole:
        if (e.step == pos)
            return QBrush(touchedBackground());
        return {};
    case Qt::ForegroundRole: {
        const bool problem = e.kind == EventKind::finding || e.kind == EventKind::warning ||
                             (e.kind == EventKind::expect_result && !e.before);
        if (problem)
            return QBrush(QColor(0xb0, 0x00, 0x00));
        if (e.step > pos) // not run yet
            return QBrush(Theme::instance().highContrast() ? QColor(0x55, 0x55, 0x55) : QColor(0x80, 0x80, 0x88));
        return {};
    }
    case Qt::FontRole:
        if (e.step == pos)
            return Theme::instance().font(kLogPoints, true);
        return {};
    case EventStepRole: return QVariant::fromValue<qulonglong>(e.step);
    case SockRole: {
        const std::uint32_t s = eventSockA(e);
        return s != npos ? QVariant::fromValue(s) : QVariant();
    }
    default: return {};
    }
}

void EventLogModel::moved()
{
    const std::uint64_t pos = controller_.position();
    if (count_ && pos != shown_pos_) {
        // Rows between the two positions changed colour (run / not run yet), the two ends their mark.
        const int lo = std::max(0, rowAtOrBefore(std::min(pos, shown_pos_)));
        const int hi = rowAtOrBefore(std::max(pos, shown_pos_));
        if (hi >= lo)
            emit dataChanged(index(lo, 0), index(hi, ColumnCount - 1));
    }
    shown_pos_ = pos;
}

} // namespace docks
