// SPDX-License-Identifier: GPL-3.0-or-later
#include "step_to.hpp"

#include "inflight/kernel_queries.hpp"
#include "inflight/parser.hpp"
#include "inflight/utf8.hpp"

#include <charconv>
#include <iostream>

using namespace inflight;

namespace inflight_cli {

std::shared_ptr<Scene> load_scene_reporting(const std::string &file, const ParseLimits &limits)
{
    ParseResult parsed = load_scene_file(file, limits);
    for (const auto &d : parsed.diagnostics)
        std::cerr << printable(d.format()) << "\n";
    if (!parsed.ok())
        return nullptr;
    return std::make_shared<Scene>(std::move(parsed.scene));
}

std::optional<std::uint64_t> parse_count(const std::string &text)
{
    std::uint64_t v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return v;
}

bool step_to(Simulation &sim, std::optional<std::uint64_t> step, cli::RunProgress &progress, std::string &error,
             const std::function<void(const Event &)> &each)
{
    while (!step || sim.steps() < *step) {
        const Event *e = sim.step();
        if (!e)
            break;
        if (each)
            each(*e);
        if (!progress.tick(sim))
            break;
    }
    progress.done();
    if (progress.timed_out()) {
        error = progress.timeout_diagnostic(sim, "nothing is shown").format();
        return false;
    }
    if (auto limit = sim.limit_reached(); limit && (!step || sim.steps() < *step)) {
        error = limit->format();
        return false;
    }
    if (step && sim.steps() < *step) {
        error = sim.scene().file + ": error: step " + std::to_string(*step) + " is past the end of the run (" +
                std::to_string(sim.steps()) + " micro-steps" +
                (sim.stopped_by_finding() ? ", stopped by a finding" : "") + ")";
        return false;
    }
    return true;
}

std::optional<std::uint32_t> find_socket(const Kernel &k, const std::string &label)
{
    return socket_labelled(k, label);
}

std::string label_list(const Kernel &k, std::size_t max)
{
    std::string out;
    for (const std::string &label : socket_labels(k, max))
        out += (out.empty() ? "" : ", ") + label;
    if (socket_count(k) > max)
        out += ", ...";
    return out.empty() ? "none" : out;
}

} // namespace inflight_cli
