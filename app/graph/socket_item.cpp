// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/socket_item.h"

#include "graph/graph_scene.h"
#include "graph/graph_style.h"
#include "graph/role_mark.h"
#include "theme.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

using inflight::GcRole;
using inflight::SockType;

namespace {

constexpr double kEmbryoGap = 8;

QString stateName(inflight::SockState s)
{
    switch (s) {
    case inflight::SockState::unconnected: return QStringLiteral("not connected");
    case inflight::SockState::listening: return QStringLiteral("listening");
    case inflight::SockState::connected: return QStringLiteral("connected");
    case inflight::SockState::embryo: return QStringLiteral("embryo (created by connect, not accepted yet)");
    case inflight::SockState::closed: return QStringLiteral("closed");
    }
    return {};
}

} // namespace

QString roleName(GcRole role)
{
    return QString::fromUtf8(inflight::gc_role_name(role).data(), int(inflight::gc_role_name(role).size()));
}

QString sockTypeName(SockType type)
{
    switch (type) {
    case SockType::stream: return QStringLiteral("stream");
    case SockType::dgram: return QStringLiteral("dgram");
    case SockType::seqpacket: return QStringLiteral("seqpacket");
    }
    return {};
}

QString roleExplanation(GcRole role, bool graph_era)
{
    switch (role) {
    case GcRole::idle:
        return QStringLiteral(
            "not in flight: no copy of its file waits in any receive queue, so the collector leaves it alone.");
    case GcRole::inflight:
        return graph_era ? QStringLiteral("in flight: a copy of its file waits in a receive queue, so it is a vertex "
                                          "of the collector's graph.")
                         : QStringLiteral(
                               "in flight: a copy of its file waits in a receive queue, so it is on gc_inflight_list.");
    case GcRole::candidate:
        return graph_era ? QStringLiteral(
                               "on the walk's stack: the collector is visiting its strongly connected group right now.")
                         : QStringLiteral("candidate: all its references may come from in-flight copies; the collector "
                                          "is checking whether anything alive still reaches it.");
    case GcRole::maybe_cycle:
        return QStringLiteral("maybe a cycle: still suspected during the restore walk; unless something alive reaches "
                              "it, it is garbage.");
    case GcRole::not_cycle:
        return QStringLiteral(
            "not a cycle: something outside the in-flight copies (an open fd) still reaches it, so it is kept.");
    case GcRole::garbage:
        return QStringLiteral("garbage: only unreachable in-flight copies keep it alive; the collector purges them and "
                              "the socket is freed.");
    case GcRole::released:
        return QStringLiteral("released: the socket is gone (unix_release_sock() has run). It stays on screen, faded, "
                              "so you can see what happened.");
    case GcRole::scc_pending:
        return QStringLiteral("in an SCC: the walk has cut its strongly connected group off the stack and "
                              "unix_vertex_dead() is checking each member; the verdict comes next.");
    case GcRole::leaked:
        return QStringLiteral("leaked: it is still alive, yet no process fd reaches it and the collector left it: "
                              "nothing will ever free it.");
    }
    return {};
}

SocketItem::SocketItem(const inflight::SnapshotNode &node, QString label, bool graph_era, QGraphicsItem *parent)
    : NodeItem(graph::socketKey(node.sock), parent), node_(node), label_(std::move(label)), graph_era_(graph_era)
{
    setZValue(1);
    relayout();
}

QString SocketItem::countsText() const
{
    return QStringLiteral("refs %1 · %2 %3")
        .arg(node_.file_refs)
        .arg(graph_era_ ? QStringLiteral("out_degree") : QStringLiteral("inflight"))
        .arg(node_.inflight);
}

