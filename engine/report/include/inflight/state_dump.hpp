// SPDX-License-Identifier: GPL-3.0-or-later
// The model's state at one step, for `inflight-cli run --at` and `why`: every socket with its
// counts and GC marks, the collector's lists in order, and the globals. JSON is produced with
// nlohmann-json (kept out of this header) and always valid UTF-8: bytes that are not are
// replaced by U+FFFD.
#pragma once

#include "inflight/scene.hpp"
#include "inflight/why_alive.hpp"

#include <cstdint>
#include <string>

namespace inflight {

class Kernel;
class Simulation;
struct Event;

// The globals: unix_tot_inflight, each user's unix_inflight, gc_in_progress and its phase,
// the graph state and index marks, the hitlist size. One compact JSON object.
std::string globals_json(const Kernel &k);
// Text and JSON of the whole state (sockets, lists, globals) after `sim.steps()` micro-steps.
std::string state_text(const Simulation &sim);
std::string state_json(const Simulation &sim);
// One micro-step as one line of JSON Lines: the fields of trace_line() (step, line, fn, kind,
// text) and the task that ran it.
std::string trace_json_line(const Event &e, const Kernel &k, const Scene *scene = nullptr);
// A JSON text (e.g. report_json()'s) re-emitted on one line; invalid UTF-8 replaced.
std::string compact_json(const std::string &json);
std::string why_json(const Kernel &k, const WhyAlive &w, std::uint64_t step);

} // namespace inflight
