// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/legend_bar.h"
#include "graph/role_mark.h"

#include "theme.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <functional>

using inflight::GcRole;

namespace {

// `cap`: the largest font scale the key follows (0: any).
QFont legendFont(double cap)
{
    const double scale = Theme::instance().fontScale();
    QFont f = Theme::instance().font(cap > 0 && scale > cap ? 10.5 * cap / scale : 10.5);
    f.setPixelSize(qMax(8, qRound(f.pointSizeF() * 96.0 / 72.0)));
    return f;
}

} // namespace

struct LegendBar::Entry {
    QString text;
    std::function<void(QPainter &, const QRectF &)> draw; // the symbol in a box of 1.6em × 1em
    bool row_break = false;                               // starts a new row
    unsigned mark = 0;                                    // a collector's mark (LegendBar::Mark), or 0
};

LegendBar::LegendBar(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    connect(&Theme::instance(), &Theme::changed, this, [this] {
        updateGeometry();
        update();
    });
}

QSize LegendBar::sizeHint() const { return QSize(800, heightForWidth(800)); }
// The height at the width it has (at least 400 px), not at its narrowest: at 200 px every entry
// takes a row, and that many rows of presentation-sized text would squeeze out the docks.
QSize LegendBar::minimumSizeHint() const { return QSize(200, heightForWidth(std::max(width(), 400))); }
int LegendBar::heightForWidth(int width) const { return layoutEntries(width, nullptr, withShapes(width)); }

bool LegendBar::withShapes(int width) const
{
    // The shapes and lines are kept while the whole key fits in three rows; a narrower graph
    // (a wide scene's panel at 1280x800) keeps its height for the graph and shows the colours.
    if (compact_)
        return false;
    const double row = QFontMetricsF(legendFont(compact_scale_)).height() + 6;
    return layoutEntries(width, nullptr, true) <= static_cast<int>(16 + 3 * row);
}

void LegendBar::paintEvent(QPaintEvent * /*event*/)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), Theme::instance().background());
    layoutEntries(width(), &p, withShapes(width()));
}

