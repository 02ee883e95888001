// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.h"

#include "inflight/scene_cursor.hpp"

#include "settings/checked_settings.h"
#include "settings/cost_settings_dialog.h"

#include "example_scenes.h"
#include "help_dialogs.h"
#include "player_controller.h"
#include "presenter_keys.h"
#include "save_file.h"
#include "side_by_side.h"
#include "side_by_side_view.h"
#include "text_field_keys.h"
#include "theme.h"
#include "timeline_widget.h"
#include "window_layout.h"

#include "autobind/autobind_panel.h"
#include "docks/algorithm_dock.h"
#include "docks/event_log_dock.h"
#include "docks/expectations_dock.h"
#include "docks/inspector_dock.h"
#include "docks/lists_dock.h"
#include "docks/scene_dock.h"
#include "editor/editor_session.h"
#include "editor/graph_viewport_keeper.h"
#include "editor/rerun_progress.h"
#include "editor/scene_editor.h"

#include "docks/watches_dock.h"
#include "graph/graph_export.h"
#include "graph/graph_panel.h"
#include "graph/graph_view.h"
#include "graph/graphviz_layout.h"
#include "graph/legend_bar.h"
#include "latency/latency_dock.h"
#include "lesson/handout.h"
#include "lesson/web_page.h"
#include "realkernel/kernel_replay_ui.h"

#include "inflight/report.hpp"
#include "inflight/simulation.hpp"
#include "inflight/version.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QBuffer>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QGraphicsOpacityEffect>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QResizeEvent>
#include <QScreen>
#include <QSettings>
#include <QShowEvent>
#include <QSlider>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <Qsci/qsciglobal.h>

#include <cmath>

using namespace inflight;

namespace {

constexpr int kMaxRecent = 8;

// Paths and breakpoint texts longer than this are not anyone's (PATH_MAX is 4096).
constexpr qsizetype kMaxSettingText = 4096;
// Files with breakpoints remembered, and breakpoints per file; more are dropped as read.
constexpr qsizetype kMaxBreakpointFiles = 1000;
constexpr qsizetype kMaxBreakpointsPerFile = 10000;
// A window's saved geometry and dock state are a few KB; more is not ours.
constexpr qsizetype kMaxWindowBlob = qsizetype{64} << 10;

// The recent-files setting as read: a hand-edited or foreign one may hold anything, and
// hundreds of thousands of entries. Only non-empty strings count, each once, the first
// kMaxRecent of them; the rest is never looked at.
QStringList readRecentFiles(const CheckedSettings &settings)
{
    return settings.readStringList(QStringLiteral("files/recent"), kMaxRecent, kMaxSettingText);
}

// The speed slider is logarithmic: 0 -> 0.5 steps/s, 100 -> 20,000 steps/s.
double speed_of(int v) { return 0.5 * std::pow(40000.0, v / 100.0); }
int slider_of(double speed) { return static_cast<int>(std::lround(100.0 * std::log(speed / 0.5) / std::log(40000.0))); }

QString speed_text(double s)
{
    return s < 10 ? QString::number(s, 'f', 1) + QStringLiteral(" steps/s")
                  : QString::number(std::lround(s)) + QStringLiteral(" steps/s");
}

} // namespace

