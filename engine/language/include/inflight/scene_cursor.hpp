// SPDX-License-Identifier: GPL-3.0-or-later
// Walks a scene's statements in execution order, unrolling repeat blocks lazily, so a scene with
// a million iterations costs no more memory than its text. Resumable: the Simulation keeps one.
#pragma once

#include "inflight/name_template.hpp"
#include "inflight/scene.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace inflight {

// How many statements running these executes (repeat bodies unrolled, spawn bodies counted
// where they are spawned); saturates instead of overflowing. The app uses it to decide whether
// a scene is small enough to step into every collection by default.
std::uint64_t unrolled_statements(const std::vector<Statement> &statements);
// Of those, the binds without an address (explicit autobinds), repeat counts multiplied out.
std::uint64_t unrolled_autobinds(const std::vector<Statement> &statements);

class SceneCursor {
public:
    explicit SceneCursor(const std::vector<Statement> &statements);
    // A spawned block's cursor: its statements see the loop variables of the repeat around the
    // spawn as they were when it ran.
    SceneCursor(const std::vector<Statement> &statements, Bindings outer);

    // Advances to the next executable statement (never a repeat itself: its body is entered).
    // Returns false at the end.
    bool next();
    const Statement &current() const;
    const Bindings &bindings() const { return bindings_; }

private:
    struct Frame {
        const std::vector<Statement> *list;
        std::size_t index;      // next statement to look at in *list
        std::int64_t iteration; // for repeat frames; -1 for the top level
        std::int64_t count;
        const Statement *repeat; // nullptr for the top level
    };
    std::vector<Frame> stack_;
    Bindings bindings_;
    const Statement *current_ = nullptr;
};

} // namespace inflight
