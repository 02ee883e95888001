// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/algorithm_listing.hpp"

namespace inflight {

namespace {

const std::vector<ListingLine> kClassic{
    {AlgoLine::classic_begin, 0, "unix_gc():  (6.9: __unix_gc() in a kworker)"},
    {AlgoLine::classic_select_loop, 1, "for u in gc_inflight_list:"},
    {AlgoLine::classic_select_check, 2, "if file_count(u) == u->inflight:   # every ref is in flight"},
    {AlgoLine::classic_select_move, 3, "move u to gc_candidates; set CANDIDATE, MAYBE_CYCLE"},
    {AlgoLine::classic_dec_loop, 1, "for u in gc_candidates:"},
    {AlgoLine::classic_dec_scan, 2, "scan_children(u):   # listener: its embryos' queues"},
    {AlgoLine::classic_dec_inflight, 3, "dec_inflight(child) for each candidate child in u's queue"},
    {AlgoLine::classic_restore_loop, 1, "cursor walk over gc_candidates:"},
    {AlgoLine::classic_restore_check, 2, "if u->inflight > 0:   # referenced from outside"},
    {AlgoLine::classic_restore_move, 3, "move u to not_cycle_list; clear MAYBE_CYCLE"},
    {AlgoLine::classic_restore_scan, 3, "scan_children(u):"},
    {AlgoLine::classic_restore_inc, 4, "inc_inflight_move_tail(child)"},
    {AlgoLine::classic_restore_move_tail, 4, "if child MAYBE_CYCLE: move it to the tail (seen again)"},
    {AlgoLine::classic_hitlist_loop, 1, "for u in gc_candidates:   # all garbage now"},
    {AlgoLine::classic_hitlist_scan, 2, "scan_children(u):"},
    {AlgoLine::classic_hitlist_inc, 3, "inc_inflight(child)   # give the count back"},
    {AlgoLine::classic_hitlist_move, 3, "move each skb carrying a candidate to the hitlist"},
    {AlgoLine::classic_not_cycle_restore, 1, "for u in not_cycle_list: clear CANDIDATE, back to gc_inflight_list"},
    {AlgoLine::classic_purge, 1, "__skb_queue_purge(hitlist)   # unix_notinflight + fput each fd"},
    {AlgoLine::classic_oob_loop, 1, "(6.8-rc) while gc_candidates: kfree_skb(first->oob_skb)   # may spin for ever"},
    {AlgoLine::classic_end, 1, "gc_in_progress = false"},
};

const std::vector<ListingLine> kGraph{
    {AlgoLine::graph_begin, 0, "__unix_gc():   # a kworker"},
    {AlgoLine::graph_skip, 1, "if !unix_graph_maybe_cyclic: done"},
    {AlgoLine::graph_fast_or_full, 1, "if unix_graph_grouped: unix_walk_scc_fast() else unix_walk_scc()"},
    {AlgoLine::graph_walk_loop, 1, "unix_walk_scc(): for v in unvisited vertices: __unix_walk_scc(v)"},
    {AlgoLine::graph_enter, 2, "push v; v.index = v.scc_index = last_index++"},
    {AlgoLine::graph_edge_loop, 2, "for edge v -> w (w = listener's vertex for an embryo):"},
    {AlgoLine::graph_tree_edge, 3, "if w unvisited: push edge, descend into w"},
    {AlgoLine::graph_backtrack, 3, "on return: v.scc_index = min(v.scc_index, w.scc_index)"},
    {AlgoLine::graph_back_edge, 3, "elif w on stack: v.scc_index = min(v.scc_index, w.scc_index)"},
    {AlgoLine::graph_root_check, 2, "if v.index == v.scc_index:   # v is an SCC root"},
    {AlgoLine::graph_scc_cut, 3, "pop the SCC; mark its vertices grouped"},
    {AlgoLine::graph_unify, 3, "(fix unify-scc-index) every member takes v.scc_index"},
    {AlgoLine::graph_vertex_dead, 3, "dead = every member: all edges stay in the SCC and file_count == out_degree"},
    {AlgoLine::graph_collect, 3, "if dead: unix_collect_skb(): splice each member's whole queue to the hitlist"},
    {AlgoLine::graph_cyclic, 3, "else: maybe_cyclic |= unix_scc_cyclic(scc)"},
    {AlgoLine::graph_swap_marks, 2, "swap unvisited/grouped index marks; grouped = true"},
    {AlgoLine::graph_fast_loop, 1, "unix_walk_scc_fast(): for each SCC ring left by the last walk:"},
    {AlgoLine::graph_fast_dead, 2, "if every member is dead: unix_collect_skb()"},
    {AlgoLine::graph_purge, 1, "mark hitlist fpls dead; __skb_queue_purge(hitlist)"},
    {AlgoLine::graph_end, 1, "gc_in_progress = false"},
};

// unix_autobind() per generation (spec 6). A taken name costs one probe event on the "taken"
// line; a free one on the lookup line, then the bind on the last line.
const std::vector<ListingLine> kAutobindSequential{
    {AlgoLine::autobind_begin, 0, "unix_autobind(sk):   # before 2021"},
    {AlgoLine::autobind_start, 1, "static ordernum (starts at 1, shared by every socket); retries = 0"},
    {AlgoLine::autobind_next, 1, "retry: name = \"\\0\" + %05x of ordernum"},
    {AlgoLine::autobind_lock, 1, "spin_lock(unix_table_lock); ordernum = (ordernum + 1) & 0xFFFFF"},
    {AlgoLine::autobind_lookup, 1, "if no socket of this type has the name (__unix_find_socket_byname):"},
    {AlgoLine::autobind_bound, 2, "hash sk under the name; unlock; return 0"},
    {AlgoLine::autobind_taken, 1, "taken: unlock; cond_resched()"},
    {AlgoLine::autobind_give_up, 1, "if retries++ == 0xFFFFF: return -ENOSPC; else goto retry"},
};

const std::vector<ListingLine> kAutobindRandomV1{
    {AlgoLine::autobind_begin, 0, "unix_autobind(sk):   # 2021 patch, v1"},
    {AlgoLine::autobind_start, 1, "initnum = ordernum = prandom_u32()   # all 32 bits"},
    {AlgoLine::autobind_next, 1, "retry: ordernum = (ordernum + 1) & 0xFFFFF; name = \"\\0\" + %05x"},
    {AlgoLine::autobind_lock, 1, "unix_table_double_lock(old bucket, new bucket)"},
    {AlgoLine::autobind_lookup, 1, "if no socket of this type has the name (__unix_find_socket_byname):"},
    {AlgoLine::autobind_bound, 2, "rehash sk under the new bucket; unlock; return 0"},
    {AlgoLine::autobind_taken, 1, "taken: unlock; cond_resched()"},
    {AlgoLine::autobind_give_up, 1, "if ordernum == initnum: return -ENOSPC   # never once initnum >= 2^20"},
};

const std::vector<ListingLine> kAutobindRandom{
    {AlgoLine::autobind_begin, 0, "unix_autobind(sk):   # merged form, 2021-11 on"},
    {AlgoLine::autobind_start, 1, "ordernum = get_random_u32(); lastnum = ordernum & 0xFFFFF"},
    {AlgoLine::autobind_next, 1, "retry: ordernum = (ordernum + 1) & 0xFFFFF; name = \"\\0\" + %05x"},
    {AlgoLine::autobind_lock, 1, "unix_table_double_lock(old bucket, new bucket)"},
    {AlgoLine::autobind_lookup, 1, "if no socket of this type has the name (__unix_find_socket_byname):"},
    {AlgoLine::autobind_bound, 2, "rehash sk under the new bucket; unlock; return 0"},
    {AlgoLine::autobind_taken, 1, "taken: unlock; cond_resched()"},
    {AlgoLine::autobind_give_up, 1, "if ordernum == lastnum: return -ENOSPC   # all 2^20 tried"},
};

} // namespace

const std::vector<ListingLine> &algorithm_listing(GcEra era) { return era == GcEra::graph ? kGraph : kClassic; }

const std::vector<ListingLine> &autobind_listing(AutobindMode mode)
{
    switch (mode) {
    case AutobindMode::sequential: return kAutobindSequential;
    case AutobindMode::random_v1: return kAutobindRandomV1;
    case AutobindMode::random: break;
    }
    return kAutobindRandom;
}

bool is_autobind_line(std::uint16_t line)
{
    return line >= static_cast<std::uint16_t>(AlgoLine::autobind_begin) &&
           line <= static_cast<std::uint16_t>(AlgoLine::autobind_bound);
}

const std::vector<ListingLine> &listing_of_line(std::uint16_t line, GcEra era, AutobindMode mode)
{
    return is_autobind_line(line) ? autobind_listing(mode) : algorithm_listing(era);
}

std::uint16_t listing_line_of(const Event &e, GcEra era)
{
    if (e.algo_line)
        return e.algo_line;
    const bool graph = era == GcEra::graph;
    auto id = [](AlgoLine l) { return static_cast<std::uint16_t>(l); };
    switch (e.kind) {
    case EventKind::gc_begin: return id(graph ? AlgoLine::graph_begin : AlgoLine::classic_begin);
    case EventKind::gc_end: return id(graph ? AlgoLine::graph_end : AlgoLine::classic_end);
    default: break;
    }
    if (e.fn == KFn::skb_queue_purge)
        return id(graph ? AlgoLine::graph_purge : AlgoLine::classic_purge);
    return 0;
}

} // namespace inflight
