// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/name_template.hpp"
#include "inflight/utf8.hpp"
#include "parser_detail.hpp"

#include <charconv>
#include <limits>

namespace inflight {

namespace {

// Deep enough for any expression a person writes, shallow enough that a line of a million '('
// cannot exhaust the stack.
constexpr int kMaxExprDepth = 100;

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_space(char c) { return c == ' ' || c == '\t'; }

// The character at t[i] for a message: the whole code point, not its first byte. An invisible
// one (U+202E, which shows a name backwards) only by its number, a visible one also as itself.
std::string quote_char(std::string_view t, std::size_t i)
{
    const std::size_t n = utf8_sequence(t, i);
    if (n <= 1)
        return "'" + printable(t.substr(i, 1)) + "'";
    const char32_t cp = utf8_code_point(t, i, n);
    if (is_invisible_code_point(cp))
        return code_point_name(cp);
    return "'" + std::string(t.substr(i, n)) + "' (" + code_point_name(cp) + ")";
}

// One walk over a template, shared by expansion (evaluate = true, values from Bindings) and the
// parser's syntax check (evaluate = false, variables only need to be bound). The first syntax
// problem stops the walk; an arithmetic problem is remembered but the walk goes on, so that a
// later syntax error (which does not depend on the values) is the one reported.
template <class Lookup>
class Walker {
public:
    Walker(std::string_view text, Lookup lookup, bool evaluate) : t_(text), lookup_(lookup), evaluate_(evaluate) { }

    // check_literals: reject literal characters outside [A-Za-z0-9_] + extra.
    bool run(bool check_literals, std::string_view extra, std::string_view what)
    {
        while (p_ < t_.size() && !failed()) {
            const char c = t_[p_];
            if (c == '$') {
                dollar();
                continue;
            }
            if (check_literals && !is_ident_char(c) && extra.find(c) == std::string_view::npos) {
                syntax(p_, "character " + quote_char(t_, p_) + " is not allowed in " + std::string(what));
                break;
            }
            if (evaluate_)
                out_ += c;
            ++p_;
        }
        return !failed() && !arith_;
    }

    const std::string &output() const { return out_; }

    void report(std::string *error, std::size_t *offset) const
    {
        if (error)
            *error = syntax_ ? syntax_msg_ : arith_msg_;
        if (offset)
            *offset = syntax_ ? syntax_at_ : arith_at_;
    }

private:
    bool failed() const { return syntax_; }

    void syntax(std::size_t at, std::string message)
    {
        if (syntax_)
            return;
        syntax_ = true;
        syntax_at_ = at;
        syntax_msg_ = std::move(message);
    }

    void arith(std::size_t at, std::string message)
    {
        if (arith_ || !evaluate_)
            return;
        arith_ = true;
        arith_at_ = at;
        arith_msg_ = std::move(message);
    }

    void skip_spaces()
    {
        while (p_ < t_.size() && is_space(t_[p_]))
            ++p_;
    }

    void dollar()
    {
        const std::size_t start = p_;
        ++p_;
        if (p_ < t_.size() && t_[p_] == '{') {
            ++p_;
            skip_spaces();
            if (p_ < t_.size() && t_[p_] == '}') {
                syntax(start, "empty expression '${}'");
                return;
            }
            const std::int64_t value = sum(0);
            if (failed())
                return;
            skip_spaces();
            if (p_ >= t_.size()) {
                syntax(start, "missing '}' to close '${'");
                return;
            }
            if (t_[p_] != '}') {
                syntax(p_, "unexpected " + quote_char(t_, p_) + " in expression");
                return;
            }
            ++p_;
            append(value);
            return;
        }
        if (p_ < t_.size() && is_ident_start(t_[p_])) {
            const std::size_t name_start = p_;
            while (p_ < t_.size() && is_ident_char(t_[p_]))
                ++p_;
            append(variable(t_.substr(name_start, p_ - name_start), start));
            return;
        }
        syntax(start, "'$' must be followed by a variable name or '{expression}'");
    }

