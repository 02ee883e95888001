// SPDX-License-Identifier: GPL-3.0-or-later
// struct sk_buff and struct scm_fp_list, reduced to what the collectors look at.
#pragma once

#include "inflight/edge_pool.hpp"
#include "inflight/intrusive.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace inflight {

struct File;
struct UnixSock;
struct User;
struct UnixEdge;

inline constexpr int SCM_MAX_FD = 253;

// UNIXCB(skb).fp: the files a message carries. Each non-null entry holds one file reference.
struct ScmFpList {
    std::vector<File *> fp; // entries are set to nullptr as scm_destroy() drops them
    short count_unix = 0;   // entries that are AF_UNIX sockets (6.9+)
    User *user = nullptr;   // the sending user, charged in user->unix_inflight
    // graph era (6.10+)
    bool inflight = false; // edges are in the graph (between enqueue and dequeue)
    bool dead = false;     // set on hitlist skbs before the purge (7172dc93d621)
    EdgeArray edges;       // from the kernel's EdgePool (edge_pool.hpp)

    // Kernel::live_fp_lists, for the refcount invariant. auto_unlink: a send-time cookie that
    // dies with its coroutine frame (a Simulation destroyed mid-send) leaves the list itself.
    bi::list_member_hook<bi::link_mode<bi::auto_unlink>> registry_hook;
    int count() const { return static_cast<int>(fp.size()); }
};

struct SkBuff {
    std::uint32_t id = 0;
    std::uint32_t slot = 0; // position in the kernel's skb storage (for a state copy)
    std::uint64_t len = 0;
    bool oob = false;                        // the MSG_OOB byte (u->oob_skb of the receiver)
    bool consumed = false;                   // an OOB byte already read: skipped and freed by the reader
    std::uint8_t users = 1;                  // skb->users: up to 6.11 u->oob_skb holds a second one
    UnixSock *sk = nullptr;                  // skb->sk: for a connect() skb on a listener, the embryo
    UnixSock *sender = nullptr;              // the socket that sent it (for the views)
    UnixSock *queue_owner = nullptr;         // whose sk_receive_queue holds it (nullptr on the hitlist)
    UnixSock *receiver = nullptr;            // the queue it was sent to (kept on the hitlist, for the views)
    std::uint32_t creds_owner = 0xFFFFFFFFu; // creds-by-default: the process whose pid/cred it holds
    std::unique_ptr<ScmFpList> fp;           // UNIXCB(skb).fp
    SafeHook hook;                           // receive queue or hitlist
};

using SkbQueue = bi::list<SkBuff, bi::member_hook<SkBuff, SafeHook, &SkBuff::hook>, bi::constant_time_size<true>>;

} // namespace inflight
