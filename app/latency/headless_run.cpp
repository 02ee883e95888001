// SPDX-License-Identifier: GPL-3.0-or-later
#include "headless_run.h"

#include "inflight/kernel_queries.hpp"
#include "inflight/simulation.hpp"

using namespace inflight;

namespace latency {

std::vector<Scenario> scenariosOf(const Scene &scene)
{
    std::vector<Scenario> out;
    for (GcEra era : {GcEra::classic, GcEra::async, GcEra::graph})
        out.push_back({QStringLiteral("%1 collector").arg(QString::fromLatin1(era_name(era).data())), era, -1});
    for (std::size_t i = 0; i < scene.variants.size(); ++i)
        out.push_back({QStringLiteral("variant %1").arg(QString::fromStdString(scene.variants[i].name)), std::nullopt,
                       static_cast<int>(i)});
    return out;
}

std::shared_ptr<const Scene> sceneFor(const std::shared_ptr<const Scene> &scene, const Scenario &scenario)
{
    if (!scene || scenario.variant < 0 || static_cast<std::size_t>(scenario.variant) >= scene->variants.size())
        return scene;
    auto copy = std::make_shared<Scene>(*scene);
    copy->settings = scene->variants[static_cast<std::size_t>(scenario.variant)].settings;
    return copy;
}

std::shared_ptr<const LatencyRun> runHeadless(const std::shared_ptr<const Scene> &scene, const Scenario &scenario,
                                              const std::atomic<bool> *cancel)
{
    if (!scene)
        return nullptr;
    SimulationOptions o;
    o.record = false;
    // Collections still run and cost their modelled time, they are just not handed out step by
    // step: the calls' durations are the same, the run several times faster.
    o.fast_forward = true;
    o.era = scenario.era;
    Simulation sim(sceneFor(scene, scenario), o);
    std::uint64_t n = 0;
    while (sim.step())
        if ((++n & 0xffff) == 0 && cancel && cancel->load())
            return nullptr;
    auto run = std::make_shared<LatencyRun>();
    run->samples = sim.take_latencies();
    run->tasks = sim.tasks();
    run->user_names = user_names(sim.kernel());
    return run;
}

} // namespace latency
