// SPDX-License-Identifier: GPL-3.0-or-later
// The whole observable state of a run as text and as a digest: every socket, file, fd table,
// skb with its SCM_RIGHTS list, graph vertex and edge, list in its order, lock, task clock,
// global counter, warning, expectation and the last event, with objects named by id. Two runs
// are at the same point in time exactly when their texts agree; the time-travel tests compare
// the state reached by a full replay with the one reached through checkpoints.
#pragma once

#include <cstdint>
#include <string>

namespace inflight {

class Simulation;

std::string digest_text(const Simulation &sim);
std::uint64_t state_digest(const Simulation &sim); // FNV-1a of digest_text()

} // namespace inflight
