// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/why_alive.hpp"

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

// What the purge of `garbage` takes along: a released socket's queues are purged, dropping
// the files they carry; a file whose count reaches 0 releases its socket in turn.
std::unordered_set<std::uint32_t> cascade_of(const Kernel &k, const std::unordered_set<std::uint32_t> &garbage)
{
    std::unordered_map<std::uint32_t, long> count;
    std::unordered_set<std::uint32_t> freed(garbage);
    std::deque<std::uint32_t> work(garbage.begin(), garbage.end());
    std::unordered_set<std::uint32_t> purged;
    while (!work.empty()) {
        const UnixSock &x = k.socks[work.front()];
        work.pop_front();
        if (!purged.insert(x.id).second)
            continue;
        auto purge = [&](const UnixSock &q) {
            auto drop = [&](const SkBuff &skb) {
                if (!skb.fp)
                    return;
                for (const File *f : skb.fp->fp) {
                    if (!f || !f->sock || f->released)
                        continue;
                    auto [it, fresh] = count.try_emplace(f->sock->id, f->count);
                    if (--it->second <= 0 && freed.insert(f->sock->id).second)
                        work.push_back(f->sock->id);
                }
            };
            for (const SkBuff &skb : q.receive_queue) {
                drop(skb);
                if (skb.sk && skb.sk != &q && skb.sk->state == SockState::embryo && freed.insert(skb.sk->id).second)
                    work.push_back(skb.sk->id);
            }
        };
        purge(x);
    }
    return freed;
}

struct Ruling {
    bool garbage = false;
    std::string rule, reason;
    std::vector<std::uint32_t> group;
    std::uint32_t culprit = npos;
    bool defect = false;
};

// ---- classic and async: unix_gc() re-enacted on the side -----------------------------------
struct ClassicRun {
    std::vector<std::uint32_t> candidates;                        // in gc_inflight_list order
    std::unordered_map<std::uint32_t, long> after_dec;            // inflight after dec_inflight
    std::unordered_map<std::uint32_t, std::uint32_t> restored_by; // alive candidate -> parent (npos: direct)
    std::unordered_set<std::uint32_t> garbage;
};

ClassicRun classic_run(const Kernel &k)
{
    ClassicRun r;
    std::unordered_set<std::uint32_t> is_cand;
    for (const GcLink &l : k.gc_inflight_list) {
        if (l.is_cursor)
            continue;
        const auto &u = static_cast<const UnixSock &>(l);
        const long total = u.file ? u.file->count : 0;
        if (total == u.inflight) {
            r.candidates.push_back(u.id);
            is_cand.insert(u.id);
            r.after_dec[u.id] = u.inflight;
        }
    }
    for (std::uint32_t c : r.candidates)
        for_each_child_queue(k.socks[c], [&](const UnixSock &q) {
            for (const SkBuff &skb : q.receive_queue)
                if (skb.fp)
                    for (const File *f : skb.fp->fp)
                        if (f && f->sock && is_cand.count(f->sock->id))
                            --r.after_dec[f->sock->id];
        });
    std::deque<std::uint32_t> work;
    for (std::uint32_t c : r.candidates)
        if (r.after_dec[c] > 0) {
            r.restored_by[c] = npos;
            work.push_back(c);
        }
    while (!work.empty()) {
        const std::uint32_t x = work.front();
        work.pop_front();
        for_each_child_queue(k.socks[x], [&](const UnixSock &q) {
            for (const SkBuff &skb : q.receive_queue)
                if (skb.fp)
                    for (const File *f : skb.fp->fp)
                        if (f && f->sock && is_cand.count(f->sock->id) && !r.restored_by.count(f->sock->id)) {
                            r.restored_by[f->sock->id] = x;
                            work.push_back(f->sock->id);
                        }
        });
    }
    for (std::uint32_t c : r.candidates)
        if (!r.restored_by.count(c))
            r.garbage.insert(c);
    return r;
}

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

