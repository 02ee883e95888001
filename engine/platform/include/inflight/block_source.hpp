// SPDX-License-Identifier: GPL-3.0-or-later
// Where large blocks come from and go back to: ChunkedVector's chunks of kHugePageBytes and
// more. The container only lays elements out; whether a freed block is kept for the next state
// or handed back is the program's heap policy (configure_process_heap() installs a recycling
// source), so a library or a test that configures nothing gets plain heap blocks.
#pragma once

#include "inflight/huge_pages.hpp"

#include <cstddef>

namespace inflight {

class BlockSource {
public:
    virtual ~BlockSource() = default;
    // A block of `bytes` (a multiple of kHugePageBytes) aligned to kHugePageBytes; throws
    // std::bad_alloc.
    virtual void *take(std::size_t bytes) = 0;
    // A block take() gave, with the same size.
    virtual void give(void *block, std::size_t bytes) noexcept = 0;
};

// std::aligned_alloc and std::free.
BlockSource &plain_block_source();

// What a ChunkedVector made from now on takes its large chunks from (a vector keeps the source
// it was made with, so blocks always go back where they came from). Plain until installed.
BlockSource &large_block_source();
void install_large_block_source(BlockSource &source);

} // namespace inflight
