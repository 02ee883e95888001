// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/line_breakpoint.hpp"

#include "inflight/event.hpp"
#include "inflight/kernel.hpp"
#include "inflight/scene.hpp"

#include "watch_text.hpp"

#include <algorithm>
#include <charconv>
#include <set>

namespace inflight {

namespace {

bool on_line(const std::vector<Statement> &statements, std::uint32_t line)
{
    for (const Statement &s : statements) {
        if (s.op != Op::repeat && s.loc.line == line)
            return true;
        if (on_line(s.body, line))
            return true;
    }
    return false;
}

bool blank(char c) { return c == ' ' || c == '\t'; }

// Every name the statements write (sockets, fds, processes: a superset of the labels) and the
// users they declare, or false when a name has $ parts, whose expansions only a run knows.
bool collect_names(const std::vector<Statement> &statements, std::set<std::string_view> &names,
                   std::set<std::string_view> &users)
{
    for (const Statement &s : statements) {
        for (const auto *list : {&s.names, &s.fds})
            for (const NameTemplate &n : *list) {
                if (n.has_vars())
                    return false;
                names.insert(n.text.view());
            }
        if (s.op == Op::user_decl && !s.names.empty())
            users.insert(s.names[0].text.view());
        if (s.op == Op::process_decl && !s.text.empty())
            users.insert(s.text);
        if (!collect_names(s.body, names, users))
            return false;
    }
    return true;
}

} // namespace

std::optional<LineBreakpoint> LineBreakpoint::parse(std::string_view text, WatchError *error)
{
    auto fail = [&](std::size_t column, std::string message) -> std::optional<LineBreakpoint> {
        if (error)
            *error = WatchError{column, std::move(message)};
        return std::nullopt;
    };
    std::size_t i = 0;
    while (i < text.size() && blank(text[i]))
        ++i;
    const std::size_t num_start = i;
    while (i < text.size() && !blank(text[i]))
        ++i;
    const std::string_view num = text.substr(num_start, i - num_start);
    if (num.empty())
        return fail(num_start + 1, "expected a scene line number, as in '14' or '14 if inflight a >= 2'");
    std::uint32_t line = 0;
    auto [p, ec] = std::from_chars(num.data(), num.data() + num.size(), line);
    if (ec != std::errc() || p != num.data() + num.size() || line == 0)
        return fail(num_start + 1, "'" + std::string(num) + "' is not a line number (1 or more)");
    while (i < text.size() && blank(text[i]))
        ++i;
    if (i == text.size())
        return LineBreakpoint(line);
    if (text.substr(i, 2) != "if" || (i + 2 < text.size() && !blank(text[i + 2])))
        return fail(i + 1, "expected 'if CONDITION' or the end after the line number");
    const std::size_t cond_start = i + 2;
    const std::string_view cond = text.substr(cond_start);
    if (cond.find_first_not_of(" \t") == std::string_view::npos)
        return fail(text.size() + 1, "expected a condition after 'if', as in 'inflight a >= 2'");
    WatchError e;
    std::optional<Watch> w = Watch::parse(cond, &e);
    if (!w)
        return fail(cond_start + e.column, e.message);
    return LineBreakpoint(line, std::move(w));
}

std::string LineBreakpoint::text() const
{
    std::string s = std::to_string(line_);
    if (condition_)
        s += " if " + condition_->text();
    return s;
}

bool LineBreakpoint::hits(const Event &e, const Kernel &k) const
{
    if (e.kind != EventKind::stmt_begin || e.scene_line != line_)
        return false;
    return !condition_ || condition_->holds(k);
}

std::optional<std::string> watch_subject_problem(const Watch &w, const Scene &scene)
{
    const std::string &subject = w.subject();
    const bool user = w.field() == Watch::Field::user_inflight;
    std::set<std::string_view> sockets, users{"root"}; // root: a process's user unless it names one
    if (subject.empty() || !collect_names(scene.statements, sockets, users))
        return std::nullopt;
    const std::set<std::string_view> &names = user ? users : sockets;
    if (names.count(subject))
        return std::nullopt;
    // An embryo's label, embryo(c), is c's.
    if (!user && subject.starts_with("embryo(") && subject.ends_with(")") &&
        names.count(std::string_view(subject).substr(7, subject.size() - 8)))
        return std::nullopt;
    const std::vector<std::string_view> candidates(names.begin(), names.end());
    std::string hint = detail::did_you_mean(subject, candidates);
    if (hint.empty()) {
        constexpr std::size_t kListed = 12;
        std::string list;
        for (std::size_t i = 0; i < candidates.size() && i < kListed; ++i)
            list += (i ? ", " : "") + std::string(candidates[i]);
        hint = candidates.empty() ? " (it names none)"
                                  : std::string(user ? " (its users: " : " (its names: ") + list +
                                        (candidates.size() > kListed ? ", ..." : "") + ")";
    }
    return std::string("no statement of the scene names ") + (user ? "a user '" : "a socket '") + subject +
           "', so it would read none throughout" + hint;
}

bool scene_has_statement_on_line(const Scene &scene, std::uint32_t line) { return on_line(scene.statements, line); }

} // namespace inflight
