// SPDX-License-Identifier: GPL-3.0-or-later
// Watch expressions over the model's state after a step, as a debugger's `watch`:
//
//   FIELD LABEL [OP VALUE]     inflight a >= 2, refs a == 1, state a == listening, queue a
//   LABEL PREDICATE            a freed, a alive, a candidate, a garbage
//   GLOBAL [OP VALUE]          unix_tot_inflight > 3, gc_in_progress
//   user NAME inflight [OP VALUE]
//
// Fields are named after the kernel's: inflight (u->inflight, or the vertex's out_degree in the
// graph era, as the report counts it), refs (file_count()), out_degree, index and scc_index (the
// vertex), flags (gc_flags), queue (the receive queue's length), nr_fds, state. A socket that does
// not exist yet, or a vertex-only field of a socket that has no vertex, reads "none".
//
// Without an operator a field is watched for change (gdb's `watch`); with one, or as a predicate,
// it is a condition that fires on its false -> true edge. Watchpoint keeps the previous value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inflight {

class Kernel;

// A field's value: absent (none) or an integer. Booleans are 0/1 and a socket's state is its
// SockState; Watch::format() turns a value back into words.
struct WatchValue {
    bool none = true;
    std::int64_t n = 0;
    bool operator==(const WatchValue &) const = default;
};

// What went wrong in an expression, and where (1-based column in the expression's text).
struct WatchError {
    std::size_t column = 1;
    std::string message;
    std::string format() const; // "column 10: unknown field 'infligt'; did you mean 'inflight'?"
};

class Watch {
public:
    enum class Field : std::uint8_t {
        // a socket's (LABEL)
        inflight,
        refs,
        out_degree,
        index,
        scc_index,
        flags,
        queue,
        nr_fds,
        state,
        freed,
        alive,
        candidate,
        garbage, // predicates: LABEL WORD
        // globals
        unix_tot_inflight,
        gc_in_progress,
        hitlist,
        graph_maybe_cyclic,
        graph_grouped,
        user_inflight, // user NAME inflight
    };
    enum class Op : std::uint8_t { none, eq, ne, lt, le, gt, ge };

    // Parses `text`; on failure returns nothing and fills *error (when given).
    static std::optional<Watch> parse(std::string_view text, WatchError *error = nullptr);

    const std::string &text() const { return text_; }
    Field field() const { return field_; }
    const std::string &subject() const { return subject_; } // the label or user name ("" for globals)
    Op op() const { return op_; }
    // A condition (an operator, or a predicate) fires on false -> true; otherwise on change.
    bool is_condition() const;

    // The watched field's value in this state.
    WatchValue value(const Kernel &k) const;
    // The condition in this state. For a field watched for change: the value is neither none
    // nor 0 (C's truth, so that `14 if queue a` means "a's queue is not empty").
    bool holds(const Kernel &k) const;
    // The value in words: "none", "3", "true", "listening".
    std::string format(const WatchValue &v) const;

private:
    std::string text_;
    Field field_ = Field::inflight;
    std::string subject_;
    Op op_ = Op::none;
    WatchValue rhs_;
    // The socket found for subject_ (labels are never reassigned, so it is looked up once).
    mutable std::uint32_t sock_id_ = UINT32_MAX;
};

// The names a watch may use, for help texts and did-you-mean.
std::vector<std::string_view> watch_field_names();

// A Watch and what it last saw: check() after every step says whether it fired.
class Watchpoint {
public:
    explicit Watchpoint(Watch w) : watch_(std::move(w)) { }
    const Watch &watch() const { return watch_; }

    struct Change {
        std::string before, after; // "false" / "true" for a condition, else the values
    };
    // The state the run starts from (step 0); check() compares against it the first time.
    void reset(const Kernel &k);
    // After a step: the change, when the watch fires.
    std::optional<Change> check(const Kernel &k);
    // The current value in words (a condition: "true"/"false", with the field's value).
    std::string current(const Kernel &k) const;

private:
    Watch watch_;
    WatchValue last_;
    bool last_holds_ = false;
    bool primed_ = false;
};

} // namespace inflight
