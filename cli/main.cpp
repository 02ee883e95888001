// SPDX-License-Identifier: GPL-3.0-or-later
// inflight-cli: runs a scene headless and reports. Exit 0 when every expectation holds, 1 when
// one fails or an invariant breaks, 2 for an invalid scene, file or command line.
#include "inflight/kernel_queries.hpp"
#include "inflight/log2_histogram.hpp"
#include "inflight/parser.hpp"
#include "inflight/process_heap.hpp"
#include "inflight/report.hpp"
#include "inflight/simulation.hpp"
#include "inflight/state_dump.hpp"
#include "inflight/utf8.hpp"
#include "inflight/version.hpp"

#include "beats_command.hpp"
#include "checked_stdout.hpp"
#include "diagnostic_json.hpp"
#include "kernels_command.hpp"
#include "lsp_server.hpp"
#include "replay_command.hpp"
#include "run_progress.hpp"
#include "step_to.hpp"
#include "watch_cli.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include <unistd.h>

using namespace inflight;

namespace {

void usage(std::ostream &to)
{
    to << ("usage: inflight-cli run FILE [--gc classic|async|graph] [--kernel VERSION] [--json] [--trace]\n"
           "                        [--seed N] [--check]\n"
           "                        [--hist] [--unit ns|us|ms] [--variant NAME] [--at STEP]\n"
           "                        [--watch EXPR]... [--break LINE[ if COND]]...\n"
           "                        [--limit NAME=N]... [--max-steps N] [--timeout SECONDS]\n"
           "       inflight-cli why FILE LABEL [--at STEP] [--gc ERA] [--json] [--seed N]\n"
           "                        [--max-steps N] [--timeout SECONDS]\n"
           "       inflight-cli check FILE [--json] [--limit NAME=N]...   (parse and check only)\n"
           "       inflight-cli replay FILE [--json] [--gc ERA]   (on the running kernel; see replay --help)\n"
           "       inflight-cli export-c FILE [-o OUT.c] [--gc ERA]   (the scene as a standalone C test)\n"
           "       inflight-cli kernels [--json]   (the kernel profiles and their named changes)\n"
           "       inflight-cli beats FILE [--gc ERA] [--variant NAME] [--fast-forward]   (the lesson's beats, one a "
           "line)\n"
           "       inflight-cli lsp        (a Language Server on stdin/stdout, for editors)\n"
           "       inflight-cli --help | --version\n"
           "\n"
           "Runs a scene of AF_UNIX syscalls against a model of the Linux garbage collector of\n"
           "the chosen era and reports which sockets were freed, the collections that ran and\n"
           "whether the scene's expectations held.\n"
           "  --json    one JSON object instead of the text report\n"
           "  --trace   one line per micro-step before the report; with --json, JSON Lines:\n"
           "            one object per micro-step, the report object as the last line\n"
           "  --at STEP the state after STEP micro-steps instead of the report: every socket,\n"
           "            the collector's lists in order and the globals (--json: one object)\n"
           "  --gc ERA  the collector, as that era's default profile (overrides `set gc`/`set kernel`)\n"
           "  --kernel VERSION  a kernel profile, as in 6.1 (overrides `set kernel` and --gc);\n"
           "            the scene's `set fix` lines still apply on top\n"
           "  --seed N  seed for autobind names (overrides `set seed`)\n"
           "  --check   verify the model's invariants after every micro-step\n"
           "  --hist    after the report, the latency histograms of every timed call (sendmsg,\n"
           "            autobind) per task and call kind, in bcc funclatency's format; a scene\n"
           "            with `variant` blocks runs once per variant and ends with their ratios\n"
           "  --unit U  histogram unit: ns (default), us or ms\n"
           "  --variant NAME  run only that variant of the scene\n"
           "  --watch EXPR    print each step where EXPR fires, before the report (repeatable):\n"
           "            FIELD LABEL  fires when the value changes; fields: inflight, refs (file_count),\n"
           "                         out_degree, index, scc_index, flags (gc_flags), queue, nr_fds, state\n"
           "            LABEL freed|alive|candidate|garbage   fires when it becomes true\n"
           "            unix_tot_inflight, gc_in_progress, hitlist, unix_graph_maybe_cyclic,\n"
           "            unix_graph_grouped, user NAME inflight (user->unix_inflight)\n"
           "            ... OP VALUE (==, !=, <, <=, >, >=): fires when the condition becomes true;\n"
           "            a socket not created yet (or a field it lacks) is none; a label or user\n"
           "            no statement of the scene names is refused (exit 2)\n"
           "  --break LINE[ if COND]  print each step where a statement on LINE begins (and COND,\n"
           "            a watch expression, holds) (repeatable)\n"
           "            Either runs every micro-step (no fast-forward); --json adds \"hits\".\n"
           "  --limit NAME=N  a run budget (scenes/LANGUAGE.md, 'Limits'), over the scene's\n"
           "            `set limit`: objects, steps, collections, warnings, latency-samples,\n"
           "            latency-values, queued-skbs, queued-bytes, input-bytes, name-lookups,\n"
           "            time-ns, range-names, hits. Reaching one ends the run (or rejects the scene)\n"
           "            with file:line:col: error:, exit 2\n"
           "  --max-steps N   the same as --limit steps=N\n"
           "  --timeout S     end the run after S seconds of wall-clock time (exit 2)\n"
           "  On a terminal, a long run prints its progress to stderr.\n"
           "\n"
           "why: the shortest chain of references from a process fd that keeps socket LABEL alive\n"
           "at STEP (default: the end), or, when none does, why the collector left it: the rule\n"
           "of the era in the kernel's names. --json: the chain, verdict and reason as an object.\n");
}

int fail_usage(const std::string &msg)
{
    // Messages quote arguments, which may hold escape sequences or bidi controls.
    std::fprintf(stderr, "inflight-cli: error: %s\n", printable(msg).c_str());
    usage(std::cerr);
    return 2;
}

struct VariantRun {
    std::string name; // empty: the scene's own settings
    std::unique_ptr<Simulation> sim;
};

std::string histograms_text(const Simulation &sim, TimeUnit unit, const std::string &prefix)
{
    std::string out;
    for (const LatencyGroup &g : latency_groups(sim)) {
        Log2Histogram h(unit);
        g.add_to(h);
        out += "\n" + funclatency_text(h, unit, prefix + g.name);
    }
    return out;
}

// The variants side by side: each group's average and p99 over the first variant's, and the
// whole run's modelled time (what a throughput benchmark such as hackbench reports).
std::string comparison_text(const std::vector<VariantRun> &runs)
{
    std::string out = "\ncomparison (each variant over " + runs.front().name + "):\n";
    char line[256];
    std::snprintf(line, sizeof line, "  %-44s %-10s %14s %14s %10s %10s\n", "group", "variant", "avg", "p99",
                  "avg ratio", "p99 ratio");
    out += line;
    const auto base_groups = latency_groups(*runs.front().sim);
    constexpr std::size_t kMinCalls = 16; // a scene's few setup calls are not what it compares
    for (const VariantRun &r : runs) {
        for (const LatencyGroup &g : latency_groups(*r.sim)) {
            if (g.count() < kMinCalls)
                continue;
            const std::uint64_t avg = g.average_ns();
            const std::uint64_t p99 = g.percentile(99);
            std::string ra = "-", rp = "-";
            for (const LatencyGroup &b : base_groups) {
                if (b.name != g.name)
                    continue;
                const double bavg = static_cast<double>(b.average_ns());
                const double bp99 = static_cast<double>(b.percentile(99));
                char buf[32];
                std::snprintf(buf, sizeof buf, "%.3g", static_cast<double>(avg) / bavg);
                ra = buf;
                std::snprintf(buf, sizeof buf, "%.3g", static_cast<double>(p99) / bp99);
                rp = buf;
            }
            std::snprintf(line, sizeof line, "  %-44s %-10s %14s %14s %10s %10s\n", g.name.c_str(), r.name.c_str(),
                          format_ns(avg).c_str(), format_ns(p99).c_str(), ra.c_str(), rp.c_str());
            out += line;
        }
    }
    const double base_end = static_cast<double>(runs.front().sim->now_ns());
    for (const VariantRun &r : runs) {
        std::snprintf(line, sizeof line, "  %-44s %-10s %14s %14s %10.3g\n", "whole run (modelled time)",
                      r.name.c_str(), format_ns(r.sim->now_ns()).c_str(), "",
                      base_end > 0 ? static_cast<double>(r.sim->now_ns()) / base_end : 0.0);
        out += line;
    }
    return out;
}

// One micro-step of --trace: a JSON Lines object, or a line of text in which a note's escape
// sequences and the scene's names are escaped for the terminal.
void print_trace_line(const Event &e, const Simulation &sim, bool json)
{
    if (json)
        std::cout << trace_json_line(e, sim.kernel(), &sim.scene()) << "\n";
    else
        std::cout << printable(trace_line(e, sim.kernel(), &sim.scene())) << "\n";
}

// The scene file being run, for the out-of-memory message below.
std::string g_scene_file;

int cli_main(int argc, char **argv);

} // namespace

