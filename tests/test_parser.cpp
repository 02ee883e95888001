// SPDX-License-Identifier: GPL-3.0-or-later
// The scene language: parsing into Statements, diagnostics (exact line and column), template
// expansion, the unrolling cursor, the static checks, and robustness against arbitrary input.

#include "inflight/diagnostic.hpp"
#include "inflight/errno_code.hpp"
#include "inflight/gc_era.hpp"
#include "inflight/language_service.hpp"
#include "inflight/line_tokens.hpp"
#include "inflight/name_template.hpp"
#include "inflight/parser.hpp"
#include "inflight/scene_cursor.hpp"
#include "inflight/statement_table.hpp"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <random>
#include <set>
#include <string>

using namespace inflight;

namespace {

ParseResult parse(const std::string &text) { return parse_scene(text, "test.scene"); }

// Every diagnostic, one per line: the failure message of most checks below.
std::string all_diagnostics(const ParseResult &r)
{
    std::string out;
    for (const auto &d : r.diagnostics)
        out += d.format() + "\n";
    return out.empty() ? "(no diagnostics)" : out;
}

std::vector<const Diagnostic *> errors_of(const ParseResult &r)
{
    std::vector<const Diagnostic *> out;
    for (const auto &d : r.diagnostics)
        if (d.severity == Diagnostic::Severity::error)
            out.push_back(&d);
    return out;
}

std::vector<std::string> texts(const std::vector<NameTemplate> &names)
{
    std::vector<std::string> out;
    for (const auto &n : names)
        out.emplace_back(n.text);
    return out;
}

QString at(SourceLoc loc) { return QString("%1:%2").arg(loc.line).arg(loc.col); }

#define VERIFY_OK(result) QVERIFY2((result).ok(), all_diagnostics(result).c_str())

} // namespace

class TestParser : public QObject {
    Q_OBJECT

private slots:
    // The statement table (completion, hover, the parser's keywords) and LANGUAGE.md's quick
    // reference say the same: every statement's and every setting's syntax line is in it.
    void statementTableFollowsTheLanguageReference()
    {
        std::ifstream in(INFLIGHT_SOURCE_DIR "/scenes/LANGUAGE.md");
        const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const std::size_t quick = doc.find("## Quick reference");
        QVERIFY(quick != std::string::npos);
        const std::string reference = doc.substr(quick);
        for (const inflight::StatementInfo &s : inflight::statement_table()) {
            if (s.name == "set")
                continue; // its lines are the settings'
            QVERIFY2(reference.find(std::string(s.syntax)) != std::string::npos, s.syntax.data());
            QVERIFY(!s.meaning.empty());
        }
        for (const inflight::SettingInfo &s : inflight::setting_table())
            QVERIFY2(reference.find(std::string(s.syntax)) != std::string::npos, s.syntax.data());
        // Every keyword the parser knows is a statement of the table, and nothing else is.
        for (std::string_view k : inflight::statement_names()) {
            const auto r = inflight::parse_scene(std::string(k) + "\n", "k.scn");
            for (const auto &d : r.diagnostics)
                QVERIFY2(d.message.find("unknown statement") == std::string::npos, d.message.c_str());
        }
    }

    // Every diagnostic ends where the offending word does; a did-you-mean is a fix-it.
    void diagnosticsHaveEndColumnsAndFixes()
    {
        const auto r =
            inflight::parse_scene("socketpair a b\n  sned a fds=b\nsend a fdz=b\np:clsoe a\nrepeat 2\n", "f.scn");
        std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::string>> got;
        for (const auto &d : r.diagnostics)
            got.emplace_back(d.loc.line, d.loc.col, d.end_col, d.fix ? d.fix->replacement : std::string("-"));
        const decltype(got) want{
            {2, 3, 7, "send"}, {3, 8, 11, "fds"}, {4, 3, 8, "close"}, {5, 1, 7, "-"}, {5, 9, 10, "-"}};
        for (const auto &w : want)
            QVERIFY2(std::find(got.begin(), got.end(), w) != got.end(),
                     (std::to_string(std::get<0>(w)) + ":" + std::to_string(std::get<1>(w))).c_str());
        for (const auto &d : r.diagnostics)
            if (d.fix) {
                QCOMPARE(d.fix->line, d.loc.line);
                QCOMPARE(d.fix->col, d.loc.col);
                QCOMPARE(d.fix->end_col, d.end_col);
            }
    }

    // The highlighter's pieces come from the parser's tokenizer.
    void syntaxTokensColourWhatTheParserReads()
    {
        using K = inflight::SyntaxKind;
        const auto t = inflight::syntax_tokens("p: send a fds=b,c bytes=10 oob to=@x \"s\" # c");
        std::vector<std::pair<std::uint32_t, K>> got;
        for (const auto &s : t)
            got.emplace_back(s.col, s.kind);
        const decltype(got) want{{1, K::prefix},  {4, K::keyword},  {9, K::name},    {11, K::option},
                                 {15, K::name},   {19, K::option},  {25, K::number}, {28, K::flag},
                                 {32, K::option}, {35, K::address}, {38, K::string}, {42, K::comment}};
        QCOMPARE(got, want);
        QCOMPARE(inflight::syntax_tokens("note \"open").back().kind, K::error);
        QCOMPARE(inflight::syntax_tokens("set gc graph")[2].kind, K::flag);
    }

    // ---- statements into fields -------------------------------------------------------------

    void settingsAndTitle()
    {
        const auto r = parse("scene \"Triangle \\\"of\\\" death\"\n"
                             "set gc graph\n"
                             "set fix unify-scc-index\n"
                             "set nofile 16\n"
                             "set seed 42\n"
                             "set limit 500\n"
                             "set check on\n");
        VERIFY_OK(r);
        QVERIFY(r.diagnostics.empty());
        QCOMPARE(r.scene.title, std::string("Triangle \"of\" death"));
        QCOMPARE(r.scene.settings.gc, GcEra::graph);
        QVERIFY(r.scene.settings.fixes.get(KernelChange::unify_scc_index).value_or(false));
        QCOMPARE(r.scene.settings.nofile, std::uint64_t(16));
        QCOMPARE(r.scene.settings.seed, std::uint64_t(42));
        QCOMPARE(r.scene.settings.budget[Budget::objects], std::uint64_t(500));
        QVERIFY(r.scene.settings.checked);
        QVERIFY(r.scene.statements.empty());
        QCOMPARE(r.scene.lines.size(), std::size_t(7));
        QCOMPARE(r.scene.lines[1], std::string("set gc graph"));
    }

    void defaults()
    {
        const auto r = parse_scene("gc\n", "scenes/ring-of-four.scene");
        VERIFY_OK(r);
        QCOMPARE(r.scene.title, std::string("ring-of-four"));
        QCOMPARE(r.scene.file, std::string("scenes/ring-of-four.scene"));
        QCOMPARE(r.scene.settings.gc, GcEra::async);
        QVERIFY(!r.scene.settings.fixes.get(KernelChange::unify_scc_index).value_or(false));
        QCOMPARE(r.scene.settings.nofile, std::uint64_t(1024));
        QCOMPARE(r.scene.settings.budget[Budget::objects], std::uint64_t(2'000'000));
        QVERIFY(!r.scene.settings.checked);
        QCOMPARE(r.scene.statements.size(), std::size_t(1));
        QCOMPARE(r.scene.statements[0].op, Op::gc);
        QVERIFY(r.scene.statements[0].process.empty());
    }

    void repeatedSameSettingIsFine()
    {
        const auto r = parse("set gc classic\nset gc classic\nset check off\nset check off\n");
        VERIFY_OK(r);
        QCOMPARE(r.scene.settings.gc, GcEra::classic);
    }

    void collectorsSetting()
    {
        // The eras a scene's expectations hold for, in any order; repeating one is harmless.
        const auto r = parse("set collectors graph classic classic\nset collectors classic graph\n");
        VERIFY_OK(r);
        QVERIFY(r.diagnostics.empty());
    }

    void fixWithoutGraphWarns()
    {
        const auto r = parse("set fix unify-scc-index\nset gc classic\n");
        VERIFY_OK(r); // a warning, not an error
        QCOMPARE(r.diagnostics.size(), std::size_t(1));
        QCOMPARE(r.diagnostics[0].severity, Diagnostic::Severity::warning);
        QCOMPARE(r.diagnostics[0].loc.line, 1u);
        QVERIFY(r.diagnostics[0].message.find("graph") != std::string::npos);
        QVERIFY(r.diagnostics[0].format().find("test.scene:1:1: warning: ") == 0);
    }

    void declarations()
    {
        const auto r = parse("user alice\nprocess p user=alice\nprocess q\n");
        VERIFY_OK(r);
        const auto &s = r.scene.statements;
        QCOMPARE(s.size(), std::size_t(3));
        QCOMPARE(s[0].op, Op::user_decl);
        QCOMPARE(texts(s[0].names), std::vector<std::string>{"alice"});
        QCOMPARE(s[1].op, Op::process_decl);
        QCOMPARE(texts(s[1].names), std::vector<std::string>{"p"});
        QCOMPARE(s[1].text, std::string("alice"));
        QCOMPARE(s[1].text_loc.col, 16u);
        QCOMPARE(s[2].text, std::string("root"));
    }

    void socketStatements()
    {
        const auto r = parse("socketpair a b\n"
                             "socketpair c d dgram\n"
                             "socket s seqpacket\n"
                             "bind s @srv.0-x\n"
                             "bind c\n"
                             "listen s\n"
                             "socket k\n"
                             "connect k @srv.0-x\n"
                             "connect d s\n"
                             "accept s k2\n"
                             "dup a a2\n"
                             "close a b a2\n"
                             "setsockopt s passrights=off\n"
                             "setsockopt s passcred=on\n");
        VERIFY_OK(r);
        const auto &s = r.scene.statements;
        QCOMPARE(s.size(), std::size_t(14));
        QCOMPARE(s[0].op, Op::socketpair);
        QCOMPARE(texts(s[0].names), (std::vector<std::string>{"a", "b"}));
        QCOMPARE(s[0].type, SockType::stream);
        QCOMPARE(s[1].type, SockType::dgram);
        QCOMPARE(s[2].op, Op::socket);
        QCOMPARE(s[2].type, SockType::seqpacket);
        QCOMPARE(s[3].op, Op::bind);
        QVERIFY(s[3].address.has_value());
        QCOMPARE(s[3].address->text, std::string("srv.0-x"));
        QCOMPARE(s[3].address->loc.col, 9u); // after the '@'
        QVERIFY(!s[4].address.has_value());  // autobind
        QCOMPARE(s[5].op, Op::listen);
        QCOMPARE(s[7].op, Op::connect);
        QCOMPARE(texts(s[7].names), std::vector<std::string>{"k"});
        QCOMPARE(s[7].address->text, std::string("srv.0-x"));
        QVERIFY(!s[8].address.has_value());
        QCOMPARE(texts(s[8].names), (std::vector<std::string>{"d", "s"}));
        QCOMPARE(s[9].op, Op::accept);
        QCOMPARE(texts(s[9].names), (std::vector<std::string>{"s", "k2"}));
        QCOMPARE(s[10].op, Op::dup);
        QCOMPARE(texts(s[10].names), (std::vector<std::string>{"a", "a2"}));
        QCOMPARE(s[11].op, Op::close);
        QCOMPARE(texts(s[11].names), (std::vector<std::string>{"a", "b", "a2"}));
        QCOMPARE(s[12].op, Op::setsockopt);
        QCOMPARE(s[12].option, SockOpt::passrights);
        QCOMPARE(s[12].option_value, false);
        QCOMPARE(s[13].option, SockOpt::passcred);
        QCOMPARE(s[13].option_value, true);
    }

    void sendAndRecv()
    {
        const auto r = parse("socketpair a b\n"
                             "send a\n"
                             "send a oob to=@peer bytes=100 fds=a,b\n"
                             "send a fds=\n"
                             "recv b fds=x,y peek oob\n"
                             "recv b\n");
        VERIFY_OK(r);
        const auto &s = r.scene.statements;
        QCOMPARE(s[1].op, Op::send);
        QVERIFY(!s[1].has_fds);
        QCOMPARE(s[1].bytes, std::uint64_t(1));
        QVERIFY(!s[1].oob);
        QVERIFY(!s[1].address.has_value());

        QVERIFY(s[2].has_fds);
        QCOMPARE(texts(s[2].fds), (std::vector<std::string>{"a", "b"}));
        QCOMPARE(s[2].fds[1].loc.col, 37u);
        QCOMPARE(s[2].bytes, std::uint64_t(100));
        QVERIFY(s[2].oob);
        QCOMPARE(s[2].address->text, std::string("peer"));

        QVERIFY(s[3].has_fds); // fds= with nothing: "send with an empty fd list"
        QVERIFY(s[3].fds.empty());

        QCOMPARE(s[4].op, Op::recv);
        QCOMPARE(texts(s[4].fds), (std::vector<std::string>{"x", "y"}));
        QVERIFY(s[4].peek);
        QVERIFY(s[4].oob);
        QVERIFY(!s[5].has_fds);
        QVERIFY(!s[5].peek);
    }

