// SPDX-License-Identifier: GPL-3.0-or-later
#include "replay_worker.hpp"

#include "die_with_parent.hpp"

#include "pipe_io.hpp"

#include <fcntl.h>
#include <linux/close_range.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstring>
#include <map>
#include <set>

#ifndef SO_PASSRIGHTS
#define SO_PASSRIGHTS 83 // Linux 6.16, asm-generic/socket.h
#endif

namespace inflight::realkernel {

namespace {

constexpr std::uint32_t kFinish = 0xFFFFFFFFu;

std::uint64_t inode_of(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 ? static_cast<std::uint64_t>(st.st_ino) : 0;
}

int type_of(SockType t)
{
    switch (t) {
    case SockType::dgram: return SOCK_DGRAM;
    case SockType::seqpacket: return SOCK_SEQPACKET;
    default: return SOCK_STREAM;
    }
}

// An abstract address: a NUL, then the name, no terminator.
socklen_t abstract_address(const std::string &name, sockaddr_un &sa)
{
    std::memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    const std::size_t n = std::min(name.size(), sizeof sa.sun_path - 1);
    std::memcpy(sa.sun_path + 1, name.data(), n);
    return static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + n);
}

// The scene process's descriptors: names as the scene uses them (-1 once closed: a closed name
// must give EBADF, not reach whatever socket reused its number), and every fd it holds.
struct Fds {
    std::map<std::string, int> names;
    std::set<int> open;

