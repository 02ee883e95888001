// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/graph_panel.h"

#include "graph/graph_export.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/legend_bar.h"
#include "graph/node_item.h"
#include "graph/socket_item.h"
#include "inflight/scene.hpp"
#include "inflight/simulation.hpp"
#include "player_controller.h"
#include "theme.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QShortcut>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

GraphPanel::GraphPanel(PlayerController &controller, QWidget *parent)
    : QWidget(parent), controller_(controller), scene_(new GraphScene(this))
{
    view_ = new GraphView(scene_, this);
    // At a desk a fit stops where socket names would fall under 10 px (a wide scene at 1280x800):
    // the overview map shows the rest, the view follows the step, F shows everything.
    constexpr double kReadableLabelPixels = 10;
    view_->setReadableLabelPixels(kReadableLabelPixels);
    legend_ = new LegendBar(this);
    search_ = new QLineEdit(this);
    search_->setPlaceholderText(tr("Find socket by name (Enter: next)"));
    search_->setClearButtonEnabled(true);
    search_->setMinimumWidth(300);
    search_->setMaximumWidth(420);
    status_ = new QLabel(this);
    auto *fit = new QPushButton(tr("Fit (F)"), this);
    fit->setToolTip(tr("Show the whole graph, and keep showing it as it grows"));
    auto *tidy = new QPushButton(tr("Tidy layout"), this);
    tidy->setToolTip(tr("Lay the whole graph out afresh. Sockets keep their places otherwise, so that nothing jumps "
                        "while you step."));
    auto *top = new QHBoxLayout;
    top->setContentsMargins(6, 4, 6, 4);
    top->addWidget(search_);
    top->addWidget(status_);
    top->addStretch(1);
    top->addWidget(tidy);
    top->addWidget(fit);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(top);
    layout->addWidget(view_, 1);
    layout->addWidget(legend_);

    connect(search_, &QLineEdit::returnPressed, this, [this] { findNext(search_->text()); });
    connect(search_, &QLineEdit::textChanged, this, [this] {
        last_match_.reset();
        status_->clear();
    });
    connect(fit, &QPushButton::clicked, this, &GraphPanel::fitAll);
    connect(tidy, &QPushButton::clicked, this, &GraphPanel::tidyLayout);
    auto shortcut = [this](const QKeySequence &keys, auto fn) {
        auto *s = new QShortcut(keys, this);
        s->setContext(Qt::WidgetWithChildrenShortcut);
        connect(s, &QShortcut::activated, this, fn);
    };
    shortcut(QKeySequence::ZoomIn, [this] { view_->zoomBy(1.25); });
    shortcut(QKeySequence(Qt::CTRL | Qt::Key_Equal), [this] { view_->zoomBy(1.25); });
    shortcut(QKeySequence::ZoomOut, [this] { view_->zoomBy(1 / 1.25); });
    shortcut(QKeySequence::Find, [this] {
        search_->setFocus();
        search_->selectAll();
    });

    connect(&controller_, &PlayerController::sceneLoaded, this, &GraphPanel::onSceneLoaded);
    deferred_ = new QTimer(this);
    deferred_->setSingleShot(true);
    connect(deferred_, &QTimer::timeout, this, [this] {
        // A seek under way replaces the state shown: refresh once it has landed (its move
        // starts the timer again), not the state it is about to leave.
        if (controller_.isBusy()) {
            refresh_owed_ = true; // and if the seek is cancelled instead, busyChanged() pays it
            return;
        }
        refresh();
    });
    connect(&controller_, &PlayerController::busyChanged, this, [this](bool busy) {
        if (!busy && refresh_owed_)
            positionMoved();
    });
    connect(&controller_, &PlayerController::positionChanged, this, &GraphPanel::positionMoved);
    connect(&controller_, &PlayerController::selectionChanged, this, &GraphPanel::onSelectionChanged);
    connect(scene_, &GraphScene::socketClicked, this, [this](std::uint32_t sock) { controller_.selectSocket(sock); });
    connect(view_, &GraphView::backgroundClicked, this, [this] { controller_.selectSocket(std::nullopt); });
    connect(&Theme::instance(), &Theme::changed, this, [this] {
        scene_->setBackgroundBrush(Theme::instance().background());
        scene_->restyle();
    });
    scene_->setBackgroundBrush(Theme::instance().background());
    if (controller_.hasScene())
        onSceneLoaded();
}

