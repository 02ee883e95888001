// SPDX-License-Identifier: GPL-3.0-or-later
// How a statement's list of names (the fds a send passes, the sockets a close closes) is said in
// one line of narration: every name of a short list, the first few and the last of a long one.
// A narration that names 250 sockets names none that a student can find, and overflows any
// projector; the count beside the list says how many there are.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace inflight {

inline constexpr std::size_t kNamesSaidWhole = 8; // a list this long or shorter is said whole
inline constexpr std::size_t kNamesSaidFirst = 3; // a longer one: this many, "…", its last

// `name_at(i)` is asked only for the names said. `last_joiner` goes before the last name said:
// ", " for a list in parentheses, " and " for one in a sentence.
std::string name_list_text(std::size_t count, const std::function<std::string(std::size_t)> &name_at,
                           const char *last_joiner = ", ");

} // namespace inflight
