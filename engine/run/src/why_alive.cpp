// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/why_alive.hpp"

#include "forced_collection.hpp"

#include "inflight/kernel.hpp"

#include <algorithm>
#include <deque>
#include <unordered_map>
#include <unordered_set>

namespace inflight {

std::string_view why_verdict_name(WhyVerdict v)
{
    switch (v) {
    case WhyVerdict::reachable: return "reachable";
    case WhyVerdict::pending_release: return "pending_release";
    case WhyVerdict::awaiting_gc: return "awaiting_gc";
    case WhyVerdict::left_by_gc: return "left_by_gc";
    case WhyVerdict::gc_running: return "gc_running";
    case WhyVerdict::released: return "released";
    }
    return "?";
}

namespace {

std::string fd_name_of(const Kernel &k, const Process &p, std::size_t fd)
{
    std::string name;
    p.names.for_each([&](std::uint32_t id, int f) {
        if (static_cast<std::size_t>(f) == fd)
            name = std::string(k.name_pool.str(id));
    });
    return name;
}

// A hop as the BFS keeps it: small, since a million-socket scene discovers a million of them.
struct RawHop {
    WhyHop::Kind kind = WhyHop::Kind::fd;
    std::uint32_t process = npos, fd = npos, from = npos, skb = npos;
};

// The sockets a reference in socket x's keeping reaches: the files carried by the skbs of its
// receive queue (a process holding x can recvmsg() them), the embryos queued on a listener
// (accept() hands them out) and u->oob_skb once it is off the queue (up to 6.11 it holds an skb
// reference of its own, so its files live on). unix_peer() is not followed: the peer pointer
// holds a struct sock reference (sock_hold()), never a file reference, and only file references
// keep a socket from unix_release_sock().
template <class F>
void for_each_held(const UnixSock &x, F &&f)
{
    auto carried = [&](const SkBuff &skb, WhyHop::Kind kind) {
        if (!skb.fp)
            return;
        for (const File *file : skb.fp->fp)
            if (file && !file->released && file->sock)
                f(*file->sock, RawHop{kind, npos, npos, x.id, skb.id});
    };
    for (const SkBuff &skb : x.receive_queue) {
        if (skb.sk && skb.sk != &x && skb.sk->state == SockState::embryo && !skb.sk->released)
            f(*skb.sk, RawHop{WhyHop::Kind::embryo, npos, npos, x.id, skb.id});
        carried(skb, WhyHop::Kind::skb);
    }
    if (x.oob_skb && !x.oob_skb->hook.is_linked())
        carried(*x.oob_skb, WhyHop::Kind::oob_skb);
}

// Multi-source BFS from every process fd, in process and fd order: the first chain found to a
// socket is a shortest one. Stops early once `target` is reached (npos: never).
struct Reach {
    std::vector<std::uint32_t> parent; // sock -> the socket it was reached from (npos: an fd)
    std::vector<RawHop> hop;
    std::vector<bool> seen;
};

Reach bfs(const Kernel &k, std::uint32_t target)
{
    Reach r;
    const std::size_t n = k.socks.size();
    r.parent.assign(n, npos);
    r.hop.assign(n, RawHop{});
    r.seen.assign(n, false);
    std::deque<std::uint32_t> queue;
    auto visit = [&](const UnixSock &u, std::uint32_t from, const RawHop &h) {
        if (u.released || r.seen[u.id])
            return false;
        r.seen[u.id] = true;
        r.parent[u.id] = from;
        r.hop[u.id] = h;
        queue.push_back(u.id);
        return u.id == target;
    };
    for (const Process &p : k.processes)
        for (std::size_t fd = 0; fd < p.fds.size(); ++fd)
            if (const File *f = p.fds[fd]; f && !f->released && f->sock)
                if (visit(*f->sock, npos, RawHop{WhyHop::Kind::fd, p.id, static_cast<std::uint32_t>(fd), npos, npos}))
                    return r;
    while (!queue.empty()) {
        const UnixSock &x = k.socks[queue.front()];
        queue.pop_front();
        bool found = false;
        for_each_held(x, [&](const UnixSock &u, const RawHop &h) {
            if (!found && visit(u, x.id, h))
                found = true;
        });
        if (found)
            return r;
    }
    return r;
}

WhyHop make_hop(const Kernel &k, const RawHop &h, std::uint32_t to)
{
    WhyHop w;
    w.kind = h.kind;
    w.process = h.process;
    w.fd = h.fd;
    w.from = h.from;
    w.skb = h.skb;
    w.to = to;
    const std::string to_label = k.label_of_id(to);
    switch (h.kind) {
    case WhyHop::Kind::fd: {
        const Process &p = k.processes[h.process];
        w.fd_name = fd_name_of(k, p, h.fd);
        w.text =
            "process " + p.name + " fd " + std::to_string(h.fd) + (w.fd_name.empty() ? "" : " (" + w.fd_name + ")");
        break;
    }
    case WhyHop::Kind::skb:
        w.text = "skb #" + std::to_string(h.skb) + " in " + k.label_of_id(h.from) + "'s receive queue carries " +
                 to_label + "'s file";
        break;
    case WhyHop::Kind::embryo:
        w.text = "skb #" + std::to_string(h.skb) + " on listener " + k.label_of_id(h.from) +
                 "'s queue is the connection request of embryo " + to_label;
        break;
    case WhyHop::Kind::oob_skb:
        w.text = "u->oob_skb of " + k.label_of_id(h.from) + " (skb #" + std::to_string(h.skb) +
                 ", off the queue, with its own reference) carries " + to_label + "'s file";
        break;
    }
    return w;
}

std::string join_labels(const Kernel &k, const std::vector<std::uint32_t> &ids)
{
    std::string out;
    for (std::uint32_t id : ids)
        out += (out.empty() ? "" : ", ") + k.label_of_id(id);
    return out;
}

std::string refs_breakdown(const Kernel &k, const File &f)
{
    const long fds = k.fd_refs(f), fps = k.fp_refs(f);
    const long other = f.count - fds - fps;
    std::string out = std::to_string(fds) + " from fds, " + std::to_string(fps) + " in SCM_RIGHTS lists";
    if (other > 0)
        out += ", " + std::to_string(other) + " other (a send's cookie or a peek in progress)";
    return out;
}

// The queues a collector scans for a socket's children: its own, or for a listener the queues
// of the embryos it holds (scan_children(); unix_edge_successor() in the graph era).
template <class F>
void for_each_child_queue(const UnixSock &x, F &&f)
{
    if (x.state != SockState::listening) {
        f(x);
        return;
    }
    for (const SkBuff &skb : x.receive_queue)
        if (skb.sk && skb.sk->state == SockState::embryo)
            f(*skb.sk);
}
struct Ruling {
    bool garbage = false;
    std::string rule, reason;
    std::vector<std::uint32_t> group;
    std::uint32_t culprit = npos;
    bool defect = false;
};

// The sockets whose queues (as the collector scans them) hold a copy of u's file.
std::vector<std::uint32_t> holders_of(const Kernel &k, const UnixSock &u)
{
    std::vector<std::uint32_t> out;
    if (!u.file)
        return out;
    for (const UnixSock &x : k.socks) {
        if (x.released)
            continue;
        bool holds = false;
        for_each_child_queue(x, [&](const UnixSock &q) {
            for (const SkBuff &skb : q.receive_queue)
                if (skb.fp && std::find(skb.fp->fp.begin(), skb.fp->fp.end(), u.file) != skb.fp->fp.end())
                    holds = true;
        });
        if (holds)
            out.push_back(x.id);
    }
    return out;
}

// Copies of u's file that no queue scan can see: an skb held only by u->oob_skb after it left
// the queue (up to 6.11 the pointer keeps its own skb reference), or the hitlist.
std::vector<std::string> unscanned_copies(const Kernel &k, const UnixSock &u)
{
    std::vector<std::string> out;
    if (!u.file)
        return out;
    auto carries = [&](const SkBuff &skb) {
        return skb.fp && std::find(skb.fp->fp.begin(), skb.fp->fp.end(), u.file) != skb.fp->fp.end();
    };
    for (const UnixSock &x : k.socks)
        if (x.oob_skb && !x.oob_skb->hook.is_linked() && carries(*x.oob_skb))
            out.push_back("skb #" + std::to_string(x.oob_skb->id) + ", on no queue, held by u->oob_skb of " +
                          k.label_of(x) + " with a reference of its own (up to 6.11)");
    for (const SkBuff &skb : k.hitlist)
        if (carries(skb))
            out.push_back("skb #" + std::to_string(skb.id) + " on the hitlist");
    return out;
}

// ---- the rule a collection's record gives for one socket -----------------------------------

Ruling classic_ruling(const Kernel &k, const UnixSock &u, const ForcedCollection &c)
{
    Ruling out;
    out.group = c.candidates;
    const auto it = c.checks.find(u.id);
    if (it == c.checks.end()) {
        out.rule = "not in flight";
        out.reason = "select_candidates() does not look at it: it is not on gc_inflight_list";
        return out;
    }
    const ForcedCollection::Check &ch = it->second;
    if (!ch.candidate) {
        out.rule = "not a candidate";
        out.culprit = u.id;
        out.reason = "not a candidate: file_count " + std::to_string(ch.refs) + " > inflight " +
                     std::to_string(ch.inflight) + " (" + (u.file ? refs_breakdown(k, *u.file) : std::string()) +
                     "): unix_gc() only considers sockets whose every reference is an in-flight copy";
        return out;
    }
    if (!ch.restored) {
        out.garbage = true;
        out.rule = "garbage";
        out.reason = "a candidate (file_count " + std::to_string(ch.refs) + " == inflight " +
                     std::to_string(ch.inflight) +
                     ") whose every copy sits in a queue of another candidate (inflight 0 after dec_inflight), "
                     "and no candidate referenced from outside reaches it: garbage";
        return out;
    }
    // Alive: up the restore chain to the candidate referenced from outside.
    std::vector<std::uint32_t> path{u.id};
    for (std::uint32_t x = ch.restored_by; x != npos && path.size() <= c.checks.size();) {
        path.push_back(x);
        const auto p = c.checks.find(x);
        x = p == c.checks.end() ? npos : p->second.restored_by;
    }
    const std::uint32_t root = path.back();
    const UnixSock &ru = k.socks[root];
    std::vector<std::uint32_t> outside;
    for (std::uint32_t h : holders_of(k, ru))
        if (std::find(c.candidates.begin(), c.candidates.end(), h) == c.candidates.end())
            outside.push_back(h);
    out.culprit = root;
    out.rule = "inflight after dec_inflight";
    const auto rc = c.checks.find(root);
    std::string why_root = "candidate " + k.label_of(ru) + " would keep inflight " +
                           std::to_string(rc == c.checks.end() ? 0 : rc->second.after_dec) + " after dec_inflight: ";
    if (!outside.empty())
        why_root += "copies of its file sit in the queue of " + join_labels(k, outside) +
                    (outside.size() == 1 ? ", which is not a candidate" : ", which are not candidates");
    else
        why_root += "a copy of its file is held where no candidate's scan_children() reaches";
    for (const std::string &cp : unscanned_copies(k, ru))
        why_root += "; " + cp + ": scan_children() walks receive queues only, so nothing decrements it";
    if (path.size() == 1) {
        out.reason = "a candidate, but the restore walk would judge it alive: " + why_root;
    } else {
        std::string via;
        for (std::size_t i = path.size() - 1; i > 0; --i)
            via += k.label_of_id(path[i]) + " -> ";
        via += k.label_of(u);
        out.reason = "a candidate, but the walk over not_cycle_list would restore it (inc_inflight_move_tail along " +
                     via + "): " + why_root;
    }
    return out;
}

// unix_vertex_dead()'s "alive", in words; lead names the SCC and the vertex ("... because vertex x").
void explain_alive(const Kernel &k, const VertexJudgement &j, const std::string &lead, Ruling &out)
{
    const std::string wl = j.where != npos ? k.label_of_id(j.where) : std::string("?");
    out.culprit = j.vertex;
    switch (j.reason) {
    case 1:
        out.rule = "edge to a receiver not in flight";
        out.reason = lead + " has an edge to " + wl +
                     ", a receiver that is not in flight (no vertex): "
                     "unix_vertex_dead() says alive";
        break;
    case 2:
    case 4: {
        const std::string values = "scc_index " + std::to_string(j.scc_index) + ", but " + wl + " has scc_index " +
                                   (j.where_in_flight ? std::to_string(j.where_scc_index) : std::string("none"));
        if (j.reason == 4) {
            out.rule = "scc_index mismatch in one SCC";
            out.defect = true;
            out.reason = lead + " (" + values + ") has an edge to " + wl +
                         ", a member of the same SCC. __unix_walk_scc() lowers scc_index from the successor's "
                         "scc_index (a low-link), so members of one SCC can end with different values, and "
                         "unix_vertex_dead() compares them: the mixed low-point defect (spec 5.13), fixed by "
                         "\"af_unix: Unify scc_index when finalising SCC\" (set fix unify-scc-index)";
        } else {
            out.rule = "edge to another SCC";
            out.reason = lead + " (" + values + ") has an edge to " + wl +
                         ", in another SCC: a copy of its file sits with a socket the collector does not free with it";
        }
        break;
    }
    case 5:
        out.rule = "peek during the verdict";
        out.reason = lead + " was given up: unix_peek_seq changed while unix_scc_dead() judged the SCC (a MSG_PEEK "
                            "of AF_UNIX fds ran meanwhile), so the SCC waits for the next collection";
        break;
    default: {
        const File *f = k.socks[j.vertex].file;
        out.rule = "out_degree != file_count";
        out.reason = lead + " has out_degree " + std::to_string(j.out_degree) + " != file_count " +
                     std::to_string(j.refs) + " (" + (f ? refs_breakdown(k, *f) : std::string()) +
                     "): a reference outside flight";
        break;
    }
    }
}

Ruling graph_ruling(const Kernel &k, const UnixSock &u, const ForcedCollection &c)
{
    Ruling out;
    if (c.graph_not_cyclic) {
        out.rule = "graph not maybe_cyclic";
        out.reason = "unix_graph_maybe_cyclic is false: __unix_gc() skips the walk (the last walk found no cyclic "
                     "SCC left and no edge into an in-flight receiver was added since)";
        return out;
    }
    const auto s = c.scc_of.find(u.id);
    if (s == c.scc_of.end()) {
        out.rule = "not in flight";
        out.reason = "the walk gives it no verdict: it has no vertex";
        return out;
    }
    const ForcedCollection::Scc &scc = c.sccs[s->second];
    out.group = scc.members;
    const std::string path =
        c.fast_path ? "unix_walk_scc_fast() (on the SCCs of the last Tarjan walk)" : std::string("Tarjan's walk");
    const std::string scc_text = "its SCC {" + join_labels(k, out.group) + "}";
    if (scc.dead) {
        out.garbage = true;
        out.rule = "garbage";
        out.reason = scc_text + " would be dead to " + path +
                     ": every edge of every vertex stays inside the SCC and each file_count equals its out_degree";
        return out;
    }
    if (!scc.alive_by) {
        out.rule = "judged alive";
        out.reason = scc_text + " would be judged alive by " + path;
        return out;
    }
    explain_alive(k, *scc.alive_by,
                  scc_text + " would be judged alive by " + path + " because, in that walk, vertex " +
                      k.label_of_id(scc.alive_by->vertex),
                  out);
    return out;
}

Ruling ruling_of(const Kernel &k, const UnixSock &u, const ForcedCollection &c)
{
    return k.era() == GcEra::graph ? graph_ruling(k, u, c) : classic_ruling(k, u, c);
}

std::string left_runs_text(const WhyHistory &h)
{
    if (h.runs_while_unreachable.empty())
        return "no collection has run since it became unreachable at step " + std::to_string(*h.unreachable_since);
    std::string runs;
    for (std::uint32_t n : h.runs_while_unreachable)
        runs += (runs.empty() ? "#" : ", #") + std::to_string(n);
    return std::string(h.runs_while_unreachable.size() == 1 ? "collection " : "collections ") + runs +
           " ran since it became unreachable at step " + std::to_string(*h.unreachable_since) + " and left it";
}

std::string gc_runs_text(const Kernel &k, const WhyHistory *h)
{
    if (h && h->tracked && h->unreachable_since)
        return left_runs_text(*h) + (h->runs_while_unreachable.empty() ? "" : "; the state has changed since");
    if (k.gc_runs.empty())
        return "no collection has run yet";
    const GcRun &last = k.gc_runs.back();
    return "the last collection, #" + std::to_string(last.number) + ", began at step " +
           std::to_string(last.first_step);
}

// What one state's answers share, computed once when many sockets are asked about (leaks_of()):
// the reach of every fd, and the collection run on a copy.
struct Memo {
    std::optional<Reach> reach;
    std::optional<ForcedCollection> forced;
};

const ForcedCollection &forced_of(const Kernel &k, Memo &memo)
{
    if (!memo.forced)
        memo.forced = force_collection(k);
    return *memo.forced;
}

WhyAlive why_alive_with(const Kernel &k, std::uint32_t sock, const WhyHistory *history, Memo &memo);

} // namespace

bool reachable_from_fds(const Kernel &k, std::uint32_t sock)
{
    if (sock >= k.socks.size() || k.socks[sock].released)
        return false;
    return bfs(k, sock).seen[sock];
}

std::vector<bool> sockets_reached_from_fds(const Kernel &k) { return bfs(k, npos).seen; }

WhyAlive why_alive(const Kernel &k, std::uint32_t sock, const WhyHistory *history)
{
    Memo memo;
    return why_alive_with(k, sock, history, memo);
}

std::vector<LeakedSocket> leaks_of(const Kernel &k)
{
    std::vector<LeakedSocket> out;
    if (k.gc_phase != GcPhase::none)
        return out;
    Memo memo;
    memo.reach = bfs(k, npos);
    for (const UnixSock &u : k.socks) {
        if (u.released || memo.reach->seen[u.id])
            continue;
        const WhyAlive w = why_alive_with(k, u.id, nullptr, memo);
        if (w.verdict == WhyVerdict::left_by_gc)
            out.push_back({u.id, w.reason});
    }
    return out;
}

namespace {

WhyAlive released_answer(const Kernel &k, const UnixSock &u, const WhyHistory *history)
{
    WhyAlive w;
    w.sock = u.id;
    w.verdict = WhyVerdict::released;
    w.rule = std::string(freed_by_name(u.freed_by));
    std::string how;
    switch (u.freed_by) {
    case FreedBy::close: how = "its last file reference was dropped by a close() (or a receive) of user space"; break;
    case FreedBy::gc: how = "the collector purged the skbs that held its last references (hitlist)"; break;
    case FreedBy::cascade: how = "a socket holding its last in-flight copy was released, and purged its queue"; break;
    case FreedBy::none: how = "released"; break;
    }
    w.reason = "released (freed_by " + w.rule + "): " + how;
    if (history && history->released_step)
        w.reason += ", at step " + std::to_string(*history->released_step);
    if ((u.freed_by == FreedBy::gc || u.freed_by == FreedBy::cascade) && history && history->released_step) {
        // The purge's fput() may be deferred to delayed_fput, so the release can come after
        // the run's last step: name the latest collection that began before it.
        const GcRun *by = nullptr;
        for (const GcRun &r : k.gc_runs)
            if (r.first_step <= *history->released_step)
                by = &r;
        if (by)
            w.reason += ", after collection #" + std::to_string(by->number) + " (began at step " +
                        std::to_string(by->first_step) + ", " + by->trigger + ")";
    }
    return w;
}

// A graph collection is running: its verdicts so far (the state's marks, and the one the tracker
// saw unix_vertex_dead() give a moment before the state records it).
void running_graph_answer(const Kernel &k, const UnixSock &u, const WhyHistory *history, const std::string &running,
                          WhyAlive &w)
{
    const int verdict = verdict_of(k, *u.vertex);
    const std::uint32_t run = k.gc_runs.empty() ? 0 : k.gc_runs.back().number;
    const bool seen_alive = history && history->running_alive && history->running_alive_run == run;
    if (verdict < 0 && !seen_alive) {
        w.verdict = WhyVerdict::gc_running;
        w.rule = "not judged yet";
        w.reason = "the running collection has not judged its SCC yet (index " + std::to_string(u.vertex->index) +
                   ", scc_index " + std::to_string(u.vertex->scc_index) + " so far)" + running;
        return;
    }
    w.group = scc_ring_of(k, u.id);
    std::sort(w.group.begin(), w.group.end());
    const std::string scc_text = "its SCC {" + join_labels(k, w.group) + "}";
    if (verdict == 1) {
        w.verdict = WhyVerdict::awaiting_gc;
        w.rule = "garbage";
        w.reason =
            "the running collection judged " + scc_text + " dead: unix_vertex_dead() held for every member" + running;
        return;
    }
    w.verdict = WhyVerdict::left_by_gc;
    if (!seen_alive) {
        w.rule = "judged alive";
        w.reason = "the running collection judged " + scc_text + " alive" + running;
        return;
    }
    const VertexJudgement &j = *history->running_alive;
    Ruling r;
    explain_alive(k, j,
                  "the running collection judged " + scc_text + " alive at step " + std::to_string(j.step) +
                      ": unix_vertex_dead(" + k.label_of_id(j.vertex) + ") returned alive because vertex " +
                      k.label_of_id(j.vertex),
                  r);
    w.rule = r.rule;
    w.culprit = r.culprit;
    w.scc_index_defect = r.defect;
    w.reason = r.reason + running;
}

// A classic collection is running: the marks it has set so far are the answer.
void running_classic_answer(const Kernel &k, const UnixSock &u, const std::string &running, WhyAlive &w)
{
    for (const GcLink &l : k.gc_candidates)
        if (!l.is_cursor)
            w.group.push_back(static_cast<const UnixSock &>(l).id);
    const bool decided = k.gc_phase == GcPhase::hitlist || k.gc_phase == GcPhase::purge;
    if (u.on == ListId::not_cycle_list ||
        (decided && u.on == ListId::gc_inflight_list && u.file->count == u.inflight)) {
        w.verdict = WhyVerdict::left_by_gc;
        w.rule = "inflight after dec_inflight";
        w.reason = "the running collection's restore walk found it referenced from outside the candidates "
                   "(moved to not_cycle_list, MAYBE_CYCLE cleared)" +
                   running;
    } else if (u.on == ListId::gc_candidates && decided) {
        w.verdict = WhyVerdict::awaiting_gc;
        w.rule = "garbage";
        w.reason = "the running collection found it garbage: still on gc_candidates after the restore walk; "
                   "the hitlist takes the skbs that carry it" +
                   running;
    } else if (u.on == ListId::gc_candidates) {
        w.verdict = WhyVerdict::gc_running;
        w.rule = "candidate";
        w.reason = "a candidate of the running collection (gc_flags " +
                   std::string((u.gc_flags & UNIX_GC_MAYBE_CYCLE) ? "CANDIDATE|MAYBE_CYCLE" : "CANDIDATE") +
                   ", inflight " + std::to_string(u.inflight) + " so far): not decided yet" + running;
    } else if (k.gc_phase == GcPhase::select) {
        w.verdict = WhyVerdict::gc_running;
        w.rule = "selecting";
        w.reason = "the running collection is still selecting candidates" + running;
    } else {
        w.verdict = WhyVerdict::left_by_gc;
        w.rule = "not a candidate";
        w.reason = "not a candidate of the running collection: file_count " + std::to_string(u.file->count) +
                   " > inflight " + std::to_string(u.inflight) + running;
    }
}

WhyAlive why_alive_with(const Kernel &k, std::uint32_t sock, const WhyHistory *history, Memo &memo)
{
    WhyAlive w;
    w.sock = sock;
    if (sock >= k.socks.size()) {
        w.verdict = WhyVerdict::released;
        w.rule = "no such socket";
        w.reason = "no socket " + std::to_string(sock) + " at this step";
        return w;
    }
    const UnixSock &u = k.socks[sock];
    if (u.released)
        return released_answer(k, u, history);

    if (!memo.reach)
        memo.reach = bfs(k, sock);
    const Reach &reach = *memo.reach;
    const bool graph = k.era() == GcEra::graph;
    if (reach.seen[sock]) {
        w.verdict = WhyVerdict::reachable;
        w.rule = "fd";
        std::vector<WhyHop> rev;
        for (std::uint32_t x = sock; x != npos; x = reach.parent[x])
            rev.push_back(make_hop(k, reach.hop[x], x));
        w.chain.assign(rev.rbegin(), rev.rend());
        for (const WhyHop &h : w.chain)
            w.chain_text += (w.chain_text.empty() ? "" : " -> ") + h.text + " -> socket " + k.label_of_id(h.to);
        w.reason = w.chain.size() == 1 ? "a process holds an fd on it"
                                       : "a process fd reaches it through " + std::to_string(w.chain.size() - 1) +
                                             " in-flight reference(s): it can still be received";
        // In flight too: what a collection run now rules about it, so the rule that keeps a
        // reachable socket (the fd's reference, counted or not) can be read next to the chain.
        const bool in_flight = graph ? u.vertex != nullptr : u.inflight > 0;
        if (in_flight && u.file) {
            const ForcedCollection &c = forced_of(k, memo);
            if (c.ran && c.began) {
                const Ruling r = ruling_of(k, u, c);
                w.group = r.group;
                w.culprit = r.culprit;
                w.collector_rule = r.rule;
                w.collector_view = "a collection run now: " + r.reason;
            }
        }
        return w;
    }

    // No fd reaches it.
    if (u.state == SockState::embryo) {
        const UnixSock *listener = nullptr;
        for (const UnixSock &l : k.socks)
            if (!l.released && l.state == SockState::listening)
                for (const SkBuff &skb : l.receive_queue)
                    if (skb.sk == &u)
                        listener = &l;
        if (!listener) {
            w.verdict = WhyVerdict::pending_release;
            w.rule = "embryo without listener";
            w.reason = "an embryo on no listener's queue: it goes when its connection request is freed";
            return w;
        }
        WhyAlive lw = why_alive_with(k, listener->id, nullptr, memo);
        w.verdict = lw.verdict;
        w.rule = lw.rule;
        w.group = lw.group;
        w.culprit = lw.culprit;
        w.scc_index_defect = lw.scc_index_defect;
        w.reason = "an embryo (no file of its own) lives as long as listener " + k.label_of(*listener) +
                   ", whose queue holds its connection request; " + k.label_of(*listener) + ": " + lw.reason;
        return w;
    }
    if (!u.file || u.file->count <= 0) {
        w.verdict = WhyVerdict::pending_release;
        w.rule = "__fput deferred";
        w.reason = "no reference is left (file_count 0): __fput() is queued (task_work or delayed_fput) and "
                   "unix_release_sock() has yet to run";
        return w;
    }
    const bool in_flight = graph ? u.vertex != nullptr : u.inflight > 0 || u.on != ListId::none;
    const std::vector<std::string> unscanned = unscanned_copies(k, u);
    const bool on_hitlist = std::any_of(unscanned.begin(), unscanned.end(),
                                        [](const std::string &c) { return c.find("hitlist") != std::string::npos; });
    if (on_hitlist && (!in_flight || k.gc_phase == GcPhase::purge)) {
        // The graph collector splices whole queues to the hitlist and their edges go with the
        // purge; classic moved the skbs carrying candidates. Either way the purge is next.
        w.verdict = WhyVerdict::awaiting_gc;
        w.rule = "hitlist";
        w.reason = "the running collection found it garbage: copies of its file are on the hitlist (" +
                   unscanned.front() + "), and skb_queue_purge() drops them next";
        return w;
    }
    if (!in_flight && k.fp_refs(*u.file) > 0 && k.gc_phase == GcPhase::purge) {
        // Mid-purge the skb being freed is on no list any more: its fds are detached and
        // scm_destroy() is about to drop the references.
        w.verdict = WhyVerdict::pending_release;
        w.rule = "hitlist";
        w.reason = "the running collection's purge is freeing the skb that carries its last copy: it is off every "
                   "queue and scm_destroy() drops the reference next";
        return w;
    }
    if (!in_flight && k.fp_refs(*u.file) > 0) {
        // An skb whose destructor is running (a release's queue purge) has left its queue but
        // still holds its list; so does a message between recvmsg()'s dequeue and fd_install.
        w.verdict = WhyVerdict::pending_release;
        w.rule = "in transit";
        w.reason = "no fd reaches it and it is not in flight; its last references (" + refs_breakdown(k, *u.file) +
                   ") are in SCM_RIGHTS lists on no queue: an skb being freed, whose scm_destroy() drops them "
                   "next, or a message on its way between a queue and an fd table";
        return w;
    }
    if (!in_flight) {
        w.verdict = WhyVerdict::left_by_gc;
        w.rule = "not in flight";
        w.reason = "no fd and no in-flight copy, yet file_count " + std::to_string(u.file->count) + " (" +
                   refs_breakdown(k, *u.file) + "): the collector only looks at sockets in flight";
        return w;
    }
    if (k.gc_phase != GcPhase::none) {
        const std::string running =
            " (a collection is running now, phase " + std::string(gc_phase_name(k.gc_phase)) + ")";
        if (graph)
            running_graph_answer(k, u, history, running, w);
        else
            running_classic_answer(k, u, running, w);
        return w;
    }

    const ForcedCollection &c = forced_of(k, memo);
    if (!c.ran) {
        // Some kernel path is suspended mid-way (a syscall's SCM_RIGHTS cookie, a lock held,
        // queued work under way): its frame holds part of the state, so nothing can be run on
        // a copy. What was known at the last statement end is said as such.
        if (history && history->settled_step) {
            w.verdict = history->settled_verdict;
            w.rule = history->settled_rule;
            w.reason = "at step " + std::to_string(*history->settled_step) +
                       ", the last statement end where no fd reached it: " + history->settled_reason +
                       " (a kernel path is under way now: no collection can be run on a copy of this micro-step)";
        } else {
            w.verdict = WhyVerdict::gc_running;
            w.rule = "kernel path under way";
            w.reason = "a kernel path is under way (a syscall's SCM_RIGHTS cookie, a lock or queued work holds part of "
                       "the state in its frame): no collection can be run on a copy of this micro-step, so nothing "
                       "is predicted until the statement ends";
        }
        return w;
    }
    if (!c.began) {
        w.verdict = WhyVerdict::left_by_gc;
        w.rule = "no collection runs";
        w.reason = "a collection started now would not run: the collector's last run never ended (a hung task), or "
                   "collections are suppressed";
        return w;
    }
    if (c.doomed.count(u.id)) {
        w.verdict = WhyVerdict::pending_release;
        w.rule = "release pending";
        w.reason = "its last copies sit in the queue of " + join_labels(k, holders_of(k, u)) +
                   ", whose release is already queued (__fput() deferred): purging that queue frees it in the "
                   "cascade, with or without a collection";
        return w;
    }
    const Ruling ruling = ruling_of(k, u, c);
    w.rule = ruling.rule;
    w.group = ruling.group;
    w.culprit = ruling.culprit;
    w.scc_index_defect = ruling.defect;
    if (c.freed.count(u.id)) {
        w.verdict = WhyVerdict::awaiting_gc;
        if (ruling.garbage) {
            w.reason = "the next collection would free it: " + ruling.reason + "; " + gc_runs_text(k, history) + ".";
            return w;
        }
        w.rule = "cascade";
        w.reason = "the next collection would free it in the cascade: the collector itself leaves it (" +
                   ruling.reason + "), but it frees garbage whose queues hold its copies (" +
                   join_labels(k, holders_of(k, u)) + "), and purging them drops its last references; " +
                   gc_runs_text(k, history) + ".";
        return w;
    }
    w.verdict = WhyVerdict::left_by_gc;
    w.reason = "a collection run now would leave it: " + ruling.reason + ".";
    if (history && history->tracked && history->unreachable_since)
        w.reason += " (" + left_runs_text(*history) + ")";
    return w;
}

} // namespace

std::string why_text(const Kernel &k, const WhyAlive &w)
{
    std::string out = k.label_of_id(w.sock) + ": " + std::string(why_verdict_name(w.verdict)) + " (" + w.rule + ")\n";
    if (!w.chain_text.empty())
        out += "  chain: " + w.chain_text + "\n";
    out += "  " + w.reason + "\n";
    if (!w.collector_view.empty())
        out += "  the collector's view (" + w.collector_rule + "): " + w.collector_view + "\n";
    return out;
}

void WhyTracker::observe(const Event &e, const Kernel &k)
{
    if (sock_ >= k.socks.size())
        return;
    if (e.kind == EventKind::sock_release && e.sock() == sock_)
        history_.released_step = e.step;
    if (e.kind == EventKind::gc_end && e.run() == run_began_unreachable_ && history_.unreachable_since &&
        !k.socks[sock_].released)
        history_.runs_while_unreachable.push_back(run_began_unreachable_);
    if (e.kind == EventKind::gc_begin)
        history_.running_alive.reset();
    if (e.kind == EventKind::vertex_dead && !e.dead() && k.socks[sock_].vertex && !k.gc_runs.empty()) {
        // The verdict that keeps an SCC is given here; the state records it once the whole SCC is
        // judged. The ring is linked before its verdicts, so it says whether it is ours.
        const std::vector<std::uint32_t> ring = scc_ring_of(k, e.sock());
        if (std::find(ring.begin(), ring.end(), sock_) != ring.end()) {
            history_.running_alive = judgement_of(e, k);
            history_.running_alive_run = k.gc_runs.back().number;
        }
    }
    if (!history_.tracked)
        return;
    if (k.socks.size() > kLargeScene) {
        // Past this size a BFS per change costs more than the run: the answer falls back to
        // what the state alone tells.
        history_.tracked = false;
        history_.unreachable_since.reset();
        history_.runs_while_unreachable.clear();
        history_.settled_step.reset();
        return;
    }
    bool check = false;
    switch (e.kind) {
    case EventKind::stmt_end:
    case EventKind::gc_begin:
    case EventKind::gc_end:
    case EventKind::sock_create:
    case EventKind::fd_install:
    case EventKind::fd_close:
    case EventKind::skb_queue:
    case EventKind::skb_dequeue:
    case EventKind::skb_free:
    case EventKind::skb_hitlist:
    case EventKind::queue_splice:
    case EventKind::sock_release:
    case EventKind::fds_detach: check = true; break;
    default: break;
    }
    if (!check)
        return;
    const bool now = reachable_from_fds(k, sock_);
    if (now) {
        history_.unreachable_since.reset();
        history_.runs_while_unreachable.clear();
        history_.settled_step.reset();
    } else if (!history_.unreachable_since) {
        history_.unreachable_since = e.step; // a socket no fd ever reached counts from its creation
    }
    // A collection counts once it has ended with the socket still there: one that is running
    // has not decided yet (why_alive() says so from the state).
    if (e.kind == EventKind::gc_begin)
        run_began_unreachable_ = now ? npos : e.run();
    if (e.kind == EventKind::stmt_end && !now && !k.socks[sock_].released && k.quiescent()) {
        const WhyAlive w = why_alive(k, sock_, &history_);
        history_.settled_step = e.step;
        history_.settled_verdict = w.verdict;
        history_.settled_rule = w.rule;
        history_.settled_reason = w.reason;
    }
}

} // namespace inflight
