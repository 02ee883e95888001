// SPDX-License-Identifier: GPL-3.0-or-later
// inflight-bench: the engine's speed and memory figures (README quotes them). Not a test: it
// prints numbers. Each figure is the median of several runs.
#include "inflight/checkpoint_store.hpp"
#include "inflight/kernel.hpp"
#include "inflight/parser.hpp"
#include "inflight/player.hpp"
#include "inflight/process_heap.hpp"
#include "inflight/simulation.hpp"
#include "proc_status.hpp"

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace inflight;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

std::uint64_t drain(Proc p)
{
    std::uint64_t n = 0;
    while (p.next())
        ++n;
    return n;
}

constexpr int kRings = 2000;
constexpr int kRingSize = 16;

// 2,000 rings of 16 dgram socketpairs: u(r,j)'s file sits in u(r,j+1)'s queue. With
// `garbage`, every user fd is closed afterwards, so the 32,000 in-flight sockets are garbage.
std::unique_ptr<Kernel> build_rings(GcEra era, bool garbage)
{
    KernelConfig c;
    c.era = era;
    c.nofile = 1u << 20;
    auto k = std::make_unique<Kernel>(c);
    Process &p = k->processes.front();
    k->current = &p;
    k->collections_suppressed = true;
    SysResult r;
    auto u = [](int ring, int j) { return "u" + std::to_string(ring) + "_" + std::to_string(j); };
    auto q = [](int ring, int j) { return "p" + std::to_string(ring) + "_" + std::to_string(j); };
    for (int ring = 0; ring < kRings; ++ring)
        for (int j = 0; j < kRingSize; ++j)
            drain(k->sys_socketpair(p, SockType::dgram, u(ring, j), q(ring, j), r));
    for (int ring = 0; ring < kRings; ++ring)
        for (int j = 0; j < kRingSize; ++j)
            drain(k->sys_sendmsg(p, q(ring, (j + 1) % kRingSize), {u(ring, j)}, 1, false, std::nullopt, r));
    if (garbage) {
        for (int ring = 0; ring < kRings; ++ring)
            for (int j = 0; j < kRingSize; ++j) {
                drain(k->sys_close(p, u(ring, j), r));
                drain(k->sys_close(p, q(ring, j), r));
            }
        drain(k->run_task_work(p));
    }
    k->collections_suppressed = false;
    return k;
}

struct GcFigures {
    double collect_ms;   // the collection itself (candidates/SCC walk, hitlist, purge)
    double release_ms;   // then every deferred __fput: the garbage sockets' release
    std::uint64_t steps; // micro-steps of the collection
    std::uint32_t garbage;
};

GcFigures one_collection(GcEra era, bool garbage, bool second_run)
{
    auto k = build_rings(era, garbage);
    Process &p = k->processes.front();
    if (second_run) { // graph: the first run groups the SCCs; the second takes the fast path
        drain(k->force_gc("warm-up"));
        drain(k->run_task_work(p));
        drain(k->run_workqueue());
    }
    auto t0 = Clock::now();
    const std::uint64_t steps = drain(k->force_gc("bench"));
    const double collect = ms_since(t0);
    t0 = Clock::now();
    drain(k->run_task_work(p));
    drain(k->run_workqueue());
    const double release = ms_since(t0);
    return {collect, release, steps, k->gc_runs.back().garbage};
}

void bench_collections()
{
    std::printf("Full collection over %d in-flight sockets (%d rings of %d), median of 5:\n", kRings * kRingSize,
                kRings, kRingSize);
    std::printf("  %-8s %-26s %12s %14s %12s %9s\n", "gc", "graph", "collect ms", "release ms", "micro-steps",
                "garbage");
    struct Case {
        GcEra era;
        bool garbage;
        bool second;
        const char *what;
    };
    const Case cases[] = {
        {GcEra::classic, false, false, "none garbage"},       {GcEra::classic, true, false, "all garbage"},
        {GcEra::async, false, false, "none garbage"},         {GcEra::async, true, false, "all garbage"},
        {GcEra::graph, false, false, "none garbage, Tarjan"}, {GcEra::graph, false, true, "none garbage, fast path"},
        {GcEra::graph, true, false, "all garbage, Tarjan"},
    };
    for (const Case &c : cases) {
        std::vector<double> collect, release;
        GcFigures f{};
        for (int i = 0; i < 5; ++i) {
            f = one_collection(c.era, c.garbage, c.second);
            collect.push_back(f.collect_ms);
            release.push_back(f.release_ms);
        }
        std::printf("  %-8s %-26s %12.2f %14.2f %12llu %9u\n", std::string(era_name(c.era)).c_str(), c.what,
                    median(collect), median(release), static_cast<unsigned long long>(f.steps), f.garbage);
    }
    std::printf("  (a real kernel's figures for the same collections: docs/performance.md)\n\n");
}

