// SPDX-License-Identifier: GPL-3.0-or-later
// struct file: the object a file descriptor points at. Its refcount (file_count()) counts every
// holder: fd table entries, SCM_RIGHTS lists in flight, send-time cookies, peeked copies.
#pragma once

#include "inflight/unix_sock.hpp"

#include <cstdint>

namespace inflight {

struct UnixSock;

struct File {
    std::uint32_t id = 0;          // equal to the socket's id: one file per socket in this model
    bool released = false;         // __fput() has run
    FreedBy cause = FreedBy::none; // who dropped the last reference (for the report)
    long count = 0;                // file_count()
    UnixSock *sock = nullptr;      // the AF_UNIX socket behind it (unix_get_socket())
    // The last step at which unix_peek_fds() duplicated it (0: never): the other code path
    // of a use-after-free the collector's purge may make (CVE-2021-0920, CVE-2026-23394).
    std::uint64_t peeked_step = 0;
    std::uint32_t peeked_process = 0xFFFFFFFFu;
};

} // namespace inflight
