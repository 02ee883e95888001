// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/line_tokens.hpp"

#include "inflight/statement_table.hpp"

#include <algorithm>
#include <limits>

namespace inflight {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::uint32_t to_u32(std::size_t n)
{
    return n > std::numeric_limits<std::uint32_t>::max() ? std::numeric_limits<std::uint32_t>::max()
                                                         : static_cast<std::uint32_t>(n);
}

bool is_number(std::string_view s)
{
    if (!s.empty() && s[0] == '-')
        s.remove_prefix(1);
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool contains(std::span<const std::string_view> words, std::string_view w)
{
    return std::find(words.begin(), words.end(), w) != words.end();
}

} // namespace

LineTokenizeResult tokenize_line(std::string_view line, std::vector<LineToken> &out, std::deque<std::string> &unescaped)
{
    LineTokenizeResult r;
    std::size_t p = 0;
    while (p < line.size()) {
        while (p < line.size() && is_space(line[p]))
            ++p;
        if (p >= line.size())
            break;
        if (line[p] == '#') {
            r.comment_col = to_u32(p + 1);
            break;
        }
        const std::size_t start = p;
        LineToken t;
        t.col = to_u32(start + 1);
        if (line[p] == '"') {
            t.quoted = true;
            ++p;
            bool closed = false;
            bool escaped = false;
            std::string value;
            const std::size_t content = p;
            while (p < line.size()) {
                const char c = line[p];
                if (c == '"') {
                    closed = true;
                    ++p;
                    break;
                }
                if (c == '\\' && p + 1 < line.size() && (line[p + 1] == '"' || line[p + 1] == '\\')) {
                    escaped = true;
                    value += line[p + 1];
                    p += 2;
                    continue;
                }
                if (c == '\\' && !r.bad_escape_col)
                    r.bad_escape_col = to_u32(p + 1);
                value += c;
                ++p;
            }
            if (escaped)
                t.value = unescaped.emplace_back(std::move(value));
            else
                t.value = line.substr(content, p - content - (closed ? 1 : 0));
            t.text = line.substr(start, p - start);
            out.push_back(t);
            if (!closed) {
                r.ok = false;
                return r;
            }
            continue;
        }
        // A bare token ends at a space, a comment or a quote; ${...} may contain spaces.
        while (p < line.size() && !is_space(line[p]) && line[p] != '#' && line[p] != '"') {
            if (line[p] == '$' && p + 1 < line.size() && line[p + 1] == '{') {
                p += 2;
                while (p < line.size() && line[p] != '}' && line[p] != '#' && line[p] != '"')
                    ++p;
                if (p < line.size() && line[p] == '}')
                    ++p;
                continue;
            }
            ++p;
        }
        t.text = line.substr(start, p - start);
        out.push_back(t);
    }
    return r;
}

std::vector<SyntaxToken> syntax_tokens(std::string_view line)
{
    std::vector<LineToken> tokens;
    std::deque<std::string> unescaped;
    const LineTokenizeResult r = tokenize_line(line, tokens, unescaped);
    std::vector<SyntaxToken> out;
    const auto add = [&out](std::uint32_t col, std::size_t length, SyntaxKind kind) {
        if (length > 0)
            out.push_back(SyntaxToken{col, to_u32(length), kind});
    };
    const StatementInfo *statement = nullptr;
    bool after_set = false; // the word after `set` is a key
    std::size_t word = 0;   // words of the statement so far (the keyword is 0)
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const LineToken &t = tokens[i];
        if (t.quoted) {
            add(t.col, t.text.size(), !r.ok && i + 1 == tokens.size() ? SyntaxKind::error : SyntaxKind::string);
            ++word;
            continue;
        }
        std::string_view text = t.text;
        std::uint32_t col = t.col;
        if (!statement && word == 0) {
            // "p:" or "p:send": a process prefix before the statement.
            const std::size_t colon = text.find(':');
            if (colon != std::string_view::npos && colon > 0) {
                add(col, colon + 1, SyntaxKind::prefix);
                text.remove_prefix(colon + 1);
                col += to_u32(colon + 1);
                if (text.empty())
                    continue;
            }
            if (text.find_first_not_of('}') == std::string_view::npos || text == "{") {
                add(col, text.size(), SyntaxKind::brace);
                continue;
            }
            statement = find_statement(text);
            add(col, text.size(), statement ? SyntaxKind::keyword : SyntaxKind::name);
            after_set = statement && statement->name == "set";
            word = 1;
            continue;
        }
        if (text == "{" || text == "}") {
            add(col, text.size(), SyntaxKind::brace);
            continue;
        }
        const std::size_t eq = text.find('=');
        if (eq != std::string_view::npos && eq > 0) {
            add(col, eq + 1, SyntaxKind::option);
            const std::string_view value = text.substr(eq + 1);
            const std::uint32_t vcol = col + to_u32(eq + 1);
            add(vcol, value.size(),
                value.starts_with('@')            ? SyntaxKind::address
                : is_number(value)                ? SyntaxKind::number
                : value == "on" || value == "off" ? SyntaxKind::flag
                                                  : SyntaxKind::name);
        } else if (text.starts_with('@')) {
            add(col, text.size(), SyntaxKind::address);
        } else if (text.starts_with('$')) {
            add(col, text.size(), SyntaxKind::variable);
        } else if (is_number(text)) {
            add(col, text.size(), SyntaxKind::number);
        } else if (after_set && word == 1) {
            add(col, text.size(), find_setting(text) ? SyntaxKind::flag : SyntaxKind::name);
        } else if (after_set) {
            const SettingInfo *setting = nullptr;
            if (i >= 1 && !tokens[i - 1].quoted)
                for (std::size_t k = 0; k < i; ++k)
                    if (const SettingInfo *s = find_setting(tokens[k].text))
                        setting = s;
            add(col, text.size(), setting && contains(setting->values, text) ? SyntaxKind::flag : SyntaxKind::name);
        } else if (statement &&
                   (contains(statement->flags, text) ||
                    (statement->name == "expect" && word == 1 && contains(expect_kinds(), text)) ||
                    ((statement->name == "expect" || statement->name == "ask") && contains(errno_names(), text)))) {
            add(col, text.size(), SyntaxKind::flag);
        } else {
            add(col, text.size(), SyntaxKind::name);
        }
        ++word;
    }
    if (r.comment_col)
        add(r.comment_col, line.size() - (r.comment_col - 1), SyntaxKind::comment);
    return out;
}

} // namespace inflight
