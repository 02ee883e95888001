#include "inflight/name_pool.hpp"

#include <functional>

namespace inflight {

std::size_t NamePool::slot_of(std::string_view text) const
{
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = std::hash<std::string_view>{}(text) & mask;
    while (slots_[i] && str(slots_[i] - 1) != text)
        i = (i + 1) & mask;
    return i;
}

void NamePool::grow()
{
    std::vector<std::uint32_t> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, 0);
    for (std::uint32_t id : old)
        if (id)
            slots_[slot_of(str(id - 1))] = id;
}

std::uint32_t NamePool::intern(std::string_view text)
{
    if ((size() + 1) * 2 > slots_.size())
        grow();
    const std::size_t i = slot_of(text);
    if (slots_[i])
        return slots_[i] - 1;
    const std::uint32_t id = size();
    arena_.append(text);
    offsets_.push_back(static_cast<std::uint32_t>(arena_.size()));
    slots_[i] = id + 1;
    return id;
}

std::optional<std::uint32_t> NamePool::find(std::string_view text) const
{
    if (slots_.empty())
        return std::nullopt;
    const std::size_t i = slot_of(text);
    if (!slots_[i])
        return std::nullopt;
    return slots_[i] - 1;
}

std::size_t NamePool::bytes() const
{
    return arena_.capacity() + offsets_.capacity() * sizeof(std::uint32_t) + slots_.capacity() * sizeof(std::uint32_t);
}

void FdNames::grow()
{
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 8 : old.size() * 2, Slot{});
    used_ = 0;
    for (const Slot &s : old)
        if (s.name != kEmpty)
            set(s.name, s.fd);
}

void FdNames::set(std::uint32_t name, int fd)
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

int FdNames::get(std::uint32_t name) const
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