    void expectations()
    {
        const auto r = parse("socketpair a b\n"
                             "socket s\n"
                             "bind s @x\n"
                             "listen s\n"
                             "socket c\n"
                             "connect c @x\n"
                             "accept s c2\n"
                             "expect freed a b\n"
                             "expect alive embryo(c) c2\n"
                             "expect inflight a 3\n"
                             "expect queue s 0\n"
                             "close a\n"
                             "close a\n"
                             "expect error EBADF\n");
        VERIFY_OK(r);
        const auto &s = r.scene.statements;
        QCOMPARE(s[7].op, Op::expect_freed);
        QCOMPARE(texts(s[7].names), (std::vector<std::string>{"a", "b"}));
        QCOMPARE(s[8].op, Op::expect_alive);
        QCOMPARE(texts(s[8].names), (std::vector<std::string>{"embryo(c)", "c2"}));
        QCOMPARE(s[9].op, Op::expect_inflight);
        QCOMPARE(s[9].count, std::int64_t(3));
        QCOMPARE(s[10].op, Op::expect_queue);
        QCOMPARE(s[10].count, std::int64_t(0));
        QCOMPARE(s[13].op, Op::expect_error);
        QCOMPARE(errno_name(s[13].error), std::string_view("EBADF"));
    }

    // ask "QUESTION" answer ...: an expectation (expect's op and operands) with its question.
    void asks()
    {
        const auto r = parse("socketpair a b\n"
                             "ask \"Which socket goes?\" answer freed a\n"
                             "close a\n"
                             "ask \"And \\\"b\\\"?\" answer inflight b 0\n"
                             "close b\n"
                             "ask \"What does this close return?\" answer error EBADF\n"
                             "close b\n");
        VERIFY_OK(r);
        const auto &s = r.scene.statements;
        QCOMPARE(s[1].op, Op::expect_freed);
        QVERIFY(s[1].ask);
        QCOMPARE(s[1].ask->question, std::string("Which socket goes?"));
        QCOMPARE(at(s[1].ask->question_loc), QString("2:5"));
        QCOMPARE(at(s[1].ask->answer_loc), QString("2:26"));
        QCOMPARE(texts(s[1].names), (std::vector<std::string>{"a"}));
        QCOMPARE(s[3].op, Op::expect_inflight);
        QCOMPARE(s[3].ask->question, std::string("And \"b\"?"));
        QCOMPARE(s[3].count, std::int64_t(0));
        QCOMPARE(s[5].op, Op::expect_error);
        QCOMPARE(errno_name(s[5].error), std::string_view("EBADF"));
        QVERIFY(!s[2].ask);
    }

    // The answer's labels are checked once the statement after the ask has run: an ask may be
    // about the sockets that statement creates; and that statement must be there and act.
    void asksAreCheckedAfterTheirStatement()
    {
        VERIFY_OK(parse("ask \"What does this make?\" answer alive a b\nsocketpair a b\n"));
        VERIFY_OK(parse("repeat 2 {\n  ask \"Which?\" answer alive u$i\n  socket u$i\n}\n"));
        const auto unknown = parse("ask \"Which?\" answer alive a\nsocketpair b c\n");
        QVERIFY(!unknown.ok());
        QCOMPARE(at(errors_of(unknown)[0]->loc), QString("1:27"));
        const auto dangling = parse("socketpair a b\nask \"Which?\" answer alive a\n");
        QVERIFY(!dangling.ok());
        QCOMPARE(at(errors_of(dangling)[0]->loc), QString("2:1"));
        QVERIFY(errors_of(dangling)[0]->message.find("needs the statement it asks about") != std::string::npos);
        for (const char *next :
             {"note \"x\"", "expect alive a", "ask \"y\" answer alive a\nclose b", "repeat 1 {\n}"}) {
            const auto r = parse(std::string("socketpair a b\nask \"Which?\" answer alive a\n") + next + "\n");
            const auto errors = errors_of(r);
            QVERIFY2(!errors.empty() && errors[0]->loc.line == 2 &&
                         errors[0]->message.find("is about the statement after it") != std::string::npos,
                     all_diagnostics(r).c_str());
        }
        // An error answer is about the statement after the ask, which is there to check.
        VERIFY_OK(parse("socket a\nask \"What now?\" answer error EBADF\nclose a\nclose a\n"));
    }

    // The editors' side of ask: offered as a statement, then `answer`, then expect's words; its
    // keyword and `answer` explained on hover; `answer` and the kinds coloured as flags.
    void askInTheEditors()
    {
        const auto labels = [](std::string_view text, std::uint32_t line, std::uint32_t col) {
            std::set<std::string> out;
            for (const CompletionItem &i : complete_at(text, line, col))
                out.insert(i.label);
            return out;
        };
        QVERIFY(labels("as", 1, 3).count("ask"));
        const std::string text = "socketpair a b\nask \"Which one goes?\" \nask \"Which?\" answer \n"
                                 "ask \"Which?\" answer freed \nask \"What now?\" answer error \nask \"Which \n";
        QCOMPARE(labels(text, 2, 23), (std::set<std::string>{"answer"}));
        QVERIFY(labels(text, 3, 21).count("freed"));
        QVERIFY(labels(text, 4, 27).count("a"));
        QVERIFY(labels(text, 5, 30).count("EBADF"));
        QVERIFY(labels(text, 6, 12).empty()); // inside the question
        const auto keyword = hover_at(text, 3, 2);
        QVERIFY(keyword && keyword->text.find("ask \"QUESTION\" answer") == 0);
        QVERIFY(keyword->text.find("presentation") != std::string::npos);
        const auto answer = hover_at(text, 3, 16);
        QVERIFY(answer && answer->text.find("expect's forms") != std::string::npos);
        const auto kinds = syntax_tokens("ask \"Which?\" answer error EBADF");
        QCOMPARE(kinds.size(), std::size_t(5));
        QCOMPARE(kinds[0].kind, SyntaxKind::keyword);
        QCOMPARE(kinds[1].kind, SyntaxKind::string);
        for (std::size_t i = 2; i < kinds.size(); ++i)
            QCOMPARE(kinds[i].kind, SyntaxKind::flag);
    }

    void allErrnoNames()
    {
        for (int i = 1; i <= 17; ++i) {
            const auto e = static_cast<Errno>(i);
            const auto r = parse("gc\nexpect error " + std::string(errno_name(e)) + "\n");
            VERIFY_OK(r);
            QCOMPARE(r.scene.statements[1].error, e);
        }
    }

    void notesAndComments()
    {
        const auto r = parse("# a whole-line comment\n"
                             "\n"
                             "   note \"a # is text here, \\\\ and \\\" too\"   # but this is a comment\r\n"
                             "gc # trailing\n");
        VERIFY_OK(r);
        const auto &s = r.scene.statements;
        QCOMPARE(s.size(), std::size_t(2));
        QCOMPARE(s[0].op, Op::note);
        QCOMPARE(s[0].text, std::string("a # is text here, \\ and \" too"));
        QCOMPARE(s[0].loc.line, 3u);
        QCOMPARE(s[0].loc.col, 4u);
        QCOMPARE(s[0].text_loc.col, 9u);
        QCOMPARE(s[1].loc.line, 4u);
        QCOMPARE(r.scene.lines[2].back(), 't'); // the \r of \r\n is not part of the line
    }

    // note ERA... "text": the collectors the note is written for.
    void notesForSomeCollectors()
    {
        const auto r = parse("note graph \"Tarjan\"\nnote classic async \"counting\"\nnote \"all\"\n");
        VERIFY_OK(r);
        const auto &s = r.scene.statements;
        QCOMPARE(s.size(), std::size_t(3));
        QCOMPARE(s[0].note_eras, std::vector<GcEra>{GcEra::graph});
        QCOMPARE(s[0].text, std::string("Tarjan"));
        QCOMPARE(s[0].text_loc.col, 12u);
        QCOMPARE(s[1].note_eras, (std::vector<GcEra>{GcEra::classic, GcEra::async}));
        QVERIFY(s[2].note_eras.empty());
    }

    void processPrefix()
    {
        const auto r = parse("process p\n"
                             "p: socketpair a b\n"
                             "p:send a fds=b\n"
                             "  p:   close a\n");
        VERIFY_OK(r);
        const auto &s = r.scene.statements;
        QCOMPARE(s[1].process, std::string("p"));
        QCOMPARE(s[1].process_loc.col, 1u);
        QCOMPARE(s[1].loc.col, 4u);
        QCOMPARE(s[2].op, Op::send);
        QCOMPARE(s[2].loc.col, 3u);
        QCOMPARE(s[3].process_loc.col, 3u);
        QCOMPARE(s[3].loc.col, 8u);
        QCOMPARE(s[3].op, Op::close);
    }

    void columns()
    {
        const auto r = parse("socketpair  left\tright\n");
        VERIFY_OK(r);
        const auto &s = r.scene.statements[0];
        QCOMPARE(at(s.loc), QString("1:1"));
        QCOMPARE(s.names[0].loc.col, 13u);
        QCOMPARE(s.names[1].loc.col, 18u); // a tab is one column
    }

    void repeatBlocks()
    {
        const auto r = parse("repeat 4 as k {\n"
                             "  socketpair a$k b${k}\n"
                             "  repeat 2 {\n"
                             "    note \"inner\"\n"
                             "  }\n"
                             "  repeat 0 {\n"
                             "  }\n"
                             "}\n"
                             "repeat 3{\n"
                             "  gc\n"
                             "}\n");
        VERIFY_OK(r);
        const auto &s = r.scene.statements;
        QCOMPARE(s.size(), std::size_t(2));
        QCOMPARE(s[0].op, Op::repeat);
        QCOMPARE(s[0].count, std::int64_t(4));
        QCOMPARE(s[0].loop_var, std::string("k"));
        QCOMPARE(at(s[0].loc), QString("1:1"));
        QCOMPARE(s[0].body.size(), std::size_t(3));
        const auto &pair = s[0].body[0];
        QCOMPARE(texts(pair.names), (std::vector<std::string>{"a$k", "b${k}"}));
        QVERIFY(pair.names[0].has_vars());
        QCOMPARE(at(pair.names[1].loc), QString("2:18"));
        QCOMPARE(s[0].body[1].loop_var, std::string("i"));
        QCOMPARE(s[0].body[1].count, std::int64_t(2));
        QCOMPARE(s[0].body[1].body.size(), std::size_t(1));
        QCOMPARE(s[0].body[2].count, std::int64_t(0));
        QVERIFY(s[0].body[2].body.empty());
        QCOMPARE(s[1].count, std::int64_t(3));
        QCOMPARE(s[1].body.size(), std::size_t(1));
    }

    void templatesWithSpaces()
    {
        const auto r = parse("repeat 4 {\n  socket s${ (i + 1) % 4 }\n}\n");
        VERIFY_OK(r);
        QCOMPARE(r.scene.statements[0].body[0].names[0].text, std::string("s${ (i + 1) % 4 }"));
    }

    void shadowedLoopVariableWarns()
    {
        const auto r = parse("repeat 2 {\n  repeat 2 {\n    gc\n  }\n}\n");
        VERIFY_OK(r);
        QCOMPARE(r.diagnostics.size(), std::size_t(1));
        QCOMPARE(r.diagnostics[0].severity, Diagnostic::Severity::warning);
        QCOMPARE(at(r.diagnostics[0].loc), QString("2:3"));
    }

    void allowedBraceOnNextLine()
    {
        // A forgotten '{' is one error, and a lone '{' on the next line is taken as the brace.
        const auto r = parse("repeat 2\n{\n  gc\n}\n");
        const auto errors = errors_of(r);
        QCOMPARE(errors.size(), std::size_t(1));
        QCOMPARE(at(errors[0]->loc), QString("1:9"));
        QCOMPARE(r.scene.statements.size(), std::size_t(1));
        QCOMPARE(r.scene.statements[0].body.size(), std::size_t(1));
    }