    void append(std::int64_t value)
    {
        if (evaluate_ && !arith_)
            out_ += std::to_string(value);
    }

    std::int64_t variable(std::string_view name, std::size_t at)
    {
        std::int64_t value = 0;
        if (!lookup_(name, value))
            syntax(at, "variable '" + std::string(name) + "' is not bound by an enclosing repeat");
        return value;
    }

    // sum := product (('+' | '-') product)*
    std::int64_t sum(int depth)
    {
        std::int64_t value = product(depth);
        for (;;) {
            skip_spaces();
            if (failed() || p_ >= t_.size() || (t_[p_] != '+' && t_[p_] != '-'))
                return value;
            const char op = t_[p_];
            const std::size_t at = p_++;
            const std::int64_t rhs = product(depth);
            std::int64_t result = 0;
            const bool overflow =
                op == '+' ? __builtin_add_overflow(value, rhs, &result) : __builtin_sub_overflow(value, rhs, &result);
            if (overflow)
                arith(at, "arithmetic overflow");
            value = result;
        }
    }

    // product := unary (('*' | '/' | '%') unary)*
    std::int64_t product(int depth)
    {
        std::int64_t value = unary(depth);
        for (;;) {
            skip_spaces();
            if (failed() || p_ >= t_.size() || (t_[p_] != '*' && t_[p_] != '/' && t_[p_] != '%'))
                return value;
            const char op = t_[p_];
            const std::size_t at = p_++;
            const std::int64_t rhs = unary(depth);
            value = apply(op, value, rhs, at);
        }
    }

    std::int64_t apply(char op, std::int64_t a, std::int64_t b, std::size_t at)
    {
        if (op == '*') {
            std::int64_t result = 0;
            if (__builtin_mul_overflow(a, b, &result))
                arith(at, "arithmetic overflow");
            return result;
        }
        if (b == 0) {
            arith(at, "division by zero");
            return 0;
        }
        if (b == -1) // INT64_MIN / -1 overflows, and INT64_MIN % -1 is undefined in C++
            return op == '%' ? 0 : negate(a, at);
        // Floored division, as in Python: (i - 1) % 4 is 3 when i is 0, which is what a ring of
        // sockets wants; and a == (a / b) * b + a % b still holds.
        std::int64_t q = a / b;
        std::int64_t r = a % b;
        if (r != 0 && ((r < 0) != (b < 0))) {
            q -= 1;
            r += b;
        }
        return op == '/' ? q : r;
    }

    std::int64_t negate(std::int64_t a, std::size_t at)
    {
        if (a == std::numeric_limits<std::int64_t>::min()) {
            arith(at, "arithmetic overflow");
            return 0;
        }
        return -a;
    }

    // unary := ('-' | '+') unary | primary
    std::int64_t unary(int depth)
    {
        if (depth > kMaxExprDepth) {
            syntax(p_, "expression is nested too deeply");
            return 0;
        }
        skip_spaces();
        if (p_ < t_.size() && (t_[p_] == '-' || t_[p_] == '+')) {
            const char op = t_[p_];
            const std::size_t at = p_++;
            const std::int64_t value = unary(depth + 1);
            return op == '-' ? negate(value, at) : value;
        }
        return primary(depth);
    }

    // primary := number | variable | '(' sum ')'
    std::int64_t primary(int depth)
    {
        skip_spaces();
        if (p_ >= t_.size() || t_[p_] == '}') {
            syntax(p_, "expression ends unexpectedly");
            return 0;
        }
        const char c = t_[p_];
        if (is_digit(c)) {
            const std::size_t start = p_;
            std::int64_t value = 0;
            bool too_large = false;
            while (p_ < t_.size() && is_digit(t_[p_])) {
                if (__builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, t_[p_] - '0', &value))
                    too_large = true;
                ++p_;
            }
            if (too_large)
                syntax(start, "number too large in expression");
            if (p_ < t_.size() && is_ident_start(t_[p_]))
                syntax(p_, "unexpected " + quote_char(t_, p_) + " after a number in expression");
            return value;
        }
        if (is_ident_start(c)) {
            const std::size_t start = p_;
            while (p_ < t_.size() && is_ident_char(t_[p_]))
                ++p_;
            return variable(t_.substr(start, p_ - start), start);
        }
        if (c == '(') {
            const std::size_t open = p_++;
            const std::int64_t value = sum(depth + 1);
            if (failed())
                return 0;
            skip_spaces();
            if (p_ >= t_.size() || t_[p_] != ')') {
                syntax(open, "unclosed '(' in expression");
                return 0;
            }
            ++p_;
            return value;
        }
        if (c == '$') {
            syntax(p_, "write loop variables inside ${...} without '$'");
            return 0;
        }
        syntax(p_, "unexpected " + quote_char(t_, p_) + " in expression");
        return 0;
    }

