// SPDX-License-Identifier: GPL-3.0-or-later
// parse_scene(): turns scene text (scenes/LANGUAGE.md) into a Scene. Line-oriented: each line is
// tokenized and parsed on its own, every problem becomes a Diagnostic, and parsing goes on with
// the next line, so one run reports every mistake in a file. Only repeat, spawn and variant blocks
// span lines.
#include "inflight/parser.hpp"

#include "inflight/cost_model.hpp"
#include "inflight/kernel_profile.hpp"
#include "inflight/line_tokens.hpp"
#include "inflight/name_template.hpp"
#include "inflight/statement_table.hpp"
#include "inflight/utf8.hpp"
#include "parser_detail.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace inflight {

// Defined in name_template.cpp and scene_check.cpp; engine-internal, so not in public headers.

namespace {

constexpr std::int64_t kMaxRepeatCount = 1'000'000'000;
// Deeper nesting than any scene needs; the bound keeps the recursive walks over Statement
// (checks, copies, destruction) far from the stack limit whatever the input.
constexpr std::size_t kMaxRepeatDepth = 100;
// Tokens quoted in messages are shortened to this many bytes: a 10 MB junk token must not make
// a 10 MB diagnostic.
constexpr std::size_t kShowMax = 40;

constexpr std::array<std::string_view, 3> kAutobindModes{"sequential", "random-v1", "random"};
constexpr std::array<std::string_view, 2> kTableLocks{"global", "per-bucket"};
constexpr std::uint32_t kMaxCpus = 1024;
constexpr std::uint64_t kMaxCostNs = 1'000'000'000'000; // 1000 s: anything more is a typo
constexpr std::uint64_t kMaxSpliceBytes = 1ull << 40;
// The name the simulation gives the kernel's worker task; a spawn may not take it.
constexpr std::string_view kKworker = "kworker";

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

bool is_identifier(std::string_view s)
{
    return !s.empty() && is_ident_start(s[0]) && std::all_of(s.begin(), s.end(), is_ident_char);
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

std::uint32_t to_u32(std::size_t n)
{
    return n > std::numeric_limits<std::uint32_t>::max() ? std::numeric_limits<std::uint32_t>::max()
                                                         : static_cast<std::uint32_t>(n);
}

// "UTF-16LE" when `text` is UTF-16 (a byte-order mark, or a NUL beside the first character,
// which a scene never starts with), else "".
std::string_view utf16_encoding(std::string_view text)
{
    if (text.size() < 2)
        return {};
    const auto b0 = static_cast<unsigned char>(text[0]), b1 = static_cast<unsigned char>(text[1]);
    if ((b0 == 0xFF && b1 == 0xFE) || (b0 != 0 && b1 == 0))
        return b0 == 0xFF ? "UTF-16LE (it starts with the byte-order mark FF FE)" : "UTF-16LE";
    if ((b0 == 0xFE && b1 == 0xFF) || (b0 == 0 && b1 != 0))
        return b0 == 0xFE ? "UTF-16BE (it starts with the byte-order mark FE FF)" : "UTF-16BE";
    return {};
}

// The line that starts at text[pos], without its LF or CRLF; pos moves to the next one.
std::string_view next_line(std::string_view text, std::size_t &pos)
{
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    std::string_view line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    pos = end + 1;
    return line;
}

// The column of the first CR in `line` outside its strings and its comment (where it is text
// like any other byte), if any.
std::optional<std::uint32_t> stray_carriage_return(std::string_view line, const std::vector<LineToken> &tokens,
                                                   std::uint32_t comment_col)
{
    const std::size_t end = comment_col ? comment_col - 1 : line.size();
    for (std::size_t i = line.find('\r'); i < end; i = line.find('\r', i + 1)) {
        const char *at = line.data() + i;
        const bool in_string = std::any_of(tokens.begin(), tokens.end(), [&](const LineToken &t) {
            return t.quoted && at >= t.text.data() && at < t.text.data() + t.text.size();
        });
        if (!in_string)
            return to_u32(i + 1);
    }
    return std::nullopt;
}

// A token as it may appear inside a message: shortened, escaped as for a terminal (printable()).
std::string show(std::string_view s)
{
    bool cut = false;
    if (s.size() > kShowMax) {
        std::size_t n = kShowMax - 3;
        while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80)
            --n; // do not cut a UTF-8 sequence in half
        s = s.substr(0, n);
        cut = true;
    }
    std::string out = "'" + printable(s);
    if (cut)
        out += "...";
    return out + "'";
}

// The candidate within edit distance 2 of `word` (or differing only in case), if any.
template <class Candidates>
std::string_view closest_candidate(std::string_view word, const Candidates &candidates)
{
    std::string_view best;
    std::size_t best_distance = 3;
    for (std::string_view c : candidates) {
        const bool same_but_case =
            c.size() == word.size() && std::equal(c.begin(), c.end(), word.begin(), [](char x, char y) {
                return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
            });
        const std::size_t d = same_but_case ? 0 : edit_distance(word, c, 2);
        // The distance must also be smaller than the word, or "x" would suggest "gc".
        if (d < best_distance && d < word.size()) {
            best = c;
            best_distance = d;
        }
    }
    return best;
}

template <class Words>
std::string one_of(const Words &words, std::string_view suffix = {})
{
    std::string out;
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (i > 0)
            out += i + 1 == words.size() ? " or " : ", ";
        out += std::string(words[i]) + std::string(suffix);
    }
    return out;
}

using Token = LineToken;

// key=value, with the column of the value.
struct Option {
    const Token *token;
    std::string_view key;
    std::string_view value;
    std::uint32_t value_col;
};

// The operands after a statement keyword, sorted by shape.
struct Operands {
    std::vector<const Token *> words;     // positional operands
    std::vector<Option> options;          // key=value
    std::vector<const Token *> flags;     // words this statement knows as flags (oob, dgram, ...)
    std::vector<const Token *> addresses; // @name
    std::vector<const Token *> strings;   // "quoted"
};

enum class NumberStatus { ok, not_a_number, too_large };

struct Number {
    NumberStatus status = NumberStatus::not_a_number;
    bool negative = false;
    std::uint64_t magnitude = 0;
};

// Decimal digits with an optional '-'; no '+', spaces, separators or other bases.
Number parse_number(std::string_view s)
{
    Number n;
    if (!s.empty() && s[0] == '-') {
        n.negative = true;
        s.remove_prefix(1);
    }
    if (s.empty())
        return n;
    for (const char c : s) {
        if (c < '0' || c > '9')
            return n;
        if (__builtin_mul_overflow(n.magnitude, 10u, &n.magnitude) ||
            __builtin_add_overflow(n.magnitude, static_cast<unsigned>(c - '0'), &n.magnitude)) {
            n.status = NumberStatus::too_large;
            return n;
        }
    }
    n.status = NumberStatus::ok;
    return n;
}

enum class BlockKind : unsigned char { repeat, spawn, variant };

std::string_view block_word(BlockKind k)
{
    switch (k) {
    case BlockKind::repeat: return "repeat";
    case BlockKind::spawn: return "spawn";
    case BlockKind::variant: return "variant";
    }
    return "block";
}

struct Block {
    BlockKind kind = BlockKind::repeat;
    Statement stmt;              // the repeat or spawn statement being filled (variant: only its loc)
    bool keep = true;            // false inside a block that was rejected or nested too deeply: its
                                 // statements are dropped (their '{' and '}' still balance)
    bool awaiting_brace = false; // the block's line lacked its '{'; a lone '{' line may follow
    bool binds = false;          // a repeat: pushed its loop variable onto bound_
    std::size_t variant = 0;     // a variant: index into Parser::variants_
};

// One `set` line, parsed: what it sets, canonically (to tell a harmless repetition from a
// conflict), and how to apply it. Variant blocks keep theirs until the scene's own settings are
// final, then apply them on top.
struct SettingChange {
    std::string key;       // "gc", "fix unify-scc-index", "cost lock", ...
    std::string value;     // canonical
    std::uint32_t col = 0; // of the value, for a conflict
    std::function<void(SceneSettings &)> apply;
};

struct SetRecord {
    std::uint32_t line = 0;
    std::string value; // canonical, to tell a harmless repetition from a conflict
};

// A variant block being read; it becomes a SceneVariant in finish(), once the scene's own
// settings are final.
struct PendingVariant {
    std::string name;
    SourceLoc loc;
    bool valid = false; // named, and the name is new
    std::vector<SettingChange> changes;
    std::unordered_map<std::string, SetRecord> seen;          // conflicts within the block
    std::vector<std::pair<KernelChange, SourceLoc>> fixes_on; // its `set fix NAME [on]` lines
};

class Parser {
public:
    Parser(ParseResult &result, std::string file, const ParseLimits *limits = nullptr) : r_(result), limits_(limits)
    {
        r_.scene.file = std::move(file);
    }

    void parse(std::string_view text)
    {
        // A UTF-8 byte-order mark (Windows editors write one) is not part of the first word.
        // Columns on line 1 count from after it.
        constexpr std::string_view bom = "\xEF\xBB\xBF";
        if (const std::string_view utf16 = utf16_encoding(text); !utf16.empty()) {
            // Read as UTF-8, every other byte is a NUL: each line would be one "unknown
            // statement" of garbage. The whole file is the one problem.
            line_ = 1;
            error(1, "the file is encoded as " + std::string(utf16) +
                         ", not UTF-8; scenes are UTF-8 text: save it again choosing UTF-8 as the encoding");
            keep_lines_unparsed(text);
            return;
        }
        if (text.substr(0, bom.size()) == bom)
            text.remove_prefix(bom.size());
        if (text.substr(0, bom.size()) == bom) {
            // Invisible in an editor, and a terminal would show the message's quote of the
            // first word as if nothing were in front of it.
            text.remove_prefix(bom.size());
            line_ = 1;
            error(1,
                  "a second byte-order mark (" + code_point_name(0xFEFF) +
                      ") follows the first; it is skipped too, but other tools read it as part of the first "
                      "word: delete it",
                  Diagnostic::Severity::warning);
        }
        std::uint32_t line_no = 0;
        std::size_t pos = 0;
        std::uint32_t non_utf8_lines = 0;
        SourceLoc first_non_utf8;
        if (const std::size_t cr = text.find('\r'); cr != std::string_view::npos &&
                                                    text.find('\n') == std::string_view::npos &&
                                                    text.find_first_not_of('\r', cr) != std::string_view::npos) {
            // The whole file is one line to the parser, while an editor shows many: the first
            // statement would swallow the others. Where the first line ends, all agree.
            line_ = 1;
            error(to_u32(cr + 1), "the lines of this file end with a carriage return (" + code_point_name(0x0D) +
                                      ") alone, as classic Mac OS wrote them; scenes end lines with LF or CRLF: "
                                      "convert it, e.g. with tr '\\r' '\\n' < OLD > NEW");
            keep_lines_unparsed(text);
            return;
        }
        while (pos < text.size()) {
            const std::string_view line = next_line(text, pos);
            ++line_no;
            r_.scene.lines.emplace_back(line);
            line_ = line_no;
            if (const auto bad = first_invalid_utf8(line); bad && non_utf8_lines++ == 0)
                first_non_utf8 = SourceLoc{line_no, to_u32(*bad + 1)};
            parse_line(line);
        }
        if (non_utf8_lines) {
            // One warning for the file: a Latin-1 file has the same problem on every line.
            line_ = first_non_utf8.line;
            char byte[8];
            const std::string_view l = r_.scene.lines[first_non_utf8.line - 1];
            std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(l[first_non_utf8.col - 1]));
            error(first_non_utf8.col,
                  std::string("byte ") + byte + " is not UTF-8" +
                      (non_utf8_lines > 1 ? " (nor are " + std::to_string(non_utf8_lines - 1) + " more lines)" : "") +
                      "; JSON output shows such bytes as U+FFFD and text output as \\xNN",
                  Diagnostic::Severity::warning);
        }
        finish();
    }

