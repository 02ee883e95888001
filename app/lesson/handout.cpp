// SPDX-License-Identifier: GPL-3.0-or-later
#include "lesson/handout.h"

#include "graph/graph_export.h"
#include "graph/graph_panel.h"
#include "graph/graph_scene.h"
#include "graph/legend_bar.h"
#include "lesson/beat_walk.h"
#include "lesson/scene_note.h"
#include "player_controller.h"
#include "save_file.h"

#include "inflight/beats.hpp"

#include <QBuffer>
#include <QCoreApplication>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>

#include <algorithm>

namespace lesson {

namespace {

// One page: the step it draws and the words around it.
struct Page {
    std::uint64_t step = 0;
    QString note;
    std::uint32_t first_line = 0, last_line = 0; // the scene's lines shown
    std::uint32_t line = 0;                      // the one running at the step
};

// The text of the note a beat shows, if it is a note's beat.
QString noteText(const PlayerController &c, const inflight::Beat &b)
{
    const inflight::Statement *s = noteOnLine(c.scene().statements, b.scene_line);
    return s ? QString::fromStdString(s->text) : QString();
}

// Per note: the picture as that note's part of the lesson ends (the beat before the next
// note, or the last), its lines from the note's to the next one's. Per beat: every beat, with
// the note in force and the lines around its own.
std::vector<Page> choosePages(const PlayerController &c, HandoutPages pages)
{
    const std::vector<inflight::Beat> &beats = c.runIndex().beats();
    const std::uint32_t last_line = static_cast<std::uint32_t>(c.scene().lines.size());
    std::vector<std::size_t> notes;
    for (std::size_t i = 0; i < beats.size(); ++i)
        if (beats[i].kind == inflight::BeatKind::note)
            notes.push_back(i);
    std::vector<Page> out;
    if (pages == HandoutPages::per_note && !notes.empty()) {
        for (std::size_t n = 0; n < notes.size(); ++n) {
            const std::size_t next = n + 1 < notes.size() ? notes[n + 1] : beats.size();
            const inflight::Beat &end = beats[next - 1];
            const std::uint32_t from = beats[notes[n]].scene_line;
            const std::uint32_t to =
                next < beats.size() ? std::max(from, beats[next].scene_line - 1) : std::max(from, last_line);
            out.push_back({end.step, noteText(c, beats[notes[n]]), from, to, end.scene_line});
        }
        return out;
    }
    QString note;
    for (const inflight::Beat &b : beats) {
        if (b.kind == inflight::BeatKind::note)
            note = noteText(c, b);
        const std::uint32_t from = b.scene_line > 2 ? b.scene_line - 2 : 1;
        out.push_back({b.step, note, from, std::min(last_line, b.scene_line + 2), b.scene_line});
    }
    return out;
}

// A block of wrapped text at `top`, `width` wide, in `font`; returns its height.
double drawText(QPainter &p, const QString &text, const QFont &font, double left, double top, double width,
                bool draw = true)
{
    QTextDocument doc;
    doc.setDefaultFont(font);
    doc.setDocumentMargin(0);
    doc.setPlainText(text);
    doc.setTextWidth(width);
    if (draw) {
        p.save();
        p.translate(left, top);
        doc.drawContents(&p);
        p.restore();
    }
    return doc.size().height();
}

// The scene's lines of the page, the running one marked.
QString codeLines(const PlayerController &c, const Page &page)
{
    constexpr std::uint32_t kMostLines = 14;
    const auto &lines = c.scene().lines;
    QString out;
    std::uint32_t shown = 0;
    for (std::uint32_t l = std::max<std::uint32_t>(page.first_line, 1); l <= page.last_line && l <= lines.size(); ++l) {
        if (++shown > kMostLines) {
            out += QStringLiteral("      …\n");
            break;
        }
        out += QStringLiteral("%1 %2  %3\n")
                   .arg(l == page.line ? QStringLiteral("\u25b6") : QStringLiteral(" "))
                   .arg(l, 4)
                   .arg(QString::fromStdString(lines[l - 1]));
    }
    return out.trimmed().isEmpty() ? QString() : out.chopped(1);
}

} // namespace

bool writeHandout(PlayerController &controller, GraphPanel &graph, const QString &path, HandoutPages pages,
                  QString *error, const Progress &progress)
{
    auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (!controller.hasScene() || !waitForIndex(controller))
        return fail(QCoreApplication::translate("lesson", "The lesson is not ready to export yet"));
    const std::vector<Page> chosen = choosePages(controller, pages);
    if (chosen.empty())
        return fail(QCoreApplication::translate("lesson", "The lesson has no beats"));
    const std::uint64_t back_to = controller.position();

    QBuffer bytes;
    bytes.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&bytes);
    pdf.setPageSize(QPageSize(QPageSize::A4));
    pdf.setPageOrientation(QPageLayout::Landscape);
    pdf.setPageMargins(QMarginsF(12, 12, 12, 12), QPageLayout::Millimeter);
    pdf.setResolution(144);
    const QString title = QString::fromStdString(controller.scene().title);
    pdf.setTitle(title);
    pdf.setCreator(QStringLiteral("Inflight"));
    QPainter p(&pdf);
    const double width = pdf.width(), height = pdf.height();
    const QFont title_font(QStringLiteral("DejaVu Sans"), 14, QFont::Bold);
    const QFont note_font(QStringLiteral("DejaVu Sans"), 12, QFont::Bold);
    const QFont text_font(QStringLiteral("DejaVu Sans"), 11);
    const QFont small_font(QStringLiteral("DejaVu Sans"), 9);
    QFont code_font(QStringLiteral("DejaVu Sans Mono"), 9);
    code_font.setStyleHint(QFont::Monospace);
    const double gap = 16;
    const int total = static_cast<int>(chosen.size());

