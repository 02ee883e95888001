// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/run_names.hpp"

#include "inflight/kernel.hpp"

namespace inflight {

RunNames RunNames::of(const Kernel &k)
{
    RunNames n;
    n.era_ = k.era();
    n.names_ = k.name_pool; // shares the pool's memory
    n.sock_label_.reserve(k.socks.size());
    for (const UnixSock &u : k.socks)
        n.sock_label_.push_back(u.label);
    n.label_owner_ = k.label_owner;
    for (const Process &p : k.processes)
        n.processes_.push_back(p.name);
    for (const Task &t : k.tasks)
        n.tasks_.push_back(t.name);
    n.addresses_ = k.addresses;
    for (const Finding &f : k.findings)
        n.findings_.push_back({f.invariant, f.message, f.warning, f.step});
    return n;
}

std::string RunNames::label_of_id(std::uint32_t sock) const
{
    if (sock >= sock_label_.size())
        return "?";
    return std::string(names_.str(sock_label_[sock]));
}

std::optional<std::uint32_t> RunNames::socket_labelled(std::string_view label) const
{
    const auto id = names_.find(label);
    if (!id || *id >= label_owner_.size() || label_owner_[*id] == npos)
        return std::nullopt;
    return label_owner_[*id];
}

} // namespace inflight