MainWindow::MainWindow(PlayerController &controller, QWidget *parent) : QMainWindow(parent), controller_(controller)
{
    Q_INIT_RESOURCE(inflight); // the welcome scene lives in the static library's resources
    setObjectName(QStringLiteral("MainWindow"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);

    auto *centre = new QWidget(this);
    auto *layout = new QVBoxLayout(centre);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    graph_ = new GraphPanel(controller_, centre);
    timeline_ = new TimelineWidget(controller_, centre);
    layout->addWidget(graph_, 1);
    // The timeline with the step counter and the go-to box at its end, as a video player's
    // scrubber has its time: always in view, never in the toolbar's overflow.
    position_row_ = new QHBoxLayout;
    position_row_->setSpacing(6);
    position_row_->addWidget(timeline_, 1);
    layout->addLayout(position_row_);
    setCentralWidget(centre);

    // Return and Enter in a text field are the field's, not the presenter's step.
    qApp->installEventFilter(new TextFieldKeys(this));
    presenter_keys_ = new PresenterKeys(controller_, *this);
    connect(presenter_keys_, &PresenterKeys::leaveRequested, this, [this] { setPresentationMode(false); });
    side_by_side_ = new SideBySide(controller_, this);
    connect(side_by_side_, &SideBySide::changed, this, [this] {
        const auto &d = side_by_side_->divergence();
        timeline_->setDivergence(side_by_side_->active() && d ? std::optional<std::uint64_t>(d->step_a) : std::nullopt);
    });
    buildActions();
    buildToolbar();
    buildDocks();
    buildMenus();

    connect(&controller_, &PlayerController::positionChanged, this, &MainWindow::updateStatus);
    connect(&controller_, &PlayerController::indexReadyChanged, this, &MainWindow::updateStatus);
    // An index a budget ended says which, for as long as that run is on screen.
    connect(&controller_, &PlayerController::indexReadyChanged, this, [this] {
        if (controller_.indexReady() && !controller_.indexStoppedBy().isEmpty())
            statusBar()->showMessage(controller_.indexStoppedBy());
    });
    connect(&controller_, &PlayerController::sceneLoaded, this, [this] {
        updateTitle();
        const QSignalBlocker block(era_box_);
        era_box_->setCurrentIndex(static_cast<int>(&controller_.kernelProfile() - kernel_profiles().data()));
    });
    // A re-run of the scene being typed keeps what the user chose: panels, focus (the editor).
    connect(&controller_, &PlayerController::sceneLoaded, this, [this] {
        if (!controller_.isRerun())
            showPanelForScene();
    });
    connect(&controller_, &PlayerController::sceneLoaded, this, &MainWindow::loadBreakpointsOfFile);
    connect(&controller_, &PlayerController::sceneLoaded, this, &MainWindow::updateVariantBox);
    connect(&controller_, &PlayerController::sceneLoaded, this, [this] {
        if (!controller_.isRerun())
            warnIfWrittenForAnotherCollector();
    });
    connect(&controller_, &PlayerController::lineBreakpointsChanged, this, &MainWindow::saveBreakpointsOfFile);
    // After an open the keys step the scene, wherever the focus was; not while typing.
    connect(&controller_, &PlayerController::sceneLoaded, this, [this] {
        if (!controller_.isRerun() && !sceneEditor().hasFocus())
            graph_->view()->setFocus();
    });
    connect(&controller_, &PlayerController::playingChanged, this, [this](bool playing) {
        play_action_->setText(playing ? tr("Pause") : tr("Play"));
        play_action_->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    });
    connect(&controller_, &PlayerController::breakpointHit, this,
            [this](const QString &why) { statusBar()->showMessage(tr("Stopped: %1").arg(why), 6000); });

    const CheckedSettings settings;
    const QByteArray geometry = settings.readBytes(QStringLiteral("window/geometry"), kMaxWindowBlob);
    restored_geometry_ = !geometry.isEmpty() && restoreGeometry(geometry);
    if (!restored_geometry_) {
        // First launch: the whole screen (main() shows it maximised; without a window manager
        // this size is all there is). The docks take their shares when the window is shown.
        if (const QScreen *screen = QGuiApplication::primaryScreen())
            setGeometry(screen->availableGeometry());
    }
    if (!restoreState(settings.readBytes(QStringLiteral("window/state"), kMaxWindowBlob)))
        shares_pending_ = true;
    Theme::instance().setFontScale(
        settings.readDouble(QStringLiteral("view/fontScale"), 1.0, Theme::kMinFontScale, Theme::kMaxFontScale));
    Theme::instance().setHighContrast(settings.readBool(QStringLiteral("view/highContrast"), false));
    setDarkPresentation(settings.readBool(QStringLiteral("view/darkPresentation"), false));
    controller_.setSpeed(settings.readDouble(QStringLiteral("run/speed"), 8.0, speed_of(0), speed_of(100)));
    {
        // The slider shows the speed read; its nearest notch must not replace it.
        const QSignalBlocker quiet(speed_);
        speed_->setValue(slider_of(controller_.speed()));
    }
    speed_label_->setText(speed_text(controller_.speed()));
    rebuildRecentMenu();
    updateStatus();
}

MainWindow::~MainWindow() = default;

QAction *MainWindow::action(const QString &object_name) const { return findChild<QAction *>(object_name); }

void MainWindow::buildActions()
{
    auto make = [this](const char *name, const QString &text, const QKeySequence &key, QStyle::StandardPixmap icon,
                       auto slot, const QString &tip) {
        auto *a = new QAction(text, this);
        a->setObjectName(QLatin1String(name));
        if (!key.isEmpty())
            a->setShortcut(key);
        if (icon != QStyle::SP_CustomBase)
            a->setIcon(style()->standardIcon(icon));
        a->setToolTip(tip + (key.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(key.toString())));
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
        return a;
    };
    PlayerController *c = &controller_;
    make(
        "first", tr("First"), QKeySequence(Qt::Key_Home), QStyle::SP_MediaSkipBackward, [c] { c->first(); },
        tr("Back to the start of the scene"));
    make(
        "backStatement", tr("Back statement"), QKeySequence(Qt::CTRL | Qt::Key_Left), QStyle::SP_MediaSeekBackward,
        [c] { c->backStatement(); }, tr("Back to the start of this statement"));
    make(
        "back", tr("Back"), QKeySequence(Qt::Key_Left), QStyle::SP_ArrowBack, [c] { c->back(); },
        tr("One micro-step back (exact: the run is replayed)"));
    make(
        "stepInto", tr("Step into"), QKeySequence(Qt::Key_F11), QStyle::SP_ArrowForward, [c] { c->stepInto(); },
        tr("One micro-step: the smallest thing the kernel does"));
    make(
        "stepOver", tr("Step over"), QKeySequence(Qt::Key_F10), QStyle::SP_ArrowDown, [c] { c->stepOver(); },
        tr("Run the current statement to its end"));
    make(
        "stepOut", tr("Step out"), QKeySequence(Qt::SHIFT | Qt::Key_F11), QStyle::SP_ArrowUp, [c] { c->stepOut(); },
        tr("Run to the end of the collection in progress"));
    make(
        "continue", tr("Continue"), QKeySequence(Qt::Key_F5), QStyle::SP_MediaSeekForward,
        [c] { c->continueToBreakpoint(); }, tr("Run to the next breakpoint"));
    make(
        "stepOutFunction", tr("Step out of function"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F11),
        QStyle::SP_CustomBase, [c] { c->stepOutFunction(); },
        tr("Finish the kernel function that made this step (one scan_children(), one DFS, one SCC)"));
    make(
        "reverseContinue", tr("Reverse continue"), QKeySequence(Qt::SHIFT | Qt::Key_F5), QStyle::SP_CustomBase,
        [c] { c->reverseContinue(); }, tr("Back to the previous breakpoint or watchpoint hit"));
    make(
        "reverseStepOver", tr("Reverse step over"), QKeySequence(Qt::SHIFT | Qt::Key_F10), QStyle::SP_CustomBase,
        [c] { c->backStatement(); }, tr("Back to the start of this statement (the previous one when at a start)"));
    make(
        "reverseStepOut", tr("Reverse step out"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F5),
        QStyle::SP_CustomBase, [c] { c->reverseStepOut(); },
        tr("Back to just before the collection in progress began"));
    play_action_ = make(
        "play", tr("Play"), QKeySequence(Qt::SHIFT | Qt::Key_Space), QStyle::SP_MediaPlay,
        [c] { c->isPlaying() ? c->pause() : c->play(); }, tr("Play or pause"));
    make(
        "last", tr("Last"), QKeySequence(Qt::Key_End), QStyle::SP_MediaSkipForward, [c] { c->last(); },
        tr("To the end of the scene"));
    make(
        "nextNote", tr("Next note"), QKeySequence(Qt::Key_N), QStyle::SP_CustomBase, [c] { c->nextNote(); },
        tr("To the scene's next note: the lesson's outline"));
    make(
        "previousNote", tr("Previous note"), QKeySequence(Qt::Key_P), QStyle::SP_CustomBase, [c] { c->previousNote(); },
        tr("To the scene's previous note"));
    // A presenter's clicker sends PageDown/PageUp (some send Right/Left), a keyboard Space or
    // Enter: forward and back as through slides. Text fields keep their own keys (Qt gives an
    // editing key to a focused line edit before any shortcut).
    action("stepInto")
        ->setShortcuts({QKeySequence(Qt::Key_F11), QKeySequence(Qt::Key_Right), QKeySequence(Qt::Key_PageDown),
                        QKeySequence(Qt::Key_Space), QKeySequence(Qt::Key_Return), QKeySequence(Qt::Key_Enter)});
    action("back")->setShortcuts({QKeySequence(Qt::Key_Left), QKeySequence(Qt::Key_PageUp)});
    action("play")->setShortcuts({QKeySequence(Qt::SHIFT | Qt::Key_Space), QKeySequence(Qt::Key_MediaTogglePlayPause)});
    make(
        "open", tr("&Open…"), QKeySequence::Open, QStyle::SP_DialogOpenButton, [this] { chooseOpen(); },
        tr("Open a scene file"));
    make(
        "reload", tr("&Revert"), QKeySequence(Qt::CTRL | Qt::Key_R), QStyle::SP_BrowserReload, [this] { reload(); },
        tr("Read the scene file again, dropping unsaved changes"));
    make(
        "new", tr("&New"), QKeySequence::New, QStyle::SP_FileIcon, [this] { session_->newScene(); },
        tr("A new, empty scene"));
    make(
        "save", tr("&Save"), QKeySequence::Save, QStyle::SP_DialogSaveButton, [this] { session_->save(); },
        tr("Save the scene"));
    make(
        "saveAs", tr("Save &As…"), QKeySequence::SaveAs, QStyle::SP_CustomBase, [this] { session_->saveAs(); },
        tr("Save the scene under another name"));
    make(
        "runToCursor", tr("Run to &cursor"), QKeySequence(Qt::CTRL | Qt::Key_F10), QStyle::SP_CustomBase,
        [this] { runToCursor(); }, tr("Run to the next start of the statement on the editor's cursor line"));
    auto *live = make(
        "runAsYouType", tr("Run as you &type"), QKeySequence(), QStyle::SP_CustomBase,
        [this] { session_->setRunAsYouType(action("runAsYouType")->isChecked()); },
        tr("Re-run the scene whenever the text checks clean, keeping your place"));
    live->setCheckable(true);
    live->setChecked(true);
    make(
        "applyFix", tr("Apply &fix"), QKeySequence(Qt::CTRL | Qt::Key_Period), QStyle::SP_CustomBase,
        [this] {
            if (!session_->applyFix())
                statusBar()->showMessage(tr("No fix on line %1").arg(sceneEditor().cursorLine()), 4000);
        },
        tr("Apply the did-you-mean of the problem on this line"));
    make(
        "toggleComment", tr("Toggle &comment"), QKeySequence(Qt::CTRL | Qt::Key_Slash), QStyle::SP_CustomBase,
        [this] { sceneEditor().toggleComment(); }, tr("Comment or uncomment the selected lines"));
    make(
        "undo", tr("&Undo"), QKeySequence::Undo, QStyle::SP_CustomBase, [this] { sceneEditor().undo(); },
        tr("Undo the last edit"));
    make(
        "redo", tr("&Redo"), QKeySequence::Redo, QStyle::SP_CustomBase, [this] { sceneEditor().redo(); }, tr("Redo"));
    make(
        "find", tr("&Find…"), QKeySequence::Find, QStyle::SP_CustomBase, [this] { findText(false); },
        tr("Find text in the scene"));
    make(
        "findNext", tr("Find &next"), QKeySequence::FindNext, QStyle::SP_CustomBase,
        [this] { sceneEditor().findNext(); }, tr("The next match"));
    make(
        "replace", tr("R&eplace…"), QKeySequence(Qt::CTRL | Qt::Key_H), QStyle::SP_CustomBase,
        [this] { findText(true); }, tr("Replace every match in the scene"));
    make(
        "welcome", tr("&Welcome scene"), QKeySequence(), QStyle::SP_CustomBase, [this] { openWelcome(); },
        tr("The built-in triangle"));
    make(
        "exportPng", tr("Export graph as &PNG…"), QKeySequence(), QStyle::SP_CustomBase,
        [this] { exportGraph(QStringLiteral("png")); }, tr("Save the graph as an image"));
    make(
        "exportSvg", tr("Export graph as &SVG…"), QKeySequence(), QStyle::SP_CustomBase,
        [this] { exportGraph(QStringLiteral("svg")); }, tr("Save the graph as a vector drawing"));
    make(
        "exportDot", tr("Export graph as &DOT…"), QKeySequence(), QStyle::SP_CustomBase,
        [this] { exportGraph(QStringLiteral("dot")); }, tr("Save the graph in Graphviz's language"));
    make(
        "exportLesson", tr("Export lesson as &web page…"), QKeySequence(), QStyle::SP_CustomBase,
        [this] { exportLessonPage(); }, tr("One web page that replays the lesson beat by beat, for students at home"));
    make(
        "exportHandout", tr("Export &handout as PDF…"), QKeySequence(), QStyle::SP_CustomBase,
        [this] { exportHandout(); }, tr("The lesson on paper: a page per note with its picture, narration and lines"));
    make(
        "exportTrace", tr("Export trace as &JSON…"), QKeySequence(), QStyle::SP_CustomBase, [this] { exportTrace(); },
        tr("Save every micro-step of the run"));
    make(
        "quit", tr("&Quit"), QKeySequence::Quit, QStyle::SP_CustomBase, [this] { close(); }, tr("Quit"));
    presentation_action_ = make(
        "presentation", tr("&Presentation mode"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F), QStyle::SP_CustomBase,
        [this] { setPresentationMode(presentation_action_->isChecked()); },
        tr("Full screen, large text, high-contrast colours for a projector"));
    presentation_action_->setCheckable(true);
    auto *bigger = make(
        "fontBigger", tr("Larger text"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Plus), QStyle::SP_CustomBase,
        [] { Theme::instance().setFontScale(Theme::instance().fontScale() * 1.15); }, tr("Scale every view's text up"));
    bigger->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Plus), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Equal)});
    make(
        "fontSmaller", tr("Smaller text"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Minus), QStyle::SP_CustomBase,
        [] { Theme::instance().setFontScale(Theme::instance().fontScale() / 1.15); },
        tr("Scale every view's text down"));
    auto *contrast = make(
        "highContrast", tr("&High contrast"), QKeySequence(), QStyle::SP_CustomBase,
        [] { Theme::instance().setHighContrast(!Theme::instance().highContrast()); },
        tr("Colours that still read on a projector"));
    contrast->setCheckable(true);
    dark_presentation_action_ = make(
        "darkPresentation", tr("&Dark theme when presenting"), QKeySequence(), QStyle::SP_CustomBase,
        [this] { setDarkPresentation(dark_presentation_action_->isChecked()); },
        tr("Presentation mode draws light on a dark ground: for a dark room, or a projector that washes white out"));
    dark_presentation_action_->setCheckable(true);
    // The widgets follow the theme's ground; the style's own palette comes back with the light.
    connect(&Theme::instance(), &Theme::changed, this, [this] {
        const bool dark = Theme::instance().dark();
        if (dark == dark_palette_)
            return;
        dark_palette_ = dark;
        QApplication::setPalette(Theme::instance().widgetPalette(QApplication::style()->standardPalette()));
    });
    connect(&Theme::instance(), &Theme::changed, contrast,
            [contrast] { contrast->setChecked(Theme::instance().highContrast()); });
    make(
        "resetLayout", tr("&Reset layout"), QKeySequence(), QStyle::SP_CustomBase, [this] { resetLayout(); },
        tr("Every panel back in its place, sized to the window"));
    make(
        "sceneLanguage", tr("Scene &language"), QKeySequence::HelpContents, QStyle::SP_CustomBase,
        [this] { help::showSceneLanguage(this); }, tr("The scene language reference"));
    make(
        "glossary", tr("&Glossary"), QKeySequence(), QStyle::SP_CustomBase, [this] { help::showGlossary(this); },
        tr("What the words of the narration mean"));
    make(
        "shortcuts", tr("&Keyboard shortcuts"), QKeySequence(), QStyle::SP_CustomBase,
        [this] { help::showKeyboardShortcuts(this); }, tr("Every key of the window"));
    make(
        "about", tr("&About Inflight"), QKeySequence(), QStyle::SP_CustomBase, [this] { about(); }, tr("About"));
}

