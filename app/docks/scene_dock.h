// SPDX-License-Identifier: GPL-3.0-or-later
// "Scene": the scene's text in the editor (editor::SceneEditor), with the statement being
// executed and the next one marked, breakpoints toggled by a click in the margin, ✓/✗ beside
// each expect after a run; a banner naming the first error of a buffer that does not check,
// and the Problems list (click: go to the line; Fix: apply its did-you-mean).
#pragma once

#include "inflight/diagnostic.hpp"

#include <QDockWidget>

#include <vector>

class QLabel;
class QListWidget;
class QPushButton;
class QToolButton;
class PlayerController;

namespace editor {
class SceneEditor;
}

namespace docks {

class SceneDock : public QDockWidget {
    Q_OBJECT
public:
    explicit SceneDock(PlayerController &controller, QWidget *parent = nullptr);
    editor::SceneEditor *textView() const { return view_; }
    editor::SceneEditor *editor() const { return view_; }
    QListWidget *problems() const { return problems_; }
    QLabel *banner() const { return banner_; }
    QPushButton *fixButton() const { return fix_; }
    // True (the default, for a dock on its own): a scene the controller loads replaces the text.
    // An EditorSession owns the text instead and turns this off.
    void setFollowsController(bool on) { follows_ = on; }
    // The buffer's diagnostics: the Problems list and the banner; `stale` says the run on screen
    // is the last good one, not this text's.
    void showDiagnostics(const std::vector<inflight::Diagnostic> &diagnostics, bool stale);
    // Applies the fix-it of the selected problem (or the first one that has a fix).
    bool applySelectedFix();

signals:
    // The run on screen is (not) the buffer's: MainWindow dims the graph.
    void staleRunChanged(bool stale);

private:
    void sceneLoaded();
    void refresh();
    void applyTheme();
    void updateExpectations();
    // The margin's menu for `line`: a breakpoint's condition edited, or the breakpoint removed.
    void breakpointMenu(int line, const QPoint &global);

    PlayerController &controller_;
    QLabel *title_ = nullptr;
    QLabel *banner_ = nullptr;
    QPushButton *fix_ = nullptr;
    editor::SceneEditor *view_ = nullptr;
    QListWidget *problems_ = nullptr;
    std::vector<inflight::Diagnostic> diagnostics_;
    bool follows_ = true;
    bool stale_ = false;
};

} // namespace docks
