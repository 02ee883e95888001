// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/line_breakpoint.hpp"

#include "inflight/event.hpp"
#include "inflight/kernel.hpp"
#include "inflight/scene.hpp"

#include <charconv>

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

bool scene_has_statement_on_line(const Scene &scene, std::uint32_t line) { return on_line(scene.statements, line); }

} // namespace inflight
