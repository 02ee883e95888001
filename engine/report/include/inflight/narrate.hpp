// SPDX-License-Identifier: GPL-3.0-or-later
// Plain-words text for events: one line for the trace, and a sentence or two a teacher can read
// aloud for the current micro-step.
#pragma once

#include "inflight/event.hpp"
#include "inflight/scene.hpp"

#include <string>
#include <string_view>

namespace inflight {

class Kernel;
class RunNames;

// Objects and values, compact: "b inflight 1 -> 2 (gc_inflight_list)". With the scene, a
// statement's steps name its line and text ("line 12: send p1 fds=u0,u0").
std::string describe(const Event &e, const Kernel &k, const Scene *scene = nullptr);
// The same from a finished run's names (RunNames): any step's objects, without the run.
std::string describe(const Event &e, const RunNames &names, const Scene *scene = nullptr);
// The narration: what happened and why it matters to the collector, in sentences with the
// values they are about. Made from the event and the socket labels only (the event log calls it
// for past steps with a later state); the scene tells what a statement's result means.
// A step at which the kernel made a finding (a WARN, a use-after-free, a failed check) ends
// with one paragraph per finding ("\n\n" before each), each starting with kFindingMark, so that
// a view can set them apart: its first line says what broke, the next ones the details.
std::string narrate(const Event &e, const Kernel &k, const Scene *scene = nullptr);
std::string narrate(const Event &e, const RunNames &names, const Scene *scene = nullptr);
inline constexpr std::string_view kFindingMark = "\u26a0 ";
// An ask's answer as the class is told it: "Answer: u0 and u1 are freed."
std::string answer_text(const Statement &ask);

} // namespace inflight
