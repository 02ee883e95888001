// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/replay_plan.hpp"

#include "inflight/name_template.hpp"
#include "inflight/scene_cursor.hpp"

#include <algorithm>

namespace inflight {

namespace {

constexpr std::uint64_t kSaturate = std::uint64_t(1) << 62;

std::uint64_t mul_sat(std::uint64_t a, std::uint64_t b) { return a && b > kSaturate / a ? kSaturate : a * b; }

// What a list of statements creates and sends when run, repeats multiplied out (saturating),
// so that a repeat 1000000000 is judged without being unrolled.
struct Counts {
    std::uint64_t steps = 0, sockets = 0, fds = 0, bytes = 0;
    void add(const Counts &o, std::uint64_t times = 1)
    {
        steps = std::min(kSaturate, steps + mul_sat(o.steps, times));
        sockets = std::min(kSaturate, sockets + mul_sat(o.sockets, times));
        fds = std::min(kSaturate, fds + mul_sat(o.fds, times));
        bytes = std::min(kSaturate, bytes + mul_sat(o.bytes, times));
    }
};

Counts count_of(const Statement &s);

Counts count_list(const std::vector<Statement> &list)
{
    Counts c;
    for (const Statement &s : list)
        c.add(count_of(s));
    return c;
}

Counts count_of(const Statement &s)
{
    Counts c;
    c.steps = 1;
    switch (s.op) {
    case Op::socketpair: c.sockets = 2; break;
    case Op::socket:
    case Op::connect: c.sockets = 1; break;
    case Op::send:
        c.fds = s.fds.size();
        c.bytes = s.bytes;
        break;
    case Op::repeat: {
        Counts body = count_list(s.body);
        Counts out;
        out.add(body, static_cast<std::uint64_t>(std::max<std::int64_t>(s.count, 0)));
        return out;
    }
    case Op::spawn: c.add(count_list(s.body)); break;
    default: break;
    }
    return c;
}

std::string trimmed_line(const Scene &scene, std::uint32_t line)
{
    if (line == 0 || line > scene.lines.size())
        return {};
    std::string t = scene.lines[line - 1];
    const auto hash = t.find('#');
    if (hash != std::string::npos && t.find('"') == std::string::npos)
        t.erase(hash);
    const auto b = t.find_first_not_of(" \t\r");
    const auto e = t.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : t.substr(b, e - b + 1);
}

// Settings lines are not statements: find them in the text to give the problem a line.
void scan_settings(const Scene &scene, ReplayPlan &plan)
{
    for (std::uint32_t i = 0; i < scene.lines.size(); ++i) {
        const std::string t = trimmed_line(scene, i + 1);
        auto starts = [&](const char *p) { return t.rfind(p, 0) == 0; };
        const SourceLoc loc{i + 1, static_cast<std::uint32_t>(scene.lines[i].find_first_not_of(" \t") + 1)};
        if (starts("set cost "))
            plan.problems.push_back({loc, "'set cost' changes the model's clock; a real kernel takes its own time"});
        else if (starts("set cpus ") && scene.settings.cpus > 1)
            plan.problems.push_back(
                {loc, "'set cpus' schedules modelled tasks on modelled CPUs; a replay runs one statement at a time"});
        else if (starts("set autobind "))
            plan.notes.push_back(
                {loc, "'set autobind' is ignored: the running kernel binds with its own unix_autobind()"});
        else if (starts("set table-lock "))
            plan.notes.push_back({loc, "'set table-lock' is ignored: the running kernel has its own locking"});
        else if (starts("set creds-by-default "))
            plan.notes.push_back({loc, "'set creds-by-default' is ignored: the running kernel decides"});
        else if (starts("set fix ") || starts("set gc "))
            plan.notes.push_back({loc, "'" + t + "' is replaced by the profile of the running kernel"});
        else if (starts("variant "))
            plan.notes.push_back({loc, "variants are not replayed: the scene's own settings are"});
    }
}

} // namespace

ReplayPlan plan_replay(const Scene &scene, bool privileged, const ReplayLimits &limits)
{
    ReplayPlan plan;
    plan.file = scene.file;
    plan.nofile = scene.settings.nofile;
    scan_settings(scene, plan);

    // Bounds first, from counts multiplied out, before a single statement is unrolled: the
    // statement (or outermost repeat) that crosses a limit is the one reported.
    Counts total;
    const std::size_t settings_problems = plan.problems.size();
    for (const Statement &s : scene.statements) {
        const Counts before = total;
        total.add(count_of(s));
        auto over = [&](std::uint64_t was, std::uint64_t now, std::uint64_t max, const char *verb, const char *noun) {
            if (was <= max && now > max)
                plan.problems.push_back(
                    {s.loc, "by the end of this statement the scene has " + std::string(verb) + " " +
                                std::to_string(now) + " " + noun + ", over the " + std::to_string(max) +
                                " a replay allows on a host kernel (fills this big stay in the model)"});
        };
        over(before.steps, total.steps, limits.max_steps, "run", "statements");
        over(before.sockets, total.sockets, limits.max_sockets, "created", "sockets");
        over(before.fds, total.fds, limits.max_fds_sent, "passed", "fds");
        over(before.bytes, total.bytes, limits.max_bytes, "sent", "payload bytes");
    }
    plan.sockets = total.sockets;
    if (plan.problems.size() > settings_problems)
        return plan; // too big to unroll

    auto is_blocking = [](Op op) { return op == Op::spawn || op == Op::wait || op == Op::splice; };
    std::vector<const Statement *> unsupported;
    auto find_unsupported = [&](auto &&self, const std::vector<Statement> &list) -> void {
        for (const Statement &s : list) {
            if (is_blocking(s.op))
                unsupported.push_back(&s);
            if (s.op == Op::repeat)
                self(self, s.body);
        }
    };
    find_unsupported(find_unsupported, scene.statements);
    for (const Statement *s : unsupported) {
        switch (s->op) {
        case Op::spawn:
            plan.problems.push_back({s->loc, "spawn runs tasks interleaved in modelled time; a replay cannot "
                                             "reproduce the model's interleaving on real CPUs"});
            break;
        case Op::wait:
            plan.problems.push_back({s->loc, "wait joins spawned tasks, which a replay does not run"});
            break;
        default:
            plan.problems.push_back({s->loc, "splice measures modelled checksum costs; a replay does not time it"});
            break;
        }
    }

    SceneCursor cursor(scene.statements);
    bool dirty = false;
    while (cursor.next()) {
        const Statement &s = cursor.current();
        const Bindings &b = cursor.bindings();
        ReplayStep step;
        step.op = s.op;
        step.loc = s.loc;
        if (!s.process.empty())
            step.process = s.process;
        for (const NameTemplate &n : s.names)
            step.names.push_back(expand(n, b));
        for (const NameTemplate &n : s.fds)
            step.fds.push_back(expand(n, b));
        if (s.address)
            step.address = expand(*s.address, b);
        step.type = s.type;
        step.bytes = s.bytes;
        step.oob = s.oob;
        step.peek = s.peek;
        step.option = s.option;
        step.option_value = s.option_value;
        step.text = trimmed_line(scene, s.loc.line);
        if (step.text.find('$') != std::string::npos) {
            // A line of a repeat: say which iteration, with the names as this one expands them.
            std::string here;
            for (const std::string &n : step.names)
                here += (here.empty() ? "" : " ") + n;
            if (!step.fds.empty()) {
                here += " fds=";
                for (std::size_t i = 0; i < step.fds.size(); ++i)
                    here += (i ? "," : "") + step.fds[i];
            }
            step.text += "   (here: " + here + ")";
        }
        switch (s.op) {
        case Op::user_decl:
            plan.users.push_back(step.names[0]);
            if (!privileged)
                plan.problems.push_back({s.loc, "a user other than root needs a second uid, which an unprivileged "
                                                "user namespace cannot map: run the replay as root"});
            break;
        case Op::process_decl:
            plan.processes.push_back(step.names[0]);
            plan.process_user.push_back(s.text.empty() ? "root" : s.text);
            if (plan.processes.size() == limits.max_processes + 1)
                plan.problems.push_back(
                    {s.loc, "more than " + std::to_string(limits.max_processes) + " processes in one replay"});
            break;
        case Op::send:
            if (s.fds.size() > limits.max_fds_per_send)
                plan.problems.push_back({s.loc, "one message with " + std::to_string(s.fds.size()) + " fds, over the " +
                                                    std::to_string(limits.max_fds_per_send) +
                                                    " a replay sends at once"});
            if (s.bytes > limits.max_bytes_per_send)
                plan.problems.push_back({s.loc, "one message of " + std::to_string(s.bytes) + " bytes, over the " +
                                                    std::to_string(limits.max_bytes_per_send) +
                                                    " a replay sends at once"});
            dirty = true;
            break;
        case Op::expect_inflight:
        case Op::expect_queue:
            plan.notes.push_back(
                {s.loc, "'expect inflight' and 'expect queue' are not observed on the real kernel (fates are)"});
            break;
        case Op::close:
        case Op::recv:
        case Op::gc:
            step.observe = true;
            dirty = false;
            break;
        case Op::expect_freed:
        case Op::expect_alive:
            step.observe = dirty;
            dirty = false;
            break;
        default: dirty = dirty || (s.op != Op::note && s.op != Op::expect_error); break;
        }
        plan.steps.push_back(std::move(step));
    }
    if (!plan.steps.empty())
        plan.steps.back().observe = true; // the end of the scene
    // One note per line is enough.
    auto dedupe = [](std::vector<ReplayProblem> &v) {
        std::stable_sort(v.begin(), v.end(),
                         [](const ReplayProblem &a, const ReplayProblem &b) { return a.loc.line < b.loc.line; });
        v.erase(std::unique(v.begin(), v.end(),
                            [](const ReplayProblem &a, const ReplayProblem &b) {
                                return a.loc.line == b.loc.line && a.message == b.message;
                            }),
                v.end());
    };
    dedupe(plan.problems);
    dedupe(plan.notes);
    return plan;
}

std::vector<std::string> format_problems(const ReplayPlan &plan)
{
    std::vector<std::string> out;
    for (const ReplayProblem &p : plan.problems)
        out.push_back(plan.file + ":" + std::to_string(p.loc.line) + ":" + std::to_string(p.loc.col) +
                      ": error: cannot replay on a real kernel: " + p.message);
    return out;
}

} // namespace inflight
