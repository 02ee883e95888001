// SPDX-License-Identifier: GPL-3.0-or-later
// The event log's filter: by event kind (a bit mask of EventKind) and by socket (events whose
// a, b or c names it). Reads the recorded events directly: no text is made to filter.
#pragma once

#include <QSortFilterProxyModel>

#include <cstdint>
#include <optional>

namespace docks {

class EventLogModel;

class EventFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit EventFilterProxy(QObject *parent = nullptr);

    void setSourceModel(QAbstractItemModel *model) override;
    void setKindMask(std::uint64_t mask);
    std::uint64_t kindMask() const { return mask_; }
    // nullopt: every socket; npos: a socket that does not exist (nothing passes).
    void setSocket(std::optional<std::uint32_t> sock);
    std::optional<std::uint32_t> socket() const { return sock_; }
    bool filtering() const;
    // The last proxy row whose source row is <= source_row (-1 if none). Rows keep the source's order.
    int rowAtOrBefore(int source_row) const;

protected:
    bool filterAcceptsRow(int source_row, const QModelIndex &source_parent) const override;

private:
    EventLogModel *log_ = nullptr;
    std::uint64_t mask_;
    std::optional<std::uint32_t> sock_;
};

} // namespace docks
