// SPDX-License-Identifier: GPL-3.0-or-later
// Property tests of the collectors: seeded random scenes (sockets of every type, sends of 1-3
// fds, recvs, dups, accepts, closes in random order; no OOB and no PEEK, which have scenes of
// their own) end with a `gc`, after which every collector must have freed exactly the sockets
// that a plain reachability computation, written here independently of the engine's GC, finds
// unreachable from the open fds. Also: a run's trace is the same on every run (and with or
// without the invariant checks), and the kernel selftest's mixed_lowpoint graph leaks with the
// unfixed graph collector and not with the fix.
//
// Two counter-checks keep the property honest: in a good share of the scenes the GC itself
// (not a close) frees sockets, and the graph collector WITHOUT the unify-scc-index fix fails the
// same property on some of the same scenes (it leaks; it never frees a live socket).
//
// Scenes are generated as TEXT so that the parser and the static checks are exercised too. The
// generator uses its own bounded-integer helpers on std::mt19937_64 (not the standard
// distributions, whose output differs between standard libraries), so every scene is the same
// on every platform. A failing scene is shrunk (lines, close operands, fds= entries) before it
// is printed.

// errno_code.hpp must come before any standard or Qt header: its enumerators (EPERM, ...) share
// their names with <cerrno>'s macros.
#include "inflight/errno_code.hpp"

#include "inflight/event.hpp"
#include "inflight/file.hpp"
#include "inflight/gc_era.hpp"
#include "inflight/kernel.hpp"
#include "inflight/parser.hpp"
#include "inflight/process.hpp"
#include "inflight/scene.hpp"
#include "inflight/simulation.hpp"
#include "inflight/sk_buff.hpp"
#include "inflight/unix_sock.hpp"

#include <QElapsedTimer>
#include <QtTest>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace inflight;

