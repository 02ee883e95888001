// SPDX-License-Identifier: GPL-3.0-or-later
// Coroutine frames for Proc. A collection calls nested paths per socket (the classic one's
// scan_children for every candidate, each collected skb's release, ...), so 32,000 sockets in
// flight mean tens of thousands of frames made and destroyed per collection; malloc and free
// were a tenth of the run. Frames of the same size class are kept on a per-thread free list and reused.
#pragma once

#include <cstddef>

namespace inflight::frame_pool {

void *allocate(std::size_t bytes);
void release(void *frame, std::size_t bytes) noexcept;

} // namespace inflight::frame_pool