private:
    // A file whose one problem is its encoding or its line ends: its lines, for the positions of
    // that diagnostic, without a diagnostic for each.
    void keep_lines_unparsed(std::string_view text)
    {
        for (std::size_t pos = 0; pos < text.size();)
            r_.scene.lines.emplace_back(next_line(text, pos));
    }

    // ---- diagnostics ------------------------------------------------------------------------

    void error(std::uint32_t col, std::string message, Diagnostic::Severity severity = Diagnostic::Severity::error)
    {
        error_at(SourceLoc{line_, col}, std::move(message), severity);
    }

    void error_at(SourceLoc loc, std::string message, Diagnostic::Severity severity = Diagnostic::Severity::error)
    {
        Diagnostic d;
        d.severity = severity;
        d.file = r_.scene.file;
        d.loc = loc;
        d.message = std::move(message);
        // The did-you-mean of this message becomes its fix-it when the word it was made for is
        // the one the message points at.
        if (suggestion_ && loc.line == line_ && loc.line >= 1 && loc.line <= r_.scene.lines.size()) {
            const std::string_view text = r_.scene.lines[loc.line - 1];
            if (loc.col >= 1 && text.substr(loc.col - 1, suggestion_->first.size()) == suggestion_->first)
                d.fix = FixIt{loc.line, loc.col, to_u32(loc.col + suggestion_->first.size()), suggestion_->second};
        }
        suggestion_.reset();
        keep_diagnostic(r_.diagnostics, std::move(d), dropped_);
    }

    // "; did you mean 'send'?" when a candidate is close to `word`; the next error() made at
    // `word`'s column carries the replacement as its fix-it.
    template <class Candidates>
    std::string did_you_mean(std::string_view word, const Candidates &candidates)
    {
        const std::string_view best = closest_candidate(word, candidates);
        if (best.empty())
            return {};
        suggestion_.emplace(std::string(word), std::string(best));
        return "; did you mean '" + std::string(best) + "'?";
    }

    // The words of a line whose statement was dropped: the checker will not complain about them
    // as unknown names, labels or processes later (that would only repeat this line's error).
    void drop_line(std::span<const Token> tokens)
    {
        for (const Token &t : tokens) {
            std::string_view s = t.quoted ? std::string_view() : t.text;
            std::size_t i = 0;
            while (i < s.size()) {
                const std::size_t j = s.find_first_of(",=:@()", i);
                const std::string_view piece = s.substr(i, j == std::string_view::npos ? s.npos : j - i);
                if (!piece.empty())
                    unreliable_.emplace(piece);
                if (j == std::string_view::npos)
                    break;
                i = j + 1;
            }
        }
    }

    // ---- tokens -----------------------------------------------------------------------------

    // Splits a line into tokens (tokenize_line()); returns false (after reporting) for an
    // unterminated string.
    bool tokenize(std::string_view line, std::vector<Token> &out)
    {
        const LineTokenizeResult r = tokenize_line(line, out, unescaped_);
        if (const auto cr = stray_carriage_return(line, out, r.comment_col)) {
            // The tokenizer reads it as a space, an editor shows a line break there and a
            // terminal moves back to the start of the line: three different statements.
            error(*cr, "a carriage return (" + code_point_name(0x0D) +
                           ") in the middle of a line; lines end with LF or CRLF: delete it, or break the line there");
            return false;
        }
        if (r.bad_escape_col)
            error(r.bad_escape_col, "unknown escape in string; only \\\" and \\\\ are allowed");
        if (!r.ok)
            error(out.back().col, "unterminated string: missing closing '\"'");
        return r.ok;
    }

    // ---- lines ------------------------------------------------------------------------------

    void parse_line(std::string_view line)
    {
        unescaped_.clear();
        std::vector<Token> tokens;
        if (!tokenize(line, tokens)) {
            drop_line(tokens);
            return;
        }
        if (tokens.empty())
            return;

        // "p: stmt" or "p:stmt": the statement runs in process p.
        std::string prefix;
        std::uint32_t prefix_col = 0;
        std::size_t first = 0;
        Token split_keyword; // the "stmt" of "p:stmt"
        const Token *keyword = &tokens[0];
        if (!tokens[0].quoted) {
            const std::size_t colon = tokens[0].text.find(':');
            if (colon != std::string_view::npos && colon > 0) {
                const std::string_view name = tokens[0].text.substr(0, colon);
                prefix_col = tokens[0].col;
                if (!is_identifier(name)) {
                    error(prefix_col, "bad process name " + show(name) +
                                          ": process names are letters, digits and _, not starting with a digit");
                    drop_line(tokens);
                    return;
                }
                prefix = std::string(name);
                if (colon + 1 < tokens[0].text.size()) {
                    split_keyword.text = tokens[0].text.substr(colon + 1);
                    split_keyword.col = to_u32(tokens[0].col + colon + 1);
                    keyword = &split_keyword;
                    first = 1;
                } else if (tokens.size() > 1) {
                    keyword = &tokens[1];
                    first = 2;
                } else {
                    error(prefix_col, "missing statement after '" + prefix + ":'");
                    return;
                }
            }
        }
        if (prefix.empty())
            first = 1;
        const std::span<const Token> rest = std::span<const Token>(tokens).subspan(std::min(first, tokens.size()));

        Line l{tokens, *keyword, rest, prefix, prefix_col};
        const std::string_view kw = keyword->quoted ? std::string_view() : keyword->text;

        if (!kw.empty() && kw.find_first_not_of('}') == std::string_view::npos) {
            close_blocks(l);
            return;
        }
        if (kw == "{") {
            open_brace(l);
            return;
        }
        // The one table of statements (statement_table.cpp) says how each line reads.
        const StatementInfo *info = kw.empty() ? nullptr : find_statement(kw);
        if (info && info->opens_block) {
            no_prefix(l);
            if (info->parse.grammar == Grammar::repeat)
                parse_repeat(l);
            else if (info->parse.grammar == Grammar::spawn)
                parse_spawn(l);
            else
                parse_variant(l);
            return;
        }
        // A '{' line may only follow a block line that lacked it.
        if (!blocks_.empty())
            blocks_.back().awaiting_brace = false;

        if (!blocks_.empty() && !blocks_.back().keep) {
            drop_line(tokens); // inside a block that was rejected or nested too deeply: reported
            return;
        }
        if (!blocks_.empty() && blocks_.back().kind == BlockKind::variant) {
            if (info && info->parse.grammar == Grammar::setting) {
                no_prefix(l);
                parse_set(l, &variants_[blocks_.back().variant]);
            } else {
                error(keyword->col, "a variant block may only contain set lines, got " + show(keyword->text));
                drop_line(tokens);
            }
            return;
        }
        if (info && !info->takes_prefix) { // the scene's own lines: set, scene, user, process
            no_prefix(l);
            if (!blocks_.empty()) {
                error(keyword->col,
                      std::string(kw) + " cannot be used inside a " + std::string(block_word(blocks_.back().kind)));
                drop_line(tokens);
                return;
            }
            if (info->parse.grammar == Grammar::setting)
                parse_set(l, nullptr);
            else if (info->parse.grammar == Grammar::title)
                parse_title(l);
            else
                parse_declaration(l, info->parse.op);
            return;
        }
        if (!prefix.empty()) {
            if (const Block *spawn = enclosing(BlockKind::spawn)) {
                error(prefix_col, "a process prefix cannot be used inside a spawn block: the block runs "
                                  "in the process the spawn at line " +
                                      std::to_string(spawn->stmt.loc.line) + " names (or in main)");
                drop_line(tokens);
                return;
            }
        }

        Statement s;
        s.loc = SourceLoc{line_, keyword->col};
        s.process = prefix;
        if (!prefix.empty())
            s.process_loc = SourceLoc{line_, prefix_col};
        bool ok = false;
        if (info)
            ok = parse_statement(*info, l, s);
        else
            error(keyword->col, "unknown statement " + show(keyword->text) + did_you_mean(kw, statement_names()));

        if (ok)
            emit(std::move(s));
        else
            drop_line(tokens);
    }

    struct Line {
        std::span<const Token> all;
        const Token &keyword;
        std::span<const Token> rest; // the operands after the keyword
        const std::string &prefix;
        std::uint32_t prefix_col;
    };

    // A statement line's operands, read the way its row of the statement table says.
    bool parse_statement(const StatementInfo &info, const Line &l, Statement &s)
    {
        const StatementParse &p = info.parse;
        const std::size_t max =
            p.max_names == kAnyNumber ? std::numeric_limits<std::size_t>::max() : std::size_t{p.max_names};
        switch (p.grammar) {
        case Grammar::note: return parse_note(l, s);
        case Grammar::socket: return parse_socket(l, s, p.op, p.min_names);
        case Grammar::simple: return parse_simple(l, s, p.op, p.min_names, max);
        case Grammar::bind: return parse_bind(l, s);
        case Grammar::connect: return parse_connect(l, s);
        case Grammar::send: return parse_send(l, s);
        case Grammar::recv: return parse_recv(l, s);
        case Grammar::setsockopt: return parse_setsockopt(l, s);
        case Grammar::expect: return parse_expect(l, s);
        case Grammar::ask: return parse_ask(l, s);
        case Grammar::splice: return parse_splice(l, s);
        case Grammar::title:
        case Grammar::setting:
        case Grammar::declaration:
        case Grammar::repeat:
        case Grammar::spawn:
        case Grammar::variant: break; // lines of their own, read before a statement is made
        }
        return false;
    }

    void no_prefix(const Line &l)
    {
        if (!l.prefix.empty())
            error(l.prefix_col, "a process prefix cannot be used on '" + std::string(l.keyword.text) +
                                    "' lines; it applies to socket statements");
    }

    void emit(Statement &&s)
    {
        if (blocks_.empty())
            r_.scene.statements.push_back(std::move(s));
        else if (blocks_.back().keep)
            blocks_.back().stmt.body.push_back(std::move(s));
    }

    // The innermost open block of that kind, or null.
    const Block *enclosing(BlockKind kind) const
    {
        for (auto it = blocks_.rbegin(); it != blocks_.rend(); ++it)
            if (it->kind == kind)
                return &*it;
        return nullptr;
    }

    // ---- blocks: repeat, spawn, variant -----------------------------------------------------

    // The loop variables of the open repeats, outermost first: what $var may name here.
    const std::vector<std::string> &bound_vars() const { return bound_; }

    enum class Brace { given, missing, one_line };

    // Finds the '{' that ends a block line and removes it from `ops`; "repeat 3{" and
    // "spawn w{" are accepted too (`trimmed` then holds the shortened last word). A body written
    // on the line itself is reported; with its '}' on the same line as well, the whole line is
    // dropped (one_line) so the mistake costs one error, not a second "never closed".
    Brace take_brace(const Line &l, std::vector<const Token *> &ops, Token &trimmed)
    {
        const std::string kw(l.keyword.text);
        for (std::size_t i = 0; i + 1 < ops.size(); ++i) {
            if (ops[i]->quoted || ops[i]->text != "{")
                continue;
            error(ops[i]->col, "'{' must end the " + kw +
                                   " line: put the body on the following lines "
                                   "and '}' alone on its own line");
            if (!ops.back()->quoted && ops.back()->text == "}") {
                drop_line(l.all);
                return Brace::one_line;
            }
            ops.resize(i + 1); // parse the rest as if the line ended at this '{'
            break;
        }
        if (!ops.empty() && !ops.back()->quoted) {
            const Token &last = *ops.back();
            if (last.text == "{") {
                ops.pop_back();
                return Brace::given;
            }
            // "w{" but not the unfinished template "w${".
            if (last.text.size() > 1 && last.text.back() == '{' && last.text[last.text.size() - 2] != '$') {
                trimmed.text = last.text.substr(0, last.text.size() - 1);
                trimmed.col = last.col;
                ops.back() = &trimmed;
                return Brace::given;
            }
        }
        const Token &last = l.all.back();
        error(to_u32(last.col + last.text.size()), kw + " line must end with '{'");
        return Brace::missing;
    }

    // Opens a block: nested inside a dropped block, its own statements are dropped too.
    void open_block(Block block, bool brace)
    {
        if (!blocks_.empty() && !blocks_.back().keep)
            block.keep = false;
        if (block.keep && blocks_.size() >= kMaxRepeatDepth) {
            error_at(block.stmt.loc, "repeat and spawn blocks are nested too deeply (at most " +
                                         std::to_string(kMaxRepeatDepth) + " levels)");
            block.keep = false;
        }
        block.awaiting_brace = !brace;
        if (block.binds)
            bound_.push_back(block.stmt.loop_var);
        blocks_.push_back(std::move(block));
    }

    // True (after reporting) when a repeat or spawn line appears where only set lines may.
    bool in_variant(const Line &l)
    {
        if (blocks_.empty() || blocks_.back().kind != BlockKind::variant || !blocks_.back().keep)
            return false;
        error(l.keyword.col, "a variant block may only contain set lines, got " + show(l.keyword.text));
        return true;
    }

    void parse_repeat(const Line &l)
    {
        Statement s;
        s.op = Op::repeat;
        s.loc = SourceLoc{line_, l.keyword.col};
        std::vector<const Token *> ops;
        for (const Token &t : l.rest)
            ops.push_back(&t);
        Token trimmed;
        const Brace brace = take_brace(l, ops, trimmed);
        if (brace == Brace::one_line)
            return;
        const bool rejected = in_variant(l);

        bool count_ok = false;
        if (ops.empty()) {
            error(l.keyword.col, "repeat needs a count, e.g. 'repeat 3 {'");
        } else {
            const Token &count = *ops[0];
            const Number n = parse_number(count.quoted ? std::string_view("x") : count.text);
            if (n.status == NumberStatus::not_a_number)
                error(count.col, "bad number " + show(count.text) + " for the repeat count");
            else if (n.status == NumberStatus::too_large)
                error(count.col, "bad number " + show(count.text) + ": too large");
            else if (n.negative || n.magnitude > static_cast<std::uint64_t>(kMaxRepeatCount))
                error(count.col, "repeat count must be between 0 and " + std::to_string(kMaxRepeatCount) + ", got " +
                                     std::string(count.text));
            else {
                s.count = static_cast<std::int64_t>(n.magnitude);
                count_ok = true;
            }
        }
        // A broken count still opens the block (so its '}' balances and its body is checked);
        // one pass over the body is the most useful guess for the checks that follow.
        if (!count_ok)
            s.count = 1;

        if (ops.size() >= 2) {
            if (ops[1]->text != "as") {
                error(ops[1]->col, "unexpected " + show(ops[1]->text) + " in repeat; expected 'as NAME' or '{'");
            } else if (ops.size() < 3) {
                error(ops[1]->col, "missing loop variable name after 'as'");
            } else {
                const Token &var = *ops[2];
                if (!var.quoted && is_identifier(var.text))
                    s.loop_var = std::string(var.text);
                else
                    error(var.col, "bad loop variable name " + show(var.text) +
                                       ": use letters, digits and _, not starting with a digit");
                if (ops.size() > 3)
                    error(ops[3]->col, "unexpected " + show(ops[3]->text) + " in repeat; expected '{'");
            }
        }

        for (const auto &b : blocks_) {
            if (b.binds && b.stmt.loop_var == s.loop_var) {
                error(s.loc.col,
                      "loop variable '" + s.loop_var + "' hides the one of the repeat at line " +
                          std::to_string(b.stmt.loc.line) + "; name this one with 'as NAME'",
                      Diagnostic::Severity::warning);
                break;
            }
        }

        Block block;
        block.kind = BlockKind::repeat;
        block.keep = !rejected;
        block.binds = true;
        block.stmt = std::move(s);
        open_block(std::move(block), brace == Brace::given);
    }

    // spawn NAME [cpu=K] {: a block that runs as its own task (see scene.hpp).
    void parse_spawn(const Line &l)
    {
        Statement s;
        s.op = Op::spawn;
        s.loc = SourceLoc{line_, l.keyword.col};
        std::vector<const Token *> ops;
        for (const Token &t : l.rest)
            ops.push_back(&t);
        Token trimmed;
        const Brace brace = take_brace(l, ops, trimmed);
        if (brace == Brace::one_line)
            return;

        bool keep = true;
        std::optional<Statement::RacePoint> when, until;
        if (in_variant(l)) {
            keep = false;
        } else if (const Block *outer = enclosing(BlockKind::spawn); outer && outer->keep) {
            error(l.keyword.col, "spawn cannot be used inside another spawn (the one at line " +
                                     std::to_string(outer->stmt.loc.line) +
                                     "); spawn the tasks side by side, from the top level or a repeat");
            keep = false;
        }

        std::vector<Token> rest;
        for (const Token *t : ops)
            rest.push_back(*t);
        Operands operands = classify(rest, {});
        reject_strings_and_addresses(operands, "spawn");
        reject_options(operands, "spawn", {"cpu", "nth"});
        if (operands.words.empty()) {
            error(l.keyword.col, "spawn needs a task name, e.g. 'spawn worker {'");
            keep = false;
        } else {
            parse_race(operands.words, when, until, keep);
            const Token &name_token = *operands.words[0];
            if (name_token.text == kKworker) {
                error(name_token.col, "'kworker' is the kernel's worker task; give the spawned task another name");
                keep = false;
            } else if (auto n = name(name_token.text, name_token.col, "spawn name")) {
                s.names.push_back(std::move(*n));
            } else {
                keep = false; // a spawn without a usable name: check nothing of its body
            }
        }
        bool cpu_seen = false;
        for (const Option &o : operands.options) {
            if (o.key == "nth") {
                if (!when) {
                    error(o.token->col, "nth= counts the times a race point is reached: it needs 'when POINT SOCK'");
                    keep = false;
                } else if (auto n = parse_unsigned(o.value, o.value_col, "nth=")) {
                    if (*n < 1 || *n > 1'000'000'000) {
                        error(o.value_col, "nth= must be between 1 and 1000000000, got " + std::string(o.value));
                        keep = false;
                    } else {
                        when->nth = static_cast<std::uint32_t>(*n);
                    }
                } else {
                    keep = false;
                }
                continue;
            }
            if (o.key != "cpu" || cpu_seen)
                continue;
            cpu_seen = true;
            if (auto cpu = cpu_value(o, true))
                s.cpu = std::move(*cpu);
        }
        if (when)
            s.race = std::make_shared<const Statement::Race>(Statement::Race{*when, until});
        if (!keep)
            drop_line(l.all);

        Block block;
        block.kind = BlockKind::spawn;
        block.keep = keep;
        block.stmt = std::move(s);
        open_block(std::move(block), brace == Brace::given);
    }

    // spawn NAME when POINT SOCK [until POINT SOCK]: words[1..] of the spawn line.
    void parse_race(const std::vector<const Token *> &words, std::optional<Statement::RacePoint> &when,
                    std::optional<Statement::RacePoint> &until, bool &keep)
    {
        std::size_t i = 1;
        auto point = [&](std::string_view keyword, std::optional<Statement::RacePoint> &into) {
            if (i >= words.size() || words[i]->text != keyword)
                return;
            const Token &kw = *words[i++];
            if (i >= words.size()) {
                error(kw.col, std::string(keyword) + " needs a point and a socket, e.g. '" + std::string(keyword) +
                                  " select a' (points: " + point_list() + ")");
                keep = false;
                return;
            }
            const Token &p = *words[i++];
            const auto kind = race_point_by_name(p.text);
            if (!kind) {
                error(p.col, "unknown race point " + show(p.text) + " (expected " + point_list() + ")");
                keep = false;
                if (i < words.size() && words[i]->text != "until")
                    ++i;
                return;
            }
            if (i >= words.size() || words[i]->text == "until") {
                error(p.col, std::string(keyword) + " " + std::string(p.text) +
                                 " needs the socket it happens to, e.g. '" + std::string(keyword) + " " +
                                 std::string(p.text) + " a'");
                keep = false;
                return;
            }
            const Token &sock = *words[i++];
            auto n = name(sock.text, sock.col, "race socket");
            if (!n) {
                keep = false;
                return;
            }
            into = Statement::RacePoint{*kind, std::move(*n), SourceLoc{line_, kw.col}};
        };
        point("when", when);
        if (when)
            point("until", until);
        else if (i < words.size() && words[i]->text == "until") {
            error(words[i]->col, "until needs a when before it: 'spawn NAME when POINT SOCK until POINT SOCK {'");
            keep = false;
            i = words.size();
        }
        for (; i < words.size(); ++i) {
            error(words[i]->col, "unexpected " + show(words[i]->text) +
                                     " in spawn; expected cpu=N, when POINT SOCK, until POINT SOCK or '{'");
            keep = false;
            break;
        }
    }

    static std::string point_list()
    {
        std::string out;
        for (RacePointKind k : race_point_kinds()) {
            if (!out.empty())
                out += ", ";
            out += race_point_name(k);
        }
        return out;
    }

    // cpu=K: a number, or (in a spawn inside a repeat) one $var or ${expr}.
    std::optional<NameTemplate> cpu_value(const Option &o, bool allow_template)
    {
        const std::string_view v = o.value;
        if (v.empty()) {
            error(o.token->col, "missing value after cpu=");
            return std::nullopt;
        }
        if (v.find('$') == std::string_view::npos) {
            const auto n = parse_unsigned(v, o.value_col, "cpu=");
            if (!n)
                return std::nullopt;
            return NameTemplate{intern(std::to_string(*n)), SourceLoc{line_, o.value_col}};
        }
        if (!allow_template) {
            error(o.value_col, "bad cpu " + show(v) + ": a process's cpu= is a number");
            return std::nullopt;
        }
        // The whole value is one template: "$k" or "${...}", nothing before or after it.
        const bool whole =
            v[0] == '$' && v.size() > 1 &&
            (v[1] == '{' ? v.find('}') == v.size() - 1 : std::all_of(v.begin() + 1, v.end(), is_ident_char));
        if (!whole) {
            error(o.value_col, "bad cpu " + show(v) + ": cpu= takes a number, $var or ${expr}");
            return std::nullopt;
        }
        std::string why;
        std::size_t offset = 0;
        if (!detail::check_name_template(v, bound_vars(), {}, "a cpu", &why, &offset)) {
            error(to_u32(o.value_col + offset), "bad cpu " + show(v) + ": " + why);
            return std::nullopt;
        }
        return NameTemplate{intern(v), SourceLoc{line_, o.value_col}};
    }

    // variant NAME {: `set` lines applied on top of the scene's settings (see finish()).
    void parse_variant(const Line &l)
    {
        std::vector<const Token *> ops;
        for (const Token &t : l.rest)
            ops.push_back(&t);
        Token trimmed;
        const Brace brace = take_brace(l, ops, trimmed);
        if (brace == Brace::one_line)
            return;

        Block block;
        block.kind = BlockKind::variant;
        block.stmt.loc = SourceLoc{line_, l.keyword.col};
        if (!blocks_.empty()) {
            if (blocks_.back().keep)
                error(l.keyword.col, "variant can only be used at the top level, not inside a " +
                                         std::string(block_word(blocks_.back().kind)));
            block.keep = false;
            drop_line(l.all);
            open_block(std::move(block), brace == Brace::given);
            return;
        }
        PendingVariant v;
        v.loc = block.stmt.loc;
        if (ops.empty()) {
            error(l.keyword.col, "variant needs a name, e.g. 'variant no_fix {'");
        } else {
            const Token &name = *ops[0];
            for (std::size_t i = 1; i < ops.size(); ++i)
                error(ops[i]->col, "unexpected " + show(ops[i]->text) + " in variant; expected '{'");
            if (name.quoted || !is_identifier(name.text)) {
                error(name.col,
                      "bad variant name " + show(name.text) + ": use letters, digits and _, not starting with a digit");
            } else {
                v.name = std::string(name.text);
                const auto earlier = std::find_if(variants_.begin(), variants_.end(), [&v](const PendingVariant &o) {
                    return o.valid && o.name == v.name;
                });
                if (earlier != variants_.end())
                    error(name.col, "variant '" + v.name + "' is already defined at line " +
                                        std::to_string(earlier->loc.line) + "; variant names must be unique");
                else
                    v.valid = true;
            }
        }
        block.variant = variants_.size();
        variants_.push_back(std::move(v));
        open_block(std::move(block), brace == Brace::given);
    }

    void open_brace(const Line &l)
    {
        if (!blocks_.empty() && blocks_.back().awaiting_brace && l.prefix.empty() && l.rest.empty()) {
            blocks_.back().awaiting_brace = false; // already reported on the block's line
            return;
        }
        error(l.keyword.col, "unexpected '{': a '{' may only end a repeat, spawn or variant line");
    }

    void close_blocks(const Line &l)
    {
        if (!l.prefix.empty())
            error(l.prefix_col, "a process prefix cannot be used on '}'");
        if (l.keyword.text.size() > 1)
            error(l.keyword.col, "each '}' must be alone on its line");
        else if (!l.rest.empty())
            error(l.rest[0].col, "unexpected " + show(l.rest[0].text) + " after '}'");
        for (std::size_t i = 0; i < l.keyword.text.size(); ++i) {
            if (blocks_.empty()) {
                error(to_u32(l.keyword.col + i), "'}' without a matching repeat, spawn or variant");
                return;
            }
            close_innermost();
        }
    }

    void close_innermost()
    {
        Block b = std::move(blocks_.back());
        blocks_.pop_back();
        if (b.binds)
            bound_.pop_back();
        if (b.keep && b.kind != BlockKind::variant)
            emit(std::move(b.stmt));
    }

    void finish()
    {
        while (!blocks_.empty()) {
            error_at(blocks_.back().stmt.loc,
                     std::string(block_word(blocks_.back().kind)) + " is never closed: missing '}'");
            close_innermost();
        }
        Scene &scene = r_.scene;
        // The host's limits, before the variants copy the settings (they cannot set limits).
        if (limits_) {
            for (const auto &[budget, n] : limits_->overrides)
                scene.settings.budget.set(budget, n);
            if (limits_->ceiling)
                for (const BudgetInfo &b : budget_table())
                    scene.settings.budget.set(b.id, std::min(scene.settings.budget[b.id], (*limits_->ceiling)[b.id]));
        }
        if (!title_seen_)
            scene.title = std::filesystem::path(scene.file).stem().string();
        warn_fixes_without_effect(fixes_on_, scene.settings.gc, "this scene uses");

        // Variants: the scene's final settings (every top-level set line, wherever it is) with
        // the variant's own lines on top.
        for (const PendingVariant &pv : variants_) {
            if (!pv.valid)
                continue;
            SceneVariant v{pv.name, pv.loc, scene.settings};
            for (const SettingChange &c : pv.changes)
                c.apply(v.settings);
            v.settings.variant = pv.name;
            warn_fixes_without_effect(pv.fixes_on, v.settings.gc, "variant '" + pv.name + "' uses");
            scene.variants.push_back(std::move(v));
        }

        dropped_ += detail::check_scene_after_parse(scene, r_.diagnostics, &unreliable_);

        std::stable_sort(r_.diagnostics.begin(), r_.diagnostics.end(), [](const Diagnostic &a, const Diagnostic &b) {
            return a.loc.line != b.loc.line ? a.loc.line < b.loc.line : a.loc.col < b.loc.col;
        });
        fold_repeats(r_.diagnostics);
        if (dropped_)
            r_.diagnostics.push_back(dropped_note(r_.scene.file, dropped_));
    }

    // ---- scene-wide lines -------------------------------------------------------------------

    // Records `set key value` in `seen` (the scene's, or one variant's); returns false (after
    // reporting) when an earlier line set the same key to something else.
    // `first` tells whether this is the key's first line (a repetition need not be applied).
    bool record_setting(std::unordered_map<std::string, SetRecord> &seen, const SettingChange &c, bool &first)
    {
        auto [it, inserted] = seen.try_emplace(c.key, SetRecord{line_, c.value});
        first = inserted;
        if (inserted || it->second.value == c.value)
            return true;
        error(c.col, "'set " + c.key + "' conflicts with line " + std::to_string(it->second.line) +
                         ", which set it to " + it->second.value);
        return false;
    }

    // A set line at the top level (variant == null) or in a variant block.
    void parse_set(const Line &l, PendingVariant *variant)
    {
        auto change = parse_setting(l, variant != nullptr);
        if (!change)
            return;
        // A fix turned on where the collector lacks its code warns; turned off, it is off anyway.
        std::optional<KernelChange> fix_on;
        if (change->key.starts_with("fix ") && change->value == "on")
            fix_on = kernel_change_by_name(std::string_view(change->key).substr(4));
        bool first = false;
        if (variant) {
            if (!record_setting(variant->seen, *change, first) || !first)
                return;
            if (fix_on)
                variant->fixes_on.emplace_back(*fix_on, SourceLoc{line_, l.keyword.col});
            variant->changes.push_back(std::move(*change));
            return;
        }
        if (!record_setting(settings_seen_, *change, first) || !first)
            return;
        change->apply(r_.scene.settings);
        if (fix_on)
            fixes_on_.emplace_back(*fix_on, SourceLoc{line_, l.keyword.col});
    }

    // A fix turned on for a collector that has no such code (unify-scc-index under classic).
    void warn_fixes_without_effect(const std::vector<std::pair<KernelChange, SourceLoc>> &fixes, GcEra era,
                                   const std::string &who)
    {
        for (const auto &[fix, loc] : fixes) {
            if (kernel_change_applies(era, fix))
                continue;
            std::string eras;
            for (GcEra e : {GcEra::classic, GcEra::async, GcEra::graph})
                if (kernel_change_applies(e, fix))
                    eras += (eras.empty() ? "'set gc " : " or 'set gc ") + std::string(era_name(e)) + "'";
            error_at(loc,
                     "fix '" + std::string(kernel_change_info(fix).name) + "' only applies to " + eras + " (" + who +
                         " " + std::string(era_name(era)) + "); it has no effect",
                     Diagnostic::Severity::warning);
        }
    }

    // A value from a fixed list of words, reported with a suggestion when it is not one of them.
    template <class Words>
    std::optional<std::string_view> word_value(const Token &value, const Words &words, std::string_view what)
    {
        const std::string_view v = value.quoted ? std::string_view() : value.text;
        if (std::find(words.begin(), words.end(), v) != words.end())
            return v;
        error(value.col, "unknown " + std::string(what) + " " + show(value.text) + " (expected " + one_of(words) + ")" +
                             did_you_mean(v, words));
        return std::nullopt;
    }

    std::optional<SettingChange> parse_setting(const Line &l, bool in_variant)
    {
        const auto &ops = l.rest;
        if (ops.empty()) {
            error(l.keyword.col, "set needs a setting and a value, e.g. 'set gc graph'");
            return std::nullopt;
        }
        const Token &key = ops[0];
        const std::string_view k = key.quoted ? std::string_view() : key.text;
        if (std::find(setting_keys().begin(), setting_keys().end(), k) == setting_keys().end()) {
            std::string message = "unknown setting " + show(key.text) + " (expected " + one_of(setting_keys()) + ")";
            if (k.find('=') != std::string_view::npos)
                message += "; write 'set KEY VALUE' without '='";
            else
                message += did_you_mean(k, setting_keys());
            error(key.col, message);
            return std::nullopt;
        }
        const std::string ks(k);
        if (in_variant && (k == "collectors" || k == "limit" || k == "check")) {
            error(key.col, "'set " + ks +
                               "' cannot vary per variant: it applies to the scene as a whole; "
                               "write it outside the variant block");
            return std::nullopt;
        }
        if (ops.size() < 2) {
            if (k == "cpus")
                unreliable_.emplace(detail::kUnreliableCpus);
            if (k == "cost")
                error(key.col, "set cost needs a cost name and nanoseconds, e.g. 'set cost lock 40'");
            else
                error(key.col, "set " + ks + " needs a value");
            return std::nullopt;
        }
        if (k == "collectors")
            return parse_collectors(ops);
        // set fix NAME [on|off] and set cost NAME NS take two values; the rest one.
        // set limit NAME N (a bare `set limit N` is the object limit, as before budgets had names).
        const bool named_limit = k == "limit" && !value_is_number(ops[1]);
        const std::size_t values = k == "fix" || k == "cost" || named_limit ? 2 : 1;
        if (ops.size() > 1 + values)
            error(ops[1 + values].col, "unexpected " + show(ops[1 + values].text) + " after the value of set " + ks);
        const Token &value = ops[1];
        const std::string_view v = value.quoted ? std::string_view() : value.text;
        SettingChange c;
        c.key = ks;
        c.col = value.col;

        if (k == "gc") {
            const auto era = parse_era(v);
            if (!era) {
                error(value.col, "unknown gc era " + show(value.text) + " (expected " + one_of(era_names()) + ")" +
                                     did_you_mean(v, era_names()));
                return std::nullopt;
            }
            c.value = std::string(v);
            c.apply = [era = *era](SceneSettings &s) {
                // A profile of another era no longer holds; one of this era stays.
                if (const KernelProfile *p = kernel_profile_by_name(s.kernel); p && p->era != era)
                    s.kernel.clear();
                s.gc = era;
            };
        } else if (k == "kernel") {
            const KernelProfile *p = kernel_profile_by_name(v);
            if (!p) {
                std::vector<std::string_view> names;
                for (const KernelProfile &q : kernel_profiles())
                    names.push_back(q.name);
                error(value.col, "unknown kernel " + show(value.text) + " (profiles: " + one_of(names) +
                                     "; 'inflight-cli kernels' lists them)" + did_you_mean(v, names));
                return std::nullopt;
            }
            c.value = std::string(v);
            c.apply = [p](SceneSettings &s) {
                s.kernel = std::string(p->name);
                s.gc = p->era;
            };
        } else if (k == "fix") {
            const auto fix = kernel_change_by_name(v);
            if (!fix) {
                std::vector<std::string_view> names;
                for (const KernelChangeInfo &i : kernel_change_table())
                    names.push_back(i.name);
                error(value.col, "unknown fix " + show(value.text) + " ('inflight-cli kernels' lists the " +
                                     std::to_string(names.size()) + " known ones)" + did_you_mean(v, names));
                return std::nullopt;
            }
            const KernelChangeInfo &info = kernel_change_info(*fix);
            if (info.era) {
                error(value.col, "'" + std::string(info.name) +
                                     "' is a collector, not a fix: write 'set gc classic|async|graph' or "
                                     "'set kernel VERSION'");
                return std::nullopt;
            }
            if (!info.not_modelled.empty()) {
                error(value.col, "fix '" + std::string(info.name) + "' (" + std::string(info.commit) +
                                     ") is known but " + std::string(info.not_modelled));
                return std::nullopt;
            }
            bool on = true;
            if (ops.size() > 2) {
                const auto o = parse_on_off(ops[2], "set fix " + std::string(v));
                if (!o)
                    return std::nullopt;
                on = *o;
                c.col = ops[2].col;
            }
            c.key = "fix " + std::string(v);
            c.value = on ? "on" : "off";
            c.apply = [fix = *fix, on](SceneSettings &s) { s.fixes.set(fix, on); };
        } else if (k == "check" || k == "creds-by-default") {
            const auto on = parse_on_off(value, "set " + ks);
            if (!on)
                return std::nullopt;
            c.value = *on ? "on" : "off";
            if (k == "check")
                c.apply = [on = *on](SceneSettings &s) { s.checked = on; };
            else
                c.apply = [on = *on](SceneSettings &s) { s.creds_by_default = on; };
        } else if (k == "autobind") {
            const auto mode = word_value(value, kAutobindModes, "autobind mode");
            if (!mode)
                return std::nullopt;
            const AutobindMode m = *mode == "sequential"  ? AutobindMode::sequential
                                   : *mode == "random-v1" ? AutobindMode::random_v1
                                                          : AutobindMode::random;
            c.value = std::string(*mode);
            c.apply = [m](SceneSettings &s) { s.autobind = m; };
        } else if (k == "table-lock") {
            const auto lock = word_value(value, kTableLocks, "table lock");
            if (!lock)
                return std::nullopt;
            const bool global = *lock == "global";
            c.value = std::string(*lock);
            c.apply = [global](SceneSettings &s) { s.global_table_lock = global; };
        } else if (k == "cost") {
            return parse_cost(ops);
        } else if (k == "cpus") {
            const auto n = parse_unsigned(value, "set cpus");
            if (n && (*n < 1 || *n > kMaxCpus))
                error(value.col,
                      "set cpus must be between 1 and " + std::to_string(kMaxCpus) + ", got " + std::to_string(*n));
            if (!n || *n < 1 || *n > kMaxCpus) {
                unreliable_.emplace(detail::kUnreliableCpus); // no "cpu 3 does not exist" on every line
                return std::nullopt;
            }
            c.value = std::to_string(*n);
            c.apply = [n = static_cast<std::uint32_t>(*n)](SceneSettings &s) { s.cpus = n; };
        } else if (k == "limit") {
            return parse_limit(ops, c);
        } else {
            const auto n = parse_unsigned(value, "set " + ks);
            if (!n)
                return std::nullopt;
            c.value = std::to_string(*n);
            if (k == "nofile")
                c.apply = [n = *n](SceneSettings &s) { s.nofile = n; };
            else
                c.apply = [n = *n](SceneSettings &s) { s.seed = n; };
        }
        return c;
    }

    static bool value_is_number(const Token &t)
    {
        return !t.quoted && !t.text.empty() && t.text[0] >= '0' && t.text[0] <= '9';
    }

    // set limit N | set limit NAME N: one of the run's budgets (run_budget.hpp).
    std::optional<SettingChange> parse_limit(std::span<const Token> ops, SettingChange &c)
    {
        Budget which = Budget::objects;
        const Token *number = &ops[1];
        if (!value_is_number(ops[1])) {
            const std::string_view v = ops[1].quoted ? std::string_view() : ops[1].text;
            std::vector<std::string_view> names;
            for (const BudgetInfo &i : budget_table())
                names.push_back(i.name);
            const auto b = budget_by_name(v);
            if (!b) {
                error(ops[1].col, "unknown limit " + show(ops[1].text) + " (expected a number of sockets or one of " +
                                      one_of(names) + ")" + did_you_mean(v, names));
                return std::nullopt;
            }
            if (*b == Budget::input_bytes) {
                error(ops[1].col, "the input-bytes limit cannot be set by the file it limits (it has been read "
                                  "already); use inflight-cli's --limit input-bytes=N");
                return std::nullopt;
            }
            if (ops.size() < 3) {
                error(ops[1].col, "set limit " + std::string(v) + " needs a number, e.g. 'set limit " + std::string(v) +
                                      " " + std::to_string(budget_info(*b).default_value) + "'");
                return std::nullopt;
            }
            which = *b;
            number = &ops[2];
            c.key = "limit " + std::string(v);
            c.col = number->col;
        }
        const auto n = parse_unsigned(*number, "set limit");
        if (!n)
            return std::nullopt;
        c.value = std::to_string(*n);
        c.apply = [which, n = *n](SceneSettings &s) { s.budget.set(which, n); };
        return c;
    }

    // set cost NAME NS: NAME from cost_table().
    std::optional<SettingChange> parse_cost(std::span<const Token> ops)
    {
        const Token &name = ops[1];
        const std::string_view v = name.quoted ? std::string_view() : name.text;
        std::vector<std::string_view> names;
        for (const CostInfo &info : cost_table())
            names.push_back(info.name);
        if (!cost_by_name(v)) {
            std::string message = "unknown cost " + show(name.text);
            const std::string hint = did_you_mean(v, names);
            if (!hint.empty())
                message += hint;
            else if (v.find('=') != std::string_view::npos)
                message += "; write 'set cost NAME NS' without '='";
            else
                message += " (known costs: " + one_of(names) + ")";
            error(name.col, message);
            return std::nullopt;
        }
        if (ops.size() < 3) {
            error(name.col, "set cost " + std::string(v) + " needs a number of nanoseconds, e.g. 'set cost " +
                                std::string(v) + " 40'");
            return std::nullopt;
        }
        const Token &value = ops[2];
        const auto ns = parse_unsigned(value, "set cost");
        if (!ns)
            return std::nullopt;
        if (*ns > kMaxCostNs) {
            error(value.col,
                  "set cost must be between 0 and " + std::to_string(kMaxCostNs) + " ns, got " + std::to_string(*ns));
            return std::nullopt;
        }
        SettingChange c;
        c.key = "cost " + std::string(v);
        c.value = std::to_string(*ns);
        c.col = value.col;
        // A variant's line replaces the scene's entry for the same cost.
        c.apply = [cost = CostOverride{std::string(v), *ns, SourceLoc{line_, name.col}}](SceneSettings &s) {
            for (CostOverride &o : s.costs) {
                if (o.name == cost.name) {
                    o = cost;
                    return;
                }
            }
            s.costs.push_back(cost);
        };
        return c;
    }

    // set collectors ERA...: the eras the scene's expectations hold for (scene test runners run
    // the scene under each).
    std::optional<SettingChange> parse_collectors(std::span<const Token> ops)
    {
        // Eras (each as its default profile) and kernel profiles, in any order.
        std::vector<GcEra> eras;
        std::vector<const KernelProfile *> kernels;
        std::string canonical;
        bool ok = true;
        for (std::size_t i = 1; i < ops.size(); ++i) {
            const std::string_view v = ops[i].quoted ? std::string_view() : ops[i].text;
            const auto era = parse_era(v);
            const KernelProfile *p = era ? nullptr : kernel_profile_by_name(v);
            if (!era && !p) {
                std::vector<std::string_view> words(era_names().begin(), era_names().end());
                for (const KernelProfile &q : kernel_profiles())
                    words.push_back(q.name);
                error(ops[i].col, "unknown collector " + show(ops[i].text) + " (expected " + one_of(era_names()) +
                                      " or a kernel profile such as 6.1)" + did_you_mean(v, words));
                ok = false;
            } else if (era && std::find(eras.begin(), eras.end(), *era) == eras.end()) {
                eras.push_back(*era);
            } else if (p && std::find(kernels.begin(), kernels.end(), p) == kernels.end()) {
                kernels.push_back(p);
            }
        }
        if (!ok)
            return std::nullopt;
        std::sort(eras.begin(), eras.end());
        std::sort(kernels.begin(), kernels.end(),
                  [](const KernelProfile *a, const KernelProfile *b) { return a->version < b->version; });
        std::vector<std::string> kernel_names;
        for (GcEra e : eras)
            canonical += (canonical.empty() ? "" : " ") + std::string(era_name(e));
        for (const KernelProfile *p : kernels) {
            canonical += (canonical.empty() ? "" : " ") + std::string(p->name);
            kernel_names.emplace_back(p->name);
        }
        SettingChange c;
        c.key = "collectors";
        c.value = canonical;
        c.col = ops[1].col;
        c.apply = [eras, kernel_names](SceneSettings &s) {
            s.collectors = eras;
            s.collector_kernels = kernel_names;
        };
        return c;
    }

    void parse_title(const Line &l)
    {
        if (l.rest.size() != 1 || !l.rest[0].quoted) {
            const std::uint32_t col = l.rest.empty() ? l.keyword.col : l.rest[l.rest.size() == 1 ? 0 : 1].col;
            error(col, "scene needs one quoted title, e.g. scene \"Triangle\"");
            return;
        }
        const std::string title(l.rest[0].value);
        if (title_seen_ && title != r_.scene.title) {
            error(l.rest[0].col, "a second scene title conflicts with line " + std::to_string(title_line_));
            return;
        }
        title_seen_ = true;
        title_line_ = line_;
        r_.scene.title = title;
    }

    void parse_declaration(const Line &l, Op op)
    {
        const bool is_user = op == Op::user_decl;
        const std::string_view kw = is_user ? "user" : "process";
        Operands ops = classify(l.rest, {});
        reject_strings_and_addresses(ops, kw);
        if (is_user)
            reject_options(ops, kw, {});
        else
            reject_options(ops, kw, {"user", "cpu"});

        if (ops.words.size() != 1) {
            count_error(l, ops, kw, 1, 1, "name");
            drop_line(l.all);
            return;
        }
        const Token &name = *ops.words[0];
        if (!is_identifier(name.text)) {
            error(name.col, "bad " + std::string(kw) + " name " + show(name.text) +
                                ": use letters, digits and _, not starting with a digit");
            drop_line(l.all);
            return;
        }
        Statement s;
        s.op = op;
        s.loc = SourceLoc{line_, l.keyword.col};
        s.names.push_back(NameTemplate{intern(name.text), SourceLoc{line_, name.col}});
        if (!is_user) {
            s.text = "root";
            s.text_loc = s.names[0].loc;
            bool cpu_seen = false;
            for (const Option &o : ops.options) {
                if (o.key == "cpu" && !cpu_seen) {
                    cpu_seen = true;
                    if (auto cpu = cpu_value(o, false))
                        s.cpu = std::move(*cpu);
                }
                if (o.key != "user")
                    continue;
                if (!is_identifier(o.value)) {
                    error(o.value_col,
                          "bad user name " + show(o.value) + ": use letters, digits and _, not starting with a digit");
                    continue;
                }
                s.text = std::string(o.value);
                s.text_loc = SourceLoc{line_, o.value_col};
            }
        }
        emit(std::move(s));
    }

    // ---- operands ---------------------------------------------------------------------------

    Operands classify(std::span<const Token> tokens, std::initializer_list<std::string_view> flags)
    {
        Operands ops;
        ops.words.reserve(tokens.size());
        for (const Token &t : tokens) {
            if (t.quoted) {
                ops.strings.push_back(&t);
                continue;
            }
            if (t.text[0] == '@') {
                ops.addresses.push_back(&t);
                continue;
            }
            if (std::find(flags.begin(), flags.end(), t.text) != flags.end()) {
                ops.flags.push_back(&t);
                continue;
            }
            const std::size_t eq = t.text.find('=');
            if (eq != std::string_view::npos) {
                ops.options.push_back(Option{&t, t.text.substr(0, eq), t.text.substr(eq + 1), to_u32(t.col + eq + 1)});
                continue;
            }
            ops.words.push_back(&t);
        }
        return ops;
    }

    // Returns false when something was rejected.
    bool reject_strings_and_addresses(const Operands &ops, std::string_view kw, bool allow_address = false)
    {
        bool ok = true;
        for (const Token *t : ops.strings) {
            error(t->col, "unexpected string in " + std::string(kw) + "; only note, ask and scene take text");
            ok = false;
        }
        if (!allow_address) {
            for (const Token *t : ops.addresses) {
                error(t->col, "unexpected address " + show(t->text) + " in " + std::string(kw));
                ok = false;
            }
        }
        return ok;
    }

    // Reports unknown and repeated option keys; the statement survives (the option is ignored).
    void reject_options(const Operands &ops, std::string_view kw, std::initializer_list<std::string_view> keys,
                        std::initializer_list<std::string_view> flags = {})
    {
        std::vector<std::string_view> seen;
        for (const Option &o : ops.options) {
            if (std::find(keys.begin(), keys.end(), o.key) == keys.end()) {
                std::string message;
                if (o.key.empty())
                    message = "missing option name before '='";
                else
                    message = "unknown option " + show(o.key) + " for " + std::string(kw);
                if (keys.size() == 0) {
                    message += " (" + std::string(kw) + " takes no key=value options)";
                } else {
                    std::vector<std::string> known;
                    for (auto k : keys)
                        known.push_back(std::string(k) + "=");
                    for (auto f : flags)
                        known.push_back(std::string(f));
                    message += " (expected " + one_of(known) + ")" + did_you_mean(o.key, keys);
                }
                error(o.token->col, message);
                continue;
            }
            if (std::find(seen.begin(), seen.end(), o.key) != seen.end())
                error(o.token->col, "option '" + std::string(o.key) + "=' given twice");
            seen.push_back(o.key);
        }
    }

    // "socketpair needs 2 names, got 1", with a hint when an extra word looks like a flag.
    void count_error(const Line &l, const Operands &ops, std::string_view kw, std::size_t min, std::size_t max,
                     std::string_view noun, std::initializer_list<std::string_view> flags = {})
    {
        const std::size_t got = ops.words.size();
        const auto plural = [noun](std::size_t n) { return std::string(noun) + (n == 1 ? "" : "s"); };
        std::string need;
        if (min == max)
            need = std::to_string(min) + " " + plural(min);
        else if (max == min + 1)
            need = std::to_string(min) + " or " + std::to_string(max) + " " + plural(max);
        else
            need = "at least " + std::to_string(min) + " " + plural(min);
        std::string message;
        if (max == 0)
            message = std::string(kw) + " takes no operands, got " + std::to_string(got);
        else
            message = std::string(kw) + " needs " + need + ", got " + std::to_string(got);
        std::uint32_t col = l.keyword.col;
        if (got > max) {
            const Token &extra = *ops.words[max];
            col = extra.col;
            const std::string hint = did_you_mean(extra.text, flags);
            if (!hint.empty())
                message = "unknown flag " + show(extra.text) + " for " + std::string(kw) + hint;
            else if (kw == "send")
                message += " (to pass file descriptors, write fds=" + std::string(extra.text) + ")";
        }
        error(col, message);
    }

    // A name's text as the scene keeps it: once, however many statements use it.
    NameText intern(std::string_view text) { return NameText(r_.scene.names->intern(text).data()); }

    // Parses an fd name template; reports and returns nullopt when it is malformed.
    std::optional<NameTemplate> name(std::string_view text, std::uint32_t col, std::string_view what = "name")
    {
        if (text.empty()) {
            error(col, "missing " + std::string(what));
            return std::nullopt;
        }
        std::string why;
        std::size_t offset = 0;
        if (!detail::check_name_template(text, bound_vars(), {}, "a name", &why, &offset)) {
            if (starts_with(text, "embryo("))
                why += " (embryo(...) labels are only for expect statements)";
            error(to_u32(col + offset), "bad " + std::string(what) + " " + show(text) + ": " + why);
            return std::nullopt;
        }
        return NameTemplate{intern(text), SourceLoc{line_, col}};
    }

    // A socket label in an expect statement: a name, or embryo(name).
    std::optional<NameTemplate> label(const Token &t)
    {
        const std::string_view text = t.text;
        constexpr std::string_view embryo = "embryo(";
        if (!starts_with(text, embryo))
            return name(text, t.col, "label");
        if (text.size() < embryo.size() + 2 || text.back() != ')') {
            error(t.col, "bad label " + show(text) + ": write embryo(NAME)");
            return std::nullopt;
        }
        const std::string_view inner = text.substr(embryo.size(), text.size() - embryo.size() - 1);
        if (starts_with(inner, embryo)) {
            // Only a listener's queued connection has an embryo: an embryo has none of its own.
            error(to_u32(t.col + embryo.size()), "bad label " + show(text) +
                                                     ": embryo(...) takes the label of a connecting socket, "
                                                     "not another embryo(...)");
            return std::nullopt;
        }
        if (!name(inner, to_u32(t.col + embryo.size()), "label"))
            return std::nullopt;
        return NameTemplate{intern(text), SourceLoc{line_, t.col}};
    }

    // @name: returns the template without the '@'; its column is the first character after it.
    std::optional<NameTemplate> address(std::string_view text, std::uint32_t col)
    {
        if (text.empty() || text[0] != '@') {
            error(col, "an address starts with '@' (an abstract address), got " + show(text));
            return std::nullopt;
        }
        text.remove_prefix(1);
        ++col;
        if (text.empty()) {
            error(col - 1, "missing address name after '@'");
            return std::nullopt;
        }
        std::string why;
        std::size_t offset = 0;
        if (!detail::check_name_template(text, bound_vars(), ".-", "an address", &why, &offset)) {
            error(to_u32(col + offset), "bad address " + show(text) + ": " + why);
            return std::nullopt;
        }
        return NameTemplate{intern(text), SourceLoc{line_, col}};
    }

    // Where a bash-style range "{A..B}" starts in an fds= element (a '{' not opening a ${...}).
    static std::size_t range_brace(std::string_view element)
    {
        for (std::size_t k = 0; k < element.size(); ++k)
            if (element[k] == '{' && (k == 0 || element[k - 1] != '$'))
                return k;
        return std::string_view::npos;
    }

    // fds=s{0..249} stands for s0,s1,...,s249 (and x${k}_{0..3} for x${k}_0 ... x${k}_3): one
    // message may carry up to 253 fds, and a scene that puts thousands of sockets in flight
    // should not need lines of thousands of names.
    bool expand_range(std::string_view element, std::size_t brace, std::uint32_t col, Statement &s)
    {
        constexpr std::uint64_t kMaxRange = 100'000;
        const std::size_t close = element.find('}', brace);
        const std::size_t dots = element.find("..", brace);
        if (close == std::string_view::npos || dots == std::string_view::npos || dots > close) {
            error(to_u32(col + brace), "bad range in " + show(element) + ": write {FIRST..LAST}, e.g. s{0..249}");
            return false;
        }
        const auto first =
            parse_unsigned(element.substr(brace + 1, dots - brace - 1), to_u32(col + brace + 1), "range start");
        const auto last =
            parse_unsigned(element.substr(dots + 2, close - dots - 2), to_u32(col + dots + 2), "range end");
        if (!first || !last)
            return false;
        if (*last < *first || *last - *first >= kMaxRange) {
            error(to_u32(col + brace), "range {" + std::to_string(*first) + ".." + std::to_string(*last) +
                                           "} must count up and hold at most " + std::to_string(kMaxRange) + " names");
            return false;
        }
        // A range is the parser's one amplifier (13 bytes, 100,000 names): the names it makes
        // are budgeted, with the limit in force at this line (a `set limit` above it, or the host's).
        const std::uint64_t count = *last - *first + 1;
        const std::uint64_t limit = budget_now(Budget::range_names);
        if (range_names_ + count > limit) {
            error(to_u32(col + brace), budget_message(BudgetBreach{Budget::range_names, limit,
                                                                   "this range would bring the scene to " +
                                                                       group_digits(range_names_ + count) + " names"}));
            range_names_ = limit; // one error: every later range is over too, and says nothing new
            return false;
        }
        range_names_ += count;
        s.fds.reserve(s.fds.size() + count);
        const std::string_view prefix = element.substr(0, brace);
        const std::string_view suffix = element.substr(close + 1);
        for (std::uint64_t v = *first; v <= *last; ++v) {
            const std::string text = std::string(prefix) + std::to_string(v) + std::string(suffix);
            auto n = name(text, col);
            if (!n)
                return false;
            s.fds.push_back(std::move(*n));
        }
        return true;
    }

    // A budget as it stands at this line: the scene's `set limit` lines so far, then the host's
    // overrides and ceiling (finish() applies those to the scene for the checker and the run).
    std::uint64_t budget_now(Budget b) const
    {
        std::uint64_t n = r_.scene.settings.budget[b];
        if (limits_) {
            for (const auto &[budget, v] : limits_->overrides)
                if (budget == b)
                    n = v;
            if (limits_->ceiling)
                n = std::min(n, (*limits_->ceiling)[b]);
        }
        return n;
    }

    // fds=a,b,c (possibly empty). Returns false after reporting a malformed element.
    bool fd_list(const Option &o, Statement &s)
    {
        s.has_fds = true;
        if (o.value.empty())
            return true;
        bool ok = true;
        // Exact room for the names listed (ranges add theirs): no doubling slack on a long list.
        s.fds.reserve(s.fds.size() + 1 + static_cast<std::size_t>(std::count(o.value.begin(), o.value.end(), ',')));
        std::size_t i = 0;
        while (i <= o.value.size()) {
            // Commas separate names; ${...} holds no commas, so a plain search is enough.
            std::size_t j = o.value.find(',', i);
            if (j == std::string_view::npos)
                j = o.value.size();
            const std::string_view element = o.value.substr(i, j - i);
            const std::uint32_t col = to_u32(o.value_col + i);
            if (element.empty()) {
                error(col, "empty name in fds= list");
                ok = false;
            } else if (const std::size_t brace = range_brace(element); brace != std::string_view::npos) {
                ok = expand_range(element, brace, col, s) && ok;
            } else if (auto n = name(element, col)) {
                s.fds.push_back(std::move(*n));
            } else {
                ok = false;
            }
            i = j + 1;
        }
        return ok;
    }

    std::optional<std::uint64_t> parse_unsigned(const Token &t, std::string_view what)
    {
        return parse_unsigned(t.quoted ? std::string_view("\"") : t.text, t.col, what);
    }

    std::optional<std::uint64_t> parse_unsigned(std::string_view text, std::uint32_t col, std::string_view what)
    {
        const Number n = parse_number(text);
        if (n.status == NumberStatus::not_a_number) {
            error(col, "bad number " + show(text) + " for " + std::string(what));
            return std::nullopt;
        }
        if (n.status == NumberStatus::too_large) {
            error(col, "bad number " + show(text) + ": too large");
            return std::nullopt;
        }
        if (n.negative && n.magnitude != 0) {
            error(col, "bad number " + show(text) + ": " + std::string(what) + " must not be negative");
            return std::nullopt;
        }
        return n.magnitude;
    }

    std::optional<bool> parse_on_off(const Token &t, std::string_view what)
    {
        return parse_on_off(t.quoted ? std::string_view("\"") : t.text, t.col, what);
    }

    std::optional<bool> parse_on_off(std::string_view text, std::uint32_t col, std::string_view what)
    {
        if (text == "on")
            return true;
        if (text == "off")
            return false;
        error(col, "bad value " + show(text) + " for " + std::string(what) + ": expected on or off");
        return std::nullopt;
    }

    // ---- statements -------------------------------------------------------------------------

    bool parse_note(const Line &l, Statement &s)
    {
        s.op = Op::note;
        // note [ERA ...] "text": a note may name the collectors its words hold for. Without any
        // string the quotes were forgotten: say that, not "unknown collector 'hello'".
        const bool has_string = std::any_of(l.rest.begin(), l.rest.end(), [](const Token &t) { return t.quoted; });
        if (!has_string) {
            error(l.rest.empty() ? l.keyword.col : l.rest[0].col,
                  "note needs one quoted string, e.g. note \"the cycle is now unreachable\" or note graph \"…\"");
            return false;
        }
        std::size_t i = 0;
        for (; i < l.rest.size() && !l.rest[i].quoted; ++i) {
            const auto era = parse_era(l.rest[i].text);
            const bool variant = !era && std::any_of(variants_.begin(), variants_.end(), [&](const PendingVariant &v) {
                return v.valid && v.name == l.rest[i].text;
            });
            if (variant) { // note buggy "…": only in that variant's run
                s.only_variants.emplace_back(l.rest[i].text);
                continue;
            }
            if (!era) {
                error(l.rest[i].col, "unknown collector '" + std::string(l.rest[i].text) +
                                         "' before the note's text (classic, async or graph, or a variant declared "
                                         "above), e.g. note graph \"…\"");
                return false;
            }
            s.note_eras.push_back(*era);
        }
        if (i + 1 == l.rest.size() && l.rest[i].quoted) {
            s.text = std::string(l.rest[i].value);
            s.text_loc = SourceLoc{line_, l.rest[i].col};
            return true;
        }
        // At the first word that is not the one string: none at all, or one too many.
        std::uint32_t col = l.keyword.col;
        if (i < l.rest.size())
            col = i + 1 < l.rest.size() ? l.rest[i + 1].col : l.rest[i].col;
        error(col, "note needs one quoted string, e.g. note \"the cycle is now unreachable\" or note graph \"…\"");
        return false;
    }

    // Names for the first `n` words; false when any is malformed.
    bool names(const Operands &ops, std::size_t n, Statement &s)
    {
        bool ok = true;
        s.names.reserve(std::min(n, ops.words.size())); // exact: no doubling slack on a long close line
        for (std::size_t i = 0; i < n && i < ops.words.size(); ++i) {
            if (auto t = name(ops.words[i]->text, ops.words[i]->col))
                s.names.push_back(std::move(*t));
            else
                ok = false;
        }
        return ok;
    }

    bool parse_socket(const Line &l, Statement &s, Op op, std::size_t n)
    {
        s.op = op;
        const std::string_view kw = l.keyword.text;
        Operands ops = classify(l.rest, {"stream", "dgram", "seqpacket"});
        bool ok = reject_strings_and_addresses(ops, kw);
        reject_options(ops, kw, {}, {"stream", "dgram", "seqpacket"});
        for (std::size_t i = 0; i < ops.flags.size(); ++i) {
            const std::string_view t = ops.flags[i]->text;
            if (i > 0) {
                error(ops.flags[i]->col, "socket type given twice");
                continue;
            }
            s.type = t == "stream" ? SockType::stream : t == "dgram" ? SockType::dgram : SockType::seqpacket;
        }
        if (ops.words.size() == n + 1 && ops.flags.empty()) {
            // One word too many where the type goes: most likely a misspelt type.
            const Token &t = *ops.words[n];
            error(t.col, "bad socket type " + show(t.text) + " (expected " + one_of(socket_types()) + ")" +
                             did_you_mean(t.text, socket_types()));
            ops.words.pop_back();
        } else if (ops.words.size() != n) {
            count_error(l, ops, kw, n, n, "name");
            return false;
        }
        return names(ops, n, s) && ok;
    }

    bool parse_simple(const Line &l, Statement &s, Op op, std::size_t min, std::size_t max)
    {
        s.op = op;
        const std::string_view kw = l.keyword.text;
        Operands ops = classify(l.rest, {});
        bool ok = reject_strings_and_addresses(ops, kw);
        reject_options(ops, kw, {});
        if (ops.words.size() < min || ops.words.size() > max) {
            count_error(l, ops, kw, min, max, "name");
            return false;
        }
        return names(ops, ops.words.size(), s) && ok;
    }

    bool parse_bind(const Line &l, Statement &s)
    {
        s.op = Op::bind;
        Operands ops = classify(l.rest, {});
        bool ok = reject_strings_and_addresses(ops, "bind", true);
        reject_options(ops, "bind", {});
        if (ops.words.size() == 2 && ops.addresses.empty()) {
            error(ops.words[1]->col,
                  "an address starts with '@' (an abstract address), got " + show(ops.words[1]->text));
            return false;
        }
        if (ops.words.size() != 1) {
            count_error(l, ops, "bind", 1, 1, "name");
            return false;
        }
        if (ops.addresses.size() > 1) {
            error(ops.addresses[1]->col, "bind takes one address");
            return false;
        }
        if (!ops.addresses.empty()) {
            auto a = address(ops.addresses[0]->text, ops.addresses[0]->col);
            if (!a)
                return false;
            s.address = std::move(*a);
        }
        return names(ops, 1, s) && ok;
    }

    bool parse_connect(const Line &l, Statement &s)
    {
        s.op = Op::connect;
        Operands ops = classify(l.rest, {});
        bool ok = reject_strings_and_addresses(ops, "connect", true);
        reject_options(ops, "connect", {});
        if (ops.words.empty() || ops.words.size() > 2) {
            count_error(l, ops, "connect", 1, 2, "name");
            return false;
        }
        if (ops.addresses.size() > 1 || (ops.words.size() == 2 && !ops.addresses.empty())) {
            error(ops.addresses.back()->col,
                  "connect takes one target: an address (@name) or the name of a bound socket");
            return false;
        }
        if (ops.words.size() == 1 && ops.addresses.empty()) {
            error(l.keyword.col, "connect needs a target: an address (@name) or the name of a bound socket");
            return false;
        }
        if (!ops.addresses.empty()) {
            auto a = address(ops.addresses[0]->text, ops.addresses[0]->col);
            if (!a)
                return false;
            s.address = std::move(*a);
        }
        return names(ops, ops.words.size(), s) && ok;
    }

    bool parse_send(const Line &l, Statement &s)
    {
        s.op = Op::send;
        Operands ops = classify(l.rest, {"oob"});
        bool ok = reject_strings_and_addresses(ops, "send");
        reject_options(ops, "send", {"fds", "bytes", "to"}, {"oob"});
        if (ops.words.size() != 1) {
            count_error(l, ops, "send", 1, 1, "name", {"oob"});
            return false;
        }
        s.oob = !ops.flags.empty();
        std::vector<std::string_view> seen;
        for (const Option &o : ops.options) {
            if (std::find(seen.begin(), seen.end(), o.key) != seen.end())
                continue; // reported by reject_options
            seen.push_back(o.key);
            if (o.key == "fds") {
                ok = fd_list(o, s) && ok;
            } else if (o.key == "bytes") {
                if (auto n = parse_unsigned(o.value, o.value_col, "bytes="))
                    s.bytes = *n;
            } else if (o.key == "to") {
                if (auto a = address(o.value, o.value_col))
                    s.address = std::move(*a);
                else
                    ok = false;
            }
        }
        return names(ops, 1, s) && ok;
    }

    // splice a bytes=N: sendfile() into a.
    bool parse_splice(const Line &l, Statement &s)
    {
        s.op = Op::splice;
        Operands ops = classify(l.rest, {});
        bool ok = reject_strings_and_addresses(ops, "splice");
        reject_options(ops, "splice", {"bytes"});
        if (ops.words.size() != 1) {
            count_error(l, ops, "splice", 1, 1, "name");
            return false;
        }
        const auto bytes =
            std::find_if(ops.options.begin(), ops.options.end(), [](const Option &o) { return o.key == "bytes"; });
        if (bytes == ops.options.end()) {
            error(l.keyword.col, "splice needs bytes=N, the number of bytes to send, e.g. 'splice a bytes=65536'");
            return false;
        }
        const auto n = parse_unsigned(bytes->value, bytes->value_col, "bytes=");
        if (!n)
            return false;
        if (*n < 1 || *n > kMaxSpliceBytes) {
            error(bytes->value_col, "splice bytes= must be between 1 and " + std::to_string(kMaxSpliceBytes) +
                                        " (1 TiB), got " + std::to_string(*n));
            return false;
        }
        s.bytes = *n;
        return names(ops, 1, s) && ok;
    }

    bool parse_recv(const Line &l, Statement &s)
    {
        s.op = Op::recv;
        Operands ops = classify(l.rest, {"peek", "oob"});
        bool ok = reject_strings_and_addresses(ops, "recv");
        reject_options(ops, "recv", {"fds"}, {"peek", "oob"});
        if (ops.words.size() != 1) {
            count_error(l, ops, "recv", 1, 1, "name", {"peek", "oob"});
            return false;
        }
        for (const Token *f : ops.flags) {
            if (f->text == "peek")
                s.peek = true;
            else
                s.oob = true;
        }
        bool fds_seen = false;
        for (const Option &o : ops.options) {
            if (o.key == "fds" && !fds_seen) {
                fds_seen = true;
                ok = fd_list(o, s) && ok;
            }
        }
        return names(ops, 1, s) && ok;
    }

    bool parse_setsockopt(const Line &l, Statement &s)
    {
        s.op = Op::setsockopt;
        Operands ops = classify(l.rest, {});
        bool ok = reject_strings_and_addresses(ops, "setsockopt");
        reject_options(ops, "setsockopt", {"passrights", "passcred"});
        if (ops.words.size() != 1) {
            count_error(l, ops, "setsockopt", 1, 1, "name");
            return false;
        }
        std::size_t given = 0;
        for (const Option &o : ops.options) {
            if (o.key != "passrights" && o.key != "passcred")
                continue;
            if (++given > 1) {
                error(o.token->col, "setsockopt sets one option per line");
                continue;
            }
            s.option = o.key == "passrights" ? SockOpt::passrights : SockOpt::passcred;
            if (auto v = parse_on_off(o.value, o.value_col, std::string(o.key) + "="))
                s.option_value = *v;
        }
        if (given == 0) {
            error(l.keyword.col, "setsockopt needs an option: passrights=on|off or passcred=on|off");
            return false;
        }
        return names(ops, 1, s) && ok;
    }

    bool parse_expect(const Line &l, Statement &s) { return parse_expectation(l.rest, l.keyword.col, "expect", s); }

    // ask "QUESTION" answer KIND ...: the question, then an expectation read as `expect` reads it.
    bool parse_ask(const Line &l, Statement &s)
    {
        constexpr std::string_view example = "e.g. ask \"Which sockets will this gc free?\" answer freed a b";
        if (l.rest.empty() || !l.rest[0].quoted) {
            error(l.rest.empty() ? l.keyword.col : l.rest[0].col,
                  "ask needs a quoted question first, " + std::string(example));
            return false;
        }
        const Token &question = l.rest[0];
        if (question.value.find_first_not_of(" \t") == std::string_view::npos) {
            error(question.col, "the question is empty: write what the class is asked, " + std::string(example));
            return false;
        }
        if (l.rest.size() < 2 || l.rest[1].quoted || l.rest[1].text != "answer") {
            const std::uint32_t col = l.rest.size() < 2 ? question.col : l.rest[1].col;
            error(col, "ask needs 'answer' and the expected answer after the question, in expect's forms (freed, "
                       "alive, inflight, queue, error or finding), " +
                           std::string(example));
            return false;
        }
        auto ask = std::make_shared<Statement::Ask>();
        ask->question = std::string(question.value);
        ask->question_loc = SourceLoc{line_, question.col};
        ask->answer_loc = SourceLoc{line_, l.rest[1].col};
        s.ask = std::move(ask);
        return parse_expectation(l.rest.subspan(2), l.rest[1].col, "answer", s);
    }

    // An expectation's operands, after `expect` or an ask's `answer` (`word`, at `word_col`).
    bool parse_expectation(std::span<const Token> rest, std::uint32_t word_col, std::string_view word, Statement &s)
    {
        Operands ops = classify(rest, {});
        bool ok = reject_strings_and_addresses(ops, word);
        reject_options(ops, word, {});
        // Leading variant names (declared earlier): the expectation holds only in those runs.
        std::size_t first = 0;
        while (first < ops.words.size() && !ops.words[first]->quoted &&
               std::find(expect_kinds().begin(), expect_kinds().end(), ops.words[first]->text) ==
                   expect_kinds().end() &&
               std::any_of(variants_.begin(), variants_.end(),
                           [&](const PendingVariant &v) { return v.valid && v.name == ops.words[first]->text; }))
            s.only_variants.emplace_back(ops.words[first++]->text);
        if (ops.words.size() <= first) {
            error(word_col, std::string(word) + " needs a kind: " + one_of(expect_kinds()));
            return false;
        }
        const Token &kind = *ops.words[first];
        const std::string_view k = kind.text;
        const std::vector<const Token *> args(ops.words.begin() + static_cast<std::ptrdiff_t>(first) + 1,
                                              ops.words.end());
        const std::string kw = std::string(word) + " " + std::string(k);

        if (k == "error") {
            s.op = Op::expect_error;
            if (args.size() != 1) {
                error(args.empty() ? kind.col : args[1]->col, kw + " needs one errno name, e.g. '" + std::string(word) +
                                                                  " error EPERM', got " + std::to_string(args.size()));
                return false;
            }
            const auto e = parse_errno(args[0]->text);
            if (!e) {
                error(args[0]->col,
                      "unknown errno name " + show(args[0]->text) + did_you_mean(args[0]->text, errno_names()));
                return false;
            }
            s.error = *e;
            return ok;
        }
        if (k == "finding") {
            // A bug's scene expects the model to catch it: a finding (a use-after-free, a BUG_ON)
            // whose check names the word, made at or before this line.
            s.op = Op::expect_finding;
            if (args.size() != 1) {
                error(args.empty() ? kind.col : args[1]->col, kw + " needs one word of the finding's check, e.g. '" +
                                                                  std::string(word) + " finding use-after-free', got " +
                                                                  std::to_string(args.size()));
                return false;
            }
            s.text = std::string(args[0]->text);
            s.text_loc = SourceLoc{line_, args[0]->col};
            return ok;
        }
        if (k == "freed" || k == "alive") {
            s.op = k == "freed" ? Op::expect_freed : Op::expect_alive;
            if (args.empty()) {
                error(kind.col, kw + " needs at least 1 label, got 0");
                return false;
            }
        } else if (k == "inflight" || k == "queue") {
            s.op = k == "inflight" ? Op::expect_inflight : Op::expect_queue;
            if (args.size() != 2) {
                error(args.size() > 2 ? args[2]->col : kind.col, kw + " needs a label and a number, got " +
                                                                     std::to_string(args.size()) + " operand" +
                                                                     (args.size() == 1 ? "" : "s"));
                return false;
            }
            const auto n = parse_unsigned(args[1]->text, args[1]->col, kw);
            if (!n || *n > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
                if (n)
                    error(args[1]->col, "bad number " + show(args[1]->text) + ": too large");
                return false;
            }
            s.count = static_cast<std::int64_t>(*n);
        } else {
            error(kind.col, "unknown " + std::string(word) + " kind " + show(k) + " (expected " +
                                one_of(expect_kinds()) + ")" + did_you_mean(k, expect_kinds()));
            return false;
        }
        const std::size_t label_count = s.op == Op::expect_inflight || s.op == Op::expect_queue ? 1 : args.size();
        for (std::size_t i = 0; i < label_count; ++i) {
            if (auto t = label(*args[i]))
                s.names.push_back(std::move(*t));
            else
                ok = false;
        }
        return ok;
    }

    ParseResult &r_;
    const ParseLimits *limits_ = nullptr;
    std::uint32_t line_ = 0;
    std::deque<std::string> unescaped_;                             // the quoted strings of this line that had escapes
    std::optional<std::pair<std::string, std::string>> suggestion_; // did_you_mean(): word, candidate
    std::uint64_t dropped_ = 0;     // diagnostics past kDiagnosticsKept (checker's included)
    std::uint64_t range_names_ = 0; // names made from ranges so far (the range-names budget)
    std::vector<Block> blocks_;
    std::vector<std::string> bound_;
    std::unordered_set<std::string> unreliable_;
    std::unordered_map<std::string, SetRecord> settings_seen_;
    std::vector<PendingVariant> variants_;
    std::vector<std::pair<KernelChange, SourceLoc>> fixes_on_; // top-level `set fix NAME [on]` lines
    bool title_seen_ = false;
    std::uint32_t title_line_ = 0;
};

} // namespace

