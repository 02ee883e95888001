// SPDX-License-Identifier: GPL-3.0-or-later
// inflight-spawn-bench: scenes of many spawned tasks through the whole engine, as
// `inflight-cli run` runs them (parsed with the static check, run fast-forwarded, no history).
// Each of N tasks opens and closes a socket; main spawns them all, then waits for every one.
// The scheduler picks a task at every scheduling point, so the run's cost per task shows
// whether picking grows with the number of tasks. Each size runs in a child process (its own
// peak RSS), stopped after --timeout seconds. Prints plain "key value" lines. Not a test.
//
//   inflight-spawn-bench [--sizes N,N,...] [--timeout S]
//
// Goals: the run time grows near-linearly with the number of tasks (the time per task of the
// largest size at most kGrowthGoal times that of the smallest), and a million tasks run in
// seconds.
#include "inflight/parser.hpp"
#include "inflight/simulation.hpp"
#include "proc_status.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace inflight;
using Clock = std::chrono::steady_clock;

namespace {

constexpr double kGrowthGoal = 4.0;    // time per task, largest size / smallest size
constexpr double kMillionGoalS = 30.0; // a million tasks, run time

std::string spawn_scene(std::uint32_t tasks)
{
    return "scene \"spawned tasks\"\n"
           "repeat " +
           std::to_string(tasks) +
           " as k {\n"
           "  spawn w$k {\n"
           "    socket s$k\n"
           "    close s$k\n"
           "  }\n"
           "}\n"
           "wait\n";
}

// Runs one size; prints its figures. The exit status says whether the run was whole.
int run_one(std::uint32_t tasks)
{
    const auto t0 = Clock::now();
    ParseResult parsed = parse_scene(spawn_scene(tasks), "spawn.scn");
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
    const auto t2 = Clock::now();
    const double run_s = std::chrono::duration<double>(t2 - t1).count();
    std::printf("tasks_%u.run_s %.3f\n", tasks, run_s);
    std::printf("tasks_%u.us_per_task %.2f\n", tasks, run_s * 1e6 / tasks);
    std::printf("tasks_%u.wall_s %.3f\n", tasks, std::chrono::duration<double>(t2 - t0).count());
    std::printf("tasks_%u.steps %llu\n", tasks, static_cast<unsigned long long>(sim.steps()));
    std::printf("tasks_%u.peak_rss_kib %ld\n", tasks, bench::status_kib("VmHWM"));
    std::fflush(stdout);
    // Every spawned task and main ran to its end, within the budgets.
    const bool whole = sim.tasks().size() >= tasks + 1 && !sim.limit_reached() && !sim.stopped_by_finding();
    return whole ? 0 : 1;
}

// The run time of one size in a child process, or nullopt when it failed or ran out of time.
std::optional<double> run_child(std::uint32_t tasks, unsigned timeout_s)
{
    std::fflush(stdout);
    const auto t0 = Clock::now();
    const pid_t pid = fork();
    if (pid < 0)
        return std::nullopt;
    if (pid == 0) {
        alarm(timeout_s);
        std::_Exit(run_one(tasks));
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid)
        return std::nullopt;
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
        std::printf("tasks_%u.gave_up_after_s %u\n", tasks, timeout_s);
        return std::nullopt;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::printf("tasks_%u.failed 1\n", tasks);
        return std::nullopt;
    }
    return s;
}

std::vector<std::uint32_t> parse_sizes(const char *text)
{
    std::vector<std::uint32_t> sizes;
    for (const char *p = text; *p;) {
        char *end = nullptr;
        const unsigned long n = std::strtoul(p, &end, 10);
        if (end == p || n == 0 || n > 1'000'000)
            return {};
        sizes.push_back(static_cast<std::uint32_t>(n));
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return {};
    }
    return sizes;
}

} // namespace

int main(int argc, char **argv)
{
    std::vector<std::uint32_t> sizes = {1'000, 4'000, 16'000, 32'000, 1'000'000};
    unsigned timeout_s = 300;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
            sizes = parse_sizes(argv[++i]);
        } else if (std::strcmp(argv[i], "--timeout") == 0 && i + 1 < argc) {
            timeout_s = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
        } else {
            sizes.clear();
        }
        if (sizes.empty() || timeout_s == 0) {
            std::fprintf(stderr, "usage: %s [--sizes N,N,... (1..1000000)] [--timeout S]\n", argv[0]);
            return 2;
        }
    }
    struct Figure {
        std::uint32_t tasks;
        double s;
    };
    std::vector<Figure> done;
    bool all = true;
    for (std::uint32_t n : sizes) {
        const auto s = run_child(n, timeout_s);
        if (s)
            done.push_back({n, *s});
        else
            all = false;
    }
    bool ok = all;
    if (done.size() >= 2) {
        const Figure &small = done.front(), &large = done.back();
        const double growth = (large.s / large.tasks) / (small.s / small.tasks);
        std::printf("growth.per_task_time_ratio %.2f (tasks %u vs %u; goal <= %.1f)\n", growth, large.tasks,
                    small.tasks, kGrowthGoal);
        ok = ok && growth <= kGrowthGoal;
    }
    for (const Figure &f : done)
        if (f.tasks == 1'000'000) {
            std::printf("million.s %.3f (goal <= %.0f)\n", f.s, kMillionGoalS);
            ok = ok && f.s <= kMillionGoalS;
        }
    std::printf("status %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
