// SPDX-License-Identifier: GPL-3.0-or-later
// Whole reads and writes on pipes, across EINTR and short transfers.
#pragma once

#include "inflight/write_all.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <string_view>

namespace inflight::realkernel {

inline bool write_all(int fd, const void *data, std::size_t n)
{
    return inflight::write_all(fd, std::string_view(static_cast<const char *>(data), n)) == 0;
}

inline bool read_all(int fd, void *data, std::size_t n)
{
    char *p = static_cast<char *>(data);
    while (n) {
        const ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        p += r;
        n -= static_cast<std::size_t>(r);
    }
    return true;
}

} // namespace inflight::realkernel
