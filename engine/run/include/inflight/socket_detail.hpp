// SPDX-License-Identifier: GPL-3.0-or-later
// Everything the inspector shows about one socket at one step, as plain values: who it is, who
// holds its file, the collector's view of it, its receive queue, where its own file is in
// flight, and why it is alive. Taken for the selected socket only: the scans it needs (which
// queues carry its file, which listener holds an embryo) cost a walk of the state, once per
// shown step, not once per socket.
#pragma once

#include "inflight/graph_snapshot.hpp"
#include "inflight/step_snapshot.hpp"
#include "inflight/why_alive.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace inflight {

struct OpenFd {
    std::string process;
    int fd = 0;
    std::string name; // the scene's name for it ("" when none)
};

// One skb in the socket's receive queue; a connect() request also lists the embryo's own queue.
struct QueuedSkb {
    SkbEntry skb;
    std::vector<SkbEntry> embryo_queue;
};

// A message carrying a copy of the socket's file, and whose queue holds it.
struct FileInFlight {
    std::uint32_t skb = 0;
    std::uint32_t queue_of = npos; // the socket whose receive queue holds it; npos: the hitlist
    int copies = 0;
};

struct SocketDetail {
    std::uint32_t sock = npos;
    std::string label;
    std::vector<std::string> other_labels; // accept() adds the accepted fd's name
    SockType type = SockType::stream;
    SockState state = SockState::unconnected;
    bool released = false;
    FreedBy freed_by = FreedBy::none;
    std::uint32_t peer = npos;
    std::string address;           // the abstract name without '@' ("" when unbound)
    std::string owner;             // the user that created it ("?" when unknown)
    std::uint32_t listener = npos; // an embryo: the listener whose queue holds its request
    std::vector<OpenFd> fds;

    bool has_file = false;
    long file_refs = 0;
    std::uint32_t fd_refs = 0, fp_refs = 0;

    GcRole role = GcRole::idle;
    // classic
    long inflight = 0;
    std::uint8_t gc_flags = 0;
    ListId on = ListId::none;
    // graph
    bool has_vertex = false;
    long out_degree = 0, index = 0, scc_index = 0;
    bool on_visited_list = false;
    int verdict = -1; // this collection's verdict on its SCC: -1 none yet, 0 alive, 1 dead
    std::uint32_t nr_fds = 0, nr_unix_fds = 0;

    std::vector<QueuedSkb> queue; // first to be read first
    std::vector<FileInFlight> in_flight;
    // Not worked out past kWhySockets sockets: a walk over every queue per step would cost
    // more than the step.
    std::optional<WhyAlive> why;
    static constexpr std::size_t kWhySockets = 50'000;
};

// The detail of socket `sock` (nullopt when the run has not made it).
std::optional<SocketDetail> socket_detail(const Kernel &k, std::uint32_t sock);

} // namespace inflight
