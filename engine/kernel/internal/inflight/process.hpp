// SPDX-License-Identifier: GPL-3.0-or-later
// Users (struct user_struct) and processes with their fd tables.
#pragma once

#include "inflight/name_pool.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace inflight {

struct File;

struct User {
    std::uint32_t id = 0;
    std::string name;
    std::uint32_t uid = 0;
    unsigned long unix_inflight = 0;             // user->unix_inflight: every fd in flight sent by this user
    bool privileged() const { return uid == 0; } // CAP_SYS_RESOURCE / CAP_SYS_ADMIN
};

struct Process {
    std::uint32_t id = 0;
    std::string name;
    User *user = nullptr;
    std::uint64_t nofile = 1024;    // RLIMIT_NOFILE
    std::vector<File *> fds;        // the fd table; index = fd number
    const NamePool *pool = nullptr; // the kernel's interned names
    FdNames names;                  // scene name (interned) -> fd
    std::vector<File *> task_work;  // files whose __fput runs on return to user mode
    std::uint32_t open_count = 0;
    std::size_t next_fd = 3; // no free slot below this (files_struct next_fd)

    // The lowest free fd (may be fds.size(), i.e. a new slot).
    std::size_t lowest_free_fd()
    {
        while (next_fd < fds.size() && fds[next_fd])
            ++next_fd;
        return next_fd;
    }
    void release_fd(std::size_t fd)
    {
        fds[fd] = nullptr;
        if (fd < next_fd)
            next_fd = fd;
    }

    // The fd a scene name stands for, or -1.
    int fd_of(std::string_view name) const
    {
        const auto id = pool->find(name);
        return id ? names.get(*id) : -1;
    }
    File *lookup(std::string_view name) const
    {
        const int fd = fd_of(name);
        if (fd < 0 || static_cast<std::size_t>(fd) >= fds.size())
            return nullptr;
        return fds[static_cast<std::size_t>(fd)];
    }
};

} // namespace inflight
