// SPDX-License-Identifier: GPL-3.0-or-later
// The active collector as short pseudo-code in our own words (kernel function names kept), and
// the ids of its lines: every collector event carries the line it executes, so a player can
// highlight it. unix_autobind() has a listing of its own per generation (set autobind): its
// probes carry their lines too, so a bind can be stepped through like a collection.
#pragma once

#include "inflight/event.hpp"
#include "inflight/gc_era.hpp"
#include "inflight/scene.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace inflight {

enum class AlgoLine : std::uint16_t {
    none = 0,
    // classic and async
    classic_begin,
    classic_select_loop,
    classic_select_check,
    classic_select_move,
    classic_dec_loop,
    classic_dec_scan,
    classic_dec_inflight,
    classic_restore_loop,
    classic_restore_check,
    classic_restore_move,
    classic_restore_scan,
    classic_restore_inc,
    classic_restore_move_tail,
    classic_hitlist_loop,
    classic_hitlist_scan,
    classic_hitlist_inc,
    classic_hitlist_move,
    classic_not_cycle_restore,
    classic_purge,
    classic_oob_loop, // 6.8-rc: the loop after the purge that drops leftovers' oob_skb
    classic_end,
    // graph
    graph_begin,
    graph_skip,
    graph_fast_or_full,
    graph_walk_loop,
    graph_enter,
    graph_edge_loop,
    graph_tree_edge,
    graph_backtrack,
    graph_back_edge,
    graph_root_check,
    graph_scc_cut,
    graph_unify,
    graph_vertex_dead,
    graph_collect,
    graph_cyclic,
    graph_swap_marks,
    graph_fast_loop,
    graph_fast_dead,
    graph_purge,
    graph_end,
    // unix_autobind() (every generation has each line, in its own words)
    autobind_begin,
    autobind_start,   // where the search starts
    autobind_next,    // the next number and its name
    autobind_lock,    // the table lock(s)
    autobind_lookup,  // __unix_find_socket_byname(): the name is free
    autobind_taken,   // taken: unlock, cond_resched(), next
    autobind_give_up, // the generation's stop test: -ENOSPC (or, v1, never)
    autobind_bound,   // free: hashed under the new name, return 0
};

struct ListingLine {
    AlgoLine id;
    int indent;
    std::string_view text;
};

// The listing of the collector of `era` (classic and async share one, with async's queue line).
const std::vector<ListingLine> &algorithm_listing(GcEra era);
// unix_autobind() of one generation.
const std::vector<ListingLine> &autobind_listing(AutobindMode mode);
bool is_autobind_line(std::uint16_t line);
// The listing `line` belongs to: unix_autobind()'s for its lines, else the collector's.
const std::vector<ListingLine> &listing_of_line(std::uint16_t line, GcEra era, AutobindMode mode);
// The listing line an event shows (0: none): its own tag, else a collection's first and last
// line and the purge's, which the kernel code paths that emit them do not tag.
std::uint16_t listing_line_of(const Event &e, GcEra era);

} // namespace inflight
