// SPDX-License-Identifier: GPL-3.0-or-later
#include "scc_model.h"

#include "dock_common.h"

#include "../player_controller.h"
#include "../theme.h"

#include "inflight/step_snapshot.hpp"

#include <algorithm>

using namespace inflight;

namespace docks {

SccModel::SccModel(PlayerController &controller, QObject *parent) : DockListModel(controller, parent) { refresh(); }

void SccModel::rebuildIndex() const
{
    begin_step_ = done_to_ = 0;
    next_row_ = 0;
    unrecorded_ = false;
    sccs_.clear();
    stack_.clear();
    rows_.clear();
    clean_ = 0;
    run_ = 0;
    finished_ = skipped_ = false;
    const auto &tl = controller().timeline();
    indexed_data_ = controller().indexReady() ? tl.contents_id() : 0;
    indexed_size_ = tl.size();
    if (!controller().indexReady())
        return;
    indexed_ = true;
}

void SccModel::track() const
{
    const auto &tl = controller().timeline();
    // A new run (another scene or era) replaces the timeline: start over.
    if (!indexed_ || indexed_data_ != (controller().indexReady() ? tl.contents_id() : 0) || indexed_size_ != tl.size())
        rebuildIndex();
    if (!indexed_)
        return;
    const std::uint64_t pos = controller().position();
    // Every gc_begin's step and row, found as the run was indexed (RunLandmarks).
    const RunLandmarks &marks = controller().landmarks();
    const auto it = std::upper_bound(marks.gc_steps.begin(), marks.gc_steps.end(), pos);
    const std::size_t collection = static_cast<std::size_t>(it - marks.gc_steps.begin()); // one past pos's
    const std::uint64_t begin = collection ? marks.gc_steps[collection - 1] : 0;
    if (begin != begin_step_ || pos < done_to_) {
        // Another collection, or backwards: start over from its gc_begin.
        begin_step_ = begin;
        next_row_ = begin ? marks.gc_begin_rows[collection - 1] : 0;
        done_to_ = 0;
        sccs_.clear();
        stack_.clear();
        rows_.clear();
        clean_ = 0;
        run_ = 0;
        finished_ = skipped_ = false;
        // Past the index cap only landmarks are recorded: a collection there has no SCC events.
        unrecorded_ = begin && !controller().indexComplete() && begin > PlayerController::kIndexCap;
    }
    if (!begin_step_)
        return;
    const StepSnapshot &k = controller().snapshot();
    for (; next_row_ < tl.size() && tl[next_row_].step <= pos && !finished_; ++next_row_) {
        const Event &e = tl[next_row_];
        switch (e.kind) {
        case EventKind::gc_begin: run_ = e.a; break;
        case EventKind::gc_skip: skipped_ = true; break;
        case EventKind::gc_end: finished_ = true; break;
        case EventKind::vertex_visit: stack_.push_back(e.a); break;
        case EventKind::scc_found: {
            Scc scc;
            scc.root = e.a;
            scc.size = e.before;
            scc.fast = e.fn == KFn::unix_walk_scc_fast;
            if (!scc.fast) {
                // Tarjan cuts the stack at the root: the members are the root and everything above.
                auto root = std::find(stack_.begin(), stack_.end(), e.a);
                scc.members.assign(root, stack_.end());
                stack_.erase(root, stack_.end());
            } else if (k.scc_prev.contains(e.a)) {
                // The fast path walks the ring the last full walk left; it is intact until purged.
                scc.members.push_back(e.a);
                for (auto w = k.scc_prev.find(e.a); w != k.scc_prev.end() && w->second != e.a &&
                                                    scc.members.size() < static_cast<std::size_t>(e.before);
                     w = k.scc_prev.find(w->second))
                    scc.members.push_back(w->second);
            }
            scc.member_dead.assign(scc.members.size(), -1);
            scc.reason.assign(scc.members.size(), -1);
            sccs_.push_back(std::move(scc));
            break;
        }
        case EventKind::vertex_dead:
            if (!sccs_.empty()) {
                Scc &scc = sccs_.back();
                auto m = std::find(scc.members.begin(), scc.members.end(), e.a);
                if (m == scc.members.end()) {
                    scc.members.push_back(e.a);
                    scc.member_dead.push_back(-1);
                    scc.reason.push_back(-1);
                    m = scc.members.end() - 1;
                }
                const auto i = static_cast<std::size_t>(m - scc.members.begin());
                scc.member_dead[i] = e.before ? 1 : 0;
                scc.reason[i] = e.after;
            }
            break;
        case EventKind::scc_verdict:
            if (!sccs_.empty()) {
                sccs_.back().verdict = e.before ? 1 : 0;
                sccs_.back().cyclic = e.after != 0;
            }
            break;
        default: break;
        }
        if (!sccs_.empty() &&
            (e.kind == EventKind::scc_found || e.kind == EventKind::vertex_dead || e.kind == EventKind::scc_verdict))
            clean_ = std::min(clean_, sccs_.size() - 1);
    }
    done_to_ = pos; // after gc_end nothing belongs to this collection any more
}

DockListModel::Row SccModel::makeRow(std::size_t i) const
{
    const StepSnapshot &k = controller().snapshot();
    const Scc &scc = sccs_[i];
    Row r;
    r.kind = RowKind::scc;
    r.id = scc.root;
    r.id2 = static_cast<std::uint32_t>(i);
    r.v1 = scc.verdict;
    r.v2 = scc.cyclic;
    r.v3 = static_cast<std::int64_t>(std::count(scc.member_dead.begin(), scc.member_dead.end(), -1));
    QStringList names;
    for (std::size_t m = 0; m < scc.members.size(); ++m) {
        QString n = label(k, scc.members[m]);
        if (scc.verdict < 0 && scc.member_dead[m] >= 0)
            n += scc.member_dead[m] ? QStringLiteral("\u00a0✓dead") : QStringLiteral("\u00a0✗alive");
        names << n;
    }
    const auto known = static_cast<std::int64_t>(scc.members.size());
    if (known < scc.size)
        names << tr("+%1 more").arg(scc.size - known);
    const QString set = QStringLiteral("{") + names.join(QStringLiteral(", ")) + QStringLiteral("}");
    QString verdict;
    if (scc.verdict < 0)
        verdict = tr("judging…");
    else if (scc.verdict == 1)
        verdict = tr("GARBAGE");
    else
        verdict = scc.cyclic ? tr("alive (cyclic)") : tr("alive");
    r.text = QStringLiteral("%1  %2").arg(verdict, set); // the verdict first: it is what matters

    QString tip =
        set + QStringLiteral("\n\n") +
        tr("An SCC (strongly connected component) rooted at %1, %2 member(s). ").arg(label(k, scc.root)).arg(scc.size);
    if (scc.fast)
        tip += tr("Found by the fast path, which re-checks the SCCs the last full walk grouped. ");
    if (scc.verdict == 1)
        tip += tr("Every member is dead: each copy of its file sits inside this SCC and nothing else "
                  "holds it. Their receive queues go to the hitlist.");
    else if (scc.verdict == 0)
        tip += tr("Alive: unix_vertex_dead() failed for a member (a copy of its file sits outside the SCC, or "
                  "with a different scc_index, or something outside flight holds it), so the whole SCC stays.");
    else
        tip += tr("The collector is checking its members one by one (unix_vertex_dead()).");
    r.tip = tip;
    const auto sel = controller().selectedSocket();
    r.selected = sel && std::find(scc.members.begin(), scc.members.end(), *sel) != scc.members.end();
    return r;
}

std::vector<DockListModel::Row> SccModel::collect() const
{
    track();
    const auto sel = controller().selectedSocket();
    if (sel != rows_sel_) {
        // Another selection: only the marks change.
        for (std::size_t i = 0; i < std::min(clean_, rows_.size()); ++i) {
            const auto &m = sccs_[i].members;
            rows_[i].selected = sel && std::find(m.begin(), m.end(), *sel) != m.end();
        }
        rows_sel_ = sel;
    }
    rows_.resize(sccs_.size());
    for (std::size_t i = clean_; i < sccs_.size(); ++i)
        rows_[i] = makeRow(i);
    clean_ = sccs_.size();
    const Event *e = controller().currentEvent();
    const bool scc_event = e && (e->kind == EventKind::scc_found || e->kind == EventKind::vertex_dead ||
                                 e->kind == EventKind::scc_verdict || e->kind == EventKind::queue_splice ||
                                 e->kind == EventKind::scc_index_update);
    std::vector<Row> out = rows_;
    if (scc_event && !finished_ && !out.empty())
        out.back().touched = true;
    // Judged alive, yet no fd reaches any member and the collection is over: not "alive" in
    // any sense a student would use. Said here, not in makeRow(): the marks come at gc_end.
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (!leaked(i))
            continue;
        out[i].text += tr("  · leaked");
        out[i].tip += QStringLiteral("\n\n") +
                      tr("Leaked: no open fd reaches any member, yet the collector left them. %1")
                          .arg(QString::fromStdString(controller().snapshot().leaked->at(sccs_[i].members.front())));
    }
    return out;
}

bool SccModel::leaked(std::size_t i) const
{
    if (!finished_ || i >= sccs_.size() || sccs_[i].verdict != 0 || sccs_[i].members.empty())
        return false;
    const StepSnapshot &k = controller().snapshot();
    const auto &m = sccs_[i].members;
    return std::all_of(m.begin(), m.end(), [&](std::uint32_t id) { return k.is_leaked(id); });
}

QColor SccModel::swatch(const Row &r) const
{
    const Theme &t = Theme::instance();
    if (leaked(r.id2))
        return t.roleColor(GcRole::leaked);
    if (r.v1 == 1)
        return t.roleColor(GcRole::garbage);
    if (r.v1 == 0)
        return t.roleColor(GcRole::not_cycle);
    return t.roleColor(GcRole::candidate);
}

} // namespace docks
