// SPDX-License-Identifier: GPL-3.0-or-later
// ChunkedVector: an append-only sequence whose elements never move. It stores the kernel's
// sockets, files and latency samples, which other objects point at (a socket's peer, a file's
// socket) and which a 2^20-bind scene has a million of.
//
// Why not std::deque: libstdc++ gives it 512-byte blocks (four sockets each), a million small
// allocations for a million sockets. Why not std::vector: addresses must stay valid, and its
// doubling copies every element and briefly holds twice the memory — exactly at 2^20 + 1
// samples in the fill scene. Here chunk k holds kFirst << k elements: a small scene allocates one
// small chunk, a million elements take 15 chunks, nothing is ever copied, and index arithmetic
// is one count-leading-zeros. Chunks of a huge page and more come from a BlockSource, the
// program's heap policy (block_source.hpp): plain heap blocks unless the program installs
// another, or one given to the constructor.
#pragma once

#include "inflight/block_source.hpp"
#include "inflight/huge_pages.hpp"
#include "inflight/index_iterator.hpp"

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <utility>

namespace inflight {

template <typename T>
class ChunkedVector {
    static constexpr std::size_t kFirstLog2 = 5; // 32 elements in chunk 0
    static constexpr std::size_t kFirst = std::size_t(1) << kFirstLog2;
    static constexpr std::size_t kMaxChunks = 40;
    static constexpr std::size_t kHugePage = kHugePageBytes;

public:
    using value_type = T;
    using size_type = std::size_t;
    using reference = T &;
    using const_reference = const T &;

    using iterator = IndexIterator<ChunkedVector, T>;
    using const_iterator = IndexIterator<const ChunkedVector, const T>;

    ChunkedVector() = default;
    explicit ChunkedVector(BlockSource &source) : source_(&source) { }
    ChunkedVector(std::initializer_list<T> items)
    {
        for (const T &x : items)
            push_back(x);
    }
    ChunkedVector &operator=(std::initializer_list<T> items)
    {
        ChunkedVector copy(items);
        swap(copy);
        return *this;
    }
    ChunkedVector(const ChunkedVector &o) : source_(o.source_)
    {
        for (const T &x : o)
            push_back(x);
    }
    ChunkedVector(ChunkedVector &&o) noexcept
        : source_(o.source_), chunks_(std::exchange(o.chunks_, {})), size_(std::exchange(o.size_, 0))
    { }
    ChunkedVector &operator=(const ChunkedVector &o)
    {
        if (this != &o) {
            ChunkedVector copy(o);
            swap(copy);
        }
        return *this;
    }
    ChunkedVector &operator=(ChunkedVector &&o) noexcept
    {
        if (this != &o) {
            clear();
            swap(o);
        }
        return *this;
    }
    ~ChunkedVector() { clear(); }

    void swap(ChunkedVector &o) noexcept
    {
        std::swap(source_, o.source_); // chunks go back to the source they came from
        std::swap(chunks_, o.chunks_);
        std::swap(size_, o.size_);
    }

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }

    T &operator[](std::size_t i) { return chunks_[chunk_of(i)][offset_in(i)]; }
    const T &operator[](std::size_t i) const { return chunks_[chunk_of(i)][offset_in(i)]; }
    T &front() { return (*this)[0]; }
    const T &front() const { return (*this)[0]; }
    T &back() { return (*this)[size_ - 1]; }
    const T &back() const { return (*this)[size_ - 1]; }

    template <typename... Args>
    T &emplace_back(Args &&...args)
    {
        const std::size_t k = chunk_of(size_);
        if (!chunks_[k])
            chunks_[k] = allocate_chunk(k);
        T *slot = chunks_[k] + offset_in(size_);
        ::new (static_cast<void *>(slot)) T(std::forward<Args>(args)...);
        ++size_;
        return *slot;
    }
    void push_back(const T &x) { emplace_back(x); }
    void push_back(T &&x) { emplace_back(std::move(x)); }

    void clear()
    {
        for (std::size_t i = size_; i > 0; --i)
            (*this)[i - 1].~T();
        for (std::size_t k = 0; k < kMaxChunks && chunks_[k]; ++k) {
            const std::size_t bytes = chunk_bytes(k);
            if (bytes < kHugePage)
                std::free(chunks_[k]);
            else
                source_->give(chunks_[k], bytes);
            chunks_[k] = nullptr;
        }
        size_ = 0;
    }

    iterator begin() { return iterator(this, 0); }
    iterator end() { return iterator(this, size_); }
    const_iterator begin() const { return const_iterator(this, 0); }
    const_iterator end() const { return const_iterator(this, size_); }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }

private:
    // Element i lives in chunk k where kFirst * (2^k - 1) <= i < kFirst * (2^(k+1) - 1).
    static std::size_t chunk_of(std::size_t i)
    {
        return static_cast<std::size_t>(std::bit_width((i >> kFirstLog2) + 1)) - 1;
    }
    static std::size_t offset_in(std::size_t i)
    {
        const std::size_t j = i + kFirst;
        return j - (std::size_t(1) << (std::bit_width(j) - 1));
    }
    // What chunk k occupies: large ones in whole huge pages (the size a block source keeps them by).
    static std::size_t chunk_bytes(std::size_t k)
    {
        const std::size_t bytes = (kFirst << k) * sizeof(T);
        return bytes < kHugePage ? bytes : (bytes + kHugePage - 1) / kHugePage * kHugePage;
    }
    T *allocate_chunk(std::size_t k)
    {
        const std::size_t bytes = chunk_bytes(k);
        if (bytes >= kHugePage)
            return static_cast<T *>(source_->take(bytes));
        void *p = std::aligned_alloc(alignof(T) > alignof(std::max_align_t) ? alignof(T) : alignof(std::max_align_t),
                                     (bytes + alignof(std::max_align_t) - 1) / alignof(std::max_align_t) *
                                         alignof(std::max_align_t));
        if (!p)
            throw std::bad_alloc();
        return static_cast<T *>(p);
    }

    BlockSource *source_ = &large_block_source();
    std::array<T *, kMaxChunks> chunks_{};
    std::size_t size_ = 0;
};

} // namespace inflight
