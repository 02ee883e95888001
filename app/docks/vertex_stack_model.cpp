// SPDX-License-Identifier: GPL-3.0-or-later
#include "vertex_stack_model.h"

#include "dock_common.h"

#include "../player_controller.h"
#include "../theme.h"

#include "inflight/step_snapshot.hpp"

using namespace inflight;

namespace docks {

VertexStackModel::VertexStackModel(PlayerController &controller, QObject *parent) : DockListModel(controller, parent)
{
    refresh();
}

std::vector<DockListModel::Row> VertexStackModel::collect() const
{
    std::vector<Row> rows;
    const StepSnapshot &s = controller().snapshot();
    const Event *e = controller().currentEvent();
    const std::uint32_t touched = e ? eventSockA(*e) : npos;
    const auto sel = controller().selectedSocket();
    rows.reserve(s.vertex_stack.size());
    for (const VertexEntry &v : s.vertex_stack) {
        Row r;
        r.kind = RowKind::vertex;
        r.id = v.sock;
        r.v1 = v.index;
        r.v2 = v.scc_index;
        r.v3 = v.out_degree;
        r.role = v.role;
        r.touched = r.id != npos && r.id == touched;
        r.selected = sel && *sel == r.id;
        rows.push_back(std::move(r));
    }
    return rows;
}

QString VertexStackModel::text(const Row &r) const
{
    return tr("%1    index %2 · scc_index %3").arg(label(controller().snapshot(), r.id)).arg(r.v1).arg(r.v2);
}

QString VertexStackModel::toolTip(const Row &r) const
{
    return tr("%1 is on the walk's vertex stack: visited, its SCC not finished yet. index = when it was "
              "visited; scc_index = the lowest index reachable from it through vertices still on the stack "
              "(Tarjan's low-link). When a vertex's index equals its scc_index it is the root of an SCC: "
              "the stack is cut there. out_degree %2.")
        .arg(label(controller().snapshot(), r.id))
        .arg(r.v3);
}

QColor VertexStackModel::swatch(const Row &r) const
{
    if (r.id == npos)
        return {};
    return Theme::instance().roleColor(r.role);
}

} // namespace docks
