// SPDX-License-Identifier: GPL-3.0-or-later
// What the docks show at one step, taken from the model in one pass as plain values: the
// collector's lists in order, the hitlist, the walk's stacks, the globals, the labels. A view
// reads it while the model moves on (or is replaced by a checkpoint restore) and never sees a
// half-moved state. It costs what is shown: the lists, stacks and hitlist are copied, the
// labels of every socket are shared between the snapshots of one run (SocketLabels), and the
// inspector's fields are taken for one socket only (socket_detail.hpp). The graph panel's
// picture of every socket is GraphSnapshot (graph_snapshot.hpp), taken when the panel paints.
#pragma once

#include "inflight/event.hpp"
#include "inflight/gc_era.hpp"
#include "inflight/gc_phase.hpp"
#include "inflight/graph_snapshot.hpp"
#include "inflight/name_pool.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace inflight {

class Kernel;
class Simulation;
struct SkBuff;

// Every socket's label by id, shared between the snapshots of one run. A socket keeps the label
// it was created with and never leaves the kernel's table, so the table of a later step shares
// every full chunk with the one before, and an unchanged table is the same object.
class SocketLabels {
public:
    // The labels of k's sockets. `previous` (may be null) must come from the same run, at any
    // step: its full chunks are reused, and it is returned as is when nothing was added.
    static std::shared_ptr<const SocketLabels> of(const Kernel &k, std::shared_ptr<const SocketLabels> previous);
    std::size_t size() const { return size_; }
    // "?" for a socket the run has not made (yet), like Kernel::label_of_id().
    std::string_view operator[](std::uint32_t sock) const;

private:
    static constexpr std::size_t kChunk = 256;
    // Each socket's name id in names_, a copy of the kernel's pool (a copy shares its memory):
    // a million labels as strings would be copied per snapshot; their ids are 4 bytes each.
    NamePool names_;
    std::vector<std::shared_ptr<const std::vector<std::uint32_t>>> chunks_;
    std::size_t size_ = 0;
};

// A socket on one of the classic collector's lists, or the restore walk's cursor.
struct ListEntry {
    std::uint32_t sock = npos; // npos: the cursor (a dummy list node, like the kernel's)
    long inflight = 0;         // u->inflight
    long file_refs = 0;        // file_count()
    std::uint8_t gc_flags = 0; // UNIX_GC_CANDIDATE | UNIX_GC_MAYBE_CYCLE
    GcRole role = GcRole::idle;
    bool is_cursor() const { return sock == npos; }
};

// An skb as the docks name it: its id, the sockets whose files it carries, where it is.
struct SkbEntry {
    std::uint32_t id = 0;
    std::uint64_t len = 0;
    std::vector<std::uint32_t> carried; // socket ids of the files it carries; npos: not a socket's
    std::uint32_t receiver = npos;      // the queue it was sent to (kept on the hitlist)
    std::uint32_t sender = npos;
    // A connect() request on a listener: the embryo it brings (skb->sk, when not the receiver).
    std::uint32_t connecting = npos;
    bool oob = false;      // the MSG_OOB byte
    bool oob_mark = false; // it is the receiver's u->oob_skb
    bool consumed = false;
    std::uint8_t users = 1;
};

SkbEntry skb_entry(const SkBuff &skb);

// A vertex on the graph walk's stack (bottom first).
struct VertexEntry {
    std::uint32_t sock = npos;
    long index = 0, scc_index = 0;
    long out_degree = 0;
    GcRole role = GcRole::idle;
};

// An edge on the graph walk's edge stack (bottom first).
struct EdgeEntry {
    std::uint32_t from = npos; // the socket whose file is carried
    std::uint32_t to = npos;   // the socket whose receive queue holds the skb
    // unix_edge_successor(): an unaccepted embryo's queue counts as its listener's.
    std::uint32_t effective_to = npos;
};

struct UserInflight {
    std::string name;
    unsigned long unix_inflight = 0;
};

// The collector's globals, as the lists dock shows them.
struct CollectorGlobals {
    unsigned long unix_tot_inflight = 0;
    bool gc_in_progress = false; // the kernel's flag (queued or running)
    bool graph_maybe_cyclic = false, graph_grouped = false;
    unsigned long unvisited_index = 0, grouped_index = 0, max_scc_index = 0;
    std::size_t hitlist_size = 0;
    // root first, then every user with fds in flight, in the kernel's order
    std::vector<UserInflight> users;
};

struct TaskEntry {
    std::string name;
    std::uint32_t cpu = 0;
};

struct StepSnapshot {
    std::uint64_t position = 0; // the step it was taken at
    GcEra era = GcEra::async;
    std::string profile; // the kernel profile's name ("6.9")
    AutobindMode autobind = AutobindMode::random;
    std::uint32_t current_line = 0; // the scene line the step belongs to (its task's statement)
    // A collection has begun and not ended (Simulation::gc_in_progress()), its number (0: none
    // yet), and where it is.
    bool collection_running = false;
    std::uint32_t collection = 0;
    GcPhase gc_phase = GcPhase::none;
    bool concurrent = false;
    std::vector<TaskEntry> tasks; // by task id

    CollectorGlobals globals;
    std::vector<ListEntry> gc_inflight_list, gc_candidates, not_cycle_list; // in list order
    std::vector<SkbEntry> hitlist;
    std::vector<VertexEntry> vertex_stack;
    std::vector<EdgeEntry> edge_stack;
    // During a fast-path collection: each vertex's socket -> its scc_prev's socket, the rings
    // the last full walk grouped (the SCC list reads a ring's members from them).
    std::unordered_map<std::uint32_t, std::uint32_t> scc_prev;

    std::size_t sockets = 0; // sockets the run has made so far (ids 0..sockets-1)
    std::shared_ptr<const SocketLabels> labels;
    // The sockets the last collection left though no fd reaches them, with why
    // (Kernel::leaked); shared with the previous snapshot while unchanged.
    std::shared_ptr<const std::map<std::uint32_t, std::string>> leaked;

    std::string_view label(std::uint32_t sock) const { return labels ? (*labels)[sock] : std::string_view("?"); }
    const std::vector<ListEntry> *list(ListId id) const;
    bool is_leaked(std::uint32_t sock) const { return leaked && leaked->count(sock); }
};

// The snapshot of `sim` at its current step. `previous` (may be null): a snapshot of the same
// run, whose labels and leaked marks are shared where unchanged.
StepSnapshot snapshot_step(const Simulation &sim, const StepSnapshot *previous = nullptr);

} // namespace inflight
