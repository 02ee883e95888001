// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/watch.hpp"

#include "inflight/kernel.hpp"
#include "watch_text.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

namespace inflight {

namespace {

using Field = Watch::Field;
using WOp = Watch::Op;

enum class Kind : std::uint8_t { number, boolean, state };
enum class Form : std::uint8_t { socket, predicate, global, user };

struct FieldInfo {
    std::string_view name;
    Field field;
    Kind kind;
    Form form;
};

// Every name a watch knows. `user` is the form `user NAME inflight`.
constexpr FieldInfo kFields[] = {
    {"inflight", Field::inflight, Kind::number, Form::socket},
    {"refs", Field::refs, Kind::number, Form::socket},
    {"out_degree", Field::out_degree, Kind::number, Form::socket},
    {"index", Field::index, Kind::number, Form::socket},
    {"scc_index", Field::scc_index, Kind::number, Form::socket},
    {"flags", Field::flags, Kind::number, Form::socket},
    {"queue", Field::queue, Kind::number, Form::socket},
    {"nr_fds", Field::nr_fds, Kind::number, Form::socket},
    {"state", Field::state, Kind::state, Form::socket},
    {"freed", Field::freed, Kind::boolean, Form::predicate},
    {"alive", Field::alive, Kind::boolean, Form::predicate},
    {"candidate", Field::candidate, Kind::boolean, Form::predicate},
    {"garbage", Field::garbage, Kind::boolean, Form::predicate},
    {"unix_tot_inflight", Field::unix_tot_inflight, Kind::number, Form::global},
    {"gc_in_progress", Field::gc_in_progress, Kind::boolean, Form::global},
    {"hitlist", Field::hitlist, Kind::number, Form::global},
    {"unix_graph_maybe_cyclic", Field::graph_maybe_cyclic, Kind::boolean, Form::global},
    {"unix_graph_grouped", Field::graph_grouped, Kind::boolean, Form::global},
    {"user", Field::user_inflight, Kind::number, Form::user},
};

const FieldInfo &info(Field f)
{
    for (const FieldInfo &i : kFields)
        if (i.field == f)
            return i;
    return kFields[0];
}

const FieldInfo *find_field(std::string_view name, Form form)
{
    for (const FieldInfo &i : kFields)
        if (i.name == name && i.form == form)
            return &i;
    return nullptr;
}

// What comes first in an expression: a socket field, a global, or `user`.
const FieldInfo *find_leading(std::string_view name)
{
    for (const FieldInfo &i : kFields)
        if (i.name == name && i.form != Form::predicate)
            return &i;
    return nullptr;
}

std::vector<std::string_view> names_of(std::initializer_list<Form> forms)
{
    std::vector<std::string_view> out;
    for (const FieldInfo &i : kFields)
        if (std::find(forms.begin(), forms.end(), i.form) != forms.end())
            out.push_back(i.name);
    return out;
}

constexpr std::string_view kStates[] = {"unconnected", "listening", "connected", "embryo", "closed"};

struct OpInfo {
    std::string_view text;
    WOp op;
};
constexpr OpInfo kOps[] = {{"==", WOp::eq}, {"!=", WOp::ne}, {"<=", WOp::le},
                           {">=", WOp::ge}, {"<", WOp::lt},  {">", WOp::gt}};

bool compare(const WatchValue &l, WOp op, const WatchValue &r)
{
    // none equals only none and is ordered against nothing: `inflight a > 0` is false until a
    // exists, and `scc_index a == none` asks whether a has no vertex.
    if (l.none || r.none) {
        if (op == WOp::eq)
            return l.none == r.none;
        if (op == WOp::ne)
            return l.none != r.none;
        return false;
    }
    switch (op) {
    case WOp::eq: return l.n == r.n;
    case WOp::ne: return l.n != r.n;
    case WOp::lt: return l.n < r.n;
    case WOp::le: return l.n <= r.n;
    case WOp::gt: return l.n > r.n;
    case WOp::ge: return l.n >= r.n;
    case WOp::none: break;
    }
    return false;
}

WatchValue some(std::int64_t n) { return WatchValue{false, n}; }

// Graph era: the vertex has been entered by the running walk (Tarjan: it was given an index
// this run, so it is no longer at the unvisited mark; fast path: its ring was moved to the
// visited list).
bool entered_by_walk(const Kernel &k, const UnixVertex &v)
{
    if (k.gc_phase == GcPhase::fast_walk)
        return on_visited_list(k, v);
    if (k.gc_phase == GcPhase::walk)
        return on_visited_list(k, v) || v.index != k.unvisited_index;
    return false;
}

WatchValue socket_value(const Kernel &k, const UnixSock &u, Field f)
{
    const UnixVertex *v = u.vertex;
    const bool graph = k.era() == GcEra::graph;
    switch (f) {
    case Field::inflight: return some(k.collector().inflight_of(u));
    case Field::refs: return u.file ? some(u.file->count) : WatchValue{}; // an embryo has no file
    case Field::out_degree: return v ? some(static_cast<std::int64_t>(v->out_degree)) : WatchValue{};
    case Field::index: return v ? some(static_cast<std::int64_t>(v->index)) : WatchValue{};
    case Field::scc_index: return v ? some(static_cast<std::int64_t>(v->scc_index)) : WatchValue{};
    // gc_flags went with the classic collector: the graph era's sockets have none.
    case Field::flags: return graph ? WatchValue{} : some(u.gc_flags);
    case Field::queue: return some(static_cast<std::int64_t>(u.receive_queue.size()));
    case Field::nr_fds: return some(u.nr_fds);
    case Field::state: return some(static_cast<std::int64_t>(u.state));
    case Field::freed: return some(u.released);
    case Field::alive: return some(!u.released);
    case Field::candidate:
        // Classic: UNIX_GC_CANDIDATE, set by the selection, cleared when restored. Graph: the walk
        // has reached its vertex.
        if (u.released)
            return some(0);
        return some(graph ? (v && entered_by_walk(k, *v)) : (u.gc_flags & UNIX_GC_CANDIDATE) != 0);
    case Field::garbage:
        // Classic: after the restore walk whatever is left on gc_candidates is garbage. Graph:
        // its SCC's verdict in this run is dead.
        if (u.released)
            return some(0);
        if (graph)
            return some(v && verdict_of(k, *v) == 1);
        return some((k.gc_phase == GcPhase::hitlist || k.gc_phase == GcPhase::purge) && u.on == ListId::gc_candidates);
    default: break;
    }
    return {};
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

} // namespace

std::string WatchError::format() const { return "column " + std::to_string(column) + ": " + message; }

std::vector<std::string_view> watch_field_names()
{
    std::vector<std::string_view> out;
    for (const FieldInfo &i : kFields)
        out.push_back(i.name);
    return out;
}

std::optional<Watch> Watch::parse(std::string_view text, WatchError *error)
{
    auto fail = [&](std::size_t column, std::string message) -> std::optional<Watch> {
        if (error)
            *error = WatchError{column, std::move(message)};
        return std::nullopt;
    };
    const std::vector<detail::WatchToken> toks = detail::watch_tokens(text);
    const std::size_t end_col = text.size() + 1;
    if (toks.empty())
        return fail(1, "empty watch; write e.g. 'inflight a >= 2', 'a freed' or 'unix_tot_inflight'");
    for (const auto &t : toks)
        if (t.is_op &&
            std::none_of(std::begin(kOps), std::end(kOps), [&](const OpInfo &o) { return o.text == t.text; }))
            return fail(t.column, "'" + t.text + "' is not an operator" +
                                      (t.text == "=" ? std::string("; did you mean '=='?")
                                                     : std::string(" (==, !=, <, <=, >, >=)")));

    Watch w;
    w.text_ = std::string(trim(text));
    std::size_t i = 0;
    const FieldInfo *fi = nullptr;
    const auto &t0 = toks[0];
    if (t0.is_op)
        return fail(t0.column, "expected a field or a socket label before '" + t0.text + "'");
    // LABEL PREDICATE: `a freed`. A label may happen to be a field's name: `queue freed` is the
    // predicate on socket "queue", `queue freed > 0` the field of socket "freed".
    const bool predicate = toks.size() >= 2 && !toks[1].is_op && find_field(toks[1].text, Form::predicate) &&
                           (toks.size() == 2 || find_leading(t0.text) == nullptr);
    if (predicate) {
        fi = find_field(toks[1].text, Form::predicate);
        w.subject_ = t0.text;
        i = 2;
    } else if ((fi = find_leading(t0.text))) {
        i = 1;
        if (fi->form == Form::socket) {
            if (i >= toks.size() || toks[i].is_op)
                return fail(i < toks.size() ? toks[i].column : end_col,
                            "'" + t0.text + "' needs a socket label, as in '" + t0.text + " a'");
            w.subject_ = toks[i++].text;
        } else if (fi->form == Form::user) {
            if (i >= toks.size() || toks[i].is_op)
                return fail(i < toks.size() ? toks[i].column : end_col,
                            "'user' needs a user name, as in 'user alice inflight'");
            w.subject_ = toks[i++].text;
            if (i >= toks.size() || toks[i].text != "inflight")
                return fail(i < toks.size() ? toks[i].column : end_col,
                            "expected 'inflight' after the user name (user->unix_inflight)" +
                                (i < toks.size()
                                     ? detail::did_you_mean(toks[i].text, std::vector<std::string_view>{"inflight"})
                                     : std::string()));
            ++i;
        }
    } else {
        // Neither a field nor a predicate form. With two words the second was probably meant as
        // the predicate (`a fred`); otherwise the first as a field.
        if (toks.size() == 2 && !toks[1].is_op) {
            const std::string hint = detail::did_you_mean(toks[1].text, names_of({Form::predicate}));
            if (!hint.empty())
                return fail(toks[1].column, "unknown predicate '" + toks[1].text + "'" + hint);
        }
        return fail(t0.column, "unknown field '" + t0.text + "'" +
                                   detail::did_you_mean(t0.text, names_of({Form::socket, Form::global, Form::user})) +
                                   " (fields: inflight, refs, out_degree, index, scc_index, flags, queue, nr_fds, "
                                   "state; LABEL freed|alive|candidate|garbage; unix_tot_inflight, gc_in_progress, "
                                   "hitlist, unix_graph_maybe_cyclic, unix_graph_grouped; user NAME inflight)");
    }
    w.field_ = fi->field;

    if (i < toks.size()) {
        const auto &ot = toks[i];
        if (!ot.is_op)
            return fail(ot.column,
                        "unexpected '" + ot.text + "'; expected an operator (==, !=, <, <=, >, >=) or the end");
        w.op_ = std::find_if(std::begin(kOps), std::end(kOps), [&](const OpInfo &o) { return o.text == ot.text; })->op;
        if (fi->kind != Kind::number && w.op_ != WOp::eq && w.op_ != WOp::ne)
            return fail(ot.column, std::string(fi->name).insert(0, 1, '\'') + "' is compared only with == or !=");
        ++i;
        if (i >= toks.size() || toks[i].is_op)
            return fail(i < toks.size() ? toks[i].column : end_col, "expected a value after '" + ot.text + "'");
        const auto &vt = toks[i];
        const std::string &v = vt.text;
        if (v == "none") {
            w.rhs_ = WatchValue{};
        } else if (fi->kind == Kind::number) {
            std::int64_t n = 0;
            auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
            if (ec != std::errc() || p != v.data() + v.size())
                return fail(vt.column, "'" + v + "' is not a number (or 'none')");
            w.rhs_ = some(n);
        } else if (fi->kind == Kind::boolean) {
            if (v == "true" || v == "1")
                w.rhs_ = some(1);
            else if (v == "false" || v == "0")
                w.rhs_ = some(0);
            else
                return fail(vt.column, "'" + std::string(fi->name) + "' is true or false, not '" + v + "'" +
                                           detail::did_you_mean(v, std::vector<std::string_view>{"true", "false"}));
        } else {
            auto it = std::find(std::begin(kStates), std::end(kStates), v);
            if (it == std::end(kStates))
                return fail(vt.column, "unknown socket state '" + v + "'" +
                                           detail::did_you_mean(v, std::vector<std::string_view>(std::begin(kStates),
                                                                                                 std::end(kStates))) +
                                           " (unconnected, listening, connected, embryo, closed)");
            w.rhs_ = some(it - std::begin(kStates));
        }
        ++i;
    }
    if (i < toks.size())
        return fail(toks[i].column, "unexpected '" + toks[i].text + "' after the expression");
    return w;
}

bool Watch::is_condition() const { return op_ != WOp::none || info(field_).form == Form::predicate; }

WatchValue Watch::value(const Kernel &k) const
{
    switch (info(field_).form) {
    case Form::global:
        switch (field_) {
        case Field::unix_tot_inflight: return some(static_cast<std::int64_t>(k.unix_tot_inflight));
        case Field::gc_in_progress: return some(k.gc_in_progress);
        case Field::hitlist: return some(static_cast<std::int64_t>(k.hitlist.size()));
        case Field::graph_maybe_cyclic: return some(k.graph_maybe_cyclic);
        case Field::graph_grouped: return some(k.graph_grouped);
        default: return {};
        }
    case Form::user: {
        const User *u = k.find_user(subject_);
        return u ? some(static_cast<std::int64_t>(u->unix_inflight)) : WatchValue{};
    }
    case Form::socket:
    case Form::predicate: break;
    }
    if (sock_id_ == UINT32_MAX || sock_id_ >= k.socks.size()) {
        const UnixSock *u = k.find_label(subject_);
        if (!u)
            return {}; // not created yet
        sock_id_ = u->id;
    }
    return socket_value(k, k.socks[sock_id_], field_);
}

bool Watch::holds(const Kernel &k) const
{
    const WatchValue v = value(k);
    if (op_ == WOp::none)
        return !v.none && v.n != 0;
    return compare(v, op_, rhs_);
}

std::string Watch::format(const WatchValue &v) const
{
    if (v.none)
        return "none";
    switch (info(field_).kind) {
    case Kind::boolean: return v.n ? "true" : "false";
    case Kind::state:
        return v.n >= 0 && v.n < static_cast<std::int64_t>(std::size(kStates)) ? std::string(kStates[v.n]) : "?";
    case Kind::number: break;
    }
    return std::to_string(v.n);
}

void Watchpoint::reset(const Kernel &k)
{
    last_ = watch_.value(k);
    last_holds_ = watch_.holds(k);
    primed_ = true;
}

std::optional<Watchpoint::Change> Watchpoint::check(const Kernel &k)
{
    if (!primed_) {
        reset(k); // no baseline was taken: this state is the baseline
        return std::nullopt;
    }
    const WatchValue v = watch_.value(k);
    const bool h = watch_.holds(k);
    std::optional<Change> out;
    if (watch_.is_condition()) {
        if (h && !last_holds_)
            out = Change{"false", "true"};
    } else if (v != last_) {
        out = Change{watch_.format(last_), watch_.format(v)};
    }
    last_ = v;
    last_holds_ = h;
    return out;
}

std::string Watchpoint::current(const Kernel &k) const
{
    const WatchValue v = watch_.value(k);
    if (!watch_.is_condition())
        return watch_.format(v);
    const std::string truth = watch_.holds(k) ? "true" : "false";
    // A bare predicate is its own value; a comparison also shows the value it compares.
    if (info(watch_.field()).form == Form::predicate && watch_.op() == WOp::none)
        return v.none ? "none" : truth;
    return truth + " (" + watch_.format(v) + ")";
}

} // namespace inflight
