// SPDX-License-Identifier: GPL-3.0-or-later
// "Scene": the scene's text with line numbers, the statement being executed highlighted, and
// line breakpoints toggled by a click in the gutter. Read-only.
#pragma once

#include <QDockWidget>

class QLabel;
class PlayerController;

namespace docks {

class SceneTextView;

class SceneDock : public QDockWidget {
    Q_OBJECT
public:
    explicit SceneDock(PlayerController &controller, QWidget *parent = nullptr);
    SceneTextView *textView() const { return view_; }

private:
    void sceneLoaded();
    void refresh();
    void applyTheme();

    PlayerController &controller_;
    QLabel *title_ = nullptr;
    SceneTextView *view_ = nullptr;
};

} // namespace docks