namespace {

// ---- settings ----------------------------------------------------------------------------------

constexpr int kScenesPerCollector = 2000;
// Every Nth scene runs in checked mode (invariants after every micro-step). Checking costs little
// (2,000 checked scenes take about 0.5 s per collector in Release, 4 s in Debug), so: all of them.
constexpr int kCheckedEvery = 1;
constexpr std::uint64_t kBaseSeed = 0x1F11647ull; // scene i uses kBaseSeed + i, for every era
constexpr double kMinGcShare = 0.20;              // share of scenes where the GC itself freed a socket

// ---- deterministic random helpers ---------------------------------------------------------------

class Rng {
public:
    explicit Rng(std::uint64_t seed) : g_(seed) { }
    // Uniform in [0, n): rejection sampling, identical on every standard library.
    std::uint64_t below(std::uint64_t n)
    {
        const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
        std::uint64_t x;
        do
            x = g_();
        while (x >= limit);
        return x % n;
    }
    int range(int lo, int hi) { return lo + static_cast<int>(below(static_cast<std::uint64_t>(hi - lo + 1))); }
    bool chance(int percent) { return below(100) < static_cast<std::uint64_t>(percent); }
    template <class T>
    const T &pick(const std::vector<T> &v)
    {
        return v[below(v.size())];
    }
    template <class T>
    void shuffle(std::vector<T> &v)
    {
        for (std::size_t i = v.size(); i > 1; --i)
            std::swap(v[i - 1], v[below(i)]);
    }

private:
    std::mt19937_64 g_;
};

const char *type_word(SockType t)
{
    switch (t) {
    case SockType::stream: return "stream";
    case SockType::dgram: return "dgram";
    case SockType::seqpacket: return "seqpacket";
    }
    return "stream";
}

// ---- the scene generator ---------------------------------------------------------------------------

// The scene body (everything after the `set` lines). Names:
//   a<i>/b<i> socketpairs, l<i> listeners, c<i>_<j> their clients, g<i> bound dgram sockets
//   (the socket labels); x<k> accepted sockets (labels too, as aliases); r<k> received fds;
//   d<k> dups. Every name is defined once, so the checker never sees a duplicate label.
std::string generate_body(std::uint64_t seed)
{
    Rng rng(seed);
    std::ostringstream out;
    std::vector<std::string> defined; // every name defined so far (the parser's view)
    std::vector<std::string> open;    // names not yet closed by the scene (may still be unset)
    std::vector<std::string> sure;    // the open names that almost surely hold an fd (not recv's)
    std::vector<std::string> listeners;
    std::vector<std::string> dgram_names; // names known to be datagram sockets
    std::vector<std::string> bound_dgram; // g<i>: addresses a datagram socket may send to=
    int recv_n = 0, dup_n = 0, accept_n = 0;

    auto define = [&](const std::string &n, bool certain = true) {
        defined.push_back(n);
        open.push_back(n);
        if (certain)
            sure.push_back(n);
    };
    auto random_type = [&]() {
        const auto r = rng.below(10);
        return r < 4 ? SockType::stream : r < 7 ? SockType::dgram : SockType::seqpacket;
    };
    // Mostly a name that surely holds an fd, sometimes a recv name (set only if a message with
    // that many fds arrived), now and then any name (a closed or unset one fails with EBADF).
    auto some_name = [&]() -> std::string {
        const auto r = rng.below(100);
        if (r < 75 && !sure.empty())
            return rng.pick(sure);
        if (r < 92 && !open.empty())
            return rng.pick(open);
        return rng.pick(defined);
    };

    const int pairs = rng.range(2, 8);
    for (int i = 0; i < pairs; ++i) {
        const SockType t = random_type();
        const std::string a = "a" + std::to_string(i), b = "b" + std::to_string(i);
        out << "socketpair " << a << ' ' << b << ' ' << type_word(t) << '\n';
        define(a);
        define(b);
        if (t == SockType::dgram) {
            dgram_names.push_back(a);
            dgram_names.push_back(b);
        }
    }
    if (rng.chance(50)) {
        const int nl = rng.chance(20) ? 2 : 1;
        for (int i = 0; i < nl; ++i) {
            const SockType t = rng.chance(60) ? SockType::stream : SockType::seqpacket;
            const std::string l = "l" + std::to_string(i);
            out << "socket " << l << ' ' << type_word(t) << '\n';
            out << "bind " << l << " @" << l << '\n';
            out << "listen " << l << '\n';
            define(l);
            listeners.push_back(l);
            const int clients = rng.range(1, 3);
            for (int j = 0; j < clients; ++j) {
                const std::string c = "c" + std::to_string(i) + "_" + std::to_string(j);
                // Now and then the other connection-oriented type: ECONNREFUSED, and a client
                // that stays unconnected.
                const SockType ct =
                    rng.chance(90) ? t : (t == SockType::stream ? SockType::seqpacket : SockType::stream);
                out << "socket " << c << ' ' << type_word(ct) << '\n';
                define(c);
                if (rng.chance(50))
                    out << "connect " << c << " @" << l << '\n';
                else
                    out << "connect " << c << ' ' << l << '\n';
                if (rng.chance(40)) {
                    const std::string x = "x" + std::to_string(accept_n++);
                    out << "accept " << l << ' ' << x << '\n';
                    define(x);
                }
            }
        }
    }
    if (rng.chance(30)) {
        const int ng = rng.range(1, 2);
        for (int i = 0; i < ng; ++i) {
            const std::string g = "g" + std::to_string(i);
            out << "socket " << g << " dgram\n";
            out << "bind " << g << " @" << g << '\n';
            define(g);
            dgram_names.push_back(g);
            bound_dgram.push_back(g);
        }
    }

    const int actions = rng.range(5, 40);
    for (int n = 0; n < actions; ++n) {
        const auto roll = rng.below(100);
        if (roll < 45) {
            // send <sender> fds=... : to the sender's peer, or to=@g<i> from a datagram socket.
            const std::string sender = some_name();
            const int nfds = rng.range(1, 3);
            out << "send " << sender << " fds=";
            for (int i = 0; i < nfds; ++i)
                out << (i ? "," : "") << some_name();
            if (rng.chance(8))
                out << " bytes=" << rng.range(0, 3);
            const bool is_dgram = std::find(dgram_names.begin(), dgram_names.end(), sender) != dgram_names.end();
            if (is_dgram && !bound_dgram.empty() && rng.chance(40))
                out << " to=@" << rng.pick(bound_dgram);
            out << '\n';
        } else if (roll < 65) {
            // recv <name> fds=r..: fresh names for what arrives (3 covers every message).
            out << "recv " << some_name();
            const int names = rng.chance(90) ? 3 : rng.range(0, 2);
            if (names) {
                out << " fds=";
                for (int i = 0; i < names; ++i) {
                    const std::string r = "r" + std::to_string(recv_n++);
                    out << (i ? "," : "") << r;
                    define(r, false);
                }
            }
            out << '\n';
        } else if (roll < 72) {
            const std::string old = some_name();
            const bool certain = std::find(sure.begin(), sure.end(), old) != sure.end();
            const std::string d = "d" + std::to_string(dup_n++);
            out << "dup " << old << ' ' << d << '\n';
            define(d, certain);
        } else if (roll < 90) {
            const std::string victim = some_name();
            out << "close " << victim << '\n';
            open.erase(std::remove(open.begin(), open.end(), victim), open.end());
            sure.erase(std::remove(sure.begin(), sure.end(), victim), sure.end());
        } else if (roll < 96 && !listeners.empty()) {
            const std::string x = "x" + std::to_string(accept_n++);
            out << "accept " << rng.pick(listeners) << ' ' << x << '\n';
            define(x);
        } else {
            out << "gc\n"; // a collection mid-scene: the graph collector's fast path comes next
        }
    }

    // Close (often all) what is still open, in random order and in one to three statements.
    std::vector<std::string> closing;
    const bool all = rng.chance(75);
    for (const auto &n : open)
        if (all || rng.chance(50))
            closing.push_back(n);
    rng.shuffle(closing);
    if (!closing.empty()) {
        const int groups = std::min<int>(rng.range(1, 3), static_cast<int>(closing.size()));
        std::size_t at = 0;
        for (int g = 0; g < groups; ++g) {
            const std::size_t left = closing.size() - at;
            const std::size_t take =
                g + 1 == groups ? left : 1 + rng.below(left - static_cast<std::size_t>(groups - g - 1));
            out << "close";
            for (std::size_t i = 0; i < take; ++i)
                out << ' ' << closing[at++];
            out << '\n';
        }
    }
    out << "gc\n";
    return out.str();
}

std::string header(GcEra era)
{
    std::string h = "set gc " + std::string(era_name(era)) + "\n";
    if (era == GcEra::graph)
        h += "set fix unify-scc-index\n";
    return h;
}

// ---- the reachability oracle ---------------------------------------------------------------------

// Roots are the files in every fd table. A reachable socket makes reachable every socket whose
// file rides an skb in its receive queue; a reachable listener makes reachable the embryos its
// queue holds (and, through them, what sits in their queues).
std::vector<bool> reachable_sockets(const Kernel &k)
{
    std::vector<bool> seen(k.socks.size(), false);
    std::vector<const UnixSock *> todo;
    auto mark = [&](const UnixSock *u) {
        if (u && !seen[u->id]) {
            seen[u->id] = true;
            todo.push_back(u);
        }
    };
    for (const Process &p : k.processes)
        for (const File *f : p.fds)
            if (f)
                mark(f->sock);
    while (!todo.empty()) {
        const UnixSock *u = todo.back();
        todo.pop_back();
        for (const SkBuff &skb : u->receive_queue) {
            if (skb.fp)
                for (const File *f : skb.fp->fp)
                    if (f)
                        mark(f->sock);
            if (u->state == SockState::listening && skb.sk && skb.sk->state == SockState::embryo)
                mark(skb.sk);
        }
    }
    return seen;
}

struct Outcome {
    std::string failure;   // empty: the property held
    bool gc_freed = false; // at least one socket was freed by a collection
    std::size_t sockets = 0;
    std::size_t garbage = 0; // sockets the oracle finds unreachable (freed by close or GC)
    std::size_t statements = 0, warnings = 0;
    bool listener_collected = false; // the GC freed a listener
    bool embryo_freed = false;       // an embryo was freed before anyone accepted it
};

std::string describe_sock(const Kernel &k, const UnixSock &u)
{
    std::string s = k.label_of(u) + " (" + std::string(sock_type_name(u.type)) + ", " +
                    std::string(sock_state_name(u.state)) + ", file_count " +
                    std::to_string(u.file ? u.file->count : 0) + ", queue " + std::to_string(u.receive_queue.size()) +
                    ", freed_by " + std::string(freed_by_name(u.freed_by)) + ")";
    return s;
}

std::unique_ptr<Simulation> simulate(const std::string &text, const std::string &file, GcEra era, bool checked,
                                     bool record, std::string *parse_error)
{
    ParseResult parsed = parse_scene(text, file);
    if (!parsed.ok()) {
        if (parse_error) {
            for (const auto &d : parsed.diagnostics)
                *parse_error += d.format() + "\n";
        }
        return nullptr;
    }
    SimulationOptions options;
    options.era = era;
    options.checked = checked;
    options.record = record;
    auto sim = std::make_unique<Simulation>(std::make_shared<const Scene>(std::move(parsed.scene)), options);
    sim->run();
    return sim;
}

Outcome check_scene_property(const std::string &text, const std::string &file, GcEra era, bool checked)
{
    Outcome o;
    std::string parse_error;
    auto sim = simulate(text, file, era, checked, /*record=*/false, &parse_error);
    if (!sim) {
        o.failure = "the scene does not parse:\n" + parse_error;
        return o;
    }
    const Kernel &k = sim->kernel();
    std::string why;
    if (!sim->finished())
        why += "the run did not finish\n";
    if (sim->stopped_by_finding())
        why += "the run was stopped by a finding\n";
    for (const auto &f : k.findings)
        why += "finding at step " + std::to_string(f.step) + ": " + f.invariant + ": " + f.message + "\n";
    if (k.era() != era)
        why += "the kernel runs era " + std::string(era_name(k.era())) + "\n";
    if (!k.hitlist.empty())
        why += "the hitlist is not empty at the end\n";

    const std::vector<bool> reachable = reachable_sockets(k);
    o.sockets = k.socks.size();
    o.statements = sim->statements_executed();
    o.warnings = sim->warnings().size();
    for (const UnixSock &u : k.socks) {
        if (u.freed_by == FreedBy::gc)
            o.gc_freed = true;
        // By label (the generator's naming): l<i> are listeners, embryo(...) never got a file
        // unless accepted.
        const std::string label = k.label_of(u);
        if (label.size() > 1 && label[0] == 'l' && u.freed_by == FreedBy::gc)
            o.listener_collected = true;
        if (label.rfind("embryo(", 0) == 0 && !u.file && u.released)
            o.embryo_freed = true;
        if (!reachable[u.id])
            ++o.garbage;
        if (u.released == !reachable[u.id])
            continue;
        why += (u.released ? "freed but reachable from an open fd: " : "leaked (unreachable but alive): ") +
               describe_sock(k, u) + "\n";
    }
    for (const UnixSock &u : k.socks)
        if (u.released && !u.receive_queue.empty())
            why += "freed socket with a non-empty queue: " + describe_sock(k, u) + "\n";
    o.failure = why;
    return o;
}

// ---- shrinking a failing scene -----------------------------------------------------------------------

std::vector<std::string> split_lines(const std::string &text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        lines.push_back(l);
    return lines;
}

std::string join_lines(const std::vector<std::string> &lines)
{
    std::string out;
    for (const auto &l : lines)
        out += l + "\n";
    return out;
}

std::vector<std::string> split_words(const std::string &line)
{
    std::vector<std::string> w;
    std::istringstream in(line);
    for (std::string s; in >> s;)
        w.push_back(s);
    return w;
}

std::string join_words(const std::vector<std::string> &w)
{
    std::string out;
    for (const auto &s : w)
        out += (out.empty() ? "" : " ") + s;
    return out;
}

// Smaller variants of one line: close without one operand; send/recv without one fds= entry.
std::vector<std::string> line_variants(const std::string &line)
{
    std::vector<std::string> out;
    const auto w = split_words(line);
    if (w.size() > 2 && w[0] == "close") {
        for (std::size_t i = 1; i < w.size(); ++i) {
            auto v = w;
            v.erase(v.begin() + static_cast<long>(i));
            out.push_back(join_words(v));
        }
    }
    for (std::size_t i = 0; i < w.size(); ++i) {
        if (w[i].rfind("fds=", 0) != 0)
            continue;
        std::vector<std::string> fds;
        std::stringstream list(w[i].substr(4));
        for (std::string f; std::getline(list, f, ',');)
            fds.push_back(f);
        if (fds.size() < 2)
            continue;
        for (std::size_t j = 0; j < fds.size(); ++j) {
            auto v = w;
            std::string s = "fds=";
            for (std::size_t m = 0; m < fds.size(); ++m)
                if (m != j)
                    s += (s.size() > 4 ? "," : "") + fds[m];
            v[i] = s;
            out.push_back(join_words(v));
        }
    }
    for (std::size_t i = 0; i < w.size(); ++i)
        if (w[i].rfind("bytes=", 0) == 0 || w[i].rfind("to=", 0) == 0) {
            auto v = w;
            v.erase(v.begin() + static_cast<long>(i));
            out.push_back(join_words(v));
        }
    return out;
}

// Greedy: drop lines (and parts of lines) while the scene still parses and still fails. The
// `set` lines and the final `gc` are kept.
std::string shrink(const std::string &text, GcEra era, bool checked)
{
    auto fails = [&](const std::vector<std::string> &lines) {
        const std::string t = join_lines(lines);
        ParseResult parsed = parse_scene(t, "shrink.scn");
        if (!parsed.ok())
            return false;
        return !check_scene_property(t, "shrink.scn", era, checked).failure.empty();
    };
    std::vector<std::string> lines = split_lines(text);
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t i = lines.size(); i-- > 0;) {
            // The settings and the final gc stay: the property is about the state after it.
            if (lines[i].rfind("set ", 0) == 0 || i + 1 == lines.size())
                continue;
            auto candidate = lines;
            candidate.erase(candidate.begin() + static_cast<long>(i));
            if (fails(candidate)) {
                lines = std::move(candidate);
                changed = true;
            }
        }
        for (std::size_t i = 0; i < lines.size(); ++i) {
            for (const auto &v : line_variants(lines[i])) {
                auto candidate = lines;
                candidate[i] = v;
                if (fails(candidate)) {
                    lines = std::move(candidate);
                    changed = true;
                    break;
                }
            }
        }
    }
    return join_lines(lines);
}