    // ---- modelled time: settings, cpus, spawn, wait, splice, variants --------------------------

    void timeSettings()
    {
        const auto r = parse("set cpus 4\n"
                             "set cost lock 40\n"
                             "set cost gc_vertex 0\n"
                             "set autobind random-v1\n"
                             "set creds-by-default on\n"
                             "set table-lock global\n"
                             "set fix splice-no-checksum off\n"
                             "set gc graph\n"
                             "set fix unify-scc-index on\n"
                             "set cost lock 40\n"); // the same value again: harmless
        VERIFY_OK(r);
        QVERIFY2(r.diagnostics.empty(), all_diagnostics(r).c_str());
        const auto &st = r.scene.settings;
        QCOMPARE(st.cpus, 4u);
        QCOMPARE(st.costs.size(), std::size_t(2));
        QCOMPARE(st.costs[0].name, std::string("lock"));
        QCOMPARE(st.costs[0].ns, std::uint64_t(40));
        QCOMPARE(at(st.costs[0].loc), QString("2:10"));
        QCOMPARE(st.costs[1].name, std::string("gc_vertex"));
        QCOMPARE(st.costs[1].ns, std::uint64_t(0));
        QCOMPARE(st.autobind, AutobindMode::random_v1);
        QVERIFY(st.creds_by_default);
        QVERIFY(st.global_table_lock.value_or(false));
        QVERIFY(!st.fixes.get(KernelChange::splice_no_checksum).value_or(true));
        QVERIFY(st.fixes.get(KernelChange::unify_scc_index).value_or(false));

        const auto others = parse("set autobind sequential\nset table-lock per-bucket\nset creds-by-default off\n"
                                  "set fix splice-no-checksum\nset cost hash_chain_entry 1000000000000\n");
        VERIFY_OK(others);
        QCOMPARE(*others.scene.settings.autobind, AutobindMode::sequential);
        QVERIFY(!others.scene.settings.global_table_lock.value_or(false));
        QVERIFY(!others.scene.settings.creds_by_default);
        QVERIFY(others.scene.settings.fixes.get(KernelChange::splice_no_checksum).value_or(true));
        QCOMPARE(others.scene.settings.costs.at(0).ns, std::uint64_t(1'000'000'000'000));
        QCOMPARE(*parse("set autobind random\n").scene.settings.autobind, AutobindMode::random);
    }

    void timeSettingDefaults()
    {
        const auto r = parse("gc\n");
        VERIFY_OK(r);
        const auto &st = r.scene.settings;
        QCOMPARE(st.cpus, 1u);
        QVERIFY(st.costs.empty());
        QVERIFY(!st.autobind); // the profile's: random from 5.17
        QVERIFY(!st.creds_by_default);
        QVERIFY(!st.global_table_lock);
        QVERIFY(st.fixes.get(KernelChange::splice_no_checksum).value_or(true));
        QVERIFY(r.scene.variants.empty());
    }

    // expect VARIANT... / note VARIANT...: both sides of a bug in one scene (scenes/bugs/).
    void expectationsNameVariants()
    {
        const auto r = parse("variant fixed {\n}\nvariant buggy {\n  set fix oob-gc-kfree off\n}\n"
                             "socketpair a b\nnote buggy \"leaks\"\nexpect buggy fixed alive a\nexpect freed b\n");
        VERIFY_OK(r);
        const auto &st = r.scene.statements;
        QCOMPARE(st[1].only_variants, (std::vector<std::string>{"buggy"}));
        QCOMPARE(st[2].op, Op::expect_alive);
        QCOMPARE(st[2].only_variants, (std::vector<std::string>{"buggy", "fixed"}));
        QVERIFY(st[3].only_variants.empty());
        QCOMPARE(r.scene.variants[1].settings.variant, std::string("buggy"));
        // A name that is no variant (or one declared later) is not taken for one.
        const auto bad = parse("socketpair a b\nexpect later alive a\nvariant later {\n}\n");
        QVERIFY(!bad.ok());
        QVERIFY(bad.diagnostics[0].message.find("later") != std::string::npos);
    }

    // spawn NAME when POINT SOCK [until POINT SOCK]: a race, with its points and located errors.
    void raceSpawns()
    {
        const auto r = parse("socketpair a b\nspawn t when connect a until restore b {\n  close b\n}\n"
                             "spawn u cpu=0 when peek a {\n}\nexpect finding use-after-free\n");
        VERIFY_OK(r);
        const auto &st = r.scene.statements;
        QCOMPARE(st[1].op, Op::spawn);
        QVERIFY(st[1].race && st[1].race->until);
        QCOMPARE(st[1].race->when.kind, RacePointKind::connect);
        QCOMPARE(std::string(st[1].race->when.sock.text.view()), std::string("a"));
        QCOMPARE(st[1].race->until->kind, RacePointKind::restore);
        QCOMPARE(std::string(st[1].race->until->sock.text.view()), std::string("b"));
        QCOMPARE(st[2].race->when.kind, RacePointKind::peek);
        QVERIFY(!st[2].race->until);
        QCOMPARE(st[3].op, Op::expect_finding);
        QCOMPARE(st[3].text, std::string("use-after-free"));
        struct Bad {
            const char *text;
            std::uint32_t col;
            const char *says;
        };
        for (const Bad &b : {Bad{"socket a\nspawn t when pick a {\n}\n", 14, "unknown race point 'pick'"},
                             Bad{"socket a\nspawn t when select {\n}\n", 14, "needs the socket"},
                             Bad{"socket a\nspawn t when {\n}\n", 9, "needs a point and a socket"},
                             Bad{"socket a\nspawn t until select a {\n}\n", 9, "until needs a when"},
                             Bad{"socket a\nspawn t when select a now {\n}\n", 23, "unexpected 'now'"},
                             Bad{"socket a\nexpect finding\n", 8, "expect finding needs one word"}}) {
            const auto bad = parse(b.text);
            QVERIFY2(!bad.ok(), b.text);
            QCOMPARE(bad.diagnostics[0].loc.line, 2u);
            QVERIFY2(bad.diagnostics[0].message.find(b.says) != std::string::npos, bad.diagnostics[0].message.c_str());
            QCOMPARE(bad.diagnostics[0].loc.col, b.col);
        }
        // Every point the docs list parses.
        for (RacePointKind k : race_point_kinds()) {
            const auto one = parse("socket a\nspawn t when " + std::string(race_point_name(k)) + " a {\n}\n");
            VERIFY_OK(one);
            QCOMPARE(one.scene.statements[1].race->when.kind, k);
        }
    }

    void fixOnOff()
    {
        // `off` turns a fix off, and then there is nothing to warn about under another era.
        const auto off = parse("set gc classic\nset fix unify-scc-index off\n");
        VERIFY_OK(off);
        QVERIFY2(off.diagnostics.empty(), all_diagnostics(off).c_str());
        QVERIFY(!off.scene.settings.fixes.get(KernelChange::unify_scc_index).value_or(false));
        // Each fix is its own setting: both may be given, each once.
        const auto both = parse("set gc graph\nset fix unify-scc-index\nset fix splice-no-checksum off\n");
        VERIFY_OK(both);
        QVERIFY(both.scene.settings.fixes.get(KernelChange::unify_scc_index).value_or(false));
        QVERIFY(!both.scene.settings.fixes.get(KernelChange::splice_no_checksum).value_or(true));
        // The rule that unify-scc-index needs the graph collector still holds with an explicit on.
        const auto warn = parse("set fix unify-scc-index on\n");
        VERIFY_OK(warn);
        QCOMPARE(warn.diagnostics.size(), std::size_t(1));
        QCOMPARE(warn.diagnostics[0].severity, Diagnostic::Severity::warning);
        QVERIFY(warn.diagnostics[0].message.find("only applies to 'set gc graph'") != std::string::npos);
    }

    void processCpu()
    {
        // cpu= is checked against the scene's final `set cpus`, wherever that line is.
        const auto r = parse("user alice\nprocess p user=alice cpu=3\nprocess q cpu=0\nprocess s\nset cpus 4\n");
        VERIFY_OK(r);
        const auto &s = r.scene.statements;
        QCOMPARE(s[1].cpu.text, std::string("3"));
        QVERIFY(!s[1].cpu.has_vars());
        QCOMPARE(at(s[1].cpu.loc), QString("2:26"));
        QCOMPARE(s[1].text, std::string("alice"));
        QCOMPARE(s[2].cpu.text, std::string("0"));
        QVERIFY(s[3].cpu.text.empty()); // not given
    }

    // fds=s{0..3} is s0,s1,s2,s3 (bash-style), also around a ${...} template, and mixed with
    // plain names; a range that counts down, is not a number, or is unclosed is an error.
    void fdRanges()
    {
        const auto r =
            parse("repeat 4 as i {\n  socket s$i dgram\n}\nsocketpair a b dgram\n"
                  "send a fds=s{0..3},b\n"
                  "repeat 2 as k {\n  socket x${k}_0 dgram\n  socket x${k}_1 dgram\n  send a fds=x${k}_{0..1}\n}\n");
        VERIFY_OK(r);
        const Statement &send = r.scene.statements[2];
        QCOMPARE(send.op, Op::send);
        QCOMPARE(texts(send.fds), (std::vector<std::string>{"s0", "s1", "s2", "s3", "b"}));
        const Statement &inner = r.scene.statements[3].body[2];
        QCOMPARE(texts(inner.fds), (std::vector<std::string>{"x${k}_0", "x${k}_1"}));
        QVERIFY(inner.fds[0].has_vars());

        const auto bad = parse("socketpair a b dgram\nsend a fds=s{3..1}\nsend a fds=s{0..x}\nsend a fds=s{0..2\n");
        const auto errors = errors_of(bad);
        QCOMPARE(errors.size(), std::size_t(3));
        QCOMPARE(at(errors[0]->loc), QString("2:13"));
        QVERIFY(errors[0]->message.find("must count up") != std::string::npos);
        QCOMPARE(at(errors[1]->loc), QString("3:17"));
        QVERIFY(errors[2]->message.find("bad range") != std::string::npos);
    }

    void spawnBlocks()
    {
        const auto r = parse("set cpus 4\n"
                             "process p\n"
                             "socketpair a b\n"
                             "p: socketpair pa pb\n"
                             "spawn p cpu=1 {\n"
                             "  send pa bytes=10\n"
                             "}\n"
                             "repeat 4 as k {\n"
                             "  spawn w$k cpu=${k % 2} {\n"
                             "    send a fds=b\n"
                             "    repeat 2 {\n"
                             "      recv b fds=r${k}_$i\n"
                             "    }\n"
                             "  }\n"
                             "  spawn v${k} cpu=$k{\n"
                             "  }\n"
                             "}\n"
                             "spawn plain {\n"
                             "  gc\n"
                             "}\n"
                             "wait w0 w3 p\n"
                             "repeat 4 {\n"
                             "  wait w$i\n"
                             "}\n"
                             "wait\n"
                             "set cpus 4\n"
                             "set cpus 4\n");
        VERIFY_OK(r);
        const auto &s = r.scene.statements;
        QCOMPARE(s.size(), std::size_t(9));
        const Statement &sp = s[3];
        QCOMPARE(sp.op, Op::spawn);
        QCOMPARE(at(sp.loc), QString("5:1"));
        QCOMPARE(texts(sp.names), std::vector<std::string>{"p"});
        QVERIFY(!sp.names[0].has_vars());
        QCOMPARE(sp.cpu.text, std::string("1"));
        QCOMPARE(at(sp.cpu.loc), QString("5:13"));
        QCOMPARE(sp.body.size(), std::size_t(1));
        QCOMPARE(sp.body[0].op, Op::send);
        QVERIFY(sp.body[0].process.empty());

        const Statement &rep = s[4];
        QCOMPARE(rep.op, Op::repeat);
        QCOMPARE(rep.body.size(), std::size_t(2));
        const Statement &w = rep.body[0];
        QCOMPARE(w.op, Op::spawn);
        QCOMPARE(texts(w.names), std::vector<std::string>{"w$k"});
        QVERIFY(w.names[0].has_vars());
        QCOMPARE(at(w.names[0].loc), QString("9:9"));
        QCOMPARE(w.cpu.text, std::string("${k % 2}"));
        QVERIFY(w.cpu.has_vars());
        QCOMPARE(at(w.cpu.loc), QString("9:17"));
        QCOMPARE(w.body.size(), std::size_t(2));
        QCOMPARE(w.body[1].op, Op::repeat);
        QCOMPARE(texts(w.body[1].body[0].fds), std::vector<std::string>{"r${k}_$i"});
        const Statement &v = rep.body[1];
        QCOMPARE(texts(v.names), std::vector<std::string>{"v${k}"}); // "cpu=$k{": the '{' is the brace
        QCOMPARE(v.cpu.text, std::string("$k"));
        QVERIFY(v.cpu.has_vars());
        QVERIFY(v.body.empty());

        QCOMPARE(s[5].op, Op::spawn);
        QVERIFY(s[5].cpu.text.empty());
        QCOMPARE(s[6].op, Op::wait);
        QCOMPARE(texts(s[6].names), (std::vector<std::string>{"w0", "w3", "p"}));
        QCOMPARE(at(s[6].names[1].loc), QString("21:9"));
        QCOMPARE(s[7].op, Op::repeat);
        QCOMPARE(s[7].body[0].op, Op::wait);
        QVERIFY(s[7].body[0].names[0].has_vars());
        QCOMPARE(s[8].op, Op::wait);
        QVERIFY(s[8].names.empty());
        // `wait` alone: no names, every spawned task.
        const auto all = parse("spawn t {\n}\nwait\n");
        VERIFY_OK(all);
        QCOMPARE(all.scene.statements[1].op, Op::wait);
        QVERIFY(all.scene.statements[1].names.empty());
    }

