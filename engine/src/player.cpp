#include "inflight/player.hpp"

namespace inflight {

Player::Player(std::shared_ptr<const Scene> scene, SimulationOptions options)
    : scene_(std::move(scene)), options_(options)
{
    options_.record = false; // the player shows state, not history; history is total_steps()'s job
    sim_ = fresh();
}

std::unique_ptr<Simulation> Player::fresh() const { return std::make_unique<Simulation>(scene_, options_); }

bool Player::back()
{
    if (position() == 0)
        return false;
    seek(position() - 1);
    return true;
}

void Player::seek(std::uint64_t step)
{
    if (step < position())
        sim_ = fresh();
    while (position() < step && sim_->step()) {
    }
}

void Player::back_statement()
{
    // Replays to find the last stmt_begin before the current step, then stops just before it.
    const std::uint64_t here = position();
    auto probe = fresh();
    std::uint64_t begin = 0;
    while (probe->steps() + 1 < here) {
        const Event *e = probe->step();
        if (!e)
            break;
        if (e->kind == EventKind::stmt_begin)
            begin = e->step - 1;
    }
    seek(begin);
}

std::uint64_t Player::total_steps()
{
    if (total_ < 0) {
        auto probe = fresh();
        probe->run();
        total_ = static_cast<std::int64_t>(probe->steps());
    }
    return static_cast<std::uint64_t>(total_);
}

} // namespace inflight
