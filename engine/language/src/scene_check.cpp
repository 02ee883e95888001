// SPDX-License-Identifier: GPL-3.0-or-later
// check_scene(): the static, whole-scene checks that need the scene unrolled in execution order
// (which names each process has defined so far, which socket labels exist, how many sockets the
// scene creates). Syntax problems are the parser's business; see parser.cpp.
#include "inflight/name_pool.hpp"
#include "inflight/name_template.hpp"
#include "inflight/parser.hpp"
#include "inflight/scene_cursor.hpp"
#include "parser_detail.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace inflight {

namespace {

// Above this many unrolled statements the detailed walk is not worth its time (tens of seconds):
// only the first kPrefixBudget statements are checked. Everything found in a prefix of the
// execution is a real error, because names and labels only ever accumulate.
constexpr std::uint64_t kFullWalkLimit = 1'000'000;
constexpr std::uint64_t kPrefixBudget = 200'000;
constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

std::uint64_t sat_add(std::uint64_t a, std::uint64_t b)
{
    std::uint64_t r = 0;
    return __builtin_add_overflow(a, b, &r) ? kSaturated : r;
}

std::uint64_t sat_mul(std::uint64_t a, std::uint64_t b)
{
    std::uint64_t r = 0;
    return __builtin_mul_overflow(a, b, &r) ? kSaturated : r;
}

std::string count_text(std::uint64_t n)
{
    return n == kSaturated ? "more than " + std::to_string(kSaturated - 1) : std::to_string(n);
}

struct Cost {
    std::uint64_t sockets = 0;    // sockets created (an upper bound: every connect counts)
    std::uint64_t statements = 0; // statements executed, repeats themselves not counted
    std::uint64_t names = 0;      // fd names defined (to size the hash tables up front)
};

// Computed multiplicatively, so a billion iterations cost one look at the body.
Cost cost_of(const Statement &s)
{
    Cost c;
    switch (s.op) {
    case Op::socketpair:
        c.sockets = 2;
        c.names = 2;
        break;
    case Op::socket:
        c.sockets = 1;
        c.names = 1;
        break;
    case Op::connect: c.sockets = 1; break;
    case Op::accept:
    case Op::dup: c.names = 1; break;
    case Op::recv: c.names = s.fds.size(); break;
    default: break;
    }
    if (s.op != Op::repeat && s.op != Op::spawn) {
        c.statements = 1;
        return c;
    }
    Cost body;
    for (const auto &inner : s.body) {
        const Cost ic = cost_of(inner);
        body.sockets = sat_add(body.sockets, ic.sockets);
        body.statements = sat_add(body.statements, ic.statements);
        body.names = sat_add(body.names, ic.names);
    }
    if (s.op == Op::spawn) { // the body runs once per spawn, and the spawn is a statement itself
        body.statements = sat_add(body.statements, 1);
        return body;
    }
    const auto n = static_cast<std::uint64_t>(s.count > 0 ? s.count : 0);
    c.sockets = sat_mul(body.sockets, n);
    c.statements = sat_mul(body.statements, n);
    c.names = sat_mul(body.names, n);
    return c;
}

const char *op_word(Op op)
{
    switch (op) {
    case Op::socketpair: return "socketpair";
    case Op::socket: return "socket";
    case Op::connect: return "connect";
    case Op::repeat: return "repeat";
    case Op::spawn: return "spawn";
    default: return "statement";
    }
}

std::string bindings_text(const Bindings &bindings)
{
    std::string out;
    for (const auto &[name, value] : bindings) {
        if (!out.empty())
            out += ", ";
        out += name + "=" + std::to_string(value);
    }
    return out;
}

constexpr std::uint32_t kNoName = 0xFFFFFFFFu; // no interned name
constexpr std::uint32_t kNoLine = 0xFFFFFFFFu;

// Interned name id -> V, open addressing (load <= 1/2): a socket statement costs a probe or two
// instead of a node allocation.
template <class V>
class IdMap {
public:
    const V *find(std::uint32_t id) const
    {
        if (slots_.empty())
            return nullptr;
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = home(id, mask);; i = (i + 1) & mask) {
            if (slots_[i].key == id + 1)
                return &slots_[i].value;
            if (slots_[i].key == 0)
                return nullptr;
        }
    }
    bool contains(std::uint32_t id) const { return find(id) != nullptr; }
    V &operator[](std::uint32_t id) // a default V when new
    {
        if ((used_ + 1) * 2 > slots_.size())
            rehash(std::max<std::size_t>(16, slots_.size() * 2));
        const std::size_t mask = slots_.size() - 1;
        std::size_t i = home(id, mask);
        while (slots_[i].key != 0 && slots_[i].key != id + 1)
            i = (i + 1) & mask;
        if (slots_[i].key == 0) {
            slots_[i].key = id + 1;
            ++used_;
        }
        return slots_[i].value;
    }
    void reserve(std::size_t n)
    {
        std::size_t size = 16;
        while (size < 2 * n)
            size *= 2;
        if (size > slots_.size())
            rehash(size);
    }

private:
    struct Slot {
        std::uint32_t key = 0; // id + 1; 0 = empty
        V value{};
    };
    // Interned ids are dense and handed out in order of first use, so a process's names are
    // mostly runs of neighbouring ids: kept at their own slot they stay neighbours in memory,
    // where a scattering hash would make the probes of a large scene's check miss the cache.
    static std::size_t home(std::uint32_t id, std::size_t mask) { return id & mask; }
    void rehash(std::size_t size)
    {
        std::vector<Slot> old(size);
        old.swap(slots_);
        const std::size_t mask = size - 1;
        for (const Slot &o : old) {
            if (o.key == 0)
                continue;
            std::size_t i = home(o.key - 1, mask);
            while (slots_[i].key != 0)
                i = (i + 1) & mask;
            slots_[i] = o;
        }
    }
    std::vector<Slot> slots_;
    std::size_t used_ = 0;
};

