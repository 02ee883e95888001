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

// A state of hundreds of MB (a player a stale seek gave back, a retired Simulation) is not
// freed between two frames: the last reference goes on a pool thread.
template <typename T>
void free_off_thread(std::shared_ptr<T> last)
{
    background::start([last = std::move(last)]() mutable { last.reset(); });
}

// The run being replaced owns a Simulation per checkpoint, its finished run and the player's
// own: hundreds of MB for a large scene, whose freeing took tens of ms between two frames. It
// is freed on a pool thread; a job still holding the session keeps it until it ends. Its pages
// go back at the next idle trim, which `trim` is told of once they are free: not at once,
// since malloc_trim() holds each arena while it walks it, the GUI thread's included, and a new
// run has just started, so the user is not idle.
void release_off_thread(std::unique_ptr<Player> player, std::shared_ptr<RunSession> session, IdleHeapTrim *trim)
{
    struct OldRun {
        std::unique_ptr<Player> player;
        std::shared_ptr<RunSession> session;
    };
    auto old = std::make_shared<OldRun>(OldRun{std::move(player), std::move(session)});
    background::start([old, trim = QPointer<IdleHeapTrim>(trim)]() mutable {
        old.reset();
        QMetaObject::invokeMethod(trim.data(), &IdleHeapTrim::poke, Qt::QueuedConnection);
    });
}

constexpr int kTickMs = 16;           // playback timer: one tick a frame
constexpr qint64 kSliceBudgetMs = 40; // continue-to-breakpoint works in slices this long

// What a background seek gives back: the player it took, and why it failed if it did.
struct SeekResult {
    std::unique_ptr<Player> player;
    QString failed;
};

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
    continue_slices_.setSingleShot(true);
    continue_slices_.setInterval(0);
    connect(&continue_slices_, &QTimer::timeout, this, [this] { continueSlice(false); });
}

PlayerController::~PlayerController()
{
    // Background jobs give up at their next statement end: quitting waits for that, not for
    // the end of a replay.
    index_jobs_.cancel();
    navigation_jobs_.cancel();
    rerun_jobs_.cancel();
    background::pool().waitForDone();
}

const Kernel &PlayerController::kernel() const { return player_->sim().kernel(); }

const SessionIndex &PlayerController::index() const
{
    static const SessionIndex none;
    return session_ ? session_->index : none;
}

std::shared_ptr<RunSession> PlayerController::newSession(std::shared_ptr<const Scene> scene) const
{
    return std::make_shared<RunSession>(std::move(scene), simulationOptions(), false);
}

void PlayerController::takeSnapshot(bool new_run)
{
    if (!player_)
        return; // a seek has it: the values of the state on screen stay until it lands
    ++generation_;
    shown_.position = player_->position();
    shown_.statements = player_->sim().statements_executed();
    shown_.at_end = player_->at_end();
    const Event *e = player_->sim().last_event();
    shown_.event = e ? std::optional<Event>(*e) : std::nullopt;
    // The labels and leaked marks of the snapshot before are shared when unchanged, but only
    // within one run: a socket id of another run may carry another label.
    snapshot_ =
        std::make_shared<const StepSnapshot>(snapshot_step(player_->sim(), new_run ? nullptr : snapshot_.get()));
}

std::shared_ptr<const GraphSnapshot> PlayerController::graphSnapshot() const
{
    if (!player_)
        // A seek has the player: the graph of the state on screen if it was taken, never an
        // older one (the graph panel waits for the seek to land instead).
        return graph_snapshot_ && graph_generation_ == generation_ ? graph_snapshot_
                                                                   : std::make_shared<const GraphSnapshot>();
    if (!graph_snapshot_ || graph_generation_ != generation_) {
        graph_snapshot_ = std::make_shared<const GraphSnapshot>(snapshot_graph(kernel()));
        graph_generation_ = generation_;
    }
    return graph_snapshot_;
}

