// SPDX-License-Identifier: GPL-3.0-or-later
#include "gc_list_model.h"

#include "dock_common.h"

#include "../player_controller.h"
#include "../theme.h"

#include "inflight/step_snapshot.hpp"

using namespace inflight;

namespace docks {

namespace {

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
    const StepSnapshot &s = controller().snapshot();
    const std::vector<ListEntry> *l = s.list(list_);
    if (!l)
        return rows;
    const Event *e = controller().currentEvent();
    const std::uint32_t touched = e ? eventSockA(*e) : npos;
    const auto sel = controller().selectedSocket();
    rows.reserve(l->size());
    for (const ListEntry &entry : *l) {
        Row r;
        if (entry.is_cursor()) {
            r.kind = RowKind::cursor;
            r.touched = e && e->kind == EventKind::cursor_move;
        } else {
            r.kind = RowKind::sock;
            r.id = entry.sock;
            r.v1 = entry.inflight;
            r.v2 = entry.file_refs;
            r.v3 = entry.gc_flags;
            r.touched = entry.sock == touched;
            r.selected = sel && *sel == entry.sock;
            r.role = entry.role;
        }
        rows.push_back(std::move(r));
    }
    return rows;
}

QString GcListModel::text(const Row &r) const
{
    if (r.kind == RowKind::cursor)
        return tr("▶ cursor");
    return tr("%1    inflight %2 · refs %3").arg(qs(controller().snapshot().label(r.id))).arg(r.v1).arg(r.v2);
}

QString GcListModel::toolTip(const Row &r) const
{
    if (r.kind == RowKind::cursor)
        return tr("The restore walk's cursor: a dummy list node, like the kernel's. The walk looks at the "
                  "socket right after it, then moves past it. Sockets above the cursor were looked at; a "
                  "socket moved to the tail will be reached again.");
    const QString name = qs(controller().snapshot().label(r.id));
    return tr("%1: u->inflight %2 (copies of its file in flight, minus those the collector discounted), "
              "file refs %3 (every reference: fds and in-flight copies). Flags: %4.")
        .arg(name)
        .arg(r.v1)
        .arg(r.v2)
        .arg(flags_text(r.v3));
}

QColor GcListModel::swatch(const Row &r) const
{
    if (r.kind == RowKind::cursor)
        return {};
    return Theme::instance().roleColor(r.role);
}

} // namespace docks
