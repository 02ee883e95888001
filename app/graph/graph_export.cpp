// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/graph_export.h"

#include "graph/aggregate_item.h"
#include "graph/edge_item.h"
#include "graph/fd_edge_item.h"
#include "graph/graph_scene.h"
#include "graph/process_item.h"
#include "graph/socket_item.h"
#include "save_file.h"
#include "theme.h"

#include <QBuffer>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <QTextStream>

#include <algorithm>

namespace graph_export {

namespace {

QRectF exportRect(GraphScene &scene)
{
    scene.finishAnimations();
    return scene.sceneRect();
}

QString quoted(QString s)
{
    s.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    s.replace(QLatin1Char('"'), QStringLiteral("\\\""));
    s.replace(QLatin1Char('\n'), QStringLiteral("\\n"));
    return QLatin1Char('"') + s + QLatin1Char('"');
}

QString num(double v) { return QString::number(v, 'f', 2); }

bool save(const QString &path, const QByteArray &bytes, QString *error)
{
    const auto failed = saveFile(path, bytes, "export");
    if (failed && error)
        *error = *failed;
    return !failed;
}

bool failure(const QString &why, QString *error)
{
    if (error)
        *error = why;
    return false;
}

} // namespace

bool writePng(GraphScene &scene, const QString &path, double scale, QString *error)
{
    const QRectF r = exportRect(scene);
    // Keep the image within 16k pixels a side whatever the graph's size.
    scale = std::min(scale, 16000.0 / std::max({r.width(), r.height(), 1.0}));
    QImage image(qMax(1, qRound(r.width() * scale)), qMax(1, qRound(r.height() * scale)),
                 QImage::Format_ARGB32_Premultiplied);
    image.setDotsPerMeterX(3780); // 96 dpi, like a screen
    image.setDotsPerMeterY(3780);
    image.fill(Theme::instance().background());
    {
        QPainter p(&image);
        p.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        scene.render(&p, QRectF(QPointF(0, 0), image.size()), r);
    }
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG"))
        return failure(QStringLiteral("cannot export %1: the image could not be encoded as PNG").arg(path), error);
    return save(path, png, error);
}

bool writeSvg(GraphScene &scene, const QString &path, QString *error)
{
    const QRectF r = exportRect(scene);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(r.size().toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), r.size()));
    svg.setResolution(96);
    svg.setTitle(QStringLiteral("Inflight graph"));
    svg.setDescription(QStringLiteral("Sockets, in-flight file copies and open fds at one step"));
    QPainter p;
    if (!p.begin(&svg))
        return failure(QStringLiteral("cannot export %1: the SVG could not be drawn").arg(path), error);
    p.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    p.fillRect(QRectF(QPointF(0, 0), r.size()), Theme::instance().background());
    scene.render(&p, QRectF(QPointF(0, 0), r.size()), r);
    if (!p.end())
        return failure(QStringLiteral("cannot export %1: the SVG could not be drawn").arg(path), error);
    return save(path, bytes, error);
}