void MainWindow::buildToolbar()
{
    auto *bar = addToolBar(tr("Transport"));
    bar->setObjectName(QStringLiteral("transport"));
    bar->setToolButtonStyle(Qt::ToolButtonTextUnderIcon);
    transport_bar_ = bar;
    for (const char *name :
         {"first", "backStatement", "back", "stepInto", "stepOver", "stepOut", "continue", "play", "last"})
        bar->addAction(action(QString::fromLatin1(name)));
    bar->addSeparator();

    speed_ = new QSlider(Qt::Horizontal, bar);
    speed_->setRange(0, 100);
    speed_->setFixedWidth(120);
    speed_->setToolTip(tr("Playback speed (micro-steps per second)"));
    speed_label_ = new QLabel(bar);
    speed_label_->setMinimumWidth(90);
    connect(speed_, &QSlider::valueChanged, this, [this](int v) {
        controller_.setSpeed(speed_of(v));
        speed_label_->setText(speed_text(controller_.speed()));
    });
    bar->addWidget(new QLabel(tr(" Speed "), bar));
    bar->addWidget(speed_);
    bar->addWidget(speed_label_);
    bar->addSeparator();

    position_label_ = new QLabel(this);
    position_label_->setObjectName(QStringLiteral("positionLabel"));
    position_row_->addWidget(position_label_);
    goto_box_ = new QLineEdit(this);
    goto_box_->setPlaceholderText(tr("go to step"));
    // Only a click gives it the focus: opened scenes keep the keys for stepping.
    goto_box_->setFocusPolicy(Qt::ClickFocus);
    goto_box_->setFixedWidth(110);
    goto_box_->setToolTip(tr("Type a step number and press Enter"));
    connect(goto_box_, &QLineEdit::returnPressed, this, [this] {
        bool ok = false;
        const qulonglong n = goto_box_->text().trimmed().toULongLong(&ok);
        // The keys go back to stepping after Enter, whatever was typed: a clicker's next
        // press must move the lesson, not edit the box.
        graph_->view()->setFocus();
        if (!ok) {
            statusBar()->showMessage(tr("'%1' is not a step number").arg(goto_box_->text()), 4000);
            return;
        }
        controller_.seek(n);
        goto_box_->clear();
    });
    position_row_->addWidget(goto_box_);

    bar->addWidget(new QLabel(tr(" Collector "), bar));
    // One entry per kernel profile ("6.18 · graph"): the collector and the changes of that
    // kernel; the tooltip of each says which.
    era_box_ = new QComboBox(bar);
    era_box_->setObjectName(QStringLiteral("kernelBox"));
    for (const KernelProfile &p : kernel_profiles()) {
        era_box_->addItem(QStringLiteral("%1 · %2").arg(QString::fromLatin1(p.name.data(), qsizetype(p.name.size())),
                                                        QString::fromLatin1(era_name(p.era).data())));
        era_box_->setItemData(era_box_->count() - 1, QString::fromUtf8(p.title.data(), qsizetype(p.title.size())),
                              Qt::ToolTipRole);
    }
    era_box_->setToolTip(tr("The kernel: re-run the scene on another kernel profile (its collector and fixes), at the "
                            "same statement. 'inflight-cli kernels' lists what each has."));
    connect(era_box_, qOverload<int>(&QComboBox::activated), this,
            [this](int i) { controller_.setKernel(&kernel_profiles()[static_cast<std::size_t>(i)]); });
    bar->addWidget(era_box_);

    // Only for scenes with variant blocks: which one runs (the fill map, the timeline, …).
    variant_box_ = new QComboBox(bar);
    variant_box_->setObjectName(QStringLiteral("variantBox"));
    variant_box_->setToolTip(tr("Run one of the scene's variants: the same statements under its settings"));
    connect(variant_box_, qOverload<int>(&QComboBox::activated), this,
            [this](int i) { controller_.setVariant(variant_box_->itemData(i).toInt()); });
    variant_action_ = bar->addWidget(variant_box_);
    variant_action_->setVisible(false);
    connect(&Theme::instance(), &Theme::changed, this, &MainWindow::fitToolbar);
}

