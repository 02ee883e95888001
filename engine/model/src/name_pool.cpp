// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/name_pool.hpp"

#include <algorithm>
#include <utility>

namespace inflight {

namespace {
constexpr std::uint32_t kNone = 0xFFFFFFFFu;
} // namespace

std::size_t NamePool::slot_of(std::string_view text, std::uint64_t h) const
{
    const std::size_t mask = slots_.size() - 1;
    const std::uint32_t id_mask = id_bits_ >= 32 ? kNone : (1u << id_bits_) - 1;
    const std::uint32_t frag = static_cast<std::uint32_t>(h >> 32) & ~id_mask;
    std::size_t i = static_cast<std::size_t>(h) & mask;
    for (std::uint32_t s; (s = slots_[i]) != 0; i = (i + 1) & mask)
        if ((s & ~id_mask) == frag && str((s & id_mask) - 1) == text)
            break;
    return i;
}

void NamePool::grow()
{
    const std::size_t n = slots_.empty() ? 64 : slots_.size() * 2;
    slots_.assign(n, 0);
    id_bits_ = static_cast<std::uint32_t>(__builtin_ctzll(n));
    const std::uint32_t id_mask = id_bits_ >= 32 ? kNone : (1u << id_bits_) - 1;
    const std::size_t mask = n - 1;
    const auto &slots = std::as_const(slots_); // reads must not copy a chunk
    for (std::uint32_t id = 0; id < size(); ++id) {
        const std::uint64_t h = hash(str(id));
        std::size_t i = static_cast<std::size_t>(h) & mask;
        while (slots[i])
            i = (i + 1) & mask;
        slots_[i] = (static_cast<std::uint32_t>(h >> 32) & ~id_mask) | (id + 1);
    }
}

std::uint32_t NamePool::intern(std::string_view text)
{
    if (last_ != kNone && str(last_) == text)
        return last_;
    if ((std::size_t{size()} + 1) * 4 > slots_.size() * 3)
        grow();
    const std::uint64_t h = hash(text);
    const std::size_t i = slot_of(text, h);
    const std::uint32_t id_mask = id_bits_ >= 32 ? kNone : (1u << id_bits_) - 1;
    if (const std::uint32_t s = std::as_const(slots_)[i]) {
        last_ = (s & id_mask) - 1;
        return last_;
    }
    const std::uint32_t id = size();
    if (text.size() > Text::kChunk) {
        spans_.push_back(std::uint64_t{long_names_.size()} << kLenBits | kLong);
        long_names_.push_back(std::make_shared<const std::string>(text));
    } else {
        const std::size_t at = text_.append_unsplit(text.data(), text.size());
        spans_.push_back(std::uint64_t{at} << kLenBits | text.size());
    }
    slots_[i] = (static_cast<std::uint32_t>(h >> 32) & ~id_mask) | (id + 1);
    last_ = id;
    return id;
}

std::optional<std::uint32_t> NamePool::find(std::string_view text) const
{
    if (last_ != kNone && str(last_) == text)
        return last_;
    if (slots_.empty())
        return std::nullopt;
    const std::size_t i = slot_of(text, hash(text));
    if (!slots_[i])
        return std::nullopt;
    const std::uint32_t id_mask = id_bits_ >= 32 ? kNone : (1u << id_bits_) - 1;
    return (slots_[i] & id_mask) - 1;
}

std::size_t NamePool::bytes() const
{
    constexpr std::size_t chunk_pointer = sizeof(std::shared_ptr<void>);
    return text_.unshared_bytes() + spans_.unshared_bytes() + slots_.unshared_bytes() +
           (text_.size() / Text::kChunk + spans_.size() / decltype(spans_)::kChunk +
            slots_.size() / decltype(slots_)::kChunk + long_names_.size()) *
               chunk_pointer;
}

// ---- NameArena ------------------------------------------------------------------------------

void NameArena::grow()
{
    const std::size_t n = slots_.empty() ? 64 : slots_.size() * 2;
    slots_.assign(n, 0);
    const std::size_t mask = n - 1;
    for (std::uint32_t id = 0; id < names_.size(); ++id) {
        std::size_t i = static_cast<std::size_t>(NamePool::hash(names_[id])) & mask;
        while (slots_[i])
            i = (i + 1) & mask;
        slots_[i] = id + 1;
    }
}

std::string_view NameArena::intern(std::string_view text)
{
    if ((names_.size() + 1) * 4 > slots_.size() * 3)
        grow();
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = static_cast<std::size_t>(NamePool::hash(text)) & mask;
    for (; slots_[i]; i = (i + 1) & mask)
        if (names_[slots_[i] - 1] == text)
            return names_[slots_[i] - 1];
    char *at;
    const std::size_t n = text.size() + 1; // and its NUL
    if (n > kChunk / 4) {
        // A long text gets a chunk of its own; the current chunk keeps its room.
        chunks_.emplace_back(new char[n]);
        chunk_bytes_ += n;
        at = chunks_.back().get();
    } else {
        if (n > room_) {
            chunks_.emplace_back(new char[kChunk]);
            chunk_bytes_ += kChunk;
            free_ = chunks_.back().get();
            room_ = kChunk;
        }
        at = free_;
        free_ += n;
        room_ -= n;
    }
    if (!text.empty())
        __builtin_memcpy(at, text.data(), text.size());
    at[text.size()] = '\0';
    slots_[i] = static_cast<std::uint32_t>(names_.size() + 1);
    return names_.emplace_back(at, text.size());
}

std::size_t NameArena::bytes() const
{
    return chunk_bytes_ + chunks_.capacity() * sizeof(chunks_[0]) + names_.capacity() * sizeof(names_[0]) +
           slots_.capacity() * sizeof(std::uint32_t);
}

// ---- FdNames --------------------------------------------------------------------------------

void FdNames::to_hashed()
{
    std::vector<std::int32_t> dense;
    dense.swap(dense_);
    hashed_ = true;
    used_ = 0;
    for (std::size_t name = 0; name < dense.size(); ++name)
        if (dense[name] != kAbsent)
            hashed_set(static_cast<std::uint32_t>(name), dense[name]);
}

void FdNames::grow()
{
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 8 : old.size() * 2, Slot{});
    used_ = 0;
    for (const Slot &s : old)
        if (s.name != kEmpty)
            hashed_set(s.name, s.fd);
}

