// SPDX-License-Identifier: GPL-3.0-or-later
#include "hitlist_model.h"

#include "dock_common.h"

#include "../player_controller.h"
#include "../theme.h"

#include "inflight/step_snapshot.hpp"

#include <algorithm>

using namespace inflight;

namespace docks {

HitlistModel::HitlistModel(PlayerController &controller, QObject *parent) : DockListModel(controller, parent)
{
    refresh();
}

std::vector<DockListModel::Row> HitlistModel::collect() const
{
    std::vector<Row> rows;
    const StepSnapshot &s = controller().snapshot();
    const Event *e = controller().currentEvent();
    const auto sel = controller().selectedSocket();
    // queue_splice moves a whole queue: every skb that came from it was touched.
    std::uint32_t spliced = npos;
    if (e && e->kind == EventKind::queue_splice)
        spliced = e->b != npos ? e->b : e->a;
    const std::uint32_t moved = e && e->to == ListId::hitlist ? eventSkb(*e) : npos;
    for (const SkbEntry &skb : s.hitlist) {
        Row r;
        r.kind = RowKind::skb;
        r.id = skb.id;
        r.id2 = skb.receiver;
        // The first socket it carries: what a click selects.
        for (std::uint32_t carried : skb.carried)
            if (carried != npos) {
                r.v1 = static_cast<std::int64_t>(carried) + 1;
                break;
            }
        r.touched = skb.id == moved || (spliced != npos && r.id2 == spliced);
        const bool carries_selected =
            sel && std::find(skb.carried.begin(), skb.carried.end(), *sel) != skb.carried.end();
        r.selected = sel && (carries_selected || r.id2 == *sel);
        r.text = skbText(s, skb);
        const QString from = skb.receiver != npos ? qs(s.label(skb.receiver)) : tr("?");
        const QString files = carriedLabels(s, skb);
        r.tip =
            r.text + QStringLiteral("\n\n") +
            (files.isEmpty() ? tr("skb#%1 came from %2's receive queue and carries no file.").arg(skb.id).arg(from)
                             : tr("skb#%1 came from %2's receive queue and carries %3. Purging the hitlist frees it "
                                  "and drops those file references: that is what finally releases the garbage.")
                                   .arg(skb.id)
                                   .arg(from, files));
        rows.push_back(std::move(r));
    }
    return rows;
}

QColor HitlistModel::swatch(const Row & /*r*/) const { return Theme::instance().hitlistEdgeColor(); }

std::optional<std::uint32_t> HitlistModel::socketOf(const Row &r) const
{
    if (r.v1 > 0)
        return static_cast<std::uint32_t>(r.v1 - 1);
    if (r.id2 != npos)
        return r.id2;
    return std::nullopt;
}

} // namespace docks
