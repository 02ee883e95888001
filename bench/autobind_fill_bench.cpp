// SPDX-License-Identifier: GPL-3.0-or-later
// inflight-fill-bench: binds every autobind name of one socket type through the whole engine, as
// `inflight-cli run` does: the scene text below is parsed (with its static check) and run by a
// Simulation that fast-forwards (record = false). 2^20 `socket` + `bind` statements fill the
// dgram name space; the next dgram bind must fail with ENOSPC and a stream bind still succeeds.
// The same scene with 100,000 binds is run first. Each run is made in a child process, so that
// its peak RSS (VmHWM) is its own. Prints plain "key value" lines. Not a test.
//
//   inflight-fill-bench [--only N]     (N: the number of binds of one run, e.g. 1048576)
#include "inflight/kernel_queries.hpp"
#include "inflight/parser.hpp"
#include "inflight/process_heap.hpp"
#include "inflight/simulation.hpp"
#include "proc_status.hpp"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>

using namespace inflight;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// User + system CPU time of this process so far (steadier than wall time on a busy machine).
double cpu_seconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// The fill scene with `binds` iterations. Only a full fill expects the next dgram bind to fail.
std::string fill_scene(std::uint32_t binds)
{
    const bool full = binds >= kAutobindSpace;
    std::string s = "scene \"fill\"\n"
                    "set nofile 1100000\n"
                    "set limit 2000000\n"
                    "repeat " +
                    std::to_string(binds) +
                    " as i {\n"
                    "  socket s$i dgram\n"
                    "  bind s$i\n"
                    "}\n"
                    "socket t dgram\n"
                    "bind t\n";
    if (full)
        s += "expect error ENOSPC\n";
    s += "socket u stream\n"
         "bind u\n";
    return s;
}

int run_one(std::uint32_t binds)
{
    const auto t0 = Clock::now();
    ParseResult parsed = parse_scene(fill_scene(binds), "fill.scn");
    const double parse_s = seconds_since(t0);
    if (!parsed.ok()) {
        for (const auto &d : parsed.diagnostics)
            std::fprintf(stderr, "%s\n", d.format().c_str());
        return 2;
    }
    SimulationOptions options;
    options.record = false;
    options.fast_forward = true;
    const auto t1 = Clock::now();
    Simulation sim(std::make_shared<const Scene>(std::move(parsed.scene)), options);
    sim.run();
    const double run_s = seconds_since(t1);
    const double wall_s = seconds_since(t0);

    const AbstractNamespace &ns = abstract_namespace(sim.kernel());
    const AbstractStats &st = ns.stats();
    std::uint64_t enospc_statements = 0;
    for (const ExpectationOutcome &e : sim.expectations())
        enospc_statements += e.passed;
    const char *prefix = binds >= kAutobindSpace ? "full" : "partial";
    std::printf("%s.binds_requested %u\n", prefix, binds + 2);
    std::printf("%s.binds_done %llu\n", prefix, static_cast<unsigned long long>(st.autobind_bound));
    std::printf("%s.enospc_seen %llu\n", prefix, static_cast<unsigned long long>(st.enospc));
    std::printf("%s.expectations_passed %llu of %zu\n", prefix, static_cast<unsigned long long>(enospc_statements),
                sim.expectations().size());
    std::printf("%s.dgram_names_taken %u\n", prefix, ns.autobind_names_taken(SockType::dgram));
    std::printf("%s.probes %llu\n", prefix, static_cast<unsigned long long>(st.probes));
    std::printf("%s.chain_compares %llu\n", prefix, static_cast<unsigned long long>(st.compared));
    std::printf("%s.statements %llu\n", prefix, static_cast<unsigned long long>(sim.statements_executed()));
    std::printf("%s.modelled_ns %llu\n", prefix, static_cast<unsigned long long>(sim.now_ns()));
    std::printf("%s.modelled_s %.3f\n", prefix, static_cast<double>(sim.now_ns()) / 1e9);
    std::printf("%s.parse_s %.3f\n", prefix, parse_s);
    std::printf("%s.run_s %.3f\n", prefix, run_s);
    std::printf("%s.wall_s %.3f\n", prefix, wall_s);
    std::printf("%s.cpu_s %.3f\n", prefix, cpu_seconds());
    std::printf("%s.peak_rss_kib %ld\n", prefix, bench::status_kib("VmHWM"));
    std::fflush(stdout);
    const bool ok =
        sim.expectations_failed() == 0 && !sim.stopped_by_finding() && (binds < kAutobindSpace || st.enospc == 1);
    return ok ? 0 : 1;
}

// Runs one fill in a child process; returns its exit status.
int run_child(std::uint32_t binds)
{
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid < 0)
        return run_one(binds);
    if (pid == 0)
        std::_Exit(run_one(binds));
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return 3;
    return WEXITSTATUS(status);
}

} // namespace

int main(int argc, char **argv)
{
    inflight::configure_process_heap(argc, argv); // the heap the app and the CLI run with
    if (argc == 3 && std::strcmp(argv[1], "--only") == 0) {
        const unsigned long n = std::strtoul(argv[2], nullptr, 10);
        if (n == 0 || n > kAutobindSpace) {
            std::fprintf(stderr, "--only N: 1 <= N <= %u\n", kAutobindSpace);
            return 2;
        }
        return run_one(static_cast<std::uint32_t>(n));
    }
    if (argc != 1) {
        std::fprintf(stderr, "usage: %s [--only N]\n", argv[0]);
        return 2;
    }
    int status = run_child(100'000);
    const int full = run_child(kAutobindSpace);
    if (full != 0)
        status = full;
    std::printf("status %s\n", status == 0 ? "ok" : "FAILED");
    return status;
}