// ---- traces --------------------------------------------------------------------------------------------

std::string event_text(const Event &e)
{
    return "step " + std::to_string(e.step) + " " + std::string(event_kind_name(e.kind)) + " " +
           std::string(kfn_name(e.fn)) + " line " + std::to_string(e.scene_line) + " a=" + std::to_string(e.a) +
           " b=" + std::to_string(e.b) + " c=" + std::to_string(e.c) + " " + std::to_string(e.before) + "->" +
           std::to_string(e.after);
}

bool same_event(const Event &x, const Event &y)
{
    return x.step == y.step && x.kind == y.kind && x.fn == y.fn && x.from == y.from && x.to == y.to &&
           x.algo_line == y.algo_line && x.scene_line == y.scene_line && x.a == y.a && x.b == y.b && x.c == y.c &&
           x.before == y.before && x.after == y.after;
}

// Empty when the traces are identical; otherwise where they first differ.
std::string trace_difference(const std::vector<Event> &x, const std::vector<Event> &y)
{
    const std::size_t n = std::min(x.size(), y.size());
    for (std::size_t i = 0; i < n; ++i)
        if (!same_event(x[i], y[i]))
            return "event " + std::to_string(i) + " differs:\n  " + event_text(x[i]) + "\n  " + event_text(y[i]);
    if (x.size() != y.size())
        return "the traces have " + std::to_string(x.size()) + " and " + std::to_string(y.size()) + " events";
    return {};
}

