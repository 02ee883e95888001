// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/language_service.hpp"

#include "inflight/cost_model.hpp"
#include "inflight/line_tokens.hpp"
#include "inflight/parser.hpp"
#include "inflight/run_budget.hpp"
#include "inflight/statement_table.hpp"

#include <algorithm>
#include <deque>
#include <set>

namespace inflight {
namespace {

using Kind = CompletionItem::Kind;

// The statement of one tokenized line: its process prefix, keyword and operands.
struct LineWords {
    std::vector<LineToken> tokens;
    std::deque<std::string> unescaped;
    std::string_view prefix;
    std::string_view keyword;
    std::uint32_t keyword_col = 0;
    std::vector<LineToken> operands; // after the keyword
    bool complete = true;            // false: it ends inside a string
};

LineWords words_of(std::string_view line)
{
    LineWords w;
    w.complete = tokenize_line(line, w.tokens, w.unescaped).ok;
    if (w.tokens.empty() || w.tokens[0].quoted)
        return w;
    std::size_t next = 1;
    std::string_view first = w.tokens[0].text;
    std::uint32_t col = w.tokens[0].col;
    if (const std::size_t colon = first.find(':'); colon != std::string_view::npos && colon > 0) {
        w.prefix = first.substr(0, colon);
        first.remove_prefix(colon + 1);
        col += static_cast<std::uint32_t>(colon + 1);
        if (first.empty() && w.tokens.size() > 1 && !w.tokens[1].quoted) {
            first = w.tokens[1].text;
            col = w.tokens[1].col;
            next = 2;
        }
    }
    w.keyword = first;
    w.keyword_col = col;
    w.operands.assign(w.tokens.begin() + static_cast<std::ptrdiff_t>(std::min(next, w.tokens.size())), w.tokens.end());
    return w;
}

// The names earlier lines define, by kind.
struct DefinedNames {
    std::set<std::string> sockets, labels, users, processes, tasks, addresses;
};

void split_names(std::string_view list, std::set<std::string> &into)
{
    std::size_t i = 0;
    while (i <= list.size()) {
        const std::size_t j = std::min(list.find(',', i), list.size());
        if (j > i)
            into.emplace(list.substr(i, j - i));
        i = j + 1;
    }
}

DefinedNames names_before(const std::vector<std::string_view> &lines, std::uint32_t line)
{
    DefinedNames d;
    for (std::uint32_t i = 0; i + 1 < line && i < lines.size(); ++i) {
        const LineWords w = words_of(lines[i]);
        const auto word = [&w](std::size_t k) -> std::string {
            return k < w.operands.size() && !w.operands[k].quoted &&
                           w.operands[k].text.find('=') == std::string_view::npos
                       ? std::string(w.operands[k].text)
                       : std::string();
        };
        const auto add = [](std::set<std::string> &s, std::string n) {
            if (!n.empty())
                s.insert(std::move(n));
        };
        const std::string_view k = w.keyword;
        if (k == "socketpair") {
            add(d.sockets, word(0));
            add(d.sockets, word(1));
        } else if (k == "socket") {
            add(d.sockets, word(0));
        } else if (k == "accept" || k == "dup") {
            add(d.sockets, word(1));
        } else if (k == "connect") {
            if (!word(0).empty())
                d.labels.insert("embryo(" + word(0) + ")");
        } else if (k == "recv") {
            for (const LineToken &t : w.operands)
                if (t.text.starts_with("fds="))
                    split_names(t.text.substr(4), d.sockets);
        } else if (k == "bind") {
            if (w.operands.size() > 1 && w.operands[1].text.starts_with('@'))
                d.addresses.emplace(w.operands[1].text);
        } else if (k == "user") {
            add(d.users, word(0));
        } else if (k == "process") {
            add(d.processes, word(0));
        } else if (k == "spawn") {
            std::string n = word(0);
            if (!n.empty() && n.back() == '{')
                n.pop_back();
            add(d.tasks, std::move(n));
        }
    }
    d.labels.insert(d.sockets.begin(), d.sockets.end());
    return d;
}

void add_words(std::vector<CompletionItem> &out, std::span<const std::string_view> words, Kind kind,
               std::string_view detail = {})
{
    for (std::string_view w : words)
        out.push_back(CompletionItem{std::string(w), std::string(detail), {}, kind});
}

void add_names(std::vector<CompletionItem> &out, const std::set<std::string> &names, std::string_view detail)
{
    for (const std::string &n : names)
        out.push_back(CompletionItem{n, std::string(detail), {}, Kind::name});
}

std::string statement_help(const StatementInfo &s)
{
    std::string text(s.syntax);
    if (s.name == "expect")
        text += "\nexpect inflight|queue LABEL N\nexpect error ENAME";
    else if (s.name == "ask")
        text += "\nask \"QUESTION\" answer inflight|queue LABEL N\nask \"QUESTION\" answer error ENAME\n\n"
                "In presentation mode the lesson stops on the question, the next press shows the answer, the one "
                "after it what the statement does. A wrong answer is a failed expectation.";
    else if (s.name == "setsockopt")
        text += "\nsetsockopt S passcred=on|off";
    return text + "\n\n" + std::string(s.meaning);
}

std::string setting_help(const SettingInfo &s) { return std::string(s.syntax) + "\n\n" + std::string(s.meaning); }

const char *answer_help()
{
    return "answer KIND ...: the answer the class should give, in expect's forms (freed a b, alive a, inflight a N, "
           "queue a N, error ENAME, finding WORD). Shown on the press after the question, checked like an expect "
           "once the statement after the ask has run.";
}

const char *option_meaning(std::string_view statement, std::string_view key)
{
    if (key == "fds")
        return statement == "recv" ? "fds=NEW1,NEW2,...: names for the descriptors received, in order."
                                   : "fds=A,B,...: SCM_RIGHTS: pass these descriptors (puts their sockets in flight).";
    if (key == "bytes")
        return "bytes=N: the payload size in bytes.";
    if (key == "to")
        return "to=@ADDR: send to this address (datagram sockets).";
    if (key == "user")
        return "user=NAME: the user that runs the process (default root).";
    if (key == "cpu")
        return "cpu=K: the CPU the task runs on.";
    if (key == "passrights")
        return "passrights=on|off: SO_PASSRIGHTS; off refuses SCM_RIGHTS on this socket.";
    if (key == "passcred")
        return "passcred=on|off: SO_PASSCRED.";
    if (key == "oob")
        return "oob: MSG_OOB, the out-of-band byte.";
    if (key == "peek")
        return "peek: MSG_PEEK; the message stays queued.";
    return nullptr;
}

} // namespace

std::vector<std::string_view> split_lines(std::string_view text)
{
    std::vector<std::string_view> lines;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines.push_back(line);
        pos = end + 1;
    }
    if (lines.empty() || (!text.empty() && text.back() == '\n'))
        lines.emplace_back(); // the line after a final newline, where a cursor can be
    return lines;
}

