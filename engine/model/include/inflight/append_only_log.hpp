// SPDX-License-Identifier: GPL-3.0-or-later
// AppendOnlyLog: a history that only grows (the timed calls of a run), whose copies share what
// they have in common instead of copying it.
//
// Why: the model state is copied at every checkpoint and every restore, and a run's history is
// most of some states: the 2^20-bind scene keeps 2^20 latency samples, a large share of a
// checkpoint's image, which would be rebuilt sample by sample at each restore although a sample never changes
// once written. Here the samples sit in chunks of kChunk; a full chunk is never written again,
// so a copy shares it (a reference count) and copies only the part still being filled: a
// restore of that scene takes the samples in a few microseconds, and the player's state, the
// recorder's and every checkpoint hold one copy of them between them.
//
// The same sharing serves tables that are written in place but copied far more often than
// written (NamePool's hash index): assign() makes one of a fixed size, and each write through
// operator[] copies only the chunk it lands in, if that chunk is shared.
//
// Thread-safe as values are: distinct logs may be used on distinct threads although they share
// chunks (a shared chunk is full, so nobody appends to it; a write through operator[] to a
// shared chunk copies that chunk first). Elements of full chunks stay where they are; the part
// being filled grows as a vector does.
#pragma once

#include "inflight/index_iterator.hpp"

#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace inflight {

template <typename T, std::size_t ChunkLog2 = 12>
class AppendOnlyLog {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                  "AppendOnlyLog copies its elements as bytes");

public:
    // 4,096 elements by default: the part a copy duplicates stays small (229 KB of latency
    // samples at most) and a million elements take 256 chunks.
    static constexpr std::size_t kChunkLog2 = ChunkLog2;
    static constexpr std::size_t kChunk = std::size_t(1) << kChunkLog2;

    using value_type = T;
    using size_type = std::size_t;

    using const_iterator = IndexIterator<const AppendOnlyLog, const T>;
    using iterator = const_iterator;

    AppendOnlyLog() = default;
    AppendOnlyLog(std::initializer_list<T> items)
    {
        for (const T &x : items)
            push_back(x);
    }
    AppendOnlyLog &operator=(std::initializer_list<T> items) { return *this = AppendOnlyLog(items); }
    // Full chunks are shared as they are (the pointers are copied); the part being filled is
    // copied, at its size.
    AppendOnlyLog(const AppendOnlyLog &) = default;
    AppendOnlyLog(AppendOnlyLog &&) noexcept = default;
    AppendOnlyLog &operator=(const AppendOnlyLog &) = default;
    AppendOnlyLog &operator=(AppendOnlyLog &&) noexcept = default;
    ~AppendOnlyLog() = default;

    void swap(AppendOnlyLog &o) noexcept
    {
        chunks_.swap(o.chunks_);
        tail_.swap(o.tail_);
    }

    std::size_t size() const { return (chunks_.size() << kChunkLog2) + tail_.size(); }
    bool empty() const { return chunks_.empty() && tail_.empty(); }
    const T &operator[](std::size_t i) const
    {
        const std::size_t k = i >> kChunkLog2;
        return k < chunks_.size() ? (*chunks_[k])[i & (kChunk - 1)] : tail_[i & (kChunk - 1)];
    }
    // A write: a full chunk becomes this log's own first if another log shares it.
    T &operator[](std::size_t i)
    {
        const std::size_t k = i >> kChunkLog2;
        if (k == chunks_.size())
            return tail_[i & (kChunk - 1)];
        if (chunks_[k].use_count() > 1)
            chunks_[k] = std::make_shared<std::vector<T>>(*chunks_[k]);
        return (*chunks_[k])[i & (kChunk - 1)];
    }
    const T &front() const { return (*this)[0]; }
    const T &back() const { return (*this)[size() - 1]; }
    T &back() { return (*this)[size() - 1]; }

    // The reference holds until the next append (the chunk being filled grows as a vector).
    template <typename... Args>
    T &emplace_back(Args &&...args)
    {
        if (tail_.size() == kChunk) {
            chunks_.push_back(std::make_shared<std::vector<T>>(std::move(tail_)));
            tail_ = std::vector<T>();
        }
        return tail_.emplace_back(std::forward<Args>(args)...);
    }
    void push_back(const T &x) { emplace_back(x); }
    // Appends n elements (n <= kChunk) that stay contiguous: if they do not fit in the chunk
    // being filled, that chunk is padded with T{} first. Returns the first one's index.
    std::size_t append_unsplit(const T *items, std::size_t n)
    {
        if (tail_.size() + n > kChunk) {
            tail_.resize(kChunk);
            chunks_.push_back(std::make_shared<std::vector<T>>(std::move(tail_)));
            tail_ = std::vector<T>();
        }
        const std::size_t at = size();
        tail_.insert(tail_.end(), items, items + n);
        return at;
    }
    // n copies of v, in unshared chunks (a table to be written through operator[]).
    void assign(std::size_t n, const T &v)
    {
        clear();
        for (; n >= kChunk; n -= kChunk)
            chunks_.push_back(std::make_shared<std::vector<T>>(kChunk, v));
        tail_.assign(n, v);
    }
    void clear()
    {
        chunks_.clear();
        tail_.clear();
    }

    const_iterator begin() const { return const_iterator(this, 0); }
    const_iterator end() const { return const_iterator(this, size()); }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }

    // The bytes a copy of this log adds to the original's: the chunk being filled.
    std::size_t unshared_bytes() const { return tail_.size() * sizeof(T); }

private:
    std::vector<std::shared_ptr<std::vector<T>>> chunks_; // full, kChunk each; shared by copies
    std::vector<T> tail_; // being filled: at most kChunk, made a chunk by the next append
};

} // namespace inflight
