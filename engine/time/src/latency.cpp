// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/latency.hpp"

namespace inflight {

std::string_view call_kind_name(CallKind k)
{
    switch (k) {
    case CallKind::no_fd: return "no fd";
    case CallKind::with_fds: return "with fds";
    case CallKind::with_unix_fds: return "with AF_UNIX fds";
    case CallKind::autobind: return "autobind";
    }
    return "?";
}

} // namespace inflight
