// SPDX-License-Identifier: GPL-3.0-or-later
// The event log's filter: by event kind (a bit mask of EventKind) and by socket (events whose
// a, b or c names it). Reads the recorded events directly: no text is made to filter.
//
// Not a QSortFilterProxyModel: that one asks filterAcceptsRow() of every row and builds its
// mappings even when nothing is filtered: a pass over every row on the GUI thread as the index
// arrives, for hundreds of thousands of rows on the large scenes. Unfiltered, this proxy is the
// identity; filtered, it keeps the accepted source rows in one vector, in the source's order.
#pragma once

#include <QAbstractProxyModel>

#include <cstdint>
#include <optional>
#include <vector>

namespace docks {

class EventLogModel;

class EventFilterProxy : public QAbstractProxyModel {
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

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QModelIndex mapToSource(const QModelIndex &proxy) const override;
    QModelIndex mapFromSource(const QModelIndex &source) const override;

private:
    bool accepts(int source_row) const;
    void refilter(); // a model reset of the proxy
    void collect();  // rows_ for the current filter
    int sourceRowOf(int proxy_row) const;

    EventLogModel *log_ = nullptr;
    std::uint64_t mask_;
    std::optional<std::uint32_t> sock_;
    std::vector<int> rows_; // filtering: the accepted source rows, ascending
    QList<QMetaObject::Connection> connections_;
};

} // namespace docks