Ruling classic_ruling(const Kernel &k, const UnixSock &u, const ClassicRun &r)
{
    Ruling out;
    out.group = r.candidates;
    const long total = u.file ? u.file->count : 0;
    if (std::find(r.candidates.begin(), r.candidates.end(), u.id) == r.candidates.end()) {
        out.rule = "not a candidate";
        out.culprit = u.id;
        out.reason = "not a candidate: file_count " + std::to_string(total) + " > inflight " +
                     std::to_string(u.inflight) + " (" + (u.file ? refs_breakdown(k, *u.file) : std::string()) +
                     "): unix_gc() only considers sockets whose every reference is an in-flight copy";
        return out;
    }
    if (r.garbage.count(u.id)) {
        out.garbage = true;
        out.rule = "garbage";
        out.reason = "a candidate (file_count " + std::to_string(total) + " == inflight " + std::to_string(u.inflight) +
                     ") whose every copy sits in a queue of another candidate (inflight 0 after dec_inflight), "
                     "and no candidate referenced from outside reaches it: garbage";
        return out;
    }
    // Alive: up the restore chain to the candidate referenced from outside.
    std::vector<std::uint32_t> path{u.id};
    for (std::uint32_t x = r.restored_by.at(u.id); x != npos; x = r.restored_by.at(x))
        path.push_back(x);
    const std::uint32_t root = path.back();
    const UnixSock &ru = k.socks[root];
    std::vector<std::uint32_t> outside;
    for (std::uint32_t h : holders_of(k, ru))
        if (std::find(r.candidates.begin(), r.candidates.end(), h) == r.candidates.end())
            outside.push_back(h);
    out.culprit = root;
    out.rule = "inflight after dec_inflight";
    std::string why_root = "candidate " + k.label_of(ru) + " keeps inflight " + std::to_string(r.after_dec.at(root)) +
                           " after dec_inflight: ";
    if (!outside.empty())
        why_root += "copies of its file sit in the queue of " + join_labels(k, outside) +
                    (outside.size() == 1 ? ", which is not a candidate" : ", which are not candidates");
    else
        why_root += "a copy of its file is held where no candidate's scan_children() reaches";
    for (const std::string &c : unscanned_copies(k, ru))
        why_root += "; " + c + ": scan_children() walks receive queues only, so nothing decrements it";
    if (path.size() == 1) {
        out.reason = "a candidate, but judged alive by the restore walk: " + why_root;
    } else {
        std::string via;
        for (std::size_t i = path.size() - 1; i > 0; --i)
            via += k.label_of_id(path[i]) + " -> ";
        via += k.label_of(u);
        out.reason = "a candidate, but restored by the walk over not_cycle_list (inc_inflight_move_tail along " + via +
                     "): " + why_root;
    }
    return out;
}

// ---- graph: __unix_gc() re-enacted on the side ----------------------------------------------
struct VState {
    unsigned long index = 0, scc_index = 0;
};

const UnixVertex *succ_vertex(const UnixEdge &e)
{
    // unix_edge_successor(): an unaccepted embryo's fds belong to its listener.
    if (e.successor->listener)
        return e.successor->listener->vertex;
    return e.successor->vertex;
}

struct GraphRun {
    std::vector<std::vector<const UnixVertex *>> sccs;               // in the order the collector judges them
    std::unordered_map<const UnixVertex *, unsigned long> scc_index; // at the verdict
    std::unordered_map<const UnixVertex *, std::size_t> scc_of;
    std::vector<int> failed;               // per SCC: -1 dead, else the failing member
    std::vector<int> reason;               // unix_vertex_dead()'s reason of that member
    std::vector<const UnixVertex *> where; // the edge's successor that failed it
    bool fast = false;
    bool mid_run = false; // the rings of the walk running now
};

int vertex_dead(const UnixVertex *v, const GraphRun &r, const UnixVertex *&where)
{
    where = nullptr;
    const auto idx = [&](const UnixVertex *x) { return r.scc_index.at(x); };
    for (const UnixEdge &e : v->edges) {
        const UnixVertex *w = succ_vertex(e);
        if (!w) {
            where = nullptr;
            return 1;
        }
        if (!r.scc_index.count(w) || idx(w) != idx(v)) {
            where = w;
            return 2;
        }
    }
    const long total = v->sock->file ? v->sock->file->count : 0;
    return total != static_cast<long>(v->out_degree) ? 3 : 0;
}