std::vector<Diagnostic> check_text(std::string_view text, const std::string &file_name)
{
    return parse_scene(text, file_name).diagnostics;
}

std::vector<CompletionItem> complete_at(std::string_view text, std::uint32_t line, std::uint32_t col,
                                        std::uint32_t *word_start)
{
    std::vector<CompletionItem> out;
    const std::vector<std::string_view> lines = split_lines(text);
    if (line == 0 || line > lines.size())
        return out;
    const std::string_view full = lines[line - 1];
    const std::string_view before = full.substr(0, std::min<std::size_t>(col ? col - 1 : 0, full.size()));
    if (before.find('#') != std::string_view::npos)
        return out; // in a comment
    // The word being typed: from the last space (or ',' and '=' for a list value) to the cursor.
    std::size_t start = before.find_last_of(" \t");
    start = start == std::string_view::npos ? 0 : start + 1;
    const std::string_view word = before.substr(start);
    LineWords w = words_of(before.substr(0, start));
    if (word_start)
        *word_start = static_cast<std::uint32_t>(start + 1);
    const DefinedNames names = names_before(lines, line);

    // The statement's own word: at the line's start, or after "p:".
    const bool typing_prefix = w.tokens.empty() && word.find(':') == std::string_view::npos;
    const bool after_prefix_only = !w.tokens.empty() && w.keyword.empty() && !w.prefix.empty();
    if (typing_prefix || after_prefix_only || (w.tokens.empty() && word.ends_with(':'))) {
        for (const StatementInfo &s : statement_table())
            if (s.takes_prefix || typing_prefix)
                out.push_back(
                    CompletionItem{std::string(s.name), std::string(s.syntax), statement_help(s), Kind::statement});
        if (typing_prefix)
            for (const std::string &p : names.processes)
                out.push_back(CompletionItem{p + ":", "process", "Runs the statement in process " + p, Kind::name});
        return out;
    }
    if (w.tokens.empty() && word.find(':') != std::string_view::npos) {
        // "p:se|": the statement after a prefix written without a space.
        if (word_start)
            *word_start = static_cast<std::uint32_t>(start + word.find(':') + 2);
        for (const StatementInfo &s : statement_table())
            if (s.takes_prefix)
                out.push_back(
                    CompletionItem{std::string(s.name), std::string(s.syntax), statement_help(s), Kind::statement});
        return out;
    }
    const StatementInfo *statement = find_statement(w.keyword);
    if (!statement)
        return out;
    const std::size_t index = w.operands.size(); // the word being typed is operand number `index`

    // key=value: complete the value (after the last ',' of a list).
    if (const std::size_t eq = word.find('='); eq != std::string_view::npos) {
        const std::string_view key = word.substr(0, eq);
        const std::string_view value = word.substr(eq + 1);
        const std::size_t comma = value.find_last_of(',');
        if (word_start)
            *word_start =
                static_cast<std::uint32_t>(start + eq + 2 + (comma == std::string_view::npos ? 0 : comma + 1));
        if (key == "fds" && statement->name == "send")
            add_names(out, names.sockets, "descriptor");
        else if (key == "to")
            add_names(out, names.addresses, "address");
        else if (key == "user")
            add_names(out, names.users, "user");
        else if (key == "passrights" || key == "passcred") {
            static constexpr std::string_view on_off[] = {"on", "off"};
            add_words(out, on_off, Kind::value);
        }
        return out;
    }

    if (statement->name == "set") {
        if (index == 0) {
            for (const SettingInfo &s : setting_table())
                out.push_back(
                    CompletionItem{std::string(s.key), std::string(s.syntax), setting_help(s), Kind::keyword});
            return out;
        }
        const SettingInfo *setting = find_setting(w.operands[0].text);
        if (!setting)
            return out;
        if (setting->key == "cost" && index == 1) {
            for (const CostInfo &c : cost_table())
                out.push_back(CompletionItem{std::string(c.name), std::to_string(c.default_ns) + " ns",
                                             std::string(c.meaning), Kind::value});
        } else if (setting->key == "limit" && index == 1) {
            for (const BudgetInfo &b : budget_table())
                if (b.id != Budget::input_bytes)
                    out.push_back(CompletionItem{std::string(b.name), std::to_string(b.default_value),
                                                 std::string(b.what), Kind::value});
        } else if (setting->key == "fix" && index == 2) {
            static constexpr std::string_view on_off[] = {"on", "off"};
            add_words(out, on_off, Kind::value);
        } else if (index == 1 || setting->key == "collectors") {
            add_words(out, setting->values, Kind::value, setting->syntax);
        }
        return out;
    }
    // An expectation's words: after `expect`, or after an ask's question and `answer`.
    const auto expectation = [&](std::span<const LineToken> operands) {
        const std::size_t at = operands.size();
        if (at == 0) {
            add_words(out, expect_kinds(), Kind::keyword, statement->syntax);
        } else if (operands[0].text == "error") {
            if (at == 1)
                add_words(out, errno_names(), Kind::value, "errno");
        } else if (operands[0].text == "freed" || operands[0].text == "alive" || at == 1) {
            add_names(out, names.labels, "label");
        }
    };
    if (statement->name == "expect") {
        expectation(w.operands);
        return out;
    }
    if (statement->name == "ask") {
        // ask "QUESTION" answer ...: nothing inside the question, `answer` after it.
        if (!w.complete || index == 0 || !w.operands[0].quoted)
            return out;
        if (index == 1)
            out.push_back(CompletionItem{"answer", std::string(statement->syntax), answer_help(), Kind::keyword});
        else if (w.operands[1].text == "answer")
            expectation(std::span<const LineToken>(w.operands).subspan(2));
        return out;
    }
    if (statement->name == "note") {
        add_words(out, era_names(), Kind::keyword, "collector");
        return out;
    }
    if (statement->name == "wait") {
        add_names(out, names.tasks, "task");
        return out;
    }
    if (statement->name == "process" && index >= 1) {
        for (std::string_view o : statement->options)
            out.push_back(CompletionItem{std::string(o) + "=", std::string(statement->syntax),
                                         option_meaning(statement->name, o), Kind::option});
        return out;
    }
    if (statement->name == "scene" || statement->name == "user" || statement->name == "process" ||
        statement->name == "variant" || statement->name == "spawn" || statement->name == "repeat") {
        if (index >= 1)
            for (std::string_view o : statement->options)
                out.push_back(CompletionItem{
                    std::string(o) + "=", std::string(statement->syntax),
                    option_meaning(statement->name, o) ? option_meaning(statement->name, o) : "", Kind::option});
        return out;
    }
    // A socket statement: the names defined so far where a name goes, then its options and flags.
    const bool defines = (statement->name == "socketpair" || statement->name == "socket") ||
                         ((statement->name == "accept" || statement->name == "dup") && index == 1);
    if (!defines)
        add_names(out, names.sockets, "descriptor");
    if (index >= 1 || statement->name == "gc") {
        for (std::string_view o : statement->options) {
            const char *m = option_meaning(statement->name, o);
            out.push_back(
                CompletionItem{std::string(o) + "=", std::string(statement->syntax), m ? m : "", Kind::option});
        }
        for (std::string_view f : statement->flags) {
            const char *m = option_meaning(statement->name, f);
            out.push_back(CompletionItem{std::string(f), std::string(statement->syntax), m ? m : "", Kind::keyword});
        }
    }
    if (statement->name == "connect" && index == 1)
        add_names(out, names.addresses, "address");
    return out;
}

