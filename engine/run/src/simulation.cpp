// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/simulation.hpp"

#include "inflight/invariants.hpp"
#include "inflight/kernel.hpp"
#include "inflight/name_list_text.hpp"
#include "inflight/name_template.hpp"
#include "inflight/why_alive.hpp"

#include <algorithm>
#include <cstdlib>

namespace inflight {

namespace {

const char *op_name(Op op)
{
    switch (op) {
    case Op::socketpair: return "socketpair";
    case Op::socket: return "socket";
    case Op::bind: return "bind";
    case Op::listen: return "listen";
    case Op::connect: return "connect";
    case Op::accept: return "accept";
    case Op::send: return "send";
    case Op::recv: return "recv";
    case Op::dup: return "dup";
    case Op::close: return "close";
    case Op::setsockopt: return "setsockopt";
    case Op::splice: return "splice";
    default: return "statement";
    }
}

std::vector<std::string> expand_all(const std::vector<NameTemplate> &names, const Bindings &b)
{
    std::vector<std::string> out;
    out.reserve(names.size());
    for (const auto &n : names)
        out.push_back(expand(n, b));
    return out;
}

std::optional<std::string> expand_address(const Statement &s, const Bindings &b)
{
    if (!s.address)
        return std::nullopt;
    return expand(*s.address, b);
}

bool has_spawn(const std::vector<Statement> &statements)
{
    for (const auto &s : statements)
        if (s.op == Op::spawn || (s.op == Op::repeat && has_spawn(s.body)))
            return true;
    return false;
}

bool is_expectation(Op op)
{
    return op == Op::expect_freed || op == Op::expect_alive || op == Op::expect_inflight || op == Op::expect_queue ||
           op == Op::expect_finding;
}

} // namespace

const KernelProfile &run_profile(const SceneSettings &settings, const SimulationOptions &options)
{
    if (options.kernel)
        return *options.kernel;
    const GcEra era = options.era.value_or(settings.gc);
    if (const KernelProfile *own = kernel_profile_by_name(settings.kernel); own && own->era == era)
        return *own;
    return default_kernel_profile(era);
}

namespace {

// What an era in `set collectors` stands for: what --gc ERA runs.
const KernelProfile &profile_of_era(const SceneSettings &settings, GcEra era)
{
    SimulationOptions o;
    o.era = era;
    return run_profile(settings, o);
}

} // namespace

bool written_for(const SceneSettings &settings, const KernelProfile &profile)
{
    if (settings.collectors.empty() && settings.collector_kernels.empty())
        return true;
    for (const std::string &k : settings.collector_kernels)
        if (k == profile.name)
            return true;
    for (GcEra e : settings.collectors)
        if (&profile_of_era(settings, e) == &profile)
            return true;
    return false;
}

std::string collectors_text(const SceneSettings &settings)
{
    std::string out;
    for (GcEra e : settings.collectors)
        out += (out.empty() ? "" : ", ") + std::string(era_name(e)) + " (" +
               std::string(profile_of_era(settings, e).name) + ")";
    for (const std::string &k : settings.collector_kernels)
        out += (out.empty() ? "" : ", ") + k;
    return out;
}

KernelConfig kernel_config_for(const Scene &scene, const SimulationOptions &options)
{
    KernelConfig c;
    // The scene's `set fix` lines apply on top of whichever profile runs.
    const KernelProfile *profile = &run_profile(scene.settings, options);
    c.era = profile->era;
    c.profile = profile->name;
    c.changes = profile->changes;
    scene.settings.fixes.apply_to(c.changes);
    for (const KernelChangeInfo &i : kernel_change_table()) // a fix of another collector's code
        if (!kernel_change_applies(c.era, i.id))
            c.changes.set(i.id, false);
    c.nofile = scene.settings.nofile;
    c.seed = options.seed.value_or(scene.settings.seed);
    c.cpus = std::max<std::uint32_t>(1, scene.settings.cpus);
    c.creds_by_default = scene.settings.creds_by_default || !c.has(KernelChange::no_default_creds);
    c.autobind = scene.settings.autobind.value_or(c.has(KernelChange::random_autobind) ? AutobindMode::random
                                                                                       : AutobindMode::sequential);
    c.global_table_lock = scene.settings.global_table_lock.value_or(!c.has(KernelChange::per_hash_locks));
    for (const CostOverride &o : scene.settings.costs)
        if (auto cost = cost_by_name(o.name))
            c.costs.set(*cost, o.ns);
    for (const auto &[cost, ns] : options.cost_overrides)
        c.costs.set(cost, ns);
    c.budget = scene.settings.budget;
    for (const auto &[budget, n] : options.budget_overrides)
        c.budget.set(budget, n);
    return c;
}

CostModel run_costs(const Scene &scene, const SimulationOptions &options)
{
    return kernel_config_for(scene, options).costs;
}

Simulation::Simulation(std::shared_ptr<const Scene> scene, SimulationOptions options)
    : scene_(std::move(scene)), kernel_state_(std::make_unique<Kernel>(kernel_config_for(*scene_, options))),
      kernel_(*kernel_state_), checked_(options.checked.value_or(scene_->settings.checked)), record_(options.record),
      fast_forward_(options.fast_forward)
{
    const std::uint32_t cpus = kernel_.config().cpus;
    run_queue_ = RunQueue(cpus);
    kernel_.concurrent = cpus > 1 || has_spawn(scene_->statements);
    kernel_.fast_forward = fast_forward_;
    Task &main = add_task("main", &kernel_.processes.front(), 0, false);
    scripts_[main.id].cursor = std::make_unique<SceneCursor>(scene_->statements);
    main.body = script(main.id);
    main.body.set_sink(this);
    if (kernel_.concurrent)
        kernel_.kworker = &add_task("kworker", nullptr, cpus - 1, true);
}

Simulation::Simulation(const Simulation &other) : Simulation(other, CopyForm::live) { }

Simulation::Simulation(const Simulation &o, CopyForm form)
    : scene_(o.scene_),
      kernel_state_(std::make_unique<Kernel>(o.kernel_, form == CopyForm::live     ? Kernel::CopyForm::live
                                                        : form == CopyForm::frozen ? Kernel::CopyForm::frozen
                                                                                   : Kernel::CopyForm::packed)),
      kernel_(*kernel_state_), checked_(o.checked_), record_(o.record_), fast_forward_(o.fast_forward_),
      run_queue_(o.run_queue_), last_(o.last_), steps_(o.steps_), statements_(o.statements_), line_(o.line_),
      finished_(o.finished_), stopped_by_finding_(o.stopped_by_finding_), findings_seen_(o.findings_seen_),
      warnings_(o.warnings_), warnings_dropped_(o.warnings_dropped_), stmt_loc_(o.stmt_loc_), limit_loc_(o.limit_loc_),
      expectations_(o.expectations_), tasks_info_(o.tasks_info_), now_ns_(o.now_ns_), races_(o.races_),
      turns_(o.turns_), pending_switch_(o.pending_switch_), stmt_count_(o.stmt_count_), task_steps_(o.task_steps_),
      spawned_pending_(o.spawned_pending_)
{
    for (const TaskScript &from : o.scripts_) {
        TaskScript &ts = scripts_.emplace_back();
        if (from.cursor)
            ts.cursor = std::make_unique<SceneCursor>(*from.cursor);
        ts.line = from.line;
        ts.pending_failure = from.pending_failure;
        ts.last_result = from.last_result;
        ts.last_result_line = from.last_result_line;
        ts.asked = from.asked; // a statement of the scene both runs share
        ts.asked_bindings = from.asked_bindings;
        ts.between_statements = from.between_statements;
    }
    auto task = [this](const Task *t) { return t ? &kernel_.tasks[t->id] : nullptr; };
    cur_ = task(o.cur_);
    // The queue names tasks by id, so it holds for the copy's tasks; what changed since the
    // original's last pick (its kernel's woken list is not copied) is taken in here.
    for (const Task &t : kernel_.tasks)
        run_queue_.update(t);
    // A script suspended between statements resumes by reading its cursor's next statement,
    // which is exactly where a new script coroutine starts. A frozen copy never runs.
    if (!finished_ && form == CopyForm::live)
        for (Task &t : kernel_.tasks)
            if (!t.kworker && !t.finished) {
                t.body = script(t.id);
                t.body.set_sink(this);
            }
}

std::shared_ptr<const Simulation> Simulation::frozen_copy(const Simulation &sim)
{
    // The private constructor: make_shared cannot reach it.
    return std::shared_ptr<const Simulation>(new Simulation(sim, CopyForm::frozen));
}

std::shared_ptr<const Simulation> Simulation::packed_copy(const Simulation &sim)
{
    return std::shared_ptr<const Simulation>(new Simulation(sim, CopyForm::packed));
}

GcEra Simulation::era() const { return kernel_.era(); }
const LatencyLog &Simulation::latencies() const { return kernel_.latencies; }
LatencyLog Simulation::take_latencies() { return std::move(kernel_.latencies); }
bool Simulation::concurrent() const { return kernel_.concurrent; }

bool Simulation::quiescent() const
{
    if (!kernel_.quiescent() || !turns_.empty() || pending_switch_)
        return false; // a race has preempted a task mid-statement
    for (const Task &t : kernel_.tasks) {
        if (t.finished || t.kworker)
            continue; // an idle kworker has no body: Kernel::quiescent() checked it
        if (t.blocked || !scripts_[t.id].between_statements)
            return false;
    }
    return true;
}

Simulation::~Simulation()
{
    // The task bodies are coroutines over this object's scripts: end them first.
    for (Task &t : kernel_.tasks)
        t.body = Proc();
}

Task &Simulation::add_task(std::string name, Process *process, std::uint32_t cpu, bool kworker)
{
    Task &t = kernel_.tasks.emplace_back();
    t.id = static_cast<std::uint32_t>(kernel_.tasks.size() - 1);
    t.name = std::move(name);
    t.process = process;
    t.cpu = cpu;
    t.kworker = kworker;
    t.context = process;
    scripts_.emplace_back();
    stmt_count_.push_back(0);
    task_steps_.push_back(0);
    tasks_info_.push_back(TaskInfo{t.name, process ? process->id : npos, cpu, kworker});
    run_queue_.update(t);
    return t;
}

bool Simulation::gc_in_progress() const { return !kernel_.gc_runs.empty() && kernel_.gc_runs.back().last_step == 0; }

std::size_t Simulation::expectations_failed() const
{
    std::size_t n = 0;
    for (const auto &e : expectations_)
        n += !e.passed;
    return n;
}

void Simulation::mark_leaks()
{
    // The collection has had its say: what it left although no process fd reaches it is leaked.
    // Kept in the kernel state, so a checkpoint and a replay carry the same marks. Past
    // WhyTracker::kLargeScene sockets the question is not asked (a reach and a collection on a
    // copy of the state per run would cost more than the run).
    kernel_.leaked.clear();
    if (kernel_.socks.size() > WhyTracker::kLargeScene)
        return;
    // The collector's soundness: a socket it judged garbage that an fd still reaches had its
    // queue purged under a live reference — a use-after-free, whatever race or stale value
    // (CVE-2025-40214's scc_index) led there. Reported once per socket.
    for (const UnixSock &u : kernel_.socks) {
        // File count 0: nothing can reach it (the purge dropped its references; its release is
        // merely deferred). Only a socket something still holds is worth a reach (O(state)).
        if (!u.judged_garbage || u.released || !u.file || u.file->count <= 0 || kernel_.unsound_reported.count(u.id) ||
            !reachable_from_fds(kernel_, u.id))
            continue;
        kernel_.unsound_reported.insert(u.id);
        const WhyAlive why = why_alive(kernel_, u.id);
        kernel_.warn_finding("use-after-free: the collector judged a live socket garbage",
                             kernel_.label_of(u) + " was judged garbage and its queue purged, yet " +
                                 (why.chain_text.empty() ? std::string("a process fd") : why.chain_text) +
                                 " still reaches it");
    }
    for (LeakedSocket &l : leaks_of(kernel_))
        kernel_.leaked.emplace(l.sock, std::move(l.reason));
}

bool Simulation::absorb(const Event &e)
{
    if (e.kind == EventKind::sched_point)
        return false;
    const bool phase_begins = kernel_.gc_phase != phase_seen_;
    phase_seen_ = kernel_.gc_phase;
    // A race point that fires is a task switch: the driver must see it, seeking or not.
    if (!races_.empty() && kernel_.running && race_hits(e, *kernel_.running))
        return false;
    // Here rather than in step(): a seek absorbs the gc_end events it passes.
    if (e.kind == EventKind::gc_end)
        mark_leaks();
    ++kernel_.micro_steps_total;
    if (kernel_.running)
        kernel_.advance_clock(*kernel_.running, kernel_.cost_of(e));
    bool skip = false;
    if (seek_target_ && steps_ + 1 < seek_target_ && !checked_) {
        // advance_to(): only the end of a statement needs the driver (it frees the CPU).
        skip = e.kind != EventKind::stmt_end;
    } else if (fast_forward_) {
        switch (e.kind) {
        case EventKind::gc_begin:
        case EventKind::gc_end:
        case EventKind::gc_skip:
        case EventKind::gc_wait:
        case EventKind::wait_end:
        case EventKind::lock_spin:
        case EventKind::finding:
        case EventKind::autobind_fail:
        case EventKind::stmt_begin:
        case EventKind::stmt_end: skip = false; break;
        case EventKind::autobind_probe: skip = true; break;
        case EventKind::scc_verdict: skip = !e.dead(); break;
        default: skip = kernel_.gc_phase != GcPhase::none && !phase_begins; break;
        }
    }
    // A finding made on the way to this event ends the run at this step: the driver sees it;
    // so does a budget reached, or the step that reaches the steps budget.
    if (!skip || kernel_.findings.size() > findings_seen_ || kernel_.breach ||
        steps_ + 1 + kernel_.steps_skipped >= kernel_.config().budget[Budget::steps])
        return false;
    // Absorbed, but still a step: numbering never depends on who watches.
    steps_ += 1 + std::exchange(kernel_.steps_skipped, 0);
    kernel_.step_hint = steps_;
    if (kernel_.running)
        now_ns_ = std::max(now_ns_, kernel_.running->clock);
    return true;
}

void Simulation::advance_to(std::uint64_t step, const std::function<bool()> &at_statement_end)
{
    seek_target_ = step;
    while (steps_ < step) {
        const Event *e = this->step();
        if (!e || (e->kind == EventKind::stmt_end && at_statement_end && !at_statement_end()))
            break;
    }
    seek_target_ = 0;
}

void Simulation::release_cpu(Task &t)
{
    if (run_queue_.owner(t.cpu) == t.id)
        run_queue_.release(t.cpu, t.clock);
}

void Simulation::sync_run_queue()
{
    for (std::uint32_t id : kernel_.woken)
        run_queue_.update(kernel_.tasks[id]);
    kernel_.woken.clear();
    if (kernel_.running)
        run_queue_.update(*kernel_.running);
}

// The scheduling rule (run_queue.hpp): among the tasks that can run, the one whose next
// micro-step would start earliest in modelled time; ties go to the lower CPU, then to the task
// created first. A task can run when it is not asleep and its CPU is not in the middle of
// another task's statement.
Task *Simulation::pick()
{
    Task *kw = kernel_.kworker;
    if (kw && !kw->body && !kernel_.kworker_has_work())
        kernel_.wake(WaitFor::idle, kw->clock);
    sync_run_queue();
    if (checked_)
        if (auto why = run_queue_.out_of_step(kernel_.tasks))
            kernel_.finding("run queue", *why);
    // A race's turn: its runner goes first while it can run (it broke in on a task that stays
    // preempted, its CPU held, until the turn ends). Asleep — on a lock the preempted task
    // holds, say — it lets the others go by the usual rule, as a second CPU would.
    if (!turns_.empty()) {
        Task &f = kernel_.tasks[turns_.back().runner];
        if (!f.finished && !f.blocked && !f.held && (f.body || f.kworker)) {
            if (f.kworker && !f.body) {
                if (kernel_.kworker_has_work()) {
                    f.body = kernel_.run_workqueue();
                    f.body.set_sink(this);
                }
            }
            if (f.body) {
                if (run_queue_.owner(f.cpu) == npos)
                    run_queue_.take(f.cpu, f.id);
                return &f;
            }
        }
    }
    for (int attempt = 0; attempt < 2; ++attempt) {
        const std::optional<RunQueue::Choice> best =
            run_queue_.best(kw, kernel_.kworker_has_work(), kernel_.work_ready_at());
        if (best) {
            Task &t = kernel_.tasks[best->task];
            t.clock = best->start;
            if (t.kworker && !t.body) {
                t.body = kernel_.run_workqueue();
                t.body.set_sink(this);
            }
            run_queue_.take(t.cpu, t.id);
            run_queue_.update(t);
            return &t;
        }
        // Nobody can run but someone sleeps: only a reader waiting for data nobody will send
        // (or a wait on such a reader) can be stuck. Wake the earliest with a failure.
        const std::optional<std::uint32_t> stuck = run_queue_.stuck();
        if (!stuck)
            return nullptr;
        Task &s = kernel_.tasks[*stuck];
        s.blocked = false;
        s.wake_failed = true;
        s.at_point = true;
        run_queue_.update(s);
    }
    return nullptr;
}

std::optional<std::pair<RacePointKind, std::uint32_t>> Simulation::race_point_of(const Event &e)
{
    switch (e.kind) {
    case EventKind::candidate_check: return std::pair{RacePointKind::select, e.sock()};
    case EventKind::list_move:
        if (e.fn == KFn::restore_candidates)
            return std::pair{RacePointKind::restore, e.sock()};
        break;
    case EventKind::vertex_visit: return std::pair{RacePointKind::visit, e.sock()};
    case EventKind::vertex_dead: return std::pair{RacePointKind::dead, e.sock()};
    case EventKind::sock_create:
        if (e.connecting() != npos) // an embryo, made by connect() on that socket
            return std::pair{RacePointKind::connect, e.connecting()};
        break;
    case EventKind::fds_peek: return std::pair{RacePointKind::peek, e.sock()};
    case EventKind::scan: return std::pair{RacePointKind::scan, e.sock()};
    case EventKind::fput_deferred: return std::pair{RacePointKind::fput, e.sock()};
    default: break;
    }
    return std::nullopt;
}

bool Simulation::race_hits(const Event &e, const Task &t) const
{
    const auto point = race_point_of(e);
    if (!point)
        return false;
    const std::string label = kernel_.label_of_id(point->second);
    for (const Race &r : races_) {
        // Counted toward nth= or fired: the driver must see it either way.
        if (r.when_matches(point->first, label, t.id) || r.until_matches(point->first, label, t.id))
            return true;
    }
    return false;
}

void Simulation::switch_event(const Task &from, const Task &to, std::uint32_t sock, RacePointKind kind, TaskSwitch how)
{
    pending_switch_ = Event::task_switch(from.id, to.id, sock, static_cast<std::int64_t>(kind), how);
}

void Simulation::check_races(Task &t)
{
    const auto point = race_point_of(last_);
    if (!point || pending_switch_)
        return;
    const std::string label = kernel_.label_of_id(point->second);
    for (Race &r : races_) {
        if (r.when_matches(point->first, label, t.id) && ++r.seen >= r.nth) {
            // The race breaks in: t stays where it is (its CPU held, mid-statement) and the
            // race's block runs from this moment of t's clock.
            r.fired = true;
            r.preempted = t.id;
            r.preempted_stmt = stmt_count_[t.id];
            Task &racer = kernel_.tasks[r.task];
            racer.held = false;
            ++spawned_pending_;
            racer.at_point = true;
            racer.clock = std::max(racer.clock, t.clock);
            run_queue_.update(racer);
            turns_.push_back(Turn{racer.id, t.id, false, task_steps_[t.id]});
            t.at_point = true;
            switch_event(t, racer, point->second, point->first, TaskSwitch::race);
            return;
        }
        if (r.until_matches(point->first, label, t.id)) {
            r.until_fired = true;
            Task &p = kernel_.tasks[r.preempted];
            // Only if the preempted task is still inside the statement the race broke into: if
            // it ran on meanwhile (the race slept on a lock it held), there is nothing to hand back.
            const bool still_inside = !p.finished && stmt_count_[p.id] == r.preempted_stmt &&
                                      (p.kworker ? static_cast<bool>(p.body) : !scripts_[p.id].between_statements);
            if (!still_inside)
                return;
            p.clock = std::max(p.clock, t.clock);
            p.at_point = true;
            run_queue_.update(p);
            turns_.push_back(Turn{p.id, t.id, true, task_steps_[t.id]});
            t.at_point = true;
            switch_event(t, p, point->second, point->first, TaskSwitch::until);
            return;
        }
    }
}

void Simulation::end_turns(Task &t, bool body_ended)
{
    if (turns_.empty() || turns_.back().runner != t.id)
        return;
    const Turn turn = turns_.back();
    if (!body_ended && !turn.statement_only)
        return; // a race's turn lasts its whole block
    turns_.pop_back();
    Task &back = kernel_.tasks[turn.preempted];
    // Finished, or it ran on while the turn's task slept (on a lock it held): nothing to resume.
    if (back.finished || task_steps_[back.id] != turn.preempted_steps)
        return;
    if (back.cpu == t.cpu)
        back.clock = std::max(back.clock, t.clock); // it waited for its CPU meanwhile
    run_queue_.update(back);
    back.at_point = true;
    t.at_point = true;
    switch_event(t, back, npos, RacePointKind::select, TaskSwitch::resume);
}

void Simulation::finish_run()
{
    finished_ = true;
    for (const Race &r : races_)
        if (!r.fired)
            warn(r.line,
                 "race " + kernel_.tasks[r.task].name + " never ran: " +
                     (r.seen ? "'" + std::string(race_point_name(r.when)) + " " + r.when_sock + "' was reached " +
                                   std::to_string(r.seen) + " of the " + std::to_string(r.nth) + " times nth= asks"
                             : "no task reached '" + std::string(race_point_name(r.when)) + " " + r.when_sock + "'") +
                     " (" + std::string(race_point_where(r.when)) + ")");
    auto fatal_since_seen = [this] {
        return std::any_of(kernel_.findings.begin() + static_cast<std::ptrdiff_t>(findings_seen_),
                           kernel_.findings.end(), [](const Finding &f) { return !f.warning; });
    };
    stopped_by_finding_ = fatal_since_seen();
    if (kernel_.concurrent) {
        for (TaskScript &ts : scripts_)
            flush_failure(ts);
        check_quiescent_invariants(kernel_);
        stopped_by_finding_ = fatal_since_seen();
    }
}

const Event *Simulation::step()
{
    if (finished_)
        return nullptr;
    for (;;) {
        if (pending_switch_) {
            // The task switch a race point (or the end of a turn) made: a micro-step of its own,
            // on the task that runs next, so the player stops on it with both tasks named.
            last_ = *std::exchange(pending_switch_, std::nullopt);
            const Task &to = kernel_.tasks[last_.to_task()];
            last_.step = ++steps_;
            last_.scene_line = to.kworker ? line_ : scripts_[to.id].line;
            last_.time = to.clock;
            last_.task = static_cast<std::uint16_t>(to.id);
            last_.depth = 1;
            cur_ = nullptr; // pick() again: the turn's runner goes first
            check_budgets();
            if (record_)
                events_.push_back(last_);
            return &last_;
        }
        Task *t = cur_;
        if (!t || t->at_point || t->blocked || t->finished || !t->body) {
            if (t && t->blocked)
                release_cpu(*t);
            t = pick();
            if (!t) {
                finish_run();
                return nullptr;
            }
            t->at_point = false;
            cur_ = t;
        }
        if (kernel_.running != t) {
            // Switching tasks: each keeps its own "current" (a kworker runs with none).
            if (kernel_.running)
                kernel_.running->context = kernel_.current;
            kernel_.running = t;
            kernel_.current = t->context;
        }
        kernel_.step_hint = steps_;
        const Event *e = t->body.next();
        if (!e) {
            release_cpu(*t);
            if (t->kworker) {
                t->body = Proc();
                end_turns(*t, true);
                continue;
            }
            t->finished = true;
            t->body = Proc();
            spawned_pending_ -= t->id != 0 && !t->held;
            kernel_.wake(WaitFor::task, t->clock);
            if (t->id == 0 && !kernel_.concurrent) {
                finish_run();
                return nullptr;
            }
            end_turns(*t, true);
            last_ = Event::task_exit(t->id);
        } else if (e->kind == EventKind::sched_point) {
            t->at_point = true;
            if (t->blocked)
                release_cpu(*t);
            continue;
        } else {
            last_ = *e;
            last_.depth = static_cast<std::uint8_t>(std::min(255, t->body.depth() + e->depth));
        }
        steps_ += std::exchange(kernel_.steps_skipped, 0);
        last_.step = ++steps_;
        last_.scene_line = t->kworker ? line_ : scripts_[t->id].line;
        last_.time = t->clock;
        last_.task = static_cast<std::uint16_t>(t->id);
        now_ns_ = std::max(now_ns_, t->clock);
        ++task_steps_[t->id];
        if (last_.kind == EventKind::stmt_begin)
            ++stmt_count_[t->id];
        if (last_.kind == EventKind::stmt_end) {
            t->at_point = true;
            release_cpu(*t);
            end_turns(*t, false);
        }
        if (!races_.empty())
            check_races(*t);
        if (checked_)
            check_step_invariants(kernel_);
        if (kernel_.findings.size() > findings_seen_) {
            // A broken invariant ends the run here: the state is shown as it is, for inspection.
            // A kernel WARN_ON does not: the kernel goes on, and so does the run.
            const bool fatal = std::any_of(kernel_.findings.begin() + static_cast<std::ptrdiff_t>(findings_seen_),
                                           kernel_.findings.end(), [](const Finding &f) { return !f.warning; });
            findings_seen_ = kernel_.findings.size();
            if (fatal) {
                finished_ = true;
                stopped_by_finding_ = true;
            }
        }
        check_budgets();
        if (record_)
            events_.push_back(last_);
        return &last_;
    }
}

const RunBudget &Simulation::budget() const { return kernel_.config().budget; }

void Simulation::check_budgets()
{
    if (!kernel_.breach && steps_ >= kernel_.config().budget[Budget::steps])
        kernel_.reach_budget(Budget::steps, "at step " + group_digits(steps_));
    if (kernel_.breach && !limit_loc_) {
        limit_loc_ = stmt_loc_;
        finished_ = true;
    }
}

std::optional<Diagnostic> Simulation::limit_reached() const
{
    if (!limit_loc_ || !kernel_.breach)
        return std::nullopt;
    Diagnostic d;
    d.file = scene_->file;
    d.loc = *limit_loc_;
    d.message = budget_message(*kernel_.breach);
    return d;
}

void Simulation::warn(std::uint32_t line, std::string message)
{
    if (warnings_.size() < kernel_.config().budget[Budget::warnings])
        warnings_.push_back({line, std::move(message)});
    else
        ++warnings_dropped_;
}

bool Simulation::step_over()
{
    // With several tasks, "the statement" is the one of the task that makes the next step:
    // other tasks' statements may interleave with it and are run along.
    bool any = false;
    std::optional<std::uint16_t> task;
    while (const Event *e = step()) {
        any = true;
        if (!task)
            task = e->task;
        if (e->kind == EventKind::stmt_end && e->task == *task)
            break;
    }
    return any;
}

bool Simulation::step_out()
{
    if (!gc_in_progress())
        return step_over();
    bool any = false;
    while (const Event *e = step()) {
        any = true;
        if (e->kind == EventKind::gc_end)
            break;
    }
    return any;
}

bool Simulation::step_out_function()
{
    const Event *here = last_event();
    if (!here || here->depth <= 1)
        return step_over();
    // The innermost path that yielded the current step returns when its task next yields
    // from a shallower one.
    const std::uint8_t depth = here->depth;
    const std::uint16_t task = here->task;
    bool any = false;
    while (const Event *e = step()) {
        any = true;
        if (e->task == task && e->depth < depth)
            break;
    }
    return any;
}

void Simulation::run()
{
    while (step()) { }
}

void Simulation::flush_failure(TaskScript &ts)
{
    if (ts.pending_failure) {
        warn(ts.pending_failure->line, std::move(ts.pending_failure->what));
        ts.pending_failure.reset();
    }
}

void Simulation::expect(const Statement &s, const Bindings &b, TaskScript &ts)
{
    auto add = [&](bool ok, std::string msg) { expectations_.push_back({s.loc.line, ok, std::move(msg)}); };
    if (s.op == Op::expect_error) {
        const std::string want(errno_name(s.error));
        if (!ts.last_result) {
            add(false, "expected " + want + ", but no syscall ran before");
        } else if (*ts.last_result == s.error) {
            add(true, "line " + std::to_string(ts.last_result_line) + " failed with " + want);
            ts.pending_failure.reset();
        } else {
            add(false,
                "expected line " + std::to_string(ts.last_result_line) + " to fail with " + want + ", but it " +
                    (*ts.last_result == Errno::none ? std::string("succeeded")
                                                    : "failed with " + std::string(errno_name(*ts.last_result))));
        }
        return;
    }
    if (s.op == Op::expect_finding) {
        for (const Finding &f : kernel_.findings)
            if (f.invariant.find(s.text) != std::string::npos) {
                add(true, "finding at step " + std::to_string(f.step) + ": " + f.invariant);
                return;
            }
        add(false, "no finding names '" + s.text + "' (" + std::to_string(kernel_.findings.size()) +
                       (kernel_.findings.size() == 1 ? " finding" : " findings") + " so far)");
        return;
    }
    for (const auto &t : s.names) {
        const std::string label = expand(t, b);
        UnixSock *u = kernel_.find_label(label);
        if (!u) {
            add(false, "no socket labelled '" + label + "' was created (did its statement fail?)");
            continue;
        }
        switch (s.op) {
        case Op::expect_freed:
            add(u->released, label + (u->released ? " is freed" : " is still alive (expected freed)"));
            break;
        case Op::expect_alive:
            add(!u->released, label + (u->released ? " was freed (expected alive)" : " is alive"));
            break;
        case Op::expect_inflight: {
            const long got = kernel_.collector().inflight_of(*u);
            const char *what = kernel_.era() == GcEra::graph ? " out_degree " : " inflight ";
            add(got == s.count, label + what + std::to_string(got) +
                                    (got == s.count ? "" : " (expected " + std::to_string(s.count) + ")"));
            break;
        }
        case Op::expect_queue: {
            const auto got = static_cast<std::int64_t>(u->receive_queue.size());
            add(got == s.count, label + " queue " + std::to_string(got) +
                                    (got == s.count ? "" : " (expected " + std::to_string(s.count) + ")"));
            break;
        }
        default: break;
        }
    }
}

Proc Simulation::check_answer(std::uint32_t task)
{
    TaskScript &ts = scripts_[task];
    const Statement &ask = *std::exchange(ts.asked, nullptr);
    const Bindings bindings = std::move(ts.asked_bindings);
    if (ask.op != Op::expect_error)
        co_yield settle();
    expect(ask, bindings, ts);
    // The check's step is the ask's line: its expectation, its narration, its row in the list.
    const std::uint32_t line = std::exchange(ts.line, ask.loc.line);
    const std::uint32_t run_line = std::exchange(line_, ask.loc.line);
    const Event e = Event::expect_result(!expectations_.empty() && expectations_.back().passed);
    co_yield e;
    ts.line = line;
    line_ = run_line;
}

Proc Simulation::settle()
{
    // With other tasks running, an expectation judges the state once the kernel's queued work
    // has run (as the real-kernel oracle waits for stable counts), not halfway through it.
    if (!kernel_.concurrent || !kernel_.kworker)
        co_return;
    while (kernel_.kworker->body || kernel_.kworker_has_work())
        co_yield kernel_.sleep(WaitFor::idle);
}

Proc Simulation::execute(const Statement &s, Process &p, SysResult &r, bool &is_syscall, std::uint32_t task)
{
    // Operands are expanded into locals first: GCC 12 mishandles temporaries (notably from
    // ?:) inside a co_yield expression, so no call below builds its arguments in place.
    TaskScript &ts = scripts_[task];
    const Bindings &b = ts.cursor->bindings();
    const std::string n0 = s.names.empty() ? std::string() : expand(s.names[0], b);
    const std::string n1 = s.names.size() > 1 ? expand(s.names[1], b) : std::string();
    const std::optional<std::string> address = expand_address(s, b);
    is_syscall = true;
    if (inflight::is_syscall(s.op))
        kernel_.charge(Cost::syscall);
    switch (s.op) {
    case Op::socketpair: co_yield kernel_.sys_socketpair(p, s.type, n0, n1, r); break;
    case Op::socket: co_yield kernel_.sys_socket(p, s.type, n0, r); break;
    case Op::bind: co_yield kernel_.sys_bind(p, n0, address, r); break;
    case Op::listen: co_yield kernel_.sys_listen(p, n0, r); break;
    case Op::connect: co_yield kernel_.sys_connect(p, n0, address, n1, r); break;
    case Op::accept: co_yield kernel_.sys_accept(p, n0, n1, r); break;
    case Op::send: {
        std::vector<std::string> fds = expand_all(s.fds, b);
        co_yield kernel_.sys_sendmsg(p, n0, std::move(fds), s.bytes, s.oob, address, r);
        break;
    }
    case Op::recv: {
        std::vector<std::string> fds = expand_all(s.fds, b);
        co_yield kernel_.sys_recvmsg(p, n0, std::move(fds), s.peek, s.oob, r);
        break;
    }
    case Op::splice: co_yield kernel_.sys_splice(p, n0, s.bytes, r); break;
    case Op::dup: co_yield kernel_.sys_dup(p, n0, n1, r); break;
    case Op::close:
        // close a b c: one close() per name; the statement fails with the first error.
        for (const auto &n : s.names) {
            SysResult one;
            const std::string name = expand(n, b);
            co_yield kernel_.sys_close(p, name, one);
            if (one.err != Errno::none && r.err == Errno::none)
                r.err = one.err;
        }
        break;
    case Op::setsockopt: co_yield kernel_.sys_setsockopt(p, n0, s.option, s.option_value, r); break;
    case Op::gc: co_yield kernel_.force_gc("gc statement"); break;
    case Op::delayed_fput:
        // Only in a race's block (check_scene()): the task that broke in stands for another
        // CPU, whose kworker takes the queued delayed_fput work at this moment.
        is_syscall = false;
        if (!kernel_.delayed_fput_queued())
            warn(s.loc.line, "delayed_fput: no delayed_fput work was queued here; nothing ran");
        co_yield kernel_.run_delayed_fput_elsewhere();
        break;
    case Op::user_decl:
        is_syscall = false;
        kernel_.add_user(std::string(s.names[0].text));
        break;
    case Op::process_decl: {
        is_syscall = false;
        User *u = s.text.empty() ? &kernel_.root() : kernel_.find_user(s.text);
        kernel_.add_process(std::string(s.names[0].text), u ? *u : kernel_.root());
        break;
    }
    case Op::spawn: {
        is_syscall = false;
        // A declared process runs the block with its own fds and user; any other name is a new
        // thread of this task's process.
        Process *declared = kernel_.find_process(n0);
        Process *runs_as = declared ? declared : &p;
        std::uint32_t cpu = kernel_.tasks[task].cpu;
        const std::string cpu_text = s.cpu.text.empty() ? std::string() : expand(s.cpu, b);
        if (!cpu_text.empty()) {
            cpu = static_cast<std::uint32_t>(std::strtoul(cpu_text.c_str(), nullptr, 10));
        } else if (declared) {
            for (const Statement &d : scene_->statements)
                if (d.op == Op::process_decl && d.names[0].text == n0 && !d.cpu.text.empty())
                    cpu = static_cast<std::uint32_t>(std::strtoul(std::string(d.cpu.text).c_str(), nullptr, 10));
        }
        if (cpu >= kernel_.config().cpus) {
            warn(s.loc.line, "spawn " + n0 + ": cpu " + std::to_string(cpu) + " does not exist (set cpus " +
                                 std::to_string(kernel_.config().cpus) + "); it runs on cpu 0");
            cpu = 0;
        }
        Task &child = add_task(n0, runs_as, cpu, false);
        child.clock = kernel_.tasks[task].clock;
        if (s.race) {
            // A race: held here until another task reaches its point (check_races()).
            Race r;
            r.task = child.id;
            r.when = s.race->when.kind;
            r.when_sock = expand(s.race->when.sock, b);
            r.nth = s.race->when.nth;
            if (s.race->until) {
                r.until = s.race->until->kind;
                r.until_sock = expand(s.race->until->sock, b);
            }
            r.line = s.loc.line;
            races_.push_back(std::move(r));
            child.held = true;
        }
        spawned_pending_ += !child.held;
        run_queue_.update(child);
        scripts_[child.id].cursor = std::make_unique<SceneCursor>(s.body, b);
        child.body = script(child.id);
        child.body.set_sink(this);
        const Event e = Event::task_spawn(child.id, cpu);
        co_yield e;
        break;
    }
    case Op::wait: {
        is_syscall = false;
        std::vector<std::string> names = expand_all(s.names, b);
        for (const std::string &n : names) {
            bool found = false;
            for (const Task &t : kernel_.tasks)
                found = found || (!t.kworker && t.id != task && t.name == n);
            if (!found && n == kernel_.tasks[task].name)
                warn(s.loc.line, "wait: '" + n + "' is this task itself; a task cannot wait for itself");
            else if (!found)
                warn(s.loc.line, "wait: no task named '" + n + "' has been spawned");
        }
        auto pending = [&] {
            if (names.empty()) // this task, when spawned, is one of them
                return spawned_pending_ > (task != 0 ? 1u : 0u);
            for (const Task &t : kernel_.tasks) {
                if (t.finished || t.kworker || t.held || t.id == 0 || t.id == task)
                    continue; // a race that has not broken in is not waited for
                if (names.empty() || std::find(names.begin(), names.end(), t.name) != names.end())
                    return true;
            }
            return false;
        };
        while (pending())
            co_yield kernel_.sleep(WaitFor::task);
        break;
    }
    case Op::note: {
        is_syscall = false;
        // A note written for other collectors says nothing true about this one.
        const auto &eras = s.note_eras;
        if (!eras.empty() && std::find(eras.begin(), eras.end(), kernel_.era()) == eras.end())
            break;
        const auto &only = s.only_variants;
        if (!only.empty() && std::find(only.begin(), only.end(), scene_->settings.variant) == only.end())
            break;
        const Event e = Event::scene_note();
        co_yield e;
        break;
    }
    default: {
        is_syscall = false;
        // An expectation of other variants (expect buggy alive a) is not this run's.
        const auto &only = s.only_variants;
        if (!only.empty() && std::find(only.begin(), only.end(), scene_->settings.variant) == only.end())
            break;
        if (s.ask) {
            // The class is asked, then told: two steps on the same picture. The answer is
            // checked once the statement it is about has run (check_answer()).
            const Event question = Event::scene_note(SceneNote::question);
            co_yield question;
            const Event answer = Event::scene_note(SceneNote::answer);
            co_yield answer;
            ts.asked = &s;
            ts.asked_bindings = b;
            break;
        }
        if (s.op != Op::expect_error)
            co_yield settle();
        expect(s, b, ts);
        const Event e = Event::expect_result(!expectations_.empty() && expectations_.back().passed);
        co_yield e;
        break;
    }
    }
}

Proc Simulation::script(std::uint32_t id)
{
    TaskScript &ts = scripts_[id];
    while (ts.cursor->next()) {
        const Statement &s = ts.cursor->current();
        Task &task = kernel_.tasks[id];
        ts.line = s.loc.line;
        line_ = s.loc.line;
        stmt_loc_ = s.loc;
        ++statements_;
        ts.between_statements = false;
        // A statement of a repeat block names its sockets with templates (u$i): its steps carry
        // the first two names as expanded (their name-pool ids in b and c), so the narration can
        // say u3 where the scene says u$i.
        std::uint32_t named0 = npos, named1 = npos;
        if (!s.names.empty() && s.names[0].has_vars())
            named0 = kernel_.name_pool.intern(expand(s.names[0], ts.cursor->bindings()));
        if (s.names.size() > 1 && s.names[1].has_vars())
            named1 = kernel_.name_pool.intern(expand(s.names[1], ts.cursor->bindings()));
        // A send's or recv's one name leaves the second slot to its fd list, as said (only the
        // names the narration says are expanded, so a list of thousands costs a few).
        if (s.names.size() == 1 &&
            std::any_of(s.fds.begin(), s.fds.end(), [](const NameTemplate &n) { return n.has_vars(); }))
            named1 = kernel_.name_pool.intern(
                name_list_text(s.fds.size(), [&](std::size_t i) { return expand(s.fds[i], ts.cursor->bindings()); }));
        co_yield Event::stmt_begin(static_cast<std::uint32_t>(statements_), named0, named1);
        Process *own = task.process;
        Process *p = own;
        if (!s.process.empty()) {
            p = kernel_.find_process(s.process);
            if (!p)
                p = own; // check_scene() rejects unknown processes
        }
        task.process = p;
        kernel_.current = p;
        SysResult r;
        bool is_syscall = false;
        if (s.op != Op::expect_error && s.op != Op::note && !is_expectation(s.op))
            flush_failure(ts); // the failure before this statement was not expected
        const std::uint64_t t0 = task.clock, waited0 = task.waited_ns, spun0 = task.spun_ns;
        const std::uint64_t first_step = steps_ + 1;
        co_yield execute(s, *p, r, is_syscall, id);
        if (s.op == Op::send) {
            LatencySample smp;
            smp.fn = KFn::sys_sendmsg;
            smp.kind = task.call_kind;
            smp.task = id;
            smp.user = p->user ? p->user->id : 0;
            smp.start_ns = t0;
            smp.duration_ns = task.clock - t0;
            smp.waited_ns = task.waited_ns - waited0;
            smp.spun_ns = task.spun_ns - spun0;
            smp.first_step = first_step;
            smp.last_step = std::max(first_step, steps_);
            smp.scene_line = s.loc.line;
            smp.failed = r.err != Errno::none;
            kernel_.record_latency(smp);
        }
        co_yield kernel_.run_task_work(*p);
        if (!kernel_.concurrent)
            co_yield kernel_.run_workqueue(); // one CPU: queued work runs as the syscall returns
        task.process = own;
        kernel_.current = own;
        if (is_syscall) {
            ts.last_result = r.err;
            ts.last_result_line = s.loc.line;
            if (r.err != Errno::none)
                ts.pending_failure =
                    Failure{s.loc.line,
                            std::string(op_name(s.op)) + " failed with " + std::string(errno_name(r.err)) + " (" +
                                std::string(errno_text(r.err)) + ")",
                            r.err};
        }
        if (ts.asked && ts.asked != &s)
            co_yield check_answer(id);
        if (checked_ && !kernel_.concurrent)
            check_quiescent_invariants(kernel_);
        ts.between_statements = true;
        co_yield Event::stmt_end(static_cast<std::uint32_t>(statements_), named0, named1,
                                 static_cast<std::int64_t>(r.err), r.value);
    }
    if (ts.asked) // an ask with nothing after it (check_scene() rejects it): checked at the end
        co_yield check_answer(id);
    flush_failure(ts);
    if (!kernel_.concurrent) {
        co_yield kernel_.run_workqueue();
        check_quiescent_invariants(kernel_);
    }
}

} // namespace inflight
