// SPDX-License-Identifier: GPL-3.0-or-later
// The graph collector's edge stack (the tree edges __unix_walk_scc() descended along and will
// backtrack over), bottom first: "a → b" where a's file sits in b's receive queue.
#pragma once

#include "dock_list_model.h"

namespace docks {

class EdgeStackModel : public DockListModel {
    Q_OBJECT
public:
    explicit EdgeStackModel(PlayerController &controller, QObject *parent = nullptr);

protected:
    std::vector<Row> collect() const override;
    QString text(const Row &r) const override;
    QString toolTip(const Row &r) const override;
};

} // namespace docks