bool SocketItem::setNode(const inflight::SnapshotNode &node, const QString &label, bool graph_era)
{
    const bool same_look = node.role == node_.role && node.file_refs == node_.file_refs &&
                           node.inflight == node_.inflight && label == label_ && node.listener == node_.listener &&
                           node.embryo == node_.embryo && node.queue == node_.queue && node.state == node_.state &&
                           node.unreachable == node_.unreachable && graph_era == graph_era_;
    node_ = node;
    label_ = label;
    graph_era_ = graph_era;
    if (same_look)
        return false;
    setOpacity(node_.role == GcRole::released ? 0.38 : 1.0);
    update();
    return relayout();
}

void SocketItem::setOpenFds(int count)
{
    if (count == open_fds_)
        return;
    open_fds_ = count;
    update();
}

bool SocketItem::setEmbryos(const std::vector<SocketItem *> &embryos)
{
    embryos_ = embryos;
    return relayout();
}

void SocketItem::restyle()
{
    relayout();
    update();
}

double SocketItem::headerHeight() const
{
    const GraphStyle &s = graphStyle();
    if (node_.embryo && isEmbryoChild())
        return s.smallMetrics.height() * 2 + s.padding;
    if (s.compact)
        return s.labelMetrics.height() + s.padding * 1.2;
    return s.labelMetrics.height() + s.countsMetrics.height() + s.padding * 1.2;
}

bool SocketItem::relayout()
{
    const GraphStyle &s = graphStyle();
    counts_ = countsText();
    setOpacity(node_.role == GcRole::released ? 0.38 : 1.0);
    const QString &label = label_;
    // Reserve room for two-digit counts so the box does not grow at every step.
    const QString reserve =
        QStringLiteral("refs 88 · %1 88").arg(graph_era_ ? QStringLiteral("out_degree") : QStringLiteral("inflight"));
    double w, h;
    if (node_.embryo && isEmbryoChild()) {
        w = qMax(s.smallMetrics.horizontalAdvance(label), s.smallMetrics.horizontalAdvance(counts_)) + s.padding * 1.4;
        h = headerHeight();
    } else {
        const double text =
            s.compact ? s.labelMetrics.horizontalAdvance(label)
                      : qMax(s.labelMetrics.horizontalAdvance(label), qMax(s.countsMetrics.horizontalAdvance(counts_),
                                                                           s.countsMetrics.horizontalAdvance(reserve)));
        const double decoration = node_.type == SockType::seqpacket ? 14 : (node_.type == SockType::dgram ? 10 : 0);
        // The fd tab on the left needs room beside the name.
        const double least = s.compact ? s.labelMetrics.height() * 2 : 96.0;
        w = qMax(text + 2 * s.padding + decoration + (s.compact ? 8 : 0), least);
        h = headerHeight();
        if (node_.listener && !embryos_.empty()) {
            double row_w = 0, row_h = 0;
            for (SocketItem *e : embryos_) {
                row_w += e->box().width() + kEmbryoGap;
                row_h = qMax(row_h, e->box().height());
            }
            row_w += s.padding * 2 - kEmbryoGap;
            w = qMax(w, row_w);
            h += s.smallMetrics.height() + row_h + s.padding;
        }
    }
    const QSizeF old = box().size();
    setBoxSize(QSizeF(w, h));
    // Embryos sit in a row in the accept-queue strip, under the header.
    if (node_.listener && !embryos_.empty()) {
        const double top = box().top() + headerHeight() + s.smallMetrics.height();
        double total = -kEmbryoGap;
        for (SocketItem *e : embryos_)
            total += e->box().width() + kEmbryoGap;
        double x = -total / 2;
        for (SocketItem *e : embryos_) {
            e->setPos(x + e->box().width() / 2, top + e->box().height() / 2);
            x += e->box().width() + kEmbryoGap;
        }
    }
    return old != box().size();
}

