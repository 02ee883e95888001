// Interned names (socket labels and fd names): each distinct text is stored once, in one
// arena, and known by a 32-bit id. Open addressing keeps the index at a few bytes per name,
// which is most of what an idle socket costs beyond the kernel objects themselves.
#pragma once

#include <cstdint>
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
        const std::uint32_t begin = offsets_[id];
        return {arena_.data() + begin, offsets_[id + 1] - begin};
    }
    std::uint32_t size() const { return static_cast<std::uint32_t>(offsets_.size() - 1); }
    std::size_t bytes() const;

private:
    std::size_t slot_of(std::string_view text) const;
    void grow();

    std::string arena_;
    std::vector<std::uint32_t> offsets_{0}; // name i is arena_[offsets_[i], offsets_[i+1])
    std::vector<std::uint32_t> slots_;      // id + 1, 0 = empty; linear probing, load <= 1/2
};

// A process's fd names: name id -> fd, open addressing with backward-shift deletion.
class FdNames {
public:
    void set(std::uint32_t name, int fd);
    int get(std::uint32_t name) const; // -1 when absent
    bool erase(std::uint32_t name);
    std::size_t size() const { return used_; }
    template <class F> void for_each(F &&f) const // f(name id, fd), in no particular order
    {
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
    std::size_t home(std::uint32_t name) const { return (name * 2654435761u) & (slots_.size() - 1); }
    void grow();
    std::vector<Slot> slots_;
    std::size_t used_ = 0;
};

} // namespace inflight