std::string ring_scene(int rings, int size, GcEra era)
{
    std::string s = "set gc " + std::string(era_name(era)) + "\nset nofile 1000000\n";
    s += "repeat " + std::to_string(rings) + " as r {\n  repeat " + std::to_string(size) +
         " as j {\n    socketpair u${r}_$j p${r}_$j\n  }\n  repeat " + std::to_string(size) +
         " as j {\n    send p${r}_${(j+1)%" + std::to_string(size) + "} fds=u${r}_$j\n  }\n  repeat " +
         std::to_string(size) + " as j {\n    close u${r}_$j\n  }\n}\n";
    s += "repeat " + std::to_string(rings) + " as r {\n  repeat " + std::to_string(size) +
         " as j {\n    close p${r}_$j\n  }\n}\n";
    return s;
}

void bench_stepping()
{
    std::printf("Stepping (scene: 200 rings of 8 closed one by one, every close runs a collection):\n");
    for (GcEra era : {GcEra::classic, GcEra::async, GcEra::graph}) {
        ParseResult parsed = parse_scene(ring_scene(200, 8, era), "bench.scn");
        auto scene = std::make_shared<const Scene>(std::move(parsed.scene));
        for (bool record : {false, true}) {
            std::vector<double> rate;
            std::uint64_t steps = 0;
            for (int i = 0; i < 3; ++i) {
                SimulationOptions o;
                o.record = record;
                Simulation sim(scene, o);
                auto t0 = Clock::now();
                sim.run();
                const double ms = ms_since(t0);
                steps = sim.steps();
                rate.push_back(static_cast<double>(steps) / ms / 1000.0);
            }
            std::printf("  %-8s %-16s %10llu micro-steps  %6.2f M steps/s\n", std::string(era_name(era)).c_str(),
                        record ? "recording" : "not recording", static_cast<unsigned long long>(steps), median(rate));
        }
    }
    // The player's jump: step 100,000 reached by replay from the start.
    ParseResult parsed = parse_scene(ring_scene(400, 16, GcEra::graph), "bench.scn");
    auto scene = std::make_shared<const Scene>(std::move(parsed.scene));
    Player player(scene);
    std::vector<double> jump;
    for (int i = 0; i < 5; ++i) {
        player.seek(0);
        auto t0 = Clock::now();
        player.seek(100000);
        jump.push_back(ms_since(t0));
    }
    std::printf("  player: jump from step 0 to step %llu of %llu: %.2f ms\n\n",
                static_cast<unsigned long long>(player.position()),
                static_cast<unsigned long long>(player.total_steps()), median(jump));
}

void bench_parse()
{
    std::string text = "set gc graph\nset nofile 1000000\n";
    const int n = 100000;
    for (int i = 0; i < n / 2; ++i)
        text += "socketpair a" + std::to_string(i) + " b" + std::to_string(i) + " dgram   # a pair\n";
    for (int i = 0; i < n / 2; ++i)
        text += "send b" + std::to_string(i) + " fds=a" + std::to_string(i) + " bytes=1\n";
    std::vector<double> ms;
    for (int i = 0; i < 5; ++i) {
        auto t0 = Clock::now();
        ParseResult r = parse_scene(text, "parse.scn");
        ms.push_back(ms_since(t0));
        if (!r.ok())
            std::printf("  (parse failed: %s)\n", r.diagnostics.front().format().c_str());
    }
    const double m = median(ms);
    std::printf("Scene parse and check: %d lines (%.1f MB) in %.1f ms = %.2f M lines/s\n\n", n,
                static_cast<double>(text.size()) / 1e6, m, n / m / 1000.0);
}

