// SPDX-License-Identifier: GPL-3.0-or-later
// `inflight-cli replay FILE [--json] [--gc ERA] [--stable-ms N]` and
// `inflight-cli export-c FILE [-o OUT.c] [--gc ERA]`.
#include "replay_command.hpp"

#include "inflight/atomic_file.hpp"
#include "inflight/export_c.hpp"
#include "inflight/kernel_replay.hpp"
#include "inflight/model_trace.hpp"
#include "inflight/parser.hpp"
#include "inflight/release_profile.hpp"
#include "inflight/replay_diff.hpp"
#include "inflight/replay_plan.hpp"
#include "inflight/utf8.hpp"
#include "inflight/vm_replay.hpp"

#include "run_progress.hpp"
#include "step_to.hpp"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>

using namespace inflight;

namespace inflight_cli {

namespace {

int fail(const char *usage, const std::string &msg)
{
    std::fprintf(stderr, "inflight-cli: error: %s\n%s", printable(msg).c_str(), usage);
    return 2;
}

const char *kReplayUsage =
    "usage: inflight-cli replay FILE [--json] [--gc classic|async|graph] [--stable-ms N] [--timeout S]\n"
    "                           [--vm VMLINUZ [--vm-modules DIR] [--vm-accel tcg|kvm] [--vm-agent PATH]]\n"
    "Runs the scene as real syscalls on this machine's kernel, in a fresh network namespace, and\n"
    "compares every socket's fate and every errno with the model of the kernel's era (uname -r).\n"
    "With --vm, the kernel image VMLINUZ is booted under qemu with a small initramfs (static busybox,\n"
    "the static inflight-replay-agent, the scene, and unix_diag.ko from DIR, default ../lib/modules\n"
    "next to VMLINUZ) and the replay runs there, compared with the model of that kernel's era.\n"
    "--timeout S ends the replay after S seconds (default: 600 on this kernel, 300 with --vm).\n"
    "Exit 0: they agree; 1: they differ; 2: the scene cannot be replayed.\n";

const char *kExportUsage = "usage: inflight-cli export-c FILE [-o OUT.c] [--gc classic|async|graph]\n"
                           "Writes a standalone C program that performs the scene with real syscalls and\n"
                           "asserts the model's verdicts for the era of this kernel (or --gc).\n";

struct Common {
    std::string file;
    std::optional<GcEra> era;
    bool json = false;
    unsigned stable_ms = 100;
    std::optional<double> timeout_s;
    std::string out;
    VmOptions vm;
};

// Parses the options both commands share; returns an exit status on a bad command line.
std::optional<int> parse_args(int argc, char **argv, const char *usage, bool is_export, Common &c)
{
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> const char * { return i + 1 < argc ? argv[++i] : nullptr; };
        if (a == "--json" && !is_export) {
            c.json = true;
        } else if (a == "--gc") {
            const char *v = value();
            const auto era = v ? parse_era(v) : std::nullopt;
            if (!era)
                return fail(usage, "--gc needs a collector: classic, async or graph");
            c.era = era;
        } else if (a == "--stable-ms" && !is_export) {
            const char *v = value();
            const auto n = v ? parse_count(v) : std::nullopt;
            if (!n || *n < 10 || *n > 1000)
                return fail(usage, "--stable-ms needs a number of milliseconds from 10 to 1000");
            c.stable_ms = static_cast<unsigned>(*n);
        } else if (a == "--timeout" && !is_export) {
            const char *v = value();
            c.timeout_s = v ? inflight::cli::parse_timeout_seconds(v) : std::nullopt;
            if (!c.timeout_s)
                return fail(usage, "--timeout needs a number of seconds, more than 0");
        } else if ((a == "--vm" || a == "--vm-modules" || a == "--vm-accel" || a == "--vm-agent") && !is_export) {
            const char *v = value();
            if (!v)
                return fail(usage, a + " needs a value");
            if (a == "--vm")
                c.vm.vmlinuz = v;
            else if (a == "--vm-modules")
                c.vm.modules_dir = v;
            else if (a == "--vm-agent")
                c.vm.agent = v;
            else if (std::string(v) == "tcg" || std::string(v) == "kvm")
                c.vm.accel = v;
            else
                return fail(usage, "--vm-accel is tcg or kvm");
        } else if ((a == "-o" || a == "--output") && is_export) {
            const char *v = value();
            if (!v)
                return fail(usage, "-o needs a file name");
            c.out = v;
        } else if (a == "-h" || a == "--help") {
            std::cout << usage;
            return 0;
        } else if (!a.empty() && a[0] == '-') {
            return fail(usage, "unknown option '" + a + "'");
        } else if (c.file.empty()) {
            c.file = a;
        } else {
            return fail(usage, "more than one scene file given");
        }
    }
    if (c.file.empty())
        return fail(usage, "no scene file given");
    return std::nullopt;
}

// The static agent: beside this executable when installed, else where the build put it.
std::string default_agent()
{
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        std::string dir(self, static_cast<std::size_t>(n));
        dir.erase(dir.rfind('/'));
        for (const std::string &candidate :
             {dir + "/inflight-replay-agent", dir + "/../realkernel/inflight-replay-agent"})
            if (access(candidate.c_str(), X_OK) == 0)
                return candidate;
    }
    return INFLIGHT_REPLAY_AGENT;
}

