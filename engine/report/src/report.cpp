// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/report.hpp"
#include "inflight/run_names.hpp"

#include "inflight/kernel.hpp"
#include "inflight/narrate.hpp"
#include "inflight/simulation.hpp"
#include "inflight/state_dump.hpp"
#include "inflight/utf8.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace inflight {

std::string json_escape(const std::string &s)
{
    // nlohmann's serializer is the one JSON writer (the objects are streamed piece by piece,
    // a 2M-socket report never held as a DOM): it escapes control characters, and replaces
    // bytes that are not UTF-8 (a Latin-1 title) with U+FFFD, so the output is always JSON.
    // Labels and names are plain ASCII: a million of them need no serializer.
    if (std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7F && c != '"' && c != '\\'; }))
        return s;
    const std::string quoted = nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return quoted.substr(1, quoted.size() - 2);
}

namespace {

std::string q(const std::string &s) { return "\"" + json_escape(s) + "\""; }

std::string state_word(const UnixSock &u) { return u.released ? "freed" : "alive"; }

} // namespace

std::string format_ns(std::uint64_t ns)
{
    char buf[64];
    if (ns < 10'000)
        std::snprintf(buf, sizeof buf, "%llu ns", static_cast<unsigned long long>(ns));
    else if (ns < 10'000'000)
        std::snprintf(buf, sizeof buf, "%.2f us", static_cast<double>(ns) / 1e3);
    else if (ns < 10'000'000'000ULL)
        std::snprintf(buf, sizeof buf, "%.2f ms", static_cast<double>(ns) / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.3f s", static_cast<double>(ns) / 1e9);
    return buf;
}

std::vector<LatencyGroup> latency_groups(const Simulation &sim)
{
    // Two passes: the groups and their sizes first, then each durations vector filled at its
    // final size. A million-bind scene's report then holds one copy of the durations, not the
    // two or three that doubling vectors would briefly need.
    std::vector<LatencyGroup> groups;
    std::vector<std::size_t> counts;
    auto task_name_of = [&](std::uint32_t task) {
        return task < sim.tasks().size() ? std::string_view(sim.tasks()[task].name) : std::string_view("?");
    };
    auto group_of = [&](std::uint32_t task, CallKind kind, KFn fn, std::size_t &last) -> std::size_t {
        auto same = [&](const LatencyGroup &g) {
            // A task spawned several times under one name (a declared process) is one group.
            return g.task_name == task_name_of(task) && g.kind == kind && g.fn == fn;
        };
        if (last < groups.size() && groups[last].task == task && same(groups[last]))
            return last;
        for (std::size_t i = 0; i < groups.size(); ++i)
            if (same(groups[i]))
                return last = i;
        LatencyGroup g;
        g.task = task;
        g.task_name = std::string(task_name_of(task));
        g.kind = kind;
        g.fn = fn;
        g.name = g.task_name + ", " + std::string(kfn_name(fn)) +
                 (kind == CallKind::autobind ? std::string() : ", " + std::string(call_kind_name(kind)));
        groups.push_back(std::move(g));
        counts.push_back(0);
        return last = groups.size() - 1;
    };
    std::size_t last = npos;
    for (const LatencySample &smp : sim.latencies())
        ++counts[group_of(smp.task, smp.kind, smp.fn, last)];
    for (std::size_t i = 0; i < groups.size(); ++i)
        groups[i].durations.reserve(counts[i]);
    last = npos;
    for (const LatencySample &smp : sim.latencies()) {
        LatencyGroup &g = groups[group_of(smp.task, smp.kind, smp.fn, last)];
        g.durations.push_back(smp.duration_ns);
        g.waited_ns = saturating_add(g.waited_ns, smp.waited_ns);
        g.spun_ns = saturating_add(g.spun_ns, smp.spun_ns);
        g.waits += smp.waited_ns > 0;
    }
    for (LatencyGroup &g : groups)
        std::sort(g.durations.begin(), g.durations.end());
    // The counted calls come in (task, fn, kind, duration) order: each group's ascending.
    last = npos;
    for (const auto &[key, c] : sim.kernel().latency_counts.entries()) {
        LatencyGroup &g = groups[group_of(key.task, key.kind, key.fn, last)];
        if (!g.counted.empty() && g.counted.back().first == key.duration_ns)
            g.counted.back().second += c.calls; // two tasks of one name
        else if (!g.counted.empty() && g.counted.back().first > key.duration_ns)
            g.counted.insert(std::upper_bound(g.counted.begin(), g.counted.end(), std::pair(key.duration_ns, c.calls)),
                             {key.duration_ns, c.calls});
        else
            g.counted.emplace_back(key.duration_ns, c.calls);
        g.waited_ns = saturating_add(g.waited_ns, c.waited_ns);
        g.spun_ns = saturating_add(g.spun_ns, c.spun_ns);
        g.waits += c.waits;
    }
    return groups;
}

std::uint64_t LatencyGroup::count() const
{
    std::uint64_t n = durations.size();
    for (const auto &[d, calls] : counted)
        n += calls;
    return n;
}

std::uint64_t LatencyGroup::total_ns() const
{
    std::uint64_t t = 0;
    for (std::uint64_t d : durations)
        t = saturating_add(t, d);
    for (const auto &[d, calls] : counted)
        t = saturating_add(t, saturating_mul(d, calls));
    return t;
}

std::uint64_t LatencyGroup::average_ns() const
{
    unsigned __int128 t = 0;
    for (std::uint64_t d : durations)
        t += d;
    for (const auto &[d, calls] : counted)
        t += static_cast<unsigned __int128>(d) * calls;
    const std::uint64_t n = count();
    return n ? static_cast<std::uint64_t>(t / n) : 0;
}

std::uint64_t LatencyGroup::max_ns() const
{
    std::uint64_t m = durations.empty() ? 0 : durations.back();
    return counted.empty() ? m : std::max(m, counted.back().first);
}

std::uint64_t LatencyGroup::percentile(double p) const
{
    if (counted.empty())
        return nearest_rank(durations, p);
    Log2Histogram h;
    add_to(h);
    return h.percentile_ns(p);
}

void LatencyGroup::add_to(Log2Histogram &h) const
{
    for (std::uint64_t d : durations)
        h.add(d);
    for (const auto &[d, calls] : counted)
        h.add(d, calls);
}

std::uint64_t nearest_rank(const std::vector<std::uint64_t> &sorted, double p)
{
    if (sorted.empty())
        return 0;
    auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
    rank = std::clamp<std::size_t>(rank, 1, sorted.size());
    return sorted[rank - 1];
}

std::string time_summary_text(const Simulation &sim)
{
    std::ostringstream o;
    const Kernel &k = sim.kernel();
    o << "\nmodelled time: " << format_ns(sim.now_ns()) << (sim.concurrent() ? "" : " (one CPU, one task)") << "\n";
    if (sim.concurrent())
        for (const Task &t : k.tasks)
            o << "  task " << t.name << " on cpu " << t.cpu << (t.kworker ? " (kworker)" : "") << ": "
              << (t.finished || t.kworker ? "done at " : "stopped at ") << format_ns(t.clock)
              << (t.waited_ns ? ", waited for GC " + format_ns(t.waited_ns) : std::string())
              << (t.spun_ns ? ", spun " + format_ns(t.spun_ns) : std::string()) << "\n";
    if (k.unix_gc_lock.contended)
        o << "  unix_gc_lock: " << k.unix_gc_lock.acquisitions << " acquisitions, " << k.unix_gc_lock.contended
          << " contended, " << format_ns(k.unix_gc_lock.spun_ns) << " spun\n";
    const auto groups = latency_groups(sim);
    if (!groups.empty()) {
        o << "latency (modelled, per task and call kind):\n";
        for (const LatencyGroup &g : groups) {
            o << "  " << g.name << ": count " << g.count() << ", avg " << format_ns(g.average_ns()) << ", p50 "
              << format_ns(g.percentile(50)) << ", p99 " << format_ns(g.percentile(99)) << ", max "
              << format_ns(g.max_ns()) << ", waited for GC in " << g.waits << "\n";
        }
    }
    return o.str();
}

std::string time_json(const Simulation &sim)
{
    std::ostringstream o;
    const Kernel &k = sim.kernel();
    o << "  \"time\": {\"end_ns\": " << sim.now_ns() << ", \"concurrent\": " << (sim.concurrent() ? "true" : "false")
      << ", \"cpus\": " << k.config().cpus << ", \"tasks\": [";
    bool first = true;
    for (const Task &t : k.tasks) {
        o << (first ? "" : ", ") << "{\"name\": " << q(t.name) << ", \"cpu\": " << t.cpu
          << ", \"kworker\": " << (t.kworker ? "true" : "false") << ", \"clock_ns\": " << t.clock
          << ", \"waited_ns\": " << t.waited_ns << ", \"spun_ns\": " << t.spun_ns << "}";
        first = false;
    }
    o << "], \"unix_gc_lock\": {\"acquisitions\": " << k.unix_gc_lock.acquisitions
      << ", \"contended\": " << k.unix_gc_lock.contended << ", \"spun_ns\": " << k.unix_gc_lock.spun_ns << "}";
    o << ", \"costs\": {";
    first = true;
    for (const CostInfo &c : cost_table()) {
        o << (first ? "" : ", ") << q(std::string(c.name)) << ": " << k.costs()[c.cost];
        first = false;
    }
    o << "}, \"latency\": [";
    first = true;
    for (const LatencyGroup &g : latency_groups(sim)) {
        o << (first ? "\n    " : ",\n    ") << "{\"group\": " << q(g.name) << ", \"task\": " << g.task
          << ", \"fn\": " << q(std::string(kfn_name(g.fn))) << ", \"kind\": " << q(std::string(call_kind_name(g.kind)))
          << ", \"count\": " << g.count() << ", \"total_ns\": " << g.total_ns() << ", \"avg_ns\": " << g.average_ns()
          << ", \"p50_ns\": " << g.percentile(50) << ", \"p90_ns\": " << g.percentile(90)
          << ", \"p99_ns\": " << g.percentile(99) << ", \"max_ns\": " << g.max_ns()
          << ", \"kept_one_by_one\": " << g.durations.size() << ", \"waits\": " << g.waits
          << ", \"waited_ns\": " << g.waited_ns << ", \"spun_ns\": " << g.spun_ns << "}";
        first = false;
    }
    o << (first ? "]},\n" : "\n  ]},\n");
    return o.str();
}

std::string trace_line(const Event &e, const Kernel &k, const Scene *scene)
{
    char head[64];
    std::snprintf(head, sizeof head, "%8llu  L%-4u ", static_cast<unsigned long long>(e.step), e.scene_line);
    std::string fn(kfn_name(e.fn));
    std::string kind(event_kind_name(e.kind));
    fn.resize(std::max<std::size_t>(fn.size(), 24), ' ');
    kind.resize(std::max<std::size_t>(kind.size(), 17), ' ');
    return head + fn + " " + kind + " " + describe(e, k, scene);
}

// The changes the scene's `set fix` lines turned over from its profile: "+unify-scc-index".
std::vector<std::string> fixes_turned_over(const Kernel &k)
{
    std::vector<std::string> out;
    const KernelProfile *p = kernel_profile_by_name(k.config().profile);
    if (!p)
        return out;
    for (const KernelChangeInfo &i : kernel_change_table())
        if (p->changes.has(i.id) != k.config().has(i.id) && kernel_change_applies(k.era(), i.id))
            out.push_back((k.config().has(i.id) ? "+" : "-") + std::string(i.name));
    return out;
}

std::string kernel_text(const Kernel &k)
{
    const KernelProfile *p = kernel_profile_by_name(k.config().profile);
    std::string s = "kernel profile " + std::string(k.config().profile);
    if (p)
        s += " (" + std::string(p->title) + ")";
    for (const std::string &f : fixes_turned_over(k))
        s += " " + f;
    return s;
}

std::string report_text(const Simulation &sim)
{
    const Kernel &k = sim.kernel();
    std::ostringstream o;
    o << "scene: " << printable(sim.scene().title) << "\n";
    o << "collector: " << era_name(k.era()) << ", " << kernel_text(k) << "\n";
    o << "statements: " << sim.statements_executed() << ", micro-steps: " << sim.steps() << "\n\n";
    o << "sockets:\n";
    constexpr std::size_t kMaxSocketsShown = 64;
    std::size_t shown = 0;
    for (const UnixSock &u : k.socks) {
        if (shown++ == kMaxSocketsShown) {
            std::size_t freed = 0;
            for (const UnixSock &v : k.socks)
                freed += v.released;
            o << "  ... " << k.socks.size() - kMaxSocketsShown << " more (" << freed << " of all " << k.socks.size()
              << " freed; --json lists every socket)\n";
            break;
        }
        char line[256];
        std::snprintf(line, sizeof line, "  %-18s %-9s %-5s refs %-3ld %s %-3ld queue %-3zu %s\n",
                      printable(k.label_of(u)).c_str(), std::string(sock_type_name(u.type)).c_str(),
                      state_word(u).c_str(), u.file ? u.file->count : 0L,
                      k.era() == GcEra::graph ? "out_degree" : "inflight", k.collector().inflight_of(u),
                      u.receive_queue.size(),
                      u.released ? ("freed by " + std::string(freed_by_name(u.freed_by))).c_str() : "");
        o << line;
    }
    o << "\ncollections: " << k.gc_runs_total() << "\n";
    constexpr std::size_t kMaxRunsShown = 20;
    std::size_t shown_runs = 0;
    for (const GcRun &r : k.gc_runs) {
        o << "  #" << r.number << " (" << r.trigger << ")";
        if (r.skipped)
            o << " skipped: graph not cyclic";
        else if (k.era() == GcEra::graph)
            o << (r.fast_path ? " fast path" : " Tarjan") << ", " << r.sccs << " SCCs";
        else
            o << " " << r.candidates << " candidates";
        o << ", " << r.garbage << " garbage, hitlist " << r.hitlist << ", " << r.micro_steps << " micro-steps, "
          << format_ns(r.end_ns - r.start_ns) << " at " << format_ns(r.start_ns) << "\n";
        if (++shown_runs == kMaxRunsShown && k.gc_runs_total() > kMaxRunsShown) {
            o << "  ... and " << group_digits(k.gc_runs_total() - kMaxRunsShown) << " more (--json lists "
              << (k.gc_runs_dropped ? "the first " + group_digits(k.gc_runs.size() - 1) + " and the last" : "every run")
              << ")\n";
            break;
        }
    }
    o << time_summary_text(sim);
    if (!sim.warnings().empty()) {
        o << "\nwarnings:\n";
        for (const auto &w : sim.warnings())
            o << "  " << printable(sim.scene().file) << ":" << w.line << ": warning: " << printable(w.message) << "\n";
        if (sim.warnings_dropped())
            o << "  ... and " << group_digits(sim.warnings_dropped()) << " more (the warnings budget keeps "
              << group_digits(sim.warnings().size()) << ")\n";
    }
    if (auto limit = sim.limit_reached())
        o << "\nstopped: " << printable(limit->format()) << "\n";
    if (!k.findings.empty()) {
        o << (sim.stopped_by_finding() ? "\nfindings (the run stopped at the first that is not a WARN):\n"
                                       : "\nfindings (kernel warnings: the run went on, as the kernel does):\n");
        for (const auto &f : k.findings)
            o << "  step " << f.step << ": " << (f.warning ? "WARN: " : "") << f.invariant << ": " << f.message << "\n";
    }
    const auto failed = sim.expectations_failed();
    o << "\nexpectations: " << sim.expectations().size() - failed << " passed, " << failed << " failed\n";
    for (const auto &e : sim.expectations())
        if (!e.passed)
            o << "  " << printable(sim.scene().file) << ":" << e.line << ": FAILED: " << printable(e.message) << "\n";
    return o.str();
}

std::string report_json(const Simulation &sim)
{
    const Kernel &k = sim.kernel();
    std::ostringstream o;
    o << "{\n";
    o << "  \"scene\": " << q(sim.scene().title) << ",\n";
    o << "  \"file\": " << q(sim.scene().file) << ",\n";
    o << "  \"gc\": " << q(std::string(era_name(k.era()))) << ",\n";
    o << "  \"kernel\": " << q(std::string(k.config().profile)) << ",\n";
    o << "  \"fixes\": [";
    {
        const std::vector<std::string> fixes = fixes_turned_over(k);
        for (std::size_t i = 0; i < fixes.size(); ++i)
            o << (i ? ", " : "") << q(fixes[i]);
    }
    o << "],\n";
    o << "  \"statements\": " << sim.statements_executed() << ",\n";
    o << "  \"steps\": " << sim.steps() << ",\n";
    o << "  \"sockets\": [";
    bool first = true;
    for (const UnixSock &u : k.socks) {
        o << (first ? "\n" : ",\n");
        first = false;
        o << "    {\"label\": " << q(k.label_of(u)) << ", \"type\": " << q(std::string(sock_type_name(u.type)))
          << ", \"state\": " << q(state_word(u)) << ", \"file_refs\": " << (u.file ? u.file->count : 0)
          << ", \"inflight\": " << k.collector().inflight_of(u) << ", \"queue\": " << u.receive_queue.size()
          << ", \"freed_by\": " << (u.released ? q(std::string(freed_by_name(u.freed_by))) : "null") << "}";
    }
    o << (first ? "],\n" : "\n  ],\n");
    o << "  \"gc_runs\": [";
    first = true;
    for (const GcRun &r : k.gc_runs) {
        o << (first ? "\n" : ",\n");
        first = false;
        o << "    {\"run\": " << r.number << ", \"trigger\": " << q(r.trigger)
          << ", \"skipped\": " << (r.skipped ? "true" : "false");
        if (k.era() == GcEra::graph)
            o << ", \"fast_path\": " << (r.fast_path ? "true" : "false") << ", \"sccs\": " << r.sccs;
        else
            o << ", \"candidates\": " << r.candidates;
        o << ", \"inflight_sockets\": " << r.inflight_sockets << ", \"garbage\": " << r.garbage
          << ", \"hitlist\": " << r.hitlist << ", \"micro_steps\": " << r.micro_steps
          << ", \"first_step\": " << r.first_step << ", \"last_step\": " << r.last_step
          << ", \"start_ns\": " << r.start_ns << ", \"end_ns\": " << r.end_ns
          << ", \"duration_ns\": " << r.end_ns - r.start_ns << ", \"task\": " << r.task << "}";
    }
    o << (first ? "],\n" : "\n  ],\n");
    o << "  \"gc_runs_total\": " << k.gc_runs_total() << ",\n";
    o << time_json(sim);
    o << "  \"warnings\": [";
    first = true;
    for (const auto &w : sim.warnings()) {
        o << (first ? "\n" : ",\n");
        first = false;
        o << "    {\"line\": " << w.line << ", \"message\": " << q(w.message) << "}";
    }
    o << (first ? "],\n" : "\n  ],\n");
    o << "  \"warnings_total\": " << sim.warnings().size() + sim.warnings_dropped() << ",\n";
    if (auto limit = sim.limit_reached())
        o << "  \"limit\": {\"name\": " << q(std::string(budget_info(sim.kernel().breach->which).name))
          << ", \"line\": " << limit->loc.line << ", \"col\": " << limit->loc.col
          << ", \"message\": " << q(limit->message) << "},\n";
    o << "  \"findings\": [";
    first = true;
    for (const auto &f : k.findings) {
        o << (first ? "\n" : ",\n");
        first = false;
        o << "    {\"step\": " << f.step << ", \"invariant\": " << q(f.invariant) << ", \"message\": " << q(f.message)
          << ", \"warning\": " << (f.warning ? "true" : "false") << "}";
    }
    o << (first ? "],\n" : "\n  ],\n");
    const auto failed = sim.expectations_failed();
    o << "  \"expectations\": {\"passed\": " << sim.expectations().size() - failed << ", \"failed\": " << failed
      << ", \"failures\": [";
    first = true;
    for (const auto &e : sim.expectations())
        if (!e.passed) {
            o << (first ? "" : ", ");
            first = false;
            o << "{\"line\": " << e.line << ", \"message\": " << q(e.message) << "}";
        }
    o << "]},\n";
    // The globals at the end of the run, as `run --at` shows them for any step.
    o << "  \"globals\": " << globals_json(k) << "\n}\n";
    return o.str();
}

} // namespace inflight

namespace inflight {

std::string trace_json(const RecordedEvents &events, const RunNames &k, const std::string &scene_title,
                       const Scene *scene)
{
    std::string o;
    o.reserve(events.size() * 160 + 128);
    o += "{\n  \"scene\": " + q(scene_title) + ",\n  \"gc\": " + q(std::string(era_name(k.era()))) +
         ",\n  \"kernel\": " + q(std::string(era_kernel_label(k.era()))) + ",\n  \"events\": [";
    auto obj = [&](std::uint32_t id, bool is_sock) {
        if (id == npos)
            return std::string("null");
        return is_sock ? q(k.label_of_id(id)) : std::to_string(id);
    };
    bool first = true;
    for (const Event &e : events) {
        // a/b/c are sockets except where the event says otherwise (skb ids, fds, processes).
        const bool a_is_skb =
            e.kind == EventKind::skb_queue || e.kind == EventKind::skb_dequeue || e.kind == EventKind::skb_free ||
            e.kind == EventKind::skb_unref || e.kind == EventKind::fds_attach || e.kind == EventKind::fds_detach ||
            e.kind == EventKind::skb_hitlist || e.kind == EventKind::stmt_begin || e.kind == EventKind::stmt_end ||
            e.kind == EventKind::gc_begin || e.kind == EventKind::gc_end || e.kind == EventKind::gc_skip ||
            e.kind == EventKind::finding;
        // A statement's b and c: its templated names as expanded, by name-pool id.
        const bool is_stmt = e.kind == EventKind::stmt_begin || e.kind == EventKind::stmt_end;
        auto name = [&](std::uint32_t id) {
            return id == npos || id >= k.name_pool().size() ? std::string("null")
                                                            : q(std::string(k.name_pool().str(id)));
        };
        const bool b_is_process =
            e.kind == EventKind::fd_install || e.kind == EventKind::fd_close || e.kind == EventKind::fput_deferred;
        const bool c_is_number = b_is_process || e.kind == EventKind::candidate_check ||
                                 e.kind == EventKind::vertex_dead || e.kind == EventKind::sock_release;
        o += first ? "\n    " : ",\n    ";
        first = false;
        o += "{\"step\": " + std::to_string(e.step) + ", \"line\": " + std::to_string(e.scene_line) +
             ", \"fn\": " + q(std::string(kfn_name(e.fn))) + ", \"kind\": " + q(std::string(event_kind_name(e.kind))) +
             ", \"a\": " + obj(e.a, !a_is_skb) + ", \"b\": " + (is_stmt ? name(e.b) : obj(e.b, !b_is_process)) +
             ", \"c\": " + (is_stmt ? name(e.c) : obj(e.c, !c_is_number)) +
             ", \"before\": " + std::to_string(e.before) + ", \"after\": " + std::to_string(e.after) +
             ", \"text\": " + q(describe(e, k, scene)) + "}";
    }
    o += first ? "]\n}\n" : "\n  ]\n}\n";
    return o;
}

} // namespace inflight
