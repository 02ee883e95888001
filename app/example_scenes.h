// SPDX-License-Identifier: GPL-3.0-or-later
// The example scenes File ▸ Examples lists: the project's scenes/ folder, found whether
// Inflight is installed (<prefix>/share/inflight/examples) or run from its build tree.
#pragma once

#include <QList>
#include <QString>

struct ExampleScene {
    QString path;  // absolute
    QString title; // the scene's `scene "…"` line, or the file name when it has none
    QString group; // "Basics", "Kernel selftests", "Bugs", "Seed stories (the mail threads)", …
};

class ExampleScenes {
public:
    // The first of: $INFLIGHT_EXAMPLES_DIR; <app dir>/../share/inflight/examples (installed,
    // wherever the prefix was); inflight/examples in the XDG data dirs; the source tree's
    // scenes/ (a build-tree run). Empty when none exists.
    static QString directory();
    // Every *.scn below directory(), sorted by group then title.
    static QList<ExampleScene> list(const QString &directory);
    // The group a file name belongs to (its prefix: selftest-, seed-, autobind-, large/; a
    // leak in the name: Bugs).
    static QString groupOf(const QString &relative_path);
};