GcEra era_from_index(int i) { return i == 0 ? GcEra::classic : i == 1 ? GcEra::async : GcEra::graph; }

// The kernel selftest's mixed_lowpoint graph (af_unix/scm_rights.c): three triangles of
// sockets whose Tarjan walk mixes low-links. u3..u5 repeat the shape of u0..u2.
std::string mixed_lowpoint_scene(GcEra era, bool fix)
{
    std::string t = "set gc " + std::string(era_name(era)) + "\n";
    if (fix)
        t += "set fix unify-scc-index\n";
    for (int i = 0; i < 6; ++i)
        t += "socketpair u" + std::to_string(i) + " p" + std::to_string(i) + "\n";
    for (int base : {0, 3}) {
        auto u = [base](int i) { return "u" + std::to_string(base + i); };
        auto p = [base](int i) { return "p" + std::to_string(base + i); };
        t += "send " + p(1) + " fds=" + u(0) + "," + u(0) + "\n";
        t += "send " + p(2) + " fds=" + u(1) + "," + u(1) + "\n";
        t += "send " + p(1) + " fds=" + u(2) + "," + u(2) + "\n";
        t += "send " + p(0) + " fds=" + u(1) + "," + u(1) + "\n";
    }
    t += "close u0 u1 u2 u3 u4 u5 p0 p1 p2 p3 p4 p5\n";
    t += "gc\n";
    return t;
}

} // namespace