    int fd(const std::string &name) const
    {
        auto it = names.find(name);
        return it == names.end() ? -1 : it->second;
    }
    void define(const std::string &name, int fd)
    {
        names[name] = fd;
        open.insert(fd);
    }
};

WorkerReply execute(const ReplayStep &s, Fds &fds)
{
    WorkerReply r;
    auto fail = [&] { r.err = errno; };
    switch (s.op) {
    case Op::socketpair: {
        int sv[2];
        if (socketpair(AF_UNIX, type_of(s.type) | SOCK_NONBLOCK, 0, sv) < 0) {
            fail();
            break;
        }
        fds.define(s.names[0], sv[0]);
        fds.define(s.names[1], sv[1]);
        r.inodes = {inode_of(sv[0]), inode_of(sv[1])};
        break;
    }
    case Op::socket: {
        const int fd = socket(AF_UNIX, type_of(s.type) | SOCK_NONBLOCK, 0);
        if (fd < 0) {
            fail();
            break;
        }
        fds.define(s.names[0], fd);
        r.inodes = {inode_of(fd)};
        break;
    }
    case Op::bind: {
        sockaddr_un sa;
        socklen_t len = sizeof(sa_family_t); // autobind
        if (s.address)
            len = abstract_address(*s.address, sa);
        else {
            std::memset(&sa, 0, sizeof sa);
            sa.sun_family = AF_UNIX;
        }
        if (bind(fds.fd(s.names[0]), reinterpret_cast<sockaddr *>(&sa), len) < 0)
            fail();
        break;
    }
    case Op::listen:
        if (listen(fds.fd(s.names[0]), -1) < 0) // -1: the namespace's somaxconn, as scm_rights.c
            fail();
        break;
    case Op::connect: {
        const int fd = fds.fd(s.names[0]);
        sockaddr_un sa;
        socklen_t len = 0;
        if (s.address) {
            len = abstract_address(*s.address, sa);
        } else {
            // connect c s: to whatever address s is bound to.
            len = sizeof sa;
            std::memset(&sa, 0, sizeof sa);
            if (getsockname(fds.fd(s.names[1]), reinterpret_cast<sockaddr *>(&sa), &len) < 0) {
                fail();
                break;
            }
        }
        if (connect(fd, reinterpret_cast<sockaddr *>(&sa), len) < 0) {
            fail();
            break;
        }
        int type = 0;
        socklen_t tl = sizeof type;
        getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tl);
        r.value = type;
        r.inodes = {inode_of(fd)};
        break;
    }
    case Op::accept: {
        const int fd = accept4(fds.fd(s.names[0]), nullptr, nullptr, SOCK_NONBLOCK);
        if (fd < 0) {
            fail();
            break;
        }
        fds.define(s.names[1], fd);
        r.inodes = {inode_of(fd)};
        break;
    }
    case Op::send: {
        std::string payload(s.bytes, 'x');
        iovec iov{payload.data(), payload.size()};
        msghdr msg{};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        sockaddr_un to;
        if (s.address) {
            msg.msg_name = &to;
            msg.msg_namelen = abstract_address(*s.address, to);
        }
        std::vector<char> control;
        if (!s.fds.empty()) {
            control.assign(CMSG_SPACE(sizeof(int) * s.fds.size()), 0);
            msg.msg_control = control.data();
            msg.msg_controllen = control.size();
            cmsghdr *c = CMSG_FIRSTHDR(&msg);
            c->cmsg_level = SOL_SOCKET;
            c->cmsg_type = SCM_RIGHTS;
            c->cmsg_len = CMSG_LEN(sizeof(int) * s.fds.size());
            for (std::size_t i = 0; i < s.fds.size(); ++i) {
                const int fd = fds.fd(s.fds[i]);
                std::memcpy(CMSG_DATA(c) + i * sizeof(int), &fd, sizeof fd);
            }
        }
        const ssize_t n = sendmsg(fds.fd(s.names[0]), &msg, MSG_DONTWAIT | MSG_NOSIGNAL | (s.oob ? MSG_OOB : 0));
        if (n < 0)
            fail();
        else
            r.value = n;
        break;
    }
    case Op::recv: {
        std::vector<char> data(65536);
        iovec iov{data.data(), data.size()};
        msghdr msg{};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        std::vector<char> control(CMSG_SPACE(sizeof(int) * 253));
        msg.msg_control = control.data();
        msg.msg_controllen = control.size();
        const ssize_t n = recvmsg(fds.fd(s.names[0]), &msg,
                                  MSG_DONTWAIT | MSG_CMSG_CLOEXEC | (s.peek ? MSG_PEEK : 0) | (s.oob ? MSG_OOB : 0));
        if (n < 0) {
            fail();
            break;
        }
        r.value = n;
        std::size_t next = 0;
        for (cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
            if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
                continue;
            const std::size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (std::size_t i = 0; i < count; ++i) {
                int fd = -1;
                std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
                // Named as the scene says; the model names any extra fdN, which no statement
                // can use (the checker rejects unknown names), so it is only kept open here.
                if (next < s.fds.size())
                    fds.define(s.fds[next], fd);
                else
                    fds.open.insert(fd);
                ++next;
                r.inodes.push_back(inode_of(fd));
            }
        }
        break;
    }
    case Op::dup: {
        const int fd = dup(fds.fd(s.names[0]));
        if (fd < 0) {
            fail();
            break;
        }
        fds.define(s.names[1], fd);
        break;
    }
    case Op::close:
        for (const std::string &name : s.names) {
            const int fd = fds.fd(name);
            if (close(fd) < 0 && r.err == 0)
                r.err = errno;
            if (fd >= 0)
                fds.open.erase(fd);
            fds.names[name] = -1;
        }
        break;
    case Op::setsockopt: {
        const int on = s.option_value ? 1 : 0;
        const int opt = s.option == SockOpt::passrights ? SO_PASSRIGHTS : SO_PASSCRED;
        if (setsockopt(fds.fd(s.names[0]), SOL_SOCKET, opt, &on, sizeof on) < 0)
            fail();
        break;
    }
    default: break;
    }
    return r;
}

