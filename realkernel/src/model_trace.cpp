// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/model_trace.hpp"

#include "inflight/kernel.hpp"
#include "inflight/simulation.hpp"
#include "inflight/why_alive.hpp"

#include <memory>

namespace inflight {

namespace {

bool is_socket_statement(Op op) { return (is_syscall(op) && op != Op::splice) || op == Op::gc; }

} // namespace

ModelTrace trace_model(const Scene &scene, const ReplayPlan &plan, const KernelProfile &kernel)
{
    ModelTrace t;
    t.kernel = &kernel;
    t.era = kernel.era;
    t.unify_scc_index = kernel.changes.has(KernelChange::unify_scc_index);
    auto copy = std::make_shared<Scene>(scene);
    copy->settings.gc = kernel.era;
    copy->settings.kernel = std::string(kernel.name);
    copy->settings.fixes = {}; // the real kernel has what its version has
    SimulationOptions options;
    options.kernel = &kernel;
    options.record = false;
    options.fast_forward = true;
    Simulation sim(copy, options);
    const Kernel &k = sim.kernel();
    t.ran.assign(plan.steps.size(), false);
    t.errors.assign(plan.steps.size(), "");
    t.received.assign(plan.steps.size(), {});
    std::size_t index = 0;
    // The sockets the statement's recv installed, named by the scene or not: the kernel side
    // records every socket a recv brings in, whatever the scene called its fds.
    std::vector<std::string> installed;
    while (const Event *e = sim.step()) {
        if (e->kind == EventKind::fd_install && e->task == 0 &&
            (e->fn == KFn::scm_detach_fds || e->fn == KFn::unix_peek_fds) && e->a < k.files.size())
            if (const UnixSock *sock = k.files[e->a].sock)
                installed.push_back(k.label_of(*sock));
        if (e->kind != EventKind::stmt_end || e->task != 0)
            continue;
        if (index >= plan.steps.size())
            break;
        const ReplayStep &s = plan.steps[index];
        if (is_socket_statement(s.op)) {
            t.ran[index] = true;
            const auto err = static_cast<Errno>(e->before);
            t.errors[index] = err == Errno::none ? std::string() : std::string(errno_name(err));
        }
        if (s.op == Op::recv && e->before == 0)
            t.received[index] = installed;
        installed.clear();
        if (s.observe) {
            auto &alive = t.alive_at[index];
            auto &pending = t.pending_at[index];
            for (const UnixSock &u : k.socks) {
                alive[k.label_of(u)] = !u.released;
                if (!u.released && !k.leaked.count(u.id) && !reachable_from_fds(k, u.id))
                    pending.insert(k.label_of(u));
            }
        }
        ++index;
    }
    if (auto limit = sim.limit_reached())
        t.failure = limit->format();
    for (const UnixSock &u : k.socks)
        t.labels.push_back(k.label_of(u));
    for (const LeakedSocket &l : leaks_of(k))
        t.leaked.push_back(k.label_of_id(l.sock));
    return t;
}

std::map<std::size_t, std::map<std::string, bool>> expected_fates(const ModelTrace &trace)
{
    auto out = trace.alive_at;
    for (auto &[step, fates] : out)
        if (auto it = trace.pending_at.find(step); it != trace.pending_at.end())
            for (const std::string &label : it->second)
                fates.erase(label);
    return out;
}

} // namespace inflight
