// SPDX-License-Identifier: GPL-3.0-or-later
// Which AF_UNIX sockets of the current network namespace exist, by inode. The table the kernel
// lists (/proc/net/unix, UNIX_DIAG dumps) holds every socket that has a file; an unaccepted
// embryo is not in it but appears in its listener's UNIX_DIAG_ICONS. /proc/net/protocols counts
// every socket, embryos included, so a census also says how many it could not name.
#pragma once

#include <cstdint>
#include <set>

namespace inflight::realkernel {

inline constexpr std::uint64_t kEmbryoOf = std::uint64_t(1) << 63;

struct Census {
    std::set<std::uint64_t> inodes; // listed sockets and the embryos their listeners show
    std::uint64_t counted = 0;      // /proc/net/protocols: UNIX + UNIX-STREAM sockets
    bool operator==(const Census &o) const { return inodes == o.inodes && counted == o.counted; }
};

// A NETLINK_SOCK_DIAG socket, or -1 when the kernel has no UNIX_DIAG.
int open_diag();
// With diag_fd < 0, /proc/net/unix alone (embryos unseen).
Census take_census(int diag_fd);
// The inode of the peer of the socket with this inode (the client, for an accepted socket), or 0.
std::uint64_t peer_inode(int diag_fd, std::uint64_t inode);
// The namespace's socket count, from /proc/net/protocols.
std::uint64_t protocol_count();

} // namespace inflight::realkernel
