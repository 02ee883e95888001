// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/edge_pool.hpp"

#include "inflight/unix_graph.hpp"

#include <cassert>
#include <new>

namespace inflight {

void EdgeRelease::operator()(UnixEdge *edges) const noexcept
{
    if (edges && pool)
        pool->release(edges, count);
}

EdgePool::~EdgePool() = default; // every array was given back: the Kernel declares its pool first

EdgeArray EdgePool::allocate(std::uint32_t count)
{
    assert(count > 0 && count <= kChunkEdges);
    UnixEdge *edges = nullptr;
    if (count < free_.size() && !free_[count].empty()) {
        edges = free_[count].back();
        free_[count].pop_back();
    } else {
        // release() is noexcept: room on the free list for every array of this length ever
        // carved is made here, where running out of memory may throw.
        if (free_.size() <= count) {
            free_.resize(count + 1);
            carved_.resize(count + 1);
        }
        if (free_[count].capacity() < ++carved_[count])
            free_[count].reserve(2 * carved_[count]);
        if (used_ + count > kChunkEdges) {
            chunks_.push_back(std::make_unique_for_overwrite<std::byte[]>(kChunkEdges * sizeof(UnixEdge)));
            used_ = 0;
        }
        edges = reinterpret_cast<UnixEdge *>(chunks_.back().get()) + used_;
        used_ += count;
    }
    for (std::uint32_t i = 0; i < count; ++i)
        new (edges + i) UnixEdge();
    return EdgeArray(edges, EdgeRelease{this, count});
}

void EdgePool::release(UnixEdge *edges, std::uint32_t count) noexcept
{
    for (std::uint32_t i = 0; i < count; ++i)
        edges[i].~UnixEdge();
    free_[count].push_back(edges); // never reallocates: allocate() made the room
}

} // namespace inflight