[[noreturn]] void worker_main(const ReplayPlan &plan, unsigned uid, std::uint64_t nofile, int cmd, int reply)
{
    std::signal(SIGPIPE, SIG_IGN);
    // Only the two pipes stay, high above the scene's fds, so the scene's numbers start at 3 as
    // the model's do and RLIMIT_NOFILE counts what the scene opens.
    rlimit rl{};
    getrlimit(RLIMIT_NOFILE, &rl);
    const rlim_t want = std::min<rlim_t>(nofile, rl.rlim_max);
    int hi_cmd = cmd, hi_reply = reply;
    if (want + 3 <= rl.rlim_max) {
        rlimit raised{rl.rlim_max, rl.rlim_max};
        setrlimit(RLIMIT_NOFILE, &raised);
        hi_cmd = fcntl(cmd, F_DUPFD, static_cast<int>(want + 1));
        hi_reply = fcntl(reply, F_DUPFD, static_cast<int>(want + 1));
        if (hi_cmd < 0 || hi_reply < 0)
            _exit(3);
        close(cmd);
        close(reply);
    }
    const int lo = std::min(hi_cmd, hi_reply), hi = std::max(hi_cmd, hi_reply);
    syscall(SYS_close_range, 3u, static_cast<unsigned>(lo - 1), 0u);
    if (hi - lo > 1)
        syscall(SYS_close_range, static_cast<unsigned>(lo + 1), static_cast<unsigned>(hi - 1), 0u);
    syscall(SYS_close_range, static_cast<unsigned>(hi + 1), ~0u, 0u);
    rlimit scene_limit{want, rl.rlim_max};
    setrlimit(RLIMIT_NOFILE, &scene_limit);
    if (uid != 0 && (setresgid(uid, uid, uid) < 0 || setresuid(uid, uid, uid) < 0))
        _exit(4);

    Fds fds;
    for (;;) {
        std::uint32_t index = 0;
        if (!read_all(hi_cmd, &index, sizeof index) || index == kFinish)
            break;
        const WorkerReply r = index < plan.steps.size() ? execute(plan.steps[index], fds) : WorkerReply{EINVAL, 0, {}};
        const std::int32_t err = r.err;
        const std::int64_t value = r.value;
        const std::uint32_t n = static_cast<std::uint32_t>(r.inodes.size());
        if (!write_all(hi_reply, &err, sizeof err) || !write_all(hi_reply, &value, sizeof value) ||
            !write_all(hi_reply, &n, sizeof n) ||
            (n && !write_all(hi_reply, r.inodes.data(), n * sizeof(std::uint64_t))))
            break;
    }
    for (int fd : fds.open)
        close(fd);
    const std::uint8_t done = 1;
    write_all(hi_reply, &done, sizeof done); // every descriptor is closed
    _exit(0);
}

} // namespace

Worker::Worker(const ReplayPlan &plan, unsigned uid, std::uint64_t nofile)
{
    int to_worker[2], from_worker[2];
    if (pipe2(to_worker, O_CLOEXEC) < 0)
        return;
    if (pipe2(from_worker, O_CLOEXEC) < 0) {
        close(to_worker[0]);
        close(to_worker[1]);
        return;
    }
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid == 0) {
        die_with_parent(parent);
        worker_main(plan, uid, nofile, to_worker[0], from_worker[1]);
    }
    close(to_worker[0]);
    close(from_worker[1]);
    cmd_ = to_worker[1];
    reply_ = from_worker[0];
    pid_ = pid;
    if (pid < 0) {
        close(cmd_);
        close(reply_);
        cmd_ = reply_ = -1;
    }
}

Worker::~Worker() { finish(); }

bool Worker::run(std::size_t index, WorkerReply &reply)
{
    if (pid_ <= 0)
        return false;
    const std::uint32_t i = static_cast<std::uint32_t>(index);
    std::int32_t err = 0;
    std::int64_t value = 0;
    std::uint32_t n = 0;
    if (!write_all(cmd_, &i, sizeof i) || !read_all(reply_, &err, sizeof err) ||
        !read_all(reply_, &value, sizeof value) || !read_all(reply_, &n, sizeof n) || n > 4096)
        return false;
    reply.err = err;
    reply.value = static_cast<long>(value);
    reply.inodes.assign(n, 0);
    return n == 0 || read_all(reply_, reply.inodes.data(), n * sizeof(std::uint64_t));
}

void Worker::finish()
{
    if (pid_ <= 0)
        return;
    const std::uint32_t bye = kFinish;
    if (write_all(cmd_, &bye, sizeof bye)) {
        std::uint8_t done = 0;
        read_all(reply_, &done, sizeof done);
    }
    close(cmd_);
    close(reply_);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) { }
    pid_ = -1;
}

} // namespace inflight::realkernel
