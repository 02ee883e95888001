// SPDX-License-Identifier: GPL-3.0-or-later
// PlayerController's core: its lifetime, and the values views read at the current position
// (the snapshot taken at every move, and the graph, detail and narration taken when first asked).
#include "player_controller.h"
#include "background_job.h"

#include "inflight/graph_snapshot.hpp"
#include "inflight/kernel_queries.hpp"
#include "inflight/narrate.hpp"
#include "inflight/report.hpp"
#include "inflight/simulation.hpp"

#include <QThreadPool>

using namespace inflight;

PlayerController::PlayerController(QObject *parent) : QObject(parent), snapshot_(std::make_shared<const StepSnapshot>())
{
    // Connected before any view can connect: the values are current when a view's slot runs.
    connect(this, &PlayerController::sceneLoaded, this, [this] { takeSnapshot(true); });
    connect(this, &PlayerController::positionChanged, this, [this] { takeSnapshot(false); });
    connect(this, &PlayerController::selectionChanged, this, [this] { at_position_.detail.forget(); });
    // Large states are freed on every move of a large scene; their pages go back once idle.
    connect(this, &PlayerController::positionChanged, &heap_trim_, &IdleHeapTrim::poke);
    connect(this, &PlayerController::sceneLoaded, &heap_trim_, &IdleHeapTrim::poke);
    connect(this, &PlayerController::indexReadyChanged, &heap_trim_, &IdleHeapTrim::poke);
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
    at_position_.moved();
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
    if (!player_) {
        // A seek has the player: the graph of the state on screen if it was taken, never an
        // older one (the graph panel waits for the seek to land instead).
        const auto *taken = at_position_.graph.peek();
        return taken ? *taken : std::make_shared<const GraphSnapshot>();
    }
    return at_position_.graph.get([&] { return std::make_shared<const GraphSnapshot>(snapshot_graph(kernel())); });
}

const SocketDetail *PlayerController::selectedDetail() const
{
    if (!selected_ || !session_)
        return nullptr;
    const std::optional<SocketDetail> *detail = at_position_.detail.peek();
    if (!detail) {
        if (!player_)
            return nullptr; // a seek has the player, and the selection changed since: known when it lands
        detail = &at_position_.detail.get([&] { return socket_detail(kernel(), *selected_); });
    }
    return *detail ? &**detail : nullptr;
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
    if (const QString *taken = at_position_.narration.peek())
        return *taken;
    if (!player_)
        return {}; // a seek has the player (see currentEvent())
    return at_position_.narration.get(
        [&] { return QString::fromStdString(narrate(*e, kernel(), &player_->sim().scene())); });
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
