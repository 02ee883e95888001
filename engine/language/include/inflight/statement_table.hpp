// SPDX-License-Identifier: GPL-3.0-or-later
// The scene language's vocabulary in one place: every statement with its syntax and one line of
// meaning, every `set` key with its values, the option keys and flags each statement takes. The
// parser takes its keywords and did-you-mean candidates from here, editors (the app's, the
// language server's) their completions and hover text, and scenes/LANGUAGE.md's quick reference
// lists the same syntax lines (test_parser checks that it does). The parser also dispatches on it:
// each row says how its line is read, so adding a statement is adding a row.
#pragma once

#include "inflight/scene.hpp"

#include <cstdint>
#include <span>
#include <string_view>

namespace inflight {

// How the parser reads a statement's line: parser.cpp has one function per grammar, and
// dispatches on this field, so a statement that reads like an existing one (`listen S`: one
// name, `simple`) is one row of the table.
enum class Grammar : std::uint8_t {
    title,       // scene "Title"
    setting,     // set NAME VALUE
    declaration, // user NAME / process NAME ...: declares op's kind of name
    repeat,      // the three block lines
    spawn,
    variant,
    note,
    socket, // socketpair / socket: min_names names, then a type
    bind,
    simple, // op with min_names to max_names names and nothing else
    connect,
    send,
    recv,
    setsockopt,
    expect,
    ask, // ask "QUESTION" answer, then an expect line's operands
    splice,
};

// max_names of a statement that takes any number of names (close, wait).
inline constexpr std::uint8_t kAnyNumber = 0xFF;

// How a statement line is read, and what the parser makes of it.
struct StatementParse {
    Grammar grammar = Grammar::simple;
    Op op = Op::note;                          // the statement it makes (simple, socket, declaration)
    std::uint8_t min_names = 0, max_names = 0; // simple and socket: how many names it takes
};

struct StatementInfo {
    std::string_view name;                     // the keyword: "send"
    std::string_view syntax;                   // as in LANGUAGE.md's quick reference, without the [PROCESS:] prefix
    std::string_view meaning;                  // one line
    std::span<const std::string_view> options; // key=value options, without '=': "fds", "bytes"
    std::span<const std::string_view> flags;   // bare words: "oob", "stream"
    bool takes_prefix = true;                  // "p: send ..." is allowed
    bool opens_block = false;                  // repeat, spawn, variant: the line ends with '{'
    StatementParse parse{};                    // how the parser reads the line (parser.cpp)
};

struct SettingInfo {
    std::string_view key;                     // "gc"
    std::string_view syntax;                  // "set gc classic|async|graph"
    std::string_view meaning;                 // one line
    std::span<const std::string_view> values; // the words it takes, when it takes words
};

std::span<const StatementInfo> statement_table();
const StatementInfo *find_statement(std::string_view name);
// The keywords alone, in table order (the parser's did-you-mean candidates).
std::span<const std::string_view> statement_names();

std::span<const SettingInfo> setting_table();
const SettingInfo *find_setting(std::string_view key);
std::span<const std::string_view> setting_keys();
std::span<const std::string_view> fix_names();    // set fix NAME: every kernel change
std::span<const std::string_view> kernel_names(); // set kernel VERSION: every profile

std::span<const std::string_view> expect_kinds(); // freed, alive, inflight, queue, error
std::span<const std::string_view> socket_types(); // stream, dgram, seqpacket
std::span<const std::string_view> errno_names();  // what `expect error` knows
std::span<const std::string_view> era_names();    // classic, async, graph

} // namespace inflight