GraphPanel::~GraphPanel() = default;

OverviewView *GraphPanel::overview() const { return view_->overview(); }
int GraphPanel::socketItemCount() const { return scene_->socketItemCount(); }
int GraphPanel::edgeItemCount() const { return scene_->edgeItemCount(); }
int GraphPanel::fdEdgeItemCount() const { return scene_->fdEdgeItemCount(); }
int GraphPanel::processItemCount() const { return scene_->processItemCount(); }
int GraphPanel::aggregateItemCount() const { return scene_->aggregateItemCount(); }

GraphRefreshPlan planGraphRefresh(qint64 last_refresh_ms, bool playing)
{
    constexpr qint64 kFrameMs = 16;
    if (last_refresh_ms <= kFrameMs)
        return {};
    const int interval = static_cast<int>(std::min<qint64>(last_refresh_ms, 500));
    // Stepping by hand, a refresh longer than the 50 ms a GUI-thread stall may take (the
    // million-socket scene's: 70-300 ms to snapshot and group every socket) waits until the
    // moves stop. Refreshed once per interval, it froze the window in the middle of a series of
    // steps back, each of which then waited for it: with the threshold at 250 ms, a refresh
    // that had last taken 70-250 ms still ran mid-series, and five steps back stalled the GUI
    // thread for 273-395 ms in about one bench run in five (inflight-app-bench million).
    // Playing, the graph still follows a refresh of up to 250 ms, once per interval (playback
    // moves on every tick and would never be quiet); a slower one would hold the window more
    // than half the time, so it waits for the pause.
    constexpr qint64 kWaitsForQuietMs = 50, kWaitsForPauseMs = 250;
    if (last_refresh_ms > (playing ? kWaitsForPauseMs : kWaitsForQuietMs))
        return {GraphRefreshPlan::when_quiet, interval};
    return {GraphRefreshPlan::every_interval, interval};
}

void GraphPanel::positionMoved()
{
    const GraphRefreshPlan plan = planGraphRefresh(last_refresh_ms_, controller_.isPlaying());
    switch (plan.when) {
    case GraphRefreshPlan::now: refresh(); return;
    case GraphRefreshPlan::when_quiet:
        deferred_->start(plan.interval_ms); // restarted by each move
        return;
    case GraphRefreshPlan::every_interval:
        if (!deferred_->isActive()) // not restarted by each move
            deferred_->start(plan.interval_ms);
        return;
    }
}

void GraphPanel::flushRefresh()
{
    if (deferred_->isActive())
        refresh();
}

void GraphPanel::refresh()
{
    deferred_->stop();
    if (controller_.isStateLent()) {
        refresh_owed_ = true; // the state is being replaced: drawn once the seek lands
        return;
    }
    refresh_owed_ = false;
    if (!controller_.hasScene())
        return;
    QElapsedTimer took;
    took.start();
    const auto snapshot = controller_.graphSnapshot();
    scene_->setSnapshot(snapshot, controller_.snapshot().era == inflight::GcEra::graph);
    scene_->setSelectedSocket(controller_.selectedSocket());
    if (presenting_ || view_->followsGraph()) {
        // The view may be closer than the whole graph (the label floor): keep the socket the
        // step is about in it.
        const inflight::Event *e = controller_.currentEvent();
        if (e && e->a < snapshot->nodes.size())
            if (NodeItem *item = scene_->itemShowing(e->a))
                view_->keepInView(item);
    }
    last_refresh_ms_ = took.elapsed();
}

void GraphPanel::setPresentation(bool on, double min_label_pixels)
{
    presenting_ = on;
    legend_->setCompact(on);
    view_->setMinimumLabelPixels(on ? min_label_pixels : 0);
}