    std::vector<std::uint64_t> steps;
    for (const Page &page : chosen)
        steps.push_back(page.step);
    const bool walked = walkSteps(
        controller, graph, steps,
        [&](std::size_t i) {
            if (progress && !progress(static_cast<int>(i), total))
                return false;
            if (i > 0)
                pdf.newPage();
            const Page &page = chosen[i];
            // The head: the title, and where the page is in the handout.
            double y = 0;
            const QString where = QCoreApplication::translate("lesson", "Page %1 of %2").arg(i + 1).arg(total);
            p.setFont(small_font);
            p.setPen(Qt::black);
            const double where_width = p.fontMetrics().horizontalAdvance(where) + gap;
            p.drawText(QRectF(width - where_width, 0, where_width, 40), Qt::AlignRight | Qt::AlignTop, where);
            y += drawText(p, title, title_font, 0, y, width - where_width) + gap / 2;
            if (!page.note.isEmpty())
                y += drawText(p, page.note, note_font, 0, y, width) + gap;
            // The foot: the narration, the scene's lines, the step; the graph takes the rest.
            const QString narration = controller.narration();
            const QString code = codeLines(controller, page);
            const QString step_line = QCoreApplication::translate("lesson", "step %1 of %2 · line %3")
                                          .arg(page.step)
                                          .arg(controller.totalSteps())
                                          .arg(page.line);
            const double narration_h = drawText(p, narration, text_font, 0, 0, width * 0.55, false);
            const double code_h = drawText(p, code, code_font, 0, 0, width * 0.42, false);
            const double foot_h = std::max(narration_h, code_h) + gap + QFontMetricsF(small_font).height();
            LegendBar *legend = graph.legend();
            const double legend_h = legend ? legend->sizeHint().height() : 0;
            const QRectF room(0, y, width, std::max(80.0, height - y - foot_h - legend_h - 2 * gap));
            GraphScene &scene = *graph.scene();
            const QRectF source = graph_export::graphBounds(scene);
            // The picture at the top of its room, the words right under it.
            QRectF picture = room;
            if (source.width() > 0 && source.height() > 0)
                picture.setHeight(std::min(room.height(), room.width() * source.height() / source.width()));
            scene.render(&p, picture, source, Qt::KeepAspectRatio);
            double foot = picture.bottom() + gap;
            if (legend) {
                legend->resize(static_cast<int>(std::min<double>(legend->sizeHint().width(), width)),
                               static_cast<int>(legend_h));
                p.save();
                p.translate(0, foot);
                legend->render(&p, QPoint(), QRegion(), QWidget::DrawChildren);
                p.restore();
                foot += legend_h + gap / 2;
            }
            drawText(p, narration, text_font, 0, foot, width * 0.55);
            drawText(p, code, code_font, width * 0.58, foot, width * 0.42);
            p.setFont(small_font);
            p.setPen(Qt::darkGray);
            p.drawText(QRectF(0, height - QFontMetricsF(small_font).height(), width, 40), Qt::AlignLeft | Qt::AlignTop,
                       step_line);
            return true;
        },
        error);
    p.end();
    controller.seek(back_to);
    if (!walked)
        return false;
    bytes.close();
    if (const auto failed = saveFile(path, bytes.data(), "export")) {
        if (error)
            *error = *failed;
        return false;
    }
    return true;
}

} // namespace lesson
