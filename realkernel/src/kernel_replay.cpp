// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/kernel_replay.hpp"

#include "die_with_parent.hpp"
#include "pipe_io.hpp"
#include "replay_worker.hpp"
#include "socket_census.hpp"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>

#ifndef SO_PASSRIGHTS
#define SO_PASSRIGHTS 83
#endif

namespace inflight {

using namespace realkernel;

std::string running_kernel_release()
{
    utsname u{};
    return uname(&u) == 0 ? std::string(u.release) : std::string("unknown");
}

std::string running_kernel_version()
{
    utsname u{};
    return uname(&u) == 0 ? std::string(u.version) : std::string();
}

std::string errno_symbol(int err)
{
    switch (err) {
    case 0: return "";
    case EPERM: return "EPERM";
    case EBADF: return "EBADF";
    case EAGAIN: return "EAGAIN";
    case EINVAL: return "EINVAL";
    case EMFILE: return "EMFILE";
    case ENOSPC: return "ENOSPC";
    case EPIPE: return "EPIPE";
    case ENOTSOCK: return "ENOTSOCK";
    case EPROTOTYPE: return "EPROTOTYPE";
    case ENOPROTOOPT: return "ENOPROTOOPT";
    case EOPNOTSUPP: return "EOPNOTSUPP";
    case EADDRINUSE: return "EADDRINUSE";
    case ECONNRESET: return "ECONNRESET";
    case EISCONN: return "EISCONN";
    case ENOTCONN: return "ENOTCONN";
    case ETOOMANYREFS: return "ETOOMANYREFS";
    case ECONNREFUSED: return "ECONNREFUSED";
    case ENOENT: return "ENOENT";
    case EACCES: return "EACCES";
    case EDESTADDRREQ: return "EDESTADDRREQ";
    case EMSGSIZE: return "EMSGSIZE";
    case ENOBUFS: return "ENOBUFS";
    case ENOMEM: return "ENOMEM";
    case EFAULT: return "EFAULT";
    default: return "E" + std::to_string(err);
    }
}

namespace {

using Clock = std::chrono::steady_clock;

unsigned ms_since(Clock::time_point t)
{
    return static_cast<unsigned>(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count());
}

void sleep_ms(unsigned ms)
{
    timespec ts{static_cast<time_t>(ms / 1000), static_cast<long>(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR) { }
}

bool write_file(const char *path, const std::string &text)
{
    const int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = write_all(fd, text.data(), text.size());
    close(fd);
    return ok;
}

// The namespace the replay runs in: a new network namespace, and a user namespace first when
// the caller is not root (then the caller's uid is root inside it). Returns "" or why not.
std::string enter_namespace(KernelRun &run)
{
    const uid_t uid = geteuid();
    const gid_t gid = getegid();
    if (uid == 0) {
        if (unshare(CLONE_NEWNET) < 0)
            return std::string("unshare(CLONE_NEWNET): ") + std::strerror(errno);
        run.isolation = "network namespace";
        return {};
    }
    if (unshare(CLONE_NEWUSER | CLONE_NEWNET) < 0)
        return std::string("unshare(CLONE_NEWUSER | CLONE_NEWNET): ") + std::strerror(errno) +
               " (user namespaces may be disabled: kernel.unprivileged_userns_clone, or run as root)";
    write_file("/proc/self/setgroups", "deny");
    if (!write_file("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1\n") ||
        !write_file("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1\n"))
        return "cannot map the caller's uid into the user namespace";
    run.isolation = "user and network namespace";
    return {};
}

// What runs inside the namespace: workers per scene process, the statements in order, the
// observations, and the leak check at the end.
class Coordinator {
public:
    Coordinator(const ReplayPlan &plan, const KernelReplayOptions &options, KernelRun &run)
        : plan_(plan), options_(options), run_(run)
    { }
    ~Coordinator()
    {
        workers_.clear();
        if (diag_ >= 0)
            close(diag_);
    }

    void run()
    {
        if (const std::uint64_t at_start = protocol_count()) {
            run_.failure = "the new network namespace already holds " + std::to_string(at_start) +
                           " AF_UNIX sockets; verdicts would be unreliable";
            return;
        }
        run_.passrights_supported = probe_passrights();
        // Workers first, so none inherits the diag socket.
        for (std::size_t p = 0; p < plan_.processes.size(); ++p) {
            unsigned uid = 0;
            for (std::size_t u = 0; u < plan_.users.size(); ++u)
                if (plan_.users[u] == plan_.process_user[p])
                    uid = u == 0 ? 0 : 20000 + static_cast<unsigned>(u);
            workers_.push_back(std::make_unique<Worker>(plan_, uid, plan_.nofile));
            if (!workers_.back()->started()) {
                run_.failure = "cannot fork the replay's process '" + plan_.processes[p] + "'";
                return;
            }
        }
        diag_ = open_diag();
        run_.diag_available = diag_ >= 0;
        run_.steps.resize(plan_.steps.size());
        for (std::size_t k = 0; k < plan_.steps.size(); ++k) {
            if (!step(k))
                return;
            if (plan_.steps[k].observe)
                run_.observations.push_back(observe(k));
        }
        run_.ran = true;
        // Every scene process closes what it holds and exits; what a collection then leaves
        // is kept by the kernel alone.
        for (auto &w : workers_)
            w->finish();
        trigger_gc();
        const KernelObservation last = observe(plan_.steps.size());
        for (const std::string &label : run_.labels)
            if (last.alive.at(label))
                run_.leaked.push_back(label);
        run_.leaked_unlabelled = last.unseen;
    }

private:
    bool probe_passrights()
    {
        const int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return false;
        int v = 0;
        socklen_t len = sizeof v;
        const bool ok = getsockopt(fd, SOL_SOCKET, SO_PASSRIGHTS, &v, &len) == 0;
        close(fd);
        return ok;
    }

    // What a program can do to make the kernel collect: release an unrelated AF_UNIX socket.
    void trigger_gc()
    {
        const int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (fd >= 0)
            close(fd);
    }

    std::size_t worker_of(const std::string &process) const
    {
        for (std::size_t p = 0; p < plan_.processes.size(); ++p)
            if (plan_.processes[p] == process)
                return p;
        return 0;
    }

    void name_socket(std::uint64_t inode, const std::string &label)
    {
        if (!inode || by_inode_.count(inode))
            return;
        by_inode_[inode] = label;
        inode_of_[label] = inode;
        run_.labels.push_back(label);
    }
    std::string label_of(std::uint64_t inode) const
    {
        auto it = by_inode_.find(inode);
        return it == by_inode_.end() ? "inode:" + std::to_string(inode) : it->second;
    }

    bool step(std::size_t k)
    {
        const ReplayStep &s = plan_.steps[k];
        KernelStepResult &out = run_.steps[k];
        switch (s.op) {
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
        case Op::setsockopt: break;
        case Op::gc:
            out.ran = true;
            trigger_gc();
            return true;
        default: return true; // notes, declarations, expectations
        }
        WorkerReply r;
        if (!workers_[worker_of(s.process)]->run(k, r)) {
            run_.failure = "the replay's process '" + s.process + "' died at line " + std::to_string(s.loc.line);
            return false;
        }
        out.ran = true;
        out.error = errno_symbol(r.err);
        out.value = r.value;
        if (r.err)
            return true;
        switch (s.op) {
        case Op::socketpair:
            if (r.inodes.size() == 2) {
                name_socket(r.inodes[0], s.names[0]);
                name_socket(r.inodes[1], s.names[1]);
            }
            break;
        case Op::socket:
            if (!r.inodes.empty())
                name_socket(r.inodes[0], s.names[0]);
            break;
        case Op::connect:
            // A stream or seqpacket connect made the server's embryo, which has no inode: its
            // listener shows it by the client's inode (socket_census.hpp).
            if (!r.inodes.empty() && r.value != SOCK_DGRAM)
                name_socket(kEmbryoOf | r.inodes[0], "embryo(" + label_of(r.inodes[0]) + ")");
            break;
        case Op::accept:
            // The accepted embryo now has a file and an inode: found by its peer, the client.
            if (!r.inodes.empty()) {
                const std::uint64_t client = peer_inode(diag_, r.inodes[0]);
                auto it = client ? by_inode_.find(kEmbryoOf | client) : by_inode_.end();
                if (it != by_inode_.end()) {
                    const std::string label = it->second;
                    by_inode_.erase(it);
                    by_inode_[r.inodes[0]] = label;
                    inode_of_[label] = r.inodes[0];
                    run_.aliases[s.names[1]] = label;
                } else {
                    name_socket(r.inodes[0], s.names[1]);
                }
            }
            break;
        case Op::recv:
            for (std::uint64_t ino : r.inodes)
                out.received.push_back(label_of(ino));
            break;
        default: break;
        }
        return true;
    }

    // Waits (bounded) until the namespace's socket set has been stable for stable_ms, then
    // reads every labelled socket's fate.
    KernelObservation observe(std::size_t k)
    {
        KernelObservation o;
        o.step = k;
        const auto start = Clock::now();
        Census last = take_census(diag_);
        auto changed_at = Clock::now();
        const auto expected = options_.expected.find(k);
        auto as_expected = [&] {
            if (expected == options_.expected.end())
                return true;
            for (const auto &[label, alive] : expected->second) {
                auto it = inode_of_.find(label);
                const bool now = it != inode_of_.end() && last.inodes.count(it->second) > 0;
                if (now != alive)
                    return false;
            }
            return true;
        };
        for (;;) {
            if (ms_since(changed_at) >= options_.stable_ms && as_expected())
                break;
            if (ms_since(start) >= options_.max_wait_ms) {
                o.settled = ms_since(changed_at) >= options_.stable_ms;
                break;
            }
            sleep_ms(options_.poll_ms);
            Census now = take_census(diag_);
            if (!(now == last)) {
                last = std::move(now);
                changed_at = Clock::now();
            }
        }
        o.waited_ms = ms_since(start);
        std::uint64_t alive = 0;
        for (const std::string &label : run_.labels) {
            const bool a = last.inodes.count(inode_of_.at(label)) > 0;
            o.alive[label] = a;
            alive += a;
        }
        o.unseen = last.counted > alive ? last.counted - alive : 0;
        return o;
    }

    const ReplayPlan &plan_;
    const KernelReplayOptions &options_;
    KernelRun &run_;
    std::vector<std::unique_ptr<Worker>> workers_;
    int diag_ = -1;
    std::map<std::uint64_t, std::string> by_inode_;
    std::map<std::string, std::uint64_t> inode_of_;
};

nlohmann::json to_json(const KernelRun &r)
{
    nlohmann::json j;
    j["ran"] = r.ran;
    j["failure"] = r.failure;
    j["release"] = r.release;
    j["version"] = r.version;
    j["isolation"] = r.isolation;
    j["passrights"] = r.passrights_supported;
    j["diag"] = r.diag_available;
    j["labels"] = r.labels;
    j["aliases"] = r.aliases;
    nlohmann::json steps = nlohmann::json::array();
    for (const KernelStepResult &s : r.steps)
        steps.push_back({{"ran", s.ran}, {"error", s.error}, {"value", s.value}, {"received", s.received}});
    j["steps"] = std::move(steps);
    nlohmann::json obs = nlohmann::json::array();
    for (const KernelObservation &o : r.observations)
        obs.push_back({{"step", o.step},
                       {"alive", o.alive},
                       {"settled", o.settled},
                       {"waited_ms", o.waited_ms},
                       {"unseen", o.unseen}});
    j["observations"] = std::move(obs);
    j["leaked"] = r.leaked;
    j["leaked_unlabelled"] = r.leaked_unlabelled;
    return j;
}

KernelRun from_json(const nlohmann::json &j)
{
    KernelRun r;
    r.ran = j.at("ran");
    r.failure = j.at("failure");
    r.release = j.at("release");
    r.version = j.value("version", "");
    r.isolation = j.at("isolation");
    r.passrights_supported = j.at("passrights");
    r.diag_available = j.at("diag");
    r.labels = j.at("labels").get<std::vector<std::string>>();
    r.aliases = j.at("aliases").get<std::map<std::string, std::string>>();
    for (const auto &s : j.at("steps"))
        r.steps.push_back(KernelStepResult{s.at("ran"), s.at("error"), s.at("value"),
                                           s.at("received").get<std::vector<std::string>>()});
    for (const auto &o : j.at("observations"))
        r.observations.push_back(KernelObservation{o.at("step"), o.at("alive").get<std::map<std::string, bool>>(),
                                                   o.at("settled"), o.at("waited_ms"), o.at("unseen")});
    r.leaked = j.at("leaked").get<std::vector<std::string>>();
    r.leaked_unlabelled = j.at("leaked_unlabelled");
    return r;
}

[[noreturn]] void child_main(const ReplayPlan &plan, const KernelReplayOptions &options, int out)
{
    std::signal(SIGPIPE, SIG_IGN);
    KernelRun run;
    run.release = running_kernel_release();
    run.version = running_kernel_version();
    if (std::string why = enter_namespace(run); !why.empty()) {
        run.failure = "cannot make a fresh namespace for the replay: " + why;
    } else {
        Coordinator c(plan, options, run);
        c.run();
    }
    const std::string text = kernel_run_json(run);
    write_all(out, text.data(), text.size());
    close(out);
    _exit(0);
}

} // namespace

KernelRun run_on_kernel(const ReplayPlan &plan, const KernelReplayOptions &options)
{
    KernelRun failed;
    failed.release = running_kernel_release();
    failed.version = running_kernel_version();
    if (!plan.ok()) {
        failed.failure = "the scene cannot be replayed";
        return failed;
    }
    const auto cancelled = [&] { return options.cancel && options.cancel->load(); };
    if (cancelled()) {
        failed.failure = "the replay was cancelled";
        return failed;
    }
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0) {
        failed.failure = std::string("pipe: ") + std::strerror(errno);
        return failed;
    }
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid == 0) {
        die_with_parent(parent);
        close(p[0]);
        child_main(plan, options, p[1]);
    }
    close(p[1]);
    if (pid < 0) {
        close(p[0]);
        failed.failure = std::string("fork: ") + std::strerror(errno);
        return failed;
    }
    // The child's work is bounded by the plan's size and the observation waits; a child that
    // hangs anyway (a kernel that never answers) is killed after this long.
    const std::uint64_t plan_ms =
        10000 + static_cast<std::uint64_t>(plan.steps.size()) * (options.max_wait_ms + 50) + options.max_wait_ms;
    const auto budget_ms =
        static_cast<unsigned>(std::min<std::uint64_t>(plan_ms, std::uint64_t(options.timeout_s) * 1000));
    const auto start = Clock::now();
    std::string text;
    char buf[65536];
    for (;;) {
        const unsigned used = ms_since(start);
        if (used >= budget_ms) {
            kill(pid, SIGKILL);
            failed.failure = "the replay did not finish in " + std::to_string(budget_ms / 1000) + " s";
            break;
        }
        if (cancelled()) {
            kill(pid, SIGKILL);
            failed.failure = "the replay was cancelled";
            break;
        }
        // A cancellable run wakes up often enough to notice its flag.
        const unsigned wait_ms = options.cancel
                                     ? std::min<unsigned>(budget_ms - used, KernelReplayOptions::kCancelPollMs)
                                     : budget_ms - used;
        pollfd pfd{p[0], POLLIN, 0};
        const int ready = poll(&pfd, 1, static_cast<int>(wait_ms));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            continue;
        const ssize_t n = read(p[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        text.append(buf, static_cast<std::size_t>(n));
    }
    close(p[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
    if (!failed.failure.empty())
        return failed;
    if (auto run = parse_kernel_run(text))
        return *run;
    failed.failure = "the replay's child ended without a report (status " + std::to_string(status) + ")";
    return failed;
}

std::string kernel_run_json(const KernelRun &run)
{
    return to_json(run).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<KernelRun> parse_kernel_run(const std::string &text)
{
    try {
        return from_json(nlohmann::json::parse(text));
    } catch (const nlohmann::json::exception &) {
        return std::nullopt;
    }
}

} // namespace inflight
