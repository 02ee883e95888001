// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/player.hpp"

#include <algorithm>
#include <chrono>

namespace inflight {

Player::Player(std::shared_ptr<const Scene> scene, SimulationOptions options, std::shared_ptr<CheckpointStore> store)
    : scene_(std::move(scene)), options_(options), store_(std::move(store))
{
    options_.record = false; // the player shows state, not history; history is the recorder's
    if (!store_)
        store_ = std::make_shared<CheckpointStore>();
    sim_ = std::make_unique<Simulation>(scene_, options_);
    if (!store_->at_or_before(0))
        store_->add(*sim_); // step 0: every seek has somewhere to start from
}

void Player::offer_checkpoint()
{
    const Event *e = sim_->last_event();
    if (!e || e->kind != EventKind::stmt_end)
        return;
    store_->offer(*sim_, true);
}

bool Player::step_into()
{
    const bool moved = sim_->step() != nullptr;
    offer_checkpoint();
    return moved;
}

bool Player::step_over()
{
    const bool moved = sim_->step_over();
    offer_checkpoint();
    return moved;
}

bool Player::step_out()
{
    const bool moved = sim_->step_out();
    offer_checkpoint();
    return moved;
}

bool Player::step_out_function()
{
    const bool moved = sim_->step_out_function();
    offer_checkpoint();
    return moved;
}

bool Player::back()
{
    const std::uint64_t here = position();
    if (here == 0)
        return false;
    if (!options_.fast_forward) {
        seek(here - 1);
        return true;
    }
    // Fast-forwarded, a run stops only at the steps it shows (a collection's inner steps are
    // absorbed): the previous one is found by stepping from the checkpoint before here.
    Simulation probe(*store_->at_or_before(here - 1));
    std::uint64_t previous = probe.steps();
    while (probe.step() && probe.steps() < here)
        previous = probe.steps();
    seek(previous);
    return true;
}

bool Player::advance(std::uint64_t step, const std::atomic<bool> *cancel)
{
    bool cancelled = false;
    // Checkpoints on the way only in the last stretch before the target (steps are work):
    // that is where the user will step back; copies along a long jump would be thinned.
    const std::uint64_t stretch = 4 * store_->interval();
    const std::uint64_t from = position();
    const auto start = std::chrono::steady_clock::now();
    sim_->advance_to(step, [&] {
        if (step - position() <= stretch)
            offer_checkpoint();
        cancelled = cancel && cancel->load(std::memory_order_relaxed);
        return !cancelled;
    });
    if (position() > from)
        store_->note_replay(position() - from, std::chrono::steady_clock::now() - start);
    // The run's last step: the state there becomes the end (its end-of-run checks) only by
    // the step that finds nothing left, as in a run to the end.
    if (!cancelled && !sim_->finished() && store_->end() == position())
        sim_->step();
    return !cancelled;
}

void Player::restore(const Simulation &checkpoint)
{
    // The state here goes first, so the copy takes the memory it leaves: made beside it, the
    // copy would touch as much fresh memory again, the expensive part of a restore.
    sim_.reset();
    try {
        const auto start = std::chrono::steady_clock::now();
        sim_ = std::make_unique<Simulation>(checkpoint);
        store_->note_restore(state_bytes(*sim_), std::chrono::steady_clock::now() - start);
    } catch (...) {
        sim_ = std::make_unique<Simulation>(scene_, options_); // step 0 rather than no state
        throw;
    }
}

bool Player::seek(std::uint64_t step, const std::atomic<bool> *cancel)
{
    if (total_ >= 0)
        step = std::min<std::uint64_t>(step, static_cast<std::uint64_t>(total_));
    if (step == position())
        return true;
    store_->set_present(step);
    std::shared_ptr<const Simulation> c = store_->at_or_before(step);
    // Backwards, or forwards past a checkpoint later than where we are: start from it.
    if (c && (step < position() || c->steps() > position()))
        restore(*c);
    return advance(step, cancel);
}

void Player::back_statement()
{
    // The start of the statement containing the current step: the last stmt_begin at or
    // before it. Found by replaying from the nearest checkpoint before it, one statement at a
    // time (checkpoints sit at statement boundaries, so the one at or before `here - 1` lies
    // at or before that statement's start).
    const std::uint64_t here = position();
    if (here == 0)
        return;
    std::shared_ptr<const Simulation> c = store_->at_or_before(here - 1);
    Simulation probe(*c);
    std::uint64_t begin = probe.steps();
    while (probe.steps() + 1 < here) {
        const Event *e = probe.step();
        if (!e)
            break;
        if (e->kind == EventKind::stmt_begin)
            begin = e->step - 1;
    }
    seek(begin);
}

std::optional<StopHit> Player::find_previous(const StopConditions &stops, const std::atomic<bool> *cancel) const
{
    return inflight::find_previous(*store_, position(), stops, cancel);
}

std::optional<StopHit> find_previous(const CheckpointStore &store, std::uint64_t before, const StopConditions &stops,
                                     const std::atomic<bool> *cancel)
{
    // Steps t with checkpoint < t < end are scanned; then the segment before that checkpoint,
    // up to and including the checkpoint's own step.
    std::uint64_t end = before, lookup = end ? end - 1 : 0;
    while (end > 0) {
        std::shared_ptr<const Simulation> c = store.at_or_before(lookup);
        if (!c)
            return std::nullopt;
        Simulation probe(*c);
        StopConditions s = stops;
        s.start(probe.kernel());
        std::optional<StopHit> last;
        while (probe.steps() + 1 < end) {
            const Event *e = probe.step();
            if (!e || probe.steps() >= end)
                break;
            if (auto why = s.check(*e, probe.kernel()))
                last = StopHit{probe.steps(), std::move(*why)};
            if (cancel && e->kind == EventKind::stmt_end && cancel->load(std::memory_order_relaxed))
                return std::nullopt;
        }
        if (last)
            return last;
        if (c->steps() == 0)
            break;
        end = c->steps() + 1;
        lookup = c->steps() - 1;
    }
    return std::nullopt;
}

void checkpoint_tail(const Simulation &end, CheckpointStore &store, const std::atomic<bool> &cancel)
{
    if (!end.finished())
        return;
    store.set_end(end.steps());
    const TailPlan plan = store.tail_plan(state_bytes(end));
    std::shared_ptr<const Simulation> from = store.at_or_before(end.steps());
    if (!from) {
        store.add_tail(end);
        return;
    }
    std::uint64_t last = from->steps();
    auto keep = [&](const Simulation &state) {
        store.add_tail(state);
        last = state.steps();
        if (plan.one_at_a_time)
            store.flush(); // this runs off the GUI thread
    };
    // Steps are micro-steps of work: a tail nearer than the spacing to the checkpoint before
    // it would cost more to pack than the replay it saves.
    if (end.steps() < last + plan.spacing)
        return;
    // The statement ends are found by their statement count; whether each is quiescent is
    // asked there only, since Kernel::quiescent() walks every skb.
    const std::uint64_t n = end.statements_executed();
    std::uint64_t next = std::max(n > plan.statements ? n - plan.statements : 0, from->statements_executed());
    Simulation probe(*from);
    for (; next < n; next = probe.statements_executed() + 1) {
        bool reached = false;
        probe.advance_to(end.steps() - 1, [&] {
            reached = probe.statements_executed() >= next;
            return !reached && !cancel.load(std::memory_order_relaxed);
        });
        if (cancel.load(std::memory_order_relaxed))
            return;
        if (!reached)
            break;                                                     // the end came first
        if (probe.steps() >= last + plan.spacing && probe.quiescent()) // not quiescent: a race under way there
            keep(probe);
    }
    if (end.steps() >= last + plan.spacing)
        keep(end);
}

std::uint64_t Player::total_steps()
{
    if (total_ < 0) {
        std::shared_ptr<const Simulation> c = store_->at_or_before(~std::uint64_t(0));
        Simulation probe(*c);
        probe.advance_to(~std::uint64_t(0));
        total_ = static_cast<std::int64_t>(probe.steps());
    }
    return static_cast<std::uint64_t>(total_);
}

} // namespace inflight
