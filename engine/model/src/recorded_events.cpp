// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/recorded_events.hpp"

#include <algorithm>
#include <atomic>
#include <cassert>

namespace inflight {

namespace {

// One bit per Event field, set when the field differs from its prediction: the event before's
// value, or for the step that value plus one. The mask is a varint: the fields that change in
// most micro-steps have the low seven bits, so that a typical mask is one byte.
enum Field : std::uint16_t {
    f_kind = 1u << 0,
    f_fn = 1u << 1,
    f_a = 1u << 2,
    f_b = 1u << 3,
    f_after = 1u << 4,
    f_time = 1u << 5,
    f_depth = 1u << 6,
    f_step = 1u << 7,
    f_c = 1u << 8,
    f_before = 1u << 9,
    f_scene_line = 1u << 10,
    f_task = 1u << 11,
    f_from = 1u << 12,
    f_to = 1u << 13,
    f_algo_line = 1u << 14,
};

void put_varint(std::vector<std::uint8_t> &out, std::uint64_t v)
{
    while (v >= 0x80) {
        out.push_back(static_cast<std::uint8_t>(v | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<std::uint8_t>(v));
}

inline std::uint64_t get_varint(const std::uint8_t *data, std::size_t &at)
{
    if (!(data[at] & 0x80)) // most deltas and masks are one byte
        return data[at++];
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        const std::uint8_t b = data[at++];
        v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
    }
}

// A delta between two values of a field, wrapping (npos to 0 is +1), zigzagged so that a
// small step back is a small number too.
inline std::uint64_t zigzag(std::uint64_t now, std::uint64_t before)
{
    const auto d = static_cast<std::int64_t>(now - before);
    return (static_cast<std::uint64_t>(d) << 1) ^ static_cast<std::uint64_t>(d >> 63);
}

inline std::uint64_t unzigzag(std::uint64_t z, std::uint64_t before)
{
    const std::uint64_t d = (z >> 1) ^ (~(z & 1) + 1);
    return before + d;
}

} // namespace

namespace {

std::uint64_t new_id()
{
    static std::atomic<std::uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

// The block this thread decoded last: which contents (RecordedEvents::id_), which block, and
// how many of its events (the last block grows while a run is recorded).
struct DecodedBlock {
    std::uint64_t owner = 0;
    std::size_t block = 0, count = 0;
    Event events[RecordedEvents::kBlock];
};
thread_local DecodedBlock t_decoded;

} // namespace

RecordedEvents::RecordedEvents() : id_(new_id()) { }

RecordedEvents::RecordedEvents(const RecordedEvents &o)
    : id_(new_id()), bytes_(o.bytes_), block_offset_(o.block_offset_), block_step_(o.block_step_), size_(o.size_),
      last_(o.last_)
{ }

RecordedEvents::RecordedEvents(RecordedEvents &&o) noexcept
    : id_(new_id()), bytes_(std::move(o.bytes_)), block_offset_(std::move(o.block_offset_)),
      block_step_(std::move(o.block_step_)), size_(o.size_), last_(o.last_)
{
    o.clear();
}

RecordedEvents &RecordedEvents::operator=(const RecordedEvents &o)
{
    if (this != &o) {
        RecordedEvents copy(o);
        *this = std::move(copy);
    }
    return *this;
}

RecordedEvents &RecordedEvents::operator=(RecordedEvents &&o) noexcept
{
    if (this != &o) {
        bytes_ = std::move(o.bytes_);
        block_offset_ = std::move(o.block_offset_);
        block_step_ = std::move(o.block_step_);
        size_ = o.size_;
        last_ = o.last_;
        id_ = new_id();
        o.clear();
    }
    return *this;
}

void RecordedEvents::push_back(const Event &e)
{
    assert(size_ == 0 || e.step >= last_.step);
    static const Event kBlockStart{};
    if (size_ % kBlock == 0) {
        block_offset_.push_back(bytes_.size());
        block_step_.push_back(e.step);
    }
    const Event &p = size_ % kBlock == 0 ? kBlockStart : last_;
    std::uint16_t mask = 0;
    mask |= e.step != p.step + 1 ? f_step : 0;
    mask |= e.kind != p.kind ? f_kind : 0;
    mask |= e.fn != p.fn ? f_fn : 0;
    mask |= e.from != p.from ? f_from : 0;
    mask |= e.to != p.to ? f_to : 0;
    mask |= e.algo_line != p.algo_line ? f_algo_line : 0;
    mask |= e.scene_line != p.scene_line ? f_scene_line : 0;
    mask |= e.a != p.a ? f_a : 0;
    mask |= e.b != p.b ? f_b : 0;
    mask |= e.c != p.c ? f_c : 0;
    mask |= e.before != p.before ? f_before : 0;
    mask |= e.after != p.after ? f_after : 0;
    mask |= e.time != p.time ? f_time : 0;
    mask |= e.task != p.task ? f_task : 0;
    mask |= e.depth != p.depth ? f_depth : 0;
    put_varint(bytes_, mask);
    if (mask & f_step)
        put_varint(bytes_, zigzag(e.step, p.step + 1));
    if (mask & f_kind)
        bytes_.push_back(static_cast<std::uint8_t>(e.kind));
    if (mask & f_fn)
        bytes_.push_back(static_cast<std::uint8_t>(e.fn));
    if (mask & f_from)
        bytes_.push_back(static_cast<std::uint8_t>(e.from));
    if (mask & f_to)
        bytes_.push_back(static_cast<std::uint8_t>(e.to));
    if (mask & f_algo_line)
        put_varint(bytes_, zigzag(e.algo_line, p.algo_line));
    if (mask & f_scene_line)
        put_varint(bytes_, zigzag(e.scene_line, p.scene_line));
    if (mask & f_a)
        put_varint(bytes_, zigzag(e.a, p.a));
    if (mask & f_b)
        put_varint(bytes_, zigzag(e.b, p.b));
    if (mask & f_c)
        put_varint(bytes_, zigzag(e.c, p.c));
    if (mask & f_before)
        put_varint(bytes_, zigzag(static_cast<std::uint64_t>(e.before), static_cast<std::uint64_t>(p.before)));
    if (mask & f_after)
        put_varint(bytes_, zigzag(static_cast<std::uint64_t>(e.after), static_cast<std::uint64_t>(p.after)));
    if (mask & f_time)
        put_varint(bytes_, zigzag(e.time, p.time));
    if (mask & f_task)
        put_varint(bytes_, zigzag(e.task, p.task));
    if (mask & f_depth)
        bytes_.push_back(e.depth);
    last_ = e;
    ++size_;
}

__attribute__((always_inline)) inline std::size_t RecordedEvents::decode(std::size_t at, Event &e) const
{
    const std::uint8_t *d = bytes_.data();
    const auto mask = static_cast<std::uint16_t>(get_varint(d, at));
    e.step = mask & f_step ? unzigzag(get_varint(d, at), e.step + 1) : e.step + 1;
    if (mask & f_kind)
        e.kind = static_cast<EventKind>(d[at++]);
    if (mask & f_fn)
        e.fn = static_cast<KFn>(d[at++]);
    if (mask & f_from)
        e.from = static_cast<ListId>(d[at++]);
    if (mask & f_to)
        e.to = static_cast<ListId>(d[at++]);
    if (mask & f_algo_line)
        e.algo_line = static_cast<std::uint16_t>(unzigzag(get_varint(d, at), e.algo_line));
    if (mask & f_scene_line)
        e.scene_line = static_cast<std::uint32_t>(unzigzag(get_varint(d, at), e.scene_line));
    if (mask & f_a)
        e.a = static_cast<std::uint32_t>(unzigzag(get_varint(d, at), e.a));
    if (mask & f_b)
        e.b = static_cast<std::uint32_t>(unzigzag(get_varint(d, at), e.b));
    if (mask & f_c)
        e.c = static_cast<std::uint32_t>(unzigzag(get_varint(d, at), e.c));
    if (mask & f_before)
        e.before = static_cast<std::int64_t>(unzigzag(get_varint(d, at), static_cast<std::uint64_t>(e.before)));
    if (mask & f_after)
        e.after = static_cast<std::int64_t>(unzigzag(get_varint(d, at), static_cast<std::uint64_t>(e.after)));
    if (mask & f_time)
        e.time = unzigzag(get_varint(d, at), e.time);
    if (mask & f_task)
        e.task = static_cast<std::uint16_t>(unzigzag(get_varint(d, at), e.task));
    if (mask & f_depth)
        e.depth = d[at++];
    return at;
}

const Event *RecordedEvents::block(std::size_t b) const
{
    DecodedBlock &d = t_decoded;
    const std::size_t count = std::min(kBlock, size_ - b * kBlock);
    if (d.owner != id_ || d.block != b || d.count != count) {
        // Each event is decoded over a copy of the one before (a default Event for the first).
        std::size_t at = decode(block_offset_[b], d.events[0] = Event{});
        for (std::size_t i = 1; i < count; ++i) {
            d.events[i] = d.events[i - 1];
            at = decode(at, d.events[i]);
        }
        d.owner = id_;
        d.block = b;
        d.count = count;
    }
    return d.events;
}

Event RecordedEvents::operator[](std::size_t i) const
{
    assert(i < size_);
    return block(i / kBlock)[i % kBlock];
}

std::size_t RecordedEvents::last_at_or_before(std::uint64_t step) const
{
    // The block holding it: the last whose first step is <= step.
    const auto b = std::upper_bound(block_step_.begin(), block_step_.end(), step);
    if (b == block_step_.begin())
        return size_;
    const std::size_t block = static_cast<std::size_t>(b - block_step_.begin()) - 1;
    const std::size_t count = std::min(kBlock, size_ - block * kBlock);
    const Event *events = this->block(block);
    const auto after =
        std::upper_bound(events, events + count, step, [](std::uint64_t s, const Event &e) { return s < e.step; });
    return block * kBlock + static_cast<std::size_t>(after - events) - 1;
}

std::size_t RecordedEvents::first_at_or_after(std::uint64_t step) const
{
    if (size_ == 0 || step > last_.step)
        return size_;
    const std::size_t before = last_at_or_before(step == 0 ? 0 : step - 1);
    return before == size_ ? 0 : before + 1;
}

void RecordedEvents::shrink_to_fit()
{
    bytes_.shrink_to_fit();
    block_offset_.shrink_to_fit();
    block_step_.shrink_to_fit();
}

void RecordedEvents::clear()
{
    bytes_.clear();
    block_offset_.clear();
    block_step_.clear();
    size_ = 0;
    last_ = Event{};
    id_ = new_id();
}

std::size_t RecordedEvents::bytes() const
{
    return bytes_.capacity() + block_offset_.capacity() * sizeof(std::size_t) +
           block_step_.capacity() * sizeof(std::uint64_t);
}

} // namespace inflight
