// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/report.hpp"

#include "inflight/narrate.hpp"
#include "inflight/simulation.hpp"
#include "inflight/state_dump.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace inflight {

namespace {
// Length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlongs, no surrogates, at
// most U+10FFFF), or 0 when the byte there does not start one.
std::size_t utf8_sequence(const std::string &s, std::size_t i)
{
    const auto b = [&](std::size_t j) { return j < s.size() ? static_cast<unsigned char>(s[j]) : 0u; };
    const unsigned c = b(i);
    auto cont = [&](std::size_t j, unsigned lo = 0x80, unsigned hi = 0xBF) { return b(j) >= lo && b(j) <= hi; };
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        return cont(i + 1) ? 2 : 0;
    if (c == 0xE0)
        return cont(i + 1, 0xA0) && cont(i + 2) ? 3 : 0;
    if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF)
        return cont(i + 1) && cont(i + 2) ? 3 : 0;
    if (c == 0xED)
        return cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : 0;
    if (c == 0xF0)
        return cont(i + 1, 0x90) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    if (c >= 0xF1 && c <= 0xF3)
        return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    if (c == 0xF4)
        return cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    return 0;
}
} // namespace

std::string json_escape(const std::string &s)
{
    std::string out;
    out.reserve(s.size() + 2);
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const std::size_t n = utf8_sequence(s, i);
        if (n == 0) {
            // JSON is UTF-8: a byte that is not (a label from a Latin-1 scene file) becomes
            // U+FFFD, as nlohmann's error_handler_t::replace does for the rest of the output.
            out += "\\ufffd";
            ++i;
            continue;
        }
        if (n > 1) {
            out.append(s, i, n);
            i += n;
            continue;
        }
        ++i;
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    return out;
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
    auto group_of = [&](const LatencySample &smp, std::size_t &last) -> std::size_t {
        auto same = [&](const LatencyGroup &g) {
            // A task spawned several times under one name (a declared process) is one group.
            const std::string_view task_name =
                smp.task < sim.tasks().size() ? std::string_view(sim.tasks()[smp.task].name) : std::string_view("?");
            return g.task_name == task_name && g.kind == smp.kind && g.fn == smp.fn;
        };
        if (last < groups.size() && groups[last].task == smp.task && same(groups[last]))
            return last;
        for (std::size_t i = 0; i < groups.size(); ++i)
            if (same(groups[i]))
                return last = i;
        return last = npos;
    };
    std::size_t last = npos;
    for (const LatencySample &smp : sim.latencies()) {
        std::size_t i = group_of(smp, last);
        if (i == npos) {
            const std::string task_name = smp.task < sim.tasks().size() ? sim.tasks()[smp.task].name : std::string("?");
            LatencyGroup g;
            g.task = smp.task;
            g.task_name = task_name;
            g.kind = smp.kind;
            g.fn = smp.fn;
            g.name = task_name + ", " + std::string(kfn_name(smp.fn)) +
                     (smp.kind == CallKind::autobind ? std::string() : ", " + std::string(call_kind_name(smp.kind)));
            groups.push_back(g);
            counts.push_back(0);
            last = i = groups.size() - 1;
        }
        ++counts[i];
    }
    for (std::size_t i = 0; i < groups.size(); ++i)
        groups[i].durations.reserve(counts[i]);
    last = npos;
    for (const LatencySample &smp : sim.latencies()) {
        LatencyGroup &g = groups[group_of(smp, last)];
        g.durations.push_back(smp.duration_ns);
        g.waited_ns += smp.waited_ns;
        g.spun_ns += smp.spun_ns;
        g.waits += smp.waited_ns > 0;
    }
    for (LatencyGroup &g : groups)
        std::sort(g.durations.begin(), g.durations.end());
    return groups;
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
            std::uint64_t total = 0;
            for (auto d : g.durations)
                total += d;
            o << "  " << g.name << ": count " << g.durations.size() << ", avg "
              << format_ns(total / g.durations.size()) << ", p50 " << format_ns(nearest_rank(g.durations, 50))
              << ", p99 " << format_ns(nearest_rank(g.durations, 99)) << ", max " << format_ns(g.durations.back())
              << ", waited for GC in " << g.waits << "\n";
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
        std::uint64_t total = 0;
        for (auto d : g.durations)
            total += d;
        o << (first ? "\n    " : ",\n    ") << "{\"group\": " << q(g.name) << ", \"task\": " << g.task
          << ", \"fn\": " << q(std::string(kfn_name(g.fn))) << ", \"kind\": " << q(std::string(call_kind_name(g.kind)))
          << ", \"count\": " << g.durations.size() << ", \"total_ns\": " << total
          << ", \"avg_ns\": " << total / g.durations.size() << ", \"p50_ns\": " << nearest_rank(g.durations, 50)
          << ", \"p90_ns\": " << nearest_rank(g.durations, 90) << ", \"p99_ns\": " << nearest_rank(g.durations, 99)
          << ", \"max_ns\": " << g.durations.back() << ", \"waits\": " << g.waits
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

std::string report_text(const Simulation &sim)
{
    const Kernel &k = sim.kernel();
    std::ostringstream o;
    o << "scene: " << sim.scene().title << "\n";
    o << "collector: " << era_name(k.era()) << " (Linux " << era_kernel_label(k.era()) << ")\n";
    o << "statements: " << sim.statements_executed() << ", micro-steps: " << sim.steps() << "\n\n";
    o << "sockets:\n";
    constexpr std::size_t kMaxSocketsShown = 64;
    std::size_t shown = 0;
    for (const UnixSock &u : k.socks) {
        if (shown++ == kMaxSocketsShown) {
            std::size_t freed = 0;
            for (const UnixSock &v : k.socks)
                freed += v.released;
            o << "  ... " << k.socks.size() - kMaxSocketsShown << " more (" << freed << " of all "
              << k.socks.size() << " freed; --json lists every socket)\n";
            break;
        }
        char line[256];
        std::snprintf(line, sizeof line, "  %-18s %-9s %-5s refs %-3ld %s %-3ld queue %-3zu %s\n", k.label_of(u).c_str(),
                      std::string(sock_type_name(u.type)).c_str(), state_word(u).c_str(), u.file ? u.file->count : 0L,
                      k.era() == GcEra::graph ? "out_degree" : "inflight", k.collector().inflight_of(u),
                      u.receive_queue.size(),
                      u.released ? ("freed by " + std::string(freed_by_name(u.freed_by))).c_str() : "");
        o << line;
    }
    o << "\ncollections: " << k.gc_runs.size() << "\n";
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
        if (++shown_runs == kMaxRunsShown && k.gc_runs.size() > kMaxRunsShown) {
            o << "  ... " << k.gc_runs.size() - kMaxRunsShown << " more (--json lists every run)\n";
            break;
        }
    }
    o << time_summary_text(sim);
    if (!sim.warnings().empty()) {
        o << "\nwarnings:\n";
        for (const auto &w : sim.warnings())
            o << "  " << sim.scene().file << ":" << w.line << ": warning: " << w.message << "\n";
    }
    if (!k.findings.empty()) {
        o << "\nfindings (the run stopped at the first):\n";
        for (const auto &f : k.findings)
            o << "  step " << f.step << ": " << f.invariant << ": " << f.message << "\n";
    }
    const auto failed = sim.expectations_failed();
    o << "\nexpectations: " << sim.expectations().size() - failed << " passed, " << failed << " failed\n";
    for (const auto &e : sim.expectations())
        if (!e.passed)
            o << "  " << sim.scene().file << ":" << e.line << ": FAILED: " << e.message << "\n";
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
    o << "  \"kernel\": " << q(std::string(era_kernel_label(k.era()))) << ",\n";
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
    o << time_json(sim);
    o << "  \"warnings\": [";
    first = true;
    for (const auto &w : sim.warnings()) {
        o << (first ? "\n" : ",\n");
        first = false;
        o << "    {\"line\": " << w.line << ", \"message\": " << q(w.message) << "}";
    }
    o << (first ? "],\n" : "\n  ],\n");
    o << "  \"findings\": [";
    first = true;
    for (const auto &f : k.findings) {
        o << (first ? "\n" : ",\n");
        first = false;
        o << "    {\"step\": " << f.step << ", \"invariant\": " << q(f.invariant) << ", \"message\": " << q(f.message)
          << "}";
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

std::string trace_json(const std::vector<Event> &events, const Kernel &k, const std::string &scene_title,
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
        const bool a_is_skb = e.kind == EventKind::skb_queue || e.kind == EventKind::skb_dequeue ||
                              e.kind == EventKind::skb_free || e.kind == EventKind::skb_unref ||
                              e.kind == EventKind::fds_attach || e.kind == EventKind::fds_detach ||
                              e.kind == EventKind::skb_hitlist || e.kind == EventKind::stmt_begin ||
                              e.kind == EventKind::stmt_end || e.kind == EventKind::gc_begin ||
                              e.kind == EventKind::gc_end || e.kind == EventKind::gc_skip ||
                              e.kind == EventKind::finding;
        // A statement's b and c: its templated names as expanded, by name-pool id.
        const bool is_stmt = e.kind == EventKind::stmt_begin || e.kind == EventKind::stmt_end;
        auto name = [&](std::uint32_t id) {
            return id == npos || id >= k.name_pool.size() ? std::string("null") : q(std::string(k.name_pool.str(id)));
        };
        const bool b_is_process = e.kind == EventKind::fd_install || e.kind == EventKind::fd_close ||
                                  e.kind == EventKind::fput_deferred;
        const bool c_is_number = b_is_process || e.kind == EventKind::candidate_check ||
                                 e.kind == EventKind::vertex_dead || e.kind == EventKind::sock_release;
        o += first ? "\n    " : ",\n    ";
        first = false;
        o += "{\"step\": " + std::to_string(e.step) + ", \"line\": " + std::to_string(e.scene_line) +
             ", \"fn\": " + q(std::string(kfn_name(e.fn))) + ", \"kind\": " + q(std::string(event_kind_name(e.kind))) +
             ", \"a\": " + obj(e.a, !a_is_skb) + ", \"b\": " + (is_stmt ? name(e.b) : obj(e.b, !b_is_process)) +
             ", \"c\": " + (is_stmt ? name(e.c) : obj(e.c, !c_is_number)) + ", \"before\": " + std::to_string(e.before) +
             ", \"after\": " + std::to_string(e.after) + ", \"text\": " + q(describe(e, k, scene)) + "}";
    }
    o += first ? "]\n}\n" : "\n  ]\n}\n";
    return o;
}

} // namespace inflight
