// SPDX-License-Identifier: GPL-3.0-or-later
// The lesson as one self-contained web page for students to replay at home: every beat the
// presenter's clicker stops at, with the graph as the app draws it (inline SVG), the note, the
// narration, the scene's lines and a timeline of the beats; keys as in presentation mode,
// #beat=N links, an ask's answer behind a click. Without JavaScript every beat is shown one
// under another; printed, a beat a page. No network access, no file beside it. Every text the
// scene wrote is escaped: a scene's words never become markup or script.
#pragma once

#include "lesson/beat_walk.h"

#include <QString>

class GraphPanel;
class PlayerController;

namespace lesson {

// Writes the page of the lesson `controller` runs, drawn from `graph`; `progress(done, total)`
// before each beat, cancelling when it returns false. False with `error` (nothing written
// under `path`) on failure or cancel.
bool writeWebPage(PlayerController &controller, GraphPanel &graph, const QString &path, QString *error,
                  const Progress &progress = {});

} // namespace lesson
