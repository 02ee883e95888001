// SPDX-License-Identifier: GPL-3.0-or-later
#include "lesson/web_page.h"

#include "graph/graph_export.h"
#include "graph/graph_panel.h"
#include "graph/legend_bar.h"
#include "lesson/beat_walk.h"
#include "lesson/scene_note.h"
#include "player_controller.h"
#include "save_file.h"

#include "inflight/beats.hpp"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>

namespace lesson {

namespace {

QString esc(const QString &text) { return text.toHtmlEscaped(); }

// One frame's SVG, ready to sit inline in the page: without its XML prologue, and with its ids
// (patterns, gradients) made the frame's own, as every frame of the page shares one document.
QString inlineSvg(const QByteArray &svg, int frame)
{
    QString s = QString::fromUtf8(svg);
    const qsizetype start = s.indexOf(QLatin1String("<svg"));
    if (start > 0)
        s.remove(0, start);
    // What Qt's generator repeats on every group and the page does not need: the namespace
    // declarations (inline SVG has them by being in HTML), the values every attribute has by
    // default (the groups are siblings, none inherits another's), and the empty groups. The
    // triangle's thirty pictures stay well under 2 MB so.
    static const QRegularExpression empty_group(QStringLiteral("<g [^>]*>\\s*</g>\\s*"));
    static const QRegularExpression defaults(
        QStringLiteral(" (?:xmlns(?::xlink)?=\"[^\"]*\"|vector-effect=\"none\"|stroke-opacity=\"1\"|"
                       "fill-opacity=\"1\"|font-style=\"normal\"|font-weight=\"400\"|version=\"1.2\"|"
                       "baseProfile=\"tiny\")"));
    static const QRegularExpression spaces(QStringLiteral("\\s*\\n\\s*"));
    s.remove(defaults);
    s.replace(spaces, QStringLiteral("\n"));
    s.remove(empty_group);
    const QString prefix = QStringLiteral("b%1-").arg(frame);
    s.replace(QLatin1String("id=\""), QLatin1String("id=\"") + prefix);
    s.replace(QLatin1String("url(#"), QLatin1String("url(#") + prefix);
    s.replace(QLatin1String("href=\"#"), QLatin1String("href=\"#") + prefix);
    return s;
}

// The scene's lines around `line`, the running one marked.
QString codeLines(const PlayerController &c, std::uint32_t line)
{
    const auto &lines = c.scene().lines;
    if (line == 0 || lines.empty())
        return {};
    const std::uint32_t from = line > 3 ? line - 3 : 1;
    const std::uint32_t to = std::min<std::uint32_t>(static_cast<std::uint32_t>(lines.size()), line + 3);
    QString out;
    for (std::uint32_t l = from; l <= to; ++l) {
        const QString text = QStringLiteral("%1  %2").arg(l, 4).arg(QString::fromStdString(lines[l - 1]));
        out += l == line ? QString(QStringLiteral("<mark>") + esc(text) + QStringLiteral("</mark>\n"))
                         : QString(esc(text) + u'\n');
    }
    return out;
}

const char *kStyle = R"(
body { font-family: "DejaVu Sans", Verdana, sans-serif; margin: 0; color: #111; background: #fbfbf8; }
header { padding: 8px 16px; border-bottom: 1px solid #ccc; }
header h1 { font-size: 20px; margin: 0; }
header p { margin: 4px 0 0; color: #555; font-size: 13px; }
nav { display: flex; flex-wrap: wrap; gap: 2px; padding: 6px 16px; border-bottom: 1px solid #ddd; }
nav a { display: inline-block; min-width: 22px; padding: 2px 3px; text-align: center; font-size: 12px;
        color: #1f4fa0; text-decoration: none; border: 1px solid #c6d3ea; border-radius: 3px; }
nav a.k-note { background: #fff1a8; }
nav a.k-question { background: #f6d7ff; }
nav a.on { background: #1f4fa0; color: #fff; }
section.beat { padding: 8px 16px 24px; border-bottom: 2px solid #ccc; }
section.beat h2 { font-size: 14px; color: #555; margin: 4px 0; font-weight: normal; }
.note { background: #fff6c8; border: 1px solid #d8c060; border-radius: 4px; padding: 6px 10px; font-weight: bold; }
.question { background: #f6e3ff; border: 1px solid #b070d0; border-radius: 4px; padding: 6px 10px;
            font-weight: bold; font-size: 18px; }
.narration { font-size: 18px; margin: 8px 0; }
.picture svg { max-width: 100%; height: auto; max-height: 62vh; display: block; }
pre { background: #f0f0ea; padding: 6px 10px; font-size: 13px; overflow-x: auto; }
pre mark { background: #ffe36b; }
details summary { cursor: pointer; font-weight: bold; color: #7a2aa0; }
.keys { color: #666; font-size: 12px; }
html.js section.beat { display: none; border: none; }
html.js section.beat.on { display: block; }
@media print {
  nav, .keys { display: none; }
  html.js section.beat { display: block; page-break-after: always; }
  details > *:not(summary) { display: block; }
}
)";

// Shows one beat at a time once it runs: the keys of presentation mode (and a clicker's), the
// timeline's links and #beat=N. Holds no text of the scene. "#beat=N&press=K1,K2" replays key
// presses through the same handler, so a link can open a beat and step on from it.
const char *kScript = R"(
(function () {
  document.documentElement.classList.add('js');
  var beats = Array.prototype.slice.call(document.querySelectorAll('section.beat'));
  var links = Array.prototype.slice.call(document.querySelectorAll('nav a'));
  var current = -1;
  function show(n) {
    n = Math.max(0, Math.min(beats.length - 1, n));
    if (current >= 0) { beats[current].classList.remove('on'); links[current].classList.remove('on'); }
    current = n;
    beats[n].classList.add('on');
    links[n].classList.add('on');
    document.body.setAttribute('data-beat', String(n + 1));
    var want = '#beat=' + (n + 1);
    if (location.hash.split('&')[0] !== want) history.replaceState(null, '', want);
  }
  function noteFrom(n, step) {
    for (var i = n + step; i >= 0 && i < beats.length; i += step)
      if (beats[i].hasAttribute('data-note')) return i;
    return n;
  }
  function press(key) {
    if (key === 'ArrowRight' || key === 'PageDown' || key === ' ' || key === 'Enter') show(current + 1);
    else if (key === 'ArrowLeft' || key === 'PageUp' || key === 'Backspace') show(current - 1);
    else if (key === 'Home') show(0);
    else if (key === 'End') show(beats.length - 1);
    else if (key === 'n' || key === 'N') show(noteFrom(current, 1));
    else if (key === 'p' || key === 'P') show(noteFrom(current, -1));
    else return false;
    return true;
  }
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (press(e.key)) e.preventDefault();
  });
  function fromHash() {
    var m = /beat=(\d+)/.exec(location.hash);
    show(m ? parseInt(m[1], 10) - 1 : 0);
    var keys = /press=([A-Za-z, ]+)/.exec(location.hash);
    if (keys)
      keys[1].split(',').forEach(function (k) {
        document.dispatchEvent(new KeyboardEvent('keydown', { key: k }));
      });
  }
  window.addEventListener('hashchange', fromHash);
  fromHash();
})();
)";

} // namespace

bool writeWebPage(PlayerController &controller, GraphPanel &graph, const QString &path, QString *error,
                  const Progress &progress)
{
    auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (!controller.hasScene() || !waitForIndex(controller))
        return fail(QCoreApplication::translate("lesson", "The lesson is not ready to export yet"));
    const std::vector<inflight::Beat> beats = controller.runIndex().beats();
    if (beats.empty())
        return fail(QCoreApplication::translate("lesson", "The lesson has no beats"));
    const std::uint64_t back_to = controller.position();
    const QString title = QString::fromStdString(controller.scene().title);
    const int total = static_cast<int>(beats.size());

    QString sections, nav;
    QString note;
    std::vector<std::uint64_t> steps;
    for (const inflight::Beat &b : beats)
        steps.push_back(b.step);
    bool drawn = true;
    const bool walked = walkSteps(
        controller, graph, steps,
        [&](std::size_t i) {
            if (progress && !progress(static_cast<int>(i), total))
                return false;
            const inflight::Beat &b = beats[i];
            const int n = static_cast<int>(i) + 1;
            const bool is_note = b.kind == inflight::BeatKind::note;
            if (is_note)
                if (const inflight::Statement *s = noteOnLine(controller.scene().statements, b.scene_line))
                    note = QString::fromStdString(s->text);
            const bool asks = b.kind == inflight::BeatKind::question;
            const bool answers = b.kind == inflight::BeatKind::answer;
            const QString kind = is_note           ? QStringLiteral("k-note")
                                 : asks || answers ? QStringLiteral("k-question")
                                                   : QString();
            nav += QStringLiteral("<a href=\"#beat=%1\"%2 title=\"%3\">%1</a>")
                       .arg(n)
                       .arg(kind.isEmpty() ? QString() : QStringLiteral(" class=\"%1\"").arg(kind))
                       .arg(esc(QString::fromLatin1(inflight::beat_kind_name(b.kind).data(),
                                                    qsizetype(inflight::beat_kind_name(b.kind).size()))));
            graph_export::Captions legend_only;
            legend_only.legend = graph.legend();
            const std::optional<QByteArray> svg = graph_export::svgDocument(*graph.scene(), legend_only);
            if (!svg) {
                drawn = false;
                return false;
            }
            const QString narration = controller.narration();
            QString words;
            if (answers)
                words = QStringLiteral("<details><summary>%1</summary><p class=\"narration\">%2</p></details>")
                            .arg(esc(QCoreApplication::translate("lesson", "The answer")), esc(narration));
            else if (asks)
                words = QStringLiteral("<p class=\"question\">%1</p>").arg(esc(narration));
            else
                words = QStringLiteral("<p class=\"narration\">%1</p>").arg(esc(narration));
            sections += QStringLiteral("<section class=\"beat\" id=\"beat-%1\"%2>\n<h2>%3</h2>\n")
                            .arg(n)
                            .arg(is_note ? QStringLiteral(" data-note") : QString())
                            .arg(esc(QCoreApplication::translate("lesson", "Beat %1 of %2 · step %3 · line %4")
                                         .arg(n)
                                         .arg(total)
                                         .arg(b.step)
                                         .arg(b.scene_line)));
            if (!note.isEmpty())
                sections += QStringLiteral("<div class=\"note\">%1</div>\n").arg(esc(note));
            sections +=
                words + QStringLiteral("\n<div class=\"picture\">") + inlineSvg(*svg, n) + QStringLiteral("</div>\n");
            if (const QString code = codeLines(controller, b.scene_line); !code.isEmpty())
                sections += QStringLiteral("<pre>") + code + QStringLiteral("</pre>\n");
            sections += QStringLiteral("</section>\n");
            return true;
        },
        error);
    controller.seek(back_to);
    if (!walked)
        return drawn ? false : fail(QCoreApplication::translate("lesson", "A beat's graph could not be drawn"));

    QString page = QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                                  "<meta name=\"generator\" content=\"Inflight\">\n<title>");
    page += esc(title) + QStringLiteral("</title>\n<style>") + QLatin1String(kStyle) +
            QStringLiteral("</style>\n</head>\n<body>\n<header><h1>") + esc(title) + QStringLiteral("</h1>\n<p>") +
            esc(QCoreApplication::translate("lesson", "%1 beats · kernel %2: %3")
                    .arg(total)
                    .arg(QString::fromUtf8(controller.kernelProfile().name.data(),
                                           qsizetype(controller.kernelProfile().name.size())))
                    .arg(QString::fromUtf8(controller.kernelProfile().title.data(),
                                           qsizetype(controller.kernelProfile().title.size())))) +
            QStringLiteral("</p>\n<p class=\"keys\">") +
            esc(QCoreApplication::translate("lesson",
                                            "Right, Space, PageDown: next beat · Left, PageUp: back · Home, End · "
                                            "N, P: next or previous note · a number above: that beat")) +
            QStringLiteral("</p></header>\n<nav>") + nav + QStringLiteral("</nav>\n<main>\n") + sections +
            QStringLiteral("</main>\n<script>") + QLatin1String(kScript) +
            QStringLiteral("</script>\n</body>\n</html>\n");
    if (const auto failed = saveFile(path, page.toUtf8(), "export"))
        return fail(*failed);
    return true;
}

} // namespace lesson