namespace {

// Every diagnostic on a line gets the end of the word it points at, for editors to underline.
void fill_end_columns(ParseResult &result)
{
    for (Diagnostic &d : result.diagnostics)
        if (d.end_col == 0 && d.loc.line >= 1 && d.loc.line <= result.scene.lines.size() && d.loc.col >= 1)
            d.end_col = word_end(result.scene.lines[d.loc.line - 1], d.loc.col);
}

} // namespace

ParseResult parse_scene(std::string_view text, std::string file_name)
{
    ParseResult result;
    Parser(result, std::move(file_name)).parse(text);
    fill_end_columns(result);
    return result;
}

ParseResult parse_scene(std::string_view text, std::string file_name, const ParseLimits &limits)
{
    ParseResult result;
    Parser(result, std::move(file_name), &limits).parse(text);
    fill_end_columns(result);
    return result;
}

ParseResult load_scene_file(const std::string &path, const ParseLimits &limits)
{
    RunBudget budget;
    for (const auto &[b, n] : limits.overrides)
        budget.set(b, n);
    if (limits.ceiling)
        budget.set(Budget::input_bytes, std::min(budget[Budget::input_bytes], (*limits.ceiling)[Budget::input_bytes]));
    const std::uint64_t max_bytes = budget[Budget::input_bytes];
    const auto fail = [&path](std::string reason, std::string_view what = "cannot open scene file: ") {
        ParseResult result;
        result.scene.file = path;
        Diagnostic d;
        d.file = path;
        d.message = std::string(what) + reason;
        result.diagnostics.push_back(std::move(d));
        return result;
    };
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (std::filesystem::is_directory(status))
        return fail("it is a directory"); // opening one "succeeds" and then reads nothing
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
        // A FIFO blocks until a writer comes, a device such as /dev/zero never ends.
        const char *kind = std::filesystem::is_fifo(status)             ? "a FIFO"
                           : std::filesystem::is_character_file(status) ? "a character device"
                           : std::filesystem::is_block_file(status)     ? "a block device"
                           : std::filesystem::is_socket(status)         ? "a socket"
                                                                        : "not a regular file";
        return fail(std::string("it is ") + kind + "; scenes are read from regular files only");
    }
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return fail(errno != 0 ? std::strerror(errno) : "cannot be read");
    const auto size = std::filesystem::file_size(path, ec);
    const BudgetBreach too_big{Budget::input_bytes, max_bytes,
                               "the file has " + group_digits(ec ? 0 : size) + " bytes"};
    if (!ec && size > max_bytes)
        return fail(budget_message(too_big), "");
    // Read at most max_bytes + 1: a file that grows while it is read is still bounded.
    std::string content;
    const std::uint64_t cap = std::min<std::uint64_t>(saturating_add(max_bytes, 1), std::uint64_t(1) << 40);
    content.resize(static_cast<std::size_t>(std::min<std::uint64_t>(ec ? cap : saturating_add(size, 1), cap)));
    in.read(content.data(), static_cast<std::streamsize>(content.size()));
    if (in.bad())
        return fail("read error");
    content.resize(static_cast<std::size_t>(in.gcount()));
    if (content.size() > max_bytes)
        return fail(budget_message(BudgetBreach{Budget::input_bytes, max_bytes, "the file grew while read"}), "");
    return parse_scene(content, path, limits);
}

} // namespace inflight
