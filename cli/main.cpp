// inflight-cli: runs a scene headless and reports. Exit 0 when every expectation holds, 1 when
// one fails or an invariant breaks, 2 for an invalid scene, file or command line.
#include "inflight/parser.hpp"
#include "inflight/report.hpp"
#include "inflight/simulation.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>

using namespace inflight;

namespace {

void usage(std::FILE *to)
{
    std::fputs("usage: inflight-cli run FILE [--gc classic|async|graph] [--json] [--trace] [--seed N] [--check]\n"
               "       inflight-cli check FILE        (parse and check only)\n"
               "\n"
               "Runs a scene of AF_UNIX syscalls against a model of the Linux garbage collector of\n"
               "the chosen era and reports which sockets were freed, the collections that ran and\n"
               "whether the scene's expectations held.\n"
               "  --json    one JSON object instead of the text report\n"
               "  --trace   one line per micro-step before the report\n"
               "  --seed N  seed for autobind names (overrides `set seed`)\n"
               "  --check   verify the model's invariants after every micro-step\n",
               to);
}

int fail_usage(const std::string &msg)
{
    std::fprintf(stderr, "inflight-cli: error: %s\n", msg.c_str());
    usage(stderr);
    return 2;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const std::string command = argv[1];
    if (command == "-h" || command == "--help" || command == "help") {
        usage(stdout);
        return 0;
    }
    if (command != "run" && command != "check")
        return fail_usage("unknown command '" + command + "'");

    std::string file;
    SimulationOptions options;
    options.record = false;
    bool json = false, trace = false;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](const char *what) -> const char * {
            if (i + 1 >= argc) {
                fail_usage(a + " needs " + what);
                return nullptr;
            }
            return argv[++i];
        };
        if (a == "--json") {
            json = true;
        } else if (a == "--trace") {
            trace = true;
        } else if (a == "--check") {
            options.checked = true;
        } else if (a == "--gc") {
            const char *v = value("a collector: classic, async or graph");
            if (!v)
                return 2;
            auto era = parse_era(v);
            if (!era)
                return fail_usage(std::string("unknown collector '") + v + "' (classic, async or graph)");
            options.era = *era;
        } else if (a == "--seed") {
            const char *v = value("a number");
            if (!v)
                return 2;
            std::uint64_t seed = 0;
            auto [end, ec] = std::from_chars(v, v + std::strlen(v), seed);
            if (ec != std::errc() || *end)
                return fail_usage(std::string("bad seed '") + v + "'");
            options.seed = seed;
        } else if (!a.empty() && a[0] == '-') {
            return fail_usage("unknown option '" + a + "'");
        } else if (file.empty()) {
            file = a;
        } else {
            return fail_usage("more than one scene file given");
        }
    }
    if (file.empty())
        return fail_usage("no scene file given");

    ParseResult parsed = load_scene_file(file);
    for (const auto &d : parsed.diagnostics)
        std::cerr << d.format() << "\n";
    if (!parsed.ok())
        return 2;
    if (command == "check")
        return 0;

    const auto &written_for = parsed.scene.settings.collectors;
    if (options.era && !written_for.empty() &&
        std::find(written_for.begin(), written_for.end(), *options.era) == written_for.end()) {
        std::string list;
        for (GcEra e : written_for)
            list += (list.empty() ? "" : ", ") + std::string(era_name(e));
        std::cerr << file << ": warning: the scene's expectations were written for " << list
                  << ", not for " << era_name(*options.era) << "\n";
    }
    // A report needs the outcome, not each micro-step: collections are fast-forwarded (their
    // cost is still counted). --trace and --check see every step.
    options.fast_forward = !trace && !options.checked.value_or(false);
    auto scene = std::make_shared<const Scene>(std::move(parsed.scene));
    Simulation sim(scene, options);
    if (trace) {
        while (const Event *e = sim.step())
            std::cout << trace_line(*e, sim.kernel()) << "\n";
    } else {
        sim.run();
    }
    std::cout << (json ? report_json(sim) : report_text(sim));
    return (sim.expectations_failed() || sim.stopped_by_finding()) ? 1 : 0;
}
