// SPDX-License-Identifier: GPL-3.0-or-later
#include "player_controller.h"
#include "background_job.h"

#include "inflight/report.hpp"

#include "inflight/event_breakpoints.hpp"
#include "inflight/graph_snapshot.hpp"
#include "inflight/kernel_queries.hpp"
#include "inflight/narrate.hpp"
#include "inflight/parser.hpp"
#include "inflight/simulation.hpp"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QMetaObject>
#include <QPointer>
#include <QThreadPool>

#include <algorithm>
#include <limits>

using namespace inflight;

namespace {

QStringList messages_of(const std::vector<Diagnostic> &diagnostics)
{
    QStringList out;
    for (const auto &d : diagnostics)
        out << QString::fromStdString(d.format());
    return out;
}

// A state of hundreds of MB (a player lent to a seek, a retired Simulation) is not freed
// between two frames: the last reference goes on a pool thread.
template <typename T>
void free_off_thread(std::shared_ptr<T> last)
{
    background::start([last = std::move(last)]() mutable { last.reset(); });
}

// The run being replaced owns a Simulation per checkpoint, its finished run and the player's
// own: hundreds of MB for a large scene, whose freeing took tens of ms between two frames. It
// is freed on a pool thread; a job still holding the checkpoint store keeps that until it ends.
// Its pages go back at the next idle trim, which `trim` is told of once they are free: not at
// once, since malloc_trim() holds each arena while it walks it, the GUI thread's included,
// and a new run has just started, so the user is not idle.
void release_off_thread(std::unique_ptr<Player> &player, std::shared_ptr<CheckpointStore> &checkpoints,
                        std::shared_ptr<const FinishedRun> &end_of_run, RecordedEvents &index, IdleHeapTrim *trim)
{
    struct OldRun {
        std::unique_ptr<Player> player;
        std::shared_ptr<CheckpointStore> checkpoints;
        std::shared_ptr<const FinishedRun> end_of_run;
        RecordedEvents index;
    };
    auto old = std::make_shared<OldRun>(
        OldRun{std::move(player), std::move(checkpoints), std::move(end_of_run), std::move(index)});
    index = {};
    background::start([old, trim = QPointer<IdleHeapTrim>(trim)]() mutable {
        old.reset();
        QMetaObject::invokeMethod(trim.data(), &IdleHeapTrim::poke, Qt::QueuedConnection);
    });
}

constexpr int kTickMs = 16;           // playback timer: one tick a frame
constexpr qint64 kSliceBudgetMs = 40; // continue-to-breakpoint works in slices this long

} // namespace

PlayerController::PlayerController(QObject *parent) : QObject(parent), snapshot_(std::make_shared<const StepSnapshot>())
{
    // Connected before any view can connect: the values are current when a view's slot runs.
    connect(this, &PlayerController::sceneLoaded, this, [this] { takeSnapshot(true); });
    connect(this, &PlayerController::positionChanged, this, [this] { takeSnapshot(false); });
    connect(this, &PlayerController::selectionChanged, this, [this] { detail_generation_ = 0; });
    // Large states are freed on every move of a large scene; their pages go back once idle.
    for (auto signal :
         {&PlayerController::positionChanged, &PlayerController::sceneLoaded, &PlayerController::indexReadyChanged})
        connect(this, signal, &heap_trim_, &IdleHeapTrim::poke);
    timer_.setInterval(kTickMs);
    connect(&timer_, &QTimer::timeout, this, &PlayerController::onTick);
}

PlayerController::~PlayerController()
{
    // Background jobs give up at their next statement end: quitting waits for that, not for
    // the end of a replay.
    if (index_cancel_)
        index_cancel_->store(true);
    if (seek_cancel_)
        seek_cancel_->store(true);
    if (rerun_cancel_)
        rerun_cancel_->store(true);
    background::pool().waitForDone();
}

const Kernel &PlayerController::kernel() const { return player_->sim().kernel(); }

void PlayerController::takeSnapshot(bool new_run)
{
    if (isStateLent())
        return; // the values of the state on screen stay until the seek lands
    ++generation_;
    if (!player_) {
        snapshot_ = std::make_shared<const StepSnapshot>();
        return;
    }
    // The labels and leaked marks of the snapshot before are shared when unchanged, but only
    // within one run: a socket id of another run may carry another label.
    snapshot_ =
        std::make_shared<const StepSnapshot>(snapshot_step(player_->sim(), new_run ? nullptr : snapshot_.get()));
}

std::shared_ptr<const GraphSnapshot> PlayerController::graphSnapshot() const
{
    if (!player_)
        // Lent: the graph of the state on screen if it was taken, never an older one (the graph
        // panel waits for the seek to land instead).
        return lent_ && graph_snapshot_ && graph_generation_ == generation_ ? graph_snapshot_
                                                                            : std::make_shared<const GraphSnapshot>();
    if (!graph_snapshot_ || graph_generation_ != generation_) {
        graph_snapshot_ = std::make_shared<const GraphSnapshot>(snapshot_graph(kernel()));
        graph_generation_ = generation_;
    }
    return graph_snapshot_;
}

