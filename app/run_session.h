// SPDX-License-Identifier: GPL-3.0-or-later
// One run of a scene: the scene, the options it runs under, the checkpoints every player of it
// shares, and its index once recorded. Opening a scene, re-running it after an edit or under
// another collector makes a new session; a background job carries the session it works for,
// and its result is installed only into that one. A checkpoint is never restored into another
// run, since each session has its own store.
#pragma once

#include "inflight/checkpoint_store.hpp"
#include "inflight/finished_run.hpp"
#include "inflight/recorded_events.hpp"
#include "inflight/run_index.hpp"
#include "inflight/run_landmarks.hpp"
#include "inflight/scene.hpp"
#include "inflight/simulation.hpp"
#include "latency/latency_run.h"

#include <QString>

#include <cstdint>
#include <memory>

// What the indexer found of the whole run (empty until it lands).
struct SessionIndex {
    // The run's events in order: every micro-step up to the index's cap, only the landmarks
    // past it (RecordedEvents is packed: rows are decoded when read).
    inflight::RecordedEvents events;
    bool complete = true; // every micro-step is there
    std::uint64_t total_steps = 0;
    std::shared_ptr<const inflight::RunLandmarks> landmarks = std::make_shared<const inflight::RunLandmarks>();
    // Navigation (next note, statement start, collection start, beat) as binary searches.
    std::shared_ptr<const inflight::RunIndex> navigation = std::make_shared<const inflight::RunIndex>();
    std::shared_ptr<const latency::LatencyRun> latency = std::make_shared<const latency::LatencyRun>();
    std::shared_ptr<const inflight::FinishedRun> finished; // null until ready
    // Why the index ended before the run did (a budget), located; empty when it saw the end.
    QString stopped_by;
    bool ready = false;
};

struct RunSession {
    RunSession(std::shared_ptr<const inflight::Scene> scene_, inflight::SimulationOptions options_, bool keeps_place_)
        : scene(std::move(scene_)), options(std::move(options_)), keeps_place(keeps_place_)
    { }
    const std::shared_ptr<const inflight::Scene> scene;
    const inflight::SimulationOptions options;
    // Filled by the indexer's recorder pass and by every player of this run.
    const std::shared_ptr<inflight::CheckpointStore> checkpoints = std::make_shared<inflight::CheckpointStore>();
    // A re-run of an edited scene at the place the user was (views keep what the user chose).
    const bool keeps_place;
    SessionIndex index;
};