std::vector<LegendBar::Entry> LegendBar::entries(bool with_shapes) const
{
    const Theme &t = Theme::instance();
    const bool graph = t.graphEra();
    auto role = [&](GcRole r) -> Entry {
        QString name = QString::fromUtf8(inflight::gc_role_name(r).data(), int(inflight::gc_role_name(r).size()));
        if (graph && r == GcRole::candidate)
            name = tr("on the vertex stack");
        else if (graph && r == GcRole::not_cycle)
            name = tr("alive SCC");
        else if (graph && r == GcRole::garbage)
            name = tr("dead SCC (garbage)");
        return {name, [r, &t](QPainter &p, const QRectF &b) {
                    const bool released = r == GcRole::released;
                    p.setOpacity(released ? 0.5 : 1);
                    p.setPen(QPen(t.highContrast() ? t.ink() : t.roleColor(r).darker(r == GcRole::idle ? 170 : 230),
                                  1.5, released ? Qt::DashLine : Qt::SolidLine));
                    p.setBrush(t.roleColor(r));
                    p.drawRoundedRect(b, 4, 4);
                    QPainterPath swatch;
                    swatch.addRoundedRect(b, 4, 4);
                    drawRoleMark(p, swatch, r, t.roleTextColor(r), b.height() / 3);
                    p.setOpacity(1);
                }};
    };
    const QColor border = t.ink();
    std::vector<Entry> entries;
    // Compact, only what the graph shows now (and everything while it shows nothing).
    const bool all = !compact_ || roles_on_graph_ == 0;
    const auto shown = [&](GcRole r) { return all || (roles_on_graph_ & (1u << static_cast<unsigned>(r))); };
    // The restore walk's flag is classic's; an SCC awaiting its verdict is the graph walk's.
    for (GcRole r :
         {GcRole::idle, GcRole::inflight, GcRole::candidate, graph ? GcRole::scc_pending : GcRole::maybe_cycle,
          GcRole::not_cycle, GcRole::garbage, GcRole::leaked, GcRole::released})
        if (shown(r))
            entries.push_back(role(r));
    const std::vector<Entry> shapes = {
        {QStringLiteral("stream"),
         [border](QPainter &p, const QRectF &b) {
             p.setPen(QPen(border, 1.5));
             p.setBrush(Qt::NoBrush);
             p.drawRoundedRect(b, 5, 5);
         }},
        {QStringLiteral("dgram"),
         [border](QPainter &p, const QRectF &b) {
             const double c = b.height() / 3;
             QPolygonF poly;
             poly << QPointF(b.left() + c, b.top()) << QPointF(b.right() - c, b.top())
                  << QPointF(b.right(), b.top() + c) << QPointF(b.right(), b.bottom() - c)
                  << QPointF(b.right() - c, b.bottom()) << QPointF(b.left() + c, b.bottom())
                  << QPointF(b.left(), b.bottom() - c) << QPointF(b.left(), b.top() + c);
             p.setPen(QPen(border, 1.5));
             p.setBrush(Qt::NoBrush);
             p.drawPolygon(poly);
         }},
        {QStringLiteral("seqpacket"),
         [border](QPainter &p, const QRectF &b) {
             p.setPen(QPen(border, 1.5));
             p.setBrush(Qt::NoBrush);
             p.drawRect(b);
             p.drawLine(QPointF(b.left() + 4, b.top()), QPointF(b.left() + 4, b.bottom()));
             p.drawLine(QPointF(b.right() - 4, b.top()), QPointF(b.right() - 4, b.bottom()));
         }},
        {QStringLiteral("listening"),
         [border](QPainter &p, const QRectF &b) {
             p.setPen(QPen(border, 1.5));
             p.setBrush(Qt::NoBrush);
             p.drawRoundedRect(b, 5, 5);
             p.drawRoundedRect(b.adjusted(3, 3, -3, -3), 3, 3);
         }},
        {QStringLiteral("no fd reaches it"),
         [border](QPainter &p, const QRectF &b) {
             p.setPen(unreachableOutline(border));
             p.setBrush(Qt::NoBrush);
             p.drawRoundedRect(b.adjusted(1, 1, -1, -1), 5, 5);
         }},
        {QStringLiteral("embryo"),
         [border](QPainter &p, const QRectF &b) {
             p.setPen(QPen(border, 1.5, Qt::DotLine));
             p.setBrush(Qt::NoBrush);
             p.drawRoundedRect(b, 5, 5);
         }},
        {QStringLiteral("A in B's queue"),
         [&t](QPainter &p, const QRectF &b) {
             const double y = b.center().y();
             p.setPen(QPen(t.edgeColor(), 2));
             p.drawLine(QPointF(b.left(), y), QPointF(b.right() - 6, y));
             p.setBrush(t.edgeColor());
             p.drawPolygon(QPolygonF() << QPointF(b.right(), y) << QPointF(b.right() - 8, y - 4)
                                       << QPointF(b.right() - 8, y + 4));
         }},
        {QStringLiteral("on hitlist"),
         [&t](QPainter &p, const QRectF &b) {
             const double y = b.center().y();
             p.setPen(QPen(t.hitlistEdgeColor(), 3, Qt::DashDotLine, Qt::FlatCap));
             p.drawLine(QPointF(b.left(), y), QPointF(b.right() - 6, y));
             p.setPen(QPen(t.hitlistEdgeColor(), 1));
             p.setBrush(t.hitlistEdgeColor());
             p.drawPolygon(QPolygonF() << QPointF(b.right(), y) << QPointF(b.right() - 8, y - 4)
                                       << QPointF(b.right() - 8, y + 4));
         }},
        {QStringLiteral("has an open fd"),
         [&t, border](QPainter &p, const QRectF &b) {
             p.setPen(QPen(border, 1.2));
             p.setBrush(Qt::NoBrush);
             p.drawRoundedRect(b, 4, 4);
             p.setPen(Qt::NoPen);
             p.setBrush(t.processColor());
             p.drawRoundedRect(QRectF(b.left() + 2.5, b.top() + b.height() * 0.2, 4, b.height() * 0.6), 1.5, 1.5);
         }},
        {QStringLiteral("open fd"),
         [&t](QPainter &p, const QRectF &b) {
             const double y = b.center().y();
             p.setPen(QPen(t.processColor(), 2, Qt::DashLine, Qt::FlatCap));
             p.drawLine(QPointF(b.left(), y), QPointF(b.right() - 2, y));
             p.setPen(QPen(t.processColor(), 2));
             p.drawPolyline(QPolygonF() << QPointF(b.right() - 7, y - 4) << QPointF(b.right(), y)
                                        << QPointF(b.right() - 7, y + 4));
         }},
    };
    // What the running collector draws on the graph: kept in the presentation key too, where a
    // lesson is read from them.
    const auto badge = [&t](const QString &numbers) {
        return [numbers, &t](QPainter &p, const QRectF &b) {
            p.setPen(QPen(t.ink(), 1.2));
            p.setBrush(t.panelColor());
            p.drawRoundedRect(b, b.height() / 3, b.height() / 3);
            QFont f = p.font();
            f.setPixelSize(std::max(6, qRound(b.height() * 0.7)));
            p.setFont(f);
            p.setPen(t.foreground());
            p.drawText(b, Qt::AlignCenter, numbers);
        };
    };
    std::vector<Entry> marks;
    if (graph) {
        marks.push_back({tr("walk: index / scc_index"), badge(QStringLiteral("3/2")), false, walk_numbers});
        // Both verdicts, as the hulls draw them: alive plain, dead hatched.
        marks.push_back({tr("SCC: alive, dead"),
                         [&t](QPainter &p, const QRectF &b) {
                             const double half = b.width() / 2;
                             for (GcRole verdict : {GcRole::not_cycle, GcRole::garbage}) {
                                 const double left = b.left() + (verdict == GcRole::garbage ? half + 1 : 0);
                                 QPolygonF hull;
                                 hull << QPointF(left + 3, b.top()) << QPointF(left + half - 1, b.top())
                                      << QPointF(left + half - 4, b.bottom()) << QPointF(left, b.bottom());
                                 QColor fill = t.roleColor(verdict);
                                 fill.setAlpha(140);
                                 p.setPen(QPen(t.outlineOf(t.roleColor(verdict)), 1.5));
                                 p.setBrush(fill);
                                 p.drawPolygon(hull);
                                 if (verdict == GcRole::garbage) {
                                     p.setPen(Qt::NoPen);
                                     p.setBrush(QBrush(t.outlineOf(t.roleColor(verdict)), Qt::BDiagPattern));
                                     p.drawPolygon(hull);
                                 }
                             }
                         },
                         false, scc_hull});
        marks.push_back({tr("edge the walk examines"),
                         [&t](QPainter &p, const QRectF &b) {
                             const double y = b.center().y();
                             p.setPen(QPen(t.examinedEdgeColor(), 8, Qt::SolidLine, Qt::RoundCap));
                             p.drawLine(QPointF(b.left() + 3, y), QPointF(b.right() - 6, y));
                             p.setPen(QPen(t.edgeColor(), 2.5));
                             p.drawLine(QPointF(b.left(), y), QPointF(b.right() - 6, y));
                             p.setBrush(t.edgeColor());
                             p.drawPolygon(QPolygonF() << QPointF(b.right(), y) << QPointF(b.right() - 8, y - 4)
                                                       << QPointF(b.right() - 8, y + 4));
                         },
                         false, examined_edge});
    } else {
        marks.push_back({tr("candidate: file refs / inflight"), badge(QStringLiteral("2/1")), false, candidate_counts});
        marks.push_back({tr("queue the scan reads"),
                         [&t](QPainter &p, const QRectF &b) {
                             const double y = b.center().y(), h = b.height();
                             QColor fill = t.examinedEdgeColor();
                             fill.setAlpha(255);
                             p.setPen(QPen(t.ink(), 1.2));
                             p.setBrush(fill);
                             p.drawPolygon(QPolygonF()
                                           << QPointF(b.right(), y) << QPointF(b.right() - h * 0.6, y - h / 2)
                                           << QPointF(b.right() - h * 0.6, y - h / 5)
                                           << QPointF(b.left() + 2, y - h / 5) << QPointF(b.left() + 2, y + h / 5)
                                           << QPointF(b.right() - h * 0.6, y + h / 5)
                                           << QPointF(b.right() - h * 0.6, y + h / 2));
                         },
                         false, scan_cursor});
    }
    if (with_shapes) {
        entries.insert(entries.end(), shapes.begin(), shapes.end());
        entries[entries.size() - shapes.size()].row_break = true; // the shapes apart from the roles
    }
    for (const Entry &m : marks)
        if (!compact_ || (marks_on_graph_ & m.mark))
            entries.push_back(m);
    return entries;
}

