// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/graph_panel.h"

#include "finding_text.h"
#include "graph/collector_badge_item.h"
#include "graph/graph_export.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/legend_bar.h"
#include "graph/node_item.h"
#include "graph/process_item.h"
#include "graph/scc_hull_item.h"
#include "graph/socket_item.h"
#include "inflight/event.hpp"
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
#include <cmath>

GraphPanel::GraphPanel(PlayerController &controller, QWidget *parent)
    : QWidget(parent), controller_(controller), scene_(new GraphScene(this))
{
    view_ = new GraphView(scene_, this);
    applyLabelFloors();
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
    // The search and the buttons: a desk's tools (presentation mode has F and the keys).
    top_bar_ = new QWidget(this);
    auto *top = new QHBoxLayout(top_bar_);
    top->setContentsMargins(6, 4, 6, 4);
    top->addWidget(search_);
    top->addWidget(status_);
    top->addStretch(1);
    top->addWidget(tidy);
    top->addWidget(fit);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(top_bar_);
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
    // A layout places the sockets a step brought and re-arranges the graph to the pane's shape
    // (a panel taking the room under it): the subject is framed where it now is, not where it
    // was when the step was drawn.
    connect(scene_, &GraphScene::layoutApplied, this, [this] {
        if (!subject_.empty())
            frameSubject();
    });
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
        // Larger (or smaller) text scales the names on screen too: the zoom keeps them at their
        // size times the change, the camera framing the subject if the whole no longer fits.
        const double scale = Theme::instance().fontScale();
        if (font_scale_ > 0 && std::abs(scale / font_scale_ - 1) > 1e-6 && view_->followsGraph())
            text_label_pixels_ = view_->labelScreenPixels() * scale / font_scale_;
        font_scale_ = scale;
        applyLabelFloors();
        scene_->setBackgroundBrush(Theme::instance().background());
        scene_->restyle();
    });
    font_scale_ = Theme::instance().fontScale();
    aspect_timer_ = new QTimer(this);
    aspect_timer_->setSingleShot(true);
    aspect_timer_->setInterval(150);
    connect(aspect_timer_, &QTimer::timeout, this, [this] { scene_->setLayoutAspect(paneAspect()); });
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
    // Stepping by hand, a refresh longer than the 50 ms a GUI-thread stall may take (on the
    // largest scenes, snapshotting and grouping every socket takes longer) waits until the
    // moves stop: refreshed once per interval, it would run in the middle of a series of steps
    // back, and each step after it would wait for it, so the stalls add up.
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
    if (controller_.isSeeking()) {
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
    followSubject(*snapshot);
    last_refresh_ms_ = took.elapsed();
}

std::optional<std::pair<std::uint32_t, std::uint32_t>> GraphPanel::examinedEdge(const inflight::Event *e)
{
    // The edge a graph-walk step is about: descending it, backtracking over it, taking its
    // successor's scc_index, or the edge unix_vertex_dead() finds leaving the SCC.
    using inflight::EventKind;
    if (!e || (e->kind != EventKind::edge_push && e->kind != EventKind::edge_pop &&
               e->kind != EventKind::scc_index_update && e->kind != EventKind::vertex_dead))
        return std::nullopt;
    if (e->a == inflight::npos || e->b == inflight::npos)
        return std::nullopt;
    return std::make_pair(e->a, e->b);
}

void GraphPanel::followSubject(const inflight::GraphSnapshot &snapshot)
{
    // A step announcing a finding rings what it names; the camera frames the finding first.
    const QString story = controller_.currentEvent() ? controller_.narration() : QString();
    const QStringList findings = findingParagraphs(story);
    const QString finding_text = findings.join(QStringLiteral("\n\n"));
    const StepSubject marked = findings.isEmpty() ? StepSubject{} : subjectOfText(snapshot, finding_text, false);
    scene_->setFindingMarks(marked.sockets, marked.processes, finding_text);
    scene_->setExaminedEdge(examinedEdge(controller_.currentEvent()));
    legend_->setOnGraph(scene_->rolesDrawn(), marksOnGraph());
    StepSubject subject = marked.empty() ? subjectOfText(snapshot, withoutFindings(story)) : marked;
    // A step that names nothing keeps the last subject: the camera stays, unless the
    // collector's numbers or an SCC's verdict it put on the subject are not all in view.
    if (subject.empty() || subject == subject_) {
        if (!subject_.empty() && (!scene_->badgedSockets().empty() || !scene_->sccHulls().empty()))
            frameSubject();
        return;
    }
    subject_ = std::move(subject);
    frameSubject();
}

unsigned GraphPanel::marksOnGraph() const
{
    unsigned marks = 0;
    for (std::uint32_t sock : scene_->badgedSockets())
        if (const CollectorBadgeItem *badge = scene_->badgeOf(sock))
            marks |= badge->isWalkMark() ? LegendBar::walk_numbers : LegendBar::candidate_counts;
    if (!scene_->sccHulls().empty())
        marks |= LegendBar::scc_hull;
    if (examinedEdge(controller_.currentEvent()))
        marks |= LegendBar::examined_edge;
    if (scene_->scanCursorSocket() != inflight::npos)
        marks |= LegendBar::scan_cursor;
    return marks;
}

