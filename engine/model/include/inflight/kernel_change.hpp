// SPDX-License-Identifier: GPL-3.0-or-later
// The named kernel changes the model knows: the commits that changed what the AF_UNIX garbage
// collector does (or what a scene can observe around it), each with its id, the release it
// landed in and whether the model acts on it. A kernel profile (kernel_profile.hpp) is a set of
// these; `set fix NAME on|off` turns one over.
#pragma once

#include <bitset>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace inflight {

enum class KernelChange : std::uint8_t {
    limit_inflight,   // 2.6.37: a sendmsg collection once more than 16,000 are in flight
    no_default_creds, // 3.2: pid and creds only for SO_PASSCRED
    msg_oob,          // 5.15: MSG_OOB on stream sockets (before: EOPNOTSUPP)
    peek_gc_lock,     // 5.14: MSG_PEEK waits out a running collection (CVE-2021-0920)
    per_hash_locks,   // 5.17: per-bucket table locks instead of unix_table_lock
    random_autobind,  // 5.17: autobind starts at a random name
    iouring_no_send,  // 6.7: io_uring fds cannot be sent (CVE-2023-6531)
    // after 4.4: the classic collector builds the hitlist before restoring not_cycle_list
    classic_hitlist_first,
    oob_gc_kfree, // 6.8: the classic collector drops a garbage socket's oob_skb
    // 6.8: the post-purge OOB loop always takes the first candidate (CVE-2024-26780)
    oob_gc_first_socket,
    // 6.8: oob_skb dropped in the hitlist loop, before the purge (CVE-2024-26750)
    oob_gc_before_purge,
    connect_gc_race,   // 6.9: the collector locks listening candidates (CVE-2024-26923)
    gc_async,          // 6.9: the classic collector runs as a work item
    remove_iouring_gc, // 6.9: no io_uring loop; leftovers WARN and stay on gc_candidates
    // 6.9: a recv that skips an unread OOB byte clears u->oob_skb (CVE-2024-35970)
    oob_stale_clear,
    graph_gc,           // 6.10: vertices, edges and Tarjan's SCC walk
    embryo_oob_gc,      // 6.10: the graph collector drops an embryo's oob_skb too
    fpl_dead,           // 6.10: unix_del_edges() leaves a dead list's successor alone
    walk_uninit,        // 6.10: no backtrack through the list head after an SCC
    oob_no_skb_get,     // 6.12: oob_skb holds no reference of its own
    splice_no_checksum, // 6.13: no software checksum on pages spliced into AF_UNIX
    so_passrights,      // 6.16: SO_PASSRIGHTS
    init_scc_index,     // 6.18: a new vertex gets a fresh scc_index (CVE-2025-40214)
    schedule_gc,        // 6.19: unix_schedule_gc(), unix_graph_state, cyclic SCCs counted
    peek_seqcount,      // 7.0: the collector gives up an SCC a MSG_PEEK touched (CVE-2026-23394)
    gc_in_progress_set, // 7.1: gc_in_progress set inside unix_gc()
    unify_scc_index,    // 7.2: one scc_index for every vertex of a finalised SCC
    count_
};
inline constexpr std::size_t kKernelChangeCount = static_cast<std::size_t>(KernelChange::count_);

struct KernelVersion {
    std::uint16_t major = 0;
    std::uint16_t minor = 0;
    std::uint16_t patch = 0; // only where the release is a 2.6.x one
    friend constexpr auto operator<=>(KernelVersion, KernelVersion) = default;
};

struct KernelChangeInfo {
    KernelChange id;
    std::string_view name;    // "unify-scc-index", as `set fix` spells it
    std::string_view commit;  // 12 hex digits of the mainline commit; "" when not found yet
    std::string_view subject; // the commit's subject line
    KernelVersion since;      // the first mainline release with it
    std::string_view summary; // one line: what changes, in the model's words
    // What the model does with it: "" when it acts on the change; otherwise why it cannot
    // yet (the change is listed, `set fix` on it is an error).
    std::string_view not_modelled;
    bool era = false; // the change is a collector itself: `set gc` picks it, not `set fix`
};

std::span<const KernelChangeInfo> kernel_change_table(); // indexed by KernelChange
const KernelChangeInfo &kernel_change_info(KernelChange c);
std::optional<KernelChange> kernel_change_by_name(std::string_view name);

// A set of changes that are in.
class KernelChanges {
public:
    bool has(KernelChange c) const { return bits_.test(static_cast<std::size_t>(c)); }
    void set(KernelChange c, bool on) { bits_.set(static_cast<std::size_t>(c), on); }
    friend bool operator==(const KernelChanges &, const KernelChanges &) = default;

private:
    std::bitset<kKernelChangeCount> bits_;
};

// `set fix NAME on|off` lines, in order: the ones a scene turned over from its profile.
class KernelChangeOverrides {
public:
    void set(KernelChange c, bool on)
    {
        given_.set(static_cast<std::size_t>(c));
        value_.set(static_cast<std::size_t>(c), on);
    }
    std::optional<bool> get(KernelChange c) const
    {
        const auto i = static_cast<std::size_t>(c);
        return given_.test(i) ? std::optional<bool>(value_.test(i)) : std::nullopt;
    }
    bool empty() const { return given_.none(); }
    void apply_to(KernelChanges &changes) const
    {
        for (std::size_t i = 0; i < kKernelChangeCount; ++i)
            if (given_.test(i))
                changes.set(static_cast<KernelChange>(i), value_.test(i));
    }
    friend bool operator==(const KernelChangeOverrides &, const KernelChangeOverrides &) = default;

private:
    std::bitset<kKernelChangeCount> given_;
    std::bitset<kKernelChangeCount> value_;
};

} // namespace inflight
