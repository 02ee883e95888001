// SPDX-License-Identifier: GPL-3.0-or-later
// The scene language's vocabulary in one place: every statement with its syntax and one line of
// meaning, every `set` key with its values, the option keys and flags each statement takes. The
// parser takes its keywords and did-you-mean candidates from here, editors (the app's, the
// language server's) their completions and hover text, and scenes/LANGUAGE.md's quick reference
// lists the same syntax lines (test_parser checks that it does).
#pragma once

#include <span>
#include <string_view>

namespace inflight {

struct StatementInfo {
    std::string_view name;                     // the keyword: "send"
    std::string_view syntax;                   // as in LANGUAGE.md's quick reference, without the [PROCESS:] prefix
    std::string_view meaning;                  // one line
    std::span<const std::string_view> options; // key=value options, without '=': "fds", "bytes"
    std::span<const std::string_view> flags;   // bare words: "oob", "stream"
    bool takes_prefix = true;                  // "p: send ..." is allowed
    bool opens_block = false;                  // repeat, spawn, variant: the line ends with '{'
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
