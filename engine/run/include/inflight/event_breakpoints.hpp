// SPDX-License-Identifier: GPL-3.0-or-later
// The debugger's event breakpoints: stop when a collection starts, the hitlist gets its first
// skb, an invariant breaks, a statement fails, a named socket becomes a candidate or is found
// garbage. Part of StopConditions, which the app, the CLI and the reverse search all evaluate.
//
// The last two mean the same thing in every era, so each is read off the era's own events:
//   becomes a candidate  classic/async: moved from gc_inflight_list to gc_candidates;
//                        graph, Tarjan: its vertex is entered (vertex_visit);
//                        graph, fast path: the SCC ring it belongs to is taken up (scc_found);
//                        the fast path yields no event per vertex before judging it.
//   found garbage        classic/async: its children are scanned for the hitlist (once, at the
//                        first embryo for a listener); graph: the verdict on its SCC is dead
//                        (scc_verdict), not a single vertex_dead, which an SCC may still overrule.
#pragma once

#include <cstdint>
#include <string>

namespace inflight {

class Kernel;
struct Event;
struct UnixSock;

enum class EventBreak : std::uint8_t {
    none,
    collection_starts,
    hitlist_non_empty,
    invariant_violated,
    statement_fails,
    becomes_candidate,
    found_garbage,
};

struct EventBreakpointSet {
    bool collection_starts = false;
    bool hitlist_non_empty = false; // an skb moves to the hitlist
    bool invariant_violated = true; // a finding
    bool statement_fails = false;   // a syscall returns an error
    std::string becomes_candidate;  // a socket label ("" = off)
    std::string found_garbage;      // a socket label ("" = off)

    // Which breakpoint the step just taken (e, k the state after it) hits, if any.
    EventBreak check(const Event &e, const Kernel &k) const;
    // "a collection starts", "b is found garbage"
    std::string describe(EventBreak b) const;
};

// The two socket predicates, for callers that know the socket already (see above).
bool becomes_candidate(const Event &e, const Kernel &k, const UnixSock &u);
bool found_garbage(const Event &e, const Kernel &k, const UnixSock &u);

} // namespace inflight
