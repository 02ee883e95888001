// SPDX-License-Identifier: GPL-3.0-or-later
// Walking a lesson's beats for an export: each chosen step is sought, the graph's layout
// awaited, and the step handed to the caller, the event loop running in between (the window
// repaints, a progress dialog can cancel). The exports draw each beat as the presenter's
// clicker shows it because they stop where it stops (inflight::find_beats()).
#pragma once

#include <QString>

#include <cstdint>
#include <functional>
#include <vector>

class GraphPanel;
class PlayerController;

namespace lesson {

// An export's progress: called before each beat with (done, total); false cancels.
using Progress = std::function<bool(int done, int total)>;

// Spins the event loop until the run is indexed (its beats known); false after kStepTimeoutMs.
bool waitForIndex(PlayerController &controller);

// Visits `steps` in order: seeks each, waits until the run is there and the graph laid out,
// then calls `visit(index)`. Returns false with `error` when the index is not ready, a step
// cannot be reached in time, `visit` returns false (cancelled) or fails; the controller is
// left where the walk stopped.
bool walkSteps(PlayerController &controller, GraphPanel &graph, const std::vector<std::uint64_t> &steps,
               const std::function<bool(std::size_t index)> &visit, QString *error);

// How long one step may take to be reached and laid out before the walk gives up.
inline constexpr int kStepTimeoutMs = 20000;

} // namespace lesson
