// SPDX-License-Identifier: GPL-3.0-or-later
// The heap policy of every program that holds large model states (the app, the CLI, the
// benchmarks), so that they all run the same heap.
//
// A state is built on one thread and freed, a seek later, on another: with glibc's arena per
// thread the freed blocks went back to the first thread's arena while the next state faulted
// fresh memory into its own. One arena keeps them in one place. Tables grow by doubling: a
// fixed mmap threshold hands each outgrown buffer back at once, where glibc's sliding one would
// keep it, and the hole it leaves, in the heap. Large states are touched whole at every
// restore: glibc (2.35 and later) advises huge pages for its own large blocks when asked by
// GLIBC_TUNABLES, which it reads once, at start, so the process starts itself again with it.
#pragma once

#include <cstddef>

namespace inflight {

inline constexpr std::size_t kMmapThresholdBytes = std::size_t(256) << 10;
inline constexpr std::size_t kKeptBlocksCapBytes = std::size_t(512) << 20;

// First thing in main(), before any thread exists. May replace the process with itself (same
// pid, arguments, name and environment, plus glibc.malloc.hugetlb=1) when the environment does
// not choose glibc.malloc.hugetlb already and the system gives transparent huge pages; returns
// when it did not (or the exec failed), with one malloc arena, a fixed mmap threshold, and the
// large blocks of model states kept for reuse (RecyclingBlockSource, kKeptBlocksCapBytes).
void configure_process_heap(int argc, char **argv);

// Hands free memory back to the system: the kept blocks, then glibc's free pages. It holds each
// malloc arena while it walks it, so call it off the GUI thread, once the program is idle.
void trim_idle_heap();

} // namespace inflight
