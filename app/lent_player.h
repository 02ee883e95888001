// SPDX-License-Identifier: GPL-3.0-or-later
// The player a background seek works on in place, and what the controller answers with
// meanwhile.
//
// Why: a seek's restore builds the whole state anew. Built beside the state on screen, on the
// million-socket scene that is 190 MB of fresh memory once the idle trim has handed the last
// one back, and fresh memory is what a step back there spent its time on (0.34-0.5 s after a
// pause, against ~0.1 s within a burst). Lent to the seek, the player frees its state first
// and the restore takes that memory (Player::restore(), inflight/recycled_blocks.hpp). The
// views read their snapshots meanwhile; the controller answers the few questions it used to
// ask the live state from what is kept here.
#pragma once

#include "inflight/event.hpp"
#include "inflight/player.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>

struct LentPlayer {
    std::mutex lock; // held by the seek working on `player`; a newer seek waits for it
    std::unique_ptr<inflight::Player> player;

    // Read on the GUI thread only: the state on screen when the player was lent, and where the
    // latest seek on it goes.
    std::uint64_t position = 0;
    std::uint64_t statements = 0; // statements executed
    bool at_end = false;
    std::optional<inflight::Event> event; // the step just taken, if any
    std::uint64_t target = 0;
};
