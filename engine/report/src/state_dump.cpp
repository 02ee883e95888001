// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/state_dump.hpp"

#include "inflight/kernel.hpp"
#include "inflight/narrate.hpp"
#include "inflight/report.hpp"
#include "inflight/simulation.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>

namespace inflight {

namespace {

// Field order as written: a reader compares the JSON with the text side by side.
using json = nlohmann::ordered_json;

std::string dump(const json &j, int indent = -1)
{
    // Labels and fd names come from scene files: a stray byte must not make the output invalid.
    return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

std::string flags_word(unsigned f)
{
    std::string out;
    if (f & UNIX_GC_CANDIDATE)
        out = "CANDIDATE";
    if (f & UNIX_GC_MAYBE_CYCLE)
        out += out.empty() ? "MAYBE_CYCLE" : "|MAYBE_CYCLE";
    return out.empty() ? "none" : out;
}

json globals(const Kernel &k)
{
    json g;
    g["unix_tot_inflight"] = k.unix_tot_inflight;
    json users = json::array();
    for (const User &u : k.users)
        users.push_back({{"name", u.name}, {"uid", u.uid}, {"unix_inflight", u.unix_inflight}});
    g["users"] = users;
    g["gc_in_progress"] = k.gc_in_progress;
    g["gc_phase"] = std::string(gc_phase_name(k.gc_phase));
    if (k.era() == GcEra::graph)
        g["graph"] = {{"maybe_cyclic", k.graph_maybe_cyclic},
                      {"grouped", k.graph_grouped},
                      {"unvisited_index", k.unvisited_index},
                      {"grouped_index", k.grouped_index},
                      {"max_scc_index", k.max_scc_index}};
    else
        g["graph"] = nullptr;
    g["hitlist"] = k.hitlist.size();
    g["gc_runs"] = k.gc_runs_total();
    return g;
}

std::string skb_word(const Kernel &k, const SkBuff &skb)
{
    std::string s = "skb #" + std::to_string(skb.id);
    if (skb.fp && skb.fp->count()) {
        s += " [";
        bool first = true;
        for (const File *f : skb.fp->fp) {
            s += (first ? "" : ",") + (f && f->sock ? k.label_of(*f->sock) : std::string("-"));
            first = false;
        }
        s += "]";
    }
    if (skb.sk && skb.sk->state == SockState::embryo && skb.sk != skb.receiver)
        s += " embryo " + k.label_of(*skb.sk);
    return s;
}

json socket_json(const Kernel &k, const UnixSock &u)
{
    json s;
    s["label"] = k.label_of(u);
    s["type"] = std::string(sock_type_name(u.type));
    s["state"] = std::string(sock_state_name(u.state));
    s["file_refs"] = u.file ? u.file->count : 0;
    s["fd_refs"] = u.file ? k.fd_refs(*u.file) : 0;
    if (k.era() == GcEra::graph) {
        s["out_degree"] = u.vertex ? u.vertex->out_degree : 0;
        if (u.vertex)
            s["vertex"] = {{"index", u.vertex->index},
                           {"scc_index", u.vertex->scc_index},
                           {"list", on_visited_list(k, *u.vertex) ? "visited_vertices" : "unvisited_vertices"}};
        else
            s["vertex"] = nullptr;
    } else {
        s["inflight"] = u.inflight;
        s["gc_flags"] = flags_word(u.gc_flags);
        s["list"] = std::string(list_name(u.on));
    }
    s["queue"] = u.receive_queue.size();
    s["nr_fds"] = u.nr_fds;
    s["released"] = u.released;
    s["freed_by"] = u.released ? json(std::string(freed_by_name(u.freed_by))) : json(nullptr);
    return s;
}

template <class List>
json labels_of(const Kernel &k, const List &l)
{
    json a = json::array();
    for (const GcLink &x : l)
        a.push_back(x.is_cursor ? std::string("(cursor)") : k.label_of(static_cast<const UnixSock &>(x)));
    return a;
}

json lists(const Kernel &k)
{
    json l;
    if (k.era() != GcEra::graph) {
        l["gc_inflight_list"] = labels_of(k, k.gc_inflight_list);
        l["gc_candidates"] = labels_of(k, k.gc_candidates);
        l["not_cycle_list"] = labels_of(k, k.not_cycle_list);
    } else {
        auto vertices = [&](const VertexList &vl) {
            json a = json::array();
            for (const UnixVertex &v : vl)
                a.push_back(v.sock ? k.label_of(*v.sock) : std::string("(freed)"));
            return a;
        };
        l["unvisited_vertices"] = vertices(k.unvisited_vertices);
        l["visited_vertices"] = vertices(k.visited_vertices);
        json vs = json::array(), es = json::array();
        for (const UnixVertex *v : k.vertex_stack_view)
            vs.push_back(v && v->sock ? k.label_of(*v->sock) : std::string("(freed)"));
        for (const UnixEdge *e : k.edge_stack_view)
            es.push_back(k.label_of(*e->predecessor) + " -> " + k.label_of(*e->successor));
        l["vertex_stack"] = vs;
        l["edge_stack"] = es;
    }
    json h = json::array();
    for (const SkBuff &skb : k.hitlist)
        h.push_back(skb_word(k, skb));
    l["hitlist"] = h;
    return l;
}

} // namespace

std::string globals_json(const Kernel &k) { return dump(globals(k)); }

std::string state_json(const Simulation &sim)
{
    const Kernel &k = sim.kernel();
    json j;
    j["scene"] = sim.scene().title;
    j["file"] = sim.scene().file;
    j["gc"] = std::string(era_name(k.era()));
    j["step"] = sim.steps();
    j["line"] = sim.current_line();
    j["finished"] = sim.finished();
    json socks = json::array();
    for (const UnixSock &u : k.socks)
        socks.push_back(socket_json(k, u));
    j["sockets"] = socks;
    j["lists"] = lists(k);
    j["globals"] = globals(k);
    return dump(j, 2) + "\n";
}

std::string state_text(const Simulation &sim)
{
    const Kernel &k = sim.kernel();
    const bool graph = k.era() == GcEra::graph;
    std::ostringstream o;
    o << "scene: " << sim.scene().title << "\n";
    o << "collector: " << era_name(k.era()) << ", " << kernel_text(k) << "\n";
    o << "state at step " << sim.steps() << " (line " << sim.current_line() << ")"
      << (sim.finished() ? ", the end of the run" : "") << "\n\nsockets:\n";
    for (const UnixSock &u : k.socks) {
        char line[320];
        const long refs = u.file ? u.file->count : 0;
        std::string gc;
        if (graph) {
            gc = "out_degree " + std::to_string(u.vertex ? u.vertex->out_degree : 0);
            if (u.vertex)
                gc += " index " + std::to_string(u.vertex->index) + " scc_index " +
                      std::to_string(u.vertex->scc_index) + (on_visited_list(k, *u.vertex) ? " visited" : " unvisited");
        } else {
            gc = "inflight " + std::to_string(u.inflight) + " flags " + flags_word(u.gc_flags) +
                 (u.on == ListId::none ? std::string() : " on " + std::string(list_name(u.on)));
        }
        std::snprintf(line, sizeof line, "  %-18s %-9s %-11s refs %-3ld fds %-3u %s  queue %zu%s\n",
                      k.label_of(u).c_str(), std::string(sock_type_name(u.type)).c_str(),
                      std::string(sock_state_name(u.state)).c_str(), refs, u.file ? k.fd_refs(*u.file) : 0u, gc.c_str(),
                      u.receive_queue.size(),
                      u.released ? ("  released (" + std::string(freed_by_name(u.freed_by)) + ")").c_str() : "");
        o << line;
    }
    const json l = lists(k);
    o << "\nlists (in order):\n";
    for (const auto &[name, items] : l.items()) {
        o << "  " << name << ":";
        if (items.empty())
            o << " (empty)";
        for (const auto &i : items)
            o << " " << i.get<std::string>();
        o << "\n";
    }
    o << "\nglobals:\n";
    o << "  unix_tot_inflight " << k.unix_tot_inflight << "\n";
    for (const User &u : k.users)
        o << "  user " << u.name << " (uid " << u.uid << ") unix_inflight " << u.unix_inflight << "\n";
    o << "  gc_in_progress " << (k.gc_in_progress ? "true" : "false") << ", phase " << gc_phase_name(k.gc_phase)
      << "\n";
    if (graph)
        o << "  unix_graph_maybe_cyclic " << (k.graph_maybe_cyclic ? "true" : "false") << ", unix_graph_grouped "
          << (k.graph_grouped ? "true" : "false") << "\n  unix_vertex_unvisited_index " << k.unvisited_index
          << ", unix_vertex_grouped_index " << k.grouped_index << ", unix_vertex_max_scc_index " << k.max_scc_index
          << "\n";
    o << "  hitlist " << k.hitlist.size() << " skb(s), collections so far " << k.gc_runs_total() << "\n";
    return o.str();
}

std::string trace_json_line(const Event &e, const Kernel &k, const Scene *scene)
{
    json j;
    j["step"] = e.step;
    j["line"] = e.scene_line;
    j["fn"] = std::string(kfn_name(e.fn));
    j["kind"] = std::string(event_kind_name(e.kind));
    j["text"] = describe(e, k, scene);
    j["task"] = e.task;
    j["time_ns"] = e.time;
    return dump(j);
}

std::string compact_json(const std::string &text)
{
    // Parsing re-checks what the hand-written report produced. Should it ever fail, the text
    // still goes out on one line: its line breaks are all between tokens (strings escape them).
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) {
        std::string one = text;
        for (char &c : one)
            if (c == '\n')
                c = ' ';
        return one;
    }
    return dump(j);
}

std::string why_json(const Kernel &k, const WhyAlive &w, std::uint64_t step)
{
    json j;
    j["socket"] = k.label_of_id(w.sock);
    j["step"] = step;
    j["verdict"] = std::string(why_verdict_name(w.verdict));
    j["rule"] = w.rule;
    j["reason"] = w.reason;
    json chain = json::array();
    for (const WhyHop &h : w.chain) {
        static constexpr const char *kinds[] = {"fd", "skb", "embryo", "oob_skb"};
        json hop;
        hop["kind"] = kinds[static_cast<int>(h.kind)];
        if (h.kind == WhyHop::Kind::fd) {
            hop["process"] = k.processes[h.process].name;
            hop["fd"] = h.fd;
            hop["fd_name"] = h.fd_name;
        } else {
            hop["from"] = k.label_of_id(h.from);
            hop["skb"] = h.skb;
        }
        hop["to"] = k.label_of_id(h.to);
        hop["text"] = h.text;
        chain.push_back(hop);
    }
    j["chain"] = chain;
    j["chain_text"] = w.chain_text;
    json group = json::array();
    for (std::uint32_t g : w.group)
        group.push_back(k.label_of_id(g));
    j["group"] = group;
    j["culprit"] = w.culprit == npos ? json(nullptr) : json(k.label_of_id(w.culprit));
    j["scc_index_defect"] = w.scc_index_defect;
    j["collector_rule"] = w.collector_rule.empty() ? json(nullptr) : json(w.collector_rule);
    j["collector_view"] = w.collector_view.empty() ? json(nullptr) : json(w.collector_view);
    return dump(j, 2) + "\n";
}

} // namespace inflight
