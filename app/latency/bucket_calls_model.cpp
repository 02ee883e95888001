// SPDX-License-Identifier: GPL-3.0-or-later
#include "bucket_calls_model.h"

#include "duration_text.h"

#include "../theme.h"

#include <algorithm>

using namespace inflight;

namespace latency {

namespace {
constexpr double kRowPoints = 11.0; // as the percentile table beside it
}

BucketCallsModel::BucketCallsModel(QObject *parent) : QAbstractTableModel(parent) { }

void BucketCallsModel::setCalls(std::shared_ptr<const LatencyRun> run, std::vector<std::size_t> samples, TimeUnit unit)
{
    beginResetModel();
    run_ = std::move(run);
    samples_ = std::move(samples);
    unit_ = unit;
    endResetModel();
}

void BucketCallsModel::clear() { setCalls(nullptr, {}, unit_); }

int BucketCallsModel::rowOf(std::size_t sample) const
{
    const auto it = std::find(samples_.begin(), samples_.end(), sample);
    return it == samples_.end() ? -1 : static_cast<int>(it - samples_.begin());
}

int BucketCallsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !run_ ? 0 : static_cast<int>(samples_.size());
}

int BucketCallsModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant BucketCallsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || !run_ || static_cast<std::size_t>(index.row()) >= samples_.size())
        return {};
    const std::size_t i = samples_[static_cast<std::size_t>(index.row())];
    const LatencySample &s = run_->samples[i];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TaskColumn:
            return s.task < run_->tasks.size() ? QString::fromStdString(run_->tasks[s.task].name)
                                               : tr("task %1").arg(s.task);
        case StartColumn: return durationText(static_cast<double>(s.start_ns), unit_);
        case DurationColumn: return durationText(static_cast<double>(s.duration_ns), unit_);
        case WaitedColumn: return durationText(static_cast<double>(s.waited_ns), unit_);
        case SpunColumn: return durationText(static_cast<double>(s.spun_ns), unit_);
        case LineColumn: return static_cast<uint>(s.scene_line);
        }
        break;
    case Qt::TextAlignmentRole:
        return index.column() == TaskColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                            : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
        return index.column() == TaskColumn ? Theme::instance().font(kRowPoints)
                                            : Theme::instance().monoFont(kRowPoints);
    case Qt::ToolTipRole:
        return tr("%1 (%2) took %3%4, steps %5 to %6. Double-click to go to its first step.")
            .arg(QString::fromLatin1(kfn_name(s.fn).data()), QString::fromLatin1(call_kind_name(s.kind).data()),
                 durationWithUnit(static_cast<double>(s.duration_ns), unit_), s.failed ? tr(" and failed") : QString(),
                 QString::number(s.first_step), QString::number(s.last_step));
    case SampleRole: return QVariant::fromValue<qulonglong>(i);
    case FirstStepRole: return QVariant::fromValue<qulonglong>(s.first_step);
    default: break;
    }
    return {};
}

QVariant BucketCallsModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal)
        return {};
    if (role == Qt::FontRole)
        return Theme::instance().font(kRowPoints * 0.9, true);
    if (role != Qt::DisplayRole)
        return {};
    const QString u = unitSuffix(unit_);
    switch (section) {
    case TaskColumn: return tr("task");
    case StartColumn: return tr("start %1").arg(u);
    case DurationColumn: return tr("duration %1").arg(u);
    case WaitedColumn: return tr("waited %1").arg(u);
    case SpunColumn: return tr("spun %1").arg(u);
    case LineColumn: return tr("line");
    }
    return {};
}

} // namespace latency