// Parsing memory against the input's size (a file of names must parse in memory proportional to its size): the
// peak resident growth while parse_scene() reads 10 MB of names, measured from a peak reset
// (/proc/self/clear_refs) so the sections before do not count. Two files: two-byte names
// repeated ("close a a a ...", the most names per byte) and a million distinct names.
void bench_parse_memory()
{
    auto peak_growth = [](const std::string &text) {
        if (std::FILE *f = std::fopen("/proc/self/clear_refs", "w")) {
            std::fputs("5", f); // resets VmHWM to the current resident size
            std::fclose(f);
        }
        const long before = bench::status_kib("VmRSS");
        std::size_t names = 0;
        {
            const ParseResult r = parse_scene(text, "names.scn");
            for (const Statement &st : r.scene.statements)
                names += st.names.size();
            if (!r.ok())
                std::printf("  (parse failed: %s)\n", r.diagnostics.front().format().c_str());
        }
        return std::pair{static_cast<double>(bench::status_kib("VmHWM") - before) * 1024.0, names};
    };
    constexpr std::size_t kSize = 10'000'000;
    std::string repeated = "socketpair a b\n";
    std::string line = "close";
    for (int i = 0; i < 200; ++i)
        line += " a";
    line += "\n";
    while (repeated.size() + line.size() <= kSize)
        repeated += line;
    std::string distinct = "repeat 1250000 {\n  socket s$i\n}\n";
    for (int i = 0; distinct.size() < kSize; i += 100) {
        distinct += "close";
        for (int j = i; j < i + 100; ++j)
            distinct += " s" + std::to_string(j);
        distinct += "\n";
    }
    std::printf("Parse memory (peak resident growth over the input's size):\n");
    for (const auto &[what, text] : {std::pair{"two-byte names", &repeated}, std::pair{"distinct names", &distinct}}) {
        const auto [bytes, names] = peak_growth(*text);
        std::printf("  %-15s %.1f MB, %zu names: %.0f MB = %.1f x the input    goal: <= 10 x\n", what,
                    static_cast<double>(text->size()) / 1e6, names, bytes / 1e6,
                    bytes / static_cast<double>(text->size()));
    }
    std::printf("\n");
}

long resident_bytes()
{
    long pages = 0, resident = 0;
    if (std::FILE *f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        std::fclose(f);
    }
    return resident * sysconf(_SC_PAGESIZE);
}

void bench_memory()
{
    // What one more idle socket costs in resident memory: the growth between 131,040 and
    // 262,112 sockets in one kernel. Both counts fill the socket and file chunks exactly
    // (ChunkedVector), and the slope leaves out what any kernel has (the autobind tables,
    // zeroed pages never touched), which a heap count would include at their full size.
    const int n1 = 32 * ((1 << 12) - 1), n2 = 32 * ((1 << 13) - 1);
    KernelConfig c;
    c.nofile = 1u << 20;
    auto k = std::make_unique<Kernel>(c);
    Process &p = k->processes.front();
    SysResult r;
    for (int i = 0; i < n1; ++i)
        drain(k->sys_socket(p, SockType::stream, "s" + std::to_string(i), r));
    const long at_n1 = resident_bytes();
    for (int i = n1; i < n2; ++i)
        drain(k->sys_socket(p, SockType::stream, "s" + std::to_string(i), r));
    const long at_n2 = resident_bytes();
    std::printf("Memory: %.0f bytes per idle socket (resident growth from %d to %d sockets, each with its file,\n"
                "        fd and name)\n",
                static_cast<double>(at_n2 - at_n1) / (n2 - n1), n1, n2);
    std::printf("        sizeof(UnixSock) %zu, sizeof(File) %zu\n\n", sizeof(UnixSock), sizeof(File));
}

