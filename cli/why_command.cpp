// SPDX-License-Identifier: GPL-3.0-or-later
// `inflight-cli why FILE LABEL [--at STEP] [--gc ERA] [--json] [--seed N] [--max-steps N] [--timeout S]`: what keeps a socket
// alive at a step, or why the collector left it (see inflight/why_alive.hpp). Kept apart from
// main.cpp so the run command's options grow without touching it.
#include "step_to.hpp"

#include "inflight/parser.hpp"
#include "inflight/state_dump.hpp"
#include "inflight/utf8.hpp"
#include "inflight/why_alive.hpp"

#include <cstdio>
#include <iostream>
#include <memory>

using namespace inflight;

namespace inflight_cli {

namespace {
int fail(const std::string &msg)
{
    std::fprintf(stderr, "inflight-cli: error: %s\n", printable(msg).c_str());
    std::fputs("usage: inflight-cli why FILE LABEL [--at STEP] [--gc classic|async|graph] [--json] [--seed N]\n"
               "                          [--max-steps N] [--timeout SECONDS]\n",
               stderr);
    return 2;
}
} // namespace

int why_main(int argc, char **argv)
{
    std::string file, label;
    std::optional<std::uint64_t> at;
    SimulationOptions options;
    options.record = false;
    options.fast_forward = false; // every micro-step: --at counts them all
    bool json = false;
    std::optional<double> timeout_s;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> const char * { return i + 1 < argc ? argv[++i] : nullptr; };
        if (a == "--json") {
            json = true;
        } else if (a == "--at") {
            const char *v = value();
            if (!v)
                return fail("--at needs a step number");
            at = parse_count(v);
            if (!at)
                return fail(std::string("bad step '") + v + "' (a number of micro-steps, 0 for the start)");
        } else if (a == "--gc") {
            const char *v = value();
            if (!v)
                return fail("--gc needs a collector: classic, async or graph");
            const auto era = parse_era(v);
            if (!era)
                return fail(std::string("unknown collector '") + v + "' (classic, async or graph)");
            options.era = *era;
        } else if (a == "--seed") {
            const char *v = value();
            const auto seed = v ? parse_count(v) : std::nullopt;
            if (!seed)
                return fail(std::string("bad seed '") + (v ? v : "") + "'");
            options.seed = *seed;
        } else if (a == "--max-steps") {
            const char *v = value();
            const auto n = v ? parse_count(v) : std::nullopt;
            if (!n)
                return fail(std::string("bad --max-steps '") + (v ? v : "") + "'");
            options.budget_overrides.emplace_back(Budget::steps, *n);
        } else if (a == "--timeout") {
            const char *v = value();
            timeout_s = v ? cli::parse_timeout_seconds(v) : std::nullopt;
            if (!timeout_s)
                return fail(std::string("bad --timeout '") + (v ? v : "") + "' (seconds, more than 0)");
        } else if (!a.empty() && a[0] == '-') {
            return fail("unknown option '" + a + "'");
        } else if (file.empty()) {
            file = a;
        } else if (label.empty()) {
            label = a;
        } else {
            return fail("unexpected argument '" + a + "' (one scene file and one socket label)");
        }
    }
    if (file.empty())
        return fail("no scene file given");
    if (label.empty())
        return fail("no socket label given");

    const std::shared_ptr<const Scene> scene =
        load_scene_reporting(file, ParseLimits{options.budget_overrides, std::nullopt});
    if (!scene)
        return 2;
    Simulation sim(scene, options);
    // The tracker starts once the label names a socket: what happened before is no history of it.
    std::optional<WhyTracker> tracker;
    std::optional<std::uint32_t> tracked;
    std::string error;
    cli::RunProgress progress(timeout_s);
    const bool reached = step_to(sim, at, progress, error, [&](const Event &e) {
        if (!tracker)
            if (const auto id = find_socket(sim.kernel(), label)) {
                tracked = *id;
                tracker.emplace(*id);
            }
        if (tracker)
            tracker->observe(e, sim.kernel());
    });
    if (!reached) {
        std::cerr << printable(error) << "\n";
        return 2;
    }
    const Kernel &k = sim.kernel();
    const auto sock = find_socket(k, label);
    if (!sock) {
        std::fprintf(stderr, "%s: error: no socket labelled '%s' at step %llu (labels: %s)\n", printable(file).c_str(),
                     printable(label).c_str(), static_cast<unsigned long long>(sim.steps()),
                     printable(label_list(k)).c_str());
        return 2;
    }
    const WhyHistory *history = tracker && tracked == sock ? &tracker->history() : nullptr;
    const WhyAlive w = why_alive(k, *sock, history);
    if (json) {
        std::cout << why_json(k, w, sim.steps());
    } else {
        std::cout << "why " << printable(label) << " at step " << sim.steps() << " (line " << sim.current_line() << ")"
                  << (sim.finished() ? ", the end of the run" : "") << ", collector " << era_name(sim.era()) << ":\n"
                  << printable(why_text(k, w), LineBreaks::keep);
    }
    return 0;
}

} // namespace inflight_cli
