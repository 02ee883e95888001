// SPDX-License-Identifier: GPL-3.0-or-later
#include "beats_command.hpp"
#include "step_to.hpp"

#include "inflight/beats.hpp"
#include "inflight/recorded_events.hpp"
#include "inflight/simulation.hpp"
#include "inflight/utf8.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

using namespace inflight;

namespace inflight_cli {

namespace {
int fail(const std::string &msg)
{
    std::fprintf(stderr, "inflight-cli: error: %s\n", printable(msg).c_str());
    std::fputs("usage: inflight-cli beats FILE [--gc classic|async|graph] [--variant NAME] [--fast-forward]\n", stderr);
    return 2;
}
} // namespace

int beats_main(int argc, char **argv)
{
    std::string file;
    std::string variant;
    SimulationOptions options;
    options.record = false;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--fast-forward") {
            options.fast_forward = true;
        } else if (a == "--gc") {
            const char *v = i + 1 < argc ? argv[++i] : nullptr;
            if (!v)
                return fail("--gc needs a collector: classic, async or graph");
            const auto era = parse_era(v);
            if (!era)
                return fail(std::string("unknown collector '") + v + "' (classic, async or graph)");
            options.era = *era;
        } else if (a == "--variant") {
            if (i + 1 >= argc)
                return fail("--variant needs a variant's name");
            variant = argv[++i];
        } else if (!a.empty() && a[0] == '-') {
            return fail("unknown option '" + a + "'");
        } else if (file.empty()) {
            file = a;
        } else {
            return fail("unexpected argument '" + a + "' (one scene file)");
        }
    }
    if (file.empty())
        return fail("no scene file given");
    const std::shared_ptr<Scene> scene = load_scene_reporting(file);
    if (!scene)
        return 2;
    if (!variant.empty()) {
        auto it = std::find_if(scene->variants.begin(), scene->variants.end(),
                               [&](const SceneVariant &v) { return v.name == variant; });
        if (it == scene->variants.end())
            return fail("the scene has no variant '" + variant + "'");
        scene->settings = it->settings;
    }
    Simulation sim(scene, options);
    RecordedEvents events;
    while (const Event *e = sim.step())
        events.push_back(*e);
    const std::vector<Beat> beats = find_beats(events, sim.era(), finding_steps(sim));
    // One line a beat: its number, the step it shows, the scene line, what it is.
    std::printf("# beat step line kind (%zu beats, %llu micro-steps)\n", beats.size(),
                static_cast<unsigned long long>(sim.steps()));
    std::size_t n = 0;
    for (const Beat &b : beats) {
        std::printf("%zu %llu %u %.*s", ++n, static_cast<unsigned long long>(b.step), b.scene_line,
                    static_cast<int>(beat_kind_name(b.kind).size()), beat_kind_name(b.kind).data());
        if (b.kind == BeatKind::phase_begins)
            std::printf(" %.*s", static_cast<int>(gc_phase_name(b.phase).size()), gc_phase_name(b.phase).data());
        std::putchar('\n');
    }
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        std::perror("inflight-cli: error: writing the beats");
        return 2;
    }
    return 0;
}

} // namespace inflight_cli
