// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/export_c.hpp"

#include "export_c_runtime.hpp"
#include "inflight/c_literal.hpp"
#include "inflight/errno_code.hpp"
#include "inflight/utf8.hpp"

#include <optional>

namespace inflight {

namespace {

// Everything a scene wrote reaches the C source through c_literal() alone; what the program only
// shows (statements, notes, the title, the file name) is made terminal-safe first.
std::string c_shown(const std::string &s) { return c_literal(printable(s)); }

std::string c_opt_string(const std::optional<std::string> &s) { return s ? c_literal(*s) : "NULL"; }

// (const char *const[]){"a", "b", NULL}
std::string c_list(const std::vector<std::string> &v)
{
    std::string out = "(const char *const[]){";
    for (const std::string &s : v)
        out += c_literal(s) + ", ";
    return out + "NULL}";
}

// The errno a statement expects, as the <errno.h> macro: only names of the model's errno table
// become identifiers; anything else is no errno this program can check.
std::optional<std::string> c_errno(const std::string &name)
{
    if (name.empty())
        return "0";
    if (parse_errno(name))
        return name;
    return std::nullopt;
}

const char *c_type(SockType t)
{
    switch (t) {
    case SockType::dgram: return "SOCK_DGRAM";
    case SockType::seqpacket: return "SOCK_SEQPACKET";
    default: return "SOCK_STREAM";
    }
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
    else if (model.errors.size() != plan.steps.size() || model.received.size() != plan.steps.size())
        r.problems.push_back({SourceLoc{}, "the model's trace is not of this plan"});
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
        const std::optional<std::string> errno_macro = c_errno(model.errors[k]);
        if (!errno_macro) {
            r.problems.push_back(
                {s.loc, "the model expects an errno outside its table: " + printable(model.errors[k])});
            continue;
        }
        const std::string &want = *errno_macro;
        const std::string stmt = c_shown(s.text);
        const std::string at = "\t" + std::string("/* line ") + std::to_string(line) + " */ ";
        switch (s.op) {
        case Op::socketpair:
            body += at + "do_socketpair(" + std::to_string(line) + ", " + stmt + ", " + c_type(s.type) + ", " +
                    c_literal(s.names[0]) + ", " + c_literal(s.names[1]) + ", " + want + ");\n";
            break;
        case Op::socket:
            body += at + "do_socket(" + std::to_string(line) + ", " + stmt + ", " + c_type(s.type) + ", " +
                    c_literal(s.names[0]) + ", " + want + ");\n";
            break;
        case Op::bind:
            body += at + "do_bind(" + std::to_string(line) + ", " + stmt + ", " + c_literal(s.names[0]) + ", " +
                    c_opt_string(s.address) + ", " + want + ");\n";
            break;
        case Op::listen:
            body += at + "do_listen(" + std::to_string(line) + ", " + stmt + ", " + c_literal(s.names[0]) + ", " +
                    want + ");\n";
            break;
        case Op::connect: {
            const std::string embryo = "embryo(" + s.names[0] + ")";
            const std::string embryo_arg = model_has(embryo) && model.errors[k].empty() ? c_literal(embryo) : "NULL";
            body += at + "do_connect(" + std::to_string(line) + ", " + stmt + ", " + c_literal(s.names[0]) + ", " +
                    c_opt_string(s.address) + ", " + (s.names.size() > 1 ? c_literal(s.names[1]) : "NULL") + ", " +
                    embryo_arg + ", " + want + ");\n";
            break;
        }
        case Op::accept:
            body += at + "do_accept(" + std::to_string(line) + ", " + stmt + ", " + c_literal(s.names[0]) + ", " +
                    c_literal(s.names[1]) + ", " + want + ");\n";
            break;
        case Op::send:
            body += at + "do_send(" + std::to_string(line) + ", " + stmt + ", " + c_literal(s.names[0]) + ", " +
                    c_list(s.fds) + ", " + std::to_string(s.fds.size()) + ", " + std::to_string(s.bytes) + ", " +
                    (s.oob ? "1" : "0") + ", " + c_opt_string(s.address) + ", " + want + ");\n";
            break;
        case Op::recv:
            body += at + "do_recv(" + std::to_string(line) + ", " + stmt + ", " + c_literal(s.names[0]) + ", " +
                    c_list(s.fds) + ", " + std::to_string(s.fds.size()) + ", " + c_list(model.received[k]) + ", " +
                    std::to_string(model.received[k].size()) + ", " + (s.peek ? "1" : "0") + ", " +
                    (s.oob ? "1" : "0") + ", " + want + ");\n";
            break;
        case Op::dup:
            body += at + "do_dup(" + std::to_string(line) + ", " + stmt + ", " + c_literal(s.names[0]) + ", " +
                    c_literal(s.names[1]) + ", " + want + ");\n";
            break;
        case Op::close:
            body +=
                at + "do_close(" + std::to_string(line) + ", " + stmt + ", " + c_list(s.names) + ", " + want + ");\n";
            break;
        case Op::setsockopt:
            body += at + "do_setsockopt(" + std::to_string(line) + ", " + stmt + ", " + c_literal(s.names[0]) + ", " +
                    (s.option == SockOpt::passrights ? "SO_PASSRIGHTS" : "SO_PASSCRED") + ", " +
                    (s.option_value ? "1" : "0") + ", " + want + ");\n";
            break;
        case Op::gc: body += at + "gc();\n"; break;
        case Op::note: body += "\tprint_note(" + std::to_string(line) + ", " + stmt + ");\n"; break;
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

    if (!r.problems.empty())
        return r;

    std::string src = realkernel::kExportHeader;
    src += realkernel::kExportRuntime;
    src += "\nstatic const char scene_title[] = " + c_shown(title) + ";\n";
    src += "static const char scene_file[] = " + c_shown(plan.file) + ";\n";
    src += "static const char model_name[] = " + c_shown(model_name) + ";\n";
    src += realkernel::kExportMainBegin;
    src += body;
    src += realkernel::kExportMainEnd;
    r.source = std::move(src);
    return r;
}

} // namespace inflight
