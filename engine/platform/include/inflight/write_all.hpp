// SPDX-License-Identifier: GPL-3.0-or-later
// write(2) until every byte is out: a write may be interrupted by a signal or take only part of
// the buffer (a pipe, a file near its size limit), and only a checked loop tells a short write
// from a failure such as a full disk.
#pragma once

#include <string_view>

namespace inflight {

// Writes all of `bytes` to `fd`; 0, or the errno of the write that failed.
int write_all(int fd, std::string_view bytes);

} // namespace inflight
