// SPDX-License-Identifier: GPL-3.0-or-later
#include "event_filter_proxy.h"

#include "dock_common.h"
#include "event_log_model.h"

#include <algorithm>

using namespace inflight;

namespace docks {

EventFilterProxy::EventFilterProxy(QObject *parent) : QAbstractProxyModel(parent), mask_(kAllKinds) { }

void EventFilterProxy::setSourceModel(QAbstractItemModel *model)
{
    beginResetModel();
    for (const auto &c : std::as_const(connections_))
        disconnect(c);
    connections_.clear();
    log_ = qobject_cast<EventLogModel *>(model);
    QAbstractProxyModel::setSourceModel(model);
    if (model) {
        // The log only ever resets (a new index) and repaints rows (the current step moved).
        connections_ << connect(model, &QAbstractItemModel::modelAboutToBeReset, this, [this] { beginResetModel(); })
                     << connect(model, &QAbstractItemModel::modelReset, this,
                                [this] {
                                    collect();
                                    endResetModel();
                                })
                     << connect(model, &QAbstractItemModel::dataChanged, this,
                                [this](const QModelIndex &from, const QModelIndex &to, const QList<int> &roles) {
                                    // The proxy rows between the two source rows, if any.
                                    const int last = rowAtOrBefore(to.row());
                                    const int first = rowAtOrBefore(from.row() - 1) + 1;
                                    if (first <= last && last >= 0)
                                        emit dataChanged(index(first, from.column()), index(last, to.column()), roles);
                                })
                     << connect(model, &QAbstractItemModel::headerDataChanged, this,
                                &QAbstractItemModel::headerDataChanged);
    }
    collect();
    endResetModel();
}

void EventFilterProxy::setKindMask(std::uint64_t mask)
{
    if (mask == mask_)
        return;
    mask_ = mask;
    refilter();
}

void EventFilterProxy::setSocket(std::optional<std::uint32_t> sock)
{
    if (sock == sock_)
        return;
    sock_ = sock;
    refilter();
}

bool EventFilterProxy::filtering() const { return mask_ != kAllKinds || sock_.has_value(); }

bool EventFilterProxy::accepts(int source_row) const
{
    const Event &e = log_->eventAt(source_row);
    if (!(mask_ & kindBit(e.kind)))
        return false;
    return !sock_ || eventInvolves(e, *sock_);
}

void EventFilterProxy::refilter()
{
    beginResetModel();
    collect();
    endResetModel();
}

void EventFilterProxy::collect()
{
    rows_.clear();
    if (!log_ || !filtering())
        return;
    const int n = log_->rowCount();
    for (int r = 0; r < n; ++r)
        if (accepts(r))
            rows_.push_back(r);
    rows_.shrink_to_fit(); // a filter of a few rows does not keep a million rows' room
}

int EventFilterProxy::sourceRowOf(int proxy_row) const
{
    return filtering() ? rows_[static_cast<std::size_t>(proxy_row)] : proxy_row;
}

int EventFilterProxy::rowAtOrBefore(int source_row) const
{
    if (source_row < 0)
        return -1;
    if (!filtering())
        return std::min(source_row, rowCount() - 1);
    const auto it = std::upper_bound(rows_.begin(), rows_.end(), source_row);
    return static_cast<int>(it - rows_.begin()) - 1;
}

QModelIndex EventFilterProxy::index(int row, int column, const QModelIndex &parent) const
{
    if (parent.isValid() || row < 0 || column < 0 || row >= rowCount() || column >= columnCount())
        return {};
    return createIndex(row, column);
}

QModelIndex EventFilterProxy::parent(const QModelIndex & /*child*/) const { return {}; }

int EventFilterProxy::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !log_)
        return 0;
    return filtering() ? static_cast<int>(rows_.size()) : log_->rowCount();
}

int EventFilterProxy::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() || !log_ ? 0 : log_->columnCount();
}

QModelIndex EventFilterProxy::mapToSource(const QModelIndex &proxy) const
{
    if (!proxy.isValid() || !log_ || proxy.model() != this || proxy.row() >= rowCount())
        return {};
    return log_->index(sourceRowOf(proxy.row()), proxy.column());
}

QModelIndex EventFilterProxy::mapFromSource(const QModelIndex &source) const
{
    if (!source.isValid() || !log_ || source.model() != log_)
        return {};
    if (!filtering())
        return index(source.row(), source.column());
    const auto it = std::lower_bound(rows_.begin(), rows_.end(), source.row());
    if (it == rows_.end() || *it != source.row())
        return {};
    return index(static_cast<int>(it - rows_.begin()), source.column());
}

} // namespace docks
