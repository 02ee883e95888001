// SPDX-License-Identifier: GPL-3.0-or-later
#include "percentile_model.h"

#include "duration_text.h"

#include <cstdlib>

#include "../theme.h"

using namespace inflight;

namespace latency {

namespace {

constexpr double kRowPoints = 11.0; // a little under the histograms' rows: seven columns share half the dock

PercentileModel::Stats statsOf(const QString &name, const Log2Histogram &h)
{
    return {name, h.count(), h.mean_ns(), h.percentile_ns(50), h.percentile_ns(90), h.percentile_ns(99), h.max_ns()};
}

} // namespace

PercentileModel::PercentileModel(QObject *parent) : QAbstractTableModel(parent)
{
    connect(&Theme::instance(), &Theme::changed, this, [this] {
        if (!rows_.isEmpty())
            emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::FontRole});
        emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    });
}

void PercentileModel::setHistograms(const Log2Histogram &all, const std::vector<SampleGroup> &groups, TimeUnit unit)
{
    QVector<Stats> rows;
    rows.reserve(static_cast<qsizetype>(groups.size()) + 1);
    rows.push_back(statsOf(tr("all calls"), all));
    for (const SampleGroup &g : groups)
        rows.push_back(statsOf(QString::fromStdString(g.name), g.histogram));
    bool same_rows = rows.size() == rows_.size();
    for (qsizetype i = 0; same_rows && i < rows.size(); ++i)
        same_rows = rows[i].name == rows_[i].name;
    const bool unit_changed = unit != unit_;
    unit_ = unit;
    if (!same_rows) {
        beginResetModel();
        rows_ = std::move(rows);
        endResetModel();
        return;
    }
    rows_ = std::move(rows);
    emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::DisplayRole});
    if (unit_changed)
        emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

int PercentileModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int PercentileModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant PercentileModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rows_.size())
        return {};
    const Stats &s = rows_[index.row()];
    const int col = index.column();
    switch (role) {
    case Qt::DisplayRole:
        switch (col) {
        case GroupColumn: return s.name;
        case P50Column: return durationText(static_cast<double>(s.p50_ns), unit_);
        case P90Column: return durationText(static_cast<double>(s.p90_ns), unit_);
        case P99Column: return durationText(static_cast<double>(s.p99_ns), unit_);
        case MaxColumn: return durationText(static_cast<double>(s.max_ns), unit_);
        case CountColumn: return QString::number(s.count);
        case AvgColumn: return durationText(s.avg_ns, unit_);
        }
        break;
    case Qt::TextAlignmentRole:
        return col == GroupColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                  : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
        // Digits in monospace so the columns line up; group names in the UI font.
        return col == GroupColumn ? Theme::instance().font(kRowPoints, index.row() == 0)
                                  : Theme::instance().monoFont(kRowPoints);
    case GroupRole: return index.row() - 1;
    default: break;
    }
    return {};
}

QVariant PercentileModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o == Qt::Vertical) {
        // The group's name: the view shows the table transposed, a column per group.
        if (section < 0 || section >= rows_.size())
            return {};
        if (role == Qt::DisplayRole) {
            // Two lines for a long name ("with AF_UNIX\nfds"): three groups fit half a dock.
            QString name = rows_[section].name;
            if (name.size() > 10) {
                const qsizetype mid = name.size() / 2;
                qsizetype best = -1;
                for (qsizetype i = 0; i < name.size(); ++i)
                    if (name[i] == u' ' && (best < 0 || std::abs(i - mid) < std::abs(best - mid)))
                        best = i;
                if (best > 0)
                    name[best] = u'\n';
            }
            return name;
        }
        if (role == Qt::FontRole)
            return Theme::instance().font(kRowPoints * 0.9, true);
        return {};
    }
    if (role == Qt::FontRole)
        return Theme::instance().font(kRowPoints * 0.9, true);
    if (role != Qt::DisplayRole)
        return {};
    const QString u = unitSuffix(unit_);
    switch (section) {
    case GroupColumn: return tr("group");
    case P50Column: return tr("p50 %1").arg(u);
    case P90Column: return tr("p90 %1").arg(u);
    case P99Column: return tr("p99 %1").arg(u);
    case MaxColumn: return tr("max %1").arg(u);
    case CountColumn: return tr("count");
    case AvgColumn: return tr("avg %1").arg(u);
    }
    return {};
}

} // namespace latency