void GraphPanel::onSceneLoaded()
{
    // The colours and the legend's words are the running collector's.
    Theme::instance().setGraphEra(controller_.hasScene() && controller_.era() == inflight::GcEra::graph);
    scene_->clearGraph();
    // The worker replays the run once (time-boxed) so every socket gets its place before it
    // exists; until then the scene waits with its first layout.
    if (controller_.hasScene()) {
        const inflight::SimulationOptions options = controller_.simulationOptions();
        scene_->planRun(std::make_shared<const inflight::Scene>(controller_.scene()), options);
    }
    last_match_.reset();
    status_->clear();
    view_->setFollowsGraph(true);
    last_refresh_ms_ = 0;
    refresh();
}

void GraphPanel::onSelectionChanged() { scene_->setSelectedSocket(controller_.selectedSocket()); }

void GraphPanel::fitAll() { view_->showEverything(); }

void GraphPanel::tidyLayout()
{
    scene_->tidy();
    view_->setFollowsGraph(true);
}

bool GraphPanel::findNext(const QString &text)
{
    const QString needle = text.trimmed();
    if (needle.isEmpty())
        return false;
    std::vector<std::uint32_t> matches;
    const inflight::GraphSnapshot &snapshot = scene_->snapshot();
    for (const auto &n : snapshot.nodes)
        if (QString::fromUtf8(snapshot.label_of(n)).contains(needle, Qt::CaseInsensitive))
            matches.push_back(n.sock);
    if (matches.empty()) {
        status_->setText(tr("no socket matches"));
        return false;
    }
    std::sort(matches.begin(), matches.end());
    const std::optional<std::uint32_t> after = last_match_ ? last_match_ : controller_.selectedSocket();
    auto it = after ? std::upper_bound(matches.begin(), matches.end(), *after) : matches.begin();
    if (it == matches.end())
        it = matches.begin(); // wrap around
    const std::uint32_t sock = *it;
    last_match_ = sock;
    status_->setText(tr("%1 of %2").arg(it - matches.begin() + 1).arg(matches.size()));
    const bool expanded = scene_->expandToShow(sock);
    controller_.selectSocket(sock);
    scene_->setSelectedSocket(sock);
    if (expanded)
        centreWhenShown(sock);
    else
        view_->centerOnItem(scene_->itemShowing(sock));
    return true;
}

void GraphPanel::centreWhenShown(std::uint32_t sock)
{
    // The socket was inside an aggregate: centre it once the layout has placed it.
    auto *conn = new QMetaObject::Connection;
    *conn = connect(scene_, &GraphScene::layoutApplied, this, [this, sock, conn] {
        disconnect(*conn);
        delete conn;
        scene_->finishAnimations();
        view_->centerOnItem(scene_->itemShowing(sock));
    });
}

bool GraphPanel::exportPng(const QString &path, QString *error, const graph_export::Captions &captions, double scale)
{
    return graph_export::writePng(*scene_, path, scale, error, captions);
}
bool GraphPanel::exportSvg(const QString &path, QString *error, const graph_export::Captions &captions)
{
    return graph_export::writeSvg(*scene_, path, error, captions);
}
bool GraphPanel::exportDot(const QString &path, QString *error) { return graph_export::writeDot(*scene_, path, error); }

bool GraphPanel::waitForLayout(int ms)
{
    if (deferred_->isActive())
        refresh(); // the step the controller is at, not the last one drawn
    QElapsedTimer timer;
    timer.start();
    while (scene_->layoutPending()) {
        const int left = ms - static_cast<int>(timer.elapsed());
        if (left <= 0)
            return false;
        QEventLoop loop;
        QTimer::singleShot(left, &loop, &QEventLoop::quit);
        connect(scene_, &GraphScene::layoutApplied, &loop, &QEventLoop::quit);
        connect(scene_, &GraphScene::planReady, &loop, &QEventLoop::quit);
        loop.exec();
    }
    scene_->finishAnimations();
    return true;
}