class Checker {
public:
    Checker(const Scene &scene, std::vector<Diagnostic> &out, const std::unordered_set<std::string> *unreliable)
        : scene_(scene), out_(out), unreliable_(unreliable)
    {
        users_.emplace("root", 0);
        processes_.emplace("main", 0);
    }

    void run()
    {
        const bool complete = check_limit();
        // Sizing the tables once saves the rehashing that dominates big scenes otherwise.
        const std::uint64_t cap = complete ? 4'000'000 : kPrefixBudget;
        const auto clamp = [cap](std::uint64_t n) { return static_cast<std::size_t>(std::min(n, cap)); };
        label_line_.reserve(clamp(total_.sockets));
        fds_["main"].reserve(clamp(total_.names));
        walk(complete ? kSaturated : kPrefixBudget);
    }

private:
    // What is statically known about the socket behind an fd name.
    struct FdInfo {
        bool type_known = false;
        SockType type = SockType::stream;
        std::uint32_t label = kNoName; // interned; kNoName: unknown (a received descriptor)
    };
    using FdTable = IdMap<FdInfo>; // by interned fd name

    struct PendingLabel {
        std::uint32_t label; // interned
        const NameTemplate *source;
        SourceLoc loc;
    };

    // What a diagnostic is about, so each (template or statement, kind) is reported once however
    // many iterations repeat it.
    enum Kind { kUnknownName, kUnknownLabel, kDuplicateLabel, kExpand, kProcess, kUser, kOther };

    void report(SourceLoc loc, std::string message, Diagnostic::Severity severity = Diagnostic::Severity::error)
    {
        Diagnostic d;
        d.severity = severity;
        d.file = scene_.file;
        d.loc = loc;
        d.message = std::move(message);
        keep_diagnostic(out_, std::move(d), dropped_);
    }

    bool first_time(const void *what, Kind kind) { return reported_.emplace(what, kind).second; }

