// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/recycled_blocks.hpp"

#include <cstdlib>
#include <mutex>
#include <utility>
#include <vector>

namespace inflight {

namespace {

struct Block {
    void *p;
    std::size_t bytes;
};

// A handful of blocks at most (a state has one chunk per power of two per vector), so a
// vector under a mutex: taken once per chunk of a restore, never per element.
struct Kept {
    std::mutex lock;
    std::vector<Block> blocks;
    std::size_t bytes = 0;
};

Kept &kept()
{
    static Kept *k = new Kept; // never destroyed: chunks may be freed during static destruction
    return *k;
}

} // namespace

void *take_recycled_block(std::size_t bytes)
{
    Kept &k = kept();
    std::lock_guard guard(k.lock);
    for (std::size_t i = 0; i < k.blocks.size(); ++i)
        if (k.blocks[i].bytes == bytes) {
            void *p = k.blocks[i].p;
            k.blocks[i] = k.blocks.back();
            k.blocks.pop_back();
            k.bytes -= bytes;
            return p;
        }
    return nullptr;
}

bool keep_recycled_block(void *block, std::size_t bytes)
{
    Kept &k = kept();
    std::lock_guard guard(k.lock);
    if (k.bytes + bytes > kRecycledBlocksCap)
        return false;
    try {
        k.blocks.push_back({block, bytes});
    } catch (...) {
        return false; // no room to remember it: the caller frees it
    }
    k.bytes += bytes;
    return true;
}

void release_recycled_blocks()
{
    std::vector<Block> blocks;
    {
        Kept &k = kept();
        std::lock_guard guard(k.lock);
        blocks.swap(k.blocks);
        k.bytes = 0;
    }
    for (const Block &b : blocks) // outside the lock: unmapping 100 MB is not instant
        std::free(b.p);
}

std::size_t recycled_block_bytes()
{
    Kept &k = kept();
    std::lock_guard guard(k.lock);
    return k.bytes;
}

} // namespace inflight
