// SPDX-License-Identifier: GPL-3.0-or-later
// The A/B comparison's runs: the current scene under another collector or as one of its
// `variant` blocks, run to the end on a worker thread without recording events (and with
// collections fast-forwarded), keeping only the timed calls.
#pragma once

#include "live_latency.h"

#include "inflight/gc_era.hpp"
#include "inflight/scene.hpp"

#include <QString>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace latency {

struct Scenario {
    QString name;                       // "classic collector", "variant fixed"
    std::optional<inflight::GcEra> era; // run under this collector (variants: their own `set gc`)
    int variant = -1;                   // index into Scene::variants, or -1 for the scene itself
};

// Every collector, then every variant of the scene.
std::vector<Scenario> scenariosOf(const inflight::Scene &scene);

// The scene as the scenario runs it: a variant's settings replace the scene's.
std::shared_ptr<const inflight::Scene> sceneFor(const std::shared_ptr<const inflight::Scene> &scene,
                                                const Scenario &scenario);

// Runs to the end and returns the calls, tasks and users; nullptr if `cancel` was set first.
std::shared_ptr<const LatencyRun> runHeadless(const std::shared_ptr<const inflight::Scene> &scene,
                                              const Scenario &scenario, const std::atomic<bool> *cancel = nullptr);

} // namespace latency
