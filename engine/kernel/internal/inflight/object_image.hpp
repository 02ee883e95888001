// SPDX-License-Identifier: GPL-3.0-or-later
// The model's object graph as a value with no pointers in it: every socket, file, skb with its
// SCM_RIGHTS list and graph edges, vertex, process and list, written field by field with ids in
// place of pointers (a socket by its id, an skb by its storage slot, a vertex by its pool index,
// an edge by its skb slot and position). Kernel's copy constructor is pack + unpack, so a copy
// and a checkpoint are made the same way; a checkpoint keeps the image compressed (zstd), which
// is what lets the store hold a checkpoint every few million micro-steps of a 64,000-socket
// state instead of ten full copies.
//
// Internal to the kernel library: Kernel's copy constructor (both forms) is its one user (and
// test_timetravel, which reads images through ImageReader directly).
#pragma once

#include "inflight/latency.hpp"
#include "inflight/name_pool.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace inflight {

class Kernel;

// Bytes that are about to be overwritten need no zeroing: a vector of these leaves the room that
// resize() makes uninitialised. Images are tens of MB and made at every checkpoint; zero-filling
// each one first (and again after each shrink) was a measurable share of a freeze.
template <class T>
struct UninitialisedAllocator : std::allocator<T> {
    template <class U>
    struct rebind {
        using other = UninitialisedAllocator<U>;
    };
    using std::allocator<T>::allocator;
    template <class U>
    void construct(U *p) noexcept(std::is_nothrow_default_constructible_v<U>)
    {
        ::new (static_cast<void *>(p)) U;
    }
    template <class U, class... Args>
    void construct(U *p, Args &&...args)
    {
        ::new (static_cast<void *>(p)) U(std::forward<Args>(args)...);
    }
};
using ByteBuffer = std::vector<std::byte, UninitialisedAllocator<std::byte>>;

class ObjectImage {
public:
    ObjectImage() = default;
    ObjectImage(const ObjectImage &) = default;
    ObjectImage(ObjectImage &&) = default;
    ObjectImage &operator=(const ObjectImage &) = default;
    ObjectImage &operator=(ObjectImage &&) = default;
    ~ObjectImage(); // a raw (live copy's) buffer goes back to its thread for the next pack
    // The object graph of k (quiescent: no walk stack, no lock held, every fpl owned by an skb).
    static ObjectImage pack(const Kernel &k);
    // Rebuilds the object graph of `into`, whose plain fields and tasks are already a copy of
    // the imaged kernel's (Kernel's copy constructor).
    void unpack(Kernel &into) const;
    // This image compressed with zstd: what a checkpoint keeps (unpack() decompresses into a
    // scratch buffer). Leaves this one as it is: a checkpoint still being compressed can be
    // restored from meanwhile, on another thread.
    ObjectImage compressed_copy() const;
    bool compressed() const { return raw_size_ != 0; }
    // Memory held: the (compressed) bytes and the fd tables' name maps.
    std::size_t bytes() const;

private:
    ByteBuffer data_;
    std::size_t raw_size_ = 0; // data_'s size before compress() (0: not compressed)
    // Each process's scene-name -> fd map: a plain value, kept as one rather than re-hashed.
    std::vector<FdNames> fd_names_;
    // The latency samples: shared with the imaged state, not written into the bytes (a sample
    // never changes once recorded; AppendOnlyLog).
    LatencyLog latencies_;
};

// Appends plain values and strings to a byte buffer; Reader takes them back in the same order.
// Millions of small values go through put(): it copies into room made ahead, doubling, rather
// than growing the vector for each one. The write position lives in the writer, not read back
// from the vector: a byte store may alias the vector's own pointers, so the compiler reloaded
// them after every value. finish() trims the buffer to what was written.
class ImageWriter {
public:
    explicit ImageWriter(ByteBuffer &out) : out_(out)
    {
        out_.resize(std::max<std::size_t>(out_.capacity(), 4096));
        cur_ = out_.data();
        end_ = cur_ + out_.size();
    }
    template <class T>
    void put(const T &v)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        std::memcpy(room(sizeof(T)), &v, sizeof(T));
    }
    void put_string(const std::string &s)
    {
        put(static_cast<std::uint32_t>(s.size()));
        if (!s.empty())
            std::memcpy(room(s.size()), s.data(), s.size());
    }
    // A count not known until its items are written: put() a placeholder now, set() it after.
    std::size_t position() const { return static_cast<std::size_t>(cur_ - out_.data()); }
    template <class T>
    void set(std::size_t at, const T &v)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        std::memcpy(out_.data() + at, &v, sizeof(T));
    }
    void finish() { out_.resize(position()); }

private:
    std::byte *room(std::size_t n)
    {
        if (static_cast<std::size_t>(end_ - cur_) < n) [[unlikely]]
            grow(n);
        std::byte *p = cur_;
        cur_ += n;
        return p;
    }
    void grow(std::size_t n)
    {
        const std::size_t used = position();
        out_.resize(std::max(out_.size() * 2, used + n));
        cur_ = out_.data() + used;
        end_ = out_.data() + out_.size();
    }
    ByteBuffer &out_;
    std::byte *cur_;
    std::byte *end_;
};

// Takes the values back from an image: a plain one in memory, or a compressed one decompressed
// a window at a time as it is read. A million-socket image is ~100 MB raw: decompressed whole,
// it would be written to fresh memory and read back once; a window of a few hundred KB stays in
// the cache. A large image is decompressed on a thread of its own a few windows ahead of the
// reader: decompressing and unpacking take comparable time, and with the two overlapped a
// restore costs about the larger of them.
class ImageReader {
public:
    // compressed: the bytes are a zstd frame (ObjectImage::compressed_copy()); reading throws if
    // it does not decompress.
    ImageReader(const std::byte *data, std::size_t size, bool compressed);
    ImageReader(const ImageReader &) = delete;
    ImageReader &operator=(const ImageReader &) = delete;
    ~ImageReader();
    template <class T>
    T get()
    {
        static_assert(std::is_trivially_copyable_v<T>);
        if (static_cast<std::size_t>(end_ - p_) < sizeof(T)) [[unlikely]]
            refill(sizeof(T));
        T v;
        std::memcpy(&v, p_, sizeof(T));
        p_ += sizeof(T);
        return v;
    }
    std::string get_string()
    {
        const auto n = get<std::uint32_t>();
        std::string s(n, '\0');
        for (std::size_t done = 0; done < n;) {
            if (p_ == end_)
                refill(1);
            const std::size_t take = std::min<std::size_t>(n - done, static_cast<std::size_t>(end_ - p_));
            std::memcpy(s.data() + done, p_, take);
            done += take;
            p_ += take;
        }
        return s;
    }
    bool at_end(); // everything read (a compressed frame: to its end)

private:
    // Makes at least `need` (at most the window's size) bytes readable at p_; throws at the end
    // of the data or on a corrupt frame.
    void refill(std::size_t need);
    const std::byte *p_;
    const std::byte *end_;
    struct Stream;
    std::unique_ptr<Stream> stream_; // null: a plain image
};

} // namespace inflight