void GraphPanel::frameSubject()
{
    auto add = [](QRectF &rect, const NodeItem *item) {
        if (!item || !item->isVisible())
            return;
        // Where the layout puts it: a layout's move may still be under way (every drawn item
        // was placed by a layout, which set its target).
        QRectF box = item->sceneBox();
        // The walk's numbers over a vertex are part of what the lesson reads there.
        for (const QGraphicsItem *child : item->childItems())
            if (child->type() == CollectorBadgeItem::Type)
                box = box.united(child->sceneBoundingRect());
        if (const auto *top = dynamic_cast<const NodeItem *>(item->topLevelItem()))
            box.translate(top->target() - top->pos());
        rect = rect.isNull() ? box : rect.united(box);
    };
    QRectF named;
    for (std::uint32_t sock : subject_.sockets)
        add(named, scene_->itemShowing(sock));
    for (std::uint32_t process : subject_.processes)
        add(named, scene_->processItem(process));
    if (named.isNull())
        return;
    // The verdict of an SCC the step names is read on its hull's caption.
    for (const SccHullItem *hull : scene_->sccHulls())
        if (hull->isVisible() &&
            std::find(subject_.sockets.begin(), subject_.sockets.end(), hull->scc().root) != subject_.sockets.end())
            named = named.united(hull->captionRect());
    // The holders of what is named join it where both fit the view together.
    QRectF with_holders = named;
    for (std::uint32_t process : subject_.holders)
        add(with_holders, scene_->processItem(process));
    view_->frameSubject(view_->fitsWithMargin(with_holders) ? with_holders : named);
}

double GraphPanel::paneAspect() const
{
    const QSize size = view_->viewport()->size();
    return size.height() > 0 ? double(size.width()) / size.height() : 0;
}

void GraphPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    aspect_timer_->start();
    if (presenting_)
        applyLabelFloors();
}

void GraphPanel::applyLabelFloors()
{
    // At a desk a fit stops where socket names would fall under 10 px (a wide scene at 1280x800):
    // the overview map shows the rest, the camera follows the step, F shows everything.
    constexpr double kReadableLabelPixels = 10;
    const double scale = Theme::instance().fontScale();
    view_->setReadableLabelPixels(std::max(kReadableLabelPixels * scale, text_label_pixels_));
    // The presentation floor is for a 1280-pixel-wide projector; a smaller one (1024x768) is
    // seen from as far, but its whole picture is smaller: the floor shrinks with it, to 5/6.
    const double projector = std::clamp(window()->width() / 1280.0, 5.0 / 6.0, 1.0);
    view_->setMinimumLabelPixels(presenting_ ? std::max(presentation_label_pixels_ * projector, text_label_pixels_)
                                             : 0);
}

void GraphPanel::setPresentation(bool on, double min_label_pixels)
{
    if (on == presenting_)
        return;
    if (on) {
        camera_before_presenting_ = view_->camera();
        aspect_before_presenting_ = scene_->layoutAspect();
    }
    presenting_ = on;
    presentation_label_pixels_ = on ? min_label_pixels : 0;
    text_label_pixels_ = 0; // the theme's switch of text size is the mode's, not the user's
    legend_->setCompact(on);
    top_bar_->setVisible(!on);
    subject_ = {};
    // Back from presenting, the layout of before: the same shape (the pane is still the
    // projector's until the window is given back its rectangle).
    scene_->setLayoutAspect(on ? paneAspect() : aspect_before_presenting_);
    scene_->setCompact(on);
    applyLabelFloors();
    if (on) {
        disconnect(restore_camera_after_layout_); // a restore still waiting is for the window left
        view_->setFollowsGraph(true);
        return;
    }
    // The view as it was once the normal layout is in.
    const GraphView::Camera camera = camera_before_presenting_.value_or(GraphView::Camera{});
    camera_before_presenting_.reset();
    auto restore = [this, camera] {
        scene_->finishAnimations();
        view_->setCamera(camera);
    };
    if (!scene_->layoutPending()) {
        restore();
        return;
    }
    disconnect(restore_camera_after_layout_);
    restore_camera_after_layout_ = connect(scene_, &GraphScene::layoutApplied, this, [this, restore] {
        if (scene_->layoutPending())
            return; // a newer layout is on its way
        disconnect(restore_camera_after_layout_);
        restore();
    });
}

void GraphPanel::onSceneLoaded()
{
    // The colours and the legend's words are the running collector's.
    Theme::instance().setGraphEra(controller_.hasScene() && controller_.era() == inflight::GcEra::graph);
    scene_->clearGraph();
    // A background job replays the run once (time-boxed) so every socket gets its place before it
    // exists; until then the scene waits with its first layout.
    scene_->setLayoutAspect(paneAspect());
    if (controller_.hasScene()) {
        const inflight::SimulationOptions options = controller_.simulationOptions();
        scene_->planRun(std::make_shared<const inflight::Scene>(controller_.scene()), options);
    }
    last_match_.reset();
    status_->clear();
    view_->setFollowsGraph(true);
    subject_ = {};
    text_label_pixels_ = 0;
    applyLabelFloors();
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
