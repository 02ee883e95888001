// SPDX-License-Identifier: GPL-3.0-or-later
// The collector's hitlist in its real order: each skb with the files it carries
// ("skb#12 → b, c"). Shared by every era (classic moves skbs one by one, graph splices whole
// receive queues).
#pragma once

#include "dock_list_model.h"

namespace docks {

class HitlistModel : public DockListModel {
    Q_OBJECT
public:
    explicit HitlistModel(PlayerController &controller, QObject *parent = nullptr);

protected:
    std::vector<Row> collect() const override;
    QColor swatch(const Row &r) const override;
    std::optional<std::uint32_t> socketOf(const Row &r) const override;
};

} // namespace docks
