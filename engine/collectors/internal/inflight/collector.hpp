// SPDX-License-Identifier: GPL-3.0-or-later
// The era-specific half of the model. The socket code (Kernel) calls these hooks at the moments
// the kernel of that era does its GC bookkeeping; collect() is the collection itself.
#pragma once

#include "inflight/gc_era.hpp"
#include "inflight/proc.hpp"

#include <memory>

namespace inflight {

class Kernel;
struct ScmFpList;
struct SkBuff;
struct UnixSock;

class Collector {
public:
    explicit Collector(Kernel &k) : k_(k) { }
    virtual ~Collector() = default;
    Collector(const Collector &) = delete;
    Collector &operator=(const Collector &) = delete;

    virtual GcEra era() const = 0;
    // The same collector, with whatever it remembers between collections, for a copy of the
    // kernel state (a checkpoint).
    virtual std::unique_ptr<Collector> clone_for(Kernel &k) const = 0;

    // unix_attach_fds(), before the skb is queued. Classic: unix_inflight() per file.
    virtual Proc attach(ScmFpList &fpl) = 0;
    // The skb was queued to `receiver` (scm_stat_add). Graph: unix_add_edges().
    virtual Proc enqueued(SkBuff &skb, UnixSock &receiver) = 0;
    // recvmsg() took the skb off the queue (scm_stat_del). Graph: unix_del_edges().
    virtual Proc dequeued(SkBuff &skb) = 0;
    // unix_detach_fds(): at recvmsg, or in the skb destructor. Classic: unix_notinflight() per
    // file; graph: unix_destroy_fpl() (unix_del_edges() if still in the graph).
    virtual Proc detach(ScmFpList &fpl) = 0;
    // accept() handed the embryo to user space. Graph: unix_update_edges().
    virtual Proc accepted(UnixSock &embryo) = 0;
    // One collection: classic/async __unix_gc() body, graph __unix_gc().
    virtual Proc collect() = 0;

    // What `expect inflight` compares: u->inflight (classic, async) or out_degree (graph).
    virtual long inflight_of(const UnixSock &u) const = 0;
    // A collection that can never end (the kernel's collecting task spins for ever): no other
    // collection starts, and the model does not wait for this one.
    virtual bool hung() const { return false; }

protected:
    Kernel &k_;
};

} // namespace inflight
