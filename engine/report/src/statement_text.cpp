// SPDX-License-Identifier: GPL-3.0-or-later
#include "statement_text.hpp"

#include "inflight/errno_code.hpp"

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

std::string names_text(const std::vector<NameTemplate> &names, std::size_t from = 0)
{
    std::string out;
    for (std::size_t i = from; i < names.size(); ++i) {
        if (!out.empty())
            out += i + 1 == names.size() ? " and " : ", ";
        out += names[i].text;
    }
    return out;
}

std::string list_text(const std::vector<NameTemplate> &names)
{
    std::string out;
    for (const NameTemplate &n : names)
        out += (out.empty() ? "" : ", ") + n.text;
    return out;
}

std::string name0(const Statement &s) { return s.names.empty() ? std::string("?") : s.names[0].text; }
std::string name1(const Statement &s) { return s.names.size() > 1 ? s.names[1].text : std::string("?"); }

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
std::string intent(const Statement &s)
{
    switch (s.op) {
    case Op::user_decl: return "declares user " + name0(s);
    case Op::process_decl: return "declares process " + name0(s) + (s.text.empty() ? "" : " of user " + s.text);
    case Op::note: return "a note for the class";
    case Op::socketpair: return "socketpair() creates two connected " + type_text(s.type) + " sockets, " + name0(s) + " and " + name1(s);
    case Op::socket: return "socket() creates a " + type_text(s.type) + " socket " + name0(s);
    case Op::bind: return "bind() gives " + name0(s) + (s.address ? " the abstract name @" + s.address->text : " an autobind name");
    case Op::listen: return "listen() makes " + name0(s) + " accept connections";
    case Op::connect:
        return "connect() connects " + name0(s) + " to " + (s.address ? "@" + s.address->text : name1(s));
    case Op::accept: return "accept() takes a connection off listener " + name0(s) + " as " + name1(s);
    case Op::send: {
        std::string t = "sendmsg() on " + name0(s) + " sends " + count_of(static_cast<std::int64_t>(s.bytes), "byte", "bytes");
        if (!s.fds.empty())
            t += " passing " + count_of(static_cast<std::int64_t>(s.fds.size()), "fd", "fds") + " (" + list_text(s.fds) + ") with SCM_RIGHTS";
        if (s.oob)
            t += ", out of band";
        return t;
    }
    case Op::recv:
        return "recvmsg() " + std::string(s.peek ? "peeks at" : "reads") + (s.oob ? " the out-of-band byte of " : " a message from ") +
               name0(s) + (s.fds.empty() ? "" : ", naming the fds it gets " + list_text(s.fds));
    case Op::dup: return "dup() opens a second fd " + name1(s) + " on " + name0(s) + "'s file";
    case Op::close: return "close() of " + names_text(s.names);
    case Op::setsockopt: return "setsockopt() turns " + option_text(s) + " for " + name0(s);
    case Op::gc: return "forces a collection (unix_gc()) and waits for it";
    case Op::expect_freed: return "expects " + names_text(s.names) + (s.names.size() == 1 ? " to be freed" : " to be freed");
    case Op::expect_alive: return "expects " + names_text(s.names) + " to be alive";
    case Op::expect_inflight: return "expects " + name0(s) + " to have " + std::to_string(s.count) + " in flight";
    case Op::expect_queue: return "expects " + name0(s) + "'s receive queue to hold " + count_of(s.count, "skb", "skbs");
    case Op::expect_error: return "expects the syscall before it to have failed with " + std::string(errno_name(s.error));
    case Op::repeat: return "repeats a block " + std::to_string(s.count) + " times";
    case Op::spawn: return "starts task " + name0(s) + ", which runs its block at the same time";
    case Op::wait: return s.names.empty() ? std::string("waits for every task it started") : "waits for task " + names_text(s.names);
    case Op::splice: return "splice() sends " + count_of(static_cast<std::int64_t>(s.bytes), "byte", "bytes") + " of a file into " + name0(s);
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
std::string outcome(const Statement &s, std::int64_t value)
{
    switch (s.op) {
    case Op::socketpair: return "socketpair(): " + name0(s) + " and " + name1(s) + " are open (" + name0(s) + " is fd " + std::to_string(value) + ")";
    case Op::socket: return "socket(): " + name0(s) + " is open as fd " + std::to_string(value);
    case Op::bind: return "bind(): " + name0(s) + " is bound" + (s.address ? " to @" + s.address->text : " to an autobind name");
    case Op::listen: return "listen(): " + name0(s) + " is listening";
    case Op::connect: return "connect(): " + name0(s) + " is connected";
    case Op::accept: return "accept(): the connection is accepted as " + name1(s) + " (fd " + std::to_string(value) + ")";
    case Op::send: {
        std::string t = "sendmsg() on " + name0(s) + " sent " + count_of(value, "byte", "bytes");
        if (!s.fds.empty())
            t += " with " + count_of(static_cast<std::int64_t>(s.fds.size()), "fd", "fds") + " (" + list_text(s.fds) + ")";
        return t;
    }
    case Op::recv: {
        std::string t = "recvmsg() on " + name0(s) + " got " + count_of(value, "byte", "bytes");
        if (s.oob)
            return t + ", the out-of-band byte; its fds are never delivered";
        if (!s.fds.empty())
            t += std::string(s.peek ? "; the fds it peeked are now open as " : "; the fds it carried are now open as ") + list_text(s.fds);
        if (s.peek)
            t += " (a peek: the message stays queued)";
        return t;
    }
    case Op::dup: return "dup(): " + name1(s) + " is fd " + std::to_string(value) + ", a second reference to " + name0(s) + "'s file";
    case Op::close: return "close(): " + names_text(s.names) + (s.names.size() == 1 ? " is closed" : " are closed");
    case Op::setsockopt: return "setsockopt(): " + name0(s) + " now has " + option_text(s);
    case Op::splice: return "splice() put " + count_of(value, "byte", "bytes") + " into " + name0(s);
    case Op::gc: return "The forced collection is over";
    case Op::spawn: return "Task " + name0(s) + " is running";
    case Op::wait: return "The tasks it waited for have ended";
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

std::string statement_action(const Statement &s) { return intent(s); }

std::string narrate_statement_begin(const Event &e, const Scene *scene)
{
    const Statement *s = scene ? statement_at(*scene, e.scene_line) : nullptr;
    if (!s)
        return capitalised(line_text(e.scene_line)) + " starts.";
    if (s->op == Op::note)
        return capitalised(line_text(e.scene_line)) + " is a note for the class.";
    return capitalised(line_text(e.scene_line)) + ": " + source_text(*scene, e.scene_line) + " — " + intent(*s) + ".";
}

std::string narrate_statement_end(const Event &e, const Scene *scene)
{
    const Statement *s = scene ? statement_at(*scene, e.scene_line) : nullptr;
    const auto err = static_cast<Errno>(e.before);
    if (e.before) {
        const std::string what = s ? call_name(s->op) + " on " + line_text(e.scene_line) : line_text(e.scene_line);
        return (s ? what : capitalised(what)) + " failed with " + std::string(errno_name(err)) + " (" + std::string(errno_text(err)) + ").";
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
    case Op::repeat: return capitalised(line_text(e.scene_line)) + " is done.";
    default: return outcome(*s, e.after) + ".";
    }
}

// An expectation as the fact it states: "u0 and u1 are freed".
std::string expected_fact(const Statement &s)
{
    const bool many = s.names.size() > 1;
    switch (s.op) {
    case Op::expect_freed: return names_text(s.names) + (many ? " are freed" : " is freed");
    case Op::expect_alive: return names_text(s.names) + (many ? " are alive" : " is alive");
    case Op::expect_inflight: return name0(s) + " has " + std::to_string(s.count) + " in flight";
    case Op::expect_queue: return name0(s) + "'s receive queue holds " + count_of(s.count, "skb", "skbs");
    case Op::expect_error: return "the syscall before it failed with " + std::string(errno_name(s.error));
    default: return "the statement's check";
    }
}

std::string narrate_expectation(const Event &e, const Scene *scene)
{
    const Statement *s = scene ? statement_at(*scene, e.scene_line) : nullptr;
    const std::string where = "The expectation on " + line_text(e.scene_line);
    if (!s)
        return where + (e.before ? " holds." : " FAILED.");
    if (e.before)
        return where + " holds: " + expected_fact(*s) + ".";
    return where + " FAILED: the scene " + intent(*s) + ", and the model disagrees.";
}

std::string narrate_scene_note(const Event &e, const Scene *scene)
{
    const Statement *s = scene ? statement_at(*scene, e.scene_line) : nullptr;
    if (!s || s->op != Op::note || s->text.empty())
        return "A note for the class (" + line_text(e.scene_line) + ").";
    return "Note: " + s->text;
}

std::string describe_statement_begin(const Event &e, const Scene *scene)
{
    const std::string text = scene ? source_text(*scene, e.scene_line) : std::string();
    return text.empty() ? line_text(e.scene_line) + " starts" : line_text(e.scene_line) + ": " + text;
}

std::string describe_statement_end(const Event &e, const Scene *scene)
{
    if (e.before)
        return line_text(e.scene_line) + " failed: " + std::string(errno_name(static_cast<Errno>(e.before)));
    const Statement *s = scene ? statement_at(*scene, e.scene_line) : nullptr;
    if (!s)
        return line_text(e.scene_line) + " done";
    switch (s->op) {
    case Op::socketpair:
    case Op::socket:
    case Op::bind:
    case Op::listen:
    case Op::connect:
    case Op::accept:
    case Op::send:
    case Op::recv:
    case Op::dup:
    case Op::close:
    case Op::setsockopt:
    case Op::splice:
    case Op::gc:
    case Op::spawn:
    case Op::wait: return outcome(*s, e.after);
    default: return line_text(e.scene_line) + " done";
    }
}

std::string describe_scene_note(const Event &e, const Scene *scene)
{
    const Statement *s = scene ? statement_at(*scene, e.scene_line) : nullptr;
    if (!s || s->op != Op::note || s->text.empty())
        return "note, " + line_text(e.scene_line);
    return "note: " + (s->text.size() > 80 ? s->text.substr(0, 77) + "..." : s->text);
}

} // namespace inflight