void judge(GraphRun &r, std::vector<const UnixVertex *> scc)
{
    const std::size_t i = r.sccs.size();
    for (const UnixVertex *v : scc)
        r.scc_of[v] = i;
    r.sccs.push_back(std::move(scc));
    r.failed.push_back(-1);
    r.reason.push_back(0);
    r.where.push_back(nullptr);
}

void verdicts(GraphRun &r)
{
    for (std::size_t i = 0; i < r.sccs.size(); ++i)
        for (std::size_t m = 0; m < r.sccs[i].size(); ++m) {
            const UnixVertex *where = nullptr;
            const int reason = vertex_dead(r.sccs[i][m], r, where);
            if (reason) { // unix_vertex_dead() short-circuits: the first live member decides
                r.failed[i] = static_cast<int>(m);
                r.reason[i] = reason;
                r.where[i] = where;
                break;
            }
        }
}

// use_rings: judge the rings the vertices carry (the fast path, or mid-walk the SCCs the running
// walk has already cut) instead of re-enacting Tarjan's walk.
GraphRun graph_run(const Kernel &k, bool use_rings)
{
    GraphRun r;
    std::vector<const UnixVertex *> order;
    for (const UnixVertex &v : k.unvisited_vertices)
        order.push_back(&v);
    for (const UnixVertex &v : k.visited_vertices)
        order.push_back(&v);
    if (use_rings) {
        // unix_walk_scc_fast(): the rings the last Tarjan walk left, with the scc_index values
        // the vertices carry now.
        r.fast = true;
        std::unordered_set<const UnixVertex *> done;
        for (const UnixVertex *first : order) {
            if (done.count(first))
                continue;
            std::vector<const UnixVertex *> scc{first};
            done.insert(first);
            for (const UnixVertex *w = first->scc_prev; w != first && w->sock && !done.count(w); w = w->scc_prev) {
                scc.push_back(w);
                done.insert(w);
            }
            for (const UnixVertex *v : scc)
                r.scc_index[v] = v->scc_index;
            judge(r, std::move(scc));
        }
        verdicts(r);
        return r;
    }
    // __unix_walk_scc(), iterative as the model runs it (graph_gc.cpp): scc_index is the low-link
    // taken from the successor's scc_index, and without the fix members keep their own.
    constexpr unsigned long unvisited = 0, grouped = 1;
    std::unordered_map<const UnixVertex *, VState> st;
    for (const UnixVertex *v : order)
        st[v] = VState{unvisited, 0};
    unsigned long last_index = 2;
    for (const UnixVertex *start : order) {
        if (st[start].index != unvisited)
            continue;
        std::vector<const UnixVertex *> vstack;
        std::vector<const UnixEdge *> estack;
        const UnixVertex *vertex = start;
        EdgeList::const_iterator it;
        bool enter = true;
        for (;;) {
            if (enter) {
                vstack.push_back(vertex);
                st[vertex].index = st[vertex].scc_index = last_index++;
                it = vertex->edges.begin();
                enter = false;
            }
            for (; it != vertex->edges.end(); ++it) {
                const UnixVertex *next = succ_vertex(*it);
                if (!next || !st.count(next))
                    continue;
                if (st[next].index == unvisited) {
                    estack.push_back(&*it);
                    vertex = next;
                    enter = true;
                    break;
                }
                if (st[next].index != grouped)
                    st[vertex].scc_index = std::min(st[vertex].scc_index, st[next].scc_index);
            }
            if (enter)
                continue;
            if (st[vertex].index == st[vertex].scc_index) {
                auto pos = std::find(vstack.begin(), vstack.end(), vertex);
                std::vector<const UnixVertex *> scc(pos, vstack.end());
                vstack.erase(pos, vstack.end());
                for (const UnixVertex *m : scc) {
                    st[m].index = grouped;
                    r.scc_index[m] =
                        k.config().has(KernelChange::unify_scc_index) ? st[vertex].scc_index : st[m].scc_index;
                }
                judge(r, std::move(scc));
            }
            if (estack.empty())
                break;
            const UnixEdge *edge = estack.back();
            estack.pop_back();
            const UnixVertex *next = vertex;
            vertex = edge->predecessor->vertex;
            st[vertex].scc_index = std::min(st[vertex].scc_index, st[next].scc_index);
            it = std::next(vertex->edges.iterator_to(*edge));
        }
    }
    // Verdicts after the walk: a member's scc_index is final once its SCC is cut, and an edge
    // never leads to an SCC cut later, so judging here gives what finish_scc() judged then.
    verdicts(r);
    return r;
}