QPainterPath SocketItem::outline() const
{
    const QRectF b = box();
    QPainterPath p;
    switch (node_.type) {
    case SockType::stream: p.addRoundedRect(b, 10, 10); break;
    case SockType::dgram: {
        const double c = qMin(12.0, b.height() / 3);
        QPolygonF poly;
        poly << QPointF(b.left() + c, b.top()) << QPointF(b.right() - c, b.top()) << QPointF(b.right(), b.top() + c)
             << QPointF(b.right(), b.bottom() - c) << QPointF(b.right() - c, b.bottom())
             << QPointF(b.left() + c, b.bottom()) << QPointF(b.left(), b.bottom() - c)
             << QPointF(b.left(), b.top() + c);
        p.addPolygon(poly);
        p.closeSubpath();
        break;
    }
    case SockType::seqpacket: p.addRect(b); break;
    }
    return p;
}

void SocketItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget * /*widget*/)
{
    const Theme &t = Theme::instance();
    const QColor fill = t.roleColor(node_.role);
    const double lod = GraphItem::lod(option, painter);
    if (lod < kPlainLod) {
        // Pale fills (idle, released) would vanish into the background without their outline.
        painter->fillRect(box(), fill.lightness() > 225 ? fill.darker(118) : fill);
        return;
    }
    const GraphStyle &s = graphStyle();
    const bool released = node_.role == GcRole::released;
    const bool embryo = node_.embryo || node_.state == inflight::SockState::embryo;
    drawHighlight(painter);
    QColor border = t.highContrast() ? t.ink() : fill.darker(230);
    if (node_.role == GcRole::idle)
        border = t.highContrast() ? t.ink() : QColor(0x70, 0x70, 0x78);
    QPen pen(border, released ? 1.6 : 2.0, released ? Qt::DashLine : (embryo ? Qt::DotLine : Qt::SolidLine));
    if (node_.unreachable)
        pen = unreachableOutline(border);
    painter->setPen(pen);
    painter->setBrush(fill);
    const QPainterPath path = outline();
    painter->drawPath(path);
    // The verdict in a shape as well as a colour: hatched dead, cross-hatched leaked.
    drawRoleMark(*painter, path, node_.role, t.roleTextColor(node_.role), s.padding);
    const QRectF b = box();
    if (node_.type == SockType::seqpacket) {
        painter->setPen(QPen(border, 1.6));
        painter->drawLine(QPointF(b.left() + 6, b.top()), QPointF(b.left() + 6, b.bottom()));
        painter->drawLine(QPointF(b.right() - 6, b.top()), QPointF(b.right() - 6, b.bottom()));
    }
    if (node_.listener) {
        // A double border: the listener's own outline plus an inner one.
        painter->setPen(QPen(border, 1.4));
        painter->setBrush(Qt::NoBrush);
        const QRectF inner = b.adjusted(4, 4, -4, -4);
        if (node_.type == SockType::stream)
            painter->drawRoundedRect(inner, 7, 7);
        else
            painter->drawRect(inner);
    }
    if (open_fds_ > 0) {
        // The "held by an open fd" tab: what keeps a socket reachable from user space.
        const QColor pc = t.processColor();
        // Inside the box, so the fd edges' arrowheads (which end on the outline) stay visible.
        const double h = qMin(24.0, b.height() - 10), w = 5;
        painter->setPen(Qt::NoPen);
        painter->setBrush(pc);
        painter->drawRoundedRect(QRectF(b.left() + 3.5, b.center().y() - h / 2, w, h), 2, 2);
    }
    if (lod < kTextLod)
        return;
    painter->setPen(t.roleTextColor(node_.role));
    const QString &label = label_;
    if (embryo && isEmbryoChild()) {
        QFont f = s.small;
        f.setItalic(true);
        painter->setFont(f);
        const double lh = s.smallMetrics.height();
        painter->drawText(QRectF(b.left(), b.top() + s.padding / 2, b.width(), lh), Qt::AlignCenter, label);
        painter->setFont(s.small);
        painter->drawText(QRectF(b.left(), b.top() + s.padding / 2 + lh, b.width(), lh), Qt::AlignCenter, counts_);
        return;
    }
    const double top = b.top() + s.padding * 0.6;
    QFont lf = s.label;
    lf.setItalic(embryo);
    painter->setFont(lf);
    painter->drawText(QRectF(b.left(), top, b.width(), s.labelMetrics.height()), Qt::AlignCenter, label);
    if (!s.compact) {
        painter->setFont(s.counts);
        painter->drawText(QRectF(b.left(), top + s.labelMetrics.height(), b.width(), s.countsMetrics.height()),
                          Qt::AlignCenter, counts_);
    }
    if (node_.listener && !embryos_.empty()) {
        const double y = b.top() + headerHeight();
        painter->setPen(QPen(border, 1, Qt::DotLine));
        painter->drawLine(QPointF(b.left() + 8, y - 2), QPointF(b.right() - 8, y - 2));
        painter->setPen(t.roleTextColor(node_.role));
        painter->setFont(s.small);
        painter->drawText(QRectF(b.left(), y, b.width(), s.smallMetrics.height()), Qt::AlignCenter,
                          QStringLiteral("accept queue (%1)").arg(embryos_.size()));
    }
}