    std::string_view t_;
    Lookup lookup_;
    bool evaluate_;
    std::size_t p_ = 0;
    std::string out_;
    bool syntax_ = false;
    std::size_t syntax_at_ = 0;
    std::string syntax_msg_;
    bool arith_ = false;
    std::size_t arith_at_ = 0;
    std::string arith_msg_;
};

} // namespace

namespace {

// The usual templates ("s$i", "c${i}" aside) only name loop variables: expands those in one
// pass with no expression walker. False (out unspecified) when the text has anything else
// after a '$' or an unbound variable: the walker then expands it, or reports the error.
bool expand_plain_vars(std::string_view text, const Bindings &bindings, std::string &out)
{
    out.clear();
    out.reserve(text.size() + 16);
    std::size_t p = 0;
    while (p < text.size()) {
        const std::size_t dollar = text.find('$', p);
        if (dollar == std::string_view::npos) {
            out.append(text, p);
            break;
        }
        out.append(text, p, dollar - p);
        p = dollar + 1;
        if (p >= text.size() || !is_ident_start(text[p]))
            return false;
        const std::size_t name_start = p;
        while (p < text.size() && is_ident_char(text[p]))
            ++p;
        const std::string_view name = text.substr(name_start, p - name_start);
        auto it = bindings.rbegin(); // innermost binding last: an inner variable hides an outer one
        while (it != bindings.rend() && it->first != name)
            ++it;
        if (it == bindings.rend())
            return false;
        char buf[24];
        const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, it->second);
        out.append(buf, static_cast<std::size_t>(end - buf));
    }
    return true;
}

} // namespace

std::optional<std::string> expand_name(std::string_view text, const Bindings &bindings, std::string *error,
                                       std::size_t *error_offset)
{
    if (text.find('$') == std::string_view::npos)
        return std::string(text);
    if (std::string fast; expand_plain_vars(text, bindings, fast))
        return fast;
    auto lookup = [&bindings](std::string_view name, std::int64_t &value) {
        // Innermost binding last: search backwards so an inner loop variable hides an outer one.
        for (auto it = bindings.rbegin(); it != bindings.rend(); ++it) {
            if (it->first == name) {
                value = it->second;
                return true;
            }
        }
        return false;
    };
    Walker<decltype(lookup)> walker(text, lookup, true);
    if (!walker.run(false, {}, {})) {
        walker.report(error, error_offset);
        return std::nullopt;
    }
    return walker.output();
}

std::string expand(const NameTemplate &name, const Bindings &bindings)
{
    if (!name.has_vars())
        return std::string(name.text);
    auto expanded = expand_name(name.text, bindings);
    return expanded ? std::move(*expanded) : std::string(name.text);
}

bool detail::check_name_template(std::string_view text, const std::vector<std::string> &bound_vars,
                                 std::string_view extra_literal_chars, std::string_view what, std::string *error,
                                 std::size_t *error_offset)
{
    auto lookup = [&bound_vars](std::string_view name, std::int64_t &value) {
        value = 0;
        for (const auto &var : bound_vars)
            if (var == name)
                return true;
        return false;
    };
    Walker<decltype(lookup)> walker(text, lookup, false);
    if (!walker.run(true, extra_literal_chars, what)) {
        walker.report(error, error_offset);
        return false;
    }
    return true;
}

} // namespace inflight
