// SPDX-License-Identifier: GPL-3.0-or-later
// The scene statement an event belongs to, told in words: which line, its text, the syscall it
// makes and, at its end, what that syscall did. Events carry only a line and a result value;
// the scene says what the value means (a byte count for sendmsg(), an fd for accept()...).
#pragma once

#include "inflight/event.hpp"
#include "inflight/scene.hpp"

#include <cstdint>
#include <string>

namespace inflight {

class NamePool;

// The statement that starts on `line` (searched through repeat and spawn bodies), or nullptr.
const Statement *statement_at(const Scene &scene, std::uint32_t line);
// The line's source text, trimmed: "send p1 fds=u0,u0".
std::string source_text(const Scene &scene, std::uint32_t line);

// `pool` (the kernel's names) turns a repeat block's templated names (u$i) into the names the
// step ran with: the event's b and c (see EventKind::stmt_begin).
// stmt_begin: "Line 12: send p1 fds=u0,u0 — sendmsg() on p1 sends 1 byte passing 2 fds (u0, u0)
// with SCM_RIGHTS."
std::string narrate_statement_begin(const Event &e, const Scene *scene, const NamePool *pool);
// stmt_end: "sendmsg() on p1 sent 1 byte with 2 fds (u0, u0)." / "close() on line 4 failed with
// EBADF (Bad file descriptor)."
std::string narrate_statement_end(const Event &e, const Scene *scene, const NamePool *pool);
// expect_result: "The expectation on line 31 holds: u0, u1 and u2 are freed."
std::string narrate_expectation(const Event &e, const Scene *scene);
// note from the scene: its text.
std::string narrate_scene_note(const Event &e, const Scene *scene);

// Compact forms for the event log's one-line column.
std::string describe_statement_begin(const Event &e, const Scene *scene, const NamePool *pool);
std::string describe_statement_end(const Event &e, const Scene *scene, const NamePool *pool);
std::string describe_scene_note(const Event &e, const Scene *scene);
std::string describe_expectation(const Event &e, const Scene *scene);

} // namespace inflight