class TestProperty : public QObject {
    Q_OBJECT

private slots:
    // The generator's scenes are accepted by the parser and the static checks, and the same seed
    // always gives the same text.
    void generatorIsDeterministicAndParses()
    {
        for (std::uint64_t i = 0; i < 200; ++i) {
            const std::string body = generate_body(kBaseSeed + i);
            QCOMPARE(QString::fromStdString(generate_body(kBaseSeed + i)), QString::fromStdString(body));
            for (int e = 0; e < 3; ++e) {
                const std::string text = header(era_from_index(e)) + body;
                const ParseResult r = parse_scene(text, "random-" + std::to_string(kBaseSeed + i) + ".scn");
                std::string diags;
                for (const auto &d : r.diagnostics)
                    diags += d.format() + "\n";
                QVERIFY2(r.ok(), (diags + "--- scene ---\n" + text).c_str());
                QCOMPARE(r.scene.settings.gc, era_from_index(e));
                QCOMPARE(r.scene.settings.fixes.get(KernelChange::unify_scc_index).value_or(false),
                         era_from_index(e) == GcEra::graph);
            }
        }
    }

    // The oracle itself, on hand-made cases: a self-referencing pair is garbage, the same pair
    // with one fd still open is not, and an fd parked in an unaccepted embryo of an open
    // listener is reachable through the listener.
    void oracleOnKnownScenes()
    {
        struct Case {
            const char *text;
            std::vector<std::pair<const char *, bool>> reachable;
        };
        const std::vector<Case> cases = {
            {"socketpair a b\nsend b fds=a\nclose a b\n", {{"a", false}, {"b", false}}},
            {"socketpair a b\nsend a fds=a\nclose a\n", {{"a", true}, {"b", true}}},
            {"socketpair a b\nsend b fds=b\nclose b\n", {{"a", true}, {"b", true}}},
            {"socket l\nbind l @l\nlisten l\nsocket c\nconnect c l\nsocketpair a b\nsend c fds=a\n"
             "close a b c\n",
             {{"l", true}, {"c", false}, {"embryo(c)", true}, {"a", true}, {"b", false}}},
            {"socket l\nbind l @l\nlisten l\nsocket c\nconnect c l\nsend c fds=l\nclose l c\n",
             {{"l", false}, {"c", false}, {"embryo(c)", false}}},
        };
        for (const Case &c : cases) {
            auto sim =
                simulate(std::string("set gc graph\n") + c.text, "oracle.scn", GcEra::graph, true, false, nullptr);
            QVERIFY2(sim, c.text);
            // Before any collection: what the oracle sees is what the scene built.
            const Kernel &k = sim->kernel();
            const auto reachable = reachable_sockets(k);
            for (const auto &[label, want] : c.reachable) {
                const UnixSock *u = const_cast<Kernel &>(k).find_label(label);
                QVERIFY2(u, label);
                QVERIFY2(
                    reachable[u->id] == want,
                    (std::string(c.text) + "--- " + label + (want ? " should be reachable" : " should not")).c_str());
            }
        }
    }

