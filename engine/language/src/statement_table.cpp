// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/statement_table.hpp"

#include "inflight/errno_code.hpp"
#include "inflight/gc_era.hpp"

#include <algorithm>
#include <array>

namespace inflight {
namespace {

using W = std::string_view;

constexpr std::array<W, 3> kSockTypes{"stream", "dgram", "seqpacket"};
constexpr std::array<W, 1> kUserOpt{"user"};
constexpr std::array<W, 2> kProcessOpts{"user", "cpu"};
constexpr std::array<W, 3> kSendOpts{"fds", "bytes", "to"};
constexpr std::array<W, 1> kOob{"oob"};
constexpr std::array<W, 1> kRecvOpts{"fds"};
constexpr std::array<W, 2> kRecvFlags{"peek", "oob"};
constexpr std::array<W, 1> kBytes{"bytes"};
constexpr std::array<W, 2> kSockOpts{"passrights", "passcred"};
constexpr std::array<W, 1> kCpu{"cpu"};
constexpr std::array<W, 2> kSpawnOpts{"cpu", "nth"};
constexpr std::array<W, 6> kExpectKinds{"freed", "alive", "inflight", "queue", "error", "finding"};
constexpr std::array<W, 7> kAskWords{"answer", "freed", "alive", "inflight", "queue", "error", "finding"};
constexpr std::array<W, 1> kAs{"as"};
// spawn NAME when POINT SOCK [until POINT SOCK]: the words and the points (race_point.hpp)
constexpr std::array<W, 10> kSpawnWords{"when", "until",   "select", "restore", "visit",
                                        "dead", "connect", "peek",   "scan",    "fput"};

constexpr std::array<StatementInfo, 25> kStatements{{
    {"scene",
     "scene \"Title\"",
     "The title shown in the player and in reports.",
     {},
     {},
     false,
     false,
     {Grammar::title, Op::note, 0, 0}},
    {"set",
     "set NAME VALUE",
     "A setting of the whole scene: the collector, fixes, limits, CPUs, costs.",
     {},
     {},
     false,
     false,
     {Grammar::setting, Op::note, 0, 0}},
    {"user",
     "user NAME",
     "Declares a user (every scene has root).",
     {},
     {},
     false,
     false,
     {Grammar::declaration, Op::user_decl, 0, 0}},
    {"process",
     "process NAME [user=NAME] [cpu=K]",
     "Declares a process, run by root unless user= names another.",
     kProcessOpts,
     {},
     false,
     false,
     {Grammar::declaration, Op::process_decl, 0, 0}},
    {"note",
     "note [ERA ...] \"text\"",
     "Narration shown at this point (only under the collectors it names).",
     {},
     kEraNames,
     true,
     false,
     {Grammar::note, Op::note, 0, 0}},
    {"socketpair",
     "socketpair A B [stream|dgram|seqpacket]",
     "socketpair(AF_UNIX): two connected sockets, named and labelled A and B.",
     {},
     kSockTypes,
     true,
     false,
     {Grammar::socket, Op::socketpair, 2, 2}},
    {"socket",
     "socket S [stream|dgram|seqpacket]",
     "socket(AF_UNIX): one unconnected socket named S.",
     {},
     kSockTypes,
     true,
     false,
     {Grammar::socket, Op::socket, 1, 1}},
    {"bind",
     "bind S [@ADDR]",
     "Binds S to the abstract address @ADDR, or autobinds without one.",
     {},
     {},
     true,
     false,
     {Grammar::bind, Op::bind, 0, 0}},
    {"listen",
     "listen S",
     "listen(): S accepts connections.",
     {},
     {},
     true,
     false,
     {Grammar::simple, Op::listen, 1, 1}},
    {"connect",
     "connect C @ADDR | connect C S",
     "connect(): to an address, or to the address socket S is bound to (queues embryo(C)).",
     {},
     {},
     true,
     false,
     {Grammar::connect, Op::connect, 0, 0}},
    {"accept",
     "accept L NEW",
     "accept(): the first queued connection of listener L, as descriptor NEW.",
     {},
     {},
     true,
     false,
     {Grammar::simple, Op::accept, 2, 2}},
    {"send",
     "send S [fds=A,B,...] [bytes=N] [oob] [to=@ADDR]",
     "sendmsg() on S; fds= attaches SCM_RIGHTS, which puts those sockets in flight.",
     kSendOpts,
     kOob,
     true,
     false,
     {Grammar::send, Op::send, 0, 0}},
    {"recv",
     "recv S [fds=NEW1,NEW2,...] [peek] [oob]",
     "recvmsg() on S; fds= names the descriptors received, in order.",
     kRecvOpts,
     kRecvFlags,
     true,
     false,
     {Grammar::recv, Op::recv, 0, 0}},
    {"dup",
     "dup OLD NEW",
     "dup(): NEW names a new descriptor for the same socket.",
     {},
     {},
     true,
     false,
     {Grammar::simple, Op::dup, 2, 2}},
    {"close",
     "close A [B ...]",
     "close() of each descriptor, in order.",
     {},
     {},
     true,
     false,
     {Grammar::simple, Op::close, 1, kAnyNumber}},
    {"setsockopt",
     "setsockopt S passrights=on|off",
     "Sets SO_PASSRIGHTS or SO_PASSCRED (passcred=on|off) on S.",
     kSockOpts,
     {},
     true,
     false,
     {Grammar::setsockopt, Op::setsockopt, 0, 0}},
    {"gc",
     "gc",
     "Runs the garbage collector now, in the era's way.",
     {},
     {},
     true,
     false,
     {Grammar::simple, Op::gc, 0, 0}},
    {"expect",
     "expect freed|alive LABEL [LABEL ...]",
     "A check that turns the scene into a test: freed, alive, inflight N, queue N, error ENAME or finding WORD.",
     {},
     kExpectKinds,
     true,
     false,
     {Grammar::expect, Op::expect_freed, 0, 0}},
    {"ask",
     "ask \"QUESTION\" answer freed|alive LABEL [LABEL ...]",
     "A question for the class about the next statement; its answer, in expect's forms, is checked once that "
     "statement has run.",
     {},
     kAskWords,
     true,
     false,
     {Grammar::ask, Op::expect_freed, 0, 0}},
    {"repeat",
     "repeat N [as VAR] {",
     "Runs the block N times; $VAR (default $i) counts from 0.",
     {},
     kAs,
     false,
     true,
     {Grammar::repeat, Op::repeat, 0, 0}},
    {"spawn",
     "spawn TASK [cpu=K] [when POINT SOCK [nth=N] [until POINT SOCK]] {",
     "Runs the block as its own task, concurrently with the rest; with when, as a race that breaks in at POINT.",
     kSpawnOpts,
     kSpawnWords,
     false,
     true,
     {Grammar::spawn, Op::spawn, 0, 0}},
    {"wait",
     "wait [TASK ...]",
     "Waits for spawned tasks to finish (all of them without names).",
     {},
     {},
     true,
     false,
     {Grammar::simple, Op::wait, 0, kAnyNumber}},
    {"delayed_fput",
     "delayed_fput",
     "In a race's block: the queued delayed_fput work runs now, as another CPU's kworker runs it.",
     {},
     {},
     true,
     false,
     {Grammar::simple, Op::delayed_fput, 0, 0}},
    {"splice",
     "splice S bytes=N",
     "sendfile() of N bytes into stream socket S (MSG_SPLICE_PAGES).",
     kBytes,
     {},
     true,
     false,
     {Grammar::splice, Op::splice, 0, 0}},
    {"variant",
     "variant NAME {",
     "A named set of `set` lines, run on top of the scene's own settings.",
     {},
     {},
     false,
     true,
     {Grammar::variant, Op::note, 0, 0}},
}};

constexpr std::array<W, 2> kOnOff{"on", "off"};
// The names of kernel_change_table() and kernel_profiles(), spelled out so the table stays
// constexpr; test_parser checks they are the same lists.
constexpr std::array<W, 27> kFixes{"limit-inflight",
                                   "no-default-creds",
                                   "msg-oob",
                                   "peek-gc-lock",
                                   "per-hash-locks",
                                   "random-autobind",
                                   "iouring-no-send",
                                   "hitlist-before-restore",
                                   "oob-gc-kfree",
                                   "oob-gc-first-socket",
                                   "oob-gc-before-purge",
                                   "connect-gc-race",
                                   "gc-async",
                                   "remove-iouring-gc",
                                   "oob-stale-clear",
                                   "graph-gc",
                                   "embryo-oob-gc",
                                   "fpl-dead",
                                   "walk-uninit",
                                   "oob-no-skb-get",
                                   "splice-no-checksum",
                                   "so-passrights",
                                   "init-scc-index",
                                   "schedule-gc",
                                   "peek-seqcount",
                                   "gc-in-progress-set",
                                   "unify-scc-index"};
constexpr std::array<W, 15> kKernels{"4.4",  "5.10", "5.15", "6.1",  "6.6", "6.8", "6.9", "6.10",
                                     "6.12", "6.17", "6.18", "6.19", "7.0", "7.2", "7.3"};
constexpr std::array<W, 3> kAutobind{"sequential", "random-v1", "random"};
constexpr std::array<W, 2> kTableLock{"global", "per-bucket"};

constexpr std::array<SettingInfo, 13> kSettings{{
    {"gc", "set gc classic|async|graph",
     "The collector: classic (6.8), async (6.9) or graph (6.18), as kernel profiles.", kEraNames},
    {"kernel", "set kernel VERSION",
     "A kernel profile: its collector and the changes it has ('inflight-cli kernels' lists them).", kKernels},
    {"fix", "set fix NAME [on|off]", "Turns one named kernel change on or off, on top of the kernel profile.", kFixes},
    {"nofile", "set nofile N", "RLIMIT_NOFILE of every process (default 1024).", {}},
    {"seed", "set seed N", "Seed for the start numbers of autobind addresses.", {}},
    {"limit", "set limit [NAME] N", "The most sockets the scene may create, or one of the run's budgets.", {}},
    {"check", "set check on|off", "Verify the model's invariants after every micro-step.", kOnOff},
    {"collectors", "set collectors ERA [ERA ...]", "The eras this scene's expectations hold for.", kEraNames},
    {"cpus", "set cpus N", "The number of CPUs, 1 to 1024.", {}},
    {"cost", "set cost NAME NS", "Overrides one modelled cost, in nanoseconds.", {}},
    {"autobind", "set autobind sequential|random-v1|random", "Which unix_autobind() runs.", kAutobind},
    {"creds-by-default", "set creds-by-default on|off",
     "Attach the sender's pid and credentials to every message (2.6.39-3.1).", kOnOff},
    {"table-lock", "set table-lock global|per-bucket", "One lock for the AF_UNIX hash table, or one per bucket.",
     kTableLock},
}};

template <std::size_t N, class T, class F>
constexpr std::array<W, N> names_of(const std::array<T, N> &table, F field)
{
    std::array<W, N> out{};
    for (std::size_t i = 0; i < N; ++i)
        out[i] = table[i].*field;
    return out;
}

constexpr auto kStatementNames = names_of(kStatements, &StatementInfo::name);
constexpr auto kSettingKeys = names_of(kSettings, &SettingInfo::key);

} // namespace

std::span<const StatementInfo> statement_table() { return kStatements; }

const StatementInfo *find_statement(std::string_view name)
{
    const auto it =
        std::find_if(kStatements.begin(), kStatements.end(), [name](const StatementInfo &s) { return s.name == name; });
    return it == kStatements.end() ? nullptr : &*it;
}

std::span<const std::string_view> statement_names() { return kStatementNames; }

std::span<const SettingInfo> setting_table() { return kSettings; }

const SettingInfo *find_setting(std::string_view key)
{
    const auto it =
        std::find_if(kSettings.begin(), kSettings.end(), [key](const SettingInfo &s) { return s.key == key; });
    return it == kSettings.end() ? nullptr : &*it;
}

std::span<const std::string_view> setting_keys() { return kSettingKeys; }

std::span<const std::string_view> fix_names() { return kFixes; }

std::span<const std::string_view> kernel_names() { return kKernels; }
std::span<const std::string_view> expect_kinds() { return kExpectKinds; }
std::span<const std::string_view> socket_types() { return kSockTypes; }
std::span<const std::string_view> errno_names() { return kErrnoNames; }
std::span<const std::string_view> era_names() { return kEraNames; }

} // namespace inflight