Ruling graph_ruling(const Kernel &k, const UnixSock &u, const GraphRun &r)
{
    Ruling out;
    const std::size_t i = r.scc_of.at(u.vertex);
    for (const UnixVertex *v : r.sccs[i])
        out.group.push_back(v->sock->id);
    const std::string path = r.mid_run ? "the running collection"
                             : r.fast  ? "unix_walk_scc_fast() (the SCCs of the last Tarjan walk)"
                                       : "Tarjan's walk";
    const std::string scc_text = "its SCC {" + join_labels(k, out.group) + "}";
    if (r.failed[i] < 0) {
        out.garbage = true;
        out.rule = "garbage";
        out.reason = scc_text + " is dead to " + path +
                     ": every edge of every vertex stays inside the SCC and each file_count equals its out_degree";
        return out;
    }
    const UnixVertex *v = r.sccs[i][static_cast<std::size_t>(r.failed[i])];
    const std::string vl = k.label_of(*v->sock);
    out.culprit = v->sock->id;
    const std::string lead = scc_text + " was judged alive by " + path + " because vertex " + vl;
    switch (r.reason[i]) {
    case 1: {
        std::string receivers;
        for (const UnixEdge &e : v->edges)
            if (!succ_vertex(e))
                receivers += (receivers.empty() ? "" : ", ") + k.label_of(*e.successor);
        out.rule = "edge to a receiver not in flight";
        out.reason = lead + " has an edge to " + receivers +
                     ", a receiver that is not in flight (no vertex): unix_vertex_dead() says alive";
        break;
    }
    case 2: {
        const UnixVertex *w = r.where[i];
        const bool same = r.scc_of.count(w) && r.scc_of.at(w) == i;
        const std::string wl = k.label_of(*w->sock);
        const std::string values = "scc_index " + std::to_string(r.scc_index.at(v)) + ", but " + wl +
                                   " has scc_index " +
                                   (r.scc_index.count(w) ? std::to_string(r.scc_index.at(w)) : std::string("none"));
        if (same) {
            out.rule = "scc_index mismatch in one SCC";
            out.defect = true;
            out.culprit = v->sock->id;
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
    default: {
        const long total = v->sock->file ? v->sock->file->count : 0;
        out.rule = "out_degree != file_count";
        out.reason = lead + " has out_degree " + std::to_string(v->out_degree) + " != file_count " +
                     std::to_string(total) + " (" +
                     (v->sock->file ? refs_breakdown(k, *v->sock->file) : std::string()) +
                     "): a reference outside flight";
        break;
    }
    }
    return out;
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
    return "a collection run now would free it (the last, #" + std::to_string(last.number) + ", began at step " +
           std::to_string(last.first_step) + ")";
}

// What one state's answers share, computed once when many sockets are asked about (leaks_of()):
// the reach of every fd, and the collection re-enacted on the side.
struct Memo {
    std::optional<Reach> reach;
    std::optional<ClassicRun> classic;
    std::optional<GraphRun> graph;
    std::optional<std::unordered_set<std::uint32_t>> cascade;
    std::optional<std::unordered_set<std::uint32_t>> doomed;
};

// What the releases already on their way take along: a socket whose file count is 0 has its
// __fput() queued (task_work or delayed_fput); unix_release_sock() will purge its queue, and
// whatever held only there goes in the cascade, whatever a collection would say about it.
std::unordered_set<std::uint32_t> doomed_by_pending_releases(const Kernel &k)
{
    std::unordered_set<std::uint32_t> pending;
    for (const UnixSock &x : k.socks)
        if (!x.released && x.file && x.file->count <= 0)
            pending.insert(x.id);
    return pending.empty() ? pending : cascade_of(k, pending);
}

WhyAlive why_alive_with(const Kernel &k, std::uint32_t sock, const WhyHistory *history, Memo *memo);

} // namespace

bool reachable_from_fds(const Kernel &k, std::uint32_t sock)
{
    if (sock >= k.socks.size() || k.socks[sock].released)
        return false;
    return bfs(k, sock).seen[sock];
}

WhyAlive why_alive(const Kernel &k, std::uint32_t sock, const WhyHistory *history)
{
    return why_alive_with(k, sock, history, nullptr);
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
        const WhyAlive w = why_alive_with(k, u.id, nullptr, &memo);
        if (w.verdict == WhyVerdict::left_by_gc)
            out.push_back({u.id, w.reason});
    }
    return out;
}

