// SPDX-License-Identifier: GPL-3.0-or-later
// struct unix_sock with the fields the collectors of every era read.
#pragma once

#include "inflight/event.hpp"
#include "inflight/intrusive.hpp"
#include "inflight/scene.hpp"
#include "inflight/sk_buff.hpp"
#include "inflight/sock_state.hpp"

#include <cstdint>
#include <string>

namespace inflight {

struct File;
struct User;
struct UnixVertex;

// u->link, shared by gc_inflight_list, gc_candidates and not_cycle_list as in the kernel. The
// restore walk's cursor is a GcLink that is not a socket, exactly like the kernel's dummy node.
struct GcLink {
    SafeHook link;
    ListId on = ListId::none; // which list the hook is on (the kernel finds out by walking)
    bool is_cursor = false;
};
using GcList = bi::list<GcLink, bi::member_hook<GcLink, SafeHook, &GcLink::link>, bi::constant_time_size<true>>;

struct UnixSock : GcLink {
    // Field order packs the struct (112 bytes): a 2^20-bind scene holds a million sockets. The
    // flags are bit-fields that fit in the two bytes GcLink leaves free before `id`.
    SockType type : 2 = SockType::stream;
    SockState state : 3 = SockState::unconnected;
    FreedBy freed_by : 2 = FreedBy::none;
    bool released : 1 = false;     // unix_release_sock() has run
    bool shutdown : 1 = false;     // sk_shutdown == SHUTDOWN_MASK
    bool passcred : 1 = false;     // SO_PASSCRED
    bool passrights : 1 = true;    // SO_PASSRIGHTS (6.16+)
    std::uint8_t gc_flags : 2 = 0; // UNIX_GC_CANDIDATE | UNIX_GC_MAYBE_CYCLE (classic)
    // For the views, not the kernel: a collection judged it garbage. The purge takes its lists,
    // flags and vertex away before unix_release_sock() runs; this keeps it shown as garbage
    // until then (cleared at release).
    bool judged_garbage : 1 = false;
    // sk_err == ECONNRESET: its stream or seqpacket peer was released with data unread (or was
    // an embryo). The next call that reads the error (sock_error()) returns it, and clears it.
    bool conn_reset : 1 = false;
    // sock_error(): the pending ECONNRESET, read once.
    bool take_conn_reset()
    {
        const bool pending = conn_reset;
        conn_reset = false;
        return pending;
    }
    std::uint32_t id = 0;
    // What the graph walk reads of every edge's receiver and every vertex's socket (id,
    // listener, vertex, file) sits together right after the flags: a walk over 32,000 vertices
    // is bound by cache misses, and these four then share one line, or two at worst.
    UnixSock *listener = nullptr;  // graph era: set on an unaccepted embryo
    UnixVertex *vertex = nullptr;  // graph era: non-null while in flight
    File *file = nullptr;          // sk->sk_socket->file; nullptr for an embryo
    std::uint32_t label = 0;       // name id in Kernel::name_pool
    std::uint32_t address = npos;  // index into Kernel::addresses (abstract name), npos = none
    std::uint32_t owner = 0;       // index into Kernel::users: the user that created it
    std::uint32_t nr_fds = 0;      // scm_stat.nr_fds
    std::uint32_t nr_unix_fds = 0; // scm_stat.nr_unix_fds (graph era)
    std::int32_t inflight = 0;     // classic: u->inflight (an unsigned long in the kernel)

    UnixSock *peer = nullptr;  // unix_peer(sk); for an embryo, its client
    SkBuff *oob_skb = nullptr; // u->oob_skb

    CopiedEmpty<SkbQueue> receive_queue; // sk->sk_receive_queue
};
static_assert(sizeof(void *) != 8 || sizeof(UnixSock) == 112, "UnixSock: 112 bytes, see above");

} // namespace inflight
