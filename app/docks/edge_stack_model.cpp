// SPDX-License-Identifier: GPL-3.0-or-later
#include "edge_stack_model.h"

#include "dock_common.h"

#include "../player_controller.h"

#include "inflight/step_snapshot.hpp"

using namespace inflight;

namespace docks {

EdgeStackModel::EdgeStackModel(PlayerController &controller, QObject *parent) : DockListModel(controller, parent)
{
    refresh();
}

std::vector<DockListModel::Row> EdgeStackModel::collect() const
{
    std::vector<Row> rows;
    const StepSnapshot &s = controller().snapshot();
    const Event *e = controller().currentEvent();
    const auto sel = controller().selectedSocket();
    rows.reserve(s.edge_stack.size());
    for (const EdgeEntry &edge : s.edge_stack) {
        Row r;
        r.kind = RowKind::edge;
        r.id = edge.from;
        r.id2 = edge.to;
        // unix_edge_successor(): an unaccepted embryo's queue counts as its listener's.
        r.v1 = edge.effective_to != npos ? static_cast<std::int64_t>(edge.effective_to) : -1;
        r.selected = sel && (*sel == r.id || *sel == r.id2 || static_cast<std::int64_t>(*sel) == r.v1);
        rows.push_back(std::move(r));
    }
    // The edge just pushed is the top one.
    if (e && e->kind == EventKind::edge_push && !rows.empty() && rows.back().id == e->a)
        rows.back().touched = true;
    return rows;
}

QString EdgeStackModel::text(const Row &r) const
{
    const StepSnapshot &k = controller().snapshot();
    const QString from = label(k, r.id), to = label(k, r.id2);
    if (r.v1 >= 0 && static_cast<std::uint32_t>(r.v1) != r.id2)
        return tr("%1 → %2 (via %3)").arg(from, label(k, static_cast<std::uint32_t>(r.v1)), to);
    return tr("%1 → %2").arg(from, to);
}

QString EdgeStackModel::toolTip(const Row &r) const
{
    const StepSnapshot &k = controller().snapshot();
    QString t = tr("A copy of %1's file sits in %2's receive queue; the walk went from %1 to %2 along this "
                   "edge and comes back over it when %2's subtree is done.")
                    .arg(label(k, r.id), label(k, r.id2));
    if (r.v1 >= 0 && static_cast<std::uint32_t>(r.v1) != r.id2)
        t += tr(" %1 is an unaccepted embryo, so the edge counts as pointing at its listener %2.")
                 .arg(label(k, r.id2), label(k, static_cast<std::uint32_t>(r.v1)));
    return t;
}

} // namespace docks