    void spawnBraceOnNextLine()
    {
        // As for repeat: one error, and the lone '{' is taken as the block's brace.
        const auto r = parse("spawn t\n{\n  gc\n}\n");
        const auto errors = errors_of(r);
        QVERIFY2(errors.size() == 1, all_diagnostics(r).c_str());
        QCOMPARE(at(errors[0]->loc), QString("1:8"));
        QVERIFY(errors[0]->message.find("spawn line must end with '{'") == 0);
        QCOMPARE(r.scene.statements.size(), std::size_t(1));
        QCOMPARE(r.scene.statements[0].body.size(), std::size_t(1));
    }

    void spawnScopes()
    {
        // A spawn named after a process runs with that process's descriptors; any other name is
        // a thread of main and shares main's. Its body is checked at the spawn point.
        VERIFY_OK(parse("process p\nsocketpair a b\np: socketpair x y\n"
                        "spawn p {\n  send x fds=y\n  socket made_in_p\n}\n"
                        "spawn helper {\n  send a fds=b\n  socket made_in_thread\n}\n"
                        "close made_in_thread\np: close made_in_p\n"));
        const auto wrong = parse("process p\nsocketpair a b\nspawn p {\n  send a\n}\n");
        auto errors = errors_of(wrong);
        QVERIFY2(errors.size() == 1, all_diagnostics(wrong).c_str());
        QCOMPARE(at(errors[0]->loc), QString("4:8"));
        QVERIFY(errors[0]->message.find("unknown name 'a' in process 'p'; it is defined in process 'main'") == 0);
        // Names main defines after the spawn point are not there yet.
        const auto late = parse("spawn t {\n  close later\n}\nsocket later\n");
        errors = errors_of(late);
        QVERIFY2(errors.size() == 1, all_diagnostics(late).c_str());
        QCOMPARE(at(errors[0]->loc), QString("2:9"));
        // Labels made in a spawn inside a repeat must be unique like any others.
        const auto labels = parse("repeat 2 {\n  spawn t$i {\n    socketpair a b\n  }\n}\n");
        QCOMPARE(errors_of(labels).size(), std::size_t(2));
        QVERIFY(errors_of(labels)[0]->message.find("already used by the socket created at line 3") !=
                std::string::npos);
        // A process the spawn names must be declared before it.
        const auto undeclared = parse("spawn p {\n}\nprocess p\n");
        errors = errors_of(undeclared);
        QVERIFY2(errors.size() == 1, all_diagnostics(undeclared).c_str());
        QCOMPARE(at(errors[0]->loc), QString("1:7"));
        QVERIFY(errors[0]->message.find("process 'p' is declared at line 3, after this spawn") == 0);
    }

    void spawnCpuTemplates()
    {
        // A templated cpu= is checked for every iteration, and reported once.
        const auto r = parse("set cpus 2\nrepeat 4 as k {\n  spawn w$k cpu=$k {\n  }\n}\n");
        const auto errors = errors_of(r);
        QVERIFY2(errors.size() == 1, all_diagnostics(r).c_str());
        QCOMPARE(at(errors[0]->loc), QString("3:17"));
        QCOMPARE(errors[0]->message, std::string("cpu 2 does not exist: the scene has set cpus 2 (CPUs are "
                                                 "numbered from 0) (from 'cpu=$k' with k=2)"));
        VERIFY_OK(parse("set cpus 2\nrepeat 4 as k {\n  spawn w$k cpu=${k%2} {\n  }\n}\n"));
        const auto negative = parse("set cpus 2\nrepeat 2 as k {\n  spawn w$k cpu=${k-1} {\n  }\n}\n");
        QVERIFY(errors_of(negative).at(0)->message.find("cpu -1 does not exist") == 0);
    }

    void splice()
    {
        const auto r = parse("socketpair a b\nsplice a bytes=65536\nsplice b bytes=1099511627776\n");
        VERIFY_OK(r);
        const auto &s = r.scene.statements;
        QCOMPARE(s[1].op, Op::splice);
        QCOMPARE(texts(s[1].names), std::vector<std::string>{"a"});
        QCOMPARE(s[1].bytes, std::uint64_t(65536));
        QCOMPARE(s[2].bytes, std::uint64_t(1) << 40);
        // The socket operand is checked like send's.
        const auto unknown = parse("splice ghost bytes=1\n");
        QCOMPARE(errors_of(unknown).size(), std::size_t(1));
        QCOMPARE(at(errors_of(unknown)[0]->loc), QString("1:8"));
        QVERIFY(errors_of(unknown)[0]->message.find("unknown name 'ghost'") == 0);
    }

    void variants()
    {
        // A variant applies on top of the scene's final settings, including set lines written
        // after it; its own lines win.
        const auto r = parse("set gc classic\n"
                             "set cost lock 40\n"
                             "variant graph_fixed {\n"
                             "  set gc graph\n"
                             "  set fix unify-scc-index\n"
                             "  set cost lock 400\n"
                             "  set cost wakeup 9\n"
                             "}\n"
                             "variant more_cpus\n"
                             "{\n"
                             "}\n"
                             "variant same {\n"
                             "}\n"
                             "set cpus 8\n"
                             "set seed 7\n"
                             "variant sequential_autobind {\n"
                             "  set autobind sequential\n"
                             "  set cpus 2\n"
                             "  set table-lock global\n"
                             "  set creds-by-default on\n"
                             "  set fix splice-no-checksum off\n"
                             "  set nofile 64\n"
                             "}\n");
        QCOMPARE(errors_of(r).size(), std::size_t(1)); // the brace on line 10
        QCOMPARE(at(errors_of(r)[0]->loc), QString("9:18"));
        const auto &v = r.scene.variants;
        QCOMPARE(v.size(), std::size_t(4));
        QCOMPARE(v[0].name, std::string("graph_fixed"));
        QCOMPARE(at(v[0].loc), QString("3:1"));
        QCOMPARE(v[0].settings.gc, GcEra::graph);
        QVERIFY(v[0].settings.fixes.get(KernelChange::unify_scc_index).value_or(false));
        QCOMPARE(v[0].settings.cpus, 8u); // set after the variant, still applies
        QCOMPARE(v[0].settings.seed, std::uint64_t(7));
        QCOMPARE(v[0].settings.costs.size(), std::size_t(2));
        QCOMPARE(v[0].settings.costs[0].name, std::string("lock"));
        QCOMPARE(v[0].settings.costs[0].ns, std::uint64_t(400));
        QCOMPARE(at(v[0].settings.costs[0].loc), QString("6:12"));
        QCOMPARE(v[0].settings.costs[1].name, std::string("wakeup"));
        QCOMPARE(v[1].name, std::string("more_cpus"));
        QCOMPARE(v[2].settings.gc, GcEra::classic);
        QCOMPARE(v[2].settings.cpus, 8u);
        QCOMPARE(v[2].settings.costs.size(), std::size_t(1));
        QCOMPARE(*v[3].settings.autobind, AutobindMode::sequential);
        QCOMPARE(v[3].settings.cpus, 2u);
        QVERIFY(v[3].settings.global_table_lock.value_or(false));
        QVERIFY(v[3].settings.creds_by_default);
        QVERIFY(!v[3].settings.fixes.get(KernelChange::splice_no_checksum).value_or(true));
        QCOMPARE(v[3].settings.nofile, std::uint64_t(64));
        // The scene's own settings are untouched by variants.
        QCOMPARE(r.scene.settings.gc, GcEra::classic);
        QCOMPARE(r.scene.settings.cpus, 8u);
        QCOMPARE(r.scene.settings.costs.size(), std::size_t(1));
        QCOMPARE(r.scene.settings.costs[0].ns, std::uint64_t(40));
        QVERIFY(r.scene.statements.empty());
    }

    void variantCpusAndFix()
    {
        // A cpu= must exist under every variant too.
        const auto r = parse("set cpus 4\nprocess p cpu=3\nvariant small {\n  set cpus 2\n}\n");
        const auto errors = errors_of(r);
        QVERIFY2(errors.size() == 1, all_diagnostics(r).c_str());
        QCOMPARE(at(errors[0]->loc), QString("2:15"));
        QCOMPARE(errors[0]->message, std::string("cpu 3 does not exist in variant 'small', which has set cpus 2"));
        // A variant that turns unify-scc-index on under another collector gets the usual warning.
        const auto fix = parse("set gc classic\nvariant f {\n  set fix unify-scc-index\n}\n");
        VERIFY_OK(fix);
        QCOMPARE(fix.diagnostics.size(), std::size_t(1));
        QCOMPARE(at(fix.diagnostics[0].loc), QString("3:3"));
        QCOMPARE(fix.diagnostics[0].severity, Diagnostic::Severity::warning);
        QVERIFY(fix.diagnostics[0].message.find("variant 'f' uses classic") != std::string::npos);
        // Within one variant, the usual conflict rule.
        const auto conflict = parse("variant v {\n  set cpus 2\n  set cpus 3\n}\n");
        QCOMPARE(at(errors_of(conflict).at(0)->loc), QString("3:12"));
        QVERIFY(errors_of(conflict)[0]->message.find("'set cpus' conflicts with line 2") == 0);
    }

    void objectLimitCountsSpawnBodies()
    {
        // A spawn inside repeat 64 runs its body 64 times.
        VERIFY_OK(parse("set limit 128\nrepeat 64 {\n  spawn w$i {\n    socketpair a$i b$i\n  }\n}\n"));
        const auto r = parse("set limit 127\nrepeat 64 {\n  spawn w$i {\n    socketpair a$i b$i\n  }\n}\n");
        auto errors = errors_of(r);
        QVERIFY2(errors.size() == 1, all_diagnostics(r).c_str());
        QCOMPARE(at(errors[0]->loc), QString("2:1"));
        QVERIFY(errors[0]->message.find("this repeat would create 128 sockets, bringing the scene to 128, "
                                        "over the object limit of 127") == 0);
        const auto top = parse("set limit 3\nsocket s\nspawn t {\n  repeat 2 {\n    socketpair a$i b$i\n  }\n}\n");
        errors = errors_of(top);
        QVERIFY2(errors.size() == 1, all_diagnostics(top).c_str());
        QCOMPARE(at(errors[0]->loc), QString("3:1"));
        QVERIFY(errors[0]->message.find("this spawn would create 4 sockets, bringing the scene to 5") == 0);

        // A billion spawns of a billion sockets: rejected at once.
        QElapsedTimer timer;
        timer.start();
        const auto huge = parse("repeat 1000000000 {\n  spawn t$i {\n    repeat 1000000000 as j {\n"
                                "      socketpair a${i}_$j b${i}_$j\n    }\n  }\n}\n");
        QVERIFY(errors_of(huge).at(0)->message.find("over the object limit") != std::string::npos);
        QVERIFY2(timer.elapsed() < 5000, std::to_string(timer.elapsed()).c_str());
    }

