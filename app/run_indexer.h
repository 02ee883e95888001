// SPDX-License-Identifier: GPL-3.0-or-later
// The indexer: the whole run of a session recorded once by the engine's recorder (record_run,
// the loop the CLI and the benchmarks run too) into what the views navigate by: the events up
// to a cap and the landmarks past it, the marks, the binary-searchable navigation, the latency
// samples and what names the finished run's objects. Runs on a pool thread; Qt only for the
// budget message.
#pragma once

#include "run_session.h"

#include <QtGlobal>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>

// The indexer's budgets over the run's own (steps, modelled time, queued data: `set limit`):
// the memory its copy of the events may take, and its wall-clock time.
struct IndexLimits {
    std::size_t memory_bytes = std::size_t(512) << 20;
    std::chrono::steady_clock::duration time = std::chrono::minutes(10);
};

// Every event up to `cap`, only landmarks past it. Null when `cancel` was set; `progress`
// (steps, statements) is called about every million steps, on the calling thread.
std::shared_ptr<SessionIndex> index_run(const RunSession &session, std::size_t cap, const IndexLimits &limits,
                                        const std::atomic<bool> &cancel,
                                        const std::function<void(quint64, quint64)> &progress);
