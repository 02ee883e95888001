// SPDX-License-Identifier: GPL-3.0-or-later
// The values views read at the position shown that cost too much to take at every step a view
// skips while playing: the graph of every socket, the selected socket's detail and the step's
// narration. Each is taken when first asked for at a position and kept until the position moves
// (the detail also until the selection changes). A value not taken at this position is absent,
// never an older position's: while a seek has the player, what was taken is all there is.
//
// Not part of the StepSnapshot: that is taken once, whole, before any view is told of the
// position; these are taken later, from the live model, only if a view asks.
#pragma once

#include "inflight/graph_snapshot.hpp"
#include "inflight/socket_detail.hpp"

#include <QString>

#include <memory>
#include <optional>

// One value taken when first asked for and kept until forgotten.
template <class T>
class TakenWhenAsked {
public:
    // The value if it was taken, else null.
    const T *peek() const { return value_ ? &*value_ : nullptr; }
    // The value, taken by take() if it was not yet.
    template <class Take>
    const T &get(Take take)
    {
        if (!value_)
            value_.emplace(take());
        return *value_;
    }
    void forget() { value_.reset(); }

private:
    std::optional<T> value_;
};

struct PositionValues {
    TakenWhenAsked<std::shared_ptr<const inflight::GraphSnapshot>> graph;
    TakenWhenAsked<std::optional<inflight::SocketDetail>> detail; // nullopt: no such socket yet
    TakenWhenAsked<QString> narration;

    // The position shown changed: every value is of the one before.
    void moved()
    {
        graph.forget();
        detail.forget();
        narration.forget();
    }
};