const SocketDetail *PlayerController::selectedDetail() const
{
    if (!selected_ || (!player_ && !lent_))
        return nullptr;
    if (detail_generation_ != generation_) {
        if (!player_)
            return nullptr; // lent, and the selection changed since: known when the seek lands
        detail_ = socket_detail(kernel(), *selected_);
        detail_generation_ = generation_;
    }
    return detail_ ? &*detail_ : nullptr;
}

std::optional<std::uint32_t> PlayerController::findSocket(const QString &label) const
{
    const QString t = label.trimmed();
    if (!player_ || t.isEmpty())
        return std::nullopt;
    return socket_labelled(kernel(), t.toStdString());
}

QString PlayerController::narration() const
{
    const Event *e = currentEvent();
    if (!e)
        return {};
    if (narration_generation_ != generation_) {
        if (!player_)
            return {}; // lent (see currentEvent())
        narration_ = QString::fromStdString(narrate(*e, kernel(), &player_->sim().scene()));
        narration_generation_ = generation_;
    }
    return narration_;
}

const AbstractNamespace *PlayerController::abstractNamespace() const
{
    return player_ ? &abstract_namespace(kernel()) : nullptr;
}

const Event *PlayerController::currentEvent() const
{
    if (player_)
        return player_->sim().last_event();
    return lent_ && lent_->event ? &*lent_->event : nullptr;
}

bool PlayerController::atEnd() const
{
    if (player_)
        return player_->at_end();
    return !lent_ || lent_->at_end;
}

std::uint64_t PlayerController::statementsShown() const
{
    if (player_)
        return player_->sim().statements_executed();
    return lent_ ? lent_->statements : 0;
}

bool PlayerController::openFile(const QString &path, QStringList *errors)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (errors)
            *errors = QStringList{path + QStringLiteral(": error: cannot open scene file: ") + f.errorString()};
        return false;
    }
    const QByteArray text = f.readAll();
    ParseResult r =
        parse_scene(std::string_view(text.constData(), static_cast<std::size_t>(text.size())), path.toStdString());
    if (errors)
        *errors = messages_of(r.diagnostics);
    if (!r.ok())
        return false;
    era_ = r.scene.settings.gc;
    kernel_ = nullptr;
    reset(std::make_shared<const Scene>(std::move(r.scene)), QFileInfo(path).absoluteFilePath());
    return true;
}

bool PlayerController::openText(const QString &text, const QString &name, QStringList *errors)
{
    const QByteArray utf8 = text.toUtf8();
    ParseResult r =
        parse_scene(std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size())), name.toStdString());
    if (errors)
        *errors = messages_of(r.diagnostics);
    if (!r.ok())
        return false;
    era_ = r.scene.settings.gc;
    kernel_ = nullptr;
    reset(std::make_shared<const Scene>(std::move(r.scene)), QString());
    return true;
}

void PlayerController::openParsed(std::shared_ptr<const Scene> scene, const QString &path)
{
    era_ = scene->settings.gc;
    kernel_ = nullptr;
    reset(std::move(scene), path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath());
}

void PlayerController::rerunKeepingPlace(std::shared_ptr<const Scene> scene)
{
    if (!scene_) {
        openParsed(std::move(scene), path_);
        return;
    }
    // Where the view is: the statement being run (its ordinal) and how far into it.
    const std::uint64_t position = this->position();
    const std::uint64_t statement = statementsShown();
    std::uint64_t offset = 0;
    for (std::size_t row = index_.first_at_or_after(position + 1); row-- > 0;) {
        const Event e = index_[row];
        if (e.kind == EventKind::stmt_begin) {
            offset = position - e.step;
            break;
        }
    }
    GcEra era = era_;
    const KernelProfile *kernel = kernel_;
    if (scene->settings.gc != base_scene_->settings.gc || scene->settings.kernel != base_scene_->settings.kernel) {
        era = scene->settings.gc; // the text now says another collector: it wins over the box
        kernel = nullptr;
    }
    cancelRerun(); // a newer edit supersedes the re-run of an older one
    if (position <= kInlineRerunSteps) {
        emit aboutToRerun();
        era_ = era;
        kernel_ = kernel;
        base_scene_ = scene;
        variant_ = -1;
        rerun_ = true;
        reset(std::move(scene), path_, false);
        rerun_ = false;
        // Bounded: an edit that made the way there much longer must not freeze the window.
        std::uint64_t budget = kInlineSteps;
        while (player_->sim().statements_executed() < statement && budget-- && player_->step_into()) { }
        // At that statement's start (its stmt_begin): then as many micro-steps into it as before.
        if (player_->sim().statements_executed() >= statement)
            while (offset > 0 && budget > 0 && player_->step_into()) {
                --offset;
                --budget;
            }
        if (position > 0)
            emit positionChanged();
        return;
    }
    // A long way to the place: replayed on a pool thread, the old run staying on screen (and
    // usable) until the new one is there.
    SimulationOptions o = simulationOptions();
    o.era = era;
    o.kernel = kernel;
    auto store = std::make_shared<CheckpointStore>();
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    rerun_cancel_ = cancel;
    emit rerunPendingChanged(true);
    emit rerunProgress(0, statement);
    QPointer<PlayerController> self(this);
    background::start([self, cancel, scene, o, store, statement, offset, era, kernel]() mutable {
        auto p = std::make_unique<Player>(scene, o, store);
        QElapsedTimer since_report;
        since_report.start();
        while (p->sim().statements_executed() < statement && p->step_into()) {
            if (p->sim().last_event()->kind != EventKind::stmt_end)
                continue;
            if (cancel->load(std::memory_order_relaxed))
                return;
            if (since_report.elapsed() >= 100) {
                since_report.restart();
                const quint64 done = p->sim().statements_executed();
                QMetaObject::invokeMethod(
                    self.data(),
                    [self, cancel, done, statement] {
                        if (self && self->rerun_cancel_ == cancel)
                            emit self->rerunProgress(done, statement);
                    },
                    Qt::QueuedConnection);
            }
        }
        if (p->sim().statements_executed() >= statement)
            while (offset > 0 && p->step_into())
                --offset;
        std::shared_ptr<Player> ready(std::move(p));
        QMetaObject::invokeMethod(
            self.data(),
            [self, cancel, scene, era, kernel, store, ready]() {
                if (!self || cancel->load() || self->rerun_cancel_ != cancel)
                    return;
                self->rerun_cancel_.reset();
                emit self->aboutToRerun();
                self->era_ = era;
                self->kernel_ = kernel;
                self->base_scene_ = scene;
                self->variant_ = -1;
                self->rerun_ = true;
                self->reset(scene, self->path_, false, std::make_unique<Player>(std::move(*ready)), store);
                self->rerun_ = false;
                emit self->rerunPendingChanged(false);
            },
            Qt::QueuedConnection);
    });
}