int main(int argc, char **argv)
{
    configure_process_heap(argc, argv); // before anything else: it may start the process again
    // Every command prints through std::cout, into a buffer that remembers why a write failed.
    // Unsyncing stdio replaces the standard streams' buffers (the language server asks for it),
    // so it is done first, once, and the buffer installed after it stays.
    std::ios::sync_with_stdio(false);
    inflight_cli::CheckedStdout out(STDOUT_FILENO);
    std::streambuf *const stdout_buffer = std::cout.rdbuf(&out);
    int status = 2;
    // With the default budgets a run stays within ~2 GB (scenes/LANGUAGE.md, "Limits"); raised
    // limits can ask for more than the machine has. That still ends with a message and exit 2,
    // not an abort.
    try {
        status = cli_main(argc, argv);
    } catch (const std::bad_alloc &) {
        std::fprintf(stderr,
                     "%s%serror: out of memory: the run needs more memory than this process may have; "
                     "lower its budgets with 'set limit' or --limit (see 'Limits' in scenes/LANGUAGE.md)\n",
                     g_scene_file.c_str(), g_scene_file.empty() ? "inflight-cli: " : ": ");
        status = 2;
    }
    // Output that did not all get out (a full disk, /dev/full, an I/O error) is a failure
    // whatever the command found: whoever reads the file would read a truncated report.
    std::cout.flush();
    std::cout.rdbuf(stdout_buffer);
    if (out.error() != 0) {
        std::fprintf(stderr, "inflight-cli: error: cannot write the output: %s\n", std::strerror(out.error()));
        return 2;
    }
    return status;
}

