// SPDX-License-Identifier: GPL-3.0-or-later
// The scene language's tokenizer: one line split into words and strings, as the parser reads
// it. Editors colour a line from these same tokens (syntax_tokens()), so what the highlighter
// calls a word, a string or a comment is what the parser does.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace inflight {

struct LineToken {
    std::string_view text; // as written; a string keeps its quotes
    std::uint32_t col = 0; // 1-based byte column
    bool quoted = false;
    // The unescaped content of a quoted string: a view of the line, or of the caller's
    // `unescaped` store when it had escapes. A token owns no string, so a line of a million
    // words takes a few bytes a word.
    std::string_view value;
};

struct LineTokenizeResult {
    bool ok = true;                   // false: a string was not closed (it is the last token)
    std::uint32_t bad_escape_col = 0; // the first unknown escape in a string (0: none)
    std::uint32_t comment_col = 0;    // where a '#' comment starts (0: none)
};

// Splits `line` (without its '\n') into `out`. Stops at an unterminated string, whose token is
// the last one then.
LineTokenizeResult tokenize_line(std::string_view line, std::vector<LineToken> &out,
                                 std::deque<std::string> &unescaped);

// What an editor colours a piece of a line as.
enum class SyntaxKind : unsigned char {
    keyword,  // a statement: send, repeat, set
    prefix,   // "p:" before a statement
    option,   // fds= bytes= cpu= user= (the key and its '=')
    flag,     // oob peek stream dgram on off, a set key, an expect kind
    number,   // 3, -1
    address,  // @name
    string,   // "text"
    comment,  // # ...
    brace,    // { }
    variable, // $i ${i+1}
    name,     // every other word: socket names, labels
    error,    // an unterminated string
};

struct SyntaxToken {
    std::uint32_t col = 0; // 1-based byte column
    std::uint32_t length = 0;
    SyntaxKind kind = SyntaxKind::name;
};

// The coloured pieces of one line, in order, from tokenize_line() and the statement table.
std::vector<SyntaxToken> syntax_tokens(std::string_view line);

} // namespace inflight
