// SPDX-License-Identifier: GPL-3.0-or-later
// A scene-line breakpoint, optionally conditional: `14` or `14 if inflight a >= 2`. It stops at
// the stmt_begin of a statement on that line when the condition holds in the state right after
// that step (the statement has not run yet). The condition is any watch expression; a field
// without an operator counts as true when its value is neither none nor 0.
#pragma once

#include "inflight/watch.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace inflight {

class Kernel;
struct Event;
struct Scene;

class LineBreakpoint {
public:
    // Errors are located in `text` (the condition's columns are counted from the line number).
    static std::optional<LineBreakpoint> parse(std::string_view text, WatchError *error = nullptr);
    explicit LineBreakpoint(std::uint32_t line, std::optional<Watch> condition = std::nullopt)
        : line_(line), condition_(std::move(condition))
    { }

    std::uint32_t line() const { return line_; }
    const std::optional<Watch> &condition() const { return condition_; }
    // "14" or "14 if inflight a >= 2"
    std::string text() const;

    // Whether the step just taken (e, with k the state after it) stops here.
    bool hits(const Event &e, const Kernel &k) const;

private:
    std::uint32_t line_ = 0;
    std::optional<Watch> condition_;
};

// Why `w` could never read anything but none in `scene`: no statement of it names the socket
// label or user it watches. "no socket 'zz' in the scene; did you mean 'z'?" (or the names it
// has); nothing when one does, or when a name with $ parts might expand to it.
std::optional<std::string> watch_subject_problem(const Watch &w, const Scene &scene);

// Whether a statement of the scene stands on `line` (a repeat's own line runs nothing: its
// body's statements do). For "this breakpoint can never stop" messages.
bool scene_has_statement_on_line(const Scene &scene, std::uint32_t line);

} // namespace inflight