    bool unreliable(std::string_view text) const { return unreliable_ && unreliable_->count(std::string(text)) != 0; }

    bool unreliable_label(const NameTemplate &t, const std::string &expanded) const
    {
        if (!unreliable_)
            return false;
        if (unreliable(t.text) || unreliable(expanded))
            return true;
        // embryo(c): the parser records c, the word that was on the broken line.
        constexpr std::string_view prefix = "embryo(";
        if (expanded.size() > prefix.size() + 1 && expanded.compare(0, prefix.size(), prefix) == 0)
            return unreliable(std::string_view(expanded).substr(prefix.size(), expanded.size() - prefix.size() - 1));
        return false;
    }

    // Returns false when the object limit is exceeded or the scene is too long to walk in full.
    bool check_limit()
    {
        const std::uint64_t limit = scene_.settings.budget[Budget::objects];
        std::uint64_t total = 0;
        std::uint64_t statements = 0;
        bool over = false;
        for (const auto &s : scene_.statements) {
            const Cost c = cost_of(s);
            statements = sat_add(statements, c.statements);
            total_.names = sat_add(total_.names, c.names);
            total_.sockets = sat_add(total_.sockets, c.sockets);
            if (over || c.sockets == 0)
                continue;
            const std::uint64_t after = sat_add(total, c.sockets);
            if (after <= limit) {
                total = after;
                continue;
            }
            over = true;
            std::string message;
            if (s.op == Op::repeat || s.op == Op::spawn)
                message = std::string("this ") + op_word(s.op) + " would create " + count_text(c.sockets) +
                          " sockets, bringing the scene to " + count_text(after);
            else
                message = std::string("this ") + op_word(s.op) + " would bring the scene to " + count_text(after) +
                          " sockets";
            message += ", over the object limit of " + std::to_string(limit) + " (raise it with 'set limit N')";
            report(s.loc, std::move(message));
        }
        return !over && statements <= kFullWalkLimit;
    }

    void walk(std::uint64_t budget)
    {
        for (const auto &s : scene_.statements)
            if (s.op == Op::process_decl && !s.names.empty())
                declared_processes_.emplace(s.names[0].text, s.loc.line); // the first wins
        if (!unreliable_) // a dropped line leaves a block's order unknown
            check_asks(scene_.statements);
        std::uint64_t steps = 0;
        walk_list(scene_.statements, {}, steps, budget);
        commit_labels();
    }

    // Walks `list` unrolled, with `outer` the bindings of the repeats around it (a spawn body's
    // statements see the loop variables of the repeats the spawn is in).
    void walk_list(const std::vector<Statement> &list, const Bindings &outer, std::uint64_t &steps,
                   std::uint64_t budget)
    {
        SceneCursor cursor(list);
        Bindings combined;
        bool syscall_seen = false;        // in this task: `expect error` checks the task's own statements
        const Statement *asked = nullptr; // an ask waiting for the statement it asks about
        Bindings asked_bindings;
        while (steps < budget && cursor.next()) {
            ++steps;
            if (lookups_ >= scene_.settings.budget[Budget::name_lookups]) {
                // The checker's work is its look-ups (one statement may name 100,000 fds), not its
                // statements: past the budget the rest is checked only as it runs.
                steps = budget;
                if (!lookups_noted_) {
                    lookups_noted_ = true;
                    const BudgetBreach b{Budget::name_lookups, scene_.settings.budget[Budget::name_lookups],
                                         "the statements from here on are checked only as they run"};
                    report(cursor.current().loc, budget_message(b), Diagnostic::Severity::note);
                }
                break;
            }
            const Statement &s = cursor.current();
            const Bindings *b = &cursor.bindings();
            if (!outer.empty()) {
                combined = outer;
                combined.insert(combined.end(), b->begin(), b->end());
                b = &combined;
            }
            if (s.ask) {
                // Its answer is checked once the next statement has run, against what that
                // statement made (the sockets it created, the error it returned).
                if (asked)
                    run_statement(*asked, asked_bindings, syscall_seen);
                asked = &s;
                asked_bindings = *b;
                continue;
            }
            run_statement(s, *b, syscall_seen);
            if (s.op == Op::spawn)
                spawn_body(s, *b, steps, budget);
            if (asked)
                run_statement(*std::exchange(asked, nullptr), asked_bindings, syscall_seen);
        }
        if (asked)
            run_statement(*asked, asked_bindings, syscall_seen);
    }