// The scene, its diagnostics printed to stderr as the other commands print them.
ParseResult load_reporting(const std::string &file)
{
    ParseResult parsed = load_scene_file(file);
    for (const auto &d : parsed.diagnostics)
        std::cerr << printable(d.format()) << "\n";
    return parsed;
}

} // namespace

int replay_main(int argc, char **argv)
{
    Common c;
    if (auto status = parse_args(argc, argv, kReplayUsage, false, c))
        return *status;
    ParseResult parsed = load_reporting(c.file);
    if (!parsed.ok())
        return 2;
    const bool in_vm = !c.vm.vmlinuz.empty();
    // Inside the virtual machine the agent is root.
    const ReplayPlan plan = plan_replay(parsed.scene, in_vm || geteuid() == 0);
    if (!plan.ok()) {
        for (const std::string &line : format_problems(plan))
            std::cerr << printable(line) << "\n";
        if (c.json) {
            nlohmann::json list = nlohmann::json::array();
            for (const ReplayProblem &p : plan.problems)
                list.push_back({{"line", p.loc.line}, {"col", p.loc.col}, {"message", p.message}});
            std::cout << nlohmann::json{{"cannot_replay", std::move(list)}}.dump(
                             2, ' ', false, nlohmann::json::error_handler_t::replace)
                      << "\n";
        }
        std::cerr << printable(c.file) << ": nothing was run\n";
        return 2;
    }
    KernelRun kernel;
    if (in_vm) {
        if (c.vm.agent.empty())
            c.vm.agent = default_agent();
        if (c.timeout_s)
            c.vm.timeout_s = static_cast<unsigned>(std::max(1.0, *c.timeout_s));
        kernel = run_in_vm(c.file, c.vm);
    }
    const ReleaseProfile profile = in_vm ? profile_for_release(kernel.release, kernel.version)
                                         : profile_for_release(running_kernel_release(), running_kernel_version());
    const ModelTrace model = trace_model(parsed.scene, plan, model_profile(profile, c.era));
    if (!in_vm) {
        KernelReplayOptions options;
        options.stable_ms = c.stable_ms;
        if (c.timeout_s)
            options.timeout_s = static_cast<unsigned>(std::max(1.0, *c.timeout_s));
        options.expected = expected_fates(model);
        kernel = run_on_kernel(plan, options);
    }
    if (!kernel.ran) {
        std::cerr << printable(c.file) << ": error: " << printable(kernel.failure) << "\n";
        if (c.json)
            std::cout << nlohmann::json{{"error", kernel.failure}}.dump(2, ' ', false,
                                                                        nlohmann::json::error_handler_t::replace)
                      << "\n";
        return 2;
    }
    const ReplayReport report = compare_replay(plan, model, kernel, profile);
    std::cout << (c.json ? replay_report_json(report) : printable(replay_report_text(report), LineBreaks::keep));
    return report.agrees() ? 0 : 1;
}

} // namespace inflight_cli

namespace inflight_cli {

int export_c_main(int argc, char **argv)
{
    Common c;
    if (auto status = parse_args(argc, argv, kExportUsage, true, c))
        return *status;
    ParseResult parsed = load_reporting(c.file);
    if (!parsed.ok())
        return 2;
    // A program that may run as any user: plan it as the unprivileged case, where only one uid
    // exists, unless the caller is root.
    const ReplayPlan plan = plan_replay(parsed.scene, geteuid() == 0);
    const ReleaseProfile profile = profile_for_release(running_kernel_release(), running_kernel_version());
    const KernelProfile &kernel = model_profile(profile, c.era);
    const ModelTrace model = trace_model(parsed.scene, plan, kernel);
    const std::string model_name = std::string(era_name(kernel.era)) + ", kernel profile " + std::string(kernel.name) +
                                   " (" + std::string(kernel.title) + ")";
    const ExportResult out = export_c(plan, model, parsed.scene.title, model_name);
    if (!out.problems.empty()) {
        for (const ReplayProblem &p : out.problems)
            std::cerr << printable(c.file) << ":" << p.loc.line << ":" << p.loc.col
                      << ": error: cannot export: " << printable(p.message) << "\n";
        return 2;
    }
    if (c.out.empty() || c.out == "-") {
        std::cout << out.source;
        return 0;
    }
    // Whole or not at all, and never over the scene it was made from.
    AtomicWriteOptions options;
    options.inputs = {c.file};
    if (const auto failure = write_file_atomically(c.out, out.source, options)) {
        std::cerr << "inflight-cli: error: " << printable(failure->message("write", c.out)) << "\n";
        return 2;
    }
    return 0;
}

} // namespace inflight_cli
