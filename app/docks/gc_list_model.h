// SPDX-License-Identifier: GPL-3.0-or-later
// One of the classic collector's lists (gc_inflight_list, gc_candidates, not_cycle_list) in its
// real order, read from the kernel's intrusive list; gc_candidates shows the restore walk's
// cursor where it stands ("▶ cursor"), as the kernel's dummy list node does.
#pragma once

#include "dock_list_model.h"

namespace docks {

class GcListModel : public DockListModel {
    Q_OBJECT
public:
    GcListModel(PlayerController &controller, inflight::ListId list, QObject *parent = nullptr);
    inflight::ListId list() const { return list_; }

protected:
    std::vector<Row> collect() const override;
    QString text(const Row &r) const override;
    QString toolTip(const Row &r) const override;
    QColor swatch(const Row &r) const override;

private:
    inflight::ListId list_;
};

} // namespace docks
