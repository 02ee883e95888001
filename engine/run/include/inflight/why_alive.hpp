// SPDX-License-Identifier: GPL-3.0-or-later
// "Why is it alive?": for one socket of a kernel state, the shortest chain of references from a
// process's fd table that keeps it alive, or, when none reaches it, why the collector of the era
// left it (or would leave it), in the kernel's names. A question about a state, answered by the
// collectors themselves: between statements the era's collection runs on a copy of the state
// and its events say what it frees and why it leaves the rest (a prediction, and said so);
// while a collection runs, its own marks and the verdicts it has given so far are the answer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inflight {

class Kernel;
struct Event;

enum class WhyVerdict : std::uint8_t {
    reachable,       // a process fd reaches it: `chain` holds the references
    pending_release, // no reference is left: __fput() (or the embryo's release) has yet to run
    awaiting_gc,     // garbage, or freed in the cascade, by the next collection
    left_by_gc,      // a collection run on this state would leave it: `rule` says why
    gc_running,      // the running collection has not decided about it yet
    released,        // unix_release_sock() has run
};
std::string_view why_verdict_name(WhyVerdict v); // "reachable", "awaiting_gc", ...

// One reference of the chain. Each hop ends at the socket `to`.
struct WhyHop {
    enum class Kind : std::uint8_t {
        fd,      // process `process` has fd `fd` on `to`
        skb,     // skb `skb` in `from`'s receive queue carries `to`'s file (SCM_RIGHTS)
        embryo,  // skb `skb` on listener `from`'s queue is `to`'s connection request
        oob_skb, // u->oob_skb of `from` (off the queue, holding its own reference) carries `to`'s file
    };
    Kind kind = Kind::fd;
    std::uint32_t process = 0xFFFFFFFFu, fd = 0xFFFFFFFFu;
    std::string fd_name;              // the scene's name for that fd, if any
    std::uint32_t from = 0xFFFFFFFFu; // the socket whose queue holds the skb
    std::uint32_t skb = 0xFFFFFFFFu;
    std::uint32_t to = 0xFFFFFFFFu;
    std::string text; // "process main fd 5 (a)", "skb #3 in b's receive queue carries c's file"
};

// One unix_vertex_dead() verdict of a walk, with the values it compared at that micro-step.
struct VertexJudgement {
    std::uint64_t step = 0; // the vertex_dead event's step (0 on a copy)
    std::uint32_t vertex = 0xFFFFFFFFu;
    bool dead = false;
    std::int64_t reason = 0;           // vertex_dead's reason (see describe())
    std::uint32_t where = 0xFFFFFFFFu; // the successor (or receiver not in flight) that decided it
    std::int64_t refs = 0;             // the vertex's file_count
    std::uint64_t out_degree = 0;
    unsigned long scc_index = 0, where_scc_index = 0;
    bool where_in_flight = false;
};

// What a caller that stepped the run saw, and one state cannot tell (see WhyTracker).
struct WhyHistory {
    bool tracked = false;
    std::optional<std::uint64_t> released_step;        // the sock_release event
    std::optional<std::uint64_t> unreachable_since;    // the step since which no fd reaches it
    std::vector<std::uint32_t> runs_while_unreachable; // collections that began since then
    // The running collection's unix_vertex_dead() verdict that kept the socket's SCC, once given
    // (run: the collection's number); the state shows the SCC's verdict only a few steps later.
    std::optional<VertexJudgement> running_alive;
    std::uint32_t running_alive_run = 0;
    // The answer at the last statement end where no fd reached it (a copy can be collected only
    // there): what a micro-step inside a statement falls back on.
    std::optional<std::uint64_t> settled_step;
    WhyVerdict settled_verdict = WhyVerdict::left_by_gc;
    std::string settled_rule, settled_reason;
};

struct WhyAlive {
    std::uint32_t sock = 0xFFFFFFFFu;
    WhyVerdict verdict = WhyVerdict::reachable;
    std::vector<WhyHop> chain; // reachable: from a process fd to the socket
    // A short key of the deciding rule, in the kernel's words: "fd", "not a candidate",
    // "inflight after dec_inflight", "out_degree != file_count", "scc_index mismatch in one SCC",
    // "garbage", "cascade", "graph not maybe_cyclic", "__fput deferred", "close", "gc", ...
    std::string rule;
    std::string reason;                  // the explanation in plain words
    std::vector<std::uint32_t> group;    // the SCC (graph) or the candidates it was judged with
    std::uint32_t culprit = 0xFFFFFFFFu; // the socket whose check failed (graph: the vertex)
    // Is the ruling the collector's known defect (mixed low-point scc_index, spec 5.13)?
    bool scc_index_defect = false;
    std::string chain_text; // the hops joined: "process main fd 5 (a) -> socket a -> ..."
    // Reachable and in flight: what a collection run now would rule about it (rule key and
    // reason as above), e.g. "not a candidate: file_count 2 > inflight 1". Empty otherwise.
    std::string collector_rule, collector_view;
};

WhyAlive why_alive(const Kernel &k, std::uint32_t sock, const WhyHistory *history = nullptr);
// Verdict, chain and reason as a few lines of text (the CLI's `why`, the app's tooltip).
std::string why_text(const Kernel &k, const WhyAlive &w);

// The sockets of this state no process fd reaches that the collector leaves (or left): verdict
// left_by_gc, with its reason. Between collections only (empty while one runs). The reach and
// the collection are computed once for all of them.
struct LeakedSocket {
    std::uint32_t sock = 0xFFFFFFFFu;
    std::string reason;
};
std::vector<LeakedSocket> leaks_of(const Kernel &k);

// Does any process fd reach the socket (through receive queues, embryos and oob_skb)?
bool reachable_from_fds(const Kernel &k, std::uint32_t sock);
// The same for every socket at once, by socket id: one walk from all the processes' fds.
std::vector<bool> sockets_reached_from_fds(const Kernel &k);

// Follows a run step by step for one socket: when it was released, since when no fd reaches it,
// which collections ran after that. Reachability is re-checked after the events that can change
// it; past kLargeScene sockets it is no longer followed (history().tracked turns false: a BFS per
// change of a 32,000-socket scene would cost more than the run) and only the release is kept.
class WhyTracker {
public:
    static constexpr std::size_t kLargeScene = 4096;
    explicit WhyTracker(std::uint32_t sock) : sock_(sock) { history_.tracked = true; }
    void observe(const Event &e, const Kernel &k);
    const WhyHistory &history() const { return history_; }

private:
    std::uint32_t sock_;
    std::uint32_t run_began_unreachable_ = 0xFFFFFFFFu; // the running collection, if it began so
    WhyHistory history_;
};

} // namespace inflight
