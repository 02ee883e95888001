// SPDX-License-Identifier: GPL-3.0-or-later
// PlayerController's loading: opening a scene, re-running it (after an edit, under another
// collector, variant, stepping or costs) as a new RunSession, and starting its index.
#include "background_job.h"
#include "player_controller.h"
#include "run_indexer.h"

#include "inflight/parser.hpp"
#include "inflight/simulation.hpp"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QMetaObject>
#include <QPointer>

using namespace inflight;

namespace {

QStringList messages_of(const std::vector<Diagnostic> &diagnostics)
{
    QStringList out;
    for (const auto &d : diagnostics)
        out << QString::fromStdString(d.format());
    return out;
}

// The scene in `bytes` (named `name` in its messages), or null; `errors` gets every message.
std::shared_ptr<const Scene> parsed(const QByteArray &bytes, const QString &name, QStringList *errors)
{
    ParseResult r =
        parse_scene(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())), name.toStdString());
    if (errors)
        *errors = messages_of(r.diagnostics);
    if (!r.ok())
        return nullptr;
    return std::make_shared<const Scene>(std::move(r.scene));
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
        // Posted to the application object, which outlives every job, and `trim` looked at on
        // the GUI thread only; through the hand-off lock, since the queued call's closure is made
        // here and freed there (background_job.h).
        background::handOver([&] {
            QMetaObject::invokeMethod(
                QCoreApplication::instance(),
                [trim] {
                    background::takeHandOff();
                    if (trim)
                        trim->poke();
                },
                Qt::QueuedConnection);
        });
    });
}

} // namespace

bool PlayerController::openFile(const QString &path, QStringList *errors)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (errors)
            *errors = QStringList{path + QStringLiteral(": error: cannot open scene file: ") + f.errorString()};
        return false;
    }
    std::shared_ptr<const Scene> scene = parsed(f.readAll(), path, errors);
    if (!scene)
        return false;
    openParsed(std::move(scene), path);
    return true;
}

bool PlayerController::openText(const QString &text, const QString &name, QStringList *errors)
{
    std::shared_ptr<const Scene> scene = parsed(text.toUtf8(), name, errors);
    if (!scene)
        return false;
    openParsed(std::move(scene), QString());
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
    if (replaysInline(position)) {
        emit aboutToRerun();
        era_ = era;
        kernel_ = kernel;
        base_scene_ = scene;
        variant_ = -1;
        auto session = std::make_shared<RunSession>(scene, simulationOptions(), true);
        auto player = std::make_unique<Player>(scene, session->options, session->checkpoints);
        reset(std::move(scene), path_, false, std::move(session), std::move(player));
        // Bounded: an edit that made the way there much longer must not freeze the window.
        std::uint64_t budget = 4 * position + 1024;
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

bool PlayerController::replaysInline(std::uint64_t steps) const
{
    return session_ && session_->checkpoints->estimated_replay_cost(steps) <= kInlineSeekCost;
}

void PlayerController::rerunUnderCollector()
{
    // Keep the statement: go back to the start of the one being executed, under the new era.
    const std::uint64_t statement = statementsShown();
    const std::uint64_t old_position = position();
    const bool inline_replay = replaysInline(old_position); // the old run's rate
    auto scene = session_->scene;
    reset(std::move(scene), path_, false);
    if (statement == 0)
        return;
    // The way to that statement under the new collector is a replay: inline when the old run
    // got there in few steps (the new one is about as long), else on a pool thread, with the
    // new run's step 0 on screen (and usable) meanwhile.
    if (inline_replay) {
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

void PlayerController::startIndex()
{
    // The whole run, recorded once on a pool thread (index_run()): the timeline, the event log
    // and the breakpoint ticks read it.
    emit indexReadyChanged();
    std::shared_ptr<RunSession> session = session_;
    const IndexLimits limits = index_limits_;
    index_jobs_.start(
        [this, session, limits](const JobControl &job) -> std::shared_ptr<SessionIndex> {
            return index_run(*session, kIndexCap, limits, job.cancelFlag(),
                             [this, &job](quint64 steps, quint64 statements) {
                                 job.post([this, steps, statements] { emit indexProgress(steps, statements); });
                             });
        },
        [this, session](const std::shared_ptr<SessionIndex> &index) {
            if (!index)
                return;
            // The tracker's lane is cancelled by every new session: this is still session_.
            session->index = std::move(*index);
            emit indexReadyChanged();
        });
}