void MainWindow::fitToolbar()
{
    // The buttons' names under their icons where the whole bar fits the window; icons alone
    // (their names in the tooltips) where it would not, so the Collector box never goes into
    // the » overflow. (Presenting hides the bar, its fonts are the projector's: fitted on the way back.)
    if (presenting_)
        return;
    transport_bar_->setToolButtonStyle(Qt::ToolButtonTextUnderIcon);
    if (transport_bar_->sizeHint().width() > width())
        transport_bar_->setToolButtonStyle(Qt::ToolButtonIconOnly);
}

void MainWindow::updateVariantBox()
{
    const QSignalBlocker block(variant_box_);
    variant_box_->clear();
    const bool has = controller_.hasScene() && !controller_.baseScene().variants.empty();
    variant_action_->setVisible(has);
    fitToolbar();
    if (!has)
        return;
    variant_box_->addItem(tr("as written"), -1);
    const auto &variants = controller_.baseScene().variants;
    for (std::size_t i = 0; i < variants.size(); ++i)
        variant_box_->addItem(tr("variant %1").arg(QString::fromStdString(variants[i].name)), static_cast<int>(i));
    variant_box_->setCurrentIndex(controller_.variant() + 1);
}

void MainWindow::buildDocks()
{
    WindowDocks &d = docks_set_;
    d.algorithm = new docks::AlgorithmDock(controller_, this);
    d.lists = new docks::ListsDock(controller_, this);
    auto *scene_dock = new docks::SceneDock(controller_, this);
    d.scene = scene_dock;
    session_ = new editor::EditorSession(controller_, *scene_dock, this);
    session_->setSavePathPrompt([this](const QString &suggested) {
        QString path =
            QFileDialog::getSaveFileName(this, tr("Save scene"), suggested, tr("Scenes (*.scn);;All files (*)"));
        if (!path.isEmpty() && QFileInfo(path).suffix().isEmpty())
            path += QStringLiteral(".scn");
        return path;
    });
    connect(session_, &editor::EditorSession::titleChanged, this, &MainWindow::updateTitle);
    connect(session_, &editor::EditorSession::fileChecked, this, &MainWindow::reportOpened);
    connect(scene_dock, &docks::SceneDock::staleRunChanged, this, &MainWindow::setRunDimmed);
    // A live re-run keeps the graph's zoom and centre (after the graph panel starts afresh).
    new editor::GraphViewportKeeper(controller_, *graph_->view(), this);
    // A long re-run replays off the GUI thread: its progress, while the old run stays usable.
    rerun_progress_ = new editor::RerunProgress(controller_, this);
    statusBar()->addPermanentWidget(rerun_progress_);
    d.inspector = new docks::InspectorDock(controller_, this);
    d.log = new docks::EventLogDock(controller_, this);
    d.watches = new docks::WatchesDock(controller_, this);
    d.expectations = new docks::ExpectationsDock(controller_, this);
    auto *latency_dock = new latency::LatencyDock(controller_, this);
    d.latency = latency_dock;
    d.autobind = new autobind::AutobindDock(controller_, this);
    docks_ = d.all();
    window_layout::arrange(*this, d);
    // A wait marker on the timeline selects its call in the latency table.
    connect(timeline_, &TimelineWidget::waitMarkerClicked, latency_dock, &latency::LatencyDock::selectCallAt);
    log_dock_ = d.log;
    latency_dock_ = d.latency;
    autobind_dock_ = d.autobind;
}

void MainWindow::resetLayout()
{
    if (presentation_action_->isChecked())
        setPresentationMode(false);
    window_layout::arrange(*this, docks_set_);
    window_layout::applyShares(*this, docks_set_, false);
    panel_scene_ = nullptr; // let the scene bring its panel forward again
    showPanelForScene();
}

QDockWidget *MainWindow::scenePanel() const
{
    // A scene that mostly autobinds is about its name space; one timed on several CPUs is about
    // its latencies. (Variants to compare bring the latencies forward at a desk, but the lesson
    // of a buggy and a fixed run is still its graph.)
    if (!controller_.hasScene())
        return nullptr;
    const inflight::Scene &scene = controller_.scene();
    const std::uint64_t statements = inflight::unrolled_statements(scene.statements);
    const std::uint64_t autobinds = inflight::unrolled_autobinds(scene.statements);
    if (autobinds >= 64 && autobinds * 4 >= statements)
        return autobind_dock_;
    if (scene.settings.cpus > 1)
        return latency_dock_;
    return nullptr;
}

