// SPDX-License-Identifier: GPL-3.0-or-later
#include "socket_census.hpp"

#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>

namespace inflight::realkernel {

namespace {

// Sends one UNIX_DIAG request and hands every answer's message and attributes to `each`.
// Returns false when the kernel did not answer (no UNIX_DIAG, or an error).
bool diag_query(int fd, std::uint32_t inode, std::uint32_t show,
                const std::function<void(const unix_diag_msg &, const rtattr *, int)> &each)
{
    struct {
        nlmsghdr nlh;
        unix_diag_req req;
    } r;
    std::memset(&r, 0, sizeof r);
    r.nlh.nlmsg_len = sizeof r;
    r.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    r.nlh.nlmsg_flags = NLM_F_REQUEST | (inode ? 0 : NLM_F_DUMP);
    r.req.sdiag_family = AF_UNIX;
    r.req.udiag_states = ~0u;
    r.req.udiag_ino = inode;
    r.req.udiag_show = show;
    if (inode) {
        // An exact request must name the cookie or say it does not care.
        r.req.udiag_cookie[0] = INET_DIAG_NOCOOKIE;
        r.req.udiag_cookie[1] = INET_DIAG_NOCOOKIE;
    }
    sockaddr_nl to{};
    to.nl_family = AF_NETLINK;
    if (sendto(fd, &r, sizeof r, 0, reinterpret_cast<sockaddr *>(&to), sizeof to) != sizeof r)
        return false;
    alignas(nlmsghdr) static char buf[32768];
    for (;;) {
        const ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        int len = static_cast<int>(n);
        for (auto *h = reinterpret_cast<nlmsghdr *>(buf); NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
            if (h->nlmsg_type == NLMSG_DONE)
                return true;
            if (h->nlmsg_type == NLMSG_ERROR) {
                const auto *e = static_cast<const nlmsgerr *>(NLMSG_DATA(h));
                // An exact request for a socket that is gone answers ENOENT: a valid answer.
                return inode && e->error == -ENOENT;
            }
            const auto *m = static_cast<const unix_diag_msg *>(NLMSG_DATA(h));
            const int attr_len = static_cast<int>(h->nlmsg_len - NLMSG_LENGTH(sizeof *m));
            each(*m, reinterpret_cast<const rtattr *>(m + 1), attr_len);
            if (inode)
                return true; // an exact request has one answer and no DONE
        }
    }
}

} // namespace

int open_diag()
{
    const int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    if (fd < 0)
        return -1;
    // Probe: a dump that fails means no UNIX_DIAG in this kernel.
    if (!diag_query(fd, 0, 0, [](const unix_diag_msg &, const rtattr *, int) {})) {
        close(fd);
        return -1;
    }
    return fd;
}

std::uint64_t protocol_count()
{
    std::FILE *f = std::fopen("/proc/net/protocols", "re");
    if (!f)
        return 0;
    char line[512];
    std::uint64_t total = 0;
    while (std::fgets(line, sizeof line, f)) {
        // "UNIX " is the dgram proto, "UNIX-STREAM " the stream and seqpacket one; the trailing
        // space keeps one from matching the other.
        const char *rest = nullptr;
        if (std::strncmp(line, "UNIX ", 5) == 0)
            rest = line + 5;
        else if (std::strncmp(line, "UNIX-STREAM ", 12) == 0)
            rest = line + 12;
        if (!rest)
            continue;
        unsigned long size = 0, sockets = 0;
        if (std::sscanf(rest, "%lu %lu", &size, &sockets) == 2)
            total += sockets;
    }
    std::fclose(f);
    return total;
}

Census take_census(int diag_fd)
{
    Census c;
    if (std::FILE *f = std::fopen("/proc/net/unix", "re")) {
        char line[1024];
        bool header = true;
        while (std::fgets(line, sizeof line, f)) {
            if (header) {
                header = false;
                continue;
            }
            // Num RefCount Protocol Flags Type St Inode [Path]
            char num[32];
            unsigned long ref = 0, proto = 0, flags = 0, type = 0, st = 0, ino = 0;
            if (std::sscanf(line, "%31s %lx %lx %lx %lx %lx %lu", num, &ref, &proto, &flags, &type, &st, &ino) == 7)
                c.inodes.insert(ino);
        }
        std::fclose(f);
    }
    if (diag_fd >= 0) {
        diag_query(diag_fd, 0, UDIAG_SHOW_ICONS, [&](const unix_diag_msg &m, const rtattr *a, int len) {
            c.inodes.insert(m.udiag_ino);
            for (; RTA_OK(a, len); a = RTA_NEXT(a, len)) {
                if (a->rta_type != UNIX_DIAG_ICONS)
                    continue;
                const auto *ino = static_cast<const std::uint32_t *>(RTA_DATA(a));
                const std::size_t n = RTA_PAYLOAD(a) / sizeof(std::uint32_t);
                for (std::size_t i = 0; i < n; ++i)
                    if (ino[i])
                        c.inodes.insert(kEmbryoOf | ino[i]);
            }
        });
    }
    c.counted = protocol_count();
    return c;
}

std::uint64_t peer_inode(int diag_fd, std::uint64_t inode)
{
    if (diag_fd < 0)
        return 0;
    // A dump rather than an exact request: the dump is what every kernel with UNIX_DIAG answers.
    std::uint64_t peer = 0;
    diag_query(diag_fd, 0, UDIAG_SHOW_PEER, [&](const unix_diag_msg &m, const rtattr *a, int len) {
        if (m.udiag_ino != inode)
            return;
        for (; RTA_OK(a, len); a = RTA_NEXT(a, len))
            if (a->rta_type == UNIX_DIAG_PEER)
                peer = *static_cast<const std::uint32_t *>(RTA_DATA(a));
    });
    return peer;
}

} // namespace inflight::realkernel
