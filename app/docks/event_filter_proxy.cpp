// SPDX-License-Identifier: GPL-3.0-or-later
#include "event_filter_proxy.h"

#include "dock_common.h"
#include "event_log_model.h"

using namespace inflight;

namespace docks {

EventFilterProxy::EventFilterProxy(QObject *parent) : QSortFilterProxyModel(parent), mask_(kAllKinds)
{
    // The filter depends on what an event is, never on how it is shown: colour changes of the
    // current row must not re-filter a million rows.
    setDynamicSortFilter(false);
}

void EventFilterProxy::setSourceModel(QAbstractItemModel *model)
{
    log_ = qobject_cast<EventLogModel *>(model);
    QSortFilterProxyModel::setSourceModel(model);
}

void EventFilterProxy::setKindMask(std::uint64_t mask)
{
    if (mask == mask_)
        return;
    mask_ = mask;
    invalidateFilter();
}

void EventFilterProxy::setSocket(std::optional<std::uint32_t> sock)
{
    if (sock == sock_)
        return;
    sock_ = sock;
    invalidateFilter();
}

bool EventFilterProxy::filtering() const { return mask_ != kAllKinds || sock_.has_value(); }

bool EventFilterProxy::filterAcceptsRow(int source_row, const QModelIndex &source_parent) const
{
    if (source_parent.isValid() || !log_)
        return false;
    if (!filtering())
        return true;
    const Event &e = log_->event(source_row);
    if (!(mask_ & kindBit(e.kind)))
        return false;
    return !sock_ || eventInvolves(e, *sock_);
}

int EventFilterProxy::rowAtOrBefore(int source_row) const
{
    int lo = 0, hi = rowCount() - 1, best = -1;
    while (lo <= hi) {
        const int mid = lo + (hi - lo) / 2;
        if (mapToSource(index(mid, 0)).row() <= source_row) {
            best = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return best;
}

} // namespace docks