const SocketDetail *PlayerController::selectedDetail() const
{
    if (!selected_ || !session_)
        return nullptr;
    if (detail_generation_ != generation_) {
        if (!player_)
            return nullptr; // a seek has the player, and the selection changed since: known when it lands
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
            return {}; // a seek has the player (see currentEvent())
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
    return shown_.event ? &*shown_.event : nullptr;
}

bool PlayerController::atEnd() const { return player_ ? player_->at_end() : shown_.at_end; }

std::uint64_t PlayerController::statementsShown() const
{
    return player_ ? player_->sim().statements_executed() : shown_.statements;
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
    if (!session_) {
        openParsed(std::move(scene), path_);
        return;
    }
    // Where the view is: the statement being run (its ordinal) and how far into it.
    const std::uint64_t position = this->position();
    const std::uint64_t statement = statementsShown();
    std::uint64_t offset = 0;
    const RecordedEvents &events = timeline();
    for (std::size_t row = events.first_at_or_after(position + 1); row-- > 0;) {
        const Event e = events[row];
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
        auto session = std::make_shared<RunSession>(scene, simulationOptions(), true);
        auto player = std::make_unique<Player>(scene, session->options, session->checkpoints);
        reset(std::move(scene), path_, false, std::move(session), std::move(player));
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
    auto session = std::make_shared<RunSession>(scene, o, true);
    struct Replayed {
        std::unique_ptr<Player> player;
        std::shared_ptr<RunSession> session;
    };
    emit rerunPendingChanged(true);
    emit rerunProgress(0, statement);
    rerun_jobs_.start(
        [this, session, statement, offset](const JobControl &job) mutable {
            auto p = std::make_unique<Player>(session->scene, session->options, session->checkpoints);
            QElapsedTimer since_report;
            since_report.start();
            while (p->sim().statements_executed() < statement && p->step_into()) {
                if (p->sim().last_event()->kind != EventKind::stmt_end)
                    continue;
                if (job.cancelled())
                    return Replayed{std::move(p), std::move(session)};
                if (since_report.elapsed() >= 100) {
                    since_report.restart();
                    const quint64 done = p->sim().statements_executed();
                    job.post([this, done, statement] { emit rerunProgress(done, statement); });
                }
            }
            if (p->sim().statements_executed() >= statement)
                while (offset > 0 && p->step_into())
                    --offset;
            return Replayed{std::move(p), std::move(session)};
        },
        [this, era, kernel](Replayed r) {
            emit aboutToRerun();
            era_ = era;
            kernel_ = kernel;
            base_scene_ = r.session->scene;
            variant_ = -1;
            auto scene = r.session->scene;
            reset(std::move(scene), path_, false, std::move(r.session), std::move(r.player));
            emit rerunPendingChanged(false);
        });
}

void PlayerController::cancelRerun()
{
    if (!rerun_jobs_.isRunning())
        return;
    rerun_jobs_.cancel();
    emit rerunPendingChanged(false);
}

bool PlayerController::runToLine(int line)
{
    if (!player_)
        return false;
    if (line <= 0)
        return false;
    const auto l = static_cast<std::uint32_t>(line);
    std::optional<std::uint64_t> to = runIndex().next_start_of_line(l, player_->position());
    if (!to)
        to = runIndex().first_start_of_line(l);
    if (!to)
        return false;
    seek(*to);
    return true;
}

int PlayerController::nextStatementLine() const
{
    const std::optional<StatementStart> next = runIndex().next_statement(position());
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
    if (session_)
        reset(session_->scene, path_, false);
}

void PlayerController::setCostOverrides(std::vector<std::pair<Cost, std::uint64_t>> overrides)
{
    cost_overrides_ = std::move(overrides);
    if (session_)
        reset(session_->scene, path_, false);
}

void PlayerController::cancelNavigation()
{
    // A job of the old run must not install its player over the new one; a seek's player is
    // freed when it comes back (the caller installs another).
    const bool was_busy = isBusy();
    navigation_jobs_.cancel();
    seek_target_.reset();
    if (was_busy)
        emit busyChanged(false);
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
                             std::shared_ptr<RunSession> ready_session, std::unique_ptr<Player> ready)
{
    pause();
    continue_slices_.stop();
    cancelNavigation();
    cancelRerun(); // another scene, or other options: the pending re-run is of the old ones
    if (new_scene) {
        base_scene_ = scene;
        variant_ = -1;
    }
    path_ = path;
    release_off_thread(std::move(player_), std::move(session_), &heap_trim_);
    // A scene of tens of thousands of statements (the seed scenes: 32,000 sockets in flight, a
    // million autobinds) is fast-forwarded through its collections by default.
    if (new_scene)
        fast_forward_ = fastForwardsByDefault(*scene);
    if (ready) {
        session_ = std::move(ready_session);
        player_ = std::move(ready);
    } else {
        session_ = newSession(std::move(scene));
        player_ = std::make_unique<Player>(session_->scene, session_->options, session_->checkpoints);
    }
    selected_.reset();
    startIndex();
    emit sceneLoaded();
    emit positionChanged();
}

void PlayerController::setEra(GcEra era)
{
    if (!session_ || (era == era_ && !kernel_))
        return;
    era_ = era;
    kernel_ = nullptr;
    rerunUnderCollector();
}

void PlayerController::setKernel(const KernelProfile *profile)
{
    if (!session_ || (profile && profile == &kernelProfile()) || (!profile && !kernel_))
        return;
    kernel_ = profile;
    era_ = profile ? profile->era : session_->scene->settings.gc;
    rerunUnderCollector();
}

const KernelProfile &PlayerController::kernelProfile() const
{
    static const SceneSettings none;
    return run_profile(session_ ? session_->scene->settings : none, simulationOptions());
}

void PlayerController::rerunUnderCollector()
{
    // Keep the statement: go back to the start of the one being executed, under the new era.
    const std::uint64_t statement = statementsShown();
    const std::uint64_t old_position = position();
    auto scene = session_->scene;
    reset(std::move(scene), path_, false);
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
    runInBackground([session = session_, statement](const std::atomic<bool> &cancel) -> std::unique_ptr<Player> {
        auto p = std::make_unique<Player>(session->scene, session->options, session->checkpoints);
        while (p->sim().statements_executed() < statement && p->step_into())
            if (p->sim().last_event()->kind == EventKind::stmt_end && cancel.load(std::memory_order_relaxed))
                return nullptr;
        return p;
    });
}

namespace {

// The indexer's own copy of the run: every event up to the cap, the landmarks the timeline and
// the event log need past it, within a memory budget.
class IndexRecorder {
public:
    IndexRecorder(std::size_t cap, std::size_t memory_bytes) : cap_(cap), memory_bytes_(memory_bytes) { }

    // False once the events kept take the whole memory budget.
    bool operator()(const Event &e)
    {
        if (events.size() < cap_) {
            events.push_back(e);
        } else {
            complete = false;
            keepLandmark(e);
        }
        // RecordedEvents::bytes() walks no events, but is not free: asked every 4096 events.
        if ((++seen_ & 4095) == 0 && events.bytes() >= memory_bytes_) {
            over_memory = true;
            return false;
        }
        return true;
    }

    RecordedEvents events;
    bool complete = true;
    bool over_memory = false;

private:
    void keepLandmark(const Event &e)
    {
        // A statement's end only when it failed (a warning tick) or ends a wait marker.
        if (e.kind == EventKind::gc_wait || e.kind == EventKind::wait_end) {
            if (waiting_.size() <= e.task)
                waiting_.resize(e.task + 1u, false);
            waiting_[e.task] = e.kind == EventKind::gc_wait;
        }
        if (e.kind == EventKind::stmt_end) {
            const bool ends_wait = e.task < waiting_.size() && waiting_[e.task];
            if (e.before != 0 || ends_wait)
                events.push_back(e);
            if (ends_wait)
                waiting_[e.task] = false;
            return;
        }
        switch (e.kind) {
        case EventKind::stmt_begin:
        case EventKind::gc_begin:
        case EventKind::gc_end:
        case EventKind::finding:
        case EventKind::warning:
        case EventKind::gc_wait: // the timeline's wait markers
        case EventKind::wait_end: events.push_back(e); break;
        default: break;
        }
    }

    std::size_t cap_;
    std::size_t memory_bytes_;
    std::uint64_t seen_ = 0;
    std::vector<bool> waiting_; // by task: a gc_wait whose end the timeline still needs
};

// "the index reached its memory budget of 512 MiB at micro-step N (line 2)": which budget ended
// the index, and where.
QString index_budget_message(const Simulation &sim, RecordEnd end, const PlayerController::IndexLimits &limits)
{
    const QString where = PlayerController::tr(" at micro-step %1, after %2 statements")
                              .arg(QString::fromStdString(group_digits(sim.steps())))
                              .arg(QString::fromStdString(group_digits(sim.statements_executed())));
    switch (end) {
    case RecordEnd::caller:
        return PlayerController::tr("the index reached its memory budget of %1 MiB%2: the run is shown up to there")
            .arg(limits.memory_bytes >> 20)
            .arg(where);
    case RecordEnd::time:
        return PlayerController::tr("the index reached its time budget of %1 s%2: the run is shown up to there")
            .arg(std::chrono::duration_cast<std::chrono::seconds>(limits.time).count())
            .arg(where);
    case RecordEnd::finished:
        if (auto limit = sim.limit_reached())
            return QString::fromStdString(limit->format());
        return {};
    case RecordEnd::cancelled: break;
    }
    return {};
}

} // namespace

void PlayerController::startIndex()
{
    // The whole run, recorded once on a pool thread by the engine's recorder (the one the CLI's
    // bench measures): the timeline, the event log and the breakpoint ticks read it. A fresh
    // Simulation shares only the immutable scene.
    emit indexReadyChanged();
    std::shared_ptr<RunSession> session = session_;
    const IndexLimits limits = index_limits_;
    index_jobs_.start(
        [this, session, limits](const JobControl &job) -> std::shared_ptr<SessionIndex> {
            SimulationOptions o = session->options;
            o.record = false;
            auto sim = std::make_unique<Simulation>(session->scene, o);
            IndexRecorder recorder(kIndexCap, limits.memory_bytes);
            std::uint64_t next_report = 1u << 20;
            const RecordEnd end = record_run(
                *sim, *session->checkpoints,
                [&](const Event &e) {
                    if (e.step >= next_report) {
                        next_report += 1u << 20;
                        const quint64 steps = e.step, statements = sim->statements_executed();
                        job.post([this, steps, statements] { emit indexProgress(steps, statements); });
                    }
                    return recorder(e);
                },
                job.cancelFlag(), RecordLimits{limits.time});
            if (end == RecordEnd::cancelled)
                return nullptr;
            auto index = std::make_shared<SessionIndex>();
            index->stopped_by = index_budget_message(*sim, end, limits);
            index->events = std::move(recorder.events);
            index->events.shrink_to_fit();
            index->complete = recorder.complete;
            index->total_steps = sim->steps();
            // The views' marks, found here: walks over 640,000 packed events, that the GUI
            // thread would spend as the index landed.
            index->landmarks = std::make_shared<const RunLandmarks>(
                run_landmarks(index->events, index->total_steps,
                              session->options.era.value_or(session->scene->settings.gc), *session->scene));
            // Navigation (notes, statements, collections, the lesson's beats) as binary searches.
            index->navigation = std::make_shared<const RunIndex>(
                index->events, session->options.era.value_or(session->scene->settings.gc), finding_steps(*sim));
            // The latency panel's samples, and the task and user names its groups are called by.
            index->latency = std::make_shared<const latency::LatencyRun>(
                latency::LatencyRun{sim->take_latencies(), sim->tasks(), user_names(sim->kernel())});
            // Of the finished run, only what names its objects (the state goes, here, off the
            // GUI thread): it stays as endOfRun().
            index->finished = std::make_shared<const FinishedRun>(FinishedRun::of(*sim));
            index->ready = true;
            return index;
        },
        [this, session](std::shared_ptr<SessionIndex> index) {
            if (!index)
                return;
            // The tracker's lane is cancelled by every new session: this is still session_.
            session->index = std::move(*index);
            emit indexReadyChanged();
        });
}

std::string PlayerController::traceJson() const
{
    if (!indexReady() || !index().finished)
        return {};
    // The current position's kernel has not yet created the sockets of later steps.
    return trace_json(timeline(), index().finished->names, session_->scene->title, session_->scene.get());
}

std::uint64_t PlayerController::firstStepOfLine(int line) const
{
    if (line <= 0)
        return 0;
    return runIndex().first_start_of_line(static_cast<std::uint32_t>(line)).value_or(0);
}

void PlayerController::selectSocket(std::optional<std::uint32_t> sock)
{
    if (sock == selected_)
        return;
    selected_ = sock;
    emit selectionChanged();
}

namespace {

// The breakpoint on `line`, if any (one per line, kept by line).
auto line_breakpoint(std::vector<LineBreakpoint> &lines, int line)
{
    return std::find_if(lines.begin(), lines.end(),
                        [line](const LineBreakpoint &l) { return static_cast<int>(l.line()) == line; });
}

} // namespace

QSet<int> PlayerController::lineBreakpoints() const
{
    QSet<int> out;
    for (const LineBreakpoint &l : stops_.lines)
        out.insert(static_cast<int>(l.line()));
    return out;
}

QSet<int> PlayerController::conditionalLineBreakpoints() const
{
    QSet<int> out;
    for (const LineBreakpoint &l : stops_.lines)
        if (l.condition())
            out.insert(static_cast<int>(l.line()));
    return out;
}

void PlayerController::toggleLineBreakpoint(int line)
{
    if (line < 1)
        return;
    if (auto it = line_breakpoint(stops_.lines, line); it != stops_.lines.end())
        stops_.lines.erase(it);
    else
        stops_.lines.emplace_back(static_cast<std::uint32_t>(line));
    emit lineBreakpointsChanged();
}

QString PlayerController::lineBreakpointCondition(int line) const
{
    for (const LineBreakpoint &l : stops_.lines)
        if (static_cast<int>(l.line()) == line && l.condition())
            return QString::fromStdString(l.condition()->text());
    return {};
}

bool PlayerController::setLineBreakpointCondition(int line, const QString &condition, QString *error)
{
    if (line < 1)
        return false;
    const QString trimmed = condition.trimmed();
    const QString text = trimmed.isEmpty() ? QString::number(line) : QStringLiteral("%1 if %2").arg(line).arg(trimmed);
    WatchError err;
    std::optional<LineBreakpoint> parsed = LineBreakpoint::parse(text.toStdString(), &err);
    if (!parsed) {
        if (error)
            *error = QString::fromStdString(err.format());
        return false;
    }
    if (auto it = line_breakpoint(stops_.lines, line); it != stops_.lines.end())
        *it = std::move(*parsed);
    else
        stops_.lines.push_back(std::move(*parsed));
    emit lineBreakpointsChanged();
    return true;
}

QStringList PlayerController::lineBreakpointTexts() const
{
    std::vector<const LineBreakpoint *> by_line;
    for (const LineBreakpoint &l : stops_.lines)
        by_line.push_back(&l);
    std::sort(by_line.begin(), by_line.end(), [](auto *x, auto *y) { return x->line() < y->line(); });
    QStringList out;
    for (const LineBreakpoint *l : by_line)
        out << QString::fromStdString(l->text());
    return out;
}

void PlayerController::setLineBreakpointTexts(const QStringList &texts)
{
    std::vector<LineBreakpoint> lines;
    for (const QString &t : texts) {
        std::optional<LineBreakpoint> parsed = LineBreakpoint::parse(t.toStdString());
        if (!parsed || parsed->line() == 0)
            continue; // a settings file is untrusted: what does not parse is not a breakpoint
        if (auto it = line_breakpoint(lines, static_cast<int>(parsed->line())); it != lines.end())
            *it = std::move(*parsed);
        else
            lines.push_back(std::move(*parsed));
    }
    std::sort(lines.begin(), lines.end(), [](const auto &x, const auto &y) { return x.line() < y.line(); });
    QStringList wanted;
    for (const LineBreakpoint &l : lines)
        wanted << QString::fromStdString(l.text());
    if (wanted == lineBreakpointTexts())
        return;
    stops_.lines = std::move(lines);
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
    stops_.watches.emplace_back(std::move(*w));
    if (player_)
        stops_.watches.back().reset(kernel());
    emit watchesChanged();
    return true;
}

void PlayerController::removeWatch(int index)
{
    if (index < 0 || index >= watchCount())
        return;
    stops_.watches.erase(stops_.watches.begin() + index);
    emit watchesChanged();
}

QString PlayerController::watchText(int index) const
{
    if (index < 0 || index >= watchCount())
        return {};
    return QString::fromStdString(stops_.watches[static_cast<std::size_t>(index)].watch().text());
}

QString PlayerController::watchValue(int index) const
{
    if (index < 0 || index >= watchCount() || !player_)
        return {};
    return QString::fromStdString(stops_.watches[static_cast<std::size_t>(index)].current(kernel()));
}

void PlayerController::primeWatches()
{
    if (player_)
        stops_.start(kernel());
}

bool PlayerController::stopsAt(const Event &e, QString *why)
{
    if (!player_)
        return false;
    std::optional<std::string> stop = stops_.check(e, kernel());
    if (stop && why)
        *why = QString::fromStdString(*stop);
    return stop.has_value();
}

void PlayerController::moved() { emit positionChanged(); }

void PlayerController::first()
{
    if (!player_) {
        if (isSeeking())
            seek(0); // supersedes the seek under way
        return;
    }
    player_->seek(0);
    moved();
}

void PlayerController::nextNote()
{
    if (!player_ || !indexReady())
        return;
    if (const std::optional<std::uint64_t> note = runIndex().next_note(player_->position()))
        seek(*note);
}

void PlayerController::previousNote()
{
    if (!player_ || !indexReady())
        return;
    seek(runIndex().previous_note(player_->position()).value_or(0));
}

void PlayerController::nextBeat()
{
    if (!player_)
        return;
    if (!indexReady()) {
        stepOver();
        return;
    }
    if (const std::optional<Beat> beat = runIndex().next_beat(player_->position()))
        seek(beat->step);
    else
        last();
}

void PlayerController::previousBeat()
{
    if (!player_ || player_->position() == 0)
        return;
    if (!indexReady()) {
        backStatement();
        return;
    }
    const std::optional<Beat> beat = runIndex().previous_beat(player_->position());
    seek(beat ? beat->step : 0);
}

void PlayerController::goToBeat(int n)
{
    if (!player_ || !indexReady())
        return;
    const std::vector<Beat> &beats = runIndex().beats();
    if (n <= 0 || beats.empty()) {
        seek(0);
        return;
    }
    seek(beats[static_cast<std::size_t>(std::min<std::size_t>(static_cast<std::size_t>(n), beats.size()) - 1)].step);
}

void PlayerController::back()
{
    if (!session_ || position() == 0)
        return;
    const std::uint64_t here = position();
    if (!fast_forward_) {
        seek(here - 1);
        return;
    }
    // Fast-forwarded, the run stops only at the steps it shows: the index knows the one
    // before here (past its cap only landmarks, which is where such a run can stop anyway).
    if (indexReady()) {
        const std::size_t row = timeline().first_at_or_after(here);
        seek(row == 0 ? 0 : timeline()[row - 1].step);
        return;
    }
    if (!player_)
        return;      // a seek has it: the step before needs the state (or the index)
    player_->back(); // finds it by stepping from the checkpoint before here
    moved();
}

void PlayerController::backStatement()
{
    if (!player_ || player_->position() == 0)
        return;
    if (!indexReady()) {
        player_->back_statement();
        moved();
        return;
    }
    // The index knows where every statement begins: the last one before here.
    const std::optional<StatementStart> start = runIndex().statement_before(player_->position());
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
    if (player_->sim().gc_in_progress() && indexReady()) {
        if (const std::optional<std::uint64_t> begin = runIndex().collection_start_before(player_->position())) {
            seek(*begin - 1);
            return;
        }
    }
    backStatement();
}

void PlayerController::reverseContinue()
{
    // Back to the previous stop: the search replays the segments between checkpoints on a
    // pool thread; the player then seeks there (or to step 0 when nothing stops earlier).
    if (!player_ || player_->position() == 0)
        return;
    const std::uint64_t here = player_->position();
    const StopConditions stops = stops_;
    auto why = std::make_shared<QString>();
    runInBackground(
        [session = session_, here, stops, why](const std::atomic<bool> &cancel) -> std::unique_ptr<Player> {
            const std::optional<StopHit> hit = find_previous(*session->checkpoints, here, stops, &cancel);
            if (cancel.load())
                return nullptr;
            auto p = std::make_unique<Player>(session->scene, session->options, session->checkpoints);
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
        if (isSeeking())
            seek(std::numeric_limits<std::uint64_t>::max()); // supersedes the seek under way
        return;
    }
    // An index a budget ended stops where the run is shown: beyond it the run goes on for as
    // long as the budget that stopped the index would have let it.
    if (indexReady() && !index().stopped_by.isEmpty()) {
        seek(totalSteps());
        return;
    }
    // Once the index knows the end, a long way there is one replay on a pool thread (seek())
    // rather than slices that repaint every view each 40 ms: the views of a million-socket
    // scene would take most of each slice.
    if (indexReady() && session_->checkpoints->estimated_seek_cost(player_->position(), totalSteps()) >
                            std::chrono::milliseconds(kSliceBudgetMs)) {
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
    if (!session_)
        return;
    if (indexReady() && !index().stopped_by.isEmpty())
        step = std::min(step, totalSteps()); // the run as far as the index saw it
    // A longer seek runs on a pool thread, which takes the player (seekInBackground()).
    if (player_ && !isBusy()) {
        if (session_->checkpoints->estimated_seek_cost(player_->position(), step) <= kInlineSeekCost) {
            player_->seek(step);
            moved();
            return;
        }
    }
    seekInBackground(step);
}

void PlayerController::seekInBackground(std::uint64_t step)
{
    pause();
    if (!player_) {
        // A seek has the player: this one goes on with it once that one gives it back.
        if (seek_target_ == step)
            return; // that seek is under way (a key held down repeats it)
        seek_target_ = step;
        navigation_jobs_.cancel(); // it gives up at its next statement end
        return;
    }
    const bool was_busy = isBusy();
    startSeek(std::move(player_), step);
    emit seekStarted();
    if (!was_busy)
        emit busyChanged(true);
}

void PlayerController::startSeek(std::unique_ptr<Player> player, std::uint64_t step)
{
    // The player goes to the job, which restores into the memory of the state it frees (a fresh
    // state of hundreds of MB beside the one on screen is what a step back spent its time on).
    seek_target_ = step;
    navigation_jobs_.start(
        [player = std::move(player), step](const JobControl &job) mutable {
            SeekResult r;
            try {
                player->seek(step, &job.cancelFlag());
            } catch (const std::exception &e) {
                // The player is still there (a failed restore leaves it at step 0): it comes
                // back, and the user is told.
                r.failed = QString::fromUtf8(e.what());
            }
            r.player = std::move(player);
            return r;
        },
        [this](SeekResult r) {
            seek_target_.reset();
            player_ = std::move(r.player);
            // The new position's values first: a view told the seek is over (the graph panel
            // draws what it owes then) reads them, not the ones it had.
            moved();
            emit busyChanged(false);
            if (!r.failed.isEmpty())
                emit breakpointHit(tr("the seek failed (%1)").arg(r.failed));
        },
        [this, session = session_](SeekResult r) {
            // Superseded by a newer seek of the same run: that one goes on with this player.
            if (session == session_ && !player_ && seek_target_) {
                startSeek(std::move(r.player), *seek_target_);
                return;
            }
            // Another run since, or another job installed its own player.
            free_off_thread(std::shared_ptr<Player>(std::move(r.player)));
        });
}

void PlayerController::runInBackground(std::function<std::unique_ptr<Player>(const std::atomic<bool> &)> job,
                                       std::function<void()> after)
{
    pause();
    const bool was_busy = isBusy();
    navigation_jobs_.start([job = std::move(job)](const JobControl &control) { return job(control.cancelFlag()); },
                           [this, after = std::move(after)](std::unique_ptr<Player> player) {
                               emit busyChanged(false);
                               if (!player)
                                   return; // gave up (it only does when cancelled)
                               // The state left behind is freed by the checkpoint store's
                               // thread, or a pool thread when that one already has a state to
                               // free: never here.
                               std::unique_ptr<Player> left = std::exchange(player_, std::move(player));
                               if (left)
                                   if (std::unique_ptr<Simulation> refused =
                                           session_->checkpoints->retire(left->release_sim()))
                                       free_off_thread(std::shared_ptr<Simulation>(std::move(refused)));
                               moved();
                               if (after)
                                   after();
                           });
    if (!was_busy)
        emit busyChanged(true);
}

void PlayerController::continueToBreakpoint()
{
    continue_slices_.stop();
    continueSlice(true);
}

void PlayerController::continueSlice(bool fresh)
{
    if (!player_)
        return;
    // Bounded slices keep the GUI responsive on runs of millions of steps.
    QElapsedTimer clock;
    clock.start();
    QString why;
    // Only a fresh continue steps off its stop unchecked; a later slice checks every step.
    bool first_step = fresh;
    primeWatches(); // a watch fires on what changes from here on
    while (!player_->at_end()) {
        if (!player_->step_into())
            break;
        const Event *e = player_->sim().last_event();
        // The first step leaves the stop we continue from; it still moves the watches on.
        const bool hit = e && stopsAt(*e, &why);
        if (!first_step && hit) {
            moved();
            emit breakpointHit(why);
            return;
        }
        first_step = false;
        if (clock.elapsed() > kSliceBudgetMs) {
            moved();
            continue_slices_.start();
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
        if (e && stopsAt(*e, &why)) {
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