    void randomScenesAgreeWithReachability_data()
    {
        QTest::addColumn<int>("era");
        QTest::newRow("classic") << 0;
        QTest::newRow("async") << 1;
        QTest::newRow("graph+fix") << 2;
    }

    // The property: after the final gc, freed == unreachable, socket by socket.
    void randomScenesAgreeWithReachability()
    {
        QFETCH(int, era);
        const GcEra e = era_from_index(era);
        QElapsedTimer timer;
        timer.start();
        int failures = 0, with_gc_free = 0, checked_runs = 0, listener_gc = 0, embryo_freed = 0;
        std::size_t sockets = 0, garbage = 0, statements = 0, warnings = 0;
        std::string first_failure;
        for (int i = 0; i < kScenesPerCollector; ++i) {
            const std::uint64_t seed = kBaseSeed + static_cast<std::uint64_t>(i);
            const std::string text = header(e) + generate_body(seed);
            const std::string file = "random-" + std::to_string(seed) + ".scn";
            const bool checked = i % kCheckedEvery == 0;
            checked_runs += checked;
            const Outcome o = check_scene_property(text, file, e, checked);
            with_gc_free += o.gc_freed;
            sockets += o.sockets;
            garbage += o.garbage;
            statements += o.statements;
            warnings += o.warnings;
            listener_gc += o.listener_collected;
            embryo_freed += o.embryo_freed;
            if (o.failure.empty())
                continue;
            if (failures++ == 0) {
                const std::string small = shrink(text, e, checked);
                first_failure = file + " (" + std::string(era_name(e)) + (checked ? ", checked" : "") + "):\n" +
                                o.failure + "--- scene ---\n" + text + "--- shrunk ---\n" + small +
                                "--- shrunk scene's failure ---\n" +
                                check_scene_property(small, "shrunk.scn", e, checked).failure;
            }
        }
        const double share = static_cast<double>(with_gc_free) / kScenesPerCollector;
        qInfo("%s: %d scenes (%d checked) in %lld ms; %zu statements (%zu failed, as allowed); %zu sockets, "
              "%zu unreachable at the end; the GC freed something in %.1f%% of the scenes, a listener in %d, "
              "an unaccepted embryo went in %d",
              era_name(e).data(), kScenesPerCollector, checked_runs, static_cast<long long>(timer.elapsed()),
              statements, warnings, sockets, garbage, 100.0 * share, listener_gc, embryo_freed);
        // QtTest cuts long failure messages: the scene goes to the log in full.
        if (failures)
            qWarning("%s: %d of %d scenes failed; the first:\n%s", era_name(e).data(), failures, kScenesPerCollector,
                     first_failure.c_str());
        QVERIFY2(failures == 0, (std::to_string(failures) + " of " + std::to_string(kScenesPerCollector) +
                                 " scenes failed (the first, and its shrunk form, are in the log above)")
                                    .c_str());
        // The oracle is not vacuous: the generator does make cycles the GC has to break.
        QVERIFY2(share > kMinGcShare,
                 ("the GC freed a socket in only " + std::to_string(with_gc_free) + " scenes").c_str());
    }