std::optional<HoverText> hover_at(std::string_view text, std::uint32_t line, std::uint32_t col)
{
    const std::vector<std::string_view> lines = split_lines(text);
    if (line == 0 || line > lines.size())
        return std::nullopt;
    const LineWords w = words_of(lines[line - 1]);
    const auto covers = [col](std::uint32_t c, std::size_t length) { return col >= c && col < c + length; };
    if (!w.keyword.empty() && covers(w.keyword_col, w.keyword.size())) {
        if (const StatementInfo *s = find_statement(w.keyword))
            return HoverText{statement_help(*s), line, w.keyword_col,
                             static_cast<std::uint32_t>(w.keyword_col + w.keyword.size())};
        return std::nullopt;
    }
    for (std::size_t i = 0; i < w.operands.size(); ++i) {
        const LineToken &t = w.operands[i];
        if (t.quoted || !covers(t.col, t.text.size()))
            continue;
        const auto end = static_cast<std::uint32_t>(t.col + t.text.size());
        if (w.keyword == "ask" && i == 1 && t.text == "answer")
            return HoverText{answer_help(), line, t.col, end};
        if (w.keyword == "set" && i == 0)
            if (const SettingInfo *s = find_setting(t.text))
                return HoverText{setting_help(*s), line, t.col, end};
        const std::string_view key = t.text.substr(0, t.text.find('='));
        if (const char *m = option_meaning(w.keyword, key))
            return HoverText{m, line, t.col, end};
        if (w.keyword == "set" && i == 1 && w.operands[0].text == "cost")
            for (const CostInfo &c : cost_table())
                if (c.name == t.text)
                    return HoverText{std::string(c.name) + ": " + std::string(c.meaning) + " (default " +
                                         std::to_string(c.default_ns) + " ns)",
                                     line, t.col, end};
        return std::nullopt;
    }
    return std::nullopt;
}

