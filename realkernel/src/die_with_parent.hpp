// SPDX-License-Identifier: GPL-3.0-or-later
// A replay's child processes run scene code as root in their own namespace: none may outlive
// the process that started it, even when that one is killed with SIGKILL.
#pragma once

#include <csignal>
#include <sys/prctl.h>
#include <sys/types.h>
#include <unistd.h>

namespace inflight {

// First thing in a child, with `parent` read by getpid() before fork(): the kernel kills the
// child when its parent dies, and a parent that died between fork() and prctl() (the signal
// was then never armed) is seen by getppid() no longer being it.
inline void die_with_parent(pid_t parent)
{
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
        _exit(127);
}

} // namespace inflight
