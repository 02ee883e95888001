// SPDX-License-Identifier: GPL-3.0-or-later
// Keys of the nodes the graph view lays out: a socket, a process or an aggregate of identical
// SCCs share one 64-bit key space, so one layout request can name all of them.
#pragma once

#include <cstdint>

namespace graph {

using NodeKey = std::uint64_t;

enum class NodeKind : std::uint8_t { socket = 0, process = 1, aggregate = 2 };

constexpr std::uint64_t kKeyPayloadMask = (std::uint64_t{1} << 62) - 1;

constexpr NodeKey socketKey(std::uint32_t sock) { return sock; }
constexpr NodeKey processKey(std::uint32_t process) { return (std::uint64_t{1} << 62) | process; }
constexpr NodeKey aggregateKey(std::uint64_t signature)
{
    return (std::uint64_t{2} << 62) | (signature & kKeyPayloadMask);
}
constexpr NodeKind kindOf(NodeKey key) { return static_cast<NodeKind>(key >> 62); }
constexpr std::uint64_t payloadOf(NodeKey key) { return key & kKeyPayloadMask; }

// A 64-bit mix (boost::hash_combine with a 64-bit constant).
constexpr std::uint64_t mix(std::uint64_t h, std::uint64_t v)
{
    return h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2));
}

} // namespace graph
