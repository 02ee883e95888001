// SPDX-License-Identifier: GPL-3.0-or-later
// The parsed form of a scene file (scenes/LANGUAGE.md). Produced by parse_scene(), checked by
// check_scene(), executed statement by statement by Simulation.
#pragma once

#include "inflight/diagnostic.hpp"
#include "inflight/errno_code.hpp"
#include "inflight/gc_era.hpp"
#include "inflight/kernel_change.hpp"
#include "inflight/name_pool.hpp"
#include "inflight/race_point.hpp"
#include "inflight/run_budget.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inflight {

enum class SockType : unsigned char { stream, dgram, seqpacket };

// The text of a name in a statement: a pointer to NUL-terminated text that outlives it (interned
// in its scene's Scene::names, whose texts end in a NUL, or a string literal). Eight bytes, read
// as a std::string_view; names never hold a NUL (the parser rejects it in any name).
class NameText {
public:
    constexpr NameText() = default;
    constexpr NameText(const char *text) : text_(text) { } // NOLINT: literals and interned texts
    std::string_view view() const { return text_ ? std::string_view(text_) : std::string_view(); }
    operator std::string_view() const { return view(); }
    const char *data() const { return text_ ? text_ : ""; }
    std::size_t size() const { return view().size(); }
    bool empty() const { return !text_ || !*text_; }
    std::size_t find(char c, std::size_t from = 0) const { return view().find(c, from); }
    std::size_t find(std::string_view s, std::size_t from = 0) const { return view().find(s, from); }
    std::string_view substr(std::size_t pos, std::size_t n = std::string_view::npos) const
    {
        return view().substr(pos, n);
    }
    char operator[](std::size_t i) const { return text_[i]; }
    friend bool operator==(const NameText &a, std::string_view b) { return a.view() == b; }

private:
    const char *text_ = nullptr;
};

// A name as written: may contain $var or ${expr} parts that expand inside repeat blocks. A name
// in a statement costs these 16 bytes, not a copy of the word: a file of names parses in a few
// times its size.
struct NameTemplate {
    NameText text;
    SourceLoc loc;
    bool has_vars() const { return text.find('$') != std::string_view::npos; }
};

enum class Op : unsigned char {
    user_decl,       // user alice
    process_decl,    // process p user=alice
    note,            // note "text"
    socketpair,      // socketpair a b [type]
    socket,          // socket s [type]
    bind,            // bind s [@name]
    listen,          // listen s
    connect,         // connect c @name | connect c s
    accept,          // accept l s2
    send,            // send a [fds=..] [bytes=N] [oob] [to=@name]
    recv,            // recv a [fds=..] [peek] [oob]
    dup,             // dup a a2
    close,           // close a [b ...]
    setsockopt,      // setsockopt a passrights=on|off | passcred=on|off
    gc,              // gc
    expect_freed,    // expect freed a [b ...]
    expect_alive,    // expect alive a [b ...]
    expect_inflight, // expect inflight a N
    expect_queue,    // expect queue a N
    expect_error,    // expect error ENAME
    repeat,          // repeat N [as k] { ... }
    spawn,           // spawn NAME [cpu=N] { ... }: run the block concurrently (see below)
    wait,            // wait [NAME ...]: join spawned tasks (no names: all of them)
    splice,          // splice a bytes=N: sendfile() of N bytes into stream socket a (MSG_SPLICE_PAGES)
    expect_finding,  // expect finding WORD: the model has made a finding whose check names WORD
    // delayed_fput: in a race's block, the queued delayed_fput work runs there, as another
    // CPU's kworker would run it (the 6.10-rc unix_del_edges() use-after-free, spec 5.7)
    delayed_fput,
};

// The statements that are one system call of the scene's process (what the model charges a
// syscall for, what a narration reports the result of, what a real kernel replay performs).
constexpr bool is_syscall(Op op)
{
    switch (op) {
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
    case Op::splice: return true;
    default: return false;
    }
}

enum class SockOpt : unsigned char { passrights, passcred };

struct Statement {
    Op op = Op::note;
    SourceLoc loc;       // the statement keyword (after any "p:" prefix)
    std::string process; // "p" of "p: stmt"; empty = the default process "main"
    SourceLoc process_loc;

    // Operand names, by op:
    //   user_decl/process_decl: [0] the declared name
    //   socketpair: [0],[1]   socket/bind/listen/send/recv/setsockopt: [0]
    //   connect: [0] client, [1] target fd name (when no address is given)
    //   accept: [0] listener, [1] new fd   dup: [0] old, [1] new   close: all closed names
    //   expect_freed/expect_alive/expect_inflight/expect_queue: socket labels (may be embryo(c))
    std::vector<NameTemplate> names;

    SockType type = SockType::stream;    // socketpair/socket
    std::optional<NameTemplate> address; // bind/connect address, send to=; text without the '@'
    std::vector<NameTemplate> fds;       // send fds= (fds passed) / recv fds= (names for received fds)
    bool has_fds = false;                // fds= was given (even if it names zero fds)
    std::uint64_t bytes = 1;             // send bytes=
    bool oob = false;                    // send/recv oob
    bool peek = false;                   // recv peek
    std::string text;                    // note text; process_decl: user name
    SourceLoc text_loc;
    // note ERA... "text": the collectors the note's text holds for (empty: every one). Under
    // another collector the note is not shown (no note event).
    std::vector<GcEra> note_eras;
    // expect VARIANT... KIND ...: the variants the expectation holds in (empty: every run). A
    // bug's scene expects the leak in `variant buggy` and the free in `variant fixed`.
    std::vector<std::string> only_variants;
    std::int64_t count = 0;               // expect inflight/queue N; repeat N
    Errno error = Errno::none;            // expect error
    SockOpt option = SockOpt::passrights; // setsockopt
    bool option_value = true;