// Time travel on a large scene, as the app runs it (fast-forwarded collections): one recorder
// pass that fills the checkpoint store, then a player sharing that store. Figures next to the
// time-travel goals (engine side: the app adds its views' refresh).
void bench_timetravel(const std::string &path)
{
    ParseResult parsed = load_scene_file(path);
    if (!parsed.ok()) {
        std::printf("timetravel: cannot load %s\n", path.c_str());
        return;
    }
    auto scene = std::make_shared<const Scene>(std::move(parsed.scene));
    SimulationOptions o;
    o.record = false;
    o.fast_forward = true;
    std::printf("time travel: %s (fast-forwarded)\n", path.c_str());
    // Three recorder passes, each into a store of its own: the goal is a median, and this
    // machine's speed drifts by up to 2x within minutes. The player below uses the last one.
    std::shared_ptr<CheckpointStore> store;
    std::unique_ptr<Simulation> recorder;
    std::uint64_t events = 0;
    std::vector<std::uint64_t> shown; // the steps a fast-forwarded viewer can stop at (the app's index)
    std::vector<double> passes;
    for (int pass = 0; pass < 3; ++pass) {
        store.reset(); // the previous pass's checkpoints go before the next pass is timed
        recorder.reset();
        store = std::make_shared<CheckpointStore>();
        events = 0;
        shown.clear();
        const auto t0 = Clock::now();
        recorder = std::make_unique<Simulation>(scene, o);
        std::atomic<bool> cancel{false};
        record_run(
            *recorder, *store,
            [&](const Event &e) {
                ++events;
                shown.push_back(e.step);
            },
            cancel);
        passes.push_back(ms_since(t0));
    }
    const double record_ms = median(passes);
    CheckpointStats st = store->stats();
    std::printf("  recorder pass: %llu steps (%llu shown), median of 3 %.0f ms (%.0f, %.0f, %.0f)\n"
                "                                                goal: opened and indexed <= 10 s\n",
                static_cast<unsigned long long>(recorder->steps()), static_cast<unsigned long long>(events), record_ms,
                passes[0], passes[1], passes[2]);
    std::printf("  checkpoints after it: %zu, %.1f MB (taken %zu, thinned %zu)   goal: <= 256 MB\n", st.count,
                st.bytes / 1048576.0, st.taken, st.thinned);
    std::printf("  of the recorder pass, packing checkpoints: %.0f ms\n", st.packing_ms);
    // What freezing buys: a checkpoint keeps the object graph packed by id and compressed.
    std::printf("  a checkpoint: %.1f MB frozen on average, against %.1f MB for a live copy of the last state\n",
                st.count ? st.bytes / 1048576.0 / static_cast<double>(st.count) : 0.0,
                static_cast<double>(state_bytes(*recorder)) / 1048576.0);
    const CostRates rates = store->rates();
    const TailPlan tail = store->tail_plan(state_bytes(*recorder));
    std::printf("  cost model after it: replay %.1f ns/step, pack %.2f ns/byte;\n"
                "    checkpoint spacing %llu steps, tail spacing %llu steps%s\n",
                rates.replay_ns_per_step, rates.pack_ns_per_byte,
                static_cast<unsigned long long>(store->spacing(state_bytes(*recorder))),
                static_cast<unsigned long long>(tail.spacing), tail.one_at_a_time ? ", packed one at a time" : "");
    Player player(scene, o, store);
    auto t0 = Clock::now();
    player.seek(recorder->steps());
    std::printf("  seek to the end: %.0f ms\n", ms_since(t0));
    if (recorder->steps() > 0)
        std::printf(
            "  the checkpoint a step back from the end restores: %llu steps before the end\n",
            static_cast<unsigned long long>(recorder->steps() - store->at_or_before(recorder->steps() - 1)->steps()));
    std::vector<double> back;
    for (int i = 0; i < 9; ++i) {
        // As the app steps back: to the previous shown step, which its index knows.
        const std::uint64_t here = player.position();
        auto it = std::lower_bound(shown.begin(), shown.end(), here);
        t0 = Clock::now();
        player.seek(it == shown.begin() ? 0 : *std::prev(it));
        back.push_back(ms_since(t0));
    }
    // The goals: 100 ms on the 32,000-socket scene; 200 ms on the million-socket one,
    // whose every restore is a ~210 MB state.
    const int back_goal = state_bytes(*recorder) > (std::size_t(128) << 20) ? 200 : 100;
    std::printf("  step back near the end: first %.1f ms, median of 9 %.1f ms     goal: <= %d ms\n", back.front(),
                median(back), back_goal);
    // Each one: the first few land between the tail checkpoints; the later ones replay the run's
    // last collection from the checkpoint before it (no checkpoint is taken inside one).
    std::printf("    each:");
    for (double ms : back)
        std::printf(" %.0f", ms);
    std::printf(" ms\n");
    std::mt19937_64 rng(42);
    std::vector<double> jump;
    for (int i = 0; i < 10; ++i) {
        const auto target = std::uniform_int_distribution<std::uint64_t>(1, recorder->steps())(rng);
        t0 = Clock::now();
        player.seek(target);
        jump.push_back(ms_since(t0));
    }
    std::printf("  random jumps: median %.0f ms, max %.0f ms                   goal: <= 200 ms\n", median(jump),
                *std::max_element(jump.begin(), jump.end()));
    st = store->stats();
    std::printf("  checkpoints at the end: %zu, %.1f MB; restores measured at %.2f ns/byte\n\n", st.count,
                st.bytes / 1048576.0, store->rates().restore_ns_per_byte);
}

} // namespace

int main(int argc, char **argv)
{
    inflight::configure_process_heap(argc, argv); // the heap the CLI and the app run with
    const std::string only = argc > 1 ? argv[1] : "";
    // Memory first, in a fresh heap, so earlier runs' freed blocks do not blur the figure.
    if (only.empty() || only == "memory")
        bench_memory();
    if (only.empty() || only == "gc")
        bench_collections();
    if (only.empty() || only == "step")
        bench_stepping();
    if (only.empty() || only == "parse") {
        bench_parse();
        bench_parse_memory();
    }
    // Opt-in (a minute or more): inflight-bench timetravel [SCENE...]
    if (only == "timetravel") {
        if (argc < 3)
            bench_timetravel("scenes/large/large-32000-in-flight.scn");
        for (int i = 2; i < argc; ++i)
            bench_timetravel(argv[i]);
    }
    return 0;
}
