// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/socket_detail.hpp"

#include "inflight/kernel.hpp"

namespace inflight {

std::optional<SocketDetail> socket_detail(const Kernel &k, std::uint32_t sock)
{
    if (sock >= k.socks.size())
        return std::nullopt;
    const UnixSock &u = k.socks[sock];
    SocketDetail d;
    d.sock = sock;
    d.label = k.label_of(u);
    for (std::size_t n = 0; n < k.label_owner.size(); ++n)
        if (k.label_owner[n] == sock && n != u.label)
            d.other_labels.emplace_back(k.name_pool.str(static_cast<std::uint32_t>(n)));
    d.type = u.type;
    d.state = u.state;
    d.released = u.released;
    d.freed_by = u.freed_by;
    d.peer = u.peer ? u.peer->id : npos;
    d.address = k.address_of(u);
    d.owner = u.owner < k.users.size() ? k.users[u.owner].name : "?";
    if (u.state == SockState::embryo)
        for (const UnixSock &l : k.socks)
            if (l.state == SockState::listening)
                for (const SkBuff &skb : l.receive_queue)
                    if (skb.sk == &u)
                        d.listener = l.id;
    for (const Process &p : k.processes)
        for (std::size_t fd = 0; fd < p.fds.size(); ++fd)
            if (p.fds[fd] && p.fds[fd]->sock == &u) {
                OpenFd o{p.name, static_cast<int>(fd), {}};
                p.names.for_each([&](std::uint32_t name, int f) {
                    if (static_cast<std::size_t>(f) == fd)
                        o.name = std::string(k.name_pool.str(name));
                });
                d.fds.push_back(std::move(o));
            }

    if (u.file) {
        d.has_file = true;
        d.file_refs = u.file->count;
        d.fd_refs = k.fd_refs(*u.file);
        d.fp_refs = k.fp_refs(*u.file);
    }

    d.role = role_of(k, u);
    d.inflight = u.inflight;
    d.gc_flags = u.gc_flags;
    d.on = u.on;
    if (const UnixVertex *v = u.vertex) {
        d.has_vertex = true;
        d.out_degree = static_cast<long>(v->out_degree);
        d.index = static_cast<long>(v->index);
        d.scc_index = static_cast<long>(v->scc_index);
        d.on_visited_list = on_visited_list(k, *v);
        d.verdict = verdict_of(k, *v);
    }
    d.nr_fds = u.nr_fds;
    d.nr_unix_fds = u.nr_unix_fds;

    for (const SkBuff &skb : u.receive_queue) {
        QueuedSkb q{skb_entry(skb), {}};
        // A connection request: the embryo's own queue is where fds sent to it wait.
        if (q.skb.connecting != npos)
            for (const SkBuff &inner : skb.sk->receive_queue)
                q.embryo_queue.push_back(skb_entry(inner));
        d.queue.push_back(std::move(q));
    }

    auto scan = [&](const SkBuff &skb, std::uint32_t queue_of) {
        if (!skb.fp || !u.file)
            return;
        int n = 0;
        for (const File *f : skb.fp->fp)
            n += f == u.file;
        if (n)
            d.in_flight.push_back({skb.id, queue_of, n});
    };
    for (const UnixSock &o : k.socks)
        for (const SkBuff &skb : o.receive_queue)
            scan(skb, o.id);
    for (const SkBuff &skb : k.hitlist)
        scan(skb, npos);

    if (k.socks.size() <= SocketDetail::kWhySockets)
        d.why = why_alive(k, sock);
    return d;
}

} // namespace inflight
