// SPDX-License-Identifier: GPL-3.0-or-later
// The base of the collector-list models: rows re-read from the controller's step snapshot at
// every position (values: a row never points into the live model), and
// applied as the smallest change the views can animate (a common prefix and suffix are kept,
// a single item moved to the other end is a row move, changed values are dataChanged), so a
// micro-step that moves one socket does not reset a list of thousands.
#pragma once

#include "inflight/event.hpp"
#include "inflight/graph_snapshot.hpp"

#include <QAbstractListModel>
#include <QColor>

#include <cstdint>
#include <optional>
#include <vector>

class PlayerController;

namespace docks {

class DockListModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum class RowKind : std::uint8_t { sock, cursor, skb, vertex, edge, scc };

    struct Row {
        RowKind kind = RowKind::sock;
        std::uint32_t id = inflight::npos;              // socket (skb for skb rows, root for scc rows)
        std::uint32_t id2 = inflight::npos;             // edge: successor; scc: ordinal
        std::int64_t v1 = 0, v2 = 0, v3 = 0;            // values shown (so a change repaints the row)
        inflight::GcRole role = inflight::GcRole::idle; // the socket's colour at this step
        bool touched = false;
        bool selected = false;
        // Precomputed text where the snapshot cannot give it back by id (labels it can: a
        // socket's label never changes within a run, so a row painted later still has it).
        QString text;
        QString tip;

        bool sameItem(const Row &o) const { return kind == o.kind && id == o.id && id2 == o.id2; }
        bool operator==(const Row &o) const
        {
            return sameItem(o) && v1 == o.v1 && v2 == o.v2 && v3 == o.v3 && role == o.role && touched == o.touched &&
                   selected == o.selected && text == o.text && tip == o.tip;
        }
    };

    explicit DockListModel(PlayerController &controller, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

    const Row &row(int r) const { return rows_[static_cast<std::size_t>(r)]; }
    const std::vector<Row> &rows() const { return rows_; }
    // Re-reads the snapshot (called on every position, selection and scene change).
    void refresh();

protected:
    virtual std::vector<Row> collect() const = 0;
    virtual QString text(const Row &r) const { return r.text; }
    virtual QString toolTip(const Row &r) const { return r.tip; }
    virtual QColor swatch(const Row &r) const; // the little square before the text
    virtual std::optional<std::uint32_t> socketOf(const Row &r) const;
    PlayerController &controller() const { return controller_; }

private:
    void apply(std::vector<Row> next);
    PlayerController &controller_;
    std::vector<Row> rows_;
};

} // namespace docks
