// SPDX-License-Identifier: GPL-3.0-or-later
// The graph collector's vertex stack (Tarjan's stack in __unix_walk_scc()), bottom first, with
// each vertex's index and scc_index (the low-link).
#pragma once

#include "dock_list_model.h"

namespace docks {

class VertexStackModel : public DockListModel {
    Q_OBJECT
public:
    explicit VertexStackModel(PlayerController &controller, QObject *parent = nullptr);

protected:
    std::vector<Row> collect() const override;
    QString text(const Row &r) const override;
    QString toolTip(const Row &r) const override;
    QColor swatch(const Row &r) const override;
};

} // namespace docks
