// SPDX-License-Identifier: GPL-3.0-or-later
// Interned names (socket labels and fd names): each distinct text is stored once and known by a
// 32-bit id. Open addressing keeps the index at a few bytes per name, which is most of what an
// idle socket costs beyond the kernel objects themselves.
//
// The pool is part of the model state, which is copied at every checkpoint and restore, and a
// million-socket state holds a million names (~25 MB): so the texts, the spans and the index
// sit in shared chunks (AppendOnlyLog). A copy shares them, an intern copies at most the index
// chunk it writes to, and the player's state, the recorder's and every checkpoint hold one copy
// of the names between them.
#pragma once

#include "inflight/append_only_log.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inflight {

class NamePool {
public:
    std::uint32_t intern(std::string_view text);
    std::optional<std::uint32_t> find(std::string_view text) const;
    std::string_view str(std::uint32_t id) const
    {
        const std::uint64_t span = spans_[id];
        const std::size_t len = span & kLenMask;
        if (len == kLong)
            return *long_names_[span >> kLenBits];
        return len ? std::string_view(&text_[span >> kLenBits], len) : std::string_view();
    }
    std::uint32_t size() const { return static_cast<std::uint32_t>(spans_.size()); }
    // How many names the pool holds before its index grows again: tables indexed by name id can
    // be sized to it, so that they grow when the pool does and not at a power of two of their own.
    std::uint32_t capacity() const { return static_cast<std::uint32_t>(slots_.size() / 4 * 3); }
    // What a copy of this pool adds to the memory of the pool it was copied from (the chunks
    // being filled and the chunk pointers: the rest is shared).
    std::size_t bytes() const;

    static std::uint64_t hash(std::string_view text)
    {
        // Names are short ("s1048575"): eight bytes at a time, then splitmix64's finaliser, so
        // that every input bit reaches the low bits (the home slot) and the top bits (the
        // fragment kept in the slot).
        const char *p = text.data();
        std::size_t n = text.size();
        std::uint64_t h = 0x9E3779B97F4A7C15ull * (n + 1);
        while (n >= 8) {
            std::uint64_t w;
            __builtin_memcpy(&w, p, 8);
            h = (h ^ w) * 0x9FB21C651E98DF25ull;
            h ^= h >> 29;
            p += 8;
            n -= 8;
        }
        std::uint64_t w = 0;
        for (std::size_t i = 0; i < n; ++i)
            w |= std::uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
        h ^= w;
        h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
        h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
        return h ^ (h >> 31);
    }

private:
    // The slot holding `text`, or the empty slot where it would go.
    std::size_t slot_of(std::string_view text, std::uint64_t h) const;
    void grow();

    // A name's span: where its text starts in text_ (above kLenBits) and its length; a text
    // longer than a chunk of text_ is kept whole in long_names_ (length kLong, index above).
    static constexpr unsigned kLenBits = 24;
    static constexpr std::uint64_t kLenMask = (std::uint64_t(1) << kLenBits) - 1;
    static constexpr std::size_t kLong = kLenMask;
    using Text = AppendOnlyLog<char, 16>; // 64 KiB chunks; a name never straddles two
    Text text_;
    AppendOnlyLog<std::uint64_t> spans_; // by name id
    std::vector<std::shared_ptr<const std::string>> long_names_;
    // Linear probing, load <= 3/4, 0 = empty. A slot is (id + 1) in its low id_bits_ bits and,
    // above them, the top bits of the name's hash: most slots of another name are passed over
    // without reading the text. id_bits_ = log2(slots_.size()) > log2(size()).
    AppendOnlyLog<std::uint32_t> slots_;
    std::uint32_t id_bits_ = 0;
    // The name interned last: a socket statement interns its label and fd name (the same text)
    // and the next statement usually looks that name up again.
    std::uint32_t last_ = 0xFFFFFFFFu;
};

// Interned names whose views stay valid while the arena lives (a NamePool's move when its
// arena grows): a parsed scene's names point into one (Scene::names), so a name written a
// thousand times is stored once and each use of it costs a view, not a std::string. Text goes
// in chunks that never move; an index of name ids, open addressing, finds a text again.
class NameArena {
public:
    NameArena() = default;
    NameArena(const NameArena &) = delete; // views point into it: shared, never copied
    NameArena &operator=(const NameArena &) = delete;

    // The interned copy of `text`, followed by a NUL (so its data() is a C string).
    std::string_view intern(std::string_view text);
    std::size_t size() const { return names_.size(); }
    std::size_t bytes() const; // what the arena holds on the heap

private:
    static constexpr std::size_t kChunk = 64 * 1024;
    void grow();

    std::vector<std::unique_ptr<char[]>> chunks_;
    char *free_ = nullptr; // the unused end of the last chunk
    std::size_t room_ = 0;
    std::size_t chunk_bytes_ = 0;
    std::vector<std::string_view> names_; // by id
    std::vector<std::uint32_t> slots_;    // id + 1 (0: empty), load <= 3/4
};

// A process's fd names: name id -> fd. While the names a process uses are dense among all the
// pool's ids (the usual case: most names are the main process's), a flat array indexed by
// name id; otherwise open addressing with backward-shift deletion.
class FdNames {
public:
    void set(std::uint32_t name, int fd);
    int get(std::uint32_t name) const // -1 when absent
    {
        if (!hashed_)
            return name < dense_.size() && dense_[name] != kAbsent ? dense_[name] : -1;
        return hashed_get(name);
    }
    bool erase(std::uint32_t name);
    std::size_t size() const { return used_; }
    std::size_t bytes() const { return dense_.capacity() * sizeof(std::int32_t) + slots_.capacity() * sizeof(Slot); }
    // Room for name ids below `ids` (NamePool::capacity()) while the table is flat.
    void reserve_ids(std::size_t ids)
    {
        if (wants_room(ids) && ids > dense_.capacity())
            dense_.reserve(ids);
    }
    // A copy with that room made as it is copied: a restored state's next fd name then finds
    // its place, instead of moving a flat table of a million entries to a bigger one.
    FdNames copy_with_room(std::size_t ids) const;
    template <class F>
    void for_each(F &&f) const // f(name id, fd), in no particular order
    {
        if (!hashed_) {
            for (std::size_t i = 0; i < dense_.size(); ++i)
                if (dense_[i] != kAbsent)
                    f(static_cast<std::uint32_t>(i), static_cast<int>(dense_[i]));
            return;
        }
        for (const Slot &s : slots_)
            if (s.name != kEmpty)
                f(s.name, s.fd);
    }

private:
    struct Slot {
        std::uint32_t name = kEmpty;
        std::int32_t fd = -1;
    };
    static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
    static constexpr std::int32_t kAbsent = INT32_MIN; // a dense entry without a name
    bool wants_room(std::size_t ids) const { return !hashed_ && ids < 4 * (used_ + 1) + 1024; }
    std::size_t home(std::uint32_t name) const { return (name * 2654435761u) & (slots_.size() - 1); }
    int hashed_get(std::uint32_t name) const;
    void hashed_set(std::uint32_t name, int fd);
    void grow();
    void to_hashed();

    std::vector<std::int32_t> dense_; // by name id: fd, or kAbsent
    std::vector<Slot> slots_;
    std::size_t used_ = 0;
    bool hashed_ = false;
};

} // namespace inflight
