// SPDX-License-Identifier: GPL-3.0-or-later
// Saving the graph as drawn: PNG (the scene rendered into a QImage), SVG (QSvgGenerator) and
// DOT (our own writer: the current snapshot with the positions on screen, one edge per
// in-flight copy; `neato -n2 -Tsvg` redraws it). Each is made in memory, then written whole
// or not at all (saveFile()); false and `error` (the step and the errno's text) when not.
#pragma once

#include <QByteArray>
#include <QRectF>
#include <QString>

#include <optional>

class GraphScene;
class QWidget;

namespace graph_export {

// What a slide-ready picture carries besides the graph; an empty text or a null legend is left out.
struct Captions {
    QString title;             // above the graph: titleLine()
    QString narration;         // under the graph, wrapped to its width
    QWidget *legend = nullptr; // drawn under the narration, as shown under the view
};

// Which captions a slide picture carries and the PNG's pixels per view pixel, kept in the
// settings under export/ (read back clamped: a hand-edited value cannot ask for a 100x image).
struct PictureOptions {
    bool title = true;
    bool narration = true;
    bool legend = true;
    double png_scale = 2.0; // 1 to 4
    QString directory;      // the last export's folder ("" = the working directory)
};
PictureOptions readPictureOptions();
void writePictureOptions(const PictureOptions &options);

// "Triangle — step 160 of 261 — line 30" (no line part when `line` is 0).
QString titleLine(const QString &scene_title, quint64 step, quint64 total, int line);
// "selftest-triangle-stream-buggy-step160.png": the scene's base name, the variant (if any), the step.
QString defaultFileName(const QString &scene_path, const QString &variant, quint64 step, const QString &extension);
// The graph's extent: every visible item's shape (fd curves and labels included) with a margin.
QRectF graphBounds(GraphScene &scene);

bool writePng(GraphScene &scene, const QString &path, double scale = 2.0, QString *error = nullptr,
              const Captions &captions = {});
bool writeSvg(GraphScene &scene, const QString &path, QString *error = nullptr, const Captions &captions = {});
// The SVG writeSvg() writes, in memory (nullopt when it could not be drawn).
std::optional<QByteArray> svgDocument(GraphScene &scene, const Captions &captions = {});
QString dotText(const GraphScene &scene);
bool writeDot(const GraphScene &scene, const QString &path, QString *error = nullptr);

} // namespace graph_export
