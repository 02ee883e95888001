// SPDX-License-Identifier: GPL-3.0-or-later
#include "gc_list_model.h"

#include "dock_common.h"

#include "../player_controller.h"
#include "../theme.h"

#include "inflight/graph_snapshot.hpp"
#include "inflight/kernel.hpp"

using namespace inflight;

namespace docks {

namespace {

const GcList *list_of(const Kernel &k, ListId id)
{
    switch (id) {
    case ListId::gc_inflight_list: return &k.gc_inflight_list;
    case ListId::gc_candidates: return &k.gc_candidates;
    case ListId::not_cycle_list: return &k.not_cycle_list;
    default: return nullptr;
    }
}

QString flags_text(std::int64_t f)
{
    QStringList s;
    if (f & UNIX_GC_CANDIDATE)
        s << QStringLiteral("CANDIDATE");
    if (f & UNIX_GC_MAYBE_CYCLE)
        s << QStringLiteral("MAYBE_CYCLE");
    return s.isEmpty() ? QStringLiteral("none") : s.join(QLatin1Char('|'));
}

} // namespace

GcListModel::GcListModel(PlayerController &controller, ListId list, QObject *parent)
    : DockListModel(controller, parent), list_(list)
{
    refresh();
}

std::vector<DockListModel::Row> GcListModel::collect() const
{
    std::vector<Row> rows;
    const Kernel &k = controller_.kernel();
    const GcList *l = list_of(k, list_);
    if (!l)
        return rows;
    const Event *e = controller_.currentEvent();
    const std::uint32_t touched = e ? eventSockA(*e) : npos;
    const auto sel = controller_.selectedSocket();
    rows.reserve(l->size());
    for (const GcLink &link : *l) {
        Row r;
        if (link.is_cursor) {
            r.kind = RowKind::cursor;
            r.touched = e && e->kind == EventKind::cursor_move;
        } else {
            const auto &u = static_cast<const UnixSock &>(link);
            r.kind = RowKind::sock;
            r.id = u.id;
            r.v1 = u.inflight;
            r.v2 = u.file ? u.file->count : 0;
            r.v3 = u.gc_flags;
            r.touched = u.id == touched;
            r.selected = sel && *sel == u.id;
        }
        rows.push_back(std::move(r));
    }
    return rows;
}

QString GcListModel::text(const Row &r) const
{
    if (r.kind == RowKind::cursor)
        return tr("▶ cursor");
    return tr("%1    inflight %2 · refs %3").arg(label(controller_.kernel(), r.id)).arg(r.v1).arg(r.v2);
}

QString GcListModel::toolTip(const Row &r) const
{
    if (r.kind == RowKind::cursor)
        return tr("The restore walk's cursor: a dummy list node, like the kernel's. The walk looks at the "
                  "socket right after it, then moves past it. Sockets above the cursor were looked at; a "
                  "socket moved to the tail will be reached again.");
    const QString name = label(controller_.kernel(), r.id);
    return tr("%1: u->inflight %2 (copies of its file in flight, minus those the collector discounted), "
              "file refs %3 (every reference: fds and in-flight copies). Flags: %4.")
        .arg(name)
        .arg(r.v1)
        .arg(r.v2)
        .arg(flags_text(r.v3));
}

QColor GcListModel::swatch(const Row &r) const
{
    const Kernel &k = controller_.kernel();
    if (r.kind == RowKind::cursor || r.id >= k.socks.size())
        return {};
    return Theme::instance().roleColor(role_of(k, k.socks[r.id]));
}

} // namespace docks
