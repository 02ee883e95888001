// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/replay_diff.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <set>

namespace inflight {

namespace {

std::string fate(std::optional<bool> alive) { return !alive ? "absent" : *alive ? "alive" : "freed"; }
std::string result(const std::string &err) { return err.empty() ? "ok" : err; }

std::string join(const std::vector<std::string> &v, const char *sep = " ")
{
    std::string out;
    for (const std::string &s : v)
        out += (out.empty() ? "" : sep) + s;
    return out;
}

// The release without its local suffix: "6.18.44" for "6.18.44-fc-v669".
std::string short_release(const ReleaseProfile &p)
{
    if (!p.major)
        return p.release;
    return std::to_string(p.major) + "." + std::to_string(p.minor) + (p.patch ? "." + std::to_string(p.patch) : "");
}

} // namespace

std::size_t ReplayReport::sockets_agree() const
{
    return static_cast<std::size_t>(
        std::count_if(sockets.begin(), sockets.end(), [](const SocketVerdict &v) { return v.agree(); }));
}

ReplayReport compare_replay(const ReplayPlan &plan, const ModelTrace &model, const KernelRun &kernel,
                            const ReleaseProfile &profile)
{
    ReplayReport r;
    r.file = plan.file;
    r.profile = profile;
    r.era = model.era;
    r.kernel = model.kernel;
    r.era_chosen = model.era != profile.era;
    r.unify_scc_index = model.unify_scc_index;
    r.isolation = kernel.isolation;
    auto differ = [&](std::size_t k, std::string what) {
        const ReplayStep &s = plan.steps[k];
        r.differences.push_back(ReplayDifference{k, s.loc, s.text, std::move(what), {}, {}});
    };

    // Statement by statement: errnos and what recv received.
    for (std::size_t k = 0; k < plan.steps.size() && k < kernel.steps.size(); ++k) {
        if (!model.ran[k] && !kernel.steps[k].ran)
            continue;
        ++r.statements;
        const std::string &m = model.errors[k], &kr = kernel.steps[k].error;
        if (m != kr) {
            differ(k, "model " + result(m) + ", kernel " + result(kr));
            continue;
        }
        ++r.statements_agree;
        if (plan.steps[k].op == Op::recv && m.empty() && model.received[k] != kernel.steps[k].received)
            differ(k, "received: model [" + join(model.received[k], ", ") + "], kernel [" +
                          join(kernel.steps[k].received, ", ") + "]");
    }

    // Fates at each observation point; a difference is reported where it starts (or changes),
    // not again at every later point where it persists.
    std::map<std::string, std::string> last_disagreement;
    std::vector<std::string> order = model.labels;
    for (const std::string &l : kernel.labels)
        if (std::find(order.begin(), order.end(), l) == order.end())
            order.push_back(l);
    std::map<std::string, std::optional<bool>> final_model, final_kernel;
    std::set<std::string> final_early;
    for (const KernelObservation &o : kernel.observations) {
        auto mit = model.alive_at.find(o.step);
        if (mit == model.alive_at.end())
            continue;
        const auto pit = model.pending_at.find(o.step);
        std::vector<std::string> early;
        for (const std::string &label : order) {
            std::optional<bool> m, kr;
            if (auto it = mit->second.find(label); it != mit->second.end())
                m = it->second;
            if (auto it = o.alive.find(label); it != o.alive.end())
                kr = it->second;
            if (!m && !kr)
                continue;
            final_model[label] = m;
            final_kernel[label] = kr;
            final_early.erase(label);
            const std::string key = fate(m) + "/" + fate(kr);
            if (m == kr) {
                last_disagreement.erase(label);
                continue;
            }
            if (m && kr && *m && !*kr && pit != model.pending_at.end() && pit->second.count(label)) {
                // Garbage the model has not collected yet, collected by the kernel already.
                early.push_back(label);
                final_early.insert(label);
                continue;
            }
            if (last_disagreement[label] == key)
                continue;
            last_disagreement[label] = key;
            std::string verdicts = "model " + fate(m) + ", kernel " + fate(kr);
            if (!o.settled)
                verdicts += " (the kernel's sockets were still changing after " + std::to_string(o.waited_ms) + " ms)";
            differ(o.step, "socket " + label + ": " + verdicts);
            r.differences.back().label = label;
            r.differences.back().verdicts = std::move(verdicts);
        }
        if (!early.empty())
            r.notes.push_back("line " + std::to_string(plan.steps[o.step].loc.line) + ": " + join(early) +
                              ": garbage no collection had looked at yet in the model, already freed by the kernel: "
                              "its collector is global, and a close anywhere on the host starts it");
        if (!o.settled)
            r.notes.push_back("line " + std::to_string(plan.steps[o.step].loc.line) +
                              ": the kernel's socket set did not settle within " + std::to_string(o.waited_ms) + " ms");
    }
    for (const std::string &label : order)
        if (final_model.count(label) || final_kernel.count(label))
            r.sockets.push_back(
                SocketVerdict{label, final_model[label], final_kernel[label], final_early.count(label) > 0});
    std::stable_sort(r.differences.begin(), r.differences.end(),
                     [](const ReplayDifference &a, const ReplayDifference &b) { return a.step < b.step; });
    r.leaked_on_kernel = kernel.leaked;
    r.leaked_unlabelled = kernel.leaked_unlabelled;
    r.model_leaked = model.leaked;
    // One note per message, with every line it applies to.
    std::vector<std::pair<std::string, std::vector<std::string>>> folded;
    for (const ReplayProblem &n : plan.notes) {
        auto it = std::find_if(folded.begin(), folded.end(), [&](const auto &f) { return f.first == n.message; });
        if (it == folded.end())
            it = folded.insert(folded.end(), {n.message, {}});
        it->second.push_back(std::to_string(n.loc.line));
    }
    for (const auto &[message, lines] : folded)
        r.notes.push_back((lines.size() > 1 ? "lines " : "line ") + join(lines, ", ") + ": " + message);
    bool uses_passrights = false;
    for (const ReplayStep &s : plan.steps)
        uses_passrights = uses_passrights || (s.op == Op::setsockopt && s.option == SockOpt::passrights);
    if (uses_passrights && !kernel.passrights_supported)
        r.notes.push_back("this kernel has no SO_PASSRIGHTS (added in 6.16); the model's era has it");
    if (!kernel.diag_available)
        r.notes.push_back("UNIX_DIAG is not available: unaccepted embryos cannot be seen and read as freed");
    if (!model.failure.empty())
        r.notes.push_back("the model stopped early: " + model.failure);
    return r;
}

std::string agreement_sentence(const ReplayReport &r)
{
    std::string s = "Linux " + short_release(r.profile) + " agrees on " + std::to_string(r.sockets_agree()) + " of " +
                    std::to_string(r.sockets.size()) + " sockets";
    if (r.statements != r.statements_agree)
        s += ", " + std::to_string(r.statements_agree) + " of " + std::to_string(r.statements) + " statements";
    return s;
}

std::string replay_report_text(const ReplayReport &r)
{
    std::string o;
    o += "replay: " + r.file + "\n";
    o += "kernel: Linux " + r.profile.release + ", in a fresh " + r.isolation + "; its era is " +
         std::string(era_name(r.profile.era)) + ": " + r.profile.reason + "\n";
    o += "model:  " + std::string(era_name(r.era)) +
         (r.kernel ? ", kernel profile " + std::string(r.kernel->name) + " (" + std::string(r.kernel->title) + ")"
                   : std::string()) +
         (r.era == GcEra::graph ? (r.unify_scc_index ? ", with the scc_index fix" : ", without the scc_index fix")
                                : "") +
         (r.era_chosen ? ", as chosen with --gc" : "") + "\n\n";
    char line[256];
    std::snprintf(line, sizeof line, "  %-20s %-7s %-7s\n", "socket", "model", "kernel");
    o += line;
    for (const SocketVerdict &v : r.sockets) {
        std::snprintf(line, sizeof line, "  %-20s %-7s %-7s%s\n", v.label.c_str(), fate(v.model_alive).c_str(),
                      fate(v.kernel_alive).c_str(),
                      v.collected_early ? "  (collected early)"
                      : v.agree()       ? ""
                                        : "  <- differs");
        o += line;
    }
    if (!r.differences.empty()) {
        o += "\ndifferences, statement by statement:\n";
        for (std::size_t i = 0; i < r.differences.size();) {
            const ReplayDifference &d = r.differences[i];
            o += "  " + r.file + ":" + std::to_string(d.loc.line) + ": " + d.statement + "\n";
            // The sockets that differ the same way after the same statement, on one line.
            std::size_t j = i + 1;
            if (!d.label.empty()) {
                std::vector<std::string> labels{d.label};
                for (; j < r.differences.size() && r.differences[j].step == d.step &&
                       r.differences[j].verdicts == d.verdicts && !r.differences[j].label.empty();
                     ++j)
                    labels.push_back(r.differences[j].label);
                o += "      " + std::string(labels.size() > 1 ? "sockets " : "socket ") + join(labels) + ": " +
                     d.verdicts + "\n";
            } else {
                o += "      " + d.what + "\n";
            }
            i = j;
        }
    }
    o += "\n" + agreement_sentence(r) + (r.agrees() ? "" : "; they differ") + "\n";
    if (!r.leaked_on_kernel.empty() || r.leaked_unlabelled) {
        o += "leaked on this kernel: " + join(r.leaked_on_kernel);
        if (r.leaked_unlabelled)
            o += "\n  and " + std::to_string(r.leaked_unlabelled) +
                 " more the kernel still counts but no longer lists: released sockets kept allocated\n"
                 "  by the messages they sent, which sit in the leaked queues";
        o += "\n  (every replay process exited and a collection ran; the kernel keeps these sockets, and the\n"
             "   memory of their queues, until that kernel reboots: nothing can reach them to close them)\n";
        if (!r.model_leaked.empty())
            o += "  the model also leaves " + join(r.model_leaked) + " unreachable\n";
    }
    for (const std::string &n : r.notes)
        o += "note: " + n + "\n";
    return o;
}

std::string replay_report_json(const ReplayReport &r)
{
    nlohmann::ordered_json j;
    j["file"] = r.file;
    j["kernel"] = r.profile.release;
    j["isolation"] = r.isolation;
    j["model"] = {{"era", era_name(r.era)},
                  {"kernel", r.kernel ? std::string(r.kernel->name) : std::string()},
                  {"unify_scc_index", r.unify_scc_index},
                  {"reason", r.profile.reason}};
    j["agrees"] = r.agrees();
    j["summary"] = agreement_sentence(r);
    nlohmann::ordered_json socks = nlohmann::ordered_json::array();
    for (const SocketVerdict &v : r.sockets)
        socks.push_back({{"label", v.label},
                         {"model", fate(v.model_alive)},
                         {"kernel", fate(v.kernel_alive)},
                         {"agree", v.agree()},
                         {"collected_early", v.collected_early}});
    j["sockets"] = std::move(socks);
    nlohmann::ordered_json diffs = nlohmann::ordered_json::array();
    for (const ReplayDifference &d : r.differences)
        diffs.push_back({{"line", d.loc.line}, {"col", d.loc.col}, {"statement", d.statement}, {"what", d.what}});
    j["differences"] = std::move(diffs);
    j["statements"] = r.statements;
    j["statements_agree"] = r.statements_agree;
    j["leaked_on_kernel"] = r.leaked_on_kernel;
    j["leaked_unlabelled"] = r.leaked_unlabelled;
    j["model_leaked"] = r.model_leaked;
    j["notes"] = r.notes;
    return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

} // namespace inflight
