// SPDX-License-Identifier: GPL-3.0-or-later
// A BlockSource that keeps freed blocks, already faulted in, for the next state to take.
//
// Why: every restore of a checkpoint builds a whole new state while the one it replaces is
// freed a moment later, and touching fresh memory is the expensive part of a step back on a
// large state: the kernel zeroes every page, and a virtual machine whose host takes freed pages
// back faults them in again. A freed state and the next one built have the same chunk sizes
// (chunk k of a vector of T always has the same size), so a kept block is taken again whole,
// by size. Bounded by a cap; a program that goes idle hands the blocks back (trim_idle_heap()).
#pragma once

#include "inflight/block_source.hpp"

#include <cstddef>
#include <mutex>
#include <vector>

namespace inflight {

class RecyclingBlockSource final : public BlockSource {
public:
    explicit RecyclingBlockSource(std::size_t cap_bytes) : cap_(cap_bytes) { }
    RecyclingBlockSource(const RecyclingBlockSource &) = delete;
    RecyclingBlockSource &operator=(const RecyclingBlockSource &) = delete;
    ~RecyclingBlockSource() override { release_kept(); }

    // A kept block of exactly `bytes`, else a fresh one advised onto huge pages.
    void *take(std::size_t bytes) override;
    // Kept while the kept blocks stay within the cap, freed otherwise.
    void give(void *block, std::size_t bytes) noexcept override;
    // Frees every kept block.
    void release_kept();
    std::size_t kept_bytes() const;
    std::size_t cap_bytes() const { return cap_; }

private:
    struct Block {
        void *p;
        std::size_t bytes;
    };
    const std::size_t cap_;
    mutable std::mutex m_;
    // A handful at most (one chunk per power of two per vector): a search per chunk, never per
    // element.
    std::vector<Block> kept_;
    std::size_t kept_bytes_ = 0;
};

} // namespace inflight