    std::string loop_var = "i";  // repeat ... as k
    std::vector<Statement> body; // repeat and spawn body

    // process_decl / spawn: cpu=N (may hold ${expr} inside a repeat; empty text = not given).
    // spawn NAME: NAME (names[0], may be a template) is either a declared process, whose fd
    // table and user the block then uses, or a new thread of the spawning process (sharing its
    // fd table and user, as `hackbench thread` does) that gets its own CPU and its own name in
    // the latency histograms.
    NameTemplate cpu;

    // spawn NAME when POINT SOCK [until POINT SOCK] { ... }: a race. The task is held at the
    // spawn until another task completes the micro-step `when` names; that task is preempted
    // there and this one runs. With `until`, when this task reaches that second point, the
    // preempted task runs to the end of its statement first, then this one goes on.
    struct RacePoint {
        RacePointKind kind = RacePointKind::select;
        NameTemplate sock;
        SourceLoc loc;
        std::uint32_t nth = 1; // when ... nth=N: the N-th time the point is reached
    };
    struct Race {
        RacePoint when;
        std::optional<RacePoint> until;
    };
    // Shared and immutable, out of line: a statement stays small (a file of 700,000 statements
    // parses in a few times its size; two inline points would add ~100 bytes to each).
    std::shared_ptr<const Race> race;

    // ask "QUESTION" answer KIND ...: an expectation (an expect_ op, and the operands its
    // `expect` line would have) that a lesson puts to the class first. The question is about what
    // the statement after it does, so the answer is checked once that statement has run. Out of
    // line, as race is.
    struct Ask {
        std::string question;
        SourceLoc question_loc;
        SourceLoc answer_loc; // the word `answer`
    };
    std::shared_ptr<const Ask> ask;
};

// `set autobind ...`: which unix_autobind() the model runs (spec 6).
enum class AutobindMode : unsigned char {
    sequential, // pre-2021: one static ordernum shared by every socket, ENOSPC after 0xFFFFF retries
    random_v1,  // the 2021 v1 patch: random 32-bit start, stops at ordernum == initnum (may never)
    random,     // merged form: random start, ENOSPC after exactly 2^20 probes, ending at lastnum
};

struct CostOverride {
    std::string name; // a name from cost_table() (cost_model.hpp)
    std::uint64_t ns = 0;
    SourceLoc loc;
};

struct SceneSettings {
    GcEra gc = GcEra::async;
    std::string variant; // the variant these settings are ("" = the scene as written)
    // set kernel VERSION: a profile of kernel_profile.hpp ("" = the era's default profile).
    // `set kernel` also sets gc to the profile's era; a later `set gc` clears it.
    std::string kernel;
    KernelChangeOverrides fixes; // set fix NAME on|off, on top of the profile
    std::uint64_t nofile = 1024; // RLIMIT_NOFILE of every process
    std::uint64_t seed = 1;      // set seed N (autobind start numbers)
    RunBudget budget;            // set limit [NAME] N (run_budget.hpp); bare N: objects
    bool checked = false;        // set check on: verify invariants after every micro-step
    // set collectors classic async graph: the eras the scene's expectations hold for (empty:
    // only `gc`). Tests run the scene under each; the CLI warns when run under another.
    std::vector<GcEra> collectors;
    // ... and the kernel profiles it names there (`set collectors graph 6.1 7.3`): tests run
    // the scene under each of those too.
    std::vector<std::string> collector_kernels;

    // ---- modelled time (issue: time and concurrency) ----
    std::uint32_t cpus = 1;          // set cpus N (1..1024); queued kernel work runs on CPU N-1
    std::vector<CostOverride> costs; // set cost NAME NS, in order (a later line wins)
    // set autobind sequential|random-v1|random (unset: the profile's, random from 5.17)
    std::optional<AutobindMode> autobind;
    bool creds_by_default = false; // set creds-by-default on (2.6.39-3.1 behaviour)
    // set table-lock global|per-bucket (unset: the profile's, per-bucket from 5.17)
    std::optional<bool> global_table_lock;
};

// `variant NAME { set ... }`: the same scene under other settings, for A/B comparisons (the CLI
// runs each; the app's latency panel offers them). settings = the scene's settings with the
// block's `set` lines applied on top.
struct SceneVariant {
    std::string name;
    SourceLoc loc;
    SceneSettings settings;
};

struct Scene {
    std::string file;  // as given to the parser; used in diagnostics
    std::string title; // scene "Title"; defaults to the file's base name
    SceneSettings settings;
    std::vector<Statement> statements;
    std::vector<SceneVariant> variants;
    std::vector<std::string> lines; // the source text, line by line, for the views
    // Where every NameTemplate of the scene keeps its text; shared by copies of the scene.
    std::shared_ptr<NameArena> names = std::make_shared<NameArena>();
};

} // namespace inflight
