// SPDX-License-Identifier: GPL-3.0-or-later
// Large model states live in large heap blocks: a million-socket state is ~270 MB, and every
// restore of a checkpoint writes a fresh copy of it. Where transparent huge pages are given
// only on request (the "madvise" mode that Debian, Ubuntu and most cloud images ship), each of
// those blocks is faulted in 4 KiB at a time; on a virtual machine a fault costs ~10 us, and a
// step back on that scene spent most of its second in page faults.
//
// glibc (2.35 and later) advises huge pages for its own large blocks when the environment asks
// it to (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), and reads that setting once, as the process
// starts. The programs that hold large states therefore start themselves again with it set,
// first thing in main(), before any thread or library state exists.
//
// The same call gives every thread one malloc arena. A state is built on one pool thread and
// freed, a seek later, on another; with an arena per thread the freed blocks went back to the
// first thread's arena while the next restore faulted fresh memory into its own, and after the
// app's idle heap trim (app/heap_trim.h) had handed the free pages back that cost a step back
// on the million-socket scene ~4,000 page faults (label_owner, the fd tables: ~50 ms on this
// VM). One arena also lowered the 32k scene's peak memory from 370-390 to ~300 MB, with no
// measurable loss of speed on two cores (inflight-app-bench timetravel).
#pragma once

namespace inflight {

// Replaces the process with itself (same pid, arguments and environment) plus the tunable, if
// the environment does not set glibc.malloc.hugetlb already (a user's own choice, or this
// process started again) and the system gives huge pages at all. Returns only when it did
// nothing or the exec failed: then the program goes on with the heap as it is (one arena).
void use_huge_page_heap(char **argv);

} // namespace inflight