void LegendBar::setOnGraph(unsigned roles, unsigned marks)
{
    if (roles == roles_on_graph_ && marks == marks_on_graph_)
        return;
    roles_on_graph_ = roles;
    marks_on_graph_ = marks;
    if (compact_) {
        updateGeometry();
        update();
    }
}

void LegendBar::setCompact(bool on)
{
    if (on == compact_)
        return;
    compact_ = on;
    // Presenting, Larger text is for the graph's names and the narration: the key keeps its
    // size, so it neither wraps to more rows nor takes the graph's height.
    compact_scale_ = on ? Theme::instance().fontScale() : 0;
    updateGeometry();
    update();
}

QStringList LegendBar::entryTexts() const
{
    QStringList out;
    for (const Entry &e : entries(withShapes(width()))) {
        if (e.row_break)
            out << QStringLiteral("|");
        out << e.text;
    }
    return out;
}

int LegendBar::layoutEntries(int width, QPainter *painter, bool with_shapes) const
{
    const Theme &t = Theme::instance();
    const std::vector<Entry> entries = this->entries(with_shapes);
    const QFont f = legendFont(compact_scale_);
    const QFontMetricsF fm(f);
    const double h = fm.height(), sym_w = h * 1.7, pad = 8, spacing = h * 1.1;
    double x = pad, y = pad;
    if (painter)
        painter->setFont(f);
    for (const Entry &e : entries) {
        const double w = sym_w + 6 + fm.horizontalAdvance(e.text);
        if (x > pad && (e.row_break || x + w > width - pad)) {
            x = pad;
            y += h + 6;
        }
        if (painter) {
            painter->save();
            e.draw(*painter, QRectF(x, y + h * 0.12, sym_w, h * 0.76));
            painter->restore();
            painter->setPen(t.foreground());
            painter->drawText(QRectF(x + sym_w + 6, y, w, h), Qt::AlignVCenter | Qt::AlignLeft, e.text);
        }
        x += w + spacing;
    }
    return static_cast<int>(y + h + pad);
}