void MainWindow::showPanelForScene()
{
    // The bottom panel the scene is about: one that mostly autobinds (the seed 001 race, the
    // fill, the exhaustion) is its name space, whose map needs room more than the graph of idle
    // sockets does; a timed scene on several CPUs or with variants to compare is its latencies.
    // Only when a scene is opened: re-running it keeps what the user chose.
    if (!controller_.hasScene() || !log_dock_)
        return;
    const inflight::Scene &scene = controller_.scene();
    if (&scene == panel_scene_ && !panel_pending_)
        return; // the same scene re-run (another collector, other costs)
    panel_scene_ = &scene;
    // Docks are sized against the window: before it is shown, wait for showEvent().
    panel_pending_ = !isVisible();
    if (panel_pending_)
        return;
    // The log, unless it shares its tab with the lists: then the lists (the collector's state
    // is what a graph scene is read with; the log is a click away).
    QDockWidget *front = tabifiedDockWidgets(docks_set_.lists).contains(log_dock_) ? docks_set_.lists : log_dock_;
    int height = static_cast<int>(this->height() * window_layout::kBottomShare);
    if (scenePanel() == autobind_dock_) {
        front = autobind_dock_;
        height = this->height() / 2;
    } else if (scenePanel() == latency_dock_ || !scene.variants.empty()) {
        front = latency_dock_;
        height = this->height() * 2 / 5;
    }
    if (front->isFloating() || !front->toggleViewAction()->isChecked()) // the user moved or closed it
        return;
    front->raise();
    resizeDocks({front}, {height}, Qt::Vertical);
    if (front != log_dock_ && front != docks_set_.lists && !tabifiedDockWidgets(docks_set_.lists).contains(front) &&
        !docks_set_.lists->isFloating() && docks_set_.lists->isVisible()) {
        // The panel the scene is about gets most of the row under the graph.
        const int row = docks_set_.lists->width() + front->width();
        resizeDocks({docks_set_.lists, front}, {row * 3 / 10, row - row * 3 / 10}, Qt::Horizontal);
    }
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(action("new"));
    file->addAction(action("open"));
    recent_menu_ = file->addMenu(tr("Open &Recent"));
    buildExamplesMenu(file->addMenu(tr("&Examples")));
    file->addAction(action("save"));
    file->addAction(action("saveAs"));
    file->addAction(action("reload"));
    file->addAction(action("welcome"));
    file->addSeparator();
    file->addAction(action("exportPng"));
    file->addAction(action("exportSvg"));
    file->addAction(action("exportDot"));
    {
        // What a PNG/SVG export carries besides the graph, remembered for the next export.
        QMenu *contents = file->addMenu(tr("Exported graph &shows"));
        const graph_export::PictureOptions o = graph_export::readPictureOptions();
        auto option = [&](const QString &text, bool on, void (*set)(graph_export::PictureOptions &, bool)) {
            QAction *a = contents->addAction(text);
            a->setCheckable(true);
            a->setChecked(on);
            connect(a, &QAction::toggled, this, [set](bool checked) {
                graph_export::PictureOptions now = graph_export::readPictureOptions();
                set(now, checked);
                graph_export::writePictureOptions(now);
            });
        };
        option(tr("&Title line"), o.title, [](graph_export::PictureOptions &p, bool b) { p.title = b; });
        option(tr("&Narration"), o.narration, [](graph_export::PictureOptions &p, bool b) { p.narration = b; });
        option(tr("&Legend"), o.legend, [](graph_export::PictureOptions &p, bool b) { p.legend = b; });
        option(tr("PNG at &2× for projectors"), o.png_scale >= 2,
               [](graph_export::PictureOptions &p, bool b) { p.png_scale = b ? 2.0 : 1.0; });
    }
    file->addAction(action("exportTrace"));
    file->addAction(action("exportLesson"));
    file->addAction(action("exportHandout"));
    file->addSeparator();
    file->addAction(action("quit"));

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    for (const char *name : {"undo", "redo", "find", "findNext", "replace", "toggleComment", "applyFix"})
        edit->addAction(action(QString::fromLatin1(name)));

    QMenu *run = menuBar()->addMenu(tr("&Run"));
    run->addAction(action("runAsYouType"));
    run->addAction(action("runToCursor"));
    run->addSeparator();
    run->addAction(action("nextNote"));
    run->addAction(action("previousNote"));
    run->addSeparator();
    for (const char *name : {"play", "continue", "stepInto", "stepOver", "stepOut", "stepOutFunction", "back",
                             "backStatement", "reverseContinue", "reverseStepOver", "reverseStepOut", "first", "last"})
        run->addAction(action(QString::fromLatin1(name)));
    run->addSeparator();
    QMenu *bp = run->addMenu(tr("Stop &when"));
    auto toggle = [this, bp](const QString &text, bool inflight::EventBreakpointSet::*field) {
        auto *a = bp->addAction(text);
        a->setCheckable(true);
        a->setChecked(controller_.eventBreakpoints().*field);
        connect(a, &QAction::toggled, this, [this, field](bool on) { controller_.eventBreakpoints().*field = on; });
    };
    toggle(tr("a collection starts"), &inflight::EventBreakpointSet::collection_starts);
    toggle(tr("the hitlist becomes non-empty"), &inflight::EventBreakpointSet::hitlist_non_empty);
    toggle(tr("an invariant is violated"), &inflight::EventBreakpointSet::invariant_violated);
    toggle(tr("a statement fails"), &inflight::EventBreakpointSet::statement_fails);
    bp->addSeparator();
    bp->addAction(tr("a socket becomes a candidate…"), this, [this] { askSocketBreakpoint(true); });
    bp->addAction(tr("a socket is found garbage…"), this, [this] { askSocketBreakpoint(false); });
    run->addSeparator();
    install_kernel_replay(*this, controller_, *run, qobject_cast<docks::InspectorDock *>(docks_set_.inspector));

    QMenu *model = menuBar()->addMenu(tr("&Model"));
    auto *step_into = model->addAction(tr("Step into &collections and autobind probes"));
    step_into->setObjectName("stepIntoCollectionsAction");
    step_into->setCheckable(true);
    step_into->setToolTip(tr("Off: each collection and each bind is fast-forwarded (its cost still counted). "
                             "Scenes of more than %1 statements start with it off.")
                              .arg(PlayerController::kStepIntoLimit));
    connect(step_into, &QAction::toggled, this, [this](bool on) { controller_.setStepsIntoCollections(on); });
    connect(&controller_, &PlayerController::sceneLoaded, step_into, [this, step_into] {
        const QSignalBlocker block(step_into);
        step_into->setChecked(controller_.stepsIntoCollections());
    });
    model->addAction(tr("&Costs…"), this, [this] {
        if (!controller_.hasScene())
            return;
        // The scene's own costs (its `set cost` lines), without this window's overrides.
        inflight::SimulationOptions own = controller_.simulationOptions();
        own.cost_overrides.clear();
        CostSettingsDialog dialog(controller_.costOverrides(), inflight::run_costs(controller_.scene(), own), this);
        if (dialog.exec() == QDialog::Accepted)
            controller_.setCostOverrides(dialog.overrides());
    });

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(presentation_action_);
    // What a clicker's forward and back keys move by in presentation mode (Shift: a statement,
    // Ctrl: a micro-step, whatever is chosen here).
    QMenu *clicker = view->addMenu(tr("&Clicker moves by"));
    clicker->setObjectName(QStringLiteral("clickerMenu"));
    auto *steps = new QActionGroup(clicker);
    const int chosen = CheckedSettings().readInt(QStringLiteral("presentation/clickerStep"), 0, 0,
                                                 static_cast<int>(PresenterKeys::Granularity::microStep));
    const std::pair<PresenterKeys::Granularity, QString> choices[] = {
        {PresenterKeys::Granularity::beat, tr("&Beat (what changes the picture)")},
        {PresenterKeys::Granularity::statement, tr("&Statement")},
        {PresenterKeys::Granularity::microStep, tr("&Micro-step")}};
    for (const auto &[g, text] : choices) {
        QAction *a = clicker->addAction(text);
        a->setCheckable(true);
        a->setActionGroup(steps);
        const int index = static_cast<int>(g);
        a->setObjectName(QStringLiteral("clickerStep%1").arg(index));
        connect(a, &QAction::triggered, this, [this, g = g, index] {
            presenter_keys_->setGranularity(g);
            QSettings().setValue(QStringLiteral("presentation/clickerStep"), index);
        });
        if (index == chosen) {
            a->setChecked(true);
            presenter_keys_->setGranularity(g);
        }
    }
    side_by_side_action_ = view->addAction(tr("&Side by side"));
    side_by_side_action_->setObjectName(QStringLiteral("sideBySide"));
    side_by_side_action_->setCheckable(true);
    side_by_side_action_->setToolTip(tr("Two runs of the scene, one per variant (or kernel profile), kept on the "
                                        "same statement and beat"));
    connect(side_by_side_action_, &QAction::triggered, this, [this](bool on) {
        QString error;
        if (!setSideBySide(on ? side_by_side_->defaultPair() : QString(), &error))
            QMessageBox::warning(this, tr("Side by side"), error);
    });
    QAction *pair = view->addAction(tr("Side by side &pair…"));
    pair->setObjectName(QStringLiteral("sideBySidePair"));
    connect(pair, &QAction::triggered, this, [this] {
        bool ok = false;
        const QString current = side_by_side_->active()
                                    ? side_by_side_->nameA() + QLatin1Char(',') + side_by_side_->nameB()
                                    : side_by_side_->defaultPair();
        const QString chosen = QInputDialog::getText(
            this, tr("Side by side"), tr("Two variants or kernel profiles, A,B:"), QLineEdit::Normal, current, &ok);
        QString error;
        if (ok && !setSideBySide(chosen, &error))
            QMessageBox::warning(this, tr("Side by side"), error);
    });
    view->addAction(action("fontBigger"));
    view->addAction(action("fontSmaller"));
    view->addAction(action("highContrast"));
    view->addAction(action("darkPresentation"));
    view->addAction(action("resetLayout"));
    view->addSeparator();
    for (QDockWidget *d : docks_)
        view->addAction(d->toggleViewAction());

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(action("sceneLanguage"));
    help->addAction(action("glossary"));
    help->addAction(action("shortcuts"));
    help->addSeparator();
    help->addAction(action("about"));
}

void MainWindow::askSocketBreakpoint(bool candidate)
{
    bool ok = false;
    std::string &target =
        candidate ? controller_.eventBreakpoints().becomes_candidate : controller_.eventBreakpoints().found_garbage;
    const QString label = QInputDialog::getText(this, tr("Stop when"),
                                                candidate ? tr("Socket label that becomes a candidate (empty: none):")
                                                          : tr("Socket label that is found garbage (empty: none):"),
                                                QLineEdit::Normal, QString::fromStdString(target), &ok);
    if (ok)
        target = label.trimmed().toStdString();
}

void MainWindow::updateStatus()
{
    if (!controller_.hasScene()) {
        position_label_->setText(tr("no scene"));
        return;
    }
    const QString total = controller_.indexReady() ? QString::number(controller_.totalSteps()) : tr("…");
    if (presenting_ && controller_.indexReady()) {
        // The presenter goes to a beat by its number (a number then Enter).
        position_label_->setText(tr(" beat %1 of %2 · step %3 ")
                                     .arg(controller_.beatNumber())
                                     .arg(controller_.beatCount())
                                     .arg(controller_.position()));
        return;
    }
    position_label_->setText(tr(" step %1 of %2 · line %3 ")
                                 .arg(controller_.position())
                                 .arg(total)
                                 .arg(controller_.snapshot().current_line));
}

void MainWindow::updateTitle()
{
    // The file being edited, '*' while it has unsaved changes, and the title of the run shown.
    const QString name = session_->displayName() + (session_->isModified() ? QStringLiteral("*") : QString());
    if (!controller_.hasScene()) {
        setWindowTitle(tr("%1 — Inflight").arg(name));
        return;
    }
    setWindowTitle(tr("%1 — %2 — Inflight").arg(QString::fromStdString(controller_.scene().title), name));
}

editor::SceneEditor &MainWindow::sceneEditor() const
{
    return *static_cast<docks::SceneDock *>(docks_set_.scene)->editor();
}

