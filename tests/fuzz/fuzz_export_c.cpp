// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: a scene file, as an attacker would write one, through export-c: parse ->
// plan -> model -> the C program's source. It fails (abort) when the source holds anything a
// scene wrote outside a string literal, checked at the level of the C lexer without compiling:
// - only printable ASCII, tab and newline; no `??` (trigraphs); no backslash at a line end;
// - every string and character literal closes on its line and uses only the escapes c_literal()
//   writes (\" \\ \? and three octal digits) or the template's \n;
// - every comment is one of the fixed template's, or made of a safe alphabet (no * / \ ?);
// - the fixed parts (header, runtime, main's start and end) are there verbatim, and between them
//   every line is the template's shape: outside literals only the template's identifiers, the
//   errno table's names, numbers and punctuation.
// An input that starts with "FILE:" names the scene file with the bytes up to its first NUL.
// Built by the `fuzz` preset (clang, -fsanitize=fuzzer); replay_main.cpp runs the same function
// over the seed and regression corpora in the normal build (ctest fuzz_export_c_replay).
#include "export_c_runtime.hpp"
#include "fuzz_budget.hpp"
#include "inflight/errno_code.hpp"
#include "inflight/export_c.hpp"
#include "inflight/model_trace.hpp"
#include "inflight/parser.hpp"
#include "inflight/release_profile.hpp"
#include "inflight/replay_plan.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

using namespace inflight;

