// SPDX-License-Identifier: GPL-3.0-or-later
// The model's invariants, beyond the kernel's own BUG_ON/WARN_ON conditions (which the kernel
// code paths check where the kernel checks them). Violations become Findings, never crashes.
#pragma once

namespace inflight {

class Kernel;

// Holds after every micro-step: file refcounts equal their holders, list hooks agree with the
// lists, the era's counters agree with each other. O(objects).
void check_step_invariants(Kernel &k);

// Holds when no syscall or collection is half-way (between statements): every in-flight count
// equals the copies actually queued, per socket, per user and in total.
void check_quiescent_invariants(Kernel &k);

} // namespace inflight
