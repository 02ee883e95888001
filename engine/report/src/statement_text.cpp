// SPDX-License-Identifier: GPL-3.0-or-later
#include "statement_text.hpp"

#include "inflight/errno_code.hpp"
#include "inflight/name_list_text.hpp"
#include "inflight/name_pool.hpp"
#include "inflight/narrate.hpp"

#include <string>
#include <vector>

namespace inflight {

namespace {

const Statement *find_in(const std::vector<Statement> &list, std::uint32_t line)
{
    for (const Statement &s : list) {
        if (s.loc.line == line && s.op != Op::repeat)
            return &s;
        if (const Statement *inner = find_in(s.body, line))
            return inner;
    }
    return nullptr;
}

std::string names_text(const std::vector<NameTemplate> &names)
{
    return name_list_text(
        names.size(), [&](std::size_t i) { return std::string(names[i].text); }, " and ");
}

std::string list_text(const std::vector<NameTemplate> &names)
{
    return name_list_text(names.size(), [&](std::size_t i) { return std::string(names[i].text); });
}

std::string name0(const Statement &s) { return s.names.empty() ? std::string("?") : std::string(s.names[0].text); }

// The statement's i-th name as it ran: a name in a repeat block is a template (u$i); its step
// carries the expanded name's id in the name pool (b for the first, c for the second).
std::string name_as_run(const Statement &s, std::size_t i, std::uint32_t id, const NamePool *pool)
{
    if (id != npos && pool && id < pool->size())
        return std::string(pool->str(id));
    return i < s.names.size() ? std::string(s.names[i].text) : std::string("?");
}

// A send's or a recv's fd list as it ran: a repeat block's templates (s$i_{0..9}) as this
// iteration expanded them, which its step carries in its second name slot.
std::string fds_as_run(const Statement &s, std::uint32_t id, const NamePool *pool)
{
    if (s.names.size() <= 1 && id != npos && pool && id < pool->size())
        return std::string(pool->str(id));
    return list_text(s.fds);
}

std::string count_of(std::int64_t n, const char *one, const char *many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string type_text(SockType t)
{
    switch (t) {
    case SockType::stream: return "stream";
    case SockType::dgram: return "datagram";
    case SockType::seqpacket: return "seqpacket";
    }
    return "stream";
}

std::string option_text(const Statement &s)
{
    return std::string(s.option == SockOpt::passrights ? "SO_PASSRIGHTS" : "SO_PASSCRED") +
           (s.option_value ? " on" : " off");
}

std::string line_text(std::uint32_t line) { return "line " + std::to_string(line); }

std::string capitalised(std::string s)
{
    if (!s.empty() && s[0] >= 'a' && s[0] <= 'z')
        s[0] = static_cast<char>(s[0] - 'a' + 'A');
    return s;
}

// What the statement is about to do, in a clause.
std::string intent(const Statement &s, const std::string &n0, const std::string &n1, const std::string &fds)
{
    if (s.ask)
        return "asks the class about the next statement; the answer is checked once it has run";
    switch (s.op) {
    case Op::user_decl: return "declares user " + n0;
    case Op::process_decl: return "declares process " + n0 + (s.text.empty() ? "" : " of user " + s.text);
    case Op::note: return "a note for the class";
    case Op::socketpair:
        return "socketpair() creates two connected " + type_text(s.type) + " sockets, " + n0 + " and " + n1;
    case Op::socket: return "socket() creates a " + type_text(s.type) + " socket " + n0;
    case Op::bind:
        return "bind() gives " + n0 +
               (s.address ? " the abstract name @" + std::string(s.address->text) : " an autobind name");
    case Op::listen: return "listen() makes " + n0 + " accept connections";
    case Op::connect:
        return "connect() connects " + n0 + " to " + (s.address ? "@" + std::string(s.address->text) : n1);
    case Op::accept: return "accept() takes a connection off listener " + n0 + " as " + n1;
    case Op::send: {
        std::string t =
            "sendmsg() on " + n0 + " sends " + count_of(static_cast<std::int64_t>(s.bytes), "byte", "bytes");
        if (!s.fds.empty())
            t += " passing " + count_of(static_cast<std::int64_t>(s.fds.size()), "fd", "fds") + " (" + fds +
                 ") with SCM_RIGHTS";
        if (s.oob)
            t += ", out of band";
        return t;
    }
    case Op::recv:
        return "recvmsg() " + std::string(s.peek ? "peeks at" : "reads") +
               (s.oob ? " the out-of-band byte of " : " a message from ") + n0 +
               (s.fds.empty() ? "" : ", naming the fds it gets " + fds);
    case Op::dup: return "dup() opens a second fd " + n1 + " on " + n0 + "'s file";
    case Op::close: return "close() of " + (s.names.size() == 1 ? n0 : names_text(s.names));
    case Op::setsockopt: return "setsockopt() turns " + option_text(s) + " for " + n0;
    case Op::gc: return "forces a collection (unix_gc()) and waits for it";
    case Op::expect_freed:
        return "expects " + (s.names.size() == 1 ? n0 : names_text(s.names)) +
               (s.names.size() == 1 ? " to be freed" : " to be freed");
    case Op::expect_alive: return "expects " + (s.names.size() == 1 ? n0 : names_text(s.names)) + " to be alive";
    case Op::expect_inflight: return "expects " + n0 + " to have " + std::to_string(s.count) + " in flight";
    case Op::expect_queue: return "expects " + n0 + "'s receive queue to hold " + count_of(s.count, "skb", "skbs");
    case Op::expect_error:
        return "expects the syscall before it to have failed with " + std::string(errno_name(s.error));
    case Op::expect_finding: return "expects the model to have caught a finding naming " + s.text;
    case Op::repeat: return "repeats a block " + std::to_string(s.count) + " times";
    case Op::spawn:
        if (s.race)
            return "holds race " + n0 + " until a task reaches " + std::string(race_point_name(s.race->when.kind)) +
                   " " + std::string(s.race->when.sock.text.view());
        return "starts task " + n0 + ", which runs its block at the same time";
    case Op::wait:
        return s.names.empty() ? std::string("waits for every task it started")
                               : "waits for task " + (s.names.size() == 1 ? n0 : names_text(s.names));
    case Op::splice:
        return "splice() sends " + count_of(static_cast<std::int64_t>(s.bytes), "byte", "bytes") + " of a file into " +
               n0;
    case Op::delayed_fput:
        return "runs the queued delayed_fput work here, as this CPU's kworker: each deferred __fput() releases "
               "its socket";
    }
    return "runs";
}

// The syscall a statement makes, as the kernel names it.
std::string call_name(Op op)
{
    switch (op) {
    case Op::socketpair: return "socketpair()";
    case Op::socket: return "socket()";
    case Op::bind: return "bind()";
    case Op::listen: return "listen()";
    case Op::connect: return "connect()";
    case Op::accept: return "accept()";
    case Op::send: return "sendmsg()";
    case Op::recv: return "recvmsg()";
    case Op::dup: return "dup()";
    case Op::close: return "close()";
    case Op::setsockopt: return "setsockopt()";
    case Op::splice: return "splice()";
    default: return "the statement";
    }
}

// What the syscall did, from its result value: the value means something different per call.
std::string outcome(const Statement &s, std::int64_t value, const std::string &n0, const std::string &n1,
                    const std::string &fds)
{
    switch (s.op) {
    case Op::socketpair:
        return "socketpair(): " + n0 + " and " + n1 + " are open (" + n0 + " is fd " + std::to_string(value) + ")";
    case Op::socket: return "socket(): " + n0 + " is open as fd " + std::to_string(value);
    case Op::bind:
        return "bind(): " + n0 + " is bound" +
               (s.address ? " to @" + std::string(s.address->text) : " to an autobind name");
    case Op::listen: return "listen(): " + n0 + " is listening";
    case Op::connect: return "connect(): " + n0 + " is connected";
    case Op::accept: return "accept(): the connection is accepted as " + n1 + " (fd " + std::to_string(value) + ")";
    case Op::send: {
        std::string t = "sendmsg() on " + n0 + " sent " + count_of(value, "byte", "bytes");
        if (!s.fds.empty())
            t += " with " + count_of(static_cast<std::int64_t>(s.fds.size()), "fd", "fds") + " (" + fds + ")";
        return t;
    }
    case Op::recv: {
        std::string t = "recvmsg() on " + n0 + " got " + count_of(value, "byte", "bytes");
        if (s.oob)
            return t + ", the out-of-band byte; its fds are never delivered";
        if (!s.fds.empty())
            t +=
                std::string(s.peek ? "; the fds it peeked are now open as " : "; the fds it carried are now open as ") +
                fds;
        if (s.peek)
            t += " (a peek: the message stays queued)";
        return t;
    }
    case Op::dup:
        return "dup(): " + n1 + " is fd " + std::to_string(value) + ", a second reference to " + n0 + "'s file";
    case Op::close:
        return "close(): " + (s.names.size() == 1 ? n0 : names_text(s.names)) +
               (s.names.size() == 1 ? " is closed" : " are closed");
    case Op::setsockopt: return "setsockopt(): " + n0 + " now has " + option_text(s);
    case Op::splice: return "splice() put " + count_of(value, "byte", "bytes") + " into " + n0;
    case Op::gc: return "The forced collection is over";
    case Op::spawn: return "Task " + n0 + " is running";
    case Op::wait: return "The tasks it waited for have ended";
    case Op::delayed_fput: return "delayed_fput() has run: the files it found are released";
    default: return "done";
    }
}

} // namespace

const Statement *statement_at(const Scene &scene, std::uint32_t line) { return find_in(scene.statements, line); }

std::string source_text(const Scene &scene, std::uint32_t line)
{
    if (line == 0 || line > scene.lines.size())
        return {};
    const std::string &t = scene.lines[line - 1];
    const auto b = t.find_first_not_of(" \t");
    if (b == std::string::npos)
        return {};
    const auto e = t.find_last_not_of(" \t\r");
    std::string s = t.substr(b, e - b + 1);
    if (s.size() > 90)
        s = s.substr(0, 87) + "...";
    return s;
}

std::string narrate_statement_begin(const Event &e, const Scene *scene, const NamePool *pool)
{
    const Statement *s = scene ? statement_at(*scene, e.scene_line) : nullptr;
    if (!s)
        return capitalised(line_text(e.scene_line)) + " starts.";
    if (s->op == Op::note)
        return capitalised(line_text(e.scene_line)) + " is a note for the class.";
    return capitalised(line_text(e.scene_line)) + ": " + source_text(*scene, e.scene_line) + " — " +
           intent(*s, name_as_run(*s, 0, e.first_name(), pool), name_as_run(*s, 1, e.second_name(), pool),
                  fds_as_run(*s, e.second_name(), pool)) +
           ".";
}

std::string narrate_statement_end(const Event &e, const Scene *scene, const NamePool *pool)
{
    const Statement *s = scene ? statement_at(*scene, e.scene_line) : nullptr;
    const auto err = static_cast<Errno>(e.error());
    if (e.error()) {
        const std::string what = s ? call_name(s->op) + " on " + line_text(e.scene_line) : line_text(e.scene_line);
        return (s ? what : capitalised(what)) + " failed with " + std::string(errno_name(err)) + " (" +
               std::string(errno_text(err)) + ").";
    }
    if (!s)
        return capitalised(line_text(e.scene_line)) + " finished without an error.";
    switch (s->op) {
    case Op::note:
    case Op::user_decl:
    case Op::process_decl:
    case Op::expect_freed:
    case Op::expect_alive:
    case Op::expect_inflight:
    case Op::expect_queue:
    case Op::expect_error:
    case Op::expect_finding:
    case Op::repeat: return capitalised(line_text(e.scene_line)) + " is done.";
    default:
        return outcome(*s, e.return_value(), name_as_run(*s, 0, e.first_name(), pool),
                       name_as_run(*s, 1, e.second_name(), pool), fds_as_run(*s, e.second_name(), pool)) +
               ".";
    }
}

// An expectation as the fact it states: "u0 and u1 are freed".
std::string expected_fact(const Statement &s)
{
    const bool many = s.names.size() > 1;
    if (s.ask && s.op == Op::expect_error) // about the statement after the ask
        return "it fails with " + std::string(errno_name(s.error)) + " (" + std::string(errno_text(s.error)) + ")";
    if (s.ask && s.op == Op::expect_finding)
        return "the model catches a finding naming " + s.text;
    switch (s.op) {
    case Op::expect_freed: return names_text(s.names) + (many ? " are freed" : " is freed");
    case Op::expect_alive: return names_text(s.names) + (many ? " are alive" : " is alive");
    case Op::expect_inflight: return name0(s) + " has " + std::to_string(s.count) + " in flight";
    case Op::expect_queue: return name0(s) + "'s receive queue holds " + count_of(s.count, "skb", "skbs");
    case Op::expect_error: return "the syscall before it failed with " + std::string(errno_name(s.error));
    case Op::expect_finding: return "the model caught a finding naming " + s.text;
    default: return "the statement's check";
    }
}

std::string narrate_expectation(const Event &e, const Scene *scene)
{
    const Statement *s = scene ? statement_at(*scene, e.scene_line) : nullptr;
    const std::string where = "The expectation on " + line_text(e.scene_line);
    if (!s)
        return where + (e.held() ? " holds." : " FAILED.");
    if (s->ask)
        return "The answer to the question on " + line_text(e.scene_line) +
               (e.held() ? " holds: " + expected_fact(*s) + "."
                         : " FAILED: the scene says " + expected_fact(*s) + ", and the model disagrees.");
    if (e.held())
        return where + " holds: " + expected_fact(*s) + ".";
    return where + " FAILED: the scene " + intent(*s, name0(*s), name_as_run(*s, 1, npos, nullptr), list_text(s->fds)) +
           ", and the model disagrees.";
}

std::string narrate_scene_note(const Event &e, const Scene *scene)
{
    const Statement *s = scene ? statement_at(*scene, e.scene_line) : nullptr;
    if (s && s->ask)
        return e.scene_note_shows() == SceneNote::answer ? answer_text(*s) : "Question: " + s->ask->question;
    if (!s || s->op != Op::note || s->text.empty())
        return "A note for the class (" + line_text(e.scene_line) + ").";
    return "Note: " + s->text;
}

std::string answer_text(const Statement &ask) { return "Answer: " + expected_fact(ask) + "."; }

std::string describe_statement_begin(const Event &e, const Scene *scene, const NamePool *pool)
{
    const std::string text = scene ? source_text(*scene, e.scene_line) : std::string();
    if (text.empty())
        return line_text(e.scene_line) + " starts";
    std::string out = line_text(e.scene_line) + ": " + text;
    // A repeat block's templates, as this iteration expands them.
    const Statement *s = statement_at(*scene, e.scene_line);
    if (s && (e.first_name() != npos || e.second_name() != npos))
        out += " (" + name_as_run(*s, 0, e.first_name(), pool) +
               (s->names.size() > 1 ? ", " + name_as_run(*s, 1, e.second_name(), pool) : "") + ")";
    return out;
}

std::string describe_statement_end(const Event &e, const Scene *scene, const NamePool *pool)
{
    if (e.error())
        return line_text(e.scene_line) + " failed: " + std::string(errno_name(static_cast<Errno>(e.error())));
    const Statement *s = scene ? statement_at(*scene, e.scene_line) : nullptr;
    if (!s)
        return line_text(e.scene_line) + " done";
    // What a statement that acts (a syscall, a collection, a spawn or a join) did.
    if (is_syscall(s->op) || s->op == Op::gc || s->op == Op::spawn || s->op == Op::wait || s->op == Op::delayed_fput)
        return outcome(*s, e.return_value(), name_as_run(*s, 0, e.first_name(), pool),
                       name_as_run(*s, 1, e.second_name(), pool), fds_as_run(*s, e.second_name(), pool));
    return line_text(e.scene_line) + " done";
}

std::string describe_expectation(const Event &e, const Scene *scene)
{
    const Statement *s = scene ? statement_at(*scene, e.scene_line) : nullptr;
    const std::string verdict = s && s->ask ? (e.held() ? "answer holds" : "answer FAILED")
                                            : (e.held() ? "expectation holds" : "expectation FAILED");
    return s ? verdict + ": " + expected_fact(*s) : verdict;
}

std::string describe_scene_note(const Event &e, const Scene *scene)
{
    const Statement *s = scene ? statement_at(*scene, e.scene_line) : nullptr;
    if (s && s->ask) {
        if (e.scene_note_shows() == SceneNote::answer)
            return "answer: " + expected_fact(*s);
        const std::string &q = s->ask->question;
        return "question: " + (q.size() > 80 ? q.substr(0, 77) + "..." : q);
    }
    if (!s || s->op != Op::note || s->text.empty())
        return "note, " + line_text(e.scene_line);
    return "note: " + (s->text.size() > 80 ? s->text.substr(0, 77) + "..." : s->text);
}

} // namespace inflight
