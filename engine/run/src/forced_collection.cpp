// SPDX-License-Identifier: GPL-3.0-or-later
#include "forced_collection.hpp"

#include "inflight/kernel.hpp"

namespace inflight {

namespace {

// Reads the collection's events as they happen, with the copy's state at that micro-step for
// what an event does not carry (an SCC's members, the scc_index values compared).
class Recorder : public EventSink {
public:
    Recorder(const Kernel &k, ForcedCollection &out) : k_(k), out_(out) { }

    bool absorb(const Event &e) override
    {
        record(e);
        return e.kind != EventKind::sched_point;
    }

private:
    void record(const Event &e)
    {
        switch (e.kind) {
        case EventKind::gc_begin:
            if (!out_.began) {
                out_.began = true;
                out_.run = e.run();
                in_run_ = true;
            }
            break;
        case EventKind::gc_end: in_run_ = false; break;
        case EventKind::gc_skip:
            if (in_run_ && e.graph_not_cyclic())
                out_.graph_not_cyclic = true;
            break;
        case EventKind::sock_release: out_.freed.emplace(e.sock(), FreedBy::none); break;
        case EventKind::candidate_check: {
            if (!in_run_)
                break;
            ForcedCollection::Check &c = out_.checks[e.sock()];
            c.candidate = e.is_candidate();
            c.refs = e.refs();
            c.inflight = c.after_dec = e.inflight_count();
            if (c.candidate)
                out_.candidates.push_back(e.sock());
            break;
        }
        case EventKind::scan: scanning_ = e.sock(); break;
        case EventKind::inflight_change:
            if (!in_run_)
                break;
            if (e.fn == KFn::dec_inflight) {
                out_.checks[e.sock()].after_dec = e.inflight().after;
            } else if (e.fn == KFn::inc_inflight_move_tail) {
                ForcedCollection::Check &c = out_.checks[e.sock()];
                if (c.restored_by == npos && c.after_dec == 0 && e.inflight().before == 0)
                    c.restored_by = scanning_;
            }
            break;
        case EventKind::list_move:
            if (in_run_ && e.fn == KFn::restore_candidates && e.to == ListId::not_cycle_list)
                out_.checks[e.sock()].restored = true;
            break;
        case EventKind::graph_state:
            if (in_run_ && e.fn == KFn::unix_walk_scc_fast)
                out_.fast_path = true;
            break;
        case EventKind::vertex_dead:
            if (in_run_ && !e.dead())
                alive_ = judgement_of(e, k_);
            break;
        case EventKind::scc_verdict:
            if (in_run_)
                verdict(e);
            break;
        default: break;
        }
    }

    void verdict(const Event &e)
    {
        // The ring is linked before unix_scc_dead() runs, and the vertices stay until the purge.
        ForcedCollection::Scc scc;
        scc.dead = e.dead();
        scc.members = scc_ring_of(k_, e.root());
        if (!scc.dead)
            scc.alive_by = alive_;
        alive_.reset();
        for (std::uint32_t m : scc.members)
            out_.scc_of[m] = out_.sccs.size();
        out_.sccs.push_back(std::move(scc));
    }

    const Kernel &k_;
    ForcedCollection &out_;
    bool in_run_ = false;
    std::uint32_t scanning_ = npos;
    std::optional<VertexJudgement> alive_;
};

void drive(Proc p, Recorder &r)
{
    p.set_sink(&r);
    while (p.next()) { }
}

// Files whose release a suspended path is running (taken off task_work with the rest of its
// batch): a copy has no frame to finish them, so they go back on the first task's list.
std::vector<std::uint32_t> releases_under_way(const Kernel &k)
{
    std::vector<std::uint32_t> out;
    for (const File &f : k.files)
        if (!f.released && f.count <= 0 && f.sock && !f.sock->released && !k.fput_queued(f))
            out.push_back(f.id);
    return out;
}

// The copy runs on one CPU: the queued collection and the releases it defers run here, in
// order, as a one-CPU run's statement runs them. Deterministic, whatever the scene's tasks.
void make_runnable(Kernel &copy, const std::vector<std::uint32_t> &under_way)
{
    copy.concurrent = false;
    copy.fast_forward = false; // every candidate_check is yielded, none memoised
    for (std::uint32_t id : under_way)
        copy.processes.front().task_work.push_back(&copy.files[id]);
}

void drain(Kernel &copy, Recorder &r)
{
    for (Process &p : copy.processes)
        drive(copy.run_task_work(p), r);
    drive(copy.run_workqueue(), r);
}

// Only the releases already on their way: the __fput()s of the tasks and delayed_fput, with
// what their queue purges defer in turn; a queued collection does not run.
void drain_releases(Kernel &copy, Recorder &r)
{
    for (bool more = true; more;) {
        more = false;
        for (Process &p : copy.processes)
            if (!p.task_work.empty()) {
                drive(copy.run_task_work(p), r);
                more = true;
            }
        if (copy.delayed_fput_queued()) {
            drive(copy.run_delayed_fput_elsewhere(), r);
            more = true;
        }
    }
}

} // namespace

VertexJudgement judgement_of(const Event &e, const Kernel &k)
{
    VertexJudgement j;
    j.step = e.step;
    j.vertex = e.sock();
    j.dead = e.dead();
    j.reason = e.reason();
    j.where = e.successor();
    j.refs = e.refs();
    if (const UnixVertex *v = k.socks[e.sock()].vertex) {
        j.out_degree = v->out_degree;
        j.scc_index = v->scc_index;
    }
    if (j.where != npos && j.where < k.socks.size())
        if (const UnixVertex *w = k.socks[j.where].vertex) {
            j.where_in_flight = true;
            j.where_scc_index = w->scc_index;
        }
    return j;
}

std::vector<std::uint32_t> scc_ring_of(const Kernel &k, std::uint32_t sock)
{
    std::vector<std::uint32_t> members;
    const UnixVertex *root = k.socks[sock].vertex;
    if (!root)
        return {sock};
    const UnixVertex *v = root;
    do {
        members.push_back(v->sock_id);
        v = v->scc_prev;
    } while (v && v != root && members.size() <= k.vertex_pool.size());
    return members;
}

bool ForcedCollection::judged_garbage(std::uint32_t sock) const
{
    if (const auto s = scc_of.find(sock); s != scc_of.end())
        return sccs[s->second].dead;
    if (const auto c = checks.find(sock); c != checks.end())
        return c->second.candidate && !c->second.restored;
    return false;
}

ForcedCollection force_collection(const Kernel &k)
{
    ForcedCollection out;
    if (!k.quiescent() || k.frozen())
        return out;
    out.ran = true;
    const std::vector<std::uint32_t> under_way = releases_under_way(k);
    {
        Kernel copy(k);
        make_runnable(copy, under_way);
        Recorder r(copy, out);
        drive(copy.force_gc("why"), r);
        drain(copy, r);
        for (auto &[sock, by] : out.freed)
            by = copy.socks[sock].freed_by;
    }
    // Releases already on their way (an __fput() queued, a delayed_fput not run yet) free what
    // they free with or without a collection: told apart on a second copy that runs only them.
    bool pending = k.delayed_fput_queued() || !under_way.empty();
    for (const Process &p : k.processes)
        pending = pending || !p.task_work.empty();
    if (pending) {
        Kernel copy(k);
        make_runnable(copy, under_way);
        ForcedCollection none;
        Recorder r(copy, none);
        drain_releases(copy, r);
        for (const auto &[sock, by] : none.freed)
            out.doomed.insert(sock);
    }
    return out;
}

} // namespace inflight
