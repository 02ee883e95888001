// SPDX-License-Identifier: GPL-3.0-or-later
// Whole reads and writes on pipes, across EINTR and short transfers.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstddef>

namespace inflight::realkernel {

inline bool write_all(int fd, const void *data, std::size_t n)
{
    const char *p = static_cast<const char *>(data);
    while (n) {
        const ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= static_cast<std::size_t>(w);
    }
    return true;
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
