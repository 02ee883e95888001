// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/write_all.hpp"

#include <cerrno>

#include <unistd.h>

namespace inflight {

int write_all(int fd, std::string_view bytes)
{
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (n == 0) // no progress and no errno: a device that takes nothing more
            return ENOSPC;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return 0;
}

} // namespace inflight
