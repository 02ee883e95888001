// SPDX-License-Identifier: GPL-3.0-or-later
// PlayerController's navigation and playback: stepping, seeking (inline or on a pool thread
// that takes the player), the index's jumps (notes, beats, statements), continue and play.
#include "background_job.h"
#include "player_controller.h"

#include "inflight/simulation.hpp"

#include <QElapsedTimer>

#include <algorithm>
#include <limits>

using namespace inflight;

namespace {

// A state of hundreds of MB (a player a stale seek gave back, a retired Simulation) is not
// freed between two frames: the last reference goes on a pool thread.
template <typename T>
void free_off_thread(std::shared_ptr<T> last)
{
    background::start([last = std::move(last)]() mutable { last.reset(); });
}

constexpr qint64 kSliceBudgetMs = 40; // continue-to-breakpoint works in slices this long

// What a background seek gives back: the player it took, and why it failed if it did.
struct SeekResult {
    std::unique_ptr<Player> player;
    QString failed;
};

} // namespace

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
