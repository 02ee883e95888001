// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/recycling_block_source.hpp"

#include "inflight/huge_pages.hpp"

#include <cstdlib>
#include <new>

namespace inflight {

void *RecyclingBlockSource::take(std::size_t bytes)
{
    {
        std::lock_guard lock(m_);
        for (Block &b : kept_)
            if (b.bytes == bytes) {
                void *p = b.p;
                b = kept_.back();
                kept_.pop_back();
                kept_bytes_ -= bytes;
                return p;
            }
    }
    void *p = std::aligned_alloc(kHugePageBytes, bytes);
    if (!p)
        throw std::bad_alloc();
    advise_huge_pages(p, bytes);
    return p;
}

void RecyclingBlockSource::give(void *block, std::size_t bytes) noexcept
{
    {
        std::lock_guard lock(m_);
        if (kept_bytes_ + bytes <= cap_) {
            try {
                kept_.push_back({block, bytes});
                kept_bytes_ += bytes;
                return;
            } catch (...) {
                // no room to remember it: freed below
            }
        }
    }
    std::free(block);
}

void RecyclingBlockSource::release_kept()
{
    std::vector<Block> blocks;
    {
        std::lock_guard lock(m_);
        blocks.swap(kept_);
        kept_bytes_ = 0;
    }
    for (const Block &b : blocks) // outside the lock: unmapping a large state takes a while
        std::free(b.p);
}

std::size_t RecyclingBlockSource::kept_bytes() const
{
    std::lock_guard lock(m_);
    return kept_bytes_;
}

} // namespace inflight