bool MainWindow::offerRecovery() { return session_->offerRecovery(); }

bool MainWindow::runToCursor()
{
    const int line = sceneEditor().cursorLine();
    if (!controller_.hasScene() || !controller_.runToLine(line)) {
        statusBar()->showMessage(tr("Line %1 does not run in this scene").arg(line), 5000);
        return false;
    }
    return true;
}

void MainWindow::findText(bool replace)
{
    editor::SceneEditor &e = sceneEditor();
    bool ok = false;
    const QString what =
        QInputDialog::getText(this, replace ? tr("Replace") : tr("Find"), tr("Find:"), QLineEdit::Normal,
                              e.selectedText().isEmpty() ? find_text_ : e.selectedText(), &ok);
    if (!ok || what.isEmpty())
        return;
    find_text_ = what;
    if (!replace) {
        if (!e.findFirst(what, false, false, false, true))
            statusBar()->showMessage(tr("'%1' not found").arg(what), 4000);
        return;
    }
    const QString with = QInputDialog::getText(this, tr("Replace"), tr("Replace '%1' with:").arg(what),
                                               QLineEdit::Normal, QString(), &ok);
    if (!ok)
        return;
    // Every match in one undo step.
    const QString all = e.text();
    const int count = static_cast<int>(all.count(what));
    if (count > 0) {
        int line = 0, index = 0;
        e.getCursorPosition(&line, &index);
        e.beginUndoAction();
        e.selectAll();
        e.replaceSelectedText(QString(all).replace(what, with));
        e.endUndoAction();
        e.setCursorPosition(line, index);
    }
    statusBar()->showMessage(tr("%n replacement(s)", nullptr, count), 4000);
}

void MainWindow::setRunDimmed(bool dimmed)
{
    // The last good run stays on screen, visibly not the text's.
    if (dimmed) {
        auto *effect = new QGraphicsOpacityEffect(graph_);
        effect->setOpacity(0.45);
        graph_->setGraphicsEffect(effect);
    } else {
        graph_->setGraphicsEffect(nullptr);
    }
}

bool MainWindow::openScene(const QString &path)
{
    // Parsed off the GUI thread, like Revert: a generated scene expands to hundreds of
    // thousands of statements, and the window stays responsive while they are parsed.
    if (!session_->open(path, editor::EditorSession::Parse::in_background))
        return false;
    addRecent(session_->path());
    return true;
}

bool MainWindow::openSceneNow(const QString &path)
{
    // A scene with errors opens too, in the editor with every error marked; only a file that
    // cannot be read as text is refused (with its message).
    QString unreadable;
    session_->setMessageSink([&unreadable](const QString &m) { unreadable = m; });
    const bool opened = session_->open(path);
    session_->setMessageSink([this](const QString &m) { QMessageBox::warning(this, tr("Inflight"), m); });
    if (!opened) {
        if (!unreadable.isEmpty())
            std::fprintf(stderr, "%s\n", qPrintable(unreadable));
        return false;
    }
    for (const inflight::Diagnostic &d : sceneEditor().diagnostics())
        std::fprintf(stderr, "%s\n", d.format().c_str());
    addRecent(session_->path());
    return true;
}

void MainWindow::reportOpened(bool clean)
{
    const auto &diagnostics = sceneEditor().diagnostics();
    if (!clean)
        statusBar()->showMessage(tr("%1 has errors: they are marked in the Scene panel").arg(session_->displayName()),
                                 8000);
    else if (!diagnostics.empty())
        statusBar()->showMessage(QString::fromStdString(diagnostics.front().format()), 8000);
}

bool MainWindow::openWelcome()
{
    QFile f(QStringLiteral(":/welcome.scn"));
    if (!f.open(QIODevice::ReadOnly))
        return false;
    if (!session_->maybeSave())
        return false;
    session_->showText(f.readAll(), QStringLiteral("welcome.scn"));
    return session_->isClean();
}

void MainWindow::chooseOpen()
{
    CheckedSettings settings;
    // The last folder used; the first time, the examples.
    const QString dir =
        settings.readString(QStringLiteral("files/lastDir"), ExampleScenes::directory(), kMaxSettingText);
    const QString path = QFileDialog::getOpenFileName(this, tr("Open scene"), dir, tr("Scenes (*.scn);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.raw().setValue(QStringLiteral("files/lastDir"), QFileInfo(path).absolutePath());
    openScene(path);
}

void MainWindow::reload()
{
    if (session_->path().isEmpty())
        return;
    if (session_->isModified() && !session_->maybeSave())
        return;
    if (session_->revert())
        statusBar()->showMessage(tr("Reloaded %1").arg(session_->displayName()), 4000);
}

void MainWindow::addRecent(const QString &path)
{
    CheckedSettings settings;
    QStringList recent = readRecentFiles(settings);
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.raw().setValue(QStringLiteral("files/recent"), recent);
    rebuildRecentMenu();
}

// Breakpoints belong to their file: kept per path in the settings, never carried into the
// next scene opened; a reload of the same file keeps them.
QString MainWindow::breakpointKey() const
{
    return controller_.filePath().isEmpty() ? QStringLiteral("(welcome)") : controller_.filePath();
}

void MainWindow::loadBreakpointsOfFile()
{
    const QString key = breakpointKey();
    if (key == breakpoints_file_)
        return;
    breakpoints_file_ = key;
    // A line number, or a line and its condition ("28 if u0 alive").
    QStringList texts;
    const QVariantMap all =
        CheckedSettings().readMap(QStringLiteral("breakpoints/byFile"), kMaxBreakpointFiles, kMaxSettingText);
    for (const QVariant &v : all.value(key).toList()) {
        if (texts.size() >= kMaxBreakpointsPerFile)
            break;
        if (const QString text = v.toString(); !text.isEmpty() && text.size() <= kMaxSettingText)
            texts << text;
    }
    controller_.setLineBreakpointTexts(texts);
}

void MainWindow::saveBreakpointsOfFile()
{
    if (breakpoints_file_.isEmpty() || breakpoints_file_ != breakpointKey())
        return;
    CheckedSettings settings;
    QVariantMap all = settings.readMap(QStringLiteral("breakpoints/byFile"), kMaxBreakpointFiles, kMaxSettingText);
    QVariantList list;
    for (const QString &text : controller_.lineBreakpointTexts()) {
        bool number = false;
        const int line = text.toInt(&number);
        if (number)
            list << line; // unconditional: a number, as the settings have always held them
        else
            list << text;
    }
    if (list.isEmpty())
        all.remove(breakpoints_file_);
    else
        all.insert(breakpoints_file_, list);
    settings.raw().setValue(QStringLiteral("breakpoints/byFile"), all);
}

// As the CLI does: expectations written for other collectors may not hold under this one.
void MainWindow::warnIfWrittenForAnotherCollector()
{
    auto *dock = static_cast<docks::ExpectationsDock *>(docks_set_.expectations);
    if (dock && dock->warning()->isVisibleTo(dock))
        statusBar()->showMessage(dock->warning()->text(), 10000);
}

void MainWindow::rebuildRecentMenu()
{
    if (!recent_menu_)
        return;
    recent_menu_->clear();
    const QStringList recent = readRecentFiles(CheckedSettings());
    for (const QString &p : recent)
        recent_menu_->addAction(QFileInfo(p).fileName(), this, [this, p] { openScene(p); })->setToolTip(p);
    recent_menu_->setEnabled(!recent.isEmpty());
}

void MainWindow::buildExamplesMenu(QMenu *menu)
{
    const QString dir = ExampleScenes::directory();
    const QList<ExampleScene> examples = ExampleScenes::list(dir);
    QMenu *group_menu = nullptr;
    QString group;
    for (const ExampleScene &e : examples) {
        if (!group_menu || e.group != group) {
            group = e.group;
            group_menu = menu->addMenu(group);
        }
        const QString path = e.path;
        group_menu->addAction(e.title, this, [this, path] { openScene(path); })->setToolTip(path);
    }
    if (examples.isEmpty()) {
        menu->addAction(tr("No example scenes found"))->setEnabled(false);
        return;
    }
    menu->addSeparator();
    menu->addAction(tr("Open the examples folder…"), this, [this, dir] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open example"), dir, tr("Scenes (*.scn);;All files (*)"));
        if (!path.isEmpty())
            openScene(path);
    });
}

void MainWindow::exportGraph(const QString &format)
{
    const QString filter = format == QLatin1String("png")   ? tr("PNG image (*.png)")
                           : format == QLatin1String("svg") ? tr("SVG drawing (*.svg)")
                                                            : tr("Graphviz DOT (*.dot)");
    graph_export::PictureOptions options = graph_export::readPictureOptions();
    const QString suggested = QDir(options.directory).filePath(defaultGraphFileName(format));
    QString path = QFileDialog::getSaveFileName(this, tr("Export graph"), suggested, filter);
    if (path.isEmpty())
        return;
    options.directory = QFileInfo(path).absolutePath();
    graph_export::writePictureOptions(options);
    QString error;
    const bool ok = format == QLatin1String("dot") ? graph_->exportDot(path, &error) : exportGraphPicture(path, &error);
    if (ok)
        statusBar()->showMessage(tr("Saved %1").arg(path), 6000);
    else
        QMessageBox::warning(this, tr("Export graph"), error);
}

QString MainWindow::defaultGraphFileName(const QString &extension) const
{
    const int v = controller_.variant();
    const auto &variants = controller_.baseScene().variants;
    const QString variant =
        v >= 0 && std::size_t(v) < variants.size() ? QString::fromStdString(variants[std::size_t(v)].name) : QString();
    return graph_export::defaultFileName(controller_.filePath(), variant, controller_.position(), extension);
}

bool MainWindow::exportGraphPicture(const QString &path, QString *error)
{
    const graph_export::PictureOptions options = graph_export::readPictureOptions();
    graph_export::Captions captions;
    if (options.title) {
        const inflight::Event *event = controller_.currentEvent();
        captions.title =
            graph_export::titleLine(QString::fromStdString(controller_.scene().title), controller_.position(),
                                    controller_.totalSteps(), event ? int(event->scene_line) : 0);
    }
    if (options.narration)
        captions.narration = controller_.narration();
    if (options.legend)
        captions.legend = graph_->legend();
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive))
        return graph_->exportSvg(path, error, captions);
    return graph_->exportPng(path, error, captions, options.png_scale);
}