    // One statement as it runs: what it defines, uses and expects.
    void run_statement(const Statement &s, const Bindings &b, bool &syscall_seen)
    {
        switch (s.op) {
        case Op::expect_error:
            // `expect error` checks the last socket operation (or gc) that ran; that
            // statement failed, so it created nothing and its labels may be used again (a
            // connect that is refused, then retried). Notes in between do not matter.
            pending_.clear();
            if (!syscall_seen && !unreliable_ && first_time(&s, kOther))
                report(s.loc, s.ask ? "answer error has no socket operation to check: the statement after the ask "
                                      "is none"
                                    : "expect error has no previous socket operation to check");
            break;
        case Op::note:
        case Op::user_decl:
        case Op::process_decl:
        case Op::spawn: // neither is a socket operation for `expect error`
        case Op::wait:
        case Op::delayed_fput:
        case Op::expect_finding: break;
        default:
            commit_labels();
            if (s.op != Op::expect_freed && s.op != Op::expect_alive && s.op != Op::expect_inflight &&
                s.op != Op::expect_queue)
                syscall_seen = true;
            break;
        }
        statement(s, b);
    }

    // An ask is about the statement after it, in its own block: that statement must be there,
    // and be one that does something for the answer to be about.
    void check_asks(const std::vector<Statement> &list)
    {
        for (std::size_t i = 0; i < list.size(); ++i) {
            const Statement &s = list[i];
            if (s.op == Op::repeat || s.op == Op::spawn)
                check_asks(s.body);
            if (!s.ask)
                continue;
            const Statement *next = i + 1 < list.size() ? &list[i + 1] : nullptr;
            if (!next) {
                report(s.loc, "ask needs the statement it asks about after it, in its block: the answer is checked "
                              "once that statement has run");
                continue;
            }
            const char *what = nullptr;
            if (next->ask)
                what = "another ask";
            else if (next->op == Op::note)
                what = "a note";
            else if (next->op == Op::repeat || next->op == Op::spawn)
                what = next->op == Op::repeat ? "a repeat block" : "a spawn block";
            else if (next->op == Op::user_decl || next->op == Op::process_decl)
                what = "a declaration";
            else if (next->op == Op::expect_freed || next->op == Op::expect_alive || next->op == Op::expect_inflight ||
                     next->op == Op::expect_queue || next->op == Op::expect_error || next->op == Op::expect_finding)
                what = "an expect";
            if (what)
                report(s.loc, std::string("ask is about the statement after it, but ") + what +
                                  " follows it here: put the ask just before a socket statement, gc or wait, whose "
                                  "result the answer is checked against");
        }
    }

    // A spawn's body is checked as if it ran at the spawn point: in the process the spawn names,
    // or (a thread) in the spawning process, which is main since spawns do not nest.
    void spawn_body(const Statement &s, const Bindings &b, std::uint64_t &steps, std::uint64_t budget)
    {
        std::string process = task_process_.empty() ? std::string("main") : task_process_;
        if (!s.names.empty() && !s.names[0].has_vars() && processes_.count(std::string(s.names[0].text)))
            process = s.names[0].text;
        std::vector<PendingLabel> outer_pending = std::move(pending_);
        pending_.clear();
        std::string outer_process = std::exchange(task_process_, process);
        std::string scratch;
        const std::string *task = s.names.empty() ? nullptr : name_of(s.names[0], b, scratch);
        std::string outer_task = std::exchange(task_name_, task ? *task : std::string());
        const bool outer_race = std::exchange(in_race_, s.race != nullptr);
        walk_list(s.body, b, steps, budget);
        commit_labels();
        task_process_ = std::move(outer_process);
        task_name_ = std::move(outer_task);
        in_race_ = outer_race;
        pending_ = std::move(outer_pending);
    }