namespace {

[[noreturn]] void fail(const char *what, std::string_view source, std::size_t at)
{
    const std::size_t from = at > 200 ? at - 200 : 0;
    std::fprintf(stderr, "fuzz_export_c: %s at byte %zu\n...%s...\n", what, at,
                 std::string(source.substr(from, 400)).c_str());
    std::abort();
}

bool ident_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
bool octal(char c) { return c >= '0' && c <= '7'; }

// A comment a scene could have written no byte of: letters, digits, space and , . : ; ( ) ' + = # _ -
bool safe_comment(std::string_view text)
{
    for (const char c : text)
        if (!ident_char(c) && std::string_view(" ,.:;()'+=#-").find(c) == std::string_view::npos)
            return false;
    return true;
}

// What a lexer pass over C text finds outside literals.
struct Lexed {
    std::set<std::string> identifiers;
    std::set<std::string> comments;
};

// Walks C text as translation phase 3 does (after checking phases 1 and 2 have nothing to do);
// `allowed_comments`, when given, is what every comment must be unless its text is safe.
Lexed lex(std::string_view c, const std::set<std::string> *allowed_comments, std::string_view whole, std::size_t offset)
{
    Lexed out;
    for (std::size_t i = 0; i < c.size(); ++i) {
        const auto b = static_cast<unsigned char>(c[i]);
        if (!(b == '\n' || b == '\t' || (b >= 0x20 && b < 0x7f)))
            fail("a byte outside printable ASCII, tab and newline", whole, offset + i);
        if (c[i] == '?' && i + 1 < c.size() && c[i + 1] == '?')
            fail("a trigraph's '\?\?'", whole, offset + i);
        if (c[i] == '\\' && i + 1 < c.size() && c[i + 1] == '\n')
            fail("a line splice", whole, offset + i);
    }
    for (std::size_t i = 0; i < c.size();) {
        const char ch = c[i];
        if (ch == '/' && i + 1 < c.size() && (c[i + 1] == '*' || c[i + 1] == '/')) {
            const bool block = c[i + 1] == '*';
            const std::size_t end = block ? c.find("*/", i + 2) : c.find('\n', i + 2);
            if (end == std::string_view::npos)
                fail("a comment that does not end", whole, offset + i);
            const std::string text(c.substr(i + 2, end - i - 2));
            if (allowed_comments && !allowed_comments->count(text) && !safe_comment(text))
                fail("a comment that is neither the template's nor of the safe alphabet", whole, offset + i);
            out.comments.insert(text);
            i = block ? end + 2 : end;
        } else if (ch == '"' || ch == '\'') {
            std::size_t j = i + 1;
            for (;; ++j) {
                if (j >= c.size() || c[j] == '\n')
                    fail("a literal that does not close on its line", whole, offset + i);
                if (c[j] == ch)
                    break;
                if (c[j] != '\\')
                    continue;
                const char e = j + 1 < c.size() ? c[j + 1] : '\0';
                if (e == '"' || e == '\\' || e == '?' || e == 'n') {
                    ++j;
                } else if (j + 3 < c.size() && octal(e) && octal(c[j + 2]) && octal(c[j + 3])) {
                    j += 3;
                } else {
                    fail("an escape c_literal() does not write", whole, offset + j);
                }
            }
            i = j + 1;
        } else if (ident_start(ch)) {
            std::size_t j = i;
            while (j < c.size() && ident_char(c[j]))
                ++j;
            out.identifiers.insert(std::string(c.substr(i, j - i)));
            i = j;
        } else if (ch >= '0' && ch <= '9') {
            while (i < c.size() && ident_char(c[i])) // 42, 1UL, 0x1f
                ++i;
        } else {
            ++i;
        }
    }
    return out;
}

// The fixed parts of every program, and what may appear in the generated part between them.
struct Template {
    std::string prefix; // header and runtime
    std::set<std::string> comments;
    std::set<std::string> identifiers;
    Template()
    {
        prefix = std::string(realkernel::kExportHeader) + realkernel::kExportRuntime;
        for (const char *part : {realkernel::kExportHeader, realkernel::kExportRuntime, realkernel::kExportMainBegin,
                                 realkernel::kExportMainEnd}) {
            const Lexed l = lex(part, nullptr, part, 0);
            comments.insert(l.comments.begin(), l.comments.end());
            identifiers.insert(l.identifiers.begin(), l.identifiers.end());
        }
        for (std::string_view e : kErrnoNames)
            identifiers.insert(std::string(e));
        for (const char *extra : {"static", "const", "char", "scene_title", "scene_file", "model_name", "SOCK_STREAM",
                                  "SOCK_DGRAM", "SOCK_SEQPACKET", "SO_PASSRIGHTS", "SO_PASSCRED", "NULL"})
            identifiers.insert(extra);
    }
};

void check_source(const std::string &src)
{
    static const Template t;
    const std::string_view s(src);
    if (!s.starts_with(t.prefix))
        fail("the header and runtime are not the template's", s, 0);
    const std::size_t begin = s.find(realkernel::kExportMainBegin, t.prefix.size());
    if (begin == std::string_view::npos)
        fail("main()'s start is not the template's", s, t.prefix.size());
    if (!s.ends_with(realkernel::kExportMainEnd))
        fail("main()'s end is not the template's", s, s.size());
    const std::size_t body = begin + std::string_view(realkernel::kExportMainBegin).size();
    const std::size_t end = s.size() - std::string_view(realkernel::kExportMainEnd).size();
    if (body > end)
        fail("main()'s start and end overlap", s, begin);
    // The three strings before main, and the statements: generated text, held to the template.
    for (const auto &[from, to] : {std::pair{t.prefix.size(), begin}, std::pair{body, end}}) {
        const Lexed l = lex(s.substr(from, to - from), &t.comments, s, from);
        for (const std::string &id : l.identifiers)
            if (!t.identifiers.count(id))
                fail(("an identifier not in the template: " + id).c_str(), s, s.find(id, from));
    }
    // Each statement is one line: a tab, the call, ");".
    for (std::size_t at = body; at < end;) {
        const std::size_t nl = s.find('\n', at);
        const std::string_view line = s.substr(at, nl - at);
        if (!line.empty() && (!line.starts_with('\t') || !line.ends_with(");")))
            fail("a statement line not of the template's shape", s, at);
        at = nl + 1;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    std::string_view text(reinterpret_cast<const char *>(data), size);
    std::string file = "fuzz.scn";
    if (text.starts_with("FILE:")) {
        const std::size_t nul = text.find('\0');
        file = std::string(text.substr(5, nul == std::string_view::npos ? std::string_view::npos : nul - 5));
        text.remove_prefix(nul == std::string_view::npos ? text.size() : nul + 1);
    }
    ParseResult parsed = parse_scene(text, file, fuzz::fuzz_parse_limits());
    if (!parsed.ok())
        return 0;
    const ReplayPlan plan = plan_replay(parsed.scene, true);
    if (!plan.ok())
        return 0;
    static const ReleaseProfile profile = profile_for_release("6.18.0");
    const KernelProfile &kernel = model_profile(profile, std::nullopt);
    const ModelTrace model = trace_model(parsed.scene, plan, kernel);
    const ExportResult out = export_c(plan, model, parsed.scene.title, std::string(kernel.title));
    if (out.problems.empty())
        check_source(out.source);
    else if (!out.source.empty())
        fail("a refused export with a source", out.source, 0);
    return 0;
}
