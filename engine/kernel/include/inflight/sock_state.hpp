// SPDX-License-Identifier: GPL-3.0-or-later
// A socket's state, how it was freed and its GC flags: the values the views show of a socket
// (GraphSnapshot, SocketDetail) without seeing struct unix_sock itself (unix_sock.hpp, internal).
#pragma once

#include "inflight/scene.hpp"

#include <cstdint>
#include <string_view>

namespace inflight {

enum class SockState : std::uint8_t { unconnected, listening, connected, embryo, closed };
std::string_view sock_state_name(SockState s);
std::string_view sock_type_name(SockType t);

enum class FreedBy : std::uint8_t { none, close, gc, cascade };
std::string_view freed_by_name(FreedBy f);

// u->gc_flags (classic era).
inline constexpr unsigned UNIX_GC_CANDIDATE = 1u << 0;
inline constexpr unsigned UNIX_GC_MAYBE_CYCLE = 1u << 1;

} // namespace inflight
