// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/graph_export.h"

#include "graph/aggregate_item.h"
#include "graph/edge_item.h"
#include "graph/fd_edge_item.h"
#include "graph/graph_scene.h"
#include "graph/process_item.h"
#include "graph/socket_item.h"
#include "save_file.h"
#include "settings/checked_settings.h"
#include "theme.h"

#include <QBuffer>
#include <QFileInfo>
#include <QGraphicsItem>
#include <QImage>
#include <QPainter>
#include <QSettings>
#include <QSvgGenerator>
#include <QTextLayout>
#include <QTextStream>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace graph_export {

namespace {

constexpr double kMargin = 16;

// In pixels: a point size would grow with the 2x PNG's resolution and outrun the wrapping.
QFont captionFont(int pixels)
{
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPixelSize(pixels);
    return f;
}

// A caption's lines broken to `width` (the height is what they take).
struct Block {
    QFont font;
    QStringList lines;
    double line_height = 0;
    double height() const { return line_height * lines.size(); }
};

Block wrapped(const QString &text, const QFont &font, double width)
{
    Block b{font, {}, QFontMetricsF(font).lineSpacing()};
    if (text.isEmpty())
        return b;
    for (const QString &paragraph : text.split(QLatin1Char('\n'))) {
        QTextLayout layout(paragraph, font);
        layout.beginLayout();
        for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
            line.setLineWidth(width);
            b.lines << paragraph.mid(line.textStart(), line.textLength()).trimmed();
        }
        layout.endLayout();
    }
    return b;
}

// Where each part goes on the picture, in picture coordinates (0,0 top left).
struct Page {
    QRectF graph_source; // in scene coordinates
    QRectF graph_target;
    Block title, narration;
    QPointF title_at, narration_at, legend_at;
    QWidget *legend = nullptr;
    QSizeF size;
};

Page pageFor(GraphScene &scene, const Captions &captions)
{
    Page page;
    page.graph_source = graphBounds(scene);
    const double width = std::max(page.graph_source.width(), 480.0);
    const double text_width = width - 2 * kMargin;
    page.title = wrapped(captions.title, captionFont(20), text_width);
    page.narration = wrapped(captions.narration, captionFont(15), text_width);
    double y = 0;
    if (!page.title.lines.isEmpty()) {
        page.title_at = QPointF(kMargin, kMargin);
        y = kMargin + page.title.height();
    }
    page.graph_target = QRectF(QPointF((width - page.graph_source.width()) / 2, y), page.graph_source.size());
    y = page.graph_target.bottom();
    if (!page.narration.lines.isEmpty()) {
        page.narration_at = QPointF(kMargin, y);
        y += page.narration.height() + kMargin / 2;
    }
    if (captions.legend) {
        page.legend = captions.legend;
        const QSize s = captions.legend->sizeHint().expandedTo(captions.legend->minimumSizeHint());
        captions.legend->resize(std::min<int>(s.width(), int(text_width)), s.height());
        page.legend_at = QPointF(kMargin, y);
        y += captions.legend->height() + kMargin;
    }
    page.size = QSizeF(width, y);
    return page;
}

void drawBlock(QPainter &p, const Block &b, QPointF at)
{
    p.setFont(b.font);
    p.setPen(Theme::instance().foreground());
    const double ascent = QFontMetricsF(b.font).ascent();
    for (const QString &line : b.lines) {
        p.drawText(at + QPointF(0, ascent), line);
        at.ry() += b.line_height;
    }
}