    void commit_labels()
    {
        for (auto &p : pending_) {
            if (p.label >= label_line_.size())
                label_line_.resize(std::size_t{p.label} + 1, kNoLine);
            std::uint32_t &line = label_line_[p.label];
            const bool inserted = line == kNoLine;
            if (inserted)
                line = p.loc.line;
            if (inserted || !first_time(p.source, kDuplicateLabel))
                continue;
            report(p.loc, "label '" + std::string(names_.str(p.label)) +
                              "' is already used by the socket created at line " + std::to_string(line) +
                              "; socket labels must be unique");
        }
        pending_.clear();
    }

    // Expands a template; on failure reports it once and returns null. `scratch` holds the
    // result (a plain name is copied: names are short, and the look-ups want a std::string).
    const std::string *name_of(const NameTemplate &t, const Bindings &b, std::string &scratch)
    {
        if (!t.has_vars()) {
            scratch.assign(t.text);
            return &scratch;
        }
        std::string error;
        std::size_t offset = 0;
        auto expanded = expand_name(t.text, b, &error, &offset);
        if (expanded) {
            scratch = std::move(*expanded);
            return &scratch;
        }
        if (first_time(&t, kExpand))
            report(SourceLoc{t.loc.line, t.loc.col + static_cast<std::uint32_t>(offset)},
                   "cannot expand '" + std::string(t.text) + "': " + error + " (with " + bindings_text(b) + ")");
        return nullptr;
    }

    // The interned id of a name, or kNoName when no statement has defined or labelled it.
    std::uint32_t known(const std::string &name) const
    {
        ++lookups_;
        return names_.find(name).value_or(kNoName);
    }
    bool has_label(const std::string &label) const
    {
        const std::uint32_t id = known(label);
        return id < label_line_.size() && label_line_[id] != kNoLine;
    }

    void use(FdTable &fds, const std::string &process, const NameTemplate &t, const Bindings &b)
    {
        std::string scratch;
        const std::string *name = name_of(t, b, scratch);
        if (!name)
            return;
        const std::uint32_t id = known(*name);
        if ((id != kNoName && fds.contains(id)) || unreliable(t.text) || unreliable(*name))
            return;
        if (!first_time(&t, kUnknownName) || fold_error_at(out_, scene_.file, t.loc))
            return;
        std::string message = "unknown name '" + *name + "' in process '" + process + "'";
        if (t.has_vars())
            message += " (from '" + std::string(t.text) + "' with " + bindings_text(b) + ")";
        for (const auto &[other, table] : fds_) {
            if (other != process && id != kNoName && table.contains(id)) {
                message += "; it is defined in process '" + other + "', and each process has its own file descriptors";
                break;
            }
        }
        report(t.loc, std::move(message));
    }

    // Returns the defined name (for labels), or null when the template could not be expanded.
    const std::string *define(FdTable &fds, const NameTemplate &t, const Bindings &b, std::string &scratch, FdInfo info)
    {
        const std::string *name = name_of(t, b, scratch);
        if (name) {
            ++lookups_;
            fds[names_.intern(*name)] = info;
        }
        return name;
    }

    FdInfo info_of(const FdTable &fds, const NameTemplate &t, const Bindings &b)
    {
        std::string scratch;
        const std::string *name = name_of(t, b, scratch);
        if (!name)
            return {};
        const std::uint32_t id = known(*name);
        const FdInfo *info = id == kNoName ? nullptr : fds.find(id);
        return info ? *info : FdInfo{};
    }

