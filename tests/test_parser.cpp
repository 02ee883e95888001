// The scene language: parsing into Statements, diagnostics (exact line and column), template
// expansion, the unrolling cursor, the static checks, and robustness against arbitrary input.

#include "inflight/diagnostic.hpp"
#include "inflight/errno_code.hpp"
#include "inflight/gc_era.hpp"
#include "inflight/name_template.hpp"
#include "inflight/parser.hpp"
#include "inflight/scene_cursor.hpp"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <random>
#include <set>
#include <string>

using namespace inflight;

namespace {

ParseResult parse(const std::string &text)
{
    return parse_scene(text, "test.scene");
}

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
        out.push_back(n.text);
    return out;
}

QString at(SourceLoc loc)
{
    return QString("%1:%2").arg(loc.line).arg(loc.col);
}

#define VERIFY_OK(result) QVERIFY2((result).ok(), all_diagnostics(result).c_str())

} // namespace

class TestParser : public QObject {
    Q_OBJECT

private slots:
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
        QVERIFY(r.scene.settings.fix_unify_scc_index);
        QCOMPARE(r.scene.settings.nofile, std::uint64_t(16));
        QCOMPARE(r.scene.settings.seed, std::uint64_t(42));
        QCOMPARE(r.scene.settings.object_limit, std::uint64_t(500));
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
        QVERIFY(!r.scene.settings.fix_unify_scc_index);
        QCOMPARE(r.scene.settings.nofile, std::uint64_t(1024));
        QCOMPARE(r.scene.settings.object_limit, std::uint64_t(2'000'000));
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
        QVERIFY(!s[4].address.has_value()); // autobind
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
        QVERIFY(pair.names[0].has_vars);
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
        QVERIFY2(found, ("expected " + std::to_string(line) + ":" + std::to_string(col) + " '" +
                         message.toStdString() + "', got:\n" + all_diagnostics(r))
                            .c_str());
    }

    void mistakesBetweenValidLines()
    {
        // 22 mistakes with valid lines in between: exactly one error per mistake and none on the
        // valid lines (a dropped line must not cause "unknown name" errors later either).
        const std::string text = "sned a\n"                            // 1
                                 "socketpair a\n"                      // 2
                                 "socket s strem\n"                    // 3
                                 "socketpair x y\n"                    // 4  fine
                                 "set nofile 99999999999999999999\n"   // 5
                                 "send s fdz=x\n"                      // 6
                                 "recv s peak\n"                       // 7
                                 "expect error EPRM\n"                 // 8
                                 "set gc modern\n"                     // 9
                                 "send x fds=y\n"                      // 10 fine
                                 "set colour red\n"                    // 11
                                 "set fix everything\n"                // 12
                                 "note \"unterminated\n"               // 13
                                 "bind s foo\n"                        // 14
                                 "setsockopt s passrights=maybe\n"     // 15
                                 "expect inflight s lots\n"            // 16
                                 "q: gc\n"                             // 17
                                 "process p user=bob\n"                // 18
                                 "send s$k\n"                          // 19
                                 "socket a-b\n"                        // 20
                                 "}\n"                                 // 21
                                 "close ghost\n"                       // 22
                                 "expect freed x y\n"                  // 23 fine
                                 "expect alive ghost\n"                // 24
                                 "gc now\n";                           // 25
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
        const NameTemplate plain{"abc", {}, false};
        QCOMPARE(expand(plain, {{"i", 1}}), std::string("abc"));
        const NameTemplate templ{"a${i*2}", {}, true};
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
        const QStringList expected{"gc",          "x a=0",       "y a=0 b=0", "y a=0 b=1", "y a=0 b=2",
                                   "x a=1",       "y a=1 b=0",   "y a=1 b=1", "y a=1 b=2", "end"};
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
#ifdef NDEBUG
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
        s.names.push_back(NameTemplate{"x", {4, 7}, false});
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
        static const char *const words[] = {
            "socketpair", "socket", "bind", "listen", "connect", "accept", "send", "recv", "dup", "close",
            "setsockopt", "gc", "expect", "freed", "alive", "inflight", "queue", "error", "EPERM", "repeat",
            "set", "gc", "classic", "graph", "fix", "limit", "nofile", "user", "process", "note", "scene",
            "p:", "main:", "a", "b", "a$i", "b${i+1}", "${(i+1)%4}", "${", "}", "{", "\"", "\"text\"", "fds=",
            "fds=a,b", "bytes=3", "oob", "peek", "to=@x", "@x", "@", "as", "k", "$k", "embryo(a)", "embryo(",
            "3", "0", "-1", "2", "1000000000", "99999999999999999999", "on", "off", "passrights=on", "#",
            "=", ",", ":", "\\", "dgram", "stream", "seqpacket", "\t", "\n", "\n", "\n", "\n"};
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
