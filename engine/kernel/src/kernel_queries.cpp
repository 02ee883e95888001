// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/kernel_queries.hpp"

#include "inflight/kernel.hpp"

namespace inflight {

std::optional<std::uint32_t> socket_labelled(const Kernel &k, std::string_view label)
{
    if (const UnixSock *u = k.find_label(std::string(label)))
        return u->id;
    return std::nullopt;
}

std::size_t socket_count(const Kernel &k) { return k.socks.size(); }

std::vector<std::string> socket_labels(const Kernel &k, std::size_t max)
{
    std::vector<std::string> out;
    for (const UnixSock &u : k.socks) {
        if (out.size() == max)
            break;
        out.push_back(k.label_of(u));
    }
    return out;
}

std::vector<std::string> user_names(const Kernel &k)
{
    std::vector<std::string> out;
    for (const User &u : k.users)
        out.push_back(u.name);
    return out;
}

bool has_user(const Kernel &k, std::string_view name) { return k.find_user(std::string(name)) != nullptr; }

const AbstractNamespace &abstract_namespace(const Kernel &k) { return k.abstract_ns; }

std::uint64_t micro_steps_total(const Kernel &k) { return k.micro_steps_total; }

const CostModel &kernel_costs(const Kernel &k) { return k.costs(); }

} // namespace inflight
