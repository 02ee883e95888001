// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/state_digest.hpp"

#include "inflight/kernel.hpp"
#include "inflight/simulation.hpp"

#include <sstream>

namespace inflight {

namespace {

std::uint32_t id_of(const UnixSock *u) { return u ? u->id : npos; }
std::uint32_t id_of(const File *f) { return f ? f->id : npos; }
std::uint32_t id_of(const UnixVertex *v) { return v ? v->pool_index : npos; }
std::uint32_t id_of(const SkBuff *s) { return s ? s->id : npos; }

void skb_text(std::ostringstream &o, const SkBuff &s)
{
    o << " skb" << s.id << "(len" << s.len << " oob" << s.oob << " c" << s.consumed << " u" << int(s.users) << " sk"
      << id_of(s.sk) << " from" << id_of(s.sender) << " q" << id_of(s.queue_owner) << " to" << id_of(s.receiver)
      << " cr" << s.creds_owner;
    if (s.fp) {
        const ScmFpList &f = *s.fp;
        o << " fp[";
        for (const File *x : f.fp)
            o << id_of(x) << ",";
        o << "] unix" << f.count_unix << " user" << (f.user ? f.user->id : npos) << " in" << f.inflight << " dead"
          << f.dead;
        if (f.edges)
            for (int i = 0; i < f.count_unix; ++i)
                o << " e" << id_of(f.edges[static_cast<std::size_t>(i)].predecessor) << ">"
                  << id_of(f.edges[static_cast<std::size_t>(i)].successor);
    }
    o << ")";
}

} // namespace

std::string digest_text(const Simulation &sim)
{
    const Kernel &k = sim.kernel();
    std::ostringstream o;
    o << "steps " << sim.steps() << " statements " << sim.statements_executed() << " line " << sim.current_line()
      << " finished " << sim.finished() << " by_finding " << sim.stopped_by_finding() << " now " << sim.now_ns()
      << "\n";
    if (const Event *e = sim.last_event())
        o << "last " << e->step << " " << int(e->kind) << " " << int(e->fn) << " " << e->a << " " << e->b << " " << e->c
          << " " << e->before << " " << e->after << " t" << e->time << " task" << e->task << " line" << e->scene_line
          << " algo" << e->algo_line << "\n";
    for (const SceneWarning &w : sim.warnings())
        o << "warning " << w.line << " " << w.message << "\n";
    for (const ExpectationOutcome &x : sim.expectations())
        o << "expect " << x.line << " " << x.passed << " " << x.message << "\n";
    for (const Task &t : k.tasks)
        o << "task " << t.id << " cpu" << t.cpu << " clock" << t.clock << " fin" << t.finished << " blk" << t.blocked
          << " pt" << t.at_point << " wait" << t.waited_ns << " spun" << t.spun_ns << " kind" << int(t.call_kind)
          << "\n";
    o << "globals tot" << k.unix_tot_inflight << " inprog" << k.gc_in_progress << " phase" << int(k.gc_phase)
      << " cyclic" << k.graph_maybe_cyclic << " grouped" << k.graph_grouped << " marks" << k.unvisited_index << ","
      << k.grouped_index << " max_scc" << k.max_scc_index << " skbs" << k.skbs_allocated << "/" << k.skbs_live
      << " work" << k.micro_steps_total << " inputs" << k.gc_inputs_version << " busy" << k.gc_busy_until << " current"
      << (k.current ? k.current->id : npos) << " running" << (k.running ? k.running->id : npos) << " pending_work"
      << k.work_pending() << " ready" << k.work_ready_at() << "\n";
    auto lock = [&](const char *name, const KLock &l) {
        if (l.acquisitions)
            o << "lock " << name << " acq" << l.acquisitions << " cont" << l.contended << " spun" << l.spun_ns
              << " free" << l.free_at << " cpu" << l.last_cpu << " held" << (l.holder ? l.holder->id : npos) << "\n";
    };
    lock("gc", k.unix_gc_lock);
    lock("table", k.unix_table_lock);
    for (std::size_t i = 0; i < k.table_locks.size(); ++i)
        lock(("bucket" + std::to_string(i)).c_str(), k.table_locks[i]);
    for (const User &u : k.users)
        o << "user " << u.id << " " << u.name << " inflight" << u.unix_inflight << "\n";
    for (const Process &p : k.processes) {
        o << "process " << p.id << " user" << (p.user ? p.user->id : npos) << " open" << p.open_count << " next"
          << p.next_fd << " fds";
        for (const File *f : p.fds)
            o << " " << id_of(f);
        o << " task_work";
        for (const File *f : p.task_work)
            o << " " << id_of(f);
        o << "\n";
    }
    for (const File &f : k.files)
        o << "file " << f.id << " rel" << f.released << " cause" << int(f.cause) << " count" << f.count << " sock"
          << id_of(f.sock) << "\n";
    for (const UnixSock &u : k.socks) {
        o << "sock " << u.id << " " << k.label_of(u) << " t" << int(u.type) << " s" << int(u.state) << " fb"
          << int(u.freed_by) << " rel" << u.released << " shut" << u.shutdown << " reset" << u.conn_reset << " cred"
          << u.passcred << " rights" << u.passrights << " flags" << int(u.gc_flags) << " on" << int(u.on) << " linked"
          << u.link.is_linked() << " addr" << u.address << " owner" << u.owner << " nr" << u.nr_fds << "/"
          << u.nr_unix_fds << " infl" << u.inflight << " peer" << id_of(u.peer) << " lst" << id_of(u.listener)
          << " file" << id_of(u.file) << " v" << id_of(u.vertex) << " oob" << id_of(u.oob_skb) << " q";
        for (const SkBuff &s : u.receive_queue)
            skb_text(o, s);
        if (u.oob_skb && !u.oob_skb->hook.is_linked())
            skb_text(o, *u.oob_skb);
        o << "\n";
    }
    auto list = [&](const char *name, const GcList &l) {
        o << name;
        for (const GcLink &x : l)
            o << " " << (x.is_cursor ? npos - 1 : static_cast<const UnixSock &>(x).id);
        o << "\n";
    };
    list("gc_inflight_list", k.gc_inflight_list);
    list("gc_candidates", k.gc_candidates);
    list("not_cycle_list", k.not_cycle_list);
    o << "hitlist";
    for (const SkBuff &s : k.hitlist)
        skb_text(o, s);
    o << "\n";
    for (const UnixVertex &v : k.vertex_pool) {
        o << "vertex " << v.pool_index << " sock" << id_of(v.sock) << " out" << v.out_degree << " idx" << v.index
          << " scc" << v.scc_index << " vis" << on_visited_list(k, v) << " verdict" << verdict_of(k, v) << " ring"
          << id_of(v.scc_prev) << "," << id_of(v.scc_next) << " linked" << v.entry.is_linked() << " edges";
        for (const UnixEdge &e : v.edges)
            o << " " << id_of(e.predecessor) << ">" << id_of(e.successor);
        o << "\n";
    }
    o << "unvisited";
    for (const UnixVertex &v : k.unvisited_vertices)
        o << " " << v.pool_index;
    o << "\nvisited";
    for (const UnixVertex &v : k.visited_vertices)
        o << " " << v.pool_index;
    o << "\n";
    for (const GcRun &r : k.gc_runs)
        o << "gc " << r.number << " " << r.trigger << " skip" << r.skipped << " in" << r.inflight_sockets << " cand"
          << r.candidates << " sccs" << r.sccs << " garbage" << r.garbage << " hit" << r.hitlist << " fast"
          << r.fast_path << " steps" << r.first_step << "-" << r.last_step << " ns" << r.start_ns << "-" << r.end_ns
          << " task" << r.task << "\n";
    for (const Finding &f : k.findings)
        o << "finding " << f.step << " " << f.invariant << " " << f.message << "\n";
    std::uint64_t sum = 0;
    for (const LatencySample &s : k.latencies)
        sum = sum * 31 + s.duration_ns + s.waited_ns * 7 + s.spun_ns * 13 + s.first_step * 17 + s.last_step * 19;
    o << "latencies " << k.latencies.size() << " " << sum << "\n";
    return o.str();
}

std::uint64_t state_digest(const Simulation &sim)
{
    std::uint64_t h = 1469598103934665603ull;
    for (const char c : digest_text(sim)) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ull;
    }
    return h;
}

} // namespace inflight
