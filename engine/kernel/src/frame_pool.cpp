// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/frame_pool.hpp"

#include <array>
#include <new>

namespace inflight::frame_pool {
namespace {

constexpr std::size_t granule = 64;          // size classes 64, 128, ... bytes
constexpr std::size_t classes = 64;          // up to 4 KiB; larger frames go to the heap directly
constexpr std::size_t kept_per_class = 1024; // a bound on what an idle thread holds on to

struct FreeBlock {
    FreeBlock *next;
};

struct Lists {
    std::array<FreeBlock *, classes> head{};
    std::array<std::size_t, classes> count{};
    ~Lists()
    {
        for (FreeBlock *b : head)
            while (b) {
                FreeBlock *next = b->next;
                ::operator delete(b);
                b = next;
            }
    }
};

thread_local Lists lists;

std::size_t class_of(std::size_t bytes) { return (bytes + granule - 1) / granule - 1; }

} // namespace

void *allocate(std::size_t bytes)
{
    const std::size_t c = class_of(bytes);
    if (c >= classes)
        return ::operator new(bytes);
    if (FreeBlock *b = lists.head[c]) {
        lists.head[c] = b->next;
        --lists.count[c];
        return b;
    }
    // Every block of a class has the class's full size, so any of them can serve any frame of it.
    return ::operator new((c + 1) * granule);
}

void release(void *frame, std::size_t bytes) noexcept
{
    const std::size_t c = class_of(bytes);
    if (c >= classes || lists.count[c] >= kept_per_class) {
        ::operator delete(frame);
        return;
    }
    auto *b = static_cast<FreeBlock *>(frame);
    b->next = lists.head[c];
    lists.head[c] = b;
    ++lists.count[c];
}

} // namespace inflight::frame_pool
