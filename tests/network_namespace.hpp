// SPDX-License-Identifier: GPL-3.0-or-later
// Whether this process may make the network namespace a replay on the running kernel runs in
// (realkernel/src/kernel_replay.cpp, and the programs export-c writes): a new network namespace,
// inside a new user namespace when not root. Containers and hardened kernels refuse it
// (kernel.unprivileged_userns_clone=0, seccomp, no CAP_SYS_ADMIN), and then the tests that replay
// on the kernel skip with the reason instead of failing on the machine.
#pragma once

#include <QString>

#include <cerrno>
#include <cstring>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

namespace inflight::test {

// "" when a child of this process can enter a fresh network namespace; else why it cannot.
inline QString networkNamespaceUnavailable()
{
    const bool root = geteuid() == 0;
    const pid_t child = fork();
    if (child < 0)
        return QStringLiteral("fork: ") + QString::fromLocal8Bit(std::strerror(errno));
    if (child == 0) // the probe changes only the child's namespaces
        _exit(unshare(root ? CLONE_NEWNET : CLONE_NEWUSER | CLONE_NEWNET) == 0 ? 0 : errno);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) { }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return {};
    const int err = WIFEXITED(status) ? WEXITSTATUS(status) : EINVAL;
    return QStringLiteral("this process cannot make a network namespace (%1): %2")
        .arg(root ? QStringLiteral("unshare(CLONE_NEWNET)") : QStringLiteral("unshare(CLONE_NEWUSER | CLONE_NEWNET)"),
             QString::fromLocal8Bit(std::strerror(err)));
}

} // namespace inflight::test

// Skips the running test function when the replay's namespace cannot be made here.
#define INFLIGHT_REQUIRE_NETWORK_NAMESPACE()                                                                           \
    do {                                                                                                               \
        const QString why_not = inflight::test::networkNamespaceUnavailable();                                         \
        if (!why_not.isEmpty())                                                                                        \
            QSKIP(qPrintable(why_not));                                                                                \
    } while (false)
