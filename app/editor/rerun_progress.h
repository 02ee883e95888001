// SPDX-License-Identifier: GPL-3.0-or-later
// The status bar's progress of a live re-run replayed off the GUI thread (a large scene edited
// far into its run): how many statements of the way back to the place are done. Hidden when no
// re-run is pending; the old run stays on screen and usable meanwhile.
#pragma once

#include <QProgressBar>

class PlayerController;

namespace editor {

class RerunProgress : public QProgressBar {
    Q_OBJECT
public:
    explicit RerunProgress(PlayerController &controller, QWidget *parent = nullptr);
};

} // namespace editor
