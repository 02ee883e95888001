// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/export_c.hpp"

#include "export_c_runtime.hpp"

#include <optional>

namespace inflight {

namespace {

std::string c_string(const std::string &s)
{
    std::string out = "\"";
    for (char ch : s) {
        if (ch == '"' || ch == '\\')
            out += '\\';
        if (static_cast<unsigned char>(ch) < 0x20)
            continue;
        out += ch;
    }
    return out + "\"";
}

std::string c_opt_string(const std::optional<std::string> &s) { return s ? c_string(*s) : "NULL"; }

// (const char *const[]){"a", "b", NULL}
std::string c_list(const std::vector<std::string> &v)
{
    std::string out = "(const char *const[]){";
    for (const std::string &s : v)
        out += c_string(s) + ", ";
    return out + "NULL}";
}

std::string c_errno(const std::string &name) { return name.empty() ? "0" : name; }

const char *c_type(SockType t)
{
    switch (t) {
    case SockType::dgram: return "SOCK_DGRAM";
    case SockType::seqpacket: return "SOCK_SEQPACKET";
    default: return "SOCK_STREAM";
    }
}

// Comment text that cannot end the comment early.
std::string comment_safe(std::string s)
{
    for (std::size_t at; (at = s.find("*/")) != std::string::npos;)
        s.replace(at, 2, "* /");
    return s;
}

} // namespace

ExportResult export_c(const ReplayPlan &plan, const ModelTrace &model, const std::string &title,
                      const std::string &model_name)
{
    ExportResult r;
    r.problems = plan.problems;
    if (plan.processes.size() > 1)
        for (const ReplayStep &s : plan.steps)
            if (s.op == Op::process_decl)
                r.problems.push_back({s.loc, "export-c writes a one-process program; process '" + s.names[0] +
                                                 "' would need a fork per scene process (replay can run it)"});
    if (!model.failure.empty())
        r.problems.push_back({SourceLoc{}, "the model did not finish the scene: " + model.failure});
    if (!r.problems.empty())
        return r;

    // Labels of the sockets each connect makes, from the model: the program names them the same.
    std::string body;
    auto model_has = [&](const std::string &label) {
        for (const std::string &l : model.labels)
            if (l == label)
                return true;
        return false;
    };
    // embryo(X): the model labels the embryo after the connecting socket's label, which is the
    // client's fd name unless the client came from a recv; then the program leaves it unlabelled.
    for (std::size_t k = 0; k < plan.steps.size(); ++k) {
        const ReplayStep &s = plan.steps[k];
        const int line = static_cast<int>(s.loc.line);
        const std::string want = c_errno(model.errors[k]);
        const std::string stmt = c_string(s.text);
        const std::string at = "\t" + std::string("/* line ") + std::to_string(line) + " */ ";
        switch (s.op) {
        case Op::socketpair:
            body += at + "do_socketpair(" + std::to_string(line) + ", " + stmt + ", " + c_type(s.type) + ", " +
                    c_string(s.names[0]) + ", " + c_string(s.names[1]) + ", " + want + ");\n";
            break;
        case Op::socket:
            body += at + "do_socket(" + std::to_string(line) + ", " + stmt + ", " + c_type(s.type) + ", " +
                    c_string(s.names[0]) + ", " + want + ");\n";
            break;
        case Op::bind:
            body += at + "do_bind(" + std::to_string(line) + ", " + stmt + ", " + c_string(s.names[0]) + ", " +
                    c_opt_string(s.address) + ", " + want + ");\n";
            break;
        case Op::listen:
            body += at + "do_listen(" + std::to_string(line) + ", " + stmt + ", " + c_string(s.names[0]) + ", " + want +
                    ");\n";
            break;
        case Op::connect: {
            const std::string embryo = "embryo(" + s.names[0] + ")";
            const std::string embryo_arg = model_has(embryo) && model.errors[k].empty() ? c_string(embryo) : "NULL";
            body += at + "do_connect(" + std::to_string(line) + ", " + stmt + ", " + c_string(s.names[0]) + ", " +
                    c_opt_string(s.address) + ", " + (s.names.size() > 1 ? c_string(s.names[1]) : "NULL") + ", " +
                    embryo_arg + ", " + want + ");\n";
            break;
        }
        case Op::accept:
            body += at + "do_accept(" + std::to_string(line) + ", " + stmt + ", " + c_string(s.names[0]) + ", " +
                    c_string(s.names[1]) + ", " + want + ");\n";
            break;
        case Op::send:
            body += at + "do_send(" + std::to_string(line) + ", " + stmt + ", " + c_string(s.names[0]) + ", " +
                    c_list(s.fds) + ", " + std::to_string(s.fds.size()) + ", " + std::to_string(s.bytes) + ", " +
                    (s.oob ? "1" : "0") + ", " + c_opt_string(s.address) + ", " + want + ");\n";
            break;
        case Op::recv:
            body += at + "do_recv(" + std::to_string(line) + ", " + stmt + ", " + c_string(s.names[0]) + ", " +
                    c_list(s.fds) + ", " + std::to_string(s.fds.size()) + ", " + c_list(model.received[k]) + ", " +
                    std::to_string(model.received[k].size()) + ", " + (s.peek ? "1" : "0") + ", " +
                    (s.oob ? "1" : "0") + ", " + want + ");\n";
            break;
        case Op::dup:
            body += at + "do_dup(" + std::to_string(line) + ", " + stmt + ", " + c_string(s.names[0]) + ", " +
                    c_string(s.names[1]) + ", " + want + ");\n";
            break;
        case Op::close:
            body +=
                at + "do_close(" + std::to_string(line) + ", " + stmt + ", " + c_list(s.names) + ", " + want + ");\n";
            break;
        case Op::setsockopt:
            body += at + "do_setsockopt(" + std::to_string(line) + ", " + stmt + ", " + c_string(s.names[0]) + ", " +
                    (s.option == SockOpt::passrights ? "SO_PASSRIGHTS" : "SO_PASSCRED") + ", " +
                    (s.option_value ? "1" : "0") + ", " + want + ");\n";
            break;
        case Op::gc: body += at + "gc();\n"; break;
        case Op::note: body += "\t/* " + comment_safe(s.text) + " */\n"; break;
        default: break;
        }
        if (s.observe) {
            auto it = model.alive_at.find(k);
            if (it != model.alive_at.end() && !it->second.empty()) {
                std::vector<std::string> expect;
                for (const std::string &label : model.labels) {
                    auto f = it->second.find(label);
                    if (f == it->second.end())
                        continue;
                    expect.push_back(label);
                    const auto pending = model.pending_at.find(k);
                    const bool garbage = pending != model.pending_at.end() && pending->second.count(label);
                    expect.push_back(!f->second ? "f" : garbage ? "g" : "a");
                }
                body += "\tcheck_fates(" + std::to_string(line) + ", " + stmt + ", " + c_list(expect) + ");\n";
            }
        }
    }

    std::string src;
    src += "// SPDX-License-Identifier: GPL-3.0-or-later\n";
    src += "/* " + comment_safe(title) + "\n";
    src += " *\n * Written by inflight-cli export-c from " + comment_safe(plan.file) + ".\n";
    src += " * The scene, performed with real AF_UNIX syscalls in a fresh network namespace. Every\n"
           " * statement's errno and, after each close, recv and gc, every socket's fate (found by inode in\n"
           " * /proc/net/unix and UNIX_DIAG) are checked against the model: " +
           comment_safe(model_name) + ".\n";
    src += " * Build: cc -static -O2 -o scene scene.c   Run as root (or where user namespaces are allowed).\n"
           " * Exit 0: the kernel did what the model predicts; 1: it did not (each FAIL line says where).\n"
           " */\n";
    src += realkernel::kExportRuntime;
    src += "\nint main(void)\n{\n\tsetvbuf(stdout, NULL, _IOLBF, 0);\n\tenter_namespace();\n"
           "\tdiag_fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);\n\n";
    src += body;
    src += "\n\tif (failures) {\n\t\tprintf(\"%d mismatches with the model\\n\", failures);\n\t\treturn 1;\n\t}\n"
           "\tprintf(\"ok: the kernel agrees with the model\\n\");\n\treturn 0;\n}\n";
    r.source = std::move(src);
    return r;
}

} // namespace inflight
