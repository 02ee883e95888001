// SPDX-License-Identifier: GPL-3.0-or-later
// The Inflight window: the graph in the centre, the collector's lists, algorithm, scene,
// inspector and event log as docks, the transport toolbar and the timeline.
#pragma once

#include "inflight/gc_era.hpp"
#include "lesson/beat_walk.h"
#include "window_layout.h"

#include <QFont>
#include <QMainWindow>
#include <QStringList>

#include <functional>
#include <optional>

class QAction;
class QComboBox;
class QDockWidget;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QSlider;
class QToolBar;
class GraphPanel;
class PlayerController;
class PresenterKeys;
class SideBySide;
class SideBySideView;
class TimelineWidget;
namespace inflight {
struct Scene;
}
namespace editor {
class EditorSession;
class SceneEditor;
} // namespace editor

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(PlayerController &controller, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Opens a scene file from the window (dialog, recent files, examples, a drop): the editor
    // shows it at once and it is parsed on the checker's thread, so a large scene never holds
    // the window while it expands; its run, or its errors (marked, with a status message),
    // follow. An unreadable file gets a message box and changes nothing.
    bool openScene(const QString &path);
    // The same for the command line and scripts: parsed before it returns, messages on stderr.
    bool openSceneNow(const QString &path);
    bool openWelcome();
    GraphPanel &graph() { return *graph_; }
    // The graph at this step as a slide picture (.png or .svg by the name's suffix), with the
    // title line, narration, legend and PNG scale the export settings ask for.
    bool exportGraphPicture(const QString &path, QString *error);
    // The export's suggested name: scene, variant and step (graph_export::defaultFileName).
    QString defaultGraphFileName(const QString &extension) const;
    TimelineWidget &timeline() { return *timeline_; }
    // Renders the whole window to a PNG once the graph layout has settled.
    bool saveScreenshot(const QString &file, int settle_ms = 30000);
    void setPresentationMode(bool on);
    // View > Dark theme when presenting: presentation mode draws light on a dark ground (at
    // once, if presenting). Kept in the settings.
    void setDarkPresentation(bool on);
    bool darkPresentation() const { return dark_presentation_; }
    // View > Side by side: the run beside a second one of another variant or kernel profile
    // ("buggy,fixed"; "" ends it). False with a message naming the choices on a bad pair.
    bool setSideBySide(const QString &pair, QString *error = nullptr);
    SideBySide &sideBySide() { return *side_by_side_; }
    SideBySideView *sideBySideView() const { return side_view_; }
    bool presenting() const { return presenting_; }
    bool restoredGeometry() const { return restored_geometry_; } // false on a first launch
    const WindowDocks &windowDocks() const { return docks_set_; }
    // The scene file being edited in the Scene dock (New, Open, Save, the unsaved prompt).
    editor::EditorSession &session() { return *session_; }
    QProgressBar *rerunProgress() const { return rerun_progress_; }
    editor::SceneEditor &sceneEditor() const;
    // At start: the recovery copy a crash or a kill left, offered back (true: restored).
    bool offerRecovery();
    // Run to cursor (Ctrl+F10): to the next start of the statement on the editor's cursor line.
    bool runToCursor();
    void resetLayout(); // View > Reset layout: the default arrangement and shares
    // Presentation mode: a socket's name is never drawn smaller than this on screen.
    static constexpr double kPresentationLabelPixels = 24;
    QAction *action(const QString &object_name) const;
    QAction *action(const char *object_name) const { return action(QLatin1String(object_name)); }

protected:
    void closeEvent(QCloseEvent *e) override;
    void showEvent(QShowEvent *e) override;
    void resizeEvent(QResizeEvent *e) override;
    void dragEnterEvent(QDragEnterEvent *e) override;
    void dropEvent(QDropEvent *e) override;

private:
    // The status bar's word on a file just opened or reverted, once its check is in.
    void reportOpened(bool clean);
    void buildActions();
    void buildMenus();
    void buildToolbar();
    void buildDocks();
    void updateStatus();
    void updateTitle();
    void addRecent(const QString &path);
    void rebuildRecentMenu();
    QString breakpointKey() const;
    void loadBreakpointsOfFile();
    void saveBreakpointsOfFile();
    void warnIfWrittenForAnotherCollector();
    void updateVariantBox();
    void fitToolbar(); // icons only where the named buttons would not fit the window's width
    void buildExamplesMenu(QMenu *menu);
    void chooseOpen();
    void reload();
    void findText(bool replace);
    void setRunDimmed(bool dimmed);
    void exportGraph(const QString &format);
    void exportTrace();
    void exportHandout();
    void exportLessonPage();
    // A lesson export from the File menu: the file asked for, the writer run with a progress
    // dialog that can cancel, the outcome said.
    using LessonWriter = std::function<bool(const QString &path, QString *error, const lesson::Progress &progress)>;
    void exportLesson(const QString &title, const QString &file_suffix, const QString &filter,
                      const LessonWriter &write);
    void about();
    void askSocketBreakpoint(bool candidate);
    void showPanelForScene();
    // The panel the scene is about (autobind's name space, a timed scene's latencies), or nullptr
    // when its subject is the graph.
    QDockWidget *scenePanel() const;
    // The bars presentation mode hides: menus, toolbars, status.
    QList<QWidget *> presentationHiddenBars() const;
    void leavePresentationGeometry();

    PlayerController &controller_;
    GraphPanel *graph_ = nullptr;
    TimelineWidget *timeline_ = nullptr;
    QToolBar *transport_bar_ = nullptr;
    QComboBox *era_box_ = nullptr;
    QComboBox *variant_box_ = nullptr;
    QAction *variant_action_ = nullptr;
    QSlider *speed_ = nullptr;
    QLabel *speed_label_ = nullptr;
    QLabel *position_label_ = nullptr;
    QLineEdit *goto_box_ = nullptr;
    QHBoxLayout *position_row_ = nullptr; // timeline, step counter, go-to box
    QMenu *recent_menu_ = nullptr;
    editor::EditorSession *session_ = nullptr;
    QProgressBar *rerun_progress_ = nullptr; // a live re-run replaying off the GUI thread
    QString find_text_;
    QList<QDockWidget *> docks_;
    QDockWidget *log_dock_ = nullptr, *latency_dock_ = nullptr, *autobind_dock_ = nullptr;
    bool panel_pending_ = false;                   // a scene opened before the window was shown
    const inflight::Scene *panel_scene_ = nullptr; // the scene showPanelForScene() chose for
    QAction *play_action_ = nullptr;
    QAction *presentation_action_ = nullptr;
    QAction *dark_presentation_action_ = nullptr;
    bool dark_presentation_ = false;
    bool dark_palette_ = false;               // the widgets wear the dark theme's palette
    PresenterKeys *presenter_keys_ = nullptr; // presentation mode's keys
    SideBySide *side_by_side_ = nullptr;
    SideBySideView *side_view_ = nullptr; // in the graph's place while side by side
    QAction *side_by_side_action_ = nullptr;
    double normal_font_scale_ = 1.0;
    WindowDocks docks_set_;
    bool shares_pending_ = false; // no saved dock state: size the docks when first shown
    bool keep_shares_ = false;    // resizes keep every dock's share of the window
    bool presenting_ = false;
    bool restored_geometry_ = false;
    QString breakpoints_file_; // whose breakpoints the controller holds
    // Before presentation mode: the window's rectangle and state, the docks.
    QRect saved_rect_;
    Qt::WindowStates saved_window_state_;
    QByteArray saved_state_;
    std::optional<QFont> saved_font_; // the window's own font before presenting (none: inherited)
    QList<QWidget *> saved_bars_;     // the bars presentation mode hid, shown again when it ends
};
