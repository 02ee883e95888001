// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: a scene file, as an attacker would write one, through everything a CLI
// user can reach: parse -> check -> run (every era, tight budgets) -> text and JSON reports.
// It fails (abort) where Inflight would misbehave for any input: a crash or sanitizer report,
// JSON that is not valid UTF-8 JSON, an error without a location, a run past its budgets.
// Built by the `fuzz` preset (clang, -fsanitize=fuzzer); replay_main.cpp runs the same function
// over the seed and regression corpora in the normal build (ctest fuzz_replay).
#include "fuzz_budget.hpp"
#include "inflight/parser.hpp"
#include "inflight/report.hpp"
#include "inflight/simulation.hpp"
#include "inflight/state_dump.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>

using namespace inflight;

namespace {

[[noreturn]] void fail(const char *what, const std::string &detail)
{
    std::fprintf(stderr, "fuzz_scene: %s\n%s\n", what, detail.substr(0, 2000).c_str());
    std::abort();
}

void must_be_json(const std::string &text)
{
    // Strict parsing: throws on any invalid UTF-8 or syntax, which fails the input.
    try {
        const nlohmann::json parsed = nlohmann::json::parse(text); // GCC ignores a (void) here
        (void)parsed;
    } catch (const std::exception &e) {
        fail("output is not valid JSON", std::string(e.what()) + "\n" + text);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static const RunBudget ceiling = fuzz::fuzz_ceiling();
    static const ParseLimits &limits = fuzz::fuzz_parse_limits();
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    ParseResult parsed = parse_scene(text, "fuzz.scn", limits);
    for (const Diagnostic &d : parsed.diagnostics)
        if (d.message.empty() || d.file.empty())
            fail("a diagnostic without a message or a file", d.format());
    if (!parsed.ok())
        return 0;
    auto scene = std::make_shared<const Scene>(std::move(parsed.scene));
    for (GcEra era : {GcEra::classic, GcEra::async, GcEra::graph}) {
        SimulationOptions options;
        options.era = era;
        options.record = false;
        options.fast_forward = era != GcEra::async; // both drivers: absorbed steps and every step
        Simulation sim(scene, options);
        sim.run();
        if (sim.steps() > ceiling[Budget::steps] + 1)
            fail("the run went past its steps budget", std::to_string(sim.steps()));
        if (auto limit = sim.limit_reached(); limit && limit->loc.line == 0)
            fail("a budget reached without a location", limit->format());
        (void)report_text(sim);
        must_be_json(report_json(sim));
        must_be_json(state_json(sim));
    }
    return 0;
}