std::vector<SceneSymbol> document_symbols(std::string_view text)
{
    std::vector<SceneSymbol> out;
    std::vector<std::size_t> open; // blocks not yet closed, by index into `out`
    const std::vector<std::string_view> lines = split_lines(text);
    for (std::uint32_t i = 0; i < lines.size(); ++i) {
        const std::uint32_t line = i + 1;
        const LineWords w = words_of(lines[i]);
        if (w.tokens.empty())
            continue;
        const std::string_view k = w.keyword;
        const auto symbol = [&](const LineToken &t, SceneSymbol::Kind kind, std::string detail) {
            std::string name(t.quoted ? t.value : t.text);
            if (!name.empty() && name.back() == '{' && name.size() > 1)
                name.pop_back();
            out.push_back(SceneSymbol{std::move(name), std::move(detail), kind, line, t.col,
                                      static_cast<std::uint32_t>(t.col + t.text.size()), line});
        };
        if (k.find_first_not_of('}') == std::string_view::npos && !k.empty()) {
            for (std::size_t n = 0; n < k.size() && !open.empty(); ++n) {
                out[open.back()].end_line = line;
                open.pop_back();
            }
            continue;
        }
        if (k == "scene" && !w.operands.empty())
            symbol(w.operands[0], SceneSymbol::Kind::title, "scene");
        else if (k == "user" && !w.operands.empty())
            symbol(w.operands[0], SceneSymbol::Kind::user, "user");
        else if (k == "process" && !w.operands.empty())
            symbol(w.operands[0], SceneSymbol::Kind::process, "process");
        else if (k == "socketpair" || k == "socket") {
            for (std::size_t n = 0; n < w.operands.size() && n < (k == "socket" ? 1u : 2u); ++n)
                symbol(w.operands[n], SceneSymbol::Kind::socket, std::string(k));
        } else if ((k == "accept" || k == "dup") && w.operands.size() > 1) {
            symbol(w.operands[1], SceneSymbol::Kind::socket, std::string(k));
        } else if (k == "repeat" || k == "spawn" || k == "variant") {
            std::string detail(k);
            for (const LineToken &t : w.operands)
                if (t.text != "{")
                    detail += " " + std::string(t.text);
            if (!detail.empty() && detail.back() == '{')
                detail.pop_back();
            out.push_back(SceneSymbol{detail, std::string(k), SceneSymbol::Kind::block, line, w.keyword_col,
                                      static_cast<std::uint32_t>(w.keyword_col + k.size()), line});
            open.push_back(out.size() - 1);
        }
    }
    return out;
}

} // namespace inflight
