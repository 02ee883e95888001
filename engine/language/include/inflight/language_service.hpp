// SPDX-License-Identifier: GPL-3.0-or-later
// What an editor asks about a scene being typed: its diagnostics (parse_scene()'s, with end
// columns and fix-its), completions at a position, hover text for a word, and an outline. The
// app's editor and `inflight-cli lsp` both call these, so every editor shows the same answers.
// Positions are 1-based lines and 1-based byte columns, like Diagnostic's.
#pragma once

#include "inflight/diagnostic.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inflight {

// parse_scene() on an editor's buffer: every diagnostic, each with its end column and, for a
// did-you-mean, its fix-it.
std::vector<Diagnostic> check_text(std::string_view text, const std::string &file_name);

struct CompletionItem {
    enum class Kind : unsigned char { statement, keyword, option, value, name };
    std::string label;  // what the list shows and, without a trailing "=", what is inserted
    std::string detail; // the syntax line, or what kind of name it is
    std::string documentation;
    Kind kind = Kind::keyword;
};

// The completions for the word being typed at (line, col): `col` is the cursor's column, so
// the line's first col - 1 bytes are before it. Statements at the start of a line, setting names
// and values after `set`, options and flags of the statement, the names defined so far.
// Not filtered by the word's beginning (`word_start` tells where it starts; editors filter).
std::vector<CompletionItem> complete_at(std::string_view text, std::uint32_t line, std::uint32_t col,
                                        std::uint32_t *word_start = nullptr);

struct HoverText {
    std::string text; // the syntax line, a blank line, the meaning
    std::uint32_t line = 0, col = 0, end_col = 0;
};
// What the word at (line, col) is: a statement's syntax and meaning, a setting's, an option's.
std::optional<HoverText> hover_at(std::string_view text, std::uint32_t line, std::uint32_t col);

// The scene's outline: its title, users, processes, sockets and blocks.
struct SceneSymbol {
    enum class Kind : unsigned char { title, user, process, socket, block };
    std::string name;
    std::string detail; // "socketpair", "repeat 3", ...
    Kind kind = Kind::socket;
    std::uint32_t line = 0, col = 0, end_col = 0;
    std::uint32_t end_line = 0; // a block's closing '}' (its own line when never closed)
};
std::vector<SceneSymbol> document_symbols(std::string_view text);

// Lines of `text` as the parser splits them (LF, CRLF), for position conversions.
std::vector<std::string_view> split_lines(std::string_view text);

} // namespace inflight
