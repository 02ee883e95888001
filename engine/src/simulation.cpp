#include "inflight/simulation.hpp"

#include "inflight/invariants.hpp"
#include "inflight/name_template.hpp"

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

} // namespace

KernelConfig kernel_config_for(const Scene &scene, const SimulationOptions &options)
{
    KernelConfig c;
    c.era = options.era.value_or(scene.settings.gc);
    c.fix_unify_scc_index = scene.settings.fix_unify_scc_index;
    c.nofile = scene.settings.nofile;
    c.seed = options.seed.value_or(scene.settings.seed);
    return c;
}

Simulation::Simulation(std::shared_ptr<const Scene> scene, SimulationOptions options)
    : scene_(std::move(scene)), kernel_(kernel_config_for(*scene_, options)),
      checked_(options.checked.value_or(scene_->settings.checked)), record_(options.record),
      cursor_(scene_->statements)
{
    script_ = script();
}

bool Simulation::gc_in_progress() const
{
    return !kernel_.gc_runs.empty() && kernel_.gc_runs.back().last_step == 0;
}

std::size_t Simulation::expectations_failed() const
{
    std::size_t n = 0;
    for (const auto &e : expectations_)
        n += !e.passed;
    return n;
}

const Event *Simulation::step()
{
    if (finished_)
        return nullptr;
    kernel_.step_hint = steps_;
    const Event *e = script_.next();
    if (!e) {
        finished_ = true;
        stopped_by_finding_ = kernel_.findings.size() > findings_seen_;
        return nullptr;
    }
    last_ = *e;
    last_.step = ++steps_;
    last_.scene_line = line_;
    if (checked_)
        check_step_invariants(kernel_);
    if (kernel_.findings.size() > findings_seen_) {
        // A broken invariant ends the run here: the state is shown as it is, for inspection.
        findings_seen_ = kernel_.findings.size();
        finished_ = true;
        stopped_by_finding_ = true;
    }
    if (record_)
        events_.push_back(last_);
    return &last_;
}

bool Simulation::step_over()
{
    bool any = false;
    while (const Event *e = step()) {
        any = true;
        if (e->kind == EventKind::stmt_end)
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

void Simulation::run()
{
    while (step()) {
    }
}

void Simulation::flush_failure()
{
    if (pending_failure_) {
        warnings_.push_back({pending_failure_->line, pending_failure_->what});
        pending_failure_.reset();
    }
}

void Simulation::expect(const Statement &s, const Bindings &b)
{
    auto add = [&](bool ok, std::string msg) { expectations_.push_back({s.loc.line, ok, std::move(msg)}); };
    if (s.op == Op::expect_error) {
        const std::string want(errno_name(s.error));
        if (!last_result_) {
            add(false, "expected " + want + ", but no syscall ran before");
        } else if (*last_result_ == s.error) {
            add(true, "line " + std::to_string(last_result_line_) + " failed with " + want);
            pending_failure_.reset();
        } else {
            add(false, "expected line " + std::to_string(last_result_line_) + " to fail with " + want + ", but it " +
                           (*last_result_ == Errno::none ? std::string("succeeded")
                                                         : "failed with " + std::string(errno_name(*last_result_))));
        }
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

Proc Simulation::execute(const Statement &s, Process &p, SysResult &r, bool &is_syscall)
{
    // Operands are expanded into locals first: GCC 12 mishandles temporaries (notably from
    // ?:) inside a co_yield expression, so no call below builds its arguments in place.
    const Bindings &b = cursor_.bindings();
    const std::string n0 = s.names.empty() ? std::string() : expand(s.names[0], b);
    const std::string n1 = s.names.size() > 1 ? expand(s.names[1], b) : std::string();
    const std::optional<std::string> address = expand_address(s, b);
    is_syscall = true;
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
    case Op::user_decl:
        is_syscall = false;
        kernel_.add_user(s.names[0].text);
        break;
    case Op::process_decl: {
        is_syscall = false;
        User *u = s.text.empty() ? &kernel_.root() : kernel_.find_user(s.text);
        kernel_.add_process(s.names[0].text, u ? *u : kernel_.root());
        break;
    }
    case Op::note: {
        is_syscall = false;
        const Event e = kernel_.ev(EventKind::note, KFn::scene);
        co_yield e;
        break;
    }
    default: {
        is_syscall = false;
        expect(s, b);
        const Event e = kernel_.ev(EventKind::expect_result, KFn::scene, npos, npos, npos,
                                   expectations_.empty() ? 0 : expectations_.back().passed);
        co_yield e;
        break;
    }
    }
}

Proc Simulation::script()
{
    while (cursor_.next()) {
        const Statement &s = cursor_.current();
        line_ = s.loc.line;
        ++statements_;
        co_yield kernel_.ev(EventKind::stmt_begin, KFn::scene, static_cast<std::uint32_t>(statements_));
        Process *p = s.process.empty() ? &kernel_.processes.front() : kernel_.find_process(s.process);
        if (!p)
            p = &kernel_.processes.front(); // check_scene() rejects unknown processes
        kernel_.current = p;
        SysResult r;
        bool is_syscall = false;
        const bool is_expect_error = s.op == Op::expect_error;
        if (!is_expect_error && s.op != Op::note && s.op != Op::expect_freed && s.op != Op::expect_alive &&
            s.op != Op::expect_inflight && s.op != Op::expect_queue)
            flush_failure(); // the failure before this statement was not expected
        co_yield execute(s, *p, r, is_syscall);
        co_yield kernel_.run_task_work(*p);
        co_yield kernel_.run_workqueue();
        kernel_.current = nullptr;
        if (is_syscall) {
            last_result_ = r.err;
            last_result_line_ = s.loc.line;
            if (r.err != Errno::none)
                pending_failure_ = Failure{s.loc.line,
                                           std::string(op_name(s.op)) + " failed with " + std::string(errno_name(r.err)) +
                                               " (" + std::string(errno_text(r.err)) + ")",
                                           r.err};
        }
        if (checked_)
            check_quiescent_invariants(kernel_);
        co_yield kernel_.ev(EventKind::stmt_end, KFn::scene, static_cast<std::uint32_t>(statements_), npos, npos,
                            static_cast<std::int64_t>(r.err), r.value);
    }
    flush_failure();
    co_yield kernel_.run_workqueue();
    check_quiescent_invariants(kernel_);
}

} // namespace inflight