namespace {

int cli_main(int argc, char **argv)
{
    if (argc < 2) {
        usage(std::cerr);
        return 2;
    }
    const std::string command = argv[1];
    if (command == "--version" || command == "version") {
        std::cout << "inflight-cli " << inflight::kVersion << "\n";
        return 0;
    }
    if (command == "-h" || command == "--help" || command == "help") {
        usage(std::cout);
        return 0;
    }
    if (command == "why")
        return inflight_cli::why_main(argc, argv);
    if (command == "replay")
        return inflight_cli::replay_main(argc, argv);
    if (command == "export-c")
        return inflight_cli::export_c_main(argc, argv);
    if (command == "kernels")
        return inflight_cli::kernels_main(argc, argv);
    if (command == "beats")
        return inflight_cli::beats_main(argc, argv);
    if (command == "lsp")
        return cli::run_language_server(std::cin, std::cout);
    if (command != "run" && command != "check")
        return fail_usage("unknown command '" + command + "'");

    std::string file;
    SimulationOptions options;
    options.record = false;
    bool json = false, trace = false, hist = false;
    TimeUnit unit = TimeUnit::ns;
    std::string only_variant;
    cli::Watches watches;
    std::optional<std::uint64_t> at; // --at STEP
    std::optional<double> timeout_s; // --timeout SECONDS
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
        } else if (a == "--hist") {
            hist = true;
        } else if (a == "--unit") {
            const char *v = value("ns, us or ms");
            if (!v)
                return 2;
            const std::string u = v;
            if (u == "ns")
                unit = TimeUnit::ns;
            else if (u == "us")
                unit = TimeUnit::us;
            else if (u == "ms")
                unit = TimeUnit::ms;
            else
                return fail_usage("unknown unit '" + u + "' (ns, us or ms)");
        } else if (a == "--variant") {
            const char *v = value("a variant name");
            if (!v)
                return 2;
            only_variant = v;
        } else if (a == "--watch" || a == "--break") {
            const char *v = value(a == "--watch" ? "an expression, as in 'inflight a >= 2'"
                                                 : "a line, as in '14' or '14 if queue a > 0'");
            if (!v)
                return 2;
            if (auto err = a == "--watch" ? watches.add_watch(v) : watches.add_break(v))
                return fail_usage(*err);
        } else if (a == "--at") {
            const char *v = value("a step number");
            if (!v)
                return 2;
            at = inflight_cli::parse_count(v);
            if (!at)
                return fail_usage(std::string("bad step '") + v + "' (a number of micro-steps, 0 for the start)");
        } else if (a == "--limit") {
            const char *v = value("NAME=N, as in 'steps=1000000'");
            if (!v)
                return 2;
            const std::string text = v;
            const auto eq = text.find('=');
            const auto budget = budget_by_name(text.substr(0, eq));
            if (eq == std::string::npos || !budget) {
                std::string names;
                for (const BudgetInfo &b : budget_table())
                    names += (names.empty() ? "" : ", ") + std::string(b.name);
                return fail_usage("bad limit '" + text + "' (NAME=N; names: " + names + ")");
            }
            const auto n = inflight_cli::parse_count(text.substr(eq + 1));
            if (!n)
                return fail_usage("bad number in --limit '" + text + "'");
            options.budget_overrides.emplace_back(*budget, *n);
        } else if (a == "--max-steps") {
            const char *v = value("a number of micro-steps");
            if (!v)
                return 2;
            const auto n = inflight_cli::parse_count(v);
            if (!n)
                return fail_usage(std::string("bad --max-steps '") + v + "'");
            options.budget_overrides.emplace_back(Budget::steps, *n);
        } else if (a == "--timeout") {
            const char *v = value("seconds");
            if (!v)
                return 2;
            timeout_s = cli::parse_timeout_seconds(v);
            if (!timeout_s)
                return fail_usage(std::string("bad --timeout '") + v + "' (seconds, more than 0)");
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
        } else if (a == "--kernel") {
            const char *v = value("a kernel profile, as in '6.1' ('inflight-cli kernels' lists them)");
            if (!v)
                return 2;
            options.kernel = kernel_profile_by_name(v);
            if (!options.kernel)
                return fail_usage(std::string("unknown kernel '") + v +
                                  "' ('inflight-cli kernels' lists the profiles)");
            options.era = options.kernel->era;
        } else if (a == "--seed") {
            const char *v = value("a number");
            if (!v)
                return 2;
            const auto seed = inflight_cli::parse_count(v);
            if (!seed)
                return fail_usage(std::string("bad seed '") + v + "'");
            options.seed = *seed;
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
    g_scene_file = printable(file);

    ParseResult parsed = load_scene_file(file, ParseLimits{options.budget_overrides, std::nullopt});
    // With --json the diagnostics are also on stdout, as one object, when the scene is invalid
    // (run) or always (check); stderr keeps the text for a person.
    for (const auto &d : parsed.diagnostics)
        std::cerr << printable(d.format()) << "\n";
    if (json && (command == "check" || !parsed.ok()))
        std::cout << cli::diagnostics_json(parsed.diagnostics);
    if (!parsed.ok())
        return 2;
    if (command == "check")
        return 0;
    if (auto err = watches.check_scene(parsed.scene))
        return fail_usage(*err);

    if (options.era || options.kernel) {
        const KernelProfile &profile = run_profile(parsed.scene.settings, options);
        if (!written_for(parsed.scene.settings, profile))
            std::cerr << printable(file) << ": warning: the scene's expectations were written for "
                      << collectors_text(parsed.scene.settings) << ", not for " << era_name(profile.era) << " ("
                      << profile.name << ")\n";
    }
    // A report needs the outcome, not each micro-step: collections are fast-forwarded (their
    // cost is still counted). --trace and --check see every step.
    options.fast_forward = !trace && !at && !options.checked.value_or(false) && watches.empty();
    if (at && hist)
        return fail_usage("--at shows one state, --hist a whole run: choose one");
    // Which settings to run: the scene's own, one named variant, or (--hist) every variant.
    std::vector<std::pair<std::string, std::shared_ptr<const Scene>>> scenes;
    const Scene &base = parsed.scene;
    if (!only_variant.empty()) {
        auto it = std::find_if(base.variants.begin(), base.variants.end(),
                               [&](const SceneVariant &v) { return v.name == only_variant; });
        if (it == base.variants.end()) {
            std::string names;
            for (const SceneVariant &v : base.variants)
                names += (names.empty() ? "" : ", ") + v.name;
            return fail_usage("the scene has no variant '" + only_variant + "'" +
                              (names.empty() ? std::string(" (it has none)") : " (it has: " + names + ")"));
        }
        auto copy = std::make_shared<Scene>(base);
        copy->settings = it->settings;
        scenes.emplace_back(it->name, copy);
    } else if (hist && !base.variants.empty() && !trace) {
        for (const SceneVariant &v : base.variants) {
            auto copy = std::make_shared<Scene>(base);
            copy->settings = v.settings;
            scenes.emplace_back(v.name, copy);
        }
    } else {
        scenes.emplace_back("", std::make_shared<const Scene>(std::move(parsed.scene)));
    }

    std::vector<VariantRun> runs;
    nlohmann::ordered_json variant_reports = nlohmann::ordered_json::array(); // --json, several variants
    int status = 0;
    for (auto &[name, scene] : scenes) {
        auto sim = std::make_unique<Simulation>(scene, options);
        if (at) {
            // The state at one step instead of the report (with --trace, the steps up to it).
            std::string error;
            cli::RunProgress progress(timeout_s);
            const bool ok = inflight_cli::step_to(*sim, at, progress, error, [&](const Event &e) {
                if (trace)
                    print_trace_line(e, *sim, json);
            });
            if (!ok) {
                std::cerr << printable(error) << "\n";
                return 2;
            }
            // After --trace --json lines, the state is one more line of JSON Lines.
            std::cout << (json ? (trace ? compact_json(state_json(*sim)) + "\n" : state_json(*sim))
                               : printable(state_text(*sim), LineBreaks::keep));
            return 0;
        }
        cli::Hits hits;
        if (trace && !json) {
            std::cout << "# costs:";
            for (const CostInfo &c : cost_table())
                std::cout << " " << c.name << "=" << kernel_costs(sim->kernel())[c.cost];
            std::cout << "\n";
        }
        if (!watches.empty()) {
            const Simulation &s = *sim;
            cli::RunProgress progress(timeout_s);
            hits = watches.run(*sim, progress, [&](const Event &e) {
                if (trace)
                    print_trace_line(e, s, json);
            });
            progress.done();
            if (progress.timed_out()) {
                std::cerr << printable(progress.timeout_diagnostic(*sim).format()) << "\n";
                status = 2;
            }
            for (const std::string &w : watches.never_existed(*sim))
                std::cerr << printable(file) << ": warning: " << printable(w) << "\n";
        } else if (trace) {
            // With --json: JSON Lines, every line one object, the report (on one line) last.
            cli::RunProgress progress(timeout_s);
            while (const Event *e = sim->step()) {
                print_trace_line(*e, *sim, json);
                if (!progress.tick(*sim))
                    break;
            }
            if (progress.timed_out()) {
                std::cerr << printable(progress.timeout_diagnostic(*sim).format()) << "\n";
                status = 2;
            }
        } else {
            cli::RunProgress progress(timeout_s);
            while (sim->step())
                if (!progress.tick(*sim))
                    break;
            progress.done();
            if (progress.timed_out()) {
                std::cerr << printable(progress.timeout_diagnostic(*sim).format()) << "\n";
                status = 2;
            }
        }
        if (auto limit = sim->limit_reached()) {
            std::cerr << printable(limit->format()) << "\n";
            status = 2;
        }
        if (scenes.size() > 1 && !json)
            std::cout << "==== variant " + printable(name) + " ====\n";
        if (!json) {
            for (const cli::Hit &h : hits.listed)
                std::cout << printable(cli::hit_line(h)) << "\n";
            if (hits.not_listed)
                std::cout << printable(cli::hits_not_listed_line(hits)) << "\n";
        }
        if (json && scenes.size() > 1) {
            // Several variants (--hist): one object at the end, each report naming its variant.
            const std::string report =
                watches.empty() ? report_json(*sim) : cli::json_with_hits(report_json(*sim), hits);
            nlohmann::ordered_json named;
            named["variant"] = name;
            const auto parsed_report = nlohmann::ordered_json::parse(report);
            for (const auto &item : parsed_report.items())
                named[item.key()] = item.value();
            variant_reports.push_back(std::move(named));
        } else if (json && !watches.empty())
            std::cout << (trace ? compact_json(cli::json_with_hits(report_json(*sim), hits)) + "\n"
                                : cli::json_with_hits(report_json(*sim), hits));
        else if (trace && json)
            std::cout << compact_json(report_json(*sim)) << "\n";
        else
            std::cout << (json ? report_json(*sim) : printable(report_text(*sim), LineBreaks::keep));
        if (hist && !json)
            std::cout << printable(histograms_text(*sim, unit, name.empty() ? std::string() : name + ": "),
                                   LineBreaks::keep);
        if ((sim->expectations_failed() || sim->stopped_by_finding()) && status == 0)
            status = 1;
        runs.push_back(VariantRun{name, std::move(sim)});
    }
    if (runs.size() > 1 && !json)
        std::cout << printable(comparison_text(runs), LineBreaks::keep);
    if (!variant_reports.empty())
        std::cout << nlohmann::ordered_json{{"variants", std::move(variant_reports)}}.dump(
                         2, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
                  << "\n";
    return status;
}

} // namespace
