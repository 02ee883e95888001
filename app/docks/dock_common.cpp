// SPDX-License-Identifier: GPL-3.0-or-later
#include "dock_common.h"

#include "../theme.h"

#include "inflight/kernel_queries.hpp"
#include "inflight/run_names.hpp"
#include "inflight/scene.hpp"
#include "inflight/step_snapshot.hpp"

#include <QFrame>
#include <QObject>
#include <QScrollArea>
#include <QStringList>

using namespace inflight;

namespace docks {

std::array<std::uint32_t, 3> eventSockets(const Event &e)
{
    // Which of a, b, c are socket ids, per kind (see the field comments in event.hpp).
    bool a = false, b = false, c = false;
    switch (e.kind) {
    case EventKind::note: a = b = true; break; // scene notes carry npos; kernel notes name sockets
    case EventKind::sock_create:
    case EventKind::fd_install:
    case EventKind::fd_close:
    case EventKind::file_get:
    case EventKind::file_put:
    case EventKind::fput_deferred:
    case EventKind::sock_release:
    case EventKind::inflight_change:
    case EventKind::flags_change:
    case EventKind::candidate_check:
    case EventKind::cursor_move:
    case EventKind::vertex_new:
    case EventKind::vertex_free:
    case EventKind::graph_state:
    case EventKind::vertex_visit:
    case EventKind::scc_found:
    case EventKind::scc_verdict: a = true; break;
    case EventKind::list_move: a = e.to != ListId::hitlist; break;
    case EventKind::peer_shutdown:
    case EventKind::scan:
    case EventKind::queue_splice:
    case EventKind::edge_del:
    case EventKind::edge_push:
    case EventKind::edge_pop:
    case EventKind::scc_index_update:
    case EventKind::vertex_dead: a = b = true; break;
    case EventKind::edge_add: a = b = c = true; break;
    case EventKind::skb_queue: b = c = true; break;
    case EventKind::skb_dequeue:
    case EventKind::skb_free:
    case EventKind::skb_hitlist: b = true; break;
    default: break;
    }
    return {a ? e.a : npos, b ? e.b : npos, c ? e.c : npos};
}

bool eventInvolves(const Event &e, std::uint32_t sock)
{
    if (sock == npos)
        return false;
    const auto s = eventSockets(e);
    return s[0] == sock || s[1] == sock || s[2] == sock;
}

std::uint32_t eventSockA(const Event &e) { return eventSockets(e)[0]; }

std::uint32_t eventSkb(const Event &e)
{
    switch (e.kind) {
    case EventKind::skb_queue:
    case EventKind::skb_dequeue:
    case EventKind::skb_free:
    case EventKind::skb_unref:
    case EventKind::fds_attach:
    case EventKind::fds_detach:
    case EventKind::skb_hitlist: return e.a;
    case EventKind::list_move: return e.to == ListId::hitlist ? e.a : npos;
    default: return npos;
    }
}

QString label(const StepSnapshot &s, std::uint32_t sock)
{
    if (sock == npos)
        return QStringLiteral("-");
    return qs(s.label(sock));
}

std::optional<std::uint32_t> findLabel(const Kernel &k, const QString &text)
{
    const QString t = text.trimmed();
    if (t.isEmpty())
        return std::nullopt;
    return socket_labelled(k, t.toStdString());
}

std::optional<std::uint32_t> findLabel(const RunNames &names, const QString &text)
{
    const QString t = text.trimmed();
    if (t.isEmpty())
        return std::nullopt;
    return names.socket_labelled(t.toStdString());
}

QString carriedLabels(const StepSnapshot &s, const SkbEntry &skb)
{
    QStringList out;
    for (std::uint32_t sock : skb.carried)
        out << (sock != npos ? qs(s.label(sock)) : QObject::tr("(non-socket file)"));
    return out.join(QStringLiteral(", "));
}

QString skbText(const StepSnapshot &s, const SkbEntry &skb)
{
    const QString files = carriedLabels(s, skb);
    QString t = QStringLiteral("skb#%1").arg(skb.id);
    if (skb.connecting != npos)
        t += QObject::tr(" connect → %1").arg(qs(s.label(skb.connecting)));
    else if (files.isEmpty())
        t += QObject::tr(" (no fds)");
    if (!files.isEmpty())
        t += QStringLiteral(" → ") + files;
    return t;
}

namespace {
const Statement *find_in(const std::vector<Statement> &list, std::uint32_t line)
{
    for (const Statement &s : list) {
        if (s.loc.line == line && s.op != Op::repeat)
            return &s;
        if (s.op == Op::repeat)
            if (const Statement *inner = find_in(s.body, line))
                return inner;
    }
    return nullptr;
}
} // namespace

const Statement *statementOnLine(const Scene &scene, std::uint32_t line)
{
    return line ? find_in(scene.statements, line) : nullptr;
}

QColor touchedBackground() { return Theme::instance().highlightLineColor(); }
QColor selectedBackground() { return Theme::instance().selectionColor(); }
QColor selectedForeground() { return Qt::white; }
QFont rowFont(bool bold) { return Theme::instance().font(kRowPoints, bold); }

QScrollArea *scrollable(QWidget *body, QWidget *parent)
{
    auto *area = new QScrollArea(parent);
    area->setFrameShape(QFrame::NoFrame);
    area->setWidgetResizable(true);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    area->setWidget(body);
    return area;
}

int eventKindCount() { return static_cast<int>(EventKind::expect_result) + 1; }

const std::vector<KindGroup> &kindGroups()
{
    using K = EventKind;
    auto m = [](std::initializer_list<K> kinds) {
        std::uint64_t r = 0;
        for (K k : kinds)
            r |= kindBit(k);
        return r;
    };
    static const std::vector<KindGroup> groups{
        {QObject::tr("All events"), QObject::tr("Every micro-step of the run"), kAllKinds},
        {QObject::tr("Statements"), QObject::tr("Scene statements starting and ending, notes, expectations"),
         m({K::stmt_begin, K::stmt_end, K::note, K::expect_result})},
        {QObject::tr("Sockets and messages"),
         QObject::tr("Sockets created and released, skbs queued, dequeued and freed, fds attached"),
         m({K::sock_create, K::sock_release, K::peer_shutdown, K::skb_queue, K::skb_dequeue, K::skb_free, K::skb_unref,
            K::fds_attach, K::fds_detach})},
        {QObject::tr("Refcounts"), QObject::tr("File references and u->inflight / out_degree going up and down"),
         m({K::fd_install, K::fd_close, K::file_get, K::file_put, K::fput_deferred, K::inflight_change,
            K::flags_change})},
        {QObject::tr("Lists"), QObject::tr("The classic collector's lists: candidates, the cursor walk, the hitlist"),
         m({K::list_move, K::candidate_check, K::cursor_move, K::scan, K::skb_hitlist, K::queue_splice})},
        {QObject::tr("Graph walk"), QObject::tr("Vertices and edges, Tarjan's walk, SCCs and their verdicts"),
         m({K::vertex_new, K::vertex_free, K::edge_add, K::edge_del, K::graph_state, K::vertex_visit, K::edge_push,
            K::edge_pop, K::scc_index_update, K::scc_found, K::vertex_dead, K::scc_verdict})},
        {QObject::tr("Collections"), QObject::tr("unix_gc() called, queued, waited for, started, ended, skipped"),
         m({K::gc_call, K::gc_queued, K::gc_wait, K::gc_begin, K::gc_end, K::gc_skip})},
        {QObject::tr("Findings"), QObject::tr("Broken invariants, failed statements, expectations"),
         m({K::finding, K::warning, K::expect_result})},
    };
    return groups;
}

} // namespace docks
