// SPDX-License-Identifier: GPL-3.0-or-later
// The end of a run told in words, for the last step's narration: which sockets the collector
// freed, which leaked (alive, no fd reaches them, the collector left them), and whether every
// expectation of the scene held.
#pragma once

#include <string>

namespace inflight {

class Simulation;

std::string narrate_run_end(const Simulation &sim);

} // namespace inflight