void PlayerController::cancelRerun()
{
    if (!rerun_cancel_)
        return;
    rerun_cancel_->store(true);
    rerun_cancel_.reset();
    emit rerunPendingChanged(false);
}

bool PlayerController::runToLine(int line)
{
    if (!player_)
        return false;
    if (line <= 0)
        return false;
    const auto l = static_cast<std::uint32_t>(line);
    std::optional<std::uint64_t> to = run_index_->next_start_of_line(l, player_->position());
    if (!to)
        to = run_index_->first_start_of_line(l);
    if (!to)
        return false;
    seek(*to);
    return true;
}

int PlayerController::nextStatementLine() const
{
    const std::optional<StatementStart> next = run_index_->next_statement(position());
    return next ? static_cast<int>(next->scene_line) : 0;
}

bool PlayerController::fastForwardsByDefault(const Scene &scene)
{
    const std::uint64_t n = unrolled_statements(scene.statements);
    return n > kStepIntoLimit || (scene.settings.cpus > 1 && n > 10'000);
}

SimulationOptions PlayerController::simulationOptions() const
{
    SimulationOptions o;
    o.era = era_;
    o.kernel = kernel_;
    o.fast_forward = fast_forward_;
    o.cost_overrides = cost_overrides_;
    return o;
}

void PlayerController::setStepsIntoCollections(bool on)
{
    if (on == !fast_forward_)
        return;
    fast_forward_ = !on;
    if (scene_)
        reset(scene_, path_, false);
}

void PlayerController::setCostOverrides(std::vector<std::pair<Cost, std::uint64_t>> overrides)
{
    cost_overrides_ = std::move(overrides);
    if (scene_)
        reset(scene_, path_, false);
}

void PlayerController::cancelSeek()
{
    // A seek of the old run must not install its player over the new one.
    if (seek_cancel_)
        seek_cancel_->store(true);
    seek_cancel_.reset();
    dropLent(); // its caller installs another player
    if (busy_) {
        busy_ = false;
        emit busyChanged(false);
    }
}

void PlayerController::setVariant(int index)
{
    if (!base_scene_ || index == variant_ || index < -1 || index >= static_cast<int>(base_scene_->variants.size()))
        return;
    variant_ = index;
    // The same statements under the variant's settings (its collector included).
    auto scene = std::make_shared<Scene>(*base_scene_);
    if (index >= 0)
        scene->settings = base_scene_->variants[static_cast<std::size_t>(index)].settings;
    era_ = scene->settings.gc;
    reset(std::move(scene), path_, false);
}

void PlayerController::reset(std::shared_ptr<const Scene> scene, const QString &path, bool new_scene,
                             std::unique_ptr<Player> ready, std::shared_ptr<CheckpointStore> store)
{
    pause();
    cancelSeek();
    cancelRerun(); // another scene, or other options: the pending re-run is of the old ones
    if (new_scene) {
        base_scene_ = scene;
        variant_ = -1;
    }
    scene_ = std::move(scene);
    path_ = path;
    release_off_thread(player_, checkpoints_, end_of_run_, index_, &heap_trim_);
    // A scene of tens of thousands of statements (the seed scenes: 32,000 sockets in flight, a
    // million autobinds) is fast-forwarded through its collections by default.
    if (new_scene)
        fast_forward_ = fastForwardsByDefault(*scene_);
    if (ready) {
        checkpoints_ = std::move(store);
        player_ = std::move(ready);
    } else {
        checkpoints_ = std::make_shared<CheckpointStore>();
        player_ = std::make_unique<Player>(scene_, simulationOptions(), checkpoints_);
    }
    selected_.reset();
    startIndex();
    emit sceneLoaded();
    emit positionChanged();
}

void PlayerController::setEra(GcEra era)
{
    if (!scene_ || (era == era_ && !kernel_))
        return;
    era_ = era;
    kernel_ = nullptr;
    rerunUnderCollector();
}

void PlayerController::setKernel(const KernelProfile *profile)
{
    if (!scene_ || (profile && profile == &kernelProfile()) || (!profile && !kernel_))
        return;
    kernel_ = profile;
    era_ = profile ? profile->era : scene_->settings.gc;
    rerunUnderCollector();
}

const KernelProfile &PlayerController::kernelProfile() const
{
    static const SceneSettings none;
    return run_profile(scene_ ? scene_->settings : none, simulationOptions());
}

void PlayerController::rerunUnderCollector()
{
    // Keep the statement: go back to the start of the one being executed, under the new era.
    const std::uint64_t statement = statementsShown();
    const std::uint64_t old_position = position();
    pause();
    cancelSeek();
    cancelRerun();
    checkpoints_ = std::make_shared<CheckpointStore>();
    player_ = std::make_unique<Player>(scene_, simulationOptions(), checkpoints_);
    startIndex();
    emit sceneLoaded();
    emit positionChanged();
    if (statement == 0)
        return;
    // The way to that statement under the new collector is a replay: inline when the old run
    // got there in few steps (the new one is about as long), else on a pool thread, with the
    // new run's step 0 on screen (and usable) meanwhile.
    if (old_position <= kInlineSteps) {
        while (player_->sim().statements_executed() < statement && player_->step_into()) { }
        emit positionChanged();
        return;
    }
    auto scene = scene_;
    auto store = checkpoints_;
    const SimulationOptions o = simulationOptions();
    runInBackground([scene, store, o, statement](const std::atomic<bool> &cancel) -> std::unique_ptr<Player> {
        auto p = std::make_unique<Player>(scene, o, store);
        while (p->sim().statements_executed() < statement && p->step_into())
            if (p->sim().last_event()->kind == EventKind::stmt_end && cancel.load(std::memory_order_relaxed))
                return nullptr;
        return p;
    });
}

void PlayerController::startIndex()
{
    // The whole run, recorded once on a pool thread: the timeline, the event log and the
    // breakpoint ticks read it. A fresh Simulation shares only the immutable scene.
    if (index_cancel_)
        index_cancel_->store(true);
    index_cancel_ = std::make_shared<std::atomic<bool>>(false);
    index_ready_ = false;
    index_.clear();
    landmarks_ = std::make_shared<const RunLandmarks>();
    run_index_ = std::make_shared<const RunIndex>();
    latency_run_ = std::make_shared<const latency::LatencyRun>();
    end_of_run_.reset();
    emit indexReadyChanged();
    auto cancel = index_cancel_;
    auto scene = scene_;
    auto store = checkpoints_;
    SimulationOptions o = simulationOptions();
    o.record = false;
    const GcEra era = era_;
    QPointer<PlayerController> self(this);
    background::start([self, cancel, scene, o, store, era]() {
        auto sim = std::make_unique<Simulation>(scene, o);
        // Packed (RecordedEvents): the million-bind scene's 3.5 million events took 225 MB as
        // plain Events.
        auto events = std::make_shared<RecordedEvents>();
        bool complete = true;
        std::uint64_t next_report = 1u << 20;
        std::vector<bool> waiting; // by task: a gc_wait whose end the timeline still needs
        while (const Event *e = sim->step()) {
            if (e->kind == EventKind::stmt_end) {
                // A statement is the unit of cancelling (a reload or quit waits at most one)
                // and the place where the recorder leaves checkpoints for the player.
                if (cancel->load(std::memory_order_relaxed))
                    return;
                store->offer(*sim);
            }
            if (events->size() < kIndexCap) {
                events->push_back(*e);
            } else {
                complete = false;
                // Past the cap only the landmarks the timeline and the event log need. A
                // statement's end only when it failed (a warning tick) or ends a wait marker.
                if (e->kind == EventKind::gc_wait || e->kind == EventKind::wait_end) {
                    if (waiting.size() <= e->task)
                        waiting.resize(e->task + 1u, false);
                    waiting[e->task] = e->kind == EventKind::gc_wait;
                }
                if (e->kind == EventKind::stmt_end) {
                    const bool ends_wait = e->task < waiting.size() && waiting[e->task];
                    if (e->before != 0 || ends_wait)
                        events->push_back(*e);
                    if (ends_wait)
                        waiting[e->task] = false;
                    continue;
                }
                switch (e->kind) {
                case EventKind::stmt_begin:
                case EventKind::gc_begin:
                case EventKind::gc_end:
                case EventKind::finding:
                case EventKind::warning:
                case EventKind::gc_wait: // the timeline's wait markers
                case EventKind::wait_end: events->push_back(*e); break;
                default: break;
                }
            }
            if (e->step >= next_report) {
                next_report += 1u << 20;
                if (cancel->load())
                    return;
                const quint64 steps = e->step, statements = sim->statements_executed();
                QMetaObject::invokeMethod(
                    self.data(),
                    [self, cancel, steps, statements] {
                        if (self && !cancel->load())
                            emit self->indexProgress(steps, statements);
                    },
                    Qt::QueuedConnection);
            }
        }
        if (cancel->load() || !self)
            return;
        // The end of the run and the last quiescent point before it, where End lands and
        // stepping back starts (the recorder's own checkpoints thin out towards the end).
        checkpoint_tail(*sim, *store, *cancel);
        if (cancel->load() || !self)
            return;
        events->shrink_to_fit();
        const std::uint64_t total = sim->steps();
        // The views' marks, found here: walks over 640,000 packed events, ~10 ms each, that
        // the GUI thread spent as the index landed.
        auto marks = std::make_shared<const RunLandmarks>(run_landmarks(*events, total, era, *scene));
        auto navigation = std::make_shared<const RunIndex>(*events, era, finding_steps(*sim));
        // The latency panel's samples, and the task and user names its groups are called by.
        auto timed = std::make_shared<const latency::LatencyRun>(
            latency::LatencyRun{sim->take_latencies(), sim->tasks(), user_names(sim->kernel())});
        // Of the finished run, only what names its objects (the state goes, here, off the GUI
        // thread): it stays as endOfRun().
        auto finished = std::make_shared<const FinishedRun>(FinishedRun::of(*sim));
        sim.reset();
        QMetaObject::invokeMethod(
            self.data(),
            [self, cancel, events, complete, total, timed, finished, marks, navigation]() {
                if (!self || cancel->load())
                    return;
                self->latency_run_ = timed;
                self->index_ = std::move(*events);
                self->index_complete_ = complete;
                self->total_steps_ = total;
                self->landmarks_ = marks;
                self->run_index_ = navigation;
                self->end_of_run_ = finished;
                self->index_ready_ = true;
                emit self->indexReadyChanged();
            },
            Qt::QueuedConnection);
    });
}

std::string PlayerController::traceJson() const
{
    if (!index_ready_ || !end_of_run_)
        return {};
    // The current position's kernel has not yet created the sockets of later steps.
    return trace_json(index_, end_of_run_->names, scene_->title, scene_.get());
}

std::uint64_t PlayerController::firstStepOfLine(int line) const
{
    if (line <= 0)
        return 0;
    return run_index_->first_start_of_line(static_cast<std::uint32_t>(line)).value_or(0);
}

void PlayerController::selectSocket(std::optional<std::uint32_t> sock)
{
    if (sock == selected_)
        return;
    selected_ = sock;
    emit selectionChanged();
}

void PlayerController::toggleLineBreakpoint(int line)
{
    if (!line_breakpoints_.remove(line))
        line_breakpoints_.insert(line);
    emit lineBreakpointsChanged();
}

bool PlayerController::addWatch(const QString &expr, QString *error)
{
    WatchError err;
    std::optional<Watch> w = Watch::parse(expr.toStdString(), &err);
    if (!w) {
        if (error)
            *error = QString::fromStdString(err.format());
        return false;
    }
    watches_.emplace_back(std::move(*w));
    if (player_)
        watches_.back().reset(kernel());
    emit watchesChanged();
    return true;
}

void PlayerController::removeWatch(int index)
{
    if (index < 0 || index >= watchCount())
        return;
    watches_.erase(watches_.begin() + index);
    emit watchesChanged();
}

QString PlayerController::watchText(int index) const
{
    if (index < 0 || index >= watchCount())
        return {};
    return QString::fromStdString(watches_[static_cast<std::size_t>(index)].watch().text());
}

QString PlayerController::watchValue(int index) const
{
    if (index < 0 || index >= watchCount() || !player_)
        return {};
    return QString::fromStdString(watches_[static_cast<std::size_t>(index)].current(kernel()));
}

void PlayerController::primeWatches()
{
    if (!player_)
        return;
    for (Watchpoint &w : watches_)
        w.reset(kernel());
}

bool PlayerController::breaksAt(const Event &e, QString *why) const
{
    auto say = [&](const QString &s) {
        if (why)
            *why = s;
        return true;
    };
    // Every watch moves on to this state, whichever breakpoint then reports the stop.
    QString fired;
    if (player_)
        for (std::size_t i = 0; i < watches_.size(); ++i)
            if (auto c = watches_[i].check(kernel()); c && fired.isEmpty())
                fired = tr("watch %1 (%2): %3 -> %4")
                            .arg(i + 1)
                            .arg(QString::fromStdString(watches_[i].watch().text()), QString::fromStdString(c->before),
                                 QString::fromStdString(c->after));
    if (e.kind == EventKind::stmt_begin && line_breakpoints_.contains(static_cast<int>(e.scene_line)))
        return say(tr("breakpoint at line %1").arg(e.scene_line));
    if (!player_)
        return false;
    // The engine decides (it knows each era's events); the menu's fields are translated here.
    const EventBreakpoints &b = event_breakpoints_;
    // continueToBreakpoint() asks on every step: the labels are converted only when they change.
    EventBreakpointSet &set = engine_breaks_;
    set.collection_starts = b.collection_starts;
    set.hitlist_non_empty = b.hitlist_non_empty;
    set.invariant_violated = b.invariant_violated;
    set.statement_fails = b.statement_fails;
    if (b.becomes_candidate != candidate_label_)
        set.becomes_candidate = (candidate_label_ = b.becomes_candidate).toStdString();
    if (b.found_garbage != garbage_label_)
        set.found_garbage = (garbage_label_ = b.found_garbage).toStdString();
    switch (set.check(e, kernel())) {
    case EventBreak::none: break;
    case EventBreak::collection_starts: return say(tr("a collection starts"));
    case EventBreak::hitlist_non_empty: return say(tr("the hitlist is no longer empty"));
    case EventBreak::invariant_violated: return say(tr("an invariant was violated"));
    case EventBreak::statement_fails: return say(tr("a statement failed"));
    case EventBreak::becomes_candidate: return say(tr("%1 becomes a candidate").arg(b.becomes_candidate));
    case EventBreak::found_garbage: return say(tr("%1 is found garbage").arg(b.found_garbage));
    }
    if (!fired.isEmpty())
        return say(fired);
    return false;
}

void PlayerController::moved() { emit positionChanged(); }

void PlayerController::first()
{
    if (!player_) {
        if (lent_)
            seek(0); // supersedes the seek under way
        return;
    }
    player_->seek(0);
    moved();
}

void PlayerController::nextNote()
{
    if (!player_ || !index_ready_)
        return;
    if (const std::optional<std::uint64_t> note = run_index_->next_note(player_->position()))
        seek(*note);
}

void PlayerController::previousNote()
{
    if (!player_ || !index_ready_)
        return;
    seek(run_index_->previous_note(player_->position()).value_or(0));
}

void PlayerController::nextBeat()
{
    if (!player_)
        return;
    if (!index_ready_) {
        stepOver();
        return;
    }
    if (const std::optional<Beat> beat = run_index_->next_beat(player_->position()))
        seek(beat->step);
    else
        last();
}

void PlayerController::previousBeat()
{
    if (!player_ || player_->position() == 0)
        return;
    if (!index_ready_) {
        backStatement();
        return;
    }
    const std::optional<Beat> beat = run_index_->previous_beat(player_->position());
    seek(beat ? beat->step : 0);
}

void PlayerController::goToBeat(int n)
{
    if (!player_ || !index_ready_)
        return;
    const std::vector<Beat> &beats = run_index_->beats();
    if (n <= 0 || beats.empty()) {
        seek(0);
        return;
    }
    seek(beats[static_cast<std::size_t>(std::min<std::size_t>(static_cast<std::size_t>(n), beats.size()) - 1)].step);
}

void PlayerController::setLineBreakpoints(const QSet<int> &lines)
{
    if (lines == line_breakpoints_)
        return;
    line_breakpoints_ = lines;
    emit lineBreakpointsChanged();
}

void PlayerController::back()
{
    if ((!player_ && !lent_) || position() == 0)
        return;
    const std::uint64_t here = position();
    if (!fast_forward_) {
        seek(here - 1);
        return;
    }
    // Fast-forwarded, the run stops only at the steps it shows: the index knows the one
    // before here (past its cap only landmarks, which is where such a run can stop anyway).
    if (index_ready_) {
        const std::size_t row = index_.first_at_or_after(here);
        seek(row == 0 ? 0 : index_[row - 1].step);
        return;
    }
    if (!player_)
        return;      // lent: the step before needs the state (or the index)
    player_->back(); // finds it by stepping from the checkpoint before here
    moved();
}

void PlayerController::backStatement()
{
    if (!player_ || player_->position() == 0)
        return;
    if (!index_ready_) {
        player_->back_statement();
        moved();
        return;
    }
    // The index knows where every statement begins: the last one before here.
    const std::optional<StatementStart> start = run_index_->statement_before(player_->position());
    seek(start ? start->step - 1 : 0);
}

void PlayerController::stepInto()
{
    if (player_ && player_->step_into())
        moved();
}

void PlayerController::stepOver()
{
    if (player_ && player_->step_over())
        moved();
}

void PlayerController::stepOut()
{
    if (player_ && player_->step_out())
        moved();
}

void PlayerController::stepOutFunction()
{
    if (player_ && player_->step_out_function())
        moved();
}

void PlayerController::reverseStepOut()
{
    // gdb's reverse-finish: back to just before the collection in progress began; outside a
    // collection, back to the start of the statement.
    if (!player_)
        return;
    if (player_->sim().gc_in_progress() && index_ready_) {
        if (const std::optional<std::uint64_t> begin = run_index_->collection_start_before(player_->position())) {
            seek(*begin - 1);
            return;
        }
    }
    backStatement();
}

inflight::StopConditions PlayerController::stopConditions() const
{
    StopConditions stops;
    for (int line : line_breakpoints_)
        stops.lines.emplace_back(static_cast<std::uint32_t>(line));
    const EventBreakpoints &b = event_breakpoints_;
    stops.events.collection_starts = b.collection_starts;
    stops.events.hitlist_non_empty = b.hitlist_non_empty;
    stops.events.invariant_violated = b.invariant_violated;
    stops.events.statement_fails = b.statement_fails;
    stops.events.becomes_candidate = b.becomes_candidate.toStdString();
    stops.events.found_garbage = b.found_garbage.toStdString();
    for (const Watchpoint &w : watches_)
        stops.watches.emplace_back(w.watch());
    return stops;
}

void PlayerController::reverseContinue()
{
    // Back to the previous stop: the search replays the segments between checkpoints on a
    // pool thread; the player then seeks there (or to step 0 when nothing stops earlier).
    if (!player_ || player_->position() == 0)
        return;
    auto store = checkpoints_;
    const std::uint64_t here = player_->position();
    const StopConditions stops = stopConditions();
    const SimulationOptions o = simulationOptions();
    auto scene = scene_;
    auto why = std::make_shared<QString>();
    runInBackground(
        [scene, store, o, here, stops, why](const std::atomic<bool> &cancel) -> std::unique_ptr<Player> {
            const std::optional<StopHit> hit = find_previous(*store, here, stops, &cancel);
            if (cancel.load())
                return nullptr;
            auto p = std::make_unique<Player>(scene, o, store);
            if (!p->seek(hit ? hit->step : 0, &cancel))
                return nullptr;
            *why = hit ? QString::fromStdString(hit->why) : QString();
            return p;
        },
        [this, why] { emit breakpointHit(why->isEmpty() ? tr("no earlier stop: back at the start") : *why); });
}

void PlayerController::last()
{
    if (!player_) {
        if (lent_)
            seek(std::numeric_limits<std::uint64_t>::max()); // supersedes the seek under way
        return;
    }
    // Once the index knows the end, a long way there is one replay on a pool thread (seek())
    // rather than slices that repaint every view each 40 ms: the views of a million-socket
    // scene would take most of each slice.
    constexpr std::uint64_t kSeekInstead = 500'000;
    if (index_ready_ && total_steps_ > player_->position() + kSeekInstead) {
        // Past the last step, not onto it: only the step() that finds nothing left finishes
        // the run (its end-of-run checks included), which is what atEnd() reports.
        seek(std::numeric_limits<std::uint64_t>::max());
        return;
    }
    // In slices, like continueToBreakpoint(), so a run of millions of steps never freezes.
    QElapsedTimer clock;
    clock.start();
    while (player_->step_into())
        if (clock.elapsed() > kSliceBudgetMs) {
            moved();
            QTimer::singleShot(0, this, &PlayerController::last);
            return;
        }
    moved();
}

void PlayerController::seek(std::uint64_t step)
{
    if (!player_ && !lent_)
        return;
    // A seek costs the replay from the nearest checkpoint at or before the target (or from
    // here, going forward). Up to ~30 ms of replay runs inline, and a restore only of a small
    // state; longer ones run on a pool thread, on the player itself (runLentSeek()).
    if (player_ && !busy_) {
        const std::uint64_t here = player_->position();
        std::shared_ptr<const Simulation> c = checkpoints_->at_or_before(step);
        const bool restores = c && (step < here || c->steps() > here);
        const std::uint64_t from = restores ? c->steps() : (step >= here ? here : 0);
        if (step - from <= kInlineSteps && (!restores || state_bytes(player_->sim()) <= kInlineRestoreBytes)) {
            player_->seek(step);
            moved();
            return;
        }
    }
    runLentSeek(step);
}

std::shared_ptr<std::atomic<bool>> PlayerController::startJob()
{
    // A newer request supersedes one under way: the old job stops at its next statement end
    // and its result is dropped, so input is never queued behind a replay.
    if (seek_cancel_)
        seek_cancel_->store(true);
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    seek_cancel_ = cancel;
    pause();
    if (!busy_) {
        busy_ = true;
        emit busyChanged(true);
    }
    return cancel;
}

void PlayerController::dropLent()
{
    if (!lent_)
        return;
    // The seek working on it still holds it (and its lock) until its next statement end.
    free_off_thread(std::move(lent_)); // leaves lent_ empty
}

void PlayerController::runLentSeek(std::uint64_t step)
{
    if (lent_ && busy_ && lent_->target == step)
        return; // that seek is under way (a key held down repeats it)
    if (!lent_) {
        auto lent = std::make_shared<LentPlayer>();
        lent->position = player_->position();
        lent->statements = player_->sim().statements_executed();
        lent->at_end = player_->at_end();
        if (const Event *e = player_->sim().last_event())
            lent->event = *e;
        lent->player = std::move(player_);
        lent_ = std::move(lent);
        emit stateLent();
    }
    lent_->target = step;
    const auto cancel = startJob();
    auto lent = lent_;
    QPointer<PlayerController> self(this);
    background::start([self, lent, cancel, step]() {
        QString failed;
        {
            // A seek superseded by this one lets go at its next statement end.
            std::lock_guard hold(lent->lock);
            if (!lent->player || cancel->load())
                return;
            try {
                if (!lent->player->seek(step, cancel.get()))
                    return; // superseded
            } catch (const std::exception &e) {
                // The player is still there (a failed restore leaves it at step 0): it comes
                // back, and the user is told.
                failed = QString::fromUtf8(e.what());
            }
        }
        QMetaObject::invokeMethod(
            self.data(),
            [self, lent, cancel, failed]() mutable {
                if (!self || cancel->load() || self->seek_cancel_ != cancel || self->lent_ != lent) {
                    // Superseded: a newer seek works on the same player and brings it back. Or
                    // dropped (another run): then this may be the last reference to its state.
                    free_off_thread(std::move(lent));
                    return;
                }
                // Free: the job let go before it posted this, and no newer seek took it (the
                // cancel flag would say so).
                std::unique_lock hold(lent->lock);
                if (!lent->player)
                    return;
                self->busy_ = false;
                self->seek_cancel_.reset();
                self->player_ = std::move(lent->player);
                hold.unlock();
                self->lent_.reset();
                // The new position's values first: a view told the seek is over (the graph
                // panel draws what it owes then) reads them, not the ones it had.
                self->moved();
                emit self->busyChanged(false);
                if (!failed.isEmpty())
                    emit self->breakpointHit(tr("the seek failed (%1)").arg(failed));
            },
            Qt::QueuedConnection);
    });
}

void PlayerController::runInBackground(std::function<std::unique_ptr<Player>(const std::atomic<bool> &)> job,
                                       std::function<void()> after)
{
    const auto cancel = startJob();
    auto store = checkpoints_;
    QPointer<PlayerController> self(this);
    background::start([self, store, cancel, job = std::move(job), after = std::move(after)]() {
        std::shared_ptr<Player> player(job(*cancel));
        if (!player || cancel->load())
            return; // superseded, or quitting: a newer job reports
        QMetaObject::invokeMethod(
            self.data(),
            [self, player, store, cancel, after]() {
                if (!self || cancel->load() || self->seek_cancel_ != cancel)
                    return;
                self->busy_ = false;
                self->seek_cancel_.reset();
                if (self->checkpoints_ != store) // another run since (new scene or options)
                    return;
                // The state left behind is freed by the checkpoint store's thread, or a pool thread
                // when that one already has a state to free: never here.
                std::unique_ptr<Player> left =
                    std::exchange(self->player_, std::make_unique<Player>(std::move(*player)));
                self->dropLent(); // a seek's player, superseded by this job
                if (left)
                    if (std::unique_ptr<Simulation> refused = store->retire(left->release_sim()))
                        free_off_thread(std::shared_ptr<Simulation>(std::move(refused)));
                emit self->busyChanged(false);
                self->moved();
                if (after)
                    after();
            },
            Qt::QueuedConnection);
    });
}

void PlayerController::continueToBreakpoint()
{
    if (!player_)
        return;
    // Bounded slices keep the GUI responsive on runs of millions of steps.
    QElapsedTimer clock;
    clock.start();
    QString why;
    // Only a fresh continue steps off its stop unchecked; a later slice checks every step.
    bool first_step = !resume_slice_;
    resume_slice_ = false;
    primeWatches(); // a watch fires on what changes from here on
    while (!player_->at_end()) {
        if (!player_->step_into())
            break;
        const Event *e = player_->sim().last_event();
        // The first step leaves the stop we continue from; it still moves the watches on.
        const bool hit = e && breaksAt(*e, &why);
        if (!first_step && hit) {
            moved();
            emit breakpointHit(why);
            return;
        }
        first_step = false;
        if (clock.elapsed() > kSliceBudgetMs) {
            moved();
            resume_slice_ = true;
            QTimer::singleShot(0, this, &PlayerController::continueToBreakpoint);
            return;
        }
    }
    moved();
}

void PlayerController::play()
{
    if (!player_ || player_->at_end() || timer_.isActive())
        return;
    credit_ = 0;
    timer_.start();
    emit playingChanged(true);
}

void PlayerController::pause()
{
    if (!timer_.isActive())
        return;
    timer_.stop();
    emit playingChanged(false);
}

void PlayerController::setSpeed(double steps_per_second) { speed_ = std::clamp(steps_per_second, 0.25, 1e6); }

void PlayerController::onTick()
{
    credit_ += speed_ * kTickMs / 1000.0;
    primeWatches();
    bool any = false;
    QString why;
    while (credit_ >= 1.0) {
        credit_ -= 1.0;
        if (!player_->step_into()) {
            pause();
            break;
        }
        any = true;
        const Event *e = player_->sim().last_event();
        if (e && breaksAt(*e, &why)) {
            pause();
            moved();
            emit breakpointHit(why);
            return;
        }
    }
    if (any)
        moved();
    if (player_->at_end())
        pause();
}
