// SPDX-License-Identifier: GPL-3.0-or-later
// Proc: a resumable kernel code path. Every modelled syscall, release and collector is written
// as a C++20 coroutine that `co_yield`s an Event at each micro-step and `co_yield`s a nested Proc
// to call a sub-path (fput -> unix_release_sock -> unix_gc ...). The caller drives the outermost
// Proc with next(): one call = one micro-step, whatever depth the step happens at. That is what
// lets the player stop anywhere inside a collection and resume exactly there.
#pragma once

#include "inflight/event.hpp"
#include "inflight/event_sink.hpp"
#include "inflight/frame_pool.hpp"

#include <coroutine>
#include <cstdint>
#include <exception>
#include <utility>

namespace inflight {

class [[nodiscard]] Proc {
public:
    struct promise_type;
    using Handle = std::coroutine_handle<promise_type>;

    struct promise_type {
        // The outermost promise tracks the innermost running coroutine and the last event.
        promise_type *root = this;
        Handle leaf;                  // only meaningful in the root
        Handle parent;                // the coroutine that co_yield-ed us (none for the root)
        const Event *event = nullptr; // only meaningful in the root
        std::exception_ptr error;     // only meaningful in the root
        EventSink *sink = nullptr;    // only meaningful in the root
        bool stopped = false;         // only meaningful in the root: a step's event was not absorbed
        // Levels of kernel function this path sits below that its caller wrote inline (see
        // below_inline()): depth() counts them as frames.
        std::uint8_t inline_levels = 0;

        // Frames come from a per-thread pool (frame_pool.hpp): a collection makes one per
        // vertex it judges.
        static void *operator new(std::size_t bytes) { return frame_pool::allocate(bytes); }
        static void operator delete(void *frame, std::size_t bytes) noexcept { frame_pool::release(frame, bytes); }

        Proc get_return_object() { return Proc{Handle::from_promise(*this)}; }
        std::suspend_always initial_suspend() noexcept { return {}; }

        // A finished path hands the leaf back to its caller and returns to next(), which
        // resumes the caller (see CallAwaiter: no symmetric transfer).
        struct FinalAwaiter {
            bool await_ready() noexcept { return false; }
            void await_suspend(Handle h) noexcept
            {
                promise_type &p = h.promise();
                if (p.parent)
                    p.root->leaf = p.parent;
            }
            void await_resume() noexcept { }
        };
        FinalAwaiter final_suspend() noexcept { return {}; }

        struct YieldAwaiter {
            bool absorbed;
            bool await_ready() const noexcept { return absorbed; }
            void await_suspend(Handle h) const noexcept { h.promise().root->stopped = true; }
            void await_resume() const noexcept { }
        };
        YieldAwaiter yield_value(const Event &e) noexcept
        {
            root->event = &e;
            return YieldAwaiter{root->sink && root->sink->absorb(e)};
        }

        struct CallAwaiter;
        CallAwaiter yield_value(Proc &&child) noexcept;

        void return_void() noexcept { }
        void unhandled_exception() noexcept { error = std::current_exception(); }
    };

    Proc() = default;
    Proc(Proc &&o) noexcept : handle_(std::exchange(o.handle_, {})) { }
    Proc &operator=(Proc &&o) noexcept
    {
        if (this != &o) {
            destroy();
            handle_ = std::exchange(o.handle_, {});
        }
        return *this;
    }
    Proc(const Proc &) = delete;
    Proc &operator=(const Proc &) = delete;
    ~Proc() { destroy(); }

    // Runs to the next micro-step. Returns the event, or nullptr when the path has finished.
    // The event stays valid until the next call.
    const Event *next()
    {
        if (!handle_ || handle_.done())
            return nullptr;
        promise_type &root = handle_.promise();
        if (!root.leaf)
            root.leaf = handle_;
        root.event = nullptr;
        root.stopped = false;
        // A trampoline: each resume runs the innermost path until it stops at an event, calls a
        // sub-path or finishes; the latter two come back here and the new leaf is resumed. The
        // machine stack stays one frame deep however many paths a step enters and leaves
        // (symmetric transfer would need every compiler, sanitizers on, to make it a tail call).
        do {
            root.leaf.resume();
            // A failing nested path hands its exception up, frame by frame, to the root.
            if (root.error)
                std::rethrow_exception(std::exchange(root.error, nullptr));
        } while (!root.stopped && !handle_.done());
        return handle_.done() ? nullptr : root.event;
    }

    bool done() const { return !handle_ || handle_.done(); }
    // How many paths deep the innermost running one is (1: this path itself, 0: none).
    int depth() const
    {
        if (!handle_)
            return 0;
        int d = 0;
        for (Handle h = handle_.promise().leaf ? handle_.promise().leaf : handle_; h; h = h.promise().parent)
            d += 1 + h.promise().inline_levels;
        return d;
    }
    // A call from code that stands in for kernel functions of its own but is written inline in
    // its caller, because a nested path per call cost too much where it runs for every SCC of
    // every walk: the called path is counted `levels` deeper, as if those functions were
    // frames, so that "step out of the current function" and the trace's depths are those of
    // the functions. An event yielded from such inline code says the same in Event::depth.
    Proc &&below_inline(std::uint8_t levels) &&
    {
        if (handle_)
            handle_.promise().inline_levels = levels;
        return std::move(*this);
    }
    // Every event of this path (and the paths it calls) goes through sink first.
    void set_sink(EventSink *sink)
    {
        if (handle_)
            handle_.promise().sink = sink;
    }
    explicit operator bool() const { return static_cast<bool>(handle_); }

private:
    explicit Proc(Handle h) : handle_(h) { }
    void destroy()
    {
        if (handle_)
            handle_.destroy();
        handle_ = {};
    }
    Handle handle_;
};

// Calling a nested path: the parent suspends with the child as the root's leaf, and next()
// resumes it at once; when the child finishes the leaf is the parent again. next() always
// resumes the innermost path.
struct Proc::promise_type::CallAwaiter {
    Proc child;
    bool await_ready() noexcept { return !child.handle_ || child.handle_.done(); }
    // The child runs at once, from here: most calls (a verdict, an SCC that is not garbage)
    // finish with every event absorbed, and then the parent goes on without a trip through
    // next()'s loop, which cost a tenth of a fast-forwarded collection. The native stack grows
    // only by the paths nested at this moment (fput -> ... -> collect_skb: a handful), never
    // by the number of calls made one after another, so it stays bounded with or without
    // tail calls. A child that stops at an event leaves the parent suspended, and next()
    // resumes the leaf as before.
    bool await_suspend(Handle parent) noexcept
    {
        promise_type &c = child.handle_.promise();
        c.parent = parent;
        c.root = parent.promise().root;
        c.root->leaf = child.handle_;
        child.handle_.resume();
        return !child.handle_.done();
    }
    void await_resume()
    {
        if (child.handle_ && child.handle_.promise().error)
            std::rethrow_exception(child.handle_.promise().error);
    }
};

inline Proc::promise_type::CallAwaiter Proc::promise_type::yield_value(Proc &&child) noexcept
{
    return CallAwaiter{std::move(child)};
}

// Runs a path to its end, discarding its events (used where only the final state matters).
inline void run_to_end(Proc p)
{
    while (p.next()) { }
}

} // namespace inflight
