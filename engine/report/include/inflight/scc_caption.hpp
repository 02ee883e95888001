// SPDX-License-Identifier: GPL-3.0-or-later
// The words on an SCC's hull in the graph: its verdict and, when alive, what keeps it alive,
// short enough to read on a projector beside the SCC (the narration says it in full).
#pragma once

#include "inflight/graph_snapshot.hpp"

#include <string>

namespace inflight {

// "SCC of u0 · judging", "SCC of u0 · dead", "SCC of a · alive: fd a holds a",
// "ring of u3 · alive: u4's file is with u5, other scc_index" (the fast path judges a ring).
std::string scc_caption(const GraphSnapshot &g, const SnapshotScc &scc);

} // namespace inflight