    // The property has teeth: the graph collector WITHOUT the unify-scc-index fix leaks in some
    // of the same random scenes, and every socket it keeps is one the oracle calls unreachable.
    void unfixedGraphFailsTheProperty()
    {
        int leaking = 0;
        std::string first;
        for (int i = 0; i < kScenesPerCollector; ++i) {
            const std::uint64_t seed = kBaseSeed + static_cast<std::uint64_t>(i);
            const std::string text = "set gc graph\n" + generate_body(seed);
            const Outcome o = check_scene_property(text, "unfixed.scn", GcEra::graph, true);
            if (o.failure.empty())
                continue;
            // Only leaks are allowed: the unfixed collector never frees a live socket here.
            QVERIFY2(o.failure.find("leaked") != std::string::npos &&
                         o.failure.find("freed but reachable") == std::string::npos &&
                         o.failure.find("finding") == std::string::npos,
                     (o.failure + text).c_str());
            if (leaking++ == 0)
                first = shrink(text, GcEra::graph, true);
        }
        qInfo("unfixed graph: %d of %d scenes leak; the first, shrunk:\n%s", leaking, kScenesPerCollector,
              first.c_str());
        QVERIFY2(leaking > 0, "no random scene shows the unfixed graph collector's leak");
    }

    // A run is a pure function of the scene: two runs give the same trace, event by event, and
    // checking invariants after every micro-step does not change it.
    void traceIsIdenticalOnTwoRuns()
    {
        for (int era = 0; era < 3; ++era) {
            const GcEra e = era_from_index(era);
            for (std::uint64_t i = 0; i < 25; ++i) {
                const std::uint64_t seed = kBaseSeed + 7919 * i;
                const std::string text = header(e) + generate_body(seed);
                std::string err;
                auto first = simulate(text, "trace.scn", e, true, true, &err);
                auto second = simulate(text, "trace.scn", e, true, true, &err);
                auto unchecked = simulate(text, "trace.scn", e, false, true, &err);
                QVERIFY2(first && second && unchecked, (err + text).c_str());
                QVERIFY(!first->events().empty());
                // A finding stops a checked run early, so its trace would differ for that reason.
                QVERIFY2(first->kernel().findings.empty(),
                         (std::string(era_name(e)) + ": finding: " +
                          (first->kernel().findings.empty() ? std::string()
                                                            : first->kernel().findings.front().invariant + ": " +
                                                                  first->kernel().findings.front().message) +
                          "\n" + text)
                             .c_str());
                QCOMPARE(first->steps(), static_cast<std::uint64_t>(first->events().size()));
                const std::string d1 = trace_difference(first->events(), second->events());
                QVERIFY2(d1.empty(), (std::string(era_name(e)) + ": two runs differ: " + d1 + "\n" + text).c_str());
                const std::string d2 = trace_difference(first->events(), unchecked->events());
                QVERIFY2(
                    d2.empty(),
                    (std::string(era_name(e)) + ": checked and unchecked runs differ: " + d2 + "\n" + text).c_str());
                QCOMPARE(first->warnings().size(), second->warnings().size());
                for (std::size_t w = 0; w < first->warnings().size(); ++w) {
                    QCOMPARE(first->warnings()[w].line, second->warnings()[w].line);
                    QCOMPARE(first->warnings()[w].message, second->warnings()[w].message);
                }
            }
        }
    }