FdNames FdNames::copy_with_room(std::size_t ids) const
{
    FdNames c;
    if (wants_room(ids))
        c.dense_.reserve(std::max(ids, dense_.size()));
    c.dense_.assign(dense_.begin(), dense_.end()); // into the room just made
    c.slots_ = slots_;
    c.used_ = used_;
    c.hashed_ = hashed_;
    return c;
}

void FdNames::set(std::uint32_t name, int fd)
{
    if (!hashed_) {
        if (name < dense_.size()) {
            used_ += dense_[name] == kAbsent;
            dense_[name] = fd;
            return;
        }
        // Flat while it costs no more than the hash table would (4 bytes per id up to the
        // largest, against 8 bytes per slot at a load of 1/4 to 1/2).
        if (std::size_t{name} < 4 * (used_ + 1) + 1024) {
            dense_.resize(std::size_t{name} + 1, kAbsent);
            dense_[name] = fd;
            ++used_;
            return;
        }
        to_hashed();
    }
    hashed_set(name, fd);
}

void FdNames::hashed_set(std::uint32_t name, int fd)
{
    if ((used_ + 1) * 2 > slots_.size())
        grow();
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = home(name);
    while (slots_[i].name != kEmpty && slots_[i].name != name)
        i = (i + 1) & mask;
    if (slots_[i].name == kEmpty)
        ++used_;
    slots_[i] = Slot{name, fd};
}

int FdNames::hashed_get(std::uint32_t name) const
{
    if (slots_.empty())
        return -1;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = home(name);; i = (i + 1) & mask) {
        if (slots_[i].name == name)
            return slots_[i].fd;
        if (slots_[i].name == kEmpty)
            return -1;
    }
}

bool FdNames::erase(std::uint32_t name)
{
    if (!hashed_) {
        if (name >= dense_.size() || dense_[name] == kAbsent)
            return false;
        dense_[name] = kAbsent;
        --used_;
        return true;
    }
    if (slots_.empty())
        return false;
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = home(name);
    while (slots_[i].name != name) {
        if (slots_[i].name == kEmpty)
            return false;
        i = (i + 1) & mask;
    }
    // Backward-shift deletion: pull later entries of the probe run into the hole.
    for (std::size_t j = (i + 1) & mask; slots_[j].name != kEmpty; j = (j + 1) & mask) {
        const std::size_t h = home(slots_[j].name);
        const bool movable = (j > i) ? (h <= i || h > j) : (h <= i && h > j);
        if (movable) {
            slots_[i] = slots_[j];
            i = j;
        }
    }
    slots_[i] = Slot{};
    --used_;
    return true;
}

} // namespace inflight
