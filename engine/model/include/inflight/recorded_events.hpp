// SPDX-License-Identifier: GPL-3.0-or-later
// A run's recorded events, packed: what the app's timeline, event log and breakpoint ticks
// read. An Event is a 64-byte value, and the million-bind scene records millions of them (kept
// as Events, the largest single thing the app would hold). Consecutive events differ in few fields
// (the step goes up by one, the kernel function and the objects mostly stay), so each event is
// stored as the fields that differ from the one before it: a mask, then each such field as a
// variable-length delta, 8-12 bytes an event.
//
// Events are decoded on demand, a block of kBlock at a time, each block packed against a default
// Event. The block decoded last is kept per thread, so a walk forwards or backwards costs one
// decode an event, and a binary search a block per probe. Reading is thread-safe; appending is
// not.
#pragma once

#include "inflight/event.hpp"
#include "inflight/index_iterator.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace inflight {

class RecordedEvents {
public:
    static constexpr std::size_t kBlock = 256;

    void push_back(const Event &e);
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    void clear();
    // Names these contents: another after clear() or an assignment (not after push_back()),
    // so that a view can tell a new run from the one it indexed.
    std::uint64_t contents_id() const { return id_; }
    // Once a run is recorded: gives back the room kept for more (up to half of it).
    void shrink_to_fit();
    // What the events take in memory (their packed bytes and the block index, room included).
    std::size_t bytes() const;

    RecordedEvents();
    RecordedEvents(const RecordedEvents &other);
    RecordedEvents(RecordedEvents &&other) noexcept;
    RecordedEvents &operator=(const RecordedEvents &other);
    RecordedEvents &operator=(RecordedEvents &&other) noexcept;

    Event operator[](std::size_t i) const; // decodes its block, unless this thread just did
    Event front() const { return (*this)[0]; }
    Event back() const { return last_; }

    // The row of the last event whose step is <= step (size() if none is): events are in step
    // order. A search over the blocks' first steps, then a walk through one block.
    std::size_t last_at_or_before(std::uint64_t step) const;
    // The row of the first event whose step is >= step (size() if none is).
    std::size_t first_at_or_after(std::uint64_t step) const;

    // Random access, events by value (there is no stored Event to refer to).
    using const_iterator = IndexIterator<const RecordedEvents, const Event>;
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size_}; }

private:
    // Decodes the event at byte offset `at` over `e` (the one before it, or a default Event at
    // a block's start); returns the offset after it.
    std::size_t decode(std::size_t at, Event &e) const;
    // The events of block b, decoded into this thread's cache.
    const Event *block(std::size_t b) const;
    // Names these contents for the per-thread cache: new at every change that could make a
    // decoded block stale (clear, assignment), so a cache never serves another's events.
    std::uint64_t id_;

    std::vector<std::uint8_t> bytes_;
    std::vector<std::size_t> block_offset_; // byte offset of each block's first event
    std::vector<std::uint64_t> block_step_; // and its step
    std::size_t size_ = 0;
    Event last_; // the last event pushed (what the next is packed against)
};

} // namespace inflight