    void newStatementsBetweenValidLines()
    {
        // One error per mistake, none on the valid lines, and nothing later about the names of
        // a dropped line.
        const std::string text = "set cpus 2\n"            // 1  fine
                                 "set cost lokc 40\n"      // 2
                                 "socketpair a b\n"        // 3  fine
                                 "splice a\n"              // 4
                                 "spawn t cpu=5 {\n"       // 5
                                 "  p: gc\n"               // 6
                                 "  send a fds=b\n"        // 7  fine
                                 "  spawn u {\n"           // 8
                                 "    close a\n"           // 9  dropped with its spawn
                                 "  }\n"                   // 10
                                 "}\n"                     // 11
                                 "wait t x\n"              // 12
                                 "variant v {\n"           // 13 fine
                                 "  gc\n"                  // 14
                                 "  set autobind random\n" // 15 fine
                                 "}\n"                     // 16
                                 "variant v {\n"           // 17
                                 "}\n"                     // 18
                                 "splice b bytes=1\n";     // 19 fine
        const std::set<std::uint32_t> expected{2, 4, 5, 6, 8, 12, 14, 17};
        const auto r = parse(text);
        const auto errors = errors_of(r);
        std::set<std::uint32_t> lines;
        for (const Diagnostic *d : errors)
            lines.insert(d->loc.line);
        QVERIFY2(lines == expected, all_diagnostics(r).c_str());
        QVERIFY2(errors.size() == expected.size(), all_diagnostics(r).c_str());
        QCOMPARE(r.scene.variants.size(), std::size_t(1));
        QCOMPARE(*r.scene.variants[0].settings.autobind, AutobindMode::random);
    }

    // ---- errors: exact line, column and message ---------------------------------------------

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("col");
        QTest::addColumn<QString>("message");

        const auto row = [](const char *name, const char *text, int line, int col, const char *message) {
            QTest::newRow(name) << QByteArray(text) << line << col << QString::fromUtf8(message);
        };
        row("unknown statement", "sned a", 1, 1, "unknown statement 'sned'; did you mean 'send'?");
        row("unknown statement, no suggestion", "frobnicate", 1, 1, "unknown statement 'frobnicate'");
        row("too few names", "socketpair a", 1, 1, "socketpair needs 2 names, got 1");
        row("too many names", "socketpair a b c d", 1, 16, "socketpair needs 2 names, got 4");
        row("bad socket type", "socket s strem", 1, 10, "bad socket type 'strem'");
        row("two socket types", "socket s dgram stream", 1, 16, "socket type given twice");
        row("huge number", "set nofile 99999999999999999999", 1, 12, "bad number '99999999999999999999'");
        row("negative number", "set seed -1", 1, 10, "must not be negative");
        row("not a number", "socket a\nsend a bytes=12x", 2, 14, "bad number '12x'");
        row("unknown option", "socket s\nsend s fdz=x", 2, 8, "unknown option 'fdz' for send");
        row("option twice", "socket s\nsend s bytes=1 bytes=2", 2, 16, "option 'bytes=' given twice");
        row("misspelt flag", "socket s\nrecv s peak", 2, 8, "unknown flag 'peak' for recv; did you mean 'peek'?");
        row("bad on/off", "socket s\nsetsockopt s passrights=maybe", 2, 25, "expected on or off");
        row("set check bad", "set check yes", 1, 11, "expected on or off");
        row("unknown errno", "gc\nexpect error EPRM", 2, 14, "unknown errno name 'EPRM'; did you mean 'EPERM'?");
        row("unknown gc era", "set gc modern", 1, 8, "unknown gc era 'modern'");
        row("unknown set key", "set colour red", 1, 5, "unknown setting 'colour'");
        row("unknown fix", "set fix everything", 1, 9, "unknown fix 'everything'");
        row("unknown collector", "set collectors classic grahp", 1, 24, "did you mean 'graph'?");
        row("conflicting collectors", "set collectors graph\nset collectors async", 2, 16,
            "'set collectors' conflicts with line 1, which set it to graph");
        row("collectors without eras", "set collectors", 1, 5, "set collectors needs a value");
        row("conflicting set", "set gc graph\nset gc classic", 2, 8, "conflicts with line 1");
        row("set in repeat", "repeat 2 {\n  set gc graph\n}", 2, 3, "set cannot be used inside a repeat");
        row("unterminated string", "note \"unterminated", 1, 6, "unterminated string");
        row("note for an unknown collector", "note grpah \"x\"", 1, 6, "unknown collector 'grpah'");
        row("note eras without text", "note graph", 1, 6, "note needs one quoted string");
        row("unknown escape", "note \"bad \\q escape\"", 1, 11, "unknown escape");
        row("note without quotes", "note hello", 1, 6, "note needs one quoted string");
        row("lone close brace", "}", 1, 1, "'}' without a matching repeat");
        row("lone open brace", "{", 1, 1, "unexpected '{'");
        row("unclosed repeat", "socket s\nrepeat 2 {\n  close s\n", 2, 1, "repeat is never closed");
        row("repeat without brace", "repeat 3\n}", 1, 9, "repeat line must end with '{'");
        row("negative repeat", "repeat -1 {\n}", 1, 8, "repeat count must be between 0 and 1000000000, got -1");
        row("too many repeats", "repeat 1000000001 {\n}", 1, 8, "repeat count must be between 0 and 1000000000");
        row("huge repeat", "repeat 99999999999999999999 {\n}", 1, 8, "bad number");
        row("bad loop variable", "repeat 3 as 9x {\n}", 1, 13, "bad loop variable name '9x'");
        row("unbound variable", "send a$k", 1, 7, "variable 'k' is not bound by an enclosing repeat");
        row("malformed expression", "repeat 2 {\n  socket x${(i+1}\n}", 2, 13, "unclosed '(' in expression");
        row("truncated expression", "repeat 3 {\n  socket s$i\n  close s${i/}\n}", 3, 14,
            "expression ends unexpectedly");
        row("bad name character", "socket a-b", 1, 9, "character '-' is not allowed in a name");
        row("bad address character", "socket s\nbind s @bad!addr", 2, 12, "character '!' is not allowed in an address");
        row("address without @", "socket s\nbind s foo", 2, 8, "an address starts with '@'");
        row("empty fds element", "socket s\nsend s fds=s,,s", 2, 14, "empty name in fds= list");
        row("one-line repeat", "repeat 3 { gc }", 1, 10, "'{' must end the repeat line");
        row("connect with too much", "socket a\nconnect a b c", 2, 13, "connect needs 1 or 2 names, got 3");
        row("connect without target", "socket c\nconnect c", 2, 1, "connect needs a target");
        row("close nothing", "close", 1, 1, "close needs at least 1 name, got 0");
        row("gc with operand", "gc now", 1, 4, "gc takes no operands, got 1");
        row("unknown expect kind", "expect sure a", 1, 8, "unknown expect kind 'sure'");
        row("ask without a question", "ask answer freed a", 1, 5, "ask needs a quoted question first");
        row("ask without answer", "socket a\nask \"Which?\" freed a\nclose a", 2, 14,
            "ask needs 'answer' and the expected answer");
        row("ask with an empty question", "ask \" \" answer freed a", 1, 5, "the question is empty");
        row("ask with a bad answer", "ask \"Which?\" answer sure a", 1, 21, "unknown answer kind 'sure'");
        row("ask without an answer kind", "ask \"Which?\" answer", 1, 14, "answer needs a kind");
        row("expect count not a number", "socket a\nexpect inflight a lots", 2, 19, "bad number 'lots'");
        row("undeclared process", "q: send a", 1, 1, "unknown process 'q'");
        row("bad process prefix", "p$x: gc", 1, 1, "bad process name 'p$x'");
        row("undeclared user", "process p user=bob", 1, 16, "unknown user 'bob'");
        row("redeclared user", "user alice\nuser alice", 2, 6, "user 'alice' is already declared at line 1");
        row("redeclared process", "process p\nprocess p", 2, 9, "process 'p' is already declared at line 1");
        row("root always exists", "user root", 1, 6, "user 'root' always exists");
        row("prefix on repeat", "process p\np: repeat 2 {\n}", 2, 1, "a process prefix cannot be used on 'repeat'");
        row("prefix on set", "process p\np: set seed 3", 2, 1, "a process prefix cannot be used on 'set'");
        row("duplicate label", "socketpair a b\nclose a\nsocketpair a c", 3, 12,
            "label 'a' is already used by the socket created at line 1; socket labels must be unique");
        row("unknown label", "gc\nexpect freed ghost", 2, 14, "unknown socket label 'ghost'");
        row("unknown embryo label", "socket s\nbind s @x\nlisten s\nsocket c\nconnect c @x\nexpect alive embryo(k)", 6,
            14, "unknown socket label 'embryo(k)'");
        row("expect error first", "expect error EPERM", 1, 1, "expect error has no previous socket operation");
        row("expect error after notes only", "user u\nnote \"x\"\nexpect error EPERM", 3, 1,
            "expect error has no previous socket operation");
        row("unknown name", "socketpair a b\nsend a fds=zz", 2, 12, "unknown name 'zz' in process 'main'");
        row("name of another process", "process p\nsocket s\np: close s", 3, 10,
            "unknown name 's' in process 'p'; it is defined in process 'main'");
        row("object limit", "set limit 10\nrepeat 6 {\n  socketpair a$i b$i\n}", 2, 1,
            "this repeat would create 12 sockets, bringing the scene to 12, over the object limit of 10");
        row("division by zero at run", "repeat 3 {\n  socket s${10/(i-2)}\n}", 2, 15, "division by zero (with i=2)");
        row("embryo label as fd name", "socket embryo(c)", 1, 14, "only for expect statements");
        row("string where a name goes", "socket \"s\"", 1, 8, "unexpected string");

