// SPDX-License-Identifier: GPL-3.0-or-later
// A random-access iterator over any container that reads its elements by index (operator[]):
// the chunked containers (ChunkedVector, AppendOnlyLog) have no contiguous storage to point
// into, so an iterator is the container and a position.
#pragma once

#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>

namespace inflight {

// Owner: the container, const for a const_iterator; Elem: the element type as the iterator
// hands it out (const T for a const_iterator).
template <class Owner, class Elem>
class IndexIterator {
public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = std::remove_const_t<Elem>;
    using difference_type = std::ptrdiff_t;
    // What the container's operator[] gives: a reference to a stored element, or (a container
    // that decodes on demand, RecordedEvents) the element by value, with no operator->.
    using reference = decltype(std::declval<Owner &>()[std::size_t{}]);
    using pointer = std::conditional_t<std::is_lvalue_reference_v<reference>, Elem *, void>;

    IndexIterator() = default;
    IndexIterator(Owner *v, std::size_t i) : v_(v), i_(i) { }
    // iterator -> const_iterator
    template <class O, class E,
              std::enable_if_t<std::is_convertible_v<O *, Owner *> && !std::is_same_v<O, Owner>, int> = 0>
    IndexIterator(const IndexIterator<O, E> &o) : v_(o.owner()), i_(o.index())
    { }

    reference operator*() const { return (*v_)[i_]; }
    pointer operator->() const requires std::is_lvalue_reference_v<reference> { return &(*v_)[i_]; }
    reference operator[](difference_type n) const { return (*v_)[i_ + static_cast<std::size_t>(n)]; }
    IndexIterator &operator++()
    {
        ++i_;
        return *this;
    }
    IndexIterator operator++(int)
    {
        IndexIterator t = *this;
        ++i_;
        return t;
    }
    IndexIterator &operator--()
    {
        --i_;
        return *this;
    }
    IndexIterator operator--(int)
    {
        IndexIterator t = *this;
        --i_;
        return t;
    }
    IndexIterator &operator+=(difference_type n)
    {
        i_ += static_cast<std::size_t>(n);
        return *this;
    }
    IndexIterator &operator-=(difference_type n)
    {
        i_ -= static_cast<std::size_t>(n);
        return *this;
    }
    friend IndexIterator operator+(IndexIterator a, difference_type n) { return a += n; }
    friend IndexIterator operator+(difference_type n, IndexIterator a) { return a += n; }
    friend IndexIterator operator-(IndexIterator a, difference_type n) { return a -= n; }
    friend difference_type operator-(const IndexIterator &a, const IndexIterator &b)
    {
        return static_cast<difference_type>(a.i_) - static_cast<difference_type>(b.i_);
    }
    friend bool operator==(const IndexIterator &a, const IndexIterator &b) { return a.i_ == b.i_; }
    friend auto operator<=>(const IndexIterator &a, const IndexIterator &b) { return a.i_ <=> b.i_; }

    Owner *owner() const { return v_; }
    std::size_t index() const { return i_; }

private:
    Owner *v_ = nullptr;
    std::size_t i_ = 0;
};

} // namespace inflight
