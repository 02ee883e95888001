// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers the subcommands share: loading a scene file, reading a step number and stepping a
// run micro-step by micro-step to it.
#pragma once

#include "inflight/parser.hpp"
#include "inflight/simulation.hpp"

#include "run_progress.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace inflight_cli {

// The scene in `file`, its diagnostics written to stderr; null when it is not a valid scene.
std::shared_ptr<inflight::Scene> load_scene_reporting(const std::string &file,
                                                      const inflight::ParseLimits &limits = {});

// A count given on the command line (a step, a seed, a limit, milliseconds): decimal digits and
// nothing else (no sign, spaces, suffix or other base, no more than 2^64 - 1), else nullopt.
std::optional<std::uint64_t> parse_count(const std::string &text);

// Steps `sim` (made with fast_forward off, so every micro-step counts) until it has made `step`
// micro-steps, or to the end when `step` is nullopt. `each` sees every event. Returns false with
// `error` set to a whole message ("file:line:col: error: ...") when the run ends before `step`:
// at its end, at a budget, or at `progress`'s timeout.
bool step_to(inflight::Simulation &sim, std::optional<std::uint64_t> step, inflight::cli::RunProgress &progress,
             std::string &error, const std::function<void(const inflight::Event &)> &each = {});

// The socket a label names at this step, or nullopt.
std::optional<std::uint32_t> find_socket(const inflight::Kernel &k, const std::string &label);
// "a, b, c" (at most `max`, then "...").
std::string label_list(const inflight::Kernel &k, std::size_t max = 24);

// `inflight-cli why ...`: argv[1] is "why".
int why_main(int argc, char **argv);

} // namespace inflight_cli