        // modelled time: settings
        row("unknown cost, close", "set cost lokc 40", 1, 10, "unknown cost 'lokc'; did you mean 'lock'?");
        row("unknown cost, listed", "set cost frobnicate 40", 1, 10,
            "unknown cost 'frobnicate' (known costs: syscall, sendmsg, recvmsg,");
        row("cost without ns", "set cost lock", 1, 10, "set cost lock needs a number of nanoseconds");
        row("cost without name", "set cost", 1, 5, "set cost needs a cost name and nanoseconds");
        row("cost too large", "set cost lock 1000000000001", 1, 15,
            "set cost must be between 0 and 1000000000000 ns, got 1000000000001");
        row("cost not a number", "set cost lock fast", 1, 15, "bad number 'fast' for set cost");
        row("conflicting cost", "set cost lock 40\nset cost lock 50", 2, 15,
            "'set cost lock' conflicts with line 1, which set it to 40");
        row("cpus 0", "set cpus 0", 1, 10, "set cpus must be between 1 and 1024, got 0");
        row("cpus 2000", "set cpus 2000", 1, 10, "set cpus must be between 1 and 1024, got 2000");
        row("cpus huge", "set cpus 99999999999999999999", 1, 10, "bad number '99999999999999999999': too large");
        row("misspelt cpus", "set cpu 2", 1, 5, "unknown setting 'cpu'");
        row("misspelt cpus hint", "set cpu 2", 1, 5, "did you mean 'cpus'?");
        row("unknown autobind", "set autobind randm", 1, 14,
            "unknown autobind mode 'randm' (expected sequential, random-v1 or random); did you mean 'random'?");
        row("unknown table lock", "set table-lock bucket", 1, 16,
            "unknown table lock 'bucket' (expected global or per-bucket)");
        row("creds not on/off", "set creds-by-default yes", 1, 22,
            "bad value 'yes' for set creds-by-default: expected on or off");
        row("fix not on/off", "set fix splice-no-checksum maybe", 1, 28,
            "bad value 'maybe' for set fix splice-no-checksum: expected on or off");
        row("unknown fix names the list", "set fix splice", 1, 9,
            "unknown fix 'splice' ('inflight-cli kernels' lists the 27 known ones)");
        row("unknown kernel", "set kernel 6.7", 1, 12, "unknown kernel '6.7' (profiles: 4.4, 5.10, 5.15, 6.1");
        row("a collector is not a fix", "set fix graph-gc off", 1, 9,
            "'graph-gc' is a collector, not a fix: write 'set gc classic|async|graph' or 'set kernel VERSION'");
        row("a change not modelled yet", "set fix iouring-no-send off", 1, 9,
            "fix 'iouring-no-send' (705318a99a13) is known but the model has no io_uring files");
        row("conflicting fix", "set fix splice-no-checksum off\nset fix splice-no-checksum on", 2, 28,
            "'set fix splice-no-checksum' conflicts with line 1, which set it to off");
        row("junk after fix", "set fix splice-no-checksum off now", 1, 32, "unexpected 'now' after the value");
        // cpu=
        row("cpu beyond cpus", "set cpus 2\nprocess p cpu=3", 2, 15, "cpu 3 does not exist: the scene has set cpus 2");
        row("cpu with one cpu", "process p cpu=1", 1, 15, "cpu 1 does not exist: the scene has one CPU");
        row("spawn cpu beyond cpus", "spawn t cpu=7 {\n}", 1, 13, "cpu 7 does not exist");
        row("cpu not a number", "process p cpu=two", 1, 15, "bad number 'two' for cpu=");
        row("cpu huge", "process p cpu=99999999999999999999", 1, 15, "too large");
        row("process cpu template", "process p cpu=$i", 1, 15, "bad cpu '$i': a process's cpu= is a number");
        row("cpu template with text", "repeat 2 {\n  spawn w$i cpu=x$i {\n  }\n}", 2, 17,
            "bad cpu 'x$i': cpu= takes a number, $var or ${expr}");
        row("cpu unbound variable", "spawn w cpu=${k} {\n}", 1, 15, "bad cpu '${k}': variable 'k' is not bound");
        row("cpu empty", "spawn w cpu= {\n}", 1, 9, "missing value after cpu=");
        row("unknown process option", "process p core=1", 1, 11,
            "unknown option 'core' for process (expected user= or cpu=)");
        // spawn
        row("spawn inside spawn", "spawn a {\n  spawn b {\n  }\n}", 2, 3,
            "spawn cannot be used inside another spawn (the one at line 1)");
        row("spawn inside repeat inside spawn", "spawn a {\n  repeat 2 {\n    spawn b$i {\n    }\n  }\n}", 3, 5,
            "spawn cannot be used inside another spawn");
        row("prefix inside spawn", "process p\nspawn t {\n  p: gc\n}", 3, 3,
            "a process prefix cannot be used inside a spawn block");
        row("prefix on spawn", "process p\np: spawn t {\n}", 2, 1, "a process prefix cannot be used on 'spawn'");
        row("spawn without name", "spawn {\n}", 1, 1, "spawn needs a task name, e.g. 'spawn worker {'");
        row("spawn bad name", "spawn a-b {\n}", 1, 8, "bad spawn name 'a-b': character '-' is not allowed");
        row("spawn two names", "spawn a b {\n}", 1, 9,
            "unexpected 'b' in spawn; expected cpu=N, when POINT SOCK, until POINT SOCK or '{'");
        row("spawn kworker", "spawn kworker {\n}", 1, 7, "'kworker' is the kernel's worker task");
        row("spawn unknown option", "spawn t core=1 {\n}", 1, 9,
            "unknown option 'core' for spawn (expected cpu= or nth=)");
        row("spawn one line", "spawn t { gc }", 1, 9, "'{' must end the spawn line");
        row("spawn never closed", "spawn t {\n  gc\n", 1, 1, "spawn is never closed: missing '}'");
        row("set inside spawn", "spawn t {\n  set cpus 2\n}", 2, 3, "set cannot be used inside a spawn");
        row("process inside spawn", "spawn t {\n  process p\n}", 2, 3, "process cannot be used inside a spawn");
        // wait
        row("wait for unknown spawn", "spawn a {\n}\nwait a x", 3, 8, "wait: no spawn named 'x' before this line");
        row("wait before spawn", "wait t\nspawn t {\n}", 1, 6, "wait: no spawn named 't' before this line");
        row("wait bad name", "wait a-b", 1, 7, "character '-' is not allowed in a name");
        row("wait option", "spawn t {\n}\nwait t all=1", 3, 8, "unknown option 'all' for wait");
        // splice
        row("splice without bytes", "socketpair a b\nsplice a", 2, 1, "splice needs bytes=N");
        row("splice bytes 0", "socketpair a b\nsplice a bytes=0", 2, 16, "splice bytes= must be between 1 and");
        row("splice bytes over 2^40", "socketpair a b\nsplice a bytes=1099511627777", 2, 16,
            "splice bytes= must be between 1 and 1099511627776");
        row("splice bytes huge", "socketpair a b\nsplice a bytes=99999999999999999999", 2, 16, "too large");
        row("splice bytes junk", "socketpair a b\nsplice a bytes=lots", 2, 16, "bad number 'lots' for bytes=");
        row("splice fds", "socketpair a b\nsplice a bytes=1 fds=b", 2, 18,
            "unknown option 'fds' for splice (expected bytes=)");
        row("splice no name", "splice bytes=4", 1, 1, "splice needs 1 name, got 0");
        // variants
        row("non-set line in variant", "variant v {\n  gc\n}", 2, 3,
            "a variant block may only contain set lines, got 'gc'");
        row("repeat in variant", "variant v {\n  repeat 2 {\n  }\n}", 2, 3,
            "a variant block may only contain set lines, got 'repeat'");
        row("duplicate variant", "variant v {\n}\nvariant v {\n}", 3, 9,
            "variant 'v' is already defined at line 1; variant names must be unique");
        row("variant bad name", "variant 2fast {\n}", 1, 9, "bad variant name '2fast'");
        row("variant without name", "variant {\n}", 1, 1, "variant needs a name");
        row("variant junk", "variant v w {\n}", 1, 11, "unexpected 'w' in variant; expected '{'");
        row("variant in repeat", "repeat 2 {\n  variant v {\n  }\n}", 2, 3,
            "variant can only be used at the top level, not inside a repeat");
        row("variant never closed", "variant v {\n  set cpus 2\n", 1, 1, "variant is never closed");
        row("collectors in variant", "variant v {\n  set collectors graph\n}", 2, 7,
            "'set collectors' cannot vary per variant");
        row("limit in variant", "variant v {\n  set limit 5\n}", 2, 7, "'set limit' cannot vary per variant");
        row("check in variant", "variant v {\n  set check on\n}", 2, 7, "'set check' cannot vary per variant");
        row("bad set in variant", "variant v {\n  set cpus 0\n}", 2, 12, "set cpus must be between 1 and 1024");
    }

    void badInput()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(int, col);
        QFETCH(QString, message);
        const auto r = parse(text.toStdString());
        QVERIFY2(!r.ok(), all_diagnostics(r).c_str());
        bool found = false;
        for (const Diagnostic *d : errors_of(r))
            if (d->loc.line == std::uint32_t(line) && d->loc.col == std::uint32_t(col) &&
                d->message.find(message.toStdString()) != std::string::npos)
                found = true;
        QVERIFY2(found, ("expected " + std::to_string(line) + ":" + std::to_string(col) + " '" + message.toStdString() +
                         "', got:\n" + all_diagnostics(r))
                            .c_str());
    }

    // A file's encoding and line ends: one located message that names the problem and the fix,
    // each character by its code point, instead of what the bytes look like as statements.
    void encodingAndLineEnds_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("col");
        QTest::addColumn<bool>("is_error");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("diagnostics"); // how many in all
        const auto bytes = [](std::string_view s) { return QByteArray(s.data(), qsizetype(s.size())); };
        QTest::newRow("CR-only line ends")
            << bytes("scene \"t\"\rsocketpair a b\rclose a b\r") << 1 << 10 << true
            << "the lines of this file end with a carriage return (U+000D) alone, as classic Mac OS wrote them; "
               "scenes end lines with LF or CRLF"
            << 1;
        QTest::newRow("stray CR mid-line")
            << bytes("scene \"t\"\nsocketpair a b\nsend a fds=\rb\nclose a b\n") << 3 << 12 << true
            << "a carriage return (U+000D) in the middle of a line; lines end with LF or CRLF" << 1;
        QTest::newRow("UTF-16LE with BOM")
            << bytes(std::string_view("\xFF\xFEs\0c\0e\0n\0e\0\n\0", 14)) << 1 << 1 << true
            << "the file is encoded as UTF-16LE (it starts with the byte-order mark "
               "FF FE), not UTF-8; scenes are UTF-8 text: save it again"
            << 1;
        QTest::newRow("UTF-16BE with BOM") << bytes(std::string_view("\xFE\xFF\0s\0c\0e\0\n", 10)) << 1 << 1 << true
                                           << "the file is encoded as UTF-16BE (it starts with the byte-order "
                                              "mark FE FF), not UTF-8"
                                           << 1;
        QTest::newRow("UTF-16LE without BOM") << bytes(std::string_view("g\0c\0\n\0", 6)) << 1 << 1 << true
                                              << "the file is encoded as UTF-16LE, not UTF-8" << 1;
        QTest::newRow("second byte-order mark")
            << bytes("\xEF\xBB\xBF\xEF\xBB\xBFscene \"t\"\nsocketpair a b\n") << 1 << 1 << false
            << "a second byte-order mark (U+FEFF) follows the first" << 1;
        QTest::newRow("U+202E in a name")
            << bytes("socketpair a\xE2\x80\xAE"
                     "b c\n")
            << 1 << 13 << true << "bad name 'a<U+202E>b': character U+202E is not allowed in a name" << 1;
        QTest::newRow("visible non-ASCII in a name")
            << bytes("socketpair caf\xC3\xA9 c\n") << 1 << 15 << true
            << "bad name 'caf\xC3\xA9': character '\xC3\xA9' (U+00E9) is not allowed in a name" << 1;
        QTest::newRow("escape byte in a name") << bytes("socketpair a\x1B[31m c\n") << 1 << 13 << true
                                               << "bad name 'a\\x1B[31m': character '\\x1B' is not allowed" << 1;
    }
    void encodingAndLineEnds()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(int, col);
        QFETCH(bool, is_error);
        QFETCH(QString, message);
        QFETCH(int, diagnostics);
        const auto r = parse(text.toStdString());
        QVERIFY2(r.diagnostics.size() == std::size_t(diagnostics), all_diagnostics(r).c_str());
        const Diagnostic &d = r.diagnostics.front();
        QVERIFY2(d.loc.line == std::uint32_t(line) && d.loc.col == std::uint32_t(col), all_diagnostics(r).c_str());
        QCOMPARE(d.severity == Diagnostic::Severity::error, is_error);
        QVERIFY2(d.message.find(message.toStdString()) != std::string::npos, all_diagnostics(r).c_str());
        QVERIFY2(r.ok() != is_error, all_diagnostics(r).c_str());
        // The file's lines are kept whatever the problem, for the position of the message.
        QVERIFY(r.scene.lines.size() >= std::size_t(line));
    }

    // A CR inside a string or a comment is text, as any other byte there.
    void carriageReturnInStringsAndCommentsIsText()
    {
        const auto r = parse("socketpair a b\nnote \"one\rtwo\" # three\rfour\nclose a b\r\n");
        VERIFY_OK(r);
        QCOMPARE(r.scene.lines.size(), std::size_t(3));
    }

    // The input-bytes limit is checked before the file is read: its advice cannot be the file's
    // own `set limit` line, which the parser refuses for that limit.
    void inputBytesAdviceWorks()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("big.scn").toStdString();
        {
            std::ofstream out(path, std::ios::binary);
            out << "scene \"big\"\n" << std::string(200, '#') << "\n";
        }
        const auto r = load_scene_file(path, ParseLimits{{{Budget::input_bytes, 100}}, std::nullopt});
        QCOMPARE(r.diagnostics.size(), std::size_t(1));
        const std::string &m = r.diagnostics[0].message;
        QVERIFY2(m.find("--limit input-bytes=N") != std::string::npos, m.c_str());
        QVERIFY2(m.find("set limit") == std::string::npos, m.c_str());
    }

    void mistakesBetweenValidLines()
    {
        // 22 mistakes with valid lines in between: exactly one error per mistake and none on the
        // valid lines (a dropped line must not cause "unknown name" errors later either).
        const std::string text = "sned a\n"                          // 1
                                 "socketpair a\n"                    // 2
                                 "socket s strem\n"                  // 3
                                 "socketpair x y\n"                  // 4  fine
                                 "set nofile 99999999999999999999\n" // 5
                                 "send s fdz=x\n"                    // 6
                                 "recv s peak\n"                     // 7
                                 "expect error EPRM\n"               // 8
                                 "set gc modern\n"                   // 9
                                 "send x fds=y\n"                    // 10 fine
                                 "set colour red\n"                  // 11
                                 "set fix everything\n"              // 12
                                 "note \"unterminated\n"             // 13
                                 "bind s foo\n"                      // 14
                                 "setsockopt s passrights=maybe\n"   // 15
                                 "expect inflight s lots\n"          // 16
                                 "q: gc\n"                           // 17
                                 "process p user=bob\n"              // 18
                                 "send s$k\n"                        // 19
                                 "socket a-b\n"                      // 20
                                 "}\n"                               // 21
                                 "close ghost\n"                     // 22
                                 "expect freed x y\n"                // 23 fine
                                 "expect alive ghost\n"              // 24
                                 "gc now\n";                         // 25
        const std::set<std::uint32_t> expected{1,  2,  3,  5,  6,  7,  8,  9,  11, 12, 13,
                                               14, 15, 16, 17, 18, 19, 20, 21, 22, 24, 25};
        const auto r = parse(text);
        const auto errors = errors_of(r);
        std::set<std::uint32_t> lines;
        for (const Diagnostic *d : errors)
            lines.insert(d->loc.line);
        QVERIFY2(lines == expected, all_diagnostics(r).c_str());
        QVERIFY2(errors.size() == 22, all_diagnostics(r).c_str());
        for (std::size_t i = 1; i < r.diagnostics.size(); ++i)
            QVERIFY(r.diagnostics[i - 1].loc.line <= r.diagnostics[i].loc.line); // line order
    }

    void exactlyTwentyErrors()
    {
        // The brief's literal case: 20 lines, 20 different mistakes, 20 errors on those lines.
        const std::string text = "sned a\n"
                                 "socketpair a\n"
                                 "socket s strem\n"
                                 "set nofile 99999999999999999999\n"
                                 "send s fdz=x\n"
                                 "recv s peak\n"
                                 "expect error EPRM\n"
                                 "set gc modern\n"
                                 "set colour red\n"
                                 "set fix everything\n"
                                 "note \"unterminated\n"
                                 "bind s foo\n"
                                 "setsockopt s passrights=maybe\n"
                                 "expect inflight s lots\n"
                                 "q: gc\n"
                                 "process p user=bob\n"
                                 "send s$k\n"
                                 "socket a-b\n"
                                 "}\n"
                                 "close ghost\n";
        const auto r = parse(text);
        const auto errors = errors_of(r);
        QVERIFY2(errors.size() == 20, all_diagnostics(r).c_str());
        for (std::uint32_t i = 0; i < 20; ++i)
            QCOMPARE(errors[i]->loc.line, i + 1);
    }

    // ---- templates ----------------------------------------------------------------------------

    void expandName_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("bindings"); // "i=3,j=5", innermost last
        QTest::addColumn<QString>("expected"); // empty: an error is expected
        QTest::addColumn<QString>("error");
        QTest::addColumn<int>("offset");

        const auto ok = [](const char *text, const char *b, const char *expected) {
            QTest::newRow(text) << QString(text) << QString(b) << QString(expected) << QString() << -1;
        };
        const auto bad = [](const char *name, const char *text, const char *b, const char *error, int offset) {
            QTest::newRow(name) << QString(text) << QString(b) << QString() << QString(error) << offset;
        };
        ok("plain", "", "plain");
        ok("a$i", "i=3", "a3");
        ok("a${i+1}", "i=3", "a4");
        ok("b${(i+1)%4}", "i=3", "b0");
        ok("${(i-1)%4}", "i=0", "3"); // floored: a ring wraps the way it should
        ok("${-7/2}", "", "-4");
        ok("${7/2}", "", "3");
        ok("x${i*j}_y", "i=2,j=5", "x10_y");
        ok("$i$j", "i=1,j=2", "12");
        ok("$i", "i=1,i=7", "7"); // the innermost binding wins
        ok("${ i + 1 }", "i=3", "4");
        ok("${-i}", "i=2", "-2");
        ok("${2*(3+i)-1}", "i=1", "7");
        ok("embryo(c$i)", "i=4", "embryo(c4)");
        bad("unbound var", "a$k", "i=0", "variable 'k' is not bound by an enclosing repeat", 1);
        bad("unbound in expr", "a${k+1}", "i=0", "variable 'k' is not bound", 3);
        bad("dangling plus", "a${i+}", "i=0", "expression ends unexpectedly", 5);
        bad("unclosed paren", "a${(i+1}", "i=0", "unclosed '('", 3);
        bad("unclosed brace", "a${i", "i=0", "missing '}'", 1);
        bad("lone dollar", "a$", "i=0", "'$' must be followed by a variable name", 1);
        bad("dollar digit", "a$1", "i=0", "'$' must be followed by a variable name", 1);
        bad("empty expr", "a${}", "i=0", "empty expression", 1);
        bad("two operands", "${i j}", "i=0", "unexpected 'j' in expression", 4);
        bad("number then name", "${2i}", "i=0", "after a number", 3);
        bad("dollar inside", "${$i}", "i=0", "without '$'", 2);
        bad("division by zero", "${10/(i-2)}", "i=2", "division by zero", 4);
        bad("remainder by zero", "${i%0}", "i=1", "division by zero", 3);
        bad("overflow", "${9223372036854775807+i}", "i=1", "arithmetic overflow", 21);
        bad("number too large", "${99999999999999999999}", "", "number too large", 2);
        // A syntax error wins over an arithmetic one found earlier in the same template.
        bad("syntax beats arithmetic", "${1/0}${", "", "expression ends unexpectedly", 8);
    }

    void expandName()
    {
        QFETCH(QString, text);
        QFETCH(QString, bindings);
        QFETCH(QString, expected);
        QFETCH(QString, error);
        QFETCH(int, offset);
        Bindings b;
        for (const QString &pair : bindings.split(',', Qt::SkipEmptyParts)) {
            const auto parts = pair.split('=');
            b.emplace_back(parts[0].toStdString(), parts[1].toLongLong());
        }
        std::string why;
        std::size_t at = 12345;
        const auto result = expand_name(text.toStdString(), b, &why, &at);
        if (error.isEmpty()) {
            QVERIFY2(result.has_value(), why.c_str());
            QCOMPARE(QString::fromStdString(*result), expected);
        } else {
            QVERIFY(!result.has_value());
            QVERIFY2(why.find(error.toStdString()) != std::string::npos, why.c_str());
            QCOMPARE(int(at), offset);
        }
    }

    void expandNestingIsBounded()
    {
        const std::string deep = "${" + std::string(100000, '(') + "1" + std::string(100000, ')') + "}";
        std::string why;
        QVERIFY(!expand_name(deep, {}, &why).has_value());
        QVERIFY(why.find("nested too deeply") != std::string::npos);
        const std::string minus = "${" + std::string(100000, '-') + "1}";
        QVERIFY(!expand_name(minus, {}, &why).has_value());
    }

    void expandConvenience()
    {
        const NameTemplate plain{"abc", {}};
        QCOMPARE(expand(plain, {{"i", 1}}), std::string("abc"));
        const NameTemplate templ{"a${i*2}", {}};
        QCOMPARE(expand(templ, {{"i", 21}}), std::string("a42"));
    }

    // ---- the cursor ---------------------------------------------------------------------------

    void cursorOrder()
    {
        const auto r = parse("gc\n"
                             "repeat 2 as a {\n"
                             "  note \"x\"\n"
                             "  repeat 3 as b {\n"
                             "    note \"y\"\n"
                             "  }\n"
                             "  repeat 0 as c {\n"
                             "    note \"never\"\n"
                             "  }\n"
                             "}\n"
                             "repeat 0 {\n"
                             "  note \"never\"\n"
                             "}\n"
                             "note \"end\"\n");
        VERIFY_OK(r);
        QStringList seen;
        SceneCursor cursor(r.scene.statements);
        while (cursor.next()) {
            const Statement &s = cursor.current();
            QString entry = s.op == Op::gc ? QString("gc") : QString::fromStdString(s.text);
            for (const auto &[name, value] : cursor.bindings())
                entry += QString(" %1=%2").arg(QString::fromStdString(name)).arg(value);
            seen << entry;
        }
        const QStringList expected{"gc",    "x a=0",     "y a=0 b=0", "y a=0 b=1", "y a=0 b=2",
                                   "x a=1", "y a=1 b=0", "y a=1 b=1", "y a=1 b=2", "end"};
        QCOMPARE(seen, expected);
        QVERIFY(!cursor.next()); // stays at the end
    }

    void cursorSkipsEmptyBodiesAtOnce()
    {
        const auto r = parse("repeat 1000000000 {\n"
                             "  repeat 0 {\n"
                             "    gc\n"
                             "  }\n"
                             "  repeat 1000000000 {\n"
                             "  }\n"
                             "}\n"
                             "gc\n");
        VERIFY_OK(r);
        SceneCursor cursor(r.scene.statements);
        QVERIFY(cursor.next());
        QCOMPARE(cursor.current().loc.line, 8u);
        QVERIFY(!cursor.next());
    }

    void cursorIsResumable()
    {
        const auto r = parse("repeat 3 {\n  gc\n}\n");
        SceneCursor a(r.scene.statements);
        QVERIFY(a.next());
        QVERIFY(a.next());
        SceneCursor b = a; // the simulation may copy or keep one
        QVERIFY(b.next());
        QCOMPARE(b.bindings().back().second, std::int64_t(2));
        QCOMPARE(a.bindings().back().second, std::int64_t(1));
    }

    // ---- static checks ------------------------------------------------------------------------

    void unknownNameOncePerStatement()
    {
        const auto r = parse("repeat 1000 {\n"
                             "  send nope$i\n"
                             "}\n"
                             "repeat 5 {\n"
                             "  socketpair a$i b$i\n"
                             "  send a$i fds=c$i,d$i\n"
                             "}\n");
        const auto errors = errors_of(r);
        QVERIFY2(errors.size() == 3, all_diagnostics(r).c_str());
        QCOMPARE(at(errors[0]->loc), QString("2:8"));
        QVERIFY(errors[0]->message.find("unknown name 'nope0' in process 'main' (from 'nope$i' with i=0)") == 0);
        QCOMPARE(at(errors[1]->loc), QString("6:16"));
        QCOMPARE(at(errors[2]->loc), QString("6:20"));
    }

    void namesDefinedBy()
    {
        // socketpair, socket, accept, dup and recv fds= define names; close does not undefine.
        const auto r = parse("socketpair a b\n"
                             "socket l\n"
                             "bind l @srv\n"
                             "listen l\n"
                             "socket c\n"
                             "connect c l\n"
                             "accept l s\n"
                             "dup s s2\n"
                             "send a fds=s2\n"
                             "recv b fds=got\n"
                             "close got s2 s\n"
                             "send got\n");
        VERIFY_OK(r);
    }

    void ringNeedsNamesBeforeUse()
    {
        // Sending the next pair's socket before it exists is caught statically ...
        const auto bad = parse("repeat 4 as k {\n"
                               "  socketpair a$k b$k\n"
                               "  send a$k fds=b${(k+1)%4}\n"
                               "}\n");
        QCOMPARE(errors_of(bad).size(), std::size_t(1));
        // ... and the ring is built in two loops instead.
        const auto good = parse("repeat 4 as k {\n"
                                "  socketpair a$k b$k\n"
                                "}\n"
                                "repeat 4 as k {\n"
                                "  send a$k fds=b${(k+1)%4}\n"
                                "}\n"
                                "expect alive a0 b3\n");
        VERIFY_OK(good);
    }

    void labelsAfterExpectedFailure()
    {
        // A statement followed by `expect error` creates no label, so it may be retried.
        const auto r = parse("socket c\n"
                             "connect c @nobody\n"
                             "note \"nobody listens there\"\n"
                             "expect error ECONNREFUSED\n"
                             "socket l\n"
                             "bind l @srv\n"
                             "listen l\n"
                             "connect c @srv\n"
                             "expect alive embryo(c)\n");
        VERIFY_OK(r);
        // A datagram connect queues no embryo.
        const auto d = parse("socket d dgram\nsocket e dgram\nbind e @e\nconnect d @e\nconnect d @e\n"
                             "expect alive embryo(d)\n");
        const auto errors = errors_of(d);
        QVERIFY2(errors.size() == 1, all_diagnostics(d).c_str());
        QCOMPARE(errors[0]->loc.line, 6u);
    }

    void embryoLabelFollowsTheSocket()
    {
        // embryo(X) takes the label of the connecting socket, not the fd name used to connect.
        const auto r = parse("socket l\nbind l @srv\nlisten l\n"
                             "socket c\ndup c c2\nconnect c2 @srv\n"
                             "expect alive embryo(c)\nexpect alive embryo(c2)\n");
        const auto errors = errors_of(r);
        QVERIFY2(errors.size() == 1, all_diagnostics(r).c_str());
        QCOMPARE(at(errors[0]->loc), QString("8:14"));
        // A received descriptor's label is unknown here: its embryo is not checked.
        const auto received = parse("socket l\nbind l @srv\nlisten l\nsocketpair a b\nsocket x\n"
                                    "send a fds=x\nrecv b fds=y\nconnect y @srv\nexpect alive embryo(x)\n");
        VERIFY_OK(received);
    }

    void labelsInRepeat()
    {
        const auto r = parse("repeat 3 {\n  socketpair a b\n}\n");
        const auto errors = errors_of(r);
        QCOMPARE(errors.size(), std::size_t(2)); // a and b, once each
        QVERIFY(errors[0]->message.find("created at line 2") != std::string::npos);
    }

    void objectLimit()
    {
        // Exactly at the limit is fine.
        VERIFY_OK(parse("set limit 100\nrepeat 10 as i {\n  repeat 5 as j {\n    socketpair a${i}_$j b${i}_$j\n"
                        "  }\n}\n"));
        // One over: the error is at the outermost repeat, once.
        const auto r = parse("set limit 100\nsocket first\nrepeat 10 as i {\n  repeat 5 as j {\n"
                             "    socketpair a${i}_$j b${i}_$j\n  }\n}\nsocket last\n");
        auto errors = errors_of(r);
        QVERIFY2(errors.size() == 1, all_diagnostics(r).c_str());
        QCOMPARE(at(errors[0]->loc), QString("3:1"));
        QVERIFY(errors[0]->message.find("create 100 sockets, bringing the scene to 101") != std::string::npos);

        // A billion billion sockets: one error, at once, no unrolling.
        QElapsedTimer timer;
        timer.start();
        const auto huge = parse("repeat 1000000000 {\n  repeat 1000000000 as j {\n    socketpair a$i b$j\n  }\n}\n");
        errors = errors_of(huge);
        QVERIFY2(errors.size() >= 1, all_diagnostics(huge).c_str());
        QCOMPARE(at(errors[0]->loc), QString("1:1"));
        QVERIFY(errors[0]->message.find("over the object limit of 2000000") != std::string::npos);
        QVERIFY2(timer.elapsed() < 5000, std::to_string(timer.elapsed()).c_str());
        // A plain statement that crosses the limit is named as such.
        const auto one = parse("set limit 1\nsocketpair a b\n");
        QVERIFY(errors_of(one).at(0)->message.find("this socketpair would bring the scene to 2 sockets") == 0);
    }

    void checkIsFast()
    {
        // 100,000 sockets and 300,000 statements.
        const std::string text = "repeat 50000 as i {\n"
                                 "  socketpair a$i b$i\n"
                                 "  send a$i fds=b$i\n"
                                 "  close b$i\n"
                                 "  recv a$i fds=r$i\n"
                                 "  dup r$i d$i\n"
                                 "  expect alive b$i\n"
                                 "}\n";
        QElapsedTimer timer;
        timer.start();
        const auto r = parse(text);
        const auto ms = timer.elapsed();
        VERIFY_OK(r);
        qInfo("parse + check of 300,000 statements: %lld ms", static_cast<long long>(ms));
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__) // the asan preset is RelWithDebInfo
        const qint64 budget = 1000;
