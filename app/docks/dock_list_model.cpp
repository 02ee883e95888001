// SPDX-License-Identifier: GPL-3.0-or-later
#include "dock_list_model.h"

#include "dock_common.h"

#include "../player_controller.h"
#include "../theme.h"

#include <QBrush>

namespace docks {

DockListModel::DockListModel(PlayerController &controller, QObject *parent)
    : QAbstractListModel(parent), controller_(controller)
{
    // Queued behind nothing: the snapshot the controller took as the position changed.
    connect(&controller_, &PlayerController::positionChanged, this, &DockListModel::refresh);
    connect(&controller_, &PlayerController::selectionChanged, this, &DockListModel::refresh);
    connect(&controller_, &PlayerController::sceneLoaded, this, &DockListModel::refresh);
    connect(&controller_, &PlayerController::indexReadyChanged, this, &DockListModel::refresh);
    connect(&Theme::instance(), &Theme::changed, this, [this] {
        if (!rows_.empty())
            emit dataChanged(index(0), index(rowCount() - 1));
    });
}

int DockListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

Qt::ItemFlags DockListModel::flags(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this || index.row() >= rowCount())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
}

QColor DockListModel::swatch(const Row & /*r*/) const { return {}; }

std::optional<std::uint32_t> DockListModel::socketOf(const Row &r) const
{
    if (r.kind == RowKind::cursor || r.id == inflight::npos)
        return std::nullopt;
    return r.id;
}

QVariant DockListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.model() != this || index.row() >= rowCount() || index.column() != 0)
        return {};
    const Row &r = rows_[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole: return text(r);
    case Qt::ToolTipRole: return toolTip(r);
    case Qt::DecorationRole: {
        const QColor c = swatch(r);
        return c.isValid() ? QVariant(c) : QVariant();
    }
    case Qt::BackgroundRole:
        if (r.selected)
            return QBrush(selectedBackground());
        if (r.touched)
            return QBrush(touchedBackground());
        return {};
    case Qt::ForegroundRole:
        if (r.selected)
            return QBrush(selectedForeground());
        return {};
    case Qt::FontRole: return rowFont(r.touched || r.selected);
    case SockRole: {
        const auto s = socketOf(r);
        return s ? QVariant::fromValue(*s) : QVariant();
    }
    case TouchedRole: return r.touched;
    case SelectedRole: return r.selected;
    case RowKindRole: return static_cast<int>(r.kind);
    default: return {};
    }
}

void DockListModel::refresh()
{
    if (!controller_.hasScene()) {
        apply({});
        return;
    }
    apply(collect());
}

void DockListModel::apply(std::vector<Row> next)
{
    const std::size_t n_old = rows_.size(), n_new = next.size();
    std::size_t p = 0;
    while (p < n_old && p < n_new && rows_[p].sameItem(next[p]))
        ++p;
    std::size_t s = 0;
    while (s < n_old - p && s < n_new - p && rows_[n_old - 1 - s].sameItem(next[n_new - 1 - s]))
        ++s;
    const std::size_t old_mid = n_old - p - s, new_mid = n_new - p - s;

    auto mid_equal = [&](std::size_t old_from, std::size_t new_from, std::size_t len) {
        for (std::size_t i = 0; i < len; ++i)
            if (!rows_[old_from + i].sameItem(next[new_from + i]))
                return false;
        return true;
    };
    const int first = static_cast<int>(p), last = static_cast<int>(p + old_mid - 1);
    if (old_mid >= 2 && old_mid == new_mid && rows_[p].sameItem(next[p + new_mid - 1]) &&
        mid_equal(p + 1, p, old_mid - 1)) {
        // One item moved from the front of the changed range to its back (a tail move).
        beginMoveRows({}, first, first, {}, last + 1);
        Row moved = std::move(rows_[p]);
        rows_.erase(rows_.begin() + static_cast<std::ptrdiff_t>(p));
        rows_.insert(rows_.begin() + static_cast<std::ptrdiff_t>(p + old_mid - 1), std::move(moved));
        endMoveRows();
    } else if (old_mid >= 2 && old_mid == new_mid && rows_[p + old_mid - 1].sameItem(next[p]) &&
               mid_equal(p, p + 1, old_mid - 1)) {
        // The last row moves up to the first: the swap the check suspects is the move itself.
        beginMoveRows({}, last, last, {}, first); // NOLINT(readability-suspicious-call-argument)
        Row moved = std::move(rows_[p + old_mid - 1]);
        rows_.erase(rows_.begin() + static_cast<std::ptrdiff_t>(p + old_mid - 1));
        rows_.insert(rows_.begin() + static_cast<std::ptrdiff_t>(p), std::move(moved));
        endMoveRows();
    } else {
        if (old_mid > 0) {
            beginRemoveRows({}, first, last);
            rows_.erase(rows_.begin() + static_cast<std::ptrdiff_t>(p),
                        rows_.begin() + static_cast<std::ptrdiff_t>(p + old_mid));
            endRemoveRows();
        }
        if (new_mid > 0) {
            beginInsertRows({}, first, static_cast<int>(p + new_mid - 1));
            rows_.insert(rows_.begin() + static_cast<std::ptrdiff_t>(p), next.begin() + static_cast<std::ptrdiff_t>(p),
                         next.begin() + static_cast<std::ptrdiff_t>(p + new_mid));
            endInsertRows();
        }
    }
    // Same items in the same places now: repaint the rows whose values or marks changed.
    int from = -1;
    for (std::size_t i = 0; i <= n_new; ++i) {
        const bool changed = i < n_new && !(rows_[i] == next[i]);
        if (changed) {
            rows_[i] = std::move(next[i]);
            if (from < 0)
                from = static_cast<int>(i);
        } else if (from >= 0) {
            emit dataChanged(index(from), index(static_cast<int>(i) - 1));
            from = -1;
        }
    }
}

} // namespace docks
