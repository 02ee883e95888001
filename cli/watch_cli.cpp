// SPDX-License-Identifier: GPL-3.0-or-later
#include "watch_cli.hpp"

#include "run_progress.hpp"

#include "inflight/kernel_queries.hpp"
#include "inflight/report.hpp"
#include "inflight/simulation.hpp"

namespace inflight::cli {

std::optional<std::string> Watches::add_watch(const std::string &expr)
{
    WatchError e;
    std::optional<Watch> w = Watch::parse(expr, &e);
    if (!w)
        return "--watch '" + expr + "': " + e.format();
    watches_.emplace_back(std::move(*w));
    return std::nullopt;
}

std::optional<std::string> Watches::add_break(const std::string &spec)
{
    WatchError e;
    std::optional<LineBreakpoint> b = LineBreakpoint::parse(spec, &e);
    if (!b)
        return "--break '" + spec + "': " + e.format();
    breaks_.push_back(std::move(*b));
    return std::nullopt;
}

std::optional<std::string> Watches::check_scene(const Scene &scene) const
{
    for (const LineBreakpoint &b : breaks_) {
        if (!scene_has_statement_on_line(scene, b.line()))
            return "--break '" + b.text() + "': " + scene.file + ":" + std::to_string(b.line()) +
                   " has no statement, so the breakpoint could never stop";
        if (b.condition())
            if (auto problem = watch_subject_problem(*b.condition(), scene))
                return "--break '" + b.text() + "': " + *problem;
    }
    for (const Watchpoint &w : watches_)
        if (auto problem = watch_subject_problem(w.watch(), scene))
            return "--watch '" + w.watch().text() + "': " + *problem;
    return std::nullopt;
}

Hits Watches::run(Simulation &sim, RunProgress &progress, const std::function<void(const Event &)> &each_step)
{
    Hits hits;
    hits.limit = sim.budget()[Budget::hits];
    auto add = [&](Hit &&h) {
        if (hits.listed.size() < hits.limit)
            hits.listed.push_back(std::move(h));
        else
            ++hits.not_listed;
    };
    for (Watchpoint &w : watches_)
        w.reset(sim.kernel()); // step 0: nothing has run
    while (const Event *e = sim.step()) {
        if (each_step)
            each_step(*e);
        const Kernel &k = sim.kernel();
        for (std::size_t i = 0; i < breaks_.size(); ++i)
            if (breaks_[i].hits(*e, k))
                add(Hit{false, i + 1, breaks_[i].text(), e->step, e->scene_line, {}, {}});
        for (std::size_t i = 0; i < watches_.size(); ++i)
            if (auto c = watches_[i].check(k))
                add(Hit{true, i + 1, watches_[i].watch().text(), e->step, e->scene_line, std::move(c->before),
                        std::move(c->after)});
        if (!progress.tick(sim))
            break;
    }
    return hits;
}

std::vector<std::string> Watches::never_existed(const Simulation &sim) const
{
    std::vector<std::string> out;
    const Kernel &k = sim.kernel();
    auto check = [&](const Watch &x, const std::string &option) {
        if (x.subject().empty())
            return;
        const bool user = x.field() == Watch::Field::user_inflight;
        if (user ? !has_user(k, x.subject()) : !socket_labelled(k, x.subject()))
            out.push_back(option + ": no " + (user ? "user" : "socket labelled") + " '" + x.subject() +
                          "' exists in this run, so it read none throughout");
    };
    for (const Watchpoint &w : watches_)
        check(w.watch(), "--watch '" + w.watch().text() + "'");
    for (const LineBreakpoint &b : breaks_)
        if (b.condition())
            check(*b.condition(), "--break '" + b.text() + "'");
    return out;
}

std::string hit_line(const Hit &h)
{
    if (h.is_watch)
        return "watch " + std::to_string(h.number) + " (" + h.expr + ") at step " + std::to_string(h.step) + " line " +
               std::to_string(h.line) + ": " + h.before + " -> " + h.after;
    const std::string::size_type cond = h.expr.find(" if ");
    return "break line " + std::to_string(h.line) +
           (cond == std::string::npos ? std::string() : " (" + h.expr.substr(cond + 1) + ")") + " at step " +
           std::to_string(h.step);
}

std::string hits_not_listed_line(const Hits &hits)
{
    if (hits.not_listed == 0)
        return {};
    return "... and " + group_digits(hits.not_listed) +
           " more hits, not listed: " + budget_message(BudgetBreach{Budget::hits, hits.limit, {}});
}

std::string json_with_hits(std::string report, const Hits &hits)
{
    // report_json() ends its object with "\n}\n": the hits go in as its last member.
    const std::string tail = "\n}\n";
    if (report.size() < tail.size() || report.compare(report.size() - tail.size(), tail.size(), tail) != 0)
        return report;
    report.resize(report.size() - tail.size());
    auto q = [](const std::string &s) { return "\"" + json_escape(s) + "\""; };
    std::string o = ",\n  \"hits\": [";
    bool first = true;
    for (const Hit &h : hits.listed) {
        o += first ? "\n" : ",\n";
        first = false;
        o += "    {\"kind\": " + q(h.is_watch ? "watch" : "break") + ", \"number\": " + std::to_string(h.number) +
             ", \"expr\": " + q(h.expr) + ", \"step\": " + std::to_string(h.step) +
             ", \"line\": " + std::to_string(h.line);
        if (h.is_watch)
            o += ", \"before\": " + q(h.before) + ", \"after\": " + q(h.after);
        o += "}";
    }
    o += first ? "]" : "\n  ]";
    if (hits.not_listed)
        o += ",\n  \"hits_not_listed\": " + std::to_string(hits.not_listed);
    return report + o + tail;
}

} // namespace inflight::cli
