// SPDX-License-Identifier: GPL-3.0-or-later
// The points where a race of a scene breaks in (scenes/LANGUAGE.md, "Races").
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace inflight {

// Where a `spawn NAME when POINT SOCK` task breaks in (scenes/LANGUAGE.md, "Races"): right after
// one micro-step of the kernel code another task is running, named by the kernel function it
// belongs to. Each is a place where the real kernel can be preempted, or where another CPU can
// run, between two operations that the bugs of spec 5 separate.
enum class RacePointKind : unsigned char {
    select,  // classic unix_gc(): the candidate check of SOCK (total_refs vs inflight_refs)
    restore, // classic unix_gc(): SOCK leaves gc_candidates for not_cycle_list, before scan_children()
    visit,   // graph __unix_walk_scc(): SOCK's vertex is pushed and given its index
    dead,    // graph unix_scc_dead(): unix_vertex_dead(SOCK) has answered
    connect, // unix_stream_connect() on SOCK: its peer is the new embryo, not yet queued on the listener
    peek,    // unix_peek_fds() on SOCK: scm_fp_dup() has taken the references, nothing installed yet
    scan,    // classic scan_children(): the scan of SOCK's queue (a listener: one embryo's) has begun
    fput,    // fput(): SOCK's last file reference is gone, its __fput deferred (task_work or delayed_fput)
};
std::string_view race_point_name(RacePointKind k); // "select", "restore", ...
std::optional<RacePointKind> race_point_by_name(std::string_view name);
std::string_view race_point_where(RacePointKind k); // one line, in the kernel's words, for messages and docs

std::span<const RacePointKind> race_point_kinds(); // every kind, in the order above

} // namespace inflight