void MainWindow::exportLesson(const QString &title, const QString &file_suffix, const QString &filter,
                              const LessonWriter &write)
{
    if (!controller_.indexReady()) {
        statusBar()->showMessage(tr("The run is still being indexed; try again in a moment"), 4000);
        return;
    }
    const QString suggested = QFileInfo(controller_.filePath()).completeBaseName() + file_suffix;
    const QString path = QFileDialog::getSaveFileName(this, title, suggested, filter);
    if (path.isEmpty())
        return;
    // Drawn beat by beat from the event loop: the window stays live and Cancel is heard.
    QProgressDialog progress(tr("Drawing the lesson's beats…"), tr("Cancel"), 0, 0, this);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(300);
    QString error;
    const bool ok = write(path, &error, [&progress](int done, int total) {
        progress.setMaximum(total);
        progress.setValue(done);
        return !progress.wasCanceled();
    });
    if (ok)
        statusBar()->showMessage(tr("Saved %1").arg(path), 6000);
    else if (!progress.wasCanceled())
        QMessageBox::warning(this, title, error);
}

void MainWindow::exportLessonPage()
{
    exportLesson(tr("Export lesson as web page"), QStringLiteral(".html"), tr("Web page (*.html)"),
                 [this](const QString &path, QString *error, const lesson::Progress &progress) {
                     return lesson::writeWebPage(controller_, *graph_, path, error, progress);
                 });
}

void MainWindow::exportHandout()
{
    exportLesson(tr("Export handout"), QStringLiteral("-handout.pdf"), tr("PDF (*.pdf)"),
                 [this](const QString &path, QString *error, const lesson::Progress &progress) {
                     return lesson::writeHandout(controller_, *graph_, path, lesson::HandoutPages::per_note, error,
                                                 progress);
                 });
}

void MainWindow::exportTrace()
{
    if (!controller_.indexReady()) {
        statusBar()->showMessage(tr("The run is still being indexed; try again in a moment"), 4000);
        return;
    }
    const QString path = QFileDialog::getSaveFileName(this, tr("Export trace"), QStringLiteral("inflight-trace.json"),
                                                      tr("JSON (*.json)"));
    if (path.isEmpty())
        return;
    const std::string json = controller_.traceJson();
    if (const auto error = saveFile(path, QByteArray::fromStdString(json), "export")) {
        QMessageBox::warning(this, tr("Export trace"), *error);
        return;
    }
    statusBar()->showMessage(tr("Saved %1 (%2 steps)").arg(path).arg(controller_.totalSteps()), 6000);
}

void MainWindow::about()
{
    // Each profile as far as it was checked against a real kernel (docs/kernels.md).
    QString eras;
    for (const KernelProfile &p : kernel_profiles())
        eras +=
            QStringLiteral("<li><b>%1</b> (%2): %3 — %4</li>")
                .arg(QString::fromLatin1(p.name.data(), qsizetype(p.name.size())),
                     QString::fromLatin1(era_name(p.era).data()),
                     QString::fromUtf8(p.title.data(), qsizetype(p.title.size())).toHtmlEscaped(),
                     p.checked.empty() ? tr("not yet checked against a real kernel")
                                       : tr("checked against %1")
                                             .arg(QString::fromLatin1(p.checked.data(), qsizetype(p.checked.size()))));
    // The versions it runs on, not the ones it was built against: a bug report needs those.
    const QString versions = tr("Qt %1, Graphviz %2, QScintilla %3")
                                 .arg(QString::fromLatin1(qVersion()), QString::fromStdString(graph::graphvizVersion()),
                                      QStringLiteral(QSCINTILLA_VERSION_STR));
    QMessageBox::about(this, tr("About Inflight"),
                       tr("<h3>Inflight %1</h3><p>Watch and step through the Linux kernel's AF_UNIX garbage "
                          "collector: how file descriptors passed over SCM_RIGHTS form cycles and how each "
                          "era's collector finds and frees them.</p><p>Kernel profiles (Collector box; docs/kernels.md "
                          "says which were checked against which real kernel):</p><ul>%2</ul>"
                          "<p>The model is written from the kernel's behaviour; no kernel code is included.</p>"
                          "<p>Running on %3.</p>"
                          "<p>Inflight is free software: you can redistribute it and/or modify it under the terms "
                          "of the GNU General Public License as published by the Free Software Foundation, either "
                          "version 3 of the License, or (at your option) any later version "
                          "(GPL-3.0-or-later). It comes with ABSOLUTELY NO WARRANTY. See "
                          "<a href=\"https://www.gnu.org/licenses/gpl-3.0.html\">the GNU GPL</a>.</p>")
                           .arg(QString::fromLatin1(inflight::kVersion), eras, versions));
}

void MainWindow::setDarkPresentation(bool on)
{
    dark_presentation_ = on;
    dark_presentation_action_->setChecked(on);
    if (presenting_)
        Theme::instance().setDark(on);
}

