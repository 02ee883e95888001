// What inflight-cli prints after a run: a text summary, the JSON object of the issue, and the
// one-line-per-micro-step trace.
#pragma once

#include "inflight/event.hpp"

#include <string>
#include <vector>

namespace inflight {

class Kernel;
class Simulation;

std::string report_text(const Simulation &sim);
std::string report_json(const Simulation &sim);
// "     42  L7  select_candidates  candidate_check  b: file refs 2 == inflight 2: candidate"
std::string trace_line(const Event &e, const Kernel &k);

// Every event as JSON: {"scene", "gc", "events": [{step, line, fn, kind, a, b, c, before, after,
// text}]}, objects named by their labels. The kernel gives the labels (any step of the run).
std::string trace_json(const std::vector<Event> &events, const Kernel &k, const std::string &scene_title);

// Escapes a string for a JSON string literal (without the quotes).
std::string json_escape(const std::string &s);

} // namespace inflight