void drawPage(QPainter &p, GraphScene &scene, const Page &page)
{
    p.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    p.fillRect(QRectF(QPointF(0, 0), page.size), Theme::instance().background());
    scene.render(&p, page.graph_target, page.graph_source);
    drawBlock(p, page.title, page.title_at);
    drawBlock(p, page.narration, page.narration_at);
    if (page.legend) {
        p.save();
        p.translate(page.legend_at);
        page.legend->render(&p, QPoint(), QRegion(), QWidget::DrawChildren);
        p.restore();
    }
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

PictureOptions readPictureOptions()
{
    const CheckedSettings s;
    PictureOptions o;
    o.title = s.readBool(QStringLiteral("export/title"), true);
    o.narration = s.readBool(QStringLiteral("export/narration"), true);
    o.legend = s.readBool(QStringLiteral("export/legend"), true);
    o.png_scale = s.readDouble(QStringLiteral("export/pngScale"), 2.0, 1.0, 4.0);
    const QString dir = s.readString(QStringLiteral("export/directory"), {}, 4096);
    o.directory = QFileInfo(dir).isDir() ? dir : QString();
    return o;
}

void writePictureOptions(const PictureOptions &o)
{
    QSettings s;
    s.setValue(QStringLiteral("export/title"), o.title);
    s.setValue(QStringLiteral("export/narration"), o.narration);
    s.setValue(QStringLiteral("export/legend"), o.legend);
    s.setValue(QStringLiteral("export/pngScale"), o.png_scale);
    s.setValue(QStringLiteral("export/directory"), o.directory);
}

QString titleLine(const QString &scene_title, quint64 step, quint64 total, int line)
{
    QString s = QStringLiteral("%1 — step %2 of %3").arg(scene_title).arg(step).arg(total);
    if (line > 0)
        s += QStringLiteral(" — line %1").arg(line);
    return s;
}

QString defaultFileName(const QString &scene_path, const QString &variant, quint64 step, const QString &extension)
{
    QString stem = QFileInfo(scene_path).completeBaseName();
    if (stem.isEmpty())
        stem = QStringLiteral("inflight-graph");
    if (!variant.isEmpty())
        stem += QLatin1Char('-') + variant;
    return stem + QStringLiteral("-step%1.").arg(step) + extension;
}

QRectF graphBounds(GraphScene &scene)
{
    scene.finishAnimations();
    // The scene rect is the layout's box; curves bulging out of it and long labels are not
    // in it, so the picture is every drawn item's own extent.
    QRectF r;
    for (const QGraphicsItem *item : scene.items())
        if (item->isVisible())
            r |= item->sceneBoundingRect();
    if (r.isEmpty())
        r = scene.sceneRect();
    return r.adjusted(-kMargin, -kMargin, kMargin, kMargin);
}

bool writePng(GraphScene &scene, const QString &path, double scale, QString *error, const Captions &captions)
{
    const Page page = pageFor(scene, captions);
    // Keep the image within 16k pixels a side whatever the graph's size.
    scale = std::clamp(scale, 0.25, 16000.0 / std::max({page.size.width(), page.size.height(), 1.0}));
    QImage image(qMax(1, qRound(page.size.width() * scale)), qMax(1, qRound(page.size.height() * scale)),
                 QImage::Format_ARGB32_Premultiplied);
    // The picture's size in inches stays that of the view; a 2x image is sharper, not bigger.
    image.setDotsPerMeterX(qRound(3780 * scale));
    image.setDotsPerMeterY(qRound(3780 * scale));
    image.setDevicePixelRatio(scale);
    {
        QPainter p(&image);
        drawPage(p, scene, page);
    }
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG"))
        return failure(QStringLiteral("cannot export %1: the image could not be encoded as PNG").arg(path), error);
    return save(path, png, error);
}

std::optional<QByteArray> svgDocument(GraphScene &scene, const Captions &captions)
{
    const Page page = pageFor(scene, captions);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(page.size.toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), page.size));
    svg.setResolution(96);
    svg.setTitle(captions.title.isEmpty() ? QStringLiteral("Inflight graph") : captions.title);
    svg.setDescription(QStringLiteral("Sockets, in-flight file copies and open fds at one step"));
    QPainter p;
    if (!p.begin(&svg))
        return std::nullopt;
    drawPage(p, scene, page);
    if (!p.end())
        return std::nullopt;
    return bytes;
}

bool writeSvg(GraphScene &scene, const QString &path, QString *error, const Captions &captions)
{
    const std::optional<QByteArray> bytes = svgDocument(scene, captions);
    if (!bytes)
        return failure(QStringLiteral("cannot export %1: the SVG could not be drawn").arg(path), error);
    return save(path, *bytes, error);
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
