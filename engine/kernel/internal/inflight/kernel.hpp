// SPDX-License-Identifier: GPL-3.0-or-later
// The modelled kernel: every object (sockets, files, skbs, users, processes), the GC globals of
// the era, the syscalls with their errno behaviour, file release with its deferred __fput, and
// the workqueue that runs queued collections. Deterministic: no clocks, no host randomness.
#pragma once

#include "inflight/abstract_namespace.hpp"
#include "inflight/algorithm_listing.hpp"
#include "inflight/chunked_vector.hpp"
#include "inflight/collector.hpp"
#include "inflight/cost_model.hpp"
#include "inflight/errno_code.hpp"
#include "inflight/event.hpp"
#include "inflight/file.hpp"
#include "inflight/gc_era.hpp"
#include "inflight/gc_phase.hpp"
#include "inflight/kernel_profile.hpp"
#include "inflight/latency_counts.hpp"
#include "inflight/name_pool.hpp"
#include "inflight/proc.hpp"
#include "inflight/process.hpp"
#include "inflight/run_budget.hpp"
#include "inflight/sk_buff.hpp"
#include "inflight/task.hpp"
#include "inflight/unix_graph.hpp"
#include "inflight/unix_sock.hpp"

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace inflight {

inline constexpr unsigned long UNIX_INFLIGHT_TRIGGER_GC = 16000;
inline constexpr unsigned long UNIX_INFLIGHT_SANE_USER = SCM_MAX_FD * 8; // 2024
inline constexpr std::uint32_t SOMAXCONN = 4096;

struct KernelConfig {
    GcEra era = GcEra::async;
    // The kernel profile (kernel_profile.hpp) and its changes with the scene's `set fix` lines
    // applied: every version-dependent rule of the model asks has().
    std::string_view profile = "6.9";
    KernelChanges changes = default_kernel_profile(GcEra::async).changes;
    bool has(KernelChange c) const { return changes.has(c); }
    std::uint64_t nofile = 1024;
    std::uint64_t seed = 1;
    // modelled time
    CostModel costs;
    std::uint32_t cpus = 1;
    bool creds_by_default = false; // 2.6.39-3.1: pid and cred references on every skb
    AutobindMode autobind = AutobindMode::random;
    bool global_table_lock = false; // before 2021: one unix_table_lock
    RunBudget budget;               // the run's limits (run_budget.hpp)
};

struct SysResult {
    Errno err = Errno::none;
    long value = 0;
};

// A kernel BUG_ON/WARN_ON condition or a model invariant that did not hold.
struct Finding {
    std::uint64_t step = 0;
    std::string invariant; // e.g. "classic: total_refs < inflight_refs (BUG_ON in unix_gc)"
    std::string message;
    // A kernel WARN_ON: the kernel prints it and goes on, and so does the run. Any other
    // finding (a BUG_ON, a broken model invariant) ends the run at its step.
    bool warning = false;
};

// One collection, as the report and the timeline show it.
struct GcRun {
    std::uint32_t number = 0;
    std::string trigger;                // "close", "sendmsg", "gc statement", ...
    bool skipped = false;               // graph: not cyclic; classic: already in progress
    std::uint32_t inflight_sockets = 0; // size of gc_inflight_list / vertices at the start
    std::uint32_t candidates = 0;       // classic: candidates selected
    std::uint32_t sccs = 0;             // graph: SCCs finalised (fast path: rings checked)
    std::uint32_t garbage = 0;          // sockets found garbage
    std::uint32_t hitlist = 0;          // skbs purged
    bool fast_path = false;
    std::uint64_t micro_steps = 0;
    std::uint64_t first_step = 0, last_step = 0;
    std::uint64_t start_ns = 0, end_ns = 0; // modelled clock: the collector's own duration
    std::uint32_t task = 0;                 // the task that ran it (kworker, or the caller in classic)
};

class ObjectImage;

class Kernel {
public:
    explicit Kernel(const KernelConfig &config);
    ~Kernel();
    // A copy of the state at a quiescent point: no kernel code path is running (every task
    // between statements, no queued work under way, no send-time SCM_RIGHTS cookie alive).
    // Objects keep their ids; every pointer between them is translated through those ids and
    // every list is linked again in the source's order (kernel_copy.cpp). Tasks are copied
    // without their bodies: the Simulation that owns the copy gives them new ones.
    // quiescent() says whether a copy may be taken now.
    Kernel(const Kernel &other) : Kernel(other, CopyForm::live) { }
    Kernel &operator=(const Kernel &) = delete;
    // live: a copy that runs (as above). frozen: a checkpoint's form (frozen() below), made
    // straight from the source without building live objects first. packed: frozen but not yet
    // compressed; a frozen copy of a packed kernel compresses it, on another thread if the
    // caller likes (the recorder hands that half of a checkpoint's cost to the checkpoint
    // store's worker), and the packed one stays whole meanwhile.
    enum class CopyForm : std::uint8_t { live, frozen, packed };
    Kernel(const Kernel &other, CopyForm form);
    bool quiescent() const;
    // What a copy of this state takes in memory, estimated from the object counts (frozen:
    // what the compressed image and the plain fields take).
    std::size_t state_bytes() const;
    // A frozen kernel (CopyForm::frozen) is a checkpoint's form: the object graph (sockets,
    // files, skbs, vertices, processes, lists, the collection history) packed with
    // ids for pointers and compressed, no live objects. Nothing may read or run it; a copy of it
    // is whole again.
    bool frozen() const { return image_ != nullptr; }

    const KernelConfig &config() const { return config_; }
    GcEra era() const { return config_.era; }
    // Up to 6.11 u->oob_skb holds its own skb reference (skb_get()); 6.12 dropped it
    // (oob-no-skb-get): the classic profiles and 6.10 have it, 6.12 and later do not.
    bool oob_skb_holds_ref() const { return !config_.has(KernelChange::oob_no_skb_get); }
    Collector &collector() { return *collector_; }
    const Collector &collector() const { return *collector_; }

    // ---- users and processes -------------------------------------------------------------
    User &root() { return users.front(); }
    const User &root() const { return users.front(); }
    User &add_user(const std::string &name);
    Process &add_process(const std::string &name, User &user);
    User *find_user(const std::string &name);
    const User *find_user(const std::string &name) const { return const_cast<Kernel *>(this)->find_user(name); }
    Process *find_process(const std::string &name);

    // ---- syscalls (names are the scene's fd names in process p) ---------------------------
    Proc sys_socket(Process &p, SockType type, std::string name, SysResult &r);
    Proc sys_socketpair(Process &p, SockType type, std::string n0, std::string n1, SysResult &r);
    Proc sys_bind(Process &p, std::string name, std::optional<std::string> address, SysResult &r);
    Proc sys_listen(Process &p, std::string name, SysResult &r);
    // address: "@name" form; target_fd: the "connect c s" form.
    Proc sys_connect(Process &p, std::string name, std::optional<std::string> address, std::string target_fd,
                     SysResult &r);
    Proc sys_accept(Process &p, std::string listener, std::string new_name, SysResult &r);
    Proc sys_sendmsg(Process &p, std::string name, std::vector<std::string> fds, std::uint64_t bytes, bool oob,
                     std::optional<std::string> to, SysResult &r);
    Proc sys_recvmsg(Process &p, std::string name, std::vector<std::string> fd_names, bool peek, bool oob,
                     SysResult &r);
    Proc sys_dup(Process &p, std::string old_name, std::string new_name, SysResult &r);
    Proc sys_close(Process &p, std::string name, SysResult &r);
    Proc sys_setsockopt(Process &p, std::string name, SockOpt opt, bool value, SysResult &r);
    // The scene's `gc`: start a collection and wait for it to finish.
    Proc force_gc(std::string trigger);
    // Runs queued kernel work (collections, delayed fput) until none is left.
    Proc run_workqueue();
    // Runs the __fput()s a task queued (task_work_run() on the way back to user space).
    Proc run_task_work(Process &p);
    bool work_pending() const { return !workqueue_.empty(); }
    // delayed_fput() taken by the kworker of another CPU (a race's `delayed_fput` statement):
    // the queued work item leaves the queue and runs in the calling task, with no process
    // context, as a kworker runs it. delayed_fput_queued() says whether there is one to take.
    Proc run_delayed_fput_elsewhere();
    bool delayed_fput_queued() const { return fput_work_pending_; }

    Proc sys_splice(Process &p, std::string name, std::uint64_t bytes, SysResult &r);
    // unix_peek_fds() for recv(..., MSG_PEEK) of an skb that carries fds.
    Proc unix_peek_fds(Process &p, UnixSock &u, SkBuff &skb, const std::vector<std::string> &fd_names);

    // ---- modelled time and concurrency (kernel_time.cpp) -----------------------------------
    // Every micro-step costs cost_of(event) ns on the running task's clock; walks that yield no
    // event of their own (an skb's fds scanned) charge() directly.
    std::uint64_t now() const { return running ? running->clock : 0; }
    void charge(std::uint64_t ns)
    {
        if (running)
            advance_clock(*running, ns);
    }
    void charge(Cost c, std::uint64_t times = 1) { charge(saturating_mul(config_.costs[c], times)); }
    // t.clock += ns, saturating: a clock past the time-ns budget (at most 2^64 - 1 ns, 584
    // years) ends the run with a located error instead of wrapping to a small time.
    void advance_clock(Task &t, std::uint64_t ns)
    {
        t.clock = saturating_add(t.clock, ns);
        if (t.clock >= config_.budget[Budget::time_ns] && !breach)
            reach_budget(Budget::time_ns, "the modelled clock of task " + t.name + " would pass it");
    }
    std::uint64_t cost_of(const Event &e) const;
    const CostModel &costs() const { return config_.costs; }
    // A point where another task may run first (only when the run is concurrent).
    Proc sched_point();
    // spin_lock(): waits (in modelled time) until the lock is free, then holds it.
    // algo_line: the listing line a contended spin shows (0: none).
    Proc spin_lock(KLock &l, std::uint32_t which, std::uint16_t algo_line = 0);
    void spin_unlock(KLock &l);
    // Puts the running task to sleep until wake() for the same reason (and socket).
    Proc sleep(WaitFor what, const UnixSock *sock = nullptr);
    void wake(WaitFor what, std::uint64_t at, const UnixSock *sock = nullptr);
    // The tasks wake() and spin_unlock() made runnable, by id, in the order they woke: the
    // Simulation's run queue takes them in (and clears the list) before it picks a task. A
    // copy starts with none: the Simulation's copy takes every task in afresh.
    std::vector<std::uint32_t> woken;
    // Is a collection running at time t? In the state (queued or mid-run), or in time: a run
    // that the model already finished may still be going on at an earlier task's clock.
    bool gc_running_at(std::uint64_t t) const { return gc_in_progress || t < gc_busy_until; }
    // Sleeps until the running collection ends (flush_work / unix_gc_wait), charged as a wait.
    Proc wait_gc(KFn fn, std::int64_t detail);
    // The kworker has something to run (queued work), ready at this time.
    bool kworker_has_work() const { return !workqueue_.empty(); }
    std::uint64_t work_ready_at() const { return work_ready_at_; }

    // ---- lookups for scenes, views and reports --------------------------------------------
    UnixSock *find_label(const std::string &label);
    const UnixSock *find_label(const std::string &label) const
    {
        return const_cast<Kernel *>(this)->find_label(label); // watches read a const Kernel
    }
    std::string label_of(const UnixSock &u) const { return std::string(name_pool.str(u.label)); }
    std::string label_of_id(std::uint32_t sock_id) const;
    std::string address_of(const UnixSock &u) const; // the abstract name without '@', or ""
    std::uint32_t fd_refs(const File &f) const;      // fd table entries pointing at f
    std::uint32_t fp_refs(const File &f) const;      // live SCM_RIGHTS list entries holding f
    // f's __fput() is queued: on a task's task_work or on delayed_fput_list. A file with no
    // reference left that is on neither is being released by a path under way (task_work_run()
    // takes the whole list before it releases each file).
    bool fput_queued(const File &f) const;

    // ---- shared kernel paths used by the collectors ----------------------------------------
    // Drops one reference; at 0, __fput is deferred. close() passes its fd so that removing the
    // fd and dropping its reference are one micro-step (an fd_close event).
    Proc fput(File &f, std::uint32_t closing_process = npos, std::uint32_t closing_fd = npos);
    Proc kfree_skb(SkBuff &skb, KFn why); // run the destructor (detach fds, drop their refs)
    // __skb_queue_purge(&hitlist) at the end of a collection (both collectors): every release it
    // causes is the collector's doing.
    Proc purge_hitlist();
    // scm_destroy(): drops every reference the list still holds (last entry first) and takes it
    // off the refcount registry.
    Proc scm_destroy(ScmFpList &fpl);
    Proc unix_gc(std::string trigger); // era-specific entry: run now (classic) or queue
    Proc gc_run(std::string trigger);  // one collection, with its GcRun record
    void finding(std::string invariant, std::string message);
    void warn_finding(std::string invariant, std::string message); // a WARN_ON: the run goes on
    SkBuff &alloc_skb(std::uint64_t len);
    void free_skb_storage(SkBuff &skb);
    void gc_list_move(UnixSock &u, GcList &to, ListId to_id, bool tail = true);
    void gc_list_del(UnixSock &u);
    GcList &gc_list(ListId id);

    // ---- state (public so that views and invariant checks can read it) ---------------------
    // First, so it is destroyed last: skbs, tasks' cookies and every other SCM_RIGHTS list give
    // their edge arrays back to it when they go.
    EdgePool edge_pool;
    ChunkedVector<UnixSock> socks;          // by id, never shrinks: released sockets stay for the views
    ChunkedVector<File> files;              // by id (= socket id)
    std::deque<User> users;                 // users[0] is root
    std::deque<Process> processes;          // processes[0] is main
    NamePool name_pool;                     // labels and fd names, interned
    std::vector<std::uint32_t> label_owner; // name id -> sock id it labels (npos: none)
    // UnixSock::address: npos when unbound; kAutobindAddress | value for a name of five hex digits
    // (every autobind name: a filled name space stores no strings); else an index into addresses.
    static constexpr std::uint32_t kAutobindAddress = 0x8000'0000u;
    std::vector<std::string> addresses;
    // The abstract buckets (256..511) of the namespace's socket hash table, with autobind.
    AbstractNamespace abstract_ns;
    KLock unix_table_lock;              // before 2021: one lock for the whole table
    std::array<KLock, 512> table_locks; // from 2021: one per bucket (unix_table_double_lock)

    // classic and async
    GcList gc_inflight_list, gc_candidates, not_cycle_list;
    GcLink cursor; // the restore walk's dummy list node
    SkbQueue hitlist;
    unsigned long unix_tot_inflight = 0;
    bool gc_in_progress = false;
    GcPhase gc_phase = GcPhase::none;
    // graph
    VertexList unvisited_vertices, visited_vertices;
    std::deque<UnixVertex> vertex_pool;
    std::vector<UnixVertex *> free_vertices;
    // Without init-scc-index: the scc_index of each freed vertex, last freed at the back (what
    // the slab hands the next kmalloc of a vertex). Bounded: older ones are forgotten.
    std::vector<unsigned long> freed_scc_indexes;
    static constexpr std::size_t kFreedVerticesKept = 4096;
    bool graph_maybe_cyclic = false;
    bool graph_grouped = false;
    // 6.19's unix_graph_cyclic_sccs: the cyclic SCCs the last walk left alive. With
    // schedule-gc a sender of AF_UNIX fds waits for the collector only while it is non-zero.
    std::uint32_t graph_cyclic_sccs = 0;
    unsigned long unvisited_index = 0; // UNIX_VERTEX_INDEX_MARK1
    unsigned long grouped_index = 1;   // UNIX_VERTEX_INDEX_MARK2
    unsigned long max_scc_index = 2;   // unix_vertex_max_scc_index (CVE-2025-40214 fix)
    // A vertex is on visited_vertices while its visited_mark equals this (on_visited_list()).
    std::uint64_t visited_generation = 1;
    // Counts the graph walks; a vertex's verdict belongs to the walk numbered verdict_run.
    std::uint64_t gc_walk_number = 0;
    // For the views: the socket the classic collection works on, its children being scanned
    // (decrement, hitlist) or the restore walk's cursor just past it (npos: none).
    std::uint32_t classic_scan_subject = npos;
    // the walk's stacks, kept here so the views can show them mid-walk
    std::vector<UnixVertex *> vertex_stack_view;
    std::vector<UnixEdge *> edge_stack_view;

    bi::list<
        ScmFpList,
        bi::member_hook<ScmFpList, bi::list_member_hook<bi::link_mode<bi::auto_unlink>>, &ScmFpList::registry_hook>,
        bi::constant_time_size<false>>
        live_fp_lists;
    std::vector<GcRun> gc_runs;
    std::vector<Finding> findings;
    // For the views, not the kernel: the sockets the last collection left although no process
    // fd reaches them (alive, unreachable, not freed: leaked), each with why. Written by the
    // Simulation at every gc_end, which can tell reachability (engine/run why_alive).
    std::map<std::uint32_t, std::string> leaked;
    Process *current = nullptr;  // the task running kernel code; nullptr = a kworker
    std::uint64_t step_hint = 0; // the Simulation's step counter, for findings
    std::uint32_t skbs_allocated = 0;
    std::uint32_t skbs_live = 0;
    FreedBy release_cause = FreedBy::close; // recorded on a file whose last reference goes
    // Setup only (benchmarks, tests that build a large state): unix_gc() does nothing, so a
    // graph of 32,000 sockets can be built without the collections its sends would trigger.
    bool collections_suppressed = false;

    // modelled time
    std::deque<Task> tasks;  // 0 = main; then spawned blocks and the kworker, in order
    Task *running = nullptr; // the task whose micro-steps run now
    Task *kworker = nullptr; // runs queued work on the last CPU (concurrent runs)
    bool concurrent = false; // several tasks: locks and sleeps are scheduling points
    KLock unix_gc_lock;
    std::uint64_t gc_busy_until = 0; // end (modelled) of the last collection
    // unix_state_lock(): connect() holds the listener's from its checks until the embryo is
    // queued; the classic collector with connect-gc-race takes and drops a listening
    // candidate's. Only the locks ever taken are here, by socket id.
    std::map<std::uint32_t, KLock> state_locks;
    static constexpr std::uint32_t kStateLockBase = 0x1000; // lock ids: 0 gc, 1 table, 2 + h buckets
    KLock &state_lock(const UnixSock &u) { return state_locks[u.id]; }
    // 7.0 (peek-seqcount): unix_peek_seq, bumped by a MSG_PEEK of AF_UNIX fds while a
    // collection runs; unix_scc_dead() gives up an SCC whose verdict it overlapped.
    std::uint64_t unix_peek_seq = 0;
    // A race made the counts disagree with what is in flight (CVE-2024-26923), and a finding
    // said so: the invariant checks report what follows as WARNs, the run going on.
    bool inflight_corrupted = false;
    // Sockets a use-after-free finding already named (each is reported once).
    std::set<std::uint32_t> unsound_reported;
    // Sockets whose release ran while a collection purged its hitlist (a delayed_fput on another
    // CPU between two skb destructors): their unix_sock is freed, and the purge must not read it
    // any more (spec 5.7). Emptied when the collection ends; a copy is only ever taken between
    // statements, never mid-purge, so it is never part of one.
    struct FreedInPurge {
        std::uint32_t sock = 0;
        std::uint64_t step = 0; // the release's step
        std::uint32_t task = 0; // the task that ran it
    };
    std::vector<FreedInPurge> freed_in_purge;
    // unix_del_edges() is about to read edge->successor (unix_edge_successor(), the receiver's
    // scm_stat): if that socket was freed during this purge, the read is a use-after-free, a
    // finding naming both code paths (once per socket). Returns whether it was freed.
    bool successor_freed(const UnixSock &successor, const UnixSock &predecessor);
    // The collector is about to purge u as garbage: in_flight_refs is what flight explains of
    // its file count (classic: inflight, graph: out_degree). More means a live reference — an
    // fd installed behind the collector's back (MSG_PEEK): a use-after-free finding naming
    // both code paths. The kernel goes on, and so does the run.
    void check_purge_live(const UnixSock &u, long in_flight_refs, KFn path);
    LatencyLog latencies;
    // Timed calls past the latency-samples budget: exact counts per (task, call, duration), so
    // histograms and percentiles stay right while memory stays bounded.
    LatencyCounts latency_counts;
    void record_latency(const LatencySample &s);
    // ---- budgets (run_budget.hpp) ----
    // The first budget the run reached; the Simulation ends the run at the step that reached it.
    std::optional<BudgetBreach> breach;
    void reach_budget(Budget b, std::string detail);
    std::uint64_t gc_runs_dropped = 0; // collections past the collections budget: counted, not kept
    std::uint64_t gc_runs_total() const { return gc_runs.size() + gc_runs_dropped; }
    std::uint64_t bytes_live = 0;        // bytes of every live skb (queued, in flight, on the hitlist)
    std::uint64_t micro_steps_total = 0; // every micro-step, also those a fast-forward absorbed
    // Micro-steps a fast-forward shortcut (a memo, a bulk walk of taken names) did not yield at
    // all. The Simulation counts them as steps, so a step number means the same micro-step
    // whether or not a run fast-forwards.
    std::uint64_t steps_skipped = 0;
    // Fast-forwarding (SimulationOptions::fast_forward): nobody looks at a collection's inner
    // steps, so a collector may skip a walk whose outcome it already knows (see ClassicCollector).
    bool fast_forward = false;
    // Bumped whenever a file reference count or a socket's inflight count changes: the inputs
    // of the classic candidate selection.
    std::uint64_t gc_inputs_version = 0;
    // creds-by-default: the cache lines of each process's struct pid and struct cred
    struct RefLine {
        std::uint32_t last_cpu = 0;
        std::uint64_t free_at = 0;
        bool touched = false;
    };
    std::vector<RefLine> pid_lines, cred_lines; // by process id

private:
    friend class ClassicCollector;
    friend class GraphCollector;
    friend class ObjectImage; // packs and unpacks the object graph (object_image.cpp)

    enum class Work : std::uint8_t { unix_gc, delayed_fput };
    UnixSock &create_sock(SockType type, std::uint32_t owner, const std::string &label);
    void add_label(const std::string &label, std::uint32_t sock_id);
    File &create_file(UnixSock &u);
    Errno install_fd(Process &p, File &f, const std::string &name, int &fd);
    Errno resolve(Process &p, const std::string &name, UnixSock *&u);
    Proc release_file(File &f); // __fput -> sock_close -> unix_release_sock
    Proc unix_release_sock(UnixSock &u, bool embryo);
    Proc run_delayed_fput();
    void queue_work(Work w);
    Proc wait_for_unix_gc(ScmFpList *fpl);
    // 6.19+ (schedule-gc): the trigger of close() (fpl null) and of a sendmsg carrying AF_UNIX fds.
    Proc unix_schedule_gc(const ScmFpList *fpl, std::string trigger);
    Proc flush_gc_work();
    Proc purge_queue(UnixSock &u);
    Proc send_skb(UnixSock &receiver, SkBuff &skb);
    Proc unix_autobind(UnixSock &u, Errno &err);
    Proc bind_name(UnixSock &u, const std::string &name, Errno &err);
    std::uint32_t store_address(const std::string &name); // the UnixSock::address of a name
    Proc table_lock(std::uint32_t h1, std::uint32_t h2, std::uint16_t algo_line = 0);
    void table_unlock(std::uint32_t h1, std::uint32_t h2);
    // __unix_find_socket_byname() for connect()/sendto(): the walk's cost is charged.
    UnixSock *find_abstract(const std::string &name, SockType type);
    Proc dgram_disconnected(UnixSock &u);

    KernelConfig config_;
    std::unique_ptr<Collector> collector_;
    std::deque<std::unique_ptr<SkBuff>> skb_slots_;
    std::vector<SkBuff *> free_skbs_;
    std::deque<Work> workqueue_;
    bool gc_work_pending_ = false;
    bool fput_work_pending_ = false;
    std::vector<File *> delayed_fput_list_;
    std::uint64_t work_ready_at_ = 0;
    // The tasks asleep, by id, for each WaitFor: a wake-up looks at its own sleepers, not at
    // every task (a scene may spawn a million). An entry whose task was woken another way (the
    // Simulation wakes a stuck reader itself) is dropped when its list is next walked.
    std::array<std::vector<std::uint32_t>, 7> sleepers_;
    std::vector<std::uint32_t> &sleepers(WaitFor what) { return sleepers_[static_cast<std::size_t>(what)]; }
    Proc creds_ref(Process &owner, bool get);
    std::mt19937_64 rng_;
    std::string pending_trigger_;
    // Frozen (CopyForm::frozen): the object graph this kernel holds packed instead of live.
    // Immutable once compressed (frozen copies of a frozen kernel share it); only a packed
    // kernel's own, not yet shared, image is compressed in place.
    std::shared_ptr<const ObjectImage> image_;
};

// Which vertex list v is on, in O(1) (see UnixVertex::visited_mark).
inline bool on_visited_list(const Kernel &k, const UnixVertex &v) { return v.visited_mark == k.visited_generation; }

// The running collection's SCC verdict on v: -1 none yet (or no collection running), 0 alive, 1 dead.
inline int verdict_of(const Kernel &k, const UnixVertex &v)
{
    return k.gc_phase != GcPhase::none && v.verdict_run == k.gc_walk_number ? v.verdict_value : -1;
}

// Releases a spin lock however the critical section ends (co_return from a coroutine too).
struct SpinGuard {
    Kernel &k;
    KLock &lock;
    SpinGuard(Kernel &kernel, KLock &l) : k(kernel), lock(l) { }
    SpinGuard(const SpinGuard &) = delete;
    SpinGuard &operator=(const SpinGuard &) = delete;
    ~SpinGuard() { k.spin_unlock(lock); }
};

} // namespace inflight
