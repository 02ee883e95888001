// SPDX-License-Identifier: GPL-3.0-or-later
// inflight-latency-bench: how long the seed scenes of the latency panel take headless, run as
// `inflight-cli run --hist` runs them (fast-forwarded, nothing recorded), one line per variant,
// with the model's own figures beside the wall-clock time. The 32,000-in-flight scene
// (seed-gc-penalty) must run each variant in well under 2 s on a 2-core machine.
#include "inflight/kernel_queries.hpp"
#include "inflight/parser.hpp"
#include "inflight/process_heap.hpp"
#include "inflight/report.hpp"
#include "inflight/simulation.hpp"
#include "proc_status.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

using namespace inflight;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void bench_scene(const std::string &path, int repeats)
{
    ParseResult parsed = load_scene_file(path);
    if (!parsed.ok()) {
        std::printf("%s: does not parse\n", path.c_str());
        return;
    }
    std::vector<SceneVariant> variants = parsed.scene.variants;
    if (variants.empty())
        variants.push_back(SceneVariant{"scene", {}, parsed.scene.settings});
    for (const SceneVariant &v : variants) {
        auto scene = std::make_shared<Scene>(parsed.scene);
        scene->settings = v.settings;
        std::vector<double> secs;
        std::uint64_t modelled = 0, steps = 0;
        std::string top;
        for (int r = 0; r < repeats; ++r) {
            SimulationOptions o;
            o.record = false;
            o.fast_forward = true;
            const auto t0 = std::chrono::steady_clock::now();
            Simulation sim(scene, o);
            sim.run();
            secs.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            modelled = sim.now_ns();
            steps = micro_steps_total(sim.kernel());
            // The group with the most calls: the one the scene measures.
            std::size_t most = 0;
            for (const LatencyGroup &g : latency_groups(sim))
                if (g.durations.size() > most) {
                    most = g.durations.size();
                    std::uint64_t total = 0;
                    for (auto d : g.durations)
                        total += d;
                    top = g.name + ": avg " + format_ns(total / g.durations.size()) + " over " +
                          std::to_string(g.durations.size());
                }
        }
        std::printf("%-28s %-12s wall median %6.3f s (min %6.3f, %d runs)  micro-steps %11llu  modelled %s  %s\n",
                    path.substr(path.rfind('/') + 1).c_str(), v.name.c_str(), median(secs),
                    *std::min_element(secs.begin(), secs.end()), repeats, static_cast<unsigned long long>(steps),
                    format_ns(modelled).c_str(), top.c_str());
    }
}

} // namespace

int main(int argc, char **argv)
{
    inflight::configure_process_heap(argc, argv); // the heap the app and the CLI run with
    const std::string dir = argc > 1 ? argv[1] : std::string(INFLIGHT_SOURCE_DIR) + "/scenes";
    const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
    for (const char *name : {"seed-gc-penalty.scn", "seed-scm-credentials.scn", "seed-splice-checksum.scn",
                             "seed-autobind-race.scn", "autobind-fill.scn"})
        bench_scene(dir + "/" + name, repeats);
    std::printf("peak RSS %ld KB\n", bench::status_kib("VmHWM"));
}