#else
        const qint64 budget = 10000; // unoptimized or sanitized builds: only catch quadratic blowups
#endif
        QVERIFY2(ms < budget, std::to_string(ms).c_str());
    }

    void checkSceneDirectly()
    {
        // check_scene also works on a Scene built in code, not only on parsed ones.
        Scene scene;
        scene.file = "built.scene";
        Statement s;
        s.op = Op::close;
        s.loc = {4, 1};
        s.names.push_back(NameTemplate{"x", {4, 7}});
        scene.statements.push_back(s);
        std::vector<Diagnostic> out;
        check_scene(scene, out);
        QCOMPARE(out.size(), std::size_t(1));
        QCOMPARE(out[0].format(), std::string("built.scene:4:7: error: unknown name 'x' in process 'main'"));
    }

    // ---- robustness ---------------------------------------------------------------------------

    void robustOnRandomBytes()
    {
        std::mt19937 rng(20240611);
        const std::string special = "\n\n\"\\{}$#@=,:() \t\r";
        for (int n = 0; n < 2000; ++n) {
            std::string text(rng() % 300, '\0');
            for (char &c : text)
                c = rng() % 3 == 0 ? special[rng() % special.size()] : static_cast<char>(rng() % 256);
            check_sane(parse(text), text);
        }
    }

    void robustOnTokenSoup()
    {
        static const char *const words[] = {"socketpair",
                                            "socket",
                                            "bind",
                                            "listen",
                                            "connect",
                                            "accept",
                                            "send",
                                            "recv",
                                            "dup",
                                            "close",
                                            "setsockopt",
                                            "gc",
                                            "expect",
                                            "freed",
                                            "alive",
                                            "inflight",
                                            "queue",
                                            "error",
                                            "EPERM",
                                            "repeat",
                                            "set",
                                            "gc",
                                            "classic",
                                            "graph",
                                            "fix",
                                            "limit",
                                            "nofile",
                                            "user",
                                            "process",
                                            "note",
                                            "scene",
                                            "p:",
                                            "main:",
                                            "a",
                                            "b",
                                            "a$i",
                                            "b${i+1}",
                                            "${(i+1)%4}",
                                            "${",
                                            "}",
                                            "{",
                                            "\"",
                                            "\"text\"",
                                            "fds=",
                                            "fds=a,b",
                                            "bytes=3",
                                            "oob",
                                            "peek",
                                            "to=@x",
                                            "@x",
                                            "@",
                                            "as",
                                            "k",
                                            "$k",
                                            "embryo(a)",
                                            "embryo(",
                                            "3",
                                            "0",
                                            "-1",
                                            "2",
                                            "1000000000",
                                            "99999999999999999999",
                                            "on",
                                            "off",
                                            "passrights=on",
                                            "#",
                                            "=",
                                            ",",
                                            ":",
                                            "\\",
                                            "dgram",
                                            "stream",
                                            "seqpacket",
                                            "\t",
                                            "\n",
                                            "\n",
                                            "\n",
                                            "\n",
                                            "spawn",
                                            "wait",
                                            "splice",
                                            "variant",
                                            "cpu=1",
                                            "cpu=$i",
                                            "cpu=${i%2}",
                                            "cpu=",
                                            "cpus",
                                            "cost",
                                            "lock",
                                            "autobind",
                                            "random-v1",
                                            "table-lock",
                                            "global",
                                            "creds-by-default",
                                            "splice-no-checksum",
                                            "bytes=0",
                                            "bytes=1099511627777",
                                            "kworker",
                                            "w$i",
                                            "{\n",
                                            "}\n",
                                            "\n",
                                            "\n"};
        constexpr std::size_t count = sizeof(words) / sizeof(words[0]);
        std::mt19937 rng(7);
        for (int n = 0; n < 2000; ++n) {
            std::string text;
            const std::size_t tokens = rng() % 60;
            for (std::size_t t = 0; t < tokens; ++t) {
                text += words[rng() % count];
                text += rng() % 4 == 0 ? "" : " ";
            }
            check_sane(parse(text), text);
        }
    }

    void robustOnHugeAndDegenerateInput()
    {
        const std::string big(10 * 1024 * 1024, 'a');
        check_sane(parse("socket " + big + "\n"), "10 MB name");
        check_sane(parse(std::string(10 * 1024 * 1024, '\x01')), "10 MB junk");
        check_sane(parse("note \"" + big), "10 MB unterminated string");
        check_sane(parse("repeat 1 {\n  socket x${" + std::string(1 << 20, '(') + "}\n}\n"), "deep expression");
        check_sane(parse(std::string(100000, '}')), "many braces");
        check_sane(parse(""), "empty");

        // Nesting deeper than the limit: one error at the first repeat too deep, nothing else.
        std::string deep;
        for (int i = 0; i < 150; ++i)
            deep += "repeat 1 as v" + std::to_string(i) + " {\n";
        deep += "gc\n";
        for (int i = 0; i < 150; ++i)
            deep += "}\n";
        const auto r = parse(deep);
        const auto errors = errors_of(r);
        QVERIFY2(errors.size() == 1, all_diagnostics(r).c_str());
        QCOMPARE(at(errors[0]->loc), QString("101:1"));
        QVERIFY(errors[0]->message.find("nested too deeply") != std::string::npos);

        // Many repeats never closed: each is reported, at its own line.
        const auto open = parse("repeat 2 {\nrepeat 2 {\nrepeat 2 {\n");
        QCOMPARE(errors_of(open).size(), std::size_t(3));
    }

    void longTokensAreShortenedInMessages()
    {
        const auto r = parse(std::string(5000, 'x') + "\n");
        QCOMPARE(r.diagnostics.size(), std::size_t(1));
        QVERIFY(r.diagnostics[0].message.size() < 200);
    }

    // ---- files, diagnostics, eras -------------------------------------------------------------

    void loadMissingFile()
    {
        const auto r = load_scene_file("/nonexistent/dir/missing.scene");
        QCOMPARE(r.diagnostics.size(), std::size_t(1));
        QCOMPARE(r.diagnostics[0].loc.line, 0u);
        QCOMPARE(r.diagnostics[0].format(),
                 std::string("/nonexistent/dir/missing.scene: error: cannot open scene file: "
                             "No such file or directory"));
        QVERIFY(!r.ok());
    }

    void loadDirectory()
    {
        QTemporaryDir dir;
        const auto r = load_scene_file(dir.path().toStdString());
        QCOMPARE(r.diagnostics.size(), std::size_t(1));
        QVERIFY(r.diagnostics[0].message.find("cannot open scene file") == 0);
    }

    void loadFile()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("two-pairs.scene").toStdString();
        {
            std::ofstream out(path, std::ios::binary);
            out << "socketpair a b\r\nsocketpair c d\nsend a fds=c\n";
        }
        const auto r = load_scene_file(path);
        VERIFY_OK(r);
        QCOMPARE(r.scene.file, path);
        QCOMPARE(r.scene.title, std::string("two-pairs"));
        QCOMPARE(r.scene.lines, (std::vector<std::string>{"socketpair a b", "socketpair c d", "send a fds=c"}));
        QCOMPARE(r.scene.statements.size(), std::size_t(3));
    }

    void diagnosticFormat()
    {
        Diagnostic d;
        d.file = "x.scene";
        d.loc = {3, 7};
        d.message = "boom";
        QCOMPARE(d.format(), std::string("x.scene:3:7: error: boom"));
        d.severity = Diagnostic::Severity::warning;
        QCOMPARE(d.format(), std::string("x.scene:3:7: warning: boom"));
        d.severity = Diagnostic::Severity::note;
        d.loc = {};
        QCOMPARE(d.format(), std::string("x.scene: note: boom"));
        QVERIFY(!has_errors({d}));
        d.severity = Diagnostic::Severity::error;
        QVERIFY(has_errors({d}));
    }

    void eras()
    {
        QCOMPARE(era_name(GcEra::classic), std::string_view("classic"));
        QCOMPARE(era_name(GcEra::async), std::string_view("async"));
        QCOMPARE(era_name(GcEra::graph), std::string_view("graph"));
        QCOMPARE(era_kernel_label(GcEra::classic), std::string_view("2.6.23-6.8 (modelled: 6.8)"));
        QCOMPARE(era_kernel_label(GcEra::async), std::string_view("6.9"));
        QCOMPARE(era_kernel_label(GcEra::graph), std::string_view("6.10-6.18 (modelled: 6.18)"));
        QCOMPARE(parse_era("graph"), std::optional<GcEra>(GcEra::graph));
        QVERIFY(!parse_era("Graph").has_value());
    }

private:
    // No crash is the main property; also: diagnostics are well formed and in line order, and
    // whatever was parsed can be walked.
    static void check_sane(const ParseResult &r, const std::string &what)
    {
        const auto lines = r.scene.lines.size();
        for (std::size_t i = 0; i < r.diagnostics.size(); ++i) {
            const auto &d = r.diagnostics[i];
            QVERIFY2(d.loc.line >= 1 && d.loc.line <= lines, what.substr(0, 200).c_str());
            QVERIFY2(d.loc.col >= 1, d.format().c_str());
            QVERIFY(!d.message.empty());
            if (i > 0)
                QVERIFY(r.diagnostics[i - 1].loc.line <= d.loc.line);
        }
        SceneCursor cursor(r.scene.statements);
        for (int steps = 0; steps < 10000 && cursor.next(); ++steps)
            (void)cursor.current();
    }
};

QTEST_GUILESS_MAIN(TestParser)
#include "test_parser.moc"
