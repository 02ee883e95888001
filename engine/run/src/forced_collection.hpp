// SPDX-License-Identifier: GPL-3.0-or-later
// What a collection run now on a copy of this state does: the era's own collector (the scene's
// `gc`, and the work it leaves queued, driven to the end) runs on a copy, and its events are
// kept as a compact record of who was a candidate, what each SCC's verdict was and why, and
// which sockets were released. `why` reads its answers from this record, so every rule of the
// collectors (and every kernel change they consult) is the rule `why` explains.
#pragma once

#include "inflight/event.hpp"
#include "inflight/sock_state.hpp"
#include "inflight/why_alive.hpp"

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace inflight {

class Kernel;

struct ForcedCollection {
    // A copy needs a quiescent state (Kernel::quiescent()): mid-statement or mid-collection
    // nothing runs and the record stays empty.
    bool ran = false;
    bool began = false;            // gc_begin was seen (a hung collector starts none)
    bool graph_not_cyclic = false; // the run skipped its walk: unix_graph_maybe_cyclic was false
    bool fast_path = false;        // graph: unix_walk_scc_fast() judged the rings of the last walk
    std::uint32_t run = 0;         // the number the run would have

    // Every sock_release of the run and of the work it left (deferred fputs), with the cause the
    // copy recorded (gc: the purge dropped its last reference; cascade: a released socket's queue
    // purge did; close: a release that was already on its way).
    std::unordered_map<std::uint32_t, FreedBy> freed;
    // Released by the work already queued alone, no collection run (see doomed_by_pending()).
    std::unordered_set<std::uint32_t> doomed;

    // classic: select_candidates(), dec_inflight, the restore walk
    struct Check {
        bool candidate = false;
        std::int64_t refs = 0, inflight = 0; // file_count and inflight at the check
        std::int64_t after_dec = 0;          // inflight after dec_inflight
        bool restored = false;               // moved to not_cycle_list by the restore walk
        std::uint32_t restored_by = npos;    // the candidate whose scan gave its inflight back first
    };
    std::unordered_map<std::uint32_t, Check> checks;
    std::vector<std::uint32_t> candidates; // in the order select_candidates() took them

    // graph: each SCC judged, in the order the walk judged it
    struct Scc {
        std::vector<std::uint32_t> members;
        bool dead = false;
        std::optional<VertexJudgement> alive_by;
    };
    std::vector<Scc> sccs;
    std::unordered_map<std::uint32_t, std::size_t> scc_of;

    bool judged_garbage(std::uint32_t sock) const;
};

// Copies k, runs a collection on the copy as the scene's `gc` statement runs one (force_gc(),
// the caller's task work, then the queued work) and records it. k is left untouched.
ForcedCollection force_collection(const Kernel &k);

// A vertex_dead event read with the state of its micro-step (the scc_index values compared).
VertexJudgement judgement_of(const Event &vertex_dead, const Kernel &k);
// The members of the SCC whose ring v's vertex is on (linked before its verdicts are given).
std::vector<std::uint32_t> scc_ring_of(const Kernel &k, std::uint32_t sock);

} // namespace inflight