QString SocketItem::describe() const
{
    const QString label = label_.toHtmlEscaped();
    QString kind = sockTypeName(node_.type) + QStringLiteral(" socket");
    if (node_.listener)
        kind += QStringLiteral(", listening");
    QString html = QStringLiteral("<b>%1</b> — %2<br>").arg(label, kind);
    html += QStringLiteral("State: %1.<br>").arg(stateName(node_.state));
    html += QStringLiteral("<b>At this step</b>: %1<br>").arg(roleExplanation(node_.role, graph_era_));
    // The scene's snapshot is the one this item shows.
    const auto *shown = dynamic_cast<const GraphScene *>(scene());
    const std::string_view why_text = shown ? shown->snapshot().why_of(node_.sock) : std::string_view();
    if (node_.role == GcRole::leaked && !why_text.empty()) {
        QString why = QString::fromUtf8(why_text.data(), static_cast<qsizetype>(why_text.size())).toHtmlEscaped();
        if (!why.endsWith(QLatin1Char('.')))
            why += QLatin1Char('.');
        html += QStringLiteral("<b>Why the collector left it</b>: %1<br>").arg(why);
    }
    html +=
        QStringLiteral(
            "<b>refs %1</b>: references to its file — one per open fd in a process plus one per copy in flight.<br>")
            .arg(node_.file_refs);
    if (graph_era_)
        html += QStringLiteral("<b>out_degree %1</b>: copies of its file in flight (edges leaving its vertex in the "
                               "collector's graph).<br>")
                    .arg(node_.inflight);
    else
        html += QStringLiteral(
                    "<b>inflight %1</b>: copies of its file in flight, waiting in receive queues (u-&gt;inflight).<br>")
                    .arg(node_.inflight);
    html += QStringLiteral("<b>queue %1</b>: messages waiting in its own receive queue.").arg(node_.queue);
    if (open_fds_)
        html +=
            QStringLiteral("<br>The purple tab: %1 open fd%2 of a process refer%3 to it, so it is reachable from user "
                           "space and the collector keeps it.")
                .arg(open_fds_)
                .arg(open_fds_ == 1 ? QString() : QStringLiteral("s"),
                     open_fds_ == 1 ? QStringLiteral("s") : QString());
    else if (node_.role != GcRole::released && !node_.embryo)
        html += QStringLiteral("<br>No process has an fd for it: only in-flight copies can keep it alive.");
    if (node_.embryo)
        html += QStringLiteral(
            "<br>Nobody has accepted this connection yet: the embryo waits in its listener's accept queue, "
            "so whatever it holds is reached through the listener.");
    if (node_.listener && !embryos_.empty())
        html += QStringLiteral("<br>The boxes inside are connections waiting in its accept queue (embryos).");
    return html;
}
