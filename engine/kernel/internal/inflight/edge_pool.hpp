// SPDX-License-Identifier: GPL-3.0-or-later
// Where a kernel's graph edges live. unix_add_edges() (6.10+) kmallocs one array of edges per
// SCM_RIGHTS list; the model carves those arrays out of large chunks, in creation order, because
// the Tarjan walk follows edges in roughly the order they were made: with one malloc per list the
// arrays would lie scattered between the other allocations of each send, and a walk over tens of
// thousands of vertices would spend most of its time waiting for memory (bench/inflight_bench
// measures the large scenes). A freed array is kept with the others of
// its length and handed out again, last in, first out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace inflight {

struct UnixEdge;
class EdgePool;

// The deleter of ScmFpList::edges: gives the array back to the pool it came from.
struct EdgeRelease {
    EdgePool *pool = nullptr;
    std::uint32_t count = 0;
    void operator()(UnixEdge *edges) const noexcept;
};
using EdgeArray = std::unique_ptr<UnixEdge[], EdgeRelease>;

class EdgePool {
public:
    EdgePool() = default;
    EdgePool(const EdgePool &) = delete;
    EdgePool &operator=(const EdgePool &) = delete;
    ~EdgePool();

    // `count` unlinked edges (1 .. SCM_MAX_FD), contiguous.
    EdgeArray allocate(std::uint32_t count);
    void release(UnixEdge *edges, std::uint32_t count) noexcept;

private:
    static constexpr std::size_t kChunkEdges = 4096; // 192 KiB: the most one list holds is 253
    std::vector<std::unique_ptr<std::byte[]>> chunks_;
    std::size_t used_ = kChunkEdges;            // edges handed out of the last chunk
    std::vector<std::vector<UnixEdge *>> free_; // by length
    std::vector<std::size_t> carved_;           // arrays carved from chunks, by length
};

} // namespace inflight