    void add_label(std::uint32_t label, const NameTemplate &source)
    {
        pending_.push_back(PendingLabel{label, &source, source.loc});
    }

    void expect_label(const NameTemplate &t, const Bindings &b)
    {
        std::string scratch;
        const std::string *label = name_of(t, b, scratch);
        if (!label || has_label(*label) || unreliable_label(t, *label))
            return;
        if (embryos_unknown_ && label->compare(0, 7, "embryo(") == 0)
            return;
        if (!first_time(&t, kUnknownLabel))
            return;
        std::string message = "unknown socket label '" + *label + "'";
        if (has_label("embryo(" + *label + ")"))
            message += "; did you mean 'embryo(" + *label + ")'?";
        report(t.loc, std::move(message));
    }

    void declare_user(const Statement &s)
    {
        if (s.names.empty())
            return;
        const std::string name(s.names[0].text);
        auto [it, inserted] = users_.emplace(name, s.loc.line);
        if (inserted || !first_time(&s, kUser))
            return;
        report(s.names[0].loc, it->second == 0
                                   ? "user '" + name + "' always exists"
                                   : "user '" + name + "' is already declared at line " + std::to_string(it->second));
    }

    void declare_process(const Statement &s)
    {
        if (s.names.empty())
            return;
        const std::string name(s.names[0].text);
        const std::string &user = s.text.empty() ? std::string("root") : s.text;
        if (!users_.count(user) && !unreliable(user) && first_time(&s, kUser))
            report(s.text_loc, "unknown user '" + user + "'; declare it first with 'user " + user + "'");
        auto [it, inserted] = processes_.emplace(name, s.loc.line);
        if (inserted || !first_time(&s, kProcess))
            return;
        report(s.names[0].loc,
               it->second == 0 ? "process '" + name + "' always exists"
                               : "process '" + name + "' is already declared at line " + std::to_string(it->second));
    }

    // cpu=K of a process or spawn: K must be one of the scene's CPUs (and each variant's).
    void check_cpu(const Statement &s, const Bindings &b)
    {
        const NameTemplate &t = s.cpu;
        if (t.text.empty() || unreliable(detail::kUnreliableCpus))
            return;
        std::string scratch;
        const std::string *text = name_of(t, b, scratch);
        if (!text)
            return;
        const std::string from =
            t.has_vars() ? " (from 'cpu=" + std::string(t.text) + "' with " + bindings_text(b) + ")" : "";
        std::int64_t cpu = 0;
        const char *end = text->data() + text->size();
        const auto [ptr, ec] = std::from_chars(text->data(), end, cpu);
        if (ptr != end || text->empty() || (ec != std::errc() && ec != std::errc::result_out_of_range)) {
            if (first_time(&t, kOther))
                report(t.loc, "cpu= must be a number, got '" + *text + "'" + from);
            return;
        }
        const bool huge = ec == std::errc::result_out_of_range;
        const auto exists = [&](std::uint32_t cpus) { return !huge && cpu >= 0 && cpu < std::int64_t(cpus); };
        const std::uint32_t cpus = scene_.settings.cpus;
        if (!exists(cpus)) {
            if (first_time(&t, kOther))
                report(t.loc, "cpu " + *text + " does not exist: the scene has " +
                                  (cpus == 1 ? std::string("one CPU, cpu 0 (add 'set cpus N' for more)")
                                             : "set cpus " + std::to_string(cpus) + " (CPUs are numbered from 0)") +
                                  from);
            return;
        }
        for (const SceneVariant &v : scene_.variants) {
            if (!exists(v.settings.cpus) && first_time(&t, kOther)) {
                report(t.loc, "cpu " + *text + " does not exist in variant '" + v.name + "', which has set cpus " +
                                  std::to_string(v.settings.cpus) + from);
                return;
            }
        }
    }