QString dotText(const GraphScene &scene)
{
    const Theme &t = Theme::instance();
    const QRectF r = scene.sceneRect();
    // Graphviz coordinates: points, y up.
    auto pos = [&](const QPointF &p) {
        return quoted(num(p.x() - r.left()) + QLatin1Char(',') + num(r.bottom() - p.y()) + QLatin1Char('!'));
    };
    auto node_id = [](graph::NodeKey k) {
        switch (graph::kindOf(k)) {
        case graph::NodeKind::socket: return QStringLiteral("s%1").arg(k);
        case graph::NodeKind::process: return QStringLiteral("p%1").arg(graph::payloadOf(k));
        case graph::NodeKind::aggregate: return QStringLiteral("a%1").arg(graph::payloadOf(k), 0, 16);
        }
        return QString();
    };
    QString out;
    QTextStream s(&out);
    s << "// Inflight graph at one step. One edge per in-flight file copy (A -> B: A's file waits in B's\n"
         "// receive queue), dashed edges for open fds. Positions are those on screen, in points with y up:\n"
         "// `neato -n2 -Tsvg` draws it as shown.\n";
    s << "digraph inflight {\n";
    s << "  graph [bb=" << quoted(QStringLiteral("0,0,") + num(r.width()) + QLatin1Char(',') + num(r.height()))
      << ", outputorder=edgesfirst];\n";
    s << "  node [fontname=\"DejaVu Sans\", fixedsize=true];\n";
    s << "  edge [fontname=\"DejaVu Sans\"];\n";

    QList<ProcessItem *> procs = scene.processItems();
    std::sort(procs.begin(), procs.end(),
              [](ProcessItem *a, ProcessItem *b) { return a->processId() < b->processId(); });
    for (ProcessItem *p : procs) {
        QString label = QString::fromStdString(p->process().name + " · " + p->process().user) + QStringLiteral("\\n");
        for (int row = 0; row < p->rowCount(); ++row)
            label += p->rowText(row) + QStringLiteral("\\l");
        QString l = label;
        l.replace(QLatin1Char('"'), QStringLiteral("\\\""));
        s << "  " << node_id(p->key()) << " [shape=box, style=\"rounded\", color=" << quoted(t.processColor().name())
          << ", label=\"" << l << "\", pos=" << pos(p->scenePos()) << ", width=" << num(p->box().width() / 72)
          << ", height=" << num(p->box().height() / 72) << "];\n";
    }
    QList<SocketItem *> socks = scene.socketItems();
    std::sort(socks.begin(), socks.end(), [](SocketItem *a, SocketItem *b) { return a->sock() < b->sock(); });
    for (SocketItem *it : socks) {
        const auto &n = it->node();
        QString style = QStringLiteral("filled");
        if (n.type == inflight::SockType::stream)
            style += QStringLiteral(",rounded");
        if (n.role == inflight::GcRole::released)
            style += QStringLiteral(",dashed");
        else if (n.embryo)
            style += QStringLiteral(",dotted");
        const char *shape = n.type == inflight::SockType::dgram ? "octagon" : "box";
        s << "  " << node_id(it->key()) << " [label=" << quoted(it->label() + QLatin1Char('\n') + it->countsText())
          << ", shape=" << shape << (n.listener ? ", peripheries=2" : "") << ", style=" << quoted(style)
          << ", fillcolor=" << quoted(t.roleColor(n.role).name()) << ", role=" << quoted(roleName(n.role))
          << ", type=" << quoted(sockTypeName(n.type)) << ", refs=" << n.file_refs << ", inflight=" << n.inflight
          << ", queue=" << n.queue;
        if (n.embryo && it->parentItem())
            s << ", listener=" << node_id(static_cast<SocketItem *>(it->parentItem())->key());
        s << ", pos=" << pos(it->scenePos()) << ", width=" << num(it->box().width() / 72)
          << ", height=" << num(it->box().height() / 72) << "];\n";
    }
    for (AggregateItem *a : scene.aggregateItems())
        s << "  " << node_id(a->key()) << " [label="
          << quoted(a->title() + QLatin1Char('\n') +
                    QString::fromStdString(a->group().shape + " · " + a->group().types))
          << ", shape=box3d, instances=" << a->instanceCount()
          << ", sockets_per_instance=" << a->group().sockets_per_instance << ", pos=" << pos(a->scenePos())
          << ", width=" << num(a->box().width() / 72) << ", height=" << num(a->box().height() / 72) << "];\n";

    QList<EdgeItem *> edges = scene.edgeItems();
    std::sort(edges.begin(), edges.end(), [](EdgeItem *a, EdgeItem *b) { return a->key() < b->key(); });
    for (EdgeItem *e : edges) {
        s << "  " << node_id(e->from()->key()) << " -> " << node_id(e->to()->key()) << " [";
        if (e->isBundle())
            s << "label=" << quoted(QStringLiteral("× %1").arg(e->count())) << ", copies=" << e->count();
        else
            s << "id=" << quoted(QStringLiteral("copy%1").arg(e->copy().id)) << ", skb=" << e->copy().skb;
        const bool hit = !e->isBundle() ? e->copy().on_hitlist : false;
        s << ", color=" << quoted((hit ? t.hitlistEdgeColor() : t.edgeColor()).name())
          << (hit ? ", hitlist=true, style=bold" : "") << "];\n";
    }
    QList<FdEdgeItem *> fds = scene.fdEdgeItems();
    std::sort(fds.begin(), fds.end(), [](FdEdgeItem *a, FdEdgeItem *b) {
        return std::make_pair(a->process()->processId(), a->fd()) < std::make_pair(b->process()->processId(), b->fd());
    });
    for (FdEdgeItem *e : fds) {
        s << "  " << node_id(e->process()->key()) << " -> " << node_id(e->to()->key())
          << " [style=dashed, arrowhead=vee, color=" << quoted(t.processColor().name()) << ", label="
          << quoted(e->count() > 1 ? QStringLiteral("%1 fds").arg(e->count()) : QStringLiteral("fd %1").arg(e->fd()))
          << "];\n";
    }
    s << "}\n";
    return out;
}

bool writeDot(const GraphScene &scene, const QString &path, QString *error)
{
    return save(path, dotText(scene).toUtf8(), error);
}

} // namespace graph_export
