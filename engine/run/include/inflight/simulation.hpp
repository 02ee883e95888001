// SPDX-License-Identifier: GPL-3.0-or-later
// Runs a scene against the kernel model one micro-step at a time. This is the API the player,
// the CLI and the tests share: step() is "step into", step_over() finishes a statement,
// step_out() finishes the running collection, run() goes to the end. The run is deterministic,
// so any earlier step is reached again exactly by replaying (see Player).
#pragma once

#include "inflight/cost_model.hpp"
#include "inflight/diagnostic.hpp"
#include "inflight/errno_code.hpp"
#include "inflight/event.hpp"
#include "inflight/event_sink.hpp"
#include "inflight/gc_era.hpp"
#include "inflight/gc_phase.hpp"
#include "inflight/kernel_profile.hpp"
#include "inflight/latency.hpp"
#include "inflight/name_template.hpp"
#include "inflight/race_point.hpp"
#include "inflight/run_budget.hpp"
#include "inflight/run_queue.hpp"
#include "inflight/scene.hpp"
#include "inflight/scene_cursor.hpp"

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace inflight {

// The kernel model is internal (engine/kernel/internal/): a Simulation owns one and hands it out
// only as an opaque `const Kernel &` to the engine's own readers (snapshots, watches, narrate).
class Kernel;
struct KernelConfig;
struct Process;
struct SysResult;
struct Task;
class Proc;

struct SimulationOptions {
    std::optional<GcEra> era;              // overrides `set gc` (the era's default profile)
    const KernelProfile *kernel = nullptr; // overrides `set kernel` and `set gc`
    std::optional<std::uint64_t> seed;     // overrides `set seed`
    std::optional<bool> checked;           // overrides `set check`
    bool record = true;                    // keep every event (for the trace and the player)
    // Fast-forward: a collection's (and an autobind's) inner micro-steps still run and cost
    // their time, but are not handed out one by one; only gc_begin/gc_end and what a viewer
    // must see are: the first micro-step of each of the collection's phases and the verdict
    // of each SCC found dead, so that a lesson still enters the collection beat by beat.
    // The CLI uses it for reports; the app and the tests step everything.
    bool fast_forward = false;
    // Costs set outside the scene (the app's Model > Costs dialog), applied over `set cost`.
    std::vector<std::pair<Cost, std::uint64_t>> cost_overrides;
    // Limits set outside the scene (inflight-cli --limit, --max-steps), applied over `set limit`.
    std::vector<std::pair<Budget, std::uint64_t>> budget_overrides;
};

// The profile a run uses: --kernel; else the scene's own `set kernel` when --gc leaves its era
// alone; else the era's default profile.
const KernelProfile &run_profile(const SceneSettings &settings, const SimulationOptions &options);
// Whether the scene's `set collectors` line names the profile: one of its kernels, or one of its
// eras standing for the scene's own profile of that era or else the era's default. A scene
// without the line is written for whatever it runs on.
bool written_for(const SceneSettings &settings, const KernelProfile &profile);
// "graph (6.18), 6.1": what `set collectors` names, for messages.
std::string collectors_text(const SceneSettings &settings);

struct SceneWarning {
    std::uint32_t line = 0;
    std::string message;
};

struct ExpectationOutcome {
    std::uint32_t line = 0;
    bool passed = false;
    std::string message; // what was expected and what was found
};

class Simulation : private EventSink {
public:
    explicit Simulation(std::shared_ptr<const Scene> scene, SimulationOptions options = {});
    // A copy of the run as it stands, to resume from (a checkpoint): only at a quiescent point.
    // The copy's events() starts empty (history is the recorder's, not the state's).
    Simulation(const Simulation &other);
    Simulation &operator=(const Simulation &) = delete;
    ~Simulation() override;
    // Every task is between two statements (or finished, or not started), no queued kernel
    // work is under way and no kernel code path is suspended: the whole state is data, no
    // coroutine frame holds any of it, so it can be copied.
    bool quiescent() const;
    // A checkpoint's form (Kernel::CopyForm::frozen): the model's objects packed and compressed. A
    // frozen simulation is only ever copied (the copy is whole and runs), never run or read.
    static std::shared_ptr<const Simulation> frozen_copy(const Simulation &sim);
    // The same in two halves: packed_copy() packs the objects (it needs sim, so it runs where
    // sim runs); frozen_copy() of that compresses them anywhere, while sim goes on. A packed
    // copy is restored from as a frozen one is (faster: nothing to decompress).
    static std::shared_ptr<const Simulation> packed_copy(const Simulation &sim);

    // One micro-step. Returns the event, or nullptr once the scene (and all pending kernel
    // work) has finished or a finding stopped the run. Valid until the next call.
    const Event *step();
    // Runs to the end of the current statement (or through the next one when between
    // statements). Returns false when nothing was left to run.
    bool step_over();
    // Runs to the end of the collection in progress; when none runs, behaves as step_over().
    bool step_out();
    // Runs until the kernel path that yielded the current step has returned (one
    // scan_children(), one DFS, one SCC's finish): the next step of the same task yielded
    // from a shallower path. At a statement's own step it behaves as step_over().
    bool step_out_function();
    // Runs to the end.
    void run();
    // Runs forward until steps() == step (or the end), as fast as the model allows: the
    // micro-steps before the last are absorbed (counted and timed, never handed out), so the
    // state reached and the last event are exactly those of stepping one by one.
    // at_statement_end: called at every statement end on the way (where a checkpoint can be
    // taken or a cancel request seen); returning false stops there.
    void advance_to(std::uint64_t step, const std::function<bool()> &at_statement_end = nullptr);

    bool finished() const { return finished_; }
    bool stopped_by_finding() const { return stopped_by_finding_; }
    std::uint64_t steps() const { return steps_; }
    std::uint64_t statements_executed() const { return statements_; }
    std::uint32_t current_line() const { return line_; }
    SourceLoc current_loc() const { return stmt_loc_; } // the statement that began last
    bool gc_in_progress() const;
    bool checked() const { return checked_; }

    const Scene &scene() const { return *scene_; }
    const Kernel &kernel() const { return kernel_; }
    GcEra era() const;
    const std::vector<Event> &events() const { return events_; }
    const Event *last_event() const { return steps_ ? &last_ : nullptr; }
    // The first warnings-budget warnings; the rest are only counted.
    const std::vector<SceneWarning> &warnings() const { return warnings_; }
    std::uint64_t warnings_dropped() const { return warnings_dropped_; }
    // The budget that ended the run (run_budget.hpp), located at the statement running then:
    // "file:line:col: error: limit 'steps' reached: ...". Empty when none was reached.
    std::optional<Diagnostic> limit_reached() const;
    // The run's budgets: the scene's `set limit` lines with the options' overrides on top.
    const RunBudget &budget() const;
    const std::vector<ExpectationOutcome> &expectations() const { return expectations_; }
    std::size_t expectations_failed() const;

    // ---- modelled time ----
    // The tasks of the run so far (0 = main; spawned blocks and the kworker follow in order of
    // appearance), every timed call made so far, and the modelled clock: the latest time any
    // task has reached.
    const std::vector<TaskInfo> &tasks() const { return tasks_info_; }
    const LatencyLog &latencies() const;
    // Hands the samples over (a finished run's, to a view on another thread): a million-bind
    // scene's 56 MB are moved, not copied. The simulation keeps none.
    LatencyLog take_latencies();
    bool concurrent() const;
    std::uint64_t now_ns() const { return now_ns_; }

private:
    struct Failure {
        std::uint32_t line;
        std::string what;
        Errno err;
    };
    // What each task's script keeps between statements (the kworker has no script).
    struct TaskScript {
        std::unique_ptr<SceneCursor> cursor;
        std::uint32_t line = 0;
        std::optional<Failure> pending_failure; // a failed statement not yet matched by `expect error`
        std::optional<Errno> last_result;       // errno of the last syscall statement
        std::uint32_t last_result_line = 0;
        // An ask that has shown its question: its answer is checked once the statement after it
        // has run, with the loop variables of the ask's own round.
        const Statement *asked = nullptr;
        Bindings asked_bindings;
        // The script's coroutine is suspended between two statements (or not started): a copy
        // can give the task a new script coroutine that resumes from the cursor.
        bool between_statements = true;
    };

    // ---- races (spawn NAME when POINT SOCK [until POINT SOCK]) ----
    struct Race {
        std::uint32_t task = 0;
        RacePointKind when = RacePointKind::select;
        std::string when_sock;
        std::optional<RacePointKind> until;
        std::string until_sock;
        std::uint32_t line = 0;
        std::uint32_t nth = 1;  // fires the nth time the point is reached
        std::uint32_t seen = 0; // times it was reached so far
        bool fired = false;
        bool until_fired = false;
        std::uint32_t preempted = npos;   // the task it broke in on
        std::uint64_t preempted_stmt = 0; // that task's statement count when it did
        // Does task `by` reaching point (kind, label) count for its `when` / hand back at `until`?
        bool when_matches(RacePointKind kind, const std::string &label, std::uint32_t by) const
        {
            return !fired && task != by && when == kind && when_sock == label;
        }
        bool until_matches(RacePointKind kind, const std::string &label, std::uint32_t by) const
        {
            return fired && !until_fired && until && task == by && *until == kind && until_sock == label;
        }
    };
    // Whose turn it is: the task that must run while it can, and the one it preempted. A
    // race's turn ends with its block; an `until` turn with the preempted task's statement.
    struct Turn {
        std::uint32_t runner = 0;
        std::uint32_t preempted = 0;
        bool statement_only = false;
        std::uint64_t preempted_steps = 0; // steps the preempted task had run when it was preempted
    };
    // The race point e is, with its socket: nullopt for every other micro-step.
    static std::optional<std::pair<RacePointKind, std::uint32_t>> race_point_of(const Event &e);
    bool race_hits(const Event &e, const Task &t) const; // would e fire a race or an until?
    void check_races(Task &t);
    void end_turns(Task &t, bool body_ended);
    void switch_event(const Task &from, const Task &to, std::uint32_t sock, RacePointKind kind, TaskSwitch how);

    // Kernel::CopyForm, which this header cannot name.
    enum class CopyForm : std::uint8_t { live, frozen, packed };
    Simulation(const Simulation &other, CopyForm form);
    bool absorb(const Event &e) override;
    Task *pick();
    // Takes in the tasks whose state changed since the last pick: the one that ran and those
    // it woke.
    void sync_run_queue();
    void release_cpu(Task &t);
    Task &add_task(std::string name, Process *process, std::uint32_t cpu, bool kworker);
    Proc script(std::uint32_t task);
    Proc execute(const Statement &s, Process &p, SysResult &r, bool &is_syscall, std::uint32_t task);
    Proc settle();
    Proc check_answer(std::uint32_t task);
    void expect(const Statement &s, const Bindings &b, TaskScript &ts);
    void flush_failure(TaskScript &ts);
    void finish_run();
    void mark_leaks();
    void warn(std::uint32_t line, std::string message);
    void check_budgets();

    std::shared_ptr<const Scene> scene_;
    // The kernel model, behind a pointer so that this header does not show it: owned by
    // kernel_state_, reached through kernel_ (one load per access, no call).
    std::unique_ptr<Kernel> kernel_state_;
    Kernel &kernel_;
    bool checked_ = false;
    bool record_ = true;
    bool fast_forward_ = false;
    std::deque<TaskScript> scripts_; // by task id
    RunQueue run_queue_;             // the CPUs and the tasks that can run on them
    Task *cur_ = nullptr;
    Event last_;
    std::vector<Event> events_;
    std::uint64_t steps_ = 0;
    std::uint64_t statements_ = 0;
    std::uint32_t line_ = 0;
    bool finished_ = false;
    bool stopped_by_finding_ = false;
    std::size_t findings_seen_ = 0;
    // The collection phase of the micro-step before: a phase's first micro-step is shown when
    // fast-forwarding. Every micro-step passes absorb(), so it is the same whoever watches;
    // none at a quiescent point, where a copy starts.
    GcPhase phase_seen_ = GcPhase::none;
    std::vector<SceneWarning> warnings_;
    std::uint64_t warnings_dropped_ = 0;
    SourceLoc stmt_loc_;                 // the statement that began last (any task)
    std::optional<SourceLoc> limit_loc_; // where a budget ended the run
    std::vector<ExpectationOutcome> expectations_;
    std::vector<TaskInfo> tasks_info_;
    std::uint64_t now_ns_ = 0;
    std::uint64_t seek_target_ = 0; // advance_to(): absorb what comes before it
    std::vector<Race> races_;
    std::vector<Turn> turns_;
    std::optional<Event> pending_switch_;   // the task_switch the next step() shows
    std::vector<std::uint64_t> stmt_count_; // statements begun, by task
    std::vector<std::uint64_t> task_steps_; // steps run, by task (a preempted task that ran on is not resumed)
    // Spawned tasks neither finished nor held by a race: what a `wait` with no names waits for
    // (counted, as a wake-up per finished task must not look at every task).
    std::uint64_t spawned_pending_ = 0;
};

KernelConfig kernel_config_for(const Scene &scene, const SimulationOptions &options);
// The costs a run of `scene` with `options` uses: the scene's `set cost` lines, then the overrides.
CostModel run_costs(const Scene &scene, const SimulationOptions &options);

} // namespace inflight
