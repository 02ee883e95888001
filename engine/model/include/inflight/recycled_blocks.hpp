// SPDX-License-Identifier: GPL-3.0-or-later
// Large blocks kept for the next state to use: a freed ChunkedVector chunk of 2 MiB or more
// waits here, already faulted in, instead of going back to the operating system.
//
// Why: every restore of a checkpoint builds a whole new state while the one on screen lives,
// and the one it replaces is freed a moment later. On the million-socket scene that is ~244 MB
// of socket and file chunks each time (blocks over glibc's 32 MiB mmap ceiling are unmapped on
// free), and touching fresh memory is the expensive part of a step back: the kernel zeroes
// every page, and on a virtual machine whose host takes freed pages back, 120-350 ms of a
// 130-360 ms restore went to clear_page (perf, inflight-app-bench million). A state freed and
// the next one built reuse exactly the same chunk sizes (chunk k of a vector of T always has
// the same size), so a block kept here is taken again by size, whole.
//
// Bounded: at most kRecycledBlocksCap bytes wait here; past that a block is freed as before.
// A program that goes idle hands them back with release_recycled_blocks() (the app does so
// with its idle heap trim, so its resident memory at rest is what it was without this).
#pragma once

#include <cstddef>

namespace inflight {

inline constexpr std::size_t kRecycledBlocksCap = std::size_t(512) << 20;

// A kept block of exactly `bytes`, or nullptr (then the caller allocates as usual).
void *take_recycled_block(std::size_t bytes);
// Keeps a block the caller would free (allocated with std::aligned_alloc, `bytes` its size):
// false when the cap is reached, and then the caller frees it.
bool keep_recycled_block(void *block, std::size_t bytes);
// Frees every kept block. Thread-safe, like the two above.
void release_recycled_blocks();
// What waits now, in bytes.
std::size_t recycled_block_bytes();

} // namespace inflight