    void spawn_statement(const Statement &s, const Bindings &b)
    {
        check_cpu(s, b);
        if (s.names.empty())
            return;
        const NameTemplate &t = s.names[0];
        std::string scratch;
        if (const std::string *name = name_of(t, b, scratch))
            spawned_.insert(*name);
        if (t.has_vars() || processes_.count(std::string(t.text)))
            return;
        // A process declared further down would make this a thread of main here but not there.
        const auto later = declared_processes_.find(std::string(t.text));
        if (later != declared_processes_.end() && later->second > s.loc.line && first_time(&t, kProcess))
            report(t.loc, "process '" + std::string(t.text) + "' is declared at line " + std::to_string(later->second) +
                              ", after this spawn; declare it before spawning it");
    }

    void wait_statement(const Statement &s)
    {
        for (const auto &t : s.names) {
            // spawn a { wait a }: the name is spawned, but by the time the wait runs it names the
            // task running it, which would wait for its own end.
            if (!t.has_vars() && !task_name_.empty() && t.text == task_name_ && first_time(&t, kOther)) {
                report(t.loc, "wait: '" + std::string(t.text) +
                                  "' is the task running this wait; a task cannot wait for "
                                  "itself (wait for it from the task that spawned it)");
                continue;
            }
            if (t.has_vars() || spawned_.count(std::string(t.text)) || unreliable(t.text) || !first_time(&t, kOther))
                continue;
            report(t.loc, "wait: no spawn named '" + std::string(t.text) + "' before this line");
        }
    }

    void statement(const Statement &s, const Bindings &b)
    {
        const std::string process = !s.process.empty()      ? s.process
                                    : task_process_.empty() ? std::string("main")
                                                            : task_process_;
        if (!s.process.empty() && !processes_.count(s.process) && !unreliable(s.process) && first_time(&s, kProcess))
            report(s.process_loc,
                   "unknown process '" + s.process + "'; declare it first with 'process " + s.process + "'");
        if (!fds_of_ || process != fds_process_) {
            fds_of_ = &fds_[process]; // (references to unordered_map values stay valid)
            fds_process_ = process;
        }
        FdTable &fds = *fds_of_;
        std::string scratch;
        const auto at = [&s](std::size_t i) -> const NameTemplate * {
            return i < s.names.size() ? &s.names[i] : nullptr;
        };

        switch (s.op) {
        case Op::user_decl: declare_user(s); break;
        case Op::process_decl:
            declare_process(s);
            check_cpu(s, b);
            break;
        case Op::socketpair:
        case Op::socket:
            for (const auto &t : s.names) {
                std::string scratch_name;
                if (const std::string *name = name_of(t, b, scratch_name)) {
                    const std::uint32_t id = names_.intern(*name);
                    fds[id] = FdInfo{true, s.type, id};
                    add_label(id, t);
                }
            }
            break;
        case Op::connect:
            if (const NameTemplate *client = at(0)) {
                use(fds, process, *client, b);
                if (const NameTemplate *target = at(1))
                    use(fds, process, *target, b);
                // The embryo is labelled after the connecting socket: embryo(its label). A
                // datagram connect makes no embryo. For a received descriptor neither is known
                // here, so from then on embryo labels are not checked.
                const FdInfo info = info_of(fds, *client, b);
                if (info.type_known && info.type == SockType::dgram)
                    break;
                if (info.label == kNoName)
                    embryos_unknown_ = true;
                else
                    add_label(names_.intern("embryo(" + std::string(names_.str(info.label)) + ")"), *client);
            }
            break;
        case Op::accept:
            if (const NameTemplate *listener = at(0)) {
                use(fds, process, *listener, b);
                FdInfo info = info_of(fds, *listener, b);
                if (const NameTemplate *accepted = at(1)) {
                    if (const std::string *name = name_of(*accepted, b, scratch)) {
                        const std::uint32_t id = names_.intern(*name);
                        info.label = id; // an alias label of the embryo it returns
                        fds[id] = info;
                        add_label(id, *accepted);
                    }
                }
            }
            break;
        case Op::dup:
            if (const NameTemplate *old = at(0)) {
                use(fds, process, *old, b);
                const FdInfo info = info_of(fds, *old, b);
                if (const NameTemplate *copy = at(1))
                    define(fds, *copy, b, scratch, info);
            }
            break;
        case Op::send:
            for (const auto &t : s.names)
                use(fds, process, t, b);
            for (const auto &t : s.fds)
                use(fds, process, t, b);
            break;
        case Op::recv:
            for (const auto &t : s.names)
                use(fds, process, t, b);
            for (const auto &t : s.fds)
                define(fds, t, b, scratch, FdInfo{});
            break;
        case Op::bind:
        case Op::listen:
        case Op::close:
        case Op::setsockopt:
        case Op::splice:
            for (const auto &t : s.names)
                use(fds, process, t, b);
            break;
        case Op::expect_freed:
        case Op::expect_alive:
        case Op::expect_inflight:
        case Op::expect_queue:
            for (const auto &t : s.names)
                expect_label(t, b);
            break;
        case Op::spawn: spawn_statement(s, b); break;
        case Op::wait: wait_statement(s); break;
        case Op::delayed_fput:
            // The work of another CPU's kworker, run at the moment a race breaks in: anywhere
            // else the scene's own kworker runs it, and a task of the scene never does.
            if (!in_race_ && first_time(&s, kOther))
                report(s.loc, "delayed_fput belongs in a race's block (spawn NAME when POINT SOCK { ... }): it "
                              "runs the queued delayed_fput work on another CPU at the moment the race breaks in");
            break;
        case Op::note:
        case Op::gc:
        case Op::expect_error:
        case Op::expect_finding:
        case Op::repeat: break;
        }
    }

public:
    std::uint64_t dropped_ = 0; // diagnostics past kDiagnosticsKept
private:
    mutable std::uint64_t lookups_ = 0; // name look-ups so far (the name-lookups budget)
    bool lookups_noted_ = false;
    const Scene &scene_;
    std::vector<Diagnostic> &out_;
    const std::unordered_set<std::string> *unreliable_;

