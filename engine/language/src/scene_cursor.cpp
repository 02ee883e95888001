// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/scene_cursor.hpp"

#include <algorithm>

namespace inflight {
namespace {

// True when running the statements would execute at least one statement. A repeat whose body
// executes nothing is skipped as a whole, so `repeat 1000000000 { repeat 0 { ... } }` costs one
// look at its body instead of a billion empty iterations.
bool executes_something(const std::vector<Statement> &statements)
{
    for (const auto &s : statements) {
        if (s.op != Op::repeat)
            return true;
        if (s.count > 0 && executes_something(s.body))
            return true;
    }
    return false;
}

} // namespace

std::uint64_t unrolled_statements(const std::vector<Statement> &statements)
{
    constexpr std::uint64_t kMax = std::uint64_t(1) << 62;
    std::uint64_t n = 0;
    for (const auto &s : statements) {
        std::uint64_t add = 1;
        if (s.op == Op::repeat) {
            const std::uint64_t body = unrolled_statements(s.body);
            const auto count = static_cast<std::uint64_t>(std::max<std::int64_t>(s.count, 0));
            add = body && count > kMax / body ? kMax : body * count;
        } else if (s.op == Op::spawn) {
            add = 1 + unrolled_statements(s.body);
        }
        n = std::min(kMax, n + add);
    }
    return n;
}

std::uint64_t unrolled_autobinds(const std::vector<Statement> &statements)
{
    constexpr std::uint64_t kMax = std::uint64_t(1) << 62;
    std::uint64_t n = 0;
    for (const auto &s : statements) {
        std::uint64_t add = s.op == Op::bind && !s.address ? 1 : 0;
        if (s.op == Op::repeat) {
            const std::uint64_t body = unrolled_autobinds(s.body);
            const auto count = static_cast<std::uint64_t>(std::max<std::int64_t>(s.count, 0));
            add = body && count > kMax / body ? kMax : body * count;
        } else if (s.op == Op::spawn) {
            add = unrolled_autobinds(s.body);
        }
        n = std::min(kMax, n + add);
    }
    return n;
}

SceneCursor::SceneCursor(const std::vector<Statement> &statements)
{
    stack_.push_back(Frame{&statements, 0, -1, 0, nullptr});
}

SceneCursor::SceneCursor(const std::vector<Statement> &statements, Bindings outer) : bindings_(std::move(outer))
{
    stack_.push_back(Frame{&statements, 0, -1, 0, nullptr});
}

bool SceneCursor::next()
{
    current_ = nullptr;
    while (!stack_.empty()) {
        Frame &top = stack_.back();
        if (top.index < top.list->size()) {
            const Statement &s = (*top.list)[top.index++];
            if (s.op != Op::repeat) {
                current_ = &s;
                return true;
            }
            if (s.count <= 0 || !executes_something(s.body))
                continue;
            // `top` may dangle after push_back; it is not used again in this iteration.
            stack_.push_back(Frame{&s.body, 0, 0, s.count, &s});
            bindings_.emplace_back(s.loop_var, 0);
            continue;
        }
        if (top.repeat != nullptr && top.iteration + 1 < top.count) {
            ++top.iteration;
            top.index = 0;
            bindings_.back().second = top.iteration;
            continue;
        }
        if (top.repeat != nullptr)
            bindings_.pop_back();
        stack_.pop_back();
    }
    return false;
}

const Statement &SceneCursor::current() const
{
    // Calling current() before next() or after the end is a caller bug; answer with a harmless
    // statement (a note) rather than dereferencing null.
    static const Statement none;
    return current_ ? *current_ : none;
}

} // namespace inflight