void MainWindow::setPresentationMode(bool on)
{
    presentation_action_->setChecked(on);
    if (on == presenting_)
        return;
    presenting_ = on;
    presenter_keys_->setActive(on);
    updateStatus(); // beats while presenting, steps and lines otherwise
    Theme &theme = Theme::instance();
    keep_shares_ = false; // the switch resizes the window: no share-keeping in between
    if (on) {
        saved_rect_ = geometry();
        saved_window_state_ = windowState() & ~Qt::WindowFullScreen;
        saved_state_ = saveState();
        normal_font_scale_ = theme.fontScale();
        theme.setFontScale(std::max(1.6, normal_font_scale_));
        theme.setHighContrast(true);
        theme.setDark(dark_presentation_);
        window_layout::showForPresentation(*this, docks_set_, scenePanel());
        // Side by side, each pane carries its own run's narration: the room goes to the two graphs.
        if (side_view_ && docks_set_.algorithm)
            docks_set_.algorithm->hide();
        // The picture and the words only: the presenter drives it by keys (the actions stay the
        // window's, so their shortcuts still work), the room goes to the graph.
        saved_bars_.clear();
        for (QWidget *bar : presentationHiddenBars())
            if (!bar->isHidden()) { // (not isVisible(): the window may not be shown yet)
                saved_bars_ << bar;
                bar->hide();
            }
        // The timeline as a thin strip (the presenter's keys go to a beat by its number).
        goto_box_->hide();
        timeline_->setMaximumHeight(timeline_->sizeHint().height() * 2 / 3);
        if (auto *algorithm = qobject_cast<docks::AlgorithmDock *>(docks_set_.algorithm)) {
            algorithm->setPresentation(true);
            // No title bar: the column is the lesson's text, not a pane to move.
            algorithm->setTitleBarWidget(new QWidget(algorithm));
        }
        // Full screen on the window's own screen; the explicit geometry is what makes it full
        // screen where no window manager honours the request.
        const QScreen *where = screen() ? screen() : QGuiApplication::primaryScreen();
        showFullScreen();
        if (where)
            setGeometry(where->geometry());
        graph_->setPresentation(true, kPresentationLabelPixels);
        if (side_view_)
            side_view_->setPresentation(true, kPresentationLabelPixels);
    } else {
        theme.setFontScale(normal_font_scale_);
        theme.setHighContrast(false);
        theme.setDark(false);
        graph_->setPresentation(false, 0);
        if (side_view_)
            side_view_->setPresentation(false, 0);
        goto_box_->show();
        timeline_->setMaximumHeight(QWIDGETSIZE_MAX);
        if (auto *algorithm = qobject_cast<docks::AlgorithmDock *>(docks_set_.algorithm)) {
            algorithm->setPresentation(false);
            QWidget *blank_title = algorithm->titleBarWidget();
            algorithm->setTitleBarWidget(nullptr);
            delete blank_title;
        }
        for (QWidget *bar : std::as_const(saved_bars_))
            bar->show();
        saved_bars_.clear();
    }
    if (auto *latency = qobject_cast<latency::LatencyDock *>(docks_set_.latency))
        latency->setPresentation(on);
    // Every widget's own font too (toolbar, menus, dock titles), not only the custom views; back
    // from presenting, the font the window had (a font set only for presenting would make the
    // bars taller than before, and every dock under them move).
    if (on) {
        saved_font_ = testAttribute(Qt::WA_SetFont) ? std::optional<QFont>(font()) : std::nullopt;
        QFont f = QApplication::font();
        f.setPointSizeF(10.0 * theme.fontScale());
        setFont(f);
    } else {
        setFont(saved_font_.value_or(QFont()));
        fitToolbar();
    }
    if (!on) {
        // The docks first (their larger minimums gone), then the exact window of before.
        window_layout::endPresentation(*this);
        // With the docks' minimum sizes of now, not of presenting: a panel that spanned the
        // screen would otherwise squeeze the side docks it sits between again.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        restoreState(saved_state_);
        leavePresentationGeometry();
    }
    // Sizes once the window has its new geometry.
    QTimer::singleShot(0, this, [this, on] {
        if (on)
            window_layout::applyShares(*this, docks_set_, true);
        else
            leavePresentationGeometry(); // again, once the layout settled
        keep_shares_ = true;
        if (graph_->view()->followsGraph())
            graph_->view()->fitAll();
    });
}

bool MainWindow::setSideBySide(const QString &pair, QString *error)
{
    auto *layout = qobject_cast<QVBoxLayout *>(centralWidget()->layout());
    if (side_view_) {
        side_view_->release(centralWidget());
        layout->replaceWidget(side_view_, graph_);
        delete side_view_;
        side_view_ = nullptr;
    }
    if (pair.isEmpty()) {
        if (presenting_ && docks_set_.algorithm)
            docks_set_.algorithm->show(); // the lesson's column again
        side_by_side_->stop();
        side_by_side_action_->setChecked(false);
        return true;
    }
    if (!side_by_side_->start(pair, error)) {
        side_by_side_action_->setChecked(false);
        return false;
    }
    side_view_ = new SideBySideView(*side_by_side_, graph_, centralWidget());
    layout->insertWidget(0, side_view_, 1);
    if (presenting_) {
        side_view_->setPresentation(true, kPresentationLabelPixels);
        if (docks_set_.algorithm)
            docks_set_.algorithm->hide();
    }
    side_by_side_action_->setChecked(true);
    return true;
}

QList<QWidget *> MainWindow::presentationHiddenBars() const
{
    QList<QWidget *> bars{menuBar(), statusBar()};
    for (QToolBar *bar : findChildren<QToolBar *>())
        bars << bar;
    return bars;
}

// The window exactly as it was: maximised again, or the same rectangle (set directly: a
// restoreGeometry() adds the frame twice where no window manager draws one).
void MainWindow::leavePresentationGeometry()
{
    if (saved_window_state_ & Qt::WindowMaximized) {
        showMaximized();
        return;
    }
    showNormal();
    setGeometry(saved_rect_);
}

bool MainWindow::saveScreenshot(const QString &file, int settle_ms)
{
    // Wait for the index, a seek under way (--step into a long run replays on a pool thread,
    // beside the index and about as long) and the first layout, without blocking on any forever.
    QElapsedTimer clock;
    clock.start();
    // (A scene whose errors keep it from running has neither: only the editor to show.)
    while (controller_.hasScene() &&
           (!controller_.indexReady() || controller_.isBusy() || !graph_->waitForLayout(50)) &&
           clock.elapsed() < settle_ms)
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    // Panels refresh on throttle timers (a few frames): let the pending ones fire.
    QElapsedTimer settle;
    settle.start();
    while (settle.elapsed() < 300)
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    const QPixmap shot = grab();
    // Encoded in memory in the format the name asks for (PNG without a suffix), then written
    // whole or not at all.
    const QByteArray suffix = QFileInfo(file).suffix().toLatin1();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (shot.isNull() || !shot.save(&buffer, suffix.isEmpty() ? "PNG" : suffix.constData())) {
        std::fprintf(stderr, "inflight: error: cannot write %s: the window could not be encoded as an image\n",
                     qPrintable(file));
        return false;
    }
    if (const auto error = saveFile(file, bytes, "write")) {
        std::fprintf(stderr, "inflight: error: %s\n", qPrintable(*error));
        return false;
    }
    return true;
}

void MainWindow::showEvent(QShowEvent *e)
{
    QMainWindow::showEvent(e);
    if (shares_pending_) {
        // Now and once the layout has the window's size (a first show lays out after this).
        shares_pending_ = false;
        window_layout::applyShares(*this, docks_set_, false);
        QTimer::singleShot(0, this, [this] {
            window_layout::applyShares(*this, docks_set_, false);
            keep_shares_ = true;
            // The scene's own panel keeps the room it asked for.
            panel_scene_ = nullptr;
            showPanelForScene();
        });
        return;
    }
    keep_shares_ = true;
    if (panel_pending_)
        showPanelForScene();
}

void MainWindow::resizeEvent(QResizeEvent *e)
{
    QMainWindow::resizeEvent(e);
    if (e->oldSize().width() != e->size().width())
        fitToolbar();
    if (!isVisible())
        return;
    if (presenting_) // a window manager makes it full screen some time after the request
        window_layout::applyShares(*this, docks_set_, true);
    else if (keep_shares_)
        window_layout::keepShares(*this, docks_set_, e->oldSize(), e->size());
}

void MainWindow::closeEvent(QCloseEvent *e)
{
    if (!session_->maybeSave()) {
        e->ignore(); // the user kept the window to keep the text
        return;
    }
    QSettings settings;
    if (!presentation_action_->isChecked()) {
        settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
        settings.setValue(QStringLiteral("view/fontScale"), Theme::instance().fontScale());
        settings.setValue(QStringLiteral("view/highContrast"), Theme::instance().highContrast());
    }
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("run/speed"), controller_.speed());
    settings.setValue(QStringLiteral("view/darkPresentation"), dark_presentation_);
    QMainWindow::closeEvent(e);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *e)
{
    if (e->mimeData()->hasUrls())
        for (const QUrl &u : e->mimeData()->urls())
            if (u.isLocalFile() && u.toLocalFile().endsWith(QStringLiteral(".scn"))) {
                e->acceptProposedAction();
                return;
            }
}

void MainWindow::dropEvent(QDropEvent *e)
{
    for (const QUrl &u : e->mimeData()->urls())
        if (u.isLocalFile() && u.toLocalFile().endsWith(QStringLiteral(".scn"))) {
            openScene(u.toLocalFile());
            e->acceptProposedAction();
            return;
        }
}