    void mixedLowpoint_data()
    {
        QTest::addColumn<int>("era");
        QTest::addColumn<bool>("fix");
        QTest::addColumn<bool>("leaks");
        QTest::newRow("graph unfixed") << 2 << false << true;
        QTest::newRow("graph fixed") << 2 << true << false;
        QTest::newRow("classic") << 0 << false << false;
        QTest::newRow("async") << 1 << false << false;
    }

    // The graph collector before "Unify scc_index when finalising SCC" leaves u0, u1 and u2 alive.
    void mixedLowpoint()
    {
        QFETCH(int, era);
        QFETCH(bool, fix);
        QFETCH(bool, leaks);
        const GcEra e = era_from_index(era);
        const std::string text = mixed_lowpoint_scene(e, fix);
        std::string err;
        auto sim = simulate(text, "mixed_lowpoint.scn", e, true, false, &err);
        QVERIFY2(sim, (err + text).c_str());
        Kernel &k = const_cast<Kernel &>(sim->kernel());
        QVERIFY2(k.findings.empty(), k.findings.empty() ? "" : k.findings.front().message.c_str());
        QVERIFY(!sim->stopped_by_finding());
        for (int i = 0; i < 6; ++i) {
            for (const char *prefix : {"u", "p"}) {
                const std::string label = prefix + std::to_string(i);
                const UnixSock *u = k.find_label(label);
                QVERIFY2(u, label.c_str());
                // Unfixed, u0..u2 must leak; u3..u5 (the same shape, walked later) leak too in
                // the model, which the oracle check below allows without requiring it.
                if (leaks && prefix[0] == 'u' && i >= 3)
                    continue;
                const bool should_leak = leaks && prefix[0] == 'u';
                QVERIFY2(u->released == !should_leak, (label + (u->released ? " was freed" : " is alive") + " (" +
                                                       std::string(era_name(e)) + (fix ? ", fixed" : "") + ")\n" + text)
                                                          .c_str());
            }
        }
        // What leaks is exactly what the oracle calls unreachable and the collector missed.
        const auto reachable = reachable_sockets(k);
        for (const UnixSock &u : k.socks)
            if (!u.released)
                QVERIFY2(!reachable[u.id] && leaks, k.label_of(u).c_str());
    }
};

QTEST_GUILESS_MAIN(TestProperty)
#include "test_property.moc"