    std::unordered_map<std::string, std::uint32_t> users_;     // name -> line (0: built in)
    std::unordered_map<std::string, std::uint32_t> processes_; // name -> line (0: built in)
    NamePool names_;                                           // fd names and labels, interned
    std::unordered_map<std::string, FdTable> fds_;             // per process
    FdTable *fds_of_ = nullptr;                                // fds_[fds_process_]
    std::string fds_process_;
    std::vector<std::uint32_t> label_line_; // label id -> line that created it (kNoLine: none)
    std::vector<PendingLabel> pending_;
    Cost total_;                              // of the whole scene, computed by check_limit()
    bool embryos_unknown_ = false;            // a connect from a socket whose label is not known here
    std::string task_process_;                // the process of the spawn body being walked (empty: none)
    std::string task_name_;                   // the name of the spawn body being walked (empty: main)
    bool in_race_ = false;                    // that spawn is a race (spawn NAME when POINT SOCK)
    std::unordered_set<std::string> spawned_; // spawn names so far, expanded
    std::unordered_map<std::string, std::uint32_t> declared_processes_; // every process line: name -> line
    std::set<std::pair<const void *, Kind>> reported_;
};

} // namespace

std::uint64_t detail::check_scene_after_parse(const Scene &scene, std::vector<Diagnostic> &out,
                                              const std::unordered_set<std::string> *unreliable)
{
    Checker checker(scene, out, unreliable && !unreliable->empty() ? unreliable : nullptr);
    checker.run();
    return checker.dropped_;
}

void check_scene(const Scene &scene, std::vector<Diagnostic> &out)
{
    if (const std::uint64_t dropped = detail::check_scene_after_parse(scene, out, nullptr))
        out.push_back(dropped_note(scene.file, dropped));
}

} // namespace inflight