namespace {

WhyAlive why_alive_with(const Kernel &k, std::uint32_t sock, const WhyHistory *history, Memo *memo)
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
    const std::string label = k.label_of(u);
    if (u.released) {
        w.verdict = WhyVerdict::released;
        w.rule = std::string(freed_by_name(u.freed_by));
        std::string how;
        switch (u.freed_by) {
        case FreedBy::close:
            how = "its last file reference was dropped by a close() (or a receive) of user space";
            break;
        case FreedBy::gc: how = "the collector purged the skbs that held its last references (hitlist)"; break;
        case FreedBy::cascade:
            how = "a socket holding its last in-flight copy was released, and purged its queue";
            break;
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

    Reach own_reach;
    if (!memo)
        own_reach = bfs(k, sock);
    else if (!memo->reach)
        memo->reach = bfs(k, npos);
    const Reach &reach = memo ? *memo->reach : own_reach;
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
        // In flight too: how the collector sees it, so the rule that keeps a reachable socket
        // (the fd's reference, counted or not) can be read next to the chain.
        const bool in_flight = k.era() == GcEra::graph ? u.vertex != nullptr : u.inflight > 0;
        if (in_flight && k.gc_phase == GcPhase::none && u.file) {
            Ruling r;
            if (k.era() == GcEra::graph) {
                if (k.graph_maybe_cyclic)
                    r = graph_ruling(k, u, graph_run(k, k.graph_grouped));
            } else {
                r = classic_ruling(k, u, classic_run(k));
            }
            if (!r.rule.empty()) {
                w.group = r.group;
                w.culprit = r.culprit;
                w.collector_rule = r.rule;
                w.collector_view = r.reason;
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
    const bool graph = k.era() == GcEra::graph;
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
    const bool mid_run = k.gc_phase != GcPhase::none;
    std::string running;
    if (mid_run)
        running = " (A collection is running now, phase " + std::string(gc_phase_name(k.gc_phase)) + ".)";

    Ruling ruling;
    std::unordered_set<std::uint32_t> garbage;
    if (graph && mid_run) {
        // The walk resets unix_graph_maybe_cyclic first and rebuilds it, and each SCC it cuts
        // gets its ring and verdict there: read them instead of a second walk.
        if (verdict_of(k, *u.vertex) < 0) {
            w.verdict = WhyVerdict::gc_running;
            w.rule = "not judged yet";
            w.reason = "the running collection has not judged its SCC yet (index " + std::to_string(u.vertex->index) +
                       ", scc_index " + std::to_string(u.vertex->scc_index) + ")" + running;
            return w;
        }
        GraphRun r = graph_run(k, true);
        r.mid_run = true;
        ruling = graph_ruling(k, u, r);
        if (verdict_of(k, *u.vertex) == 1) {
            // Judged dead already; the purge changes the graph under a re-check, not the verdict.
            ruling.garbage = true;
            ruling.rule = "garbage";
            ruling.culprit = npos;
            ruling.defect = false;
            ruling.reason = "the running collection judged its SCC {" + join_labels(k, ruling.group) +
                            "} dead: unix_vertex_dead() held for every member";
        }
    } else if (graph) {
        if (!k.graph_maybe_cyclic) {
            w.verdict = WhyVerdict::left_by_gc;
            w.rule = "graph not maybe_cyclic";
            w.reason = "unix_graph_maybe_cyclic is false: the next __unix_gc() skips the walk (the last walk found no "
                       "cyclic SCC left and no edge into an in-flight receiver was added since)";
            return w;
        }
        GraphRun own_run;
        if (!memo)
            own_run = graph_run(k, k.graph_grouped);
        else if (!memo->graph)
            memo->graph = graph_run(k, k.graph_grouped);
        const GraphRun &r = memo ? *memo->graph : own_run;
        ruling = graph_ruling(k, u, r);
        for (std::size_t i = 0; i < r.sccs.size(); ++i)
            if (r.failed[i] < 0)
                for (const UnixVertex *v : r.sccs[i])
                    garbage.insert(v->sock->id);
    } else if (mid_run) {
        // Mid-run the counts are the collector's scratch (dec_inflight has run on some): the
        // marks it has set so far are the answer.
        w.group.clear();
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
        return w;
    } else {
        ClassicRun own_run;
        if (!memo)
            own_run = classic_run(k);
        else if (!memo->classic)
            memo->classic = classic_run(k);
        const ClassicRun &r = memo ? *memo->classic : own_run;
        ruling = classic_ruling(k, u, r);
        garbage = r.garbage;
    }
    w.rule = ruling.rule;
    w.group = ruling.group;
    w.culprit = ruling.culprit;
    w.scc_index_defect = ruling.defect;
    if (ruling.garbage) {
        w.verdict = WhyVerdict::awaiting_gc;
        w.reason = ruling.reason + "; " + gc_runs_text(k, history) + "." + running;
        return w;
    }
    std::unordered_set<std::uint32_t> own_cascade;
    if (!memo)
        own_cascade = cascade_of(k, garbage);
    else if (!memo->cascade)
        memo->cascade = cascade_of(k, garbage); // the same garbage for every socket of the state
    const auto &cascade = memo ? *memo->cascade : own_cascade;
    if (cascade.count(u.id)) {
        std::vector<std::uint32_t> holders;
        for (std::uint32_t h : holders_of(k, u))
            holders.push_back(h);
        w.verdict = WhyVerdict::awaiting_gc;
        w.rule = "cascade";
        w.reason = "the collector itself leaves it (" + ruling.reason +
                   "), but the next collection frees garbage whose "
                   "queues hold its copies (" +
                   join_labels(k, holders) +
                   "), and purging them drops its last "
                   "references: it goes in the cascade; " +
                   gc_runs_text(k, history) + "." + running;
        return w;
    }
    std::unordered_set<std::uint32_t> own_doomed;
    if (!memo)
        own_doomed = doomed_by_pending_releases(k);
    else if (!memo->doomed)
        memo->doomed = doomed_by_pending_releases(k);
    if ((memo ? *memo->doomed : own_doomed).count(u.id)) {
        std::vector<std::uint32_t> holders = holders_of(k, u);
        w.verdict = WhyVerdict::pending_release;
        w.rule = "release pending";
        w.reason = "the collector leaves it (" + ruling.reason + "), but its last copies sit in the queue of " +
                   join_labels(k, holders) +
                   ", whose release is already queued (__fput() deferred): purging that "
                   "queue frees it in the cascade";
        return w;
    }
    w.verdict = WhyVerdict::left_by_gc;
    w.reason = ruling.reason + "." + running;
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
    if (!history_.tracked)
        return;
    if (k.socks.size() > kLargeScene) {
        // Past this size a BFS per change costs more than the run: the answer falls back to
        // what the state alone tells.
        history_.tracked = false;
        history_.unreachable_since.reset();
        history_.runs_while_unreachable.clear();
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
    } else if (!history_.unreachable_since) {
        history_.unreachable_since = e.step; // a socket no fd ever reached counts from its creation
    }
    // A collection counts once it has ended with the socket still there: one that is running
    // has not decided yet (why_alive() says so from the state).
    if (e.kind == EventKind::gc_begin)
        run_began_unreachable_ = now ? npos : e.run();
}

} // namespace inflight
