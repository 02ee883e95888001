// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/unix_sock.hpp"

namespace inflight {

std::string_view sock_state_name(SockState s)
{
    switch (s) {
    case SockState::unconnected: return "unconnected";
    case SockState::listening: return "listening";
    case SockState::connected: return "connected";
    case SockState::embryo: return "embryo";
    case SockState::closed: return "closed";
    }
    return "?";
}

std::string_view sock_type_name(SockType t)
{
    switch (t) {
    case SockType::stream: return "stream";
    case SockType::dgram: return "dgram";
    case SockType::seqpacket: return "seqpacket";
    }
    return "?";
}

std::string_view freed_by_name(FreedBy f)
{
    switch (f) {
    case FreedBy::none: return "none";
    case FreedBy::close: return "close";
    case FreedBy::gc: return "gc";
    case FreedBy::cascade: return "cascade";
    }
    return "?";
}

} // namespace inflight
