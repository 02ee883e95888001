// SPDX-License-Identifier: GPL-3.0-or-later
// inflight-beats-bench [SCENE]: a lesson's beats and the run's navigation index (RunIndex) of a
// large scene, computed from its recorded events as the app does when the run is indexed.
// The scene is run fast-forwarded, as the app runs it (32,000 sockets in flight by default).
#include "inflight/beats.hpp"
#include "inflight/parser.hpp"
#include "inflight/process_heap.hpp"
#include "inflight/recorded_events.hpp"
#include "inflight/run_index.hpp"
#include "inflight/simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

using namespace inflight;

namespace {
double ms_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
} // namespace

int main(int argc, char **argv)
{
    inflight::configure_process_heap(argc, argv); // the heap the app and the CLI run with
    const std::string path =
        argc > 1 ? argv[1] : std::string(INFLIGHT_SOURCE_DIR) + "/scenes/large/large-32000-in-flight.scn";
    ParseResult parsed = load_scene_file(path);
    if (!parsed.ok()) {
        std::fprintf(stderr, "inflight-beats-bench: %s\n",
                     parsed.diagnostics.empty() ? path.c_str() : parsed.diagnostics.front().format().c_str());
        return 2;
    }
    auto scene = std::make_shared<const Scene>(std::move(parsed.scene));
    SimulationOptions o;
    o.record = false;
    o.fast_forward = true;
    auto t0 = std::chrono::steady_clock::now();
    Simulation sim(scene, o);
    RecordedEvents events;
    while (const Event *e = sim.step())
        events.push_back(*e);
    const double run_ms = ms_since(t0);
    std::printf("beats: %s (fast-forwarded)\n", path.c_str());
    std::printf("  run: %llu micro-steps, %zu shown, %.0f ms (the app's indexer, not part of the figure)\n",
                static_cast<unsigned long long>(sim.steps()), events.size(), run_ms);
    const std::vector<std::uint64_t> findings = finding_steps(sim);
    std::vector<double> times;
    std::size_t beats = 0, in_collections = 0;
    for (int i = 0; i < 3; ++i) {
        t0 = std::chrono::steady_clock::now();
        const RunIndex index(events, sim.era(), findings);
        times.push_back(ms_since(t0));
        beats = index.beats().size();
        in_collections =
            static_cast<std::size_t>(std::count_if(index.beats().begin(), index.beats().end(), [](const Beat &b) {
                return b.kind == BeatKind::phase_begins || b.kind == BeatKind::scc_verdict;
            }));
    }
    std::sort(times.begin(), times.end());
    std::printf("  beats and navigation index: %zu beats (%zu inside collections), median of 3 %.0f ms    "
                "goal: <= 1000 ms\n",
                beats, in_collections, times[1]);
    return 0;
}
