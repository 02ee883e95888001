// SPDX-License-Identifier: GPL-3.0-or-later
// What the views draw at one step, extracted from the kernel model in one pass: every socket
// with its GC role, one edge per in-flight file copy, and the processes with their open fds.
// Plain values: safe to hand to a layout thread while the model moves on.
#pragma once

#include "inflight/name_pool.hpp"
#include "inflight/scene.hpp"
#include "inflight/sock_state.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace inflight {

class Kernel;
struct UnixSock;
struct UnixVertex;

// The colour a socket gets at this step.
enum class GcRole : std::uint8_t {
    idle,        // not in flight
    inflight,    // in flight (on gc_inflight_list / has a vertex)
    candidate,   // classic: a candidate before the restore walk; graph: on the walk's stack
    maybe_cycle, // classic: still MAYBE_CYCLE during the restore walk
    not_cycle,   // classic: on not_cycle_list; graph: its SCC was judged alive this run
    garbage,     // judged garbage by a collection: through the purge until its release
    released,    // unix_release_sock() has run (drawn faded)
    leaked,      // alive, no process fd reaches it, and the last collection left it
    scc_pending, // graph: its SCC is cut off the stack and unix_vertex_dead() is judging it
};
std::string_view gc_role_name(GcRole r);

// One per socket, a million in the million-bind scene: 36 bytes. Its label is a name id
// (GraphSnapshot::label_of), and the rare text (why a leaked socket was left) is kept beside
// the nodes (GraphSnapshot::why_of).
struct SnapshotNode {
    std::uint32_t sock = 0;
    std::uint32_t label = 0xffffffffu;         // a name id in GraphSnapshot::names (npos: none)
    std::uint32_t listener_sock = 0xffffffffu; // for an unaccepted embryo: its listener's sock id (else npos)
    // unix_peer(sk): the other end of a socketpair or a connection, where this socket's sends
    // land (for an embryo, its client); npos when unconnected.
    std::uint32_t peer = 0xffffffffu;
    std::uint32_t queue = 0;    // skbs in its receive queue
    std::int32_t file_refs = 0; // file_count()
    std::int32_t inflight = 0;  // u->inflight (classic) or out_degree (graph)
    SockType type = SockType::stream;
    SockState state = SockState::unconnected;
    GcRole role = GcRole::idle;
    bool listener = false;
    bool embryo = false; // unaccepted
    std::uint8_t gc_flags = 0;
    // In flight, no process fd reaches it any more, and no collection has judged it (not
    // garbage, leaked or released): a cycle waiting for the collector looks different from a
    // reachable one.
    bool unreachable = false;
};
static_assert(sizeof(SnapshotNode) == 36, "SnapshotNode: a million of them in the million-bind scene");

struct SnapshotEdge {
    std::uint64_t id = 0;           // stable while the copy is in flight: skb id and slot
    std::uint32_t from = 0;         // the socket whose file is carried
    std::uint32_t to = 0;           // the socket whose receive queue holds it
    std::uint32_t effective_to = 0; // `to`, or the listener when `to` is an unaccepted embryo
    std::uint32_t skb = 0;
    bool on_hitlist = false; // the skb is on the collector's hitlist
};

// The graph walk's numbers of a vertex it has visited (graph era, during the walk): what
// Tarjan's walk decides by, kept on the vertex through its SCC's verdict. `index` is the order it was visited in,
// `scc_index` the lowest index it reaches; an SCC is cut off the stack at the vertex whose two
// are equal. `stack_place` counts from the stack's bottom (1: first pushed); 0 once cut off.
struct SnapshotWalkMark {
    std::uint32_t sock = 0;
    std::uint32_t index = 0;
    std::uint32_t scc_index = 0;
    std::uint32_t stack_place = 0;
};

// An SCC of the running graph collection, from the step it is cut off the stack (or its ring
// is taken by the fast path) to the collection's end: its members, and its verdict with what
// kept it alive. The views draw a hull around it.
struct SnapshotScc {
    enum class Verdict : std::uint8_t { judging, alive, dead };
    std::vector<std::uint32_t> members; // socket ids, ascending
    // The member the narration names it by: the walk's root (visited first); on a ring, the
    // first member the fast path took.
    std::uint32_t root = 0;
    Verdict verdict = Verdict::judging;
    bool on_ring = false; // the fast path judges the ring the last full walk left
    // Alive: the member unix_vertex_dead() found alive, the successor its reason names (npos:
    // none) and the reason (graph_gc.cpp's codes, as the scc_verdict event carries them).
    std::uint32_t kept_by = 0xffffffffu;
    std::uint32_t kept_where = 0xffffffffu;
    std::uint8_t kept_reason = 0;
};

struct SnapshotFd {
    std::uint32_t name = 0xffffffffu; // a name id in GraphSnapshot::names; npos: the scene named none
    int fd = 0;
    std::uint32_t sock = 0;
};

struct SnapshotProcess {
    std::uint32_t id = 0;
    std::string name;
    std::string user;
    std::vector<SnapshotFd> fds;
};

struct GraphSnapshot {
    // The run's names (socket labels, fd names), shared with the model state it was taken
    // from: a copy of the pool shares its chunks, where a string per node and per fd would
    // dominate the million-bind scene's snapshot.
    NamePool names;
    std::string_view label_of(const SnapshotNode &n) const
    {
        return n.label < names.size() ? names.str(n.label) : std::string_view();
    }
    // The scene's name for the fd, or "fd<N>" when it named none.
    std::string fd_name(const SnapshotFd &f) const;

    std::vector<SnapshotNode> nodes; // by socket id
    std::vector<SnapshotEdge> edges;
    std::vector<SnapshotProcess> processes;
    // The walk's numbers, for the vertices it has visited, by socket id (empty outside a graph
    // walk).
    std::vector<SnapshotWalkMark> walk_marks;
    const SnapshotWalkMark *walk_mark_of(std::uint32_t sock) const;
    // The SCCs this collection has cut off the stack or taken from a ring, in the order of their
    // smallest member (empty outside a graph collection).
    std::vector<SnapshotScc> sccs;
    // Classic era, from the decrement scan to the hitlist: the socket whose children are being
    // scanned, or the restore walk's cursor just past it (npos: none).
    std::uint32_t classic_scan_subject = 0xffffffffu;
    // Leaked sockets: why the collector left each (for a tooltip), by socket id.
    std::vector<std::pair<std::uint32_t, std::string>> whys;
    std::string_view why_of(std::uint32_t sock) const;
    // Equal keys = the same nodes, edges and fds: no relayout needed (roles may differ).
    std::uint64_t topology_key = 0;
};

GraphSnapshot snapshot_graph(const Kernel &k);
GcRole role_of(const Kernel &k, const UnixSock &u);

// role_of() for many sockets of one state: the walk's vertex stack is indexed once, not once
// per socket. Valid while the state does not move.
class GcRoles {
public:
    explicit GcRoles(const Kernel &k);
    GcRole operator()(const UnixSock &u) const;

private:
    const Kernel &k_;
    std::unordered_set<const UnixVertex *> on_stack_;
};

} // namespace inflight
