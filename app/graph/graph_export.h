// SPDX-License-Identifier: GPL-3.0-or-later
// Saving the graph as drawn: PNG (the scene rendered into a QImage), SVG (QSvgGenerator) and
// DOT (our own writer: the current snapshot with the positions on screen, one edge per
// in-flight copy; `neato -n2 -Tsvg` redraws it). Each is made in memory, then written whole
// or not at all (saveFile()); false and `error` (the step and the errno's text) when not.
#pragma once

#include <QString>

class GraphScene;

namespace graph_export {

bool writePng(GraphScene &scene, const QString &path, double scale = 2.0, QString *error = nullptr);
bool writeSvg(GraphScene &scene, const QString &path, QString *error = nullptr);
QString dotText(const GraphScene &scene);
bool writeDot(const GraphScene &scene, const QString &path, QString *error = nullptr);

} // namespace graph_export
