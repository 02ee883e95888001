// SPDX-License-Identifier: GPL-3.0-or-later
// The lesson as a PDF handout for students: a page per note (the picture as the note's part of
// the lesson ends) or per beat, each with the scene's title, the note, the graph as the app
// draws it (vector), the narration and the scene's lines of that part, and page numbers. Text
// is real text (searchable, copyable). Made in memory and written whole or not at all.
#pragma once

#include "lesson/beat_walk.h"

#include <QString>

class GraphPanel;
class PlayerController;

namespace lesson {

enum class HandoutPages { per_note, per_beat };

// Writes the handout of the lesson `controller` runs, drawn from `graph`; `progress(done,
// total)` is called before each page and cancels when it returns false. False with `error`
// (nothing written under `path`) on failure or cancel.
bool writeHandout(PlayerController &controller, GraphPanel &graph, const QString &path, HandoutPages pages,
                  QString *error, const Progress &progress = {});

} // namespace lesson
