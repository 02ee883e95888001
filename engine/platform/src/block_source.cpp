// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/block_source.hpp"

#include "inflight/huge_pages.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace inflight {

namespace {

class PlainBlockSource final : public BlockSource {
public:
    void *take(std::size_t bytes) override
    {
        void *p = std::aligned_alloc(kHugePageBytes, bytes);
        if (!p)
            throw std::bad_alloc();
        return p;
    }
    void give(void *block, std::size_t) noexcept override { std::free(block); }
};

std::atomic<BlockSource *> &installed()
{
    static std::atomic<BlockSource *> source{&plain_block_source()};
    return source;
}

} // namespace

BlockSource &plain_block_source()
{
    static PlainBlockSource *plain = new PlainBlockSource; // never destroyed: vectors may outlive statics
    return *plain;
}

BlockSource &large_block_source() { return *installed().load(std::memory_order_acquire); }

void install_large_block_source(BlockSource &source) { installed().store(&source, std::memory_order_release); }

} // namespace inflight
