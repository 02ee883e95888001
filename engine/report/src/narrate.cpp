// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/narrate.hpp"

#include "kernel_names.hpp"
#include "statement_text.hpp"

#include "inflight/abstract_namespace.hpp"
#include "inflight/report.hpp"
#include "inflight/run_names.hpp"

#include "inflight/algorithm_listing.hpp"
#include "inflight/kernel.hpp"
#include "inflight/race_point.hpp"

#include <string>

namespace inflight {

namespace {

std::string n(std::int64_t v) { return std::to_string(v); }
std::string arrow(Change c) { return n(c.before) + " -> " + n(c.after); }

std::string flags_text(std::int64_t f)
{
    std::string s;
    if (f & UNIX_GC_CANDIDATE)
        s += "CANDIDATE";
    if (f & UNIX_GC_MAYBE_CYCLE)
        s += s.empty() ? "MAYBE_CYCLE" : "|MAYBE_CYCLE";
    return s.empty() ? "0" : s;
}

// unix_graph_maybe_cyclic and unix_graph_grouped as the event log's compact words.
std::string graph_bits_text(std::int64_t b)
{
    return std::string((b & 1) ? "maybe cyclic" : "not cyclic") + ", " +
           ((b & 2) ? "grouped into SCCs" : "not grouped");
}

// A change of the two graph-state bools, in sentences: what it means for the next collection.
std::string graph_state_story(const Event &e)
{
    const Change bits = e.graph_bits();
    const bool cyc0 = bits.before & 1, cyc1 = bits.after & 1, grp0 = bits.before & 2, grp1 = bits.after & 2;
    std::string out;
    if (e.fn == KFn::unix_walk_scc || e.fn == KFn::unix_walk_scc_fast) {
        if (grp1 && !grp0)
            out = "The walk is done: the graph is now grouped into SCCs (unix_graph_grouped), so the next collection "
                  "can take the fast path over them (unix_walk_scc_fast()); ";
        if (!out.empty())
            return out + (cyc1 ? "an alive SCC still has a cycle, so unix_graph_maybe_cyclic stays set and the next "
                                 "collection will look again."
                               : "no cyclic SCC is left, so no cycle can exist: the next collection is skipped until "
                                 "an edge changes the graph.");
        if (cyc0 && !cyc1)
            return "The walk starts by clearing unix_graph_maybe_cyclic: it is set again only if an SCC left "
                   "alive turns out to be cyclic.";
    }
    if (e.fn == KFn::unix_scc_cyclic && cyc1 && !cyc0)
        return "This alive SCC has a cycle (unix_scc_cyclic()): unix_graph_maybe_cyclic is set again, so the next "
               "collection will look at it.";
    if (cyc1 && !cyc0)
        out += "a cycle may now exist (unix_graph_maybe_cyclic is set), so the next collection runs";
    else if (cyc0 && !cyc1)
        out += "no cycle can exist any more (unix_graph_maybe_cyclic is cleared)";
    if (grp0 && !grp1)
        out += std::string(out.empty() ? "" : ", and ") +
               "the SCCs found by the last walk are stale (unix_graph_grouped is cleared), so it must run Tarjan's "
               "walk over the whole graph again";
    else if (grp1 && !grp0)
        out += std::string(out.empty() ? "" : ", and ") + "the graph is grouped into SCCs (unix_graph_grouped)";
    if (out.empty())
        return "The graph state is unchanged: " + graph_bits_text(bits.after) + ".";
    if (e.fn == KFn::unix_add_edges || e.fn == KFn::unix_del_edges || e.fn == KFn::unix_update_edges ||
        e.fn == KFn::unix_update_graph)
        return "The edge just changed leads into a receiver that is itself in flight (unix_update_graph()): " + out +
               ".";
    out[0] = static_cast<char>(out[0] - 'a' + 'A');
    return out + ".";
}

template <class Names>
std::string address_text(const Names &k, std::uint32_t address)
{
    if (address == npos)
        return "an address";
    if (address & Kernel::kAutobindAddress)
        return "@" + autobind_name(address & 0xFFFFF);
    if (address < k.address_count())
        return "@" + k.address(address);
    return "an address";
}

template <class Names>
std::string task_name(const Names &k, std::uint32_t id)
{
    return id < k.task_count() ? k.task_name(id) : "task " + std::to_string(id);
}

// The race point a task_switch names: "select b" (short) or "unix_gc() has compared b's file
// count with its inflight count" (long).
template <class Names>
std::string race_point_text(const Event &e, const Names &k, bool long_form)
{
    const auto kind = static_cast<RacePointKind>(e.point_kind());
    const std::string sock = e.point_sock() == npos ? std::string("?") : k.label_of_id(e.point_sock());
    if (!long_form)
        return std::string(race_point_name(kind)) + " " + sock;
    std::string where(race_point_where(kind));
    if (const auto paren = where.rfind(" ("); paren != std::string::npos && where.back() == ')')
        where.erase(paren);
    for (std::size_t at; (at = where.find("SOCK")) != std::string::npos;)
        where.replace(at, 4, sock);
    return where;
}

std::string fds_text(std::int64_t n) { return n == 1 ? "1 fd" : std::to_string(n) + " fds"; }
std::string refs_text(std::int64_t n) { return n == 1 ? "1 reference" : std::to_string(n) + " references"; }

// unix_vertex_dead()'s verdict (graph_gc.cpp's reasons), `where` the successor it names.
std::string dead_reason(std::int64_t r, const std::string &where)
{
    switch (r) {
    case 0: return "every copy of its file sits inside this SCC and it has no other reference";
    case 1: return "a copy of its file sits in the queue of " + where + ", a socket that is not in flight";
    case 2:
        return "a copy of its file sits with " + where +
               ", in another SCC (another scc_index): the collector does not free them together";
    case 4:
        return "a copy of its file sits with " + where +
               ", a member of this same SCC that kept another scc_index; unix_vertex_dead() compares the two and "
               "takes it for another SCC (the mixed low-point defect, spec 5.13; set fix unify-scc-index)";
    case 5:
        return "a MSG_PEEK duplicated AF_UNIX fds while the SCC was being judged (unix_peek_seq changed): "
               "unix_scc_dead() gives the SCC up until the next collection (peek-seqcount, CVE-2026-23394)";
    default:
        return "its file refs (file_count) exceed its copies in flight (out_degree): something outside flight "
               "holds it (an open fd, or a send or peek under way)";
    }
}

// What keeps an alive SCC, in the words of its verdict: the reason of its one alive member m,
// shorter than dead_reason() since the member's own step has just told it in full.
std::string kept_alive_reason(std::int64_t r, const std::string &m, const std::string &where)
{
    switch (r) {
    case 1: return m + "'s file sits in the queue of " + where + ", which is not in flight";
    case 2: return m + "'s file sits with " + where + ", in another SCC";
    case 4:
        return m + "'s file sits with " + where + ", a member that kept another scc_index (the mixed low-point defect)";
    case 5: return "a MSG_PEEK ran while it was judged (unix_peek_seq changed)";
    default: return m + " is held from outside flight (an open fd, or a send or peek under way)";
    }
}

// The same, in a few words for --trace.
std::string dead_reason_short(std::int64_t r, const std::string &where)
{
    switch (r) {
    case 0: return "";
    case 1: return "edge to " + where + ", not in flight";
    case 2: return "edge to " + where + " in another SCC";
    case 4: return "edge to " + where + ": same SCC, other scc_index";
    case 5: return "MSG_PEEK intervened (unix_peek_seq)";
    default: return "file refs != out_degree";
    }
}

std::string wait_for_text(WaitFor w)
{
    switch (w) {
    case WaitFor::gc: return "the collection to end";
    case WaitFor::gc_lock: return "unix_gc_lock";
    case WaitFor::data: return "data to read";
    case WaitFor::task: return "a task to end";
    case WaitFor::idle: return "queued kernel work to finish";
    case WaitFor::table_lock: return "a hash table lock";
    case WaitFor::state_lock: return "a socket's state lock";
    }
    return "?";
}

template <class Names>
std::string lock_text(std::uint32_t which, const Names &k)
{
    if (which >= Kernel::kStateLockBase)
        return "unix_state_lock(" + k.label_of_id(which - Kernel::kStateLockBase) + ")";
    if (which == 0)
        return "unix_gc_lock";
    if (which == 1)
        return "unix_table_lock";
    return "the lock of hash bucket " + std::to_string(which - 2);
}

} // namespace

template <class Names>
std::string describe_with(const Event &e, const Names &k, const Scene *scene)
{
    auto s = [&](std::uint32_t id) { return id == npos ? std::string("-") : k.label_of_id(id); };
    // The label of the object most kinds are about (the socket, predecessor, root or sender in
    // slot a), made once; the kinds about an skb print its number instead.
    const std::string a = s(e.a);
    switch (e.kind) {
    case EventKind::stmt_begin: return describe_statement_begin(e, scene, &k.name_pool());
    case EventKind::stmt_end: return describe_statement_end(e, scene, &k.name_pool());
    case EventKind::note:
        switch (e.fn) {
        case KFn::scene: return describe_scene_note(e, scene);
        case KFn::sys_bind:
        case KFn::unix_autobind: return a + " bound to " + address_text(k, e.address());
        case KFn::sys_listen: return a + " listening";
        case KFn::sys_connect: return a + " connected to " + s(e.peer());
        case KFn::sys_recvmsg: return a + ": out-of-band byte read";
        case KFn::sys_setsockopt: return a + " option " + (e.option_on() ? "on" : "off");
        case KFn::unix_update_edges:
            return "embryo " + a + " accepted: its fds no longer count as " + s(e.peer()) + "'s";
        default: return a == "-" ? "note" : a;
        }
    case EventKind::sock_create: return a + " created";
    case EventKind::fd_install:
        return a + " installed as fd " + n(e.fd()) + " in " + k.process_name(e.process()) + ", file refs " +
               n(e.file_count().after);
    case EventKind::fd_close:
        return "fd " + n(e.fd()) + " (" + a + ") closed in " + k.process_name(e.process()) + ", file refs " +
               arrow(e.file_count());
    case EventKind::file_get: return a + " file refs " + arrow(e.file_count());
    case EventKind::file_put: return a + " file refs " + arrow(e.file_count());
    case EventKind::fput_deferred:
        return a + " last reference gone, __fput queued (" + (e.delayed() ? "delayed_fput" : "task_work") + ")";
    case EventKind::sock_release: return a + (e.is_embryo() ? " (embryo)" : "") + " released";
    case EventKind::peer_shutdown:
        return s(e.peer()) + " shut down by release of " + a + (e.reset() ? ", ECONNRESET" : "");
    case EventKind::skb_queue:
        return "skb#" + n(e.skb()) + " carrying " + fds_text(e.fds()) + " queued to " + s(e.receiver());
    case EventKind::skb_dequeue: return "skb#" + n(e.skb()) + " taken off " + s(e.sock());
    case EventKind::skb_free:
        return "skb#" + n(e.skb()) + " freed" + (e.fds() ? ", dropping " + fds_text(e.fds()) : std::string());
    case EventKind::skb_unref:
        return "skb#" + n(e.skb()) + " reference dropped, " + n(e.refs_left()) + " left: not freed";
    case EventKind::fds_attach:
        return fds_text(e.fds()) + " attached to skb#" + n(e.skb()) +
               (e.duplicated() ? " (duplicated list)" : " (list moved)");
    case EventKind::fds_detach: return fds_text(e.fds()) + " detached from skb#" + n(e.skb());
    case EventKind::inflight_change: {
        std::string t = a + " inflight " + arrow(e.inflight());
        if (e.to != ListId::none)
            t += ", onto " + std::string(list_name(e.to));
        if (e.from != ListId::none)
            t += ", off " + std::string(list_name(e.from));
        return t;
    }
    case EventKind::list_move:
        if (e.to == ListId::hitlist)
            return "skb#" + n(e.skb()) + " to hitlist";
        return a + ": " + std::string(list_name(e.from)) + " -> " + std::string(list_name(e.to)) +
               (e.gc_flags().before != e.gc_flags().after
                    ? ", flags " + flags_text(e.gc_flags().before) + " -> " + flags_text(e.gc_flags().after)
                    : "");
    case EventKind::flags_change:
        return a + " flags " + flags_text(e.gc_flags().before) + " -> " + flags_text(e.gc_flags().after);
    case EventKind::gc_call: return "unix_gc() with unix_tot_inflight " + n(e.tot_inflight());
    case EventKind::gc_queued: return e.already_pending() ? "unix_gc_work already pending" : "unix_gc_work queued";
    case EventKind::gc_wait: return "sender waits for the collector";
    case EventKind::gc_begin: return "collection #" + n(e.run()) + " starts";
    case EventKind::gc_end:
        if (e.run_hung())
            return "collection #" + n(e.run()) +
                   " hangs: the loop after the purge spins for ever, gc_in_progress "
                   "stays set (task hung in __unix_gc())";
        return "collection #" + n(e.run()) + " ends: " + n(e.garbage()) + " garbage, " + n(e.skbs_purged()) +
               " skbs purged";
    case EventKind::gc_skip:
        return e.graph_not_cyclic() ? "graph not cyclic: nothing to do" : "a collection is already running";
    case EventKind::candidate_check:
        return a + ": file refs " + n(e.refs()) + (e.is_candidate() ? " == " : " != ") + "inflight " +
               n(e.inflight_count()) + (e.is_candidate() ? ": candidate" : "");
    case EventKind::cursor_move: return "cursor passes " + a + " (inflight " + n(e.inflight_count()) + ")";
    case EventKind::scan:
        return "scan_children(" + a + ")" + (e.embryo() != npos ? " via embryo " + s(e.embryo()) : "");
    case EventKind::skb_hitlist: return "skb#" + n(e.skb()) + " from " + s(e.sock()) + " to hitlist";
    case EventKind::queue_splice:
        return n(e.skbs()) + (e.skbs() == 1 ? " skb of " : " skbs of ") + (e.embryo() != npos ? s(e.embryo()) : a) +
               " spliced to hitlist";
    case EventKind::vertex_new: return a + " gets a vertex (scc_index " + n(e.scc_index().after) + ")";
    case EventKind::vertex_free: return a + " loses its vertex";
    case EventKind::edge_add:
        return "edge " + a + " -> " + s(e.receiver()) +
               (e.successor() != npos && e.successor() != e.receiver() ? " (counts as " + s(e.successor()) + ")" : "") +
               ", out_degree " + arrow(e.out_degree());
    case EventKind::edge_del:
        return "edge " + a + " -> " + s(e.receiver()) + " removed, out_degree " + arrow(e.out_degree());
    case EventKind::graph_state:
        return "graph " + graph_bits_text(e.graph_bits().before) + " -> " + graph_bits_text(e.graph_bits().after);
    case EventKind::vertex_visit: return a + " visited, index " + n(e.index());
    case EventKind::edge_push: return "tree edge " + a + " -> " + s(e.successor());
    case EventKind::edge_pop:
        return "back from " + s(e.successor()) + " to " + a + ", scc_index " + arrow(e.scc_index());
    case EventKind::scc_index_update:
        return a + " scc_index " + arrow(e.scc_index()) + " (from " + s(e.successor()) + ")";
    case EventKind::scc_found: return "SCC of " + n(e.members()) + " rooted at " + a;
    case EventKind::vertex_dead:
        return a + (e.dead() ? " dead" : " alive") + " (file refs " + n(e.refs()) + ")" +
               (e.dead() ? std::string() : ": " + dead_reason_short(e.reason(), s(e.successor())));
    case EventKind::scc_verdict:
        return "SCC of " + a + (e.dead() ? " is garbage" : " is alive") +
               (!e.dead() && e.alive_by() != npos
                    ? " (" + s(e.alive_by()) + " alive" +
                          (e.alive_reason() != 0 ? ": " + dead_reason_short(e.alive_reason(), s(e.alive_where()))
                                                 : std::string()) +
                          ")"
                    : std::string()) +
               (e.cyclic() ? ", cyclic" : "");
    case EventKind::finding:
        return "finding #" + n(e.finding_index()) + ": " +
               (e.finding_index() < k.finding_count() ? k.finding(e.finding_index()).invariant : std::string());
    case EventKind::warning:
        return "line " + std::to_string(e.scene_line) + " failed with " +
               std::string(errno_name(static_cast<Errno>(e.error()))) + ", not expected";
    case EventKind::expect_result: return describe_expectation(e, scene);
    case EventKind::wait_end:
        return "waited " + format_ns(static_cast<std::uint64_t>(e.waited_ns())) + " for " +
               wait_for_text(e.waited_for());
    case EventKind::lock_spin:
        return "spun " + format_ns(static_cast<std::uint64_t>(e.spun_ns())) + " on " + lock_text(e.lock(), k);
    case EventKind::task_spawn:
        return "task " + (e.task_index() < k.task_count() ? k.task_name(e.task_index()) : n(e.task_index())) +
               " starts on cpu " + n(e.cpu());
    case EventKind::task_exit:
        return "task " + (e.task_index() < k.task_count() ? k.task_name(e.task_index()) : n(e.task_index())) + " ends";
    case EventKind::autobind_probe:
        return a + " tries @" + autobind_name(e.name_value()) + " (bucket " + n(e.bucket()) + ", " + n(e.compared()) +
               " compared): " + (e.taken() ? "taken" : "free, bound");
    case EventKind::autobind_fail:
        return e.loops_forever() ? a + ": autobind would loop forever after " + n(e.probes()) + " probes"
                                 : a + ": ENOSPC after " + n(e.probes()) + " probes";
    case EventKind::splice_chunk:
        return n(e.bytes()) + " bytes spliced from " + a + " to " + s(e.receiver()) +
               (e.checksummed() ? ", checksummed" : "");
    case EventKind::creds_ref:
        return std::string(e.takes_refs() ? "pid and cred references taken" : "pid and cred references dropped") +
               " (" + format_ns(static_cast<std::uint64_t>(e.cost_ns())) + ")";
    case EventKind::fds_peek:
        return "scm_fp_dup(): " + fds_text(e.fds()) + " of skb#" + n(e.skb()) + " on " + s(e.sock()) + " duplicated" +
               (e.peek_seq_bumped() ? ", unix_peek_seq bumped" : "");
    case EventKind::task_switch:
        return "task switch " + task_name(k, e.from_task()) + " -> " + task_name(k, e.to_task()) +
               (e.how() == TaskSwitch::race    ? " (race: " + race_point_text(e, k, false) + ")"
                : e.how() == TaskSwitch::until ? " (until " + race_point_text(e, k, false) + ": " +
                                                     task_name(k, e.to_task()) + " ends its statement)"
                                               : " (" + task_name(k, e.to_task()) + " resumes)");
    case EventKind::sched_point: return {};
    }
    return {};
}

template <class Names>
std::string narrate_event_with(const Event &e, const Names &k, const Scene *scene)
{
    auto s = [&](std::uint32_t id) { return id == npos ? std::string("-") : k.label_of_id(id); };
    // The label of the object most kinds are about (the socket, predecessor, root or sender in
    // slot a), made once; the kinds about an skb print its number instead.
    const std::string a = s(e.a);
    const bool graph = k.era() == GcEra::graph;
    switch (e.kind) {
    // ---- the scene's own steps ----
    case EventKind::stmt_begin: return narrate_statement_begin(e, scene, &k.name_pool());
    case EventKind::stmt_end: return narrate_statement_end(e, scene, &k.name_pool());
    case EventKind::note:
        switch (e.fn) {
        case KFn::scene: return narrate_scene_note(e, scene);
        case KFn::sys_bind:
            return a + " is bound to the abstract name " + address_text(k, e.address()) +
                   ": others can connect() to it by that name.";
        case KFn::unix_autobind:
            return a + " got the autobind name " + address_text(k, e.address()) +
                   " (five hex digits picked by unix_autobind()).";
        case KFn::sys_listen:
            return a + " is listening: each connect() to it now queues an embryo socket on its receive queue until "
                       "accept() takes it.";
        case KFn::sys_connect:
            return a + " is connected to " + s(e.peer()) + ": what it sends now goes to " + s(e.peer()) +
                   "'s receive queue.";
        case KFn::sys_recvmsg:
            return "recvmsg() read " + a +
                   "'s out-of-band byte (unix_stream_recv_urg()): the fds of that skb are never delivered; the skb "
                   "stays queued until a normal read or a purge frees it.";
        case KFn::sys_setsockopt:
            return "setsockopt() on " + a + ": the option is now " + (e.option_on() ? "on." : "off.");
        case KFn::unix_update_edges:
            return "Embryo " + a +
                   " is accepted (unix_update_edges()): the fds in its queue no longer count as listener " +
                   s(e.peer()) + "'s; the edges now lead to " + a + " itself.";
        default: return a == "-" ? "A note." : "A note about " + a + ".";
        }
    case EventKind::expect_result: return narrate_expectation(e, scene);
    case EventKind::warning:
        return "Line " + std::to_string(e.scene_line) + " failed with " +
               std::string(errno_name(static_cast<Errno>(e.error()))) + " (" +
               std::string(errno_text(static_cast<Errno>(e.error()))) +
               ") and no `expect error` follows it: the scene did not plan for this failure.";
    case EventKind::finding: {
        const bool known = e.finding_index() < k.finding_count();
        if (known && k.finding(e.finding_index()).warning)
            return "The kernel warns: " + k.finding(e.finding_index()).invariant + " (" +
                   k.finding(e.finding_index()).message +
                   "). A WARN is printed and the kernel goes on, and so does the run.";
        return "A kernel check failed: " +
               (known ? k.finding(e.finding_index()).invariant + " (" + k.finding(e.finding_index()).message + ")"
                      : std::string("an invariant")) +
               ". The run stops here so the state can be inspected.";
    }
    case EventKind::task_spawn:
        return "Task " + (e.task_index() < k.task_count() ? k.task_name(e.task_index()) : n(e.task_index())) +
               " starts on cpu " + n(e.cpu()) + " and runs its block alongside the others.";
    case EventKind::task_exit:
        return "Task " + (e.task_index() < k.task_count() ? k.task_name(e.task_index()) : n(e.task_index())) +
               " has run its whole block and ends.";

    // ---- sockets, fds and files ----
    case EventKind::sock_create: return "unix_create1() creates socket " + a + ".";
    case EventKind::fd_install: {
        const std::string where =
            e.process() < k.process_count() ? k.process_name(e.process()) : std::string("the process");
        switch (e.fn) {
        case KFn::sys_dup:
            return "dup(): fd " + n(e.fd()) + " in " + where + " is a second fd on " + a + "'s file, which now has " +
                   refs_text(e.file_count().after) + ".";
        case KFn::scm_detach_fds:
            return "recvmsg() got fd " + n(e.fd()) + ": a copy of " + a +
                   "'s file comes out of the message and is installed in " + where + "'s fd table (" +
                   refs_text(e.file_count().after) + " now).";
        case KFn::unix_peek_fds:
            return "recvmsg() with MSG_PEEK got fd " + n(e.fd()) + " on " + a + ": a new reference (" +
                   refs_text(e.file_count().after) + " now), while the copy in the queue stays in flight.";
        default:
            return a + " is installed as fd " + n(e.fd()) + " in " + where + "; its file has " +
                   refs_text(e.file_count().after) + ".";
        }
    }
    case EventKind::fd_close: {
        const std::string where =
            e.process() < k.process_count() ? k.process_name(e.process()) : std::string("the process");
        if (e.file_count().after == 0)
            return "close(): fd " + n(e.fd()) + " of " + where + " was the last reference to " + a +
                   "'s file: it is gone, and " + a + " will be released.";
        return "close(): fd " + n(e.fd()) + " of " + where + " is closed; " + a + "'s file still has " +
               refs_text(e.file_count().after) + " (other fds or copies in flight), so " + a + " lives on.";
    }
    case EventKind::file_get:
        if (e.fn == KFn::scm_fp_copy)
            return "scm_fp_copy() takes a reference on " + a +
                   "'s file for the message being sent: " + arrow(e.file_count()) + ".";
        return "The message gets its own reference to " + a + "'s file (" + std::string(kfn_name(e.fn)) +
               "): " + arrow(e.file_count()) + ".";
    case EventKind::file_put:
        if (e.file_count().after == 0)
            return "fput() drops the last reference to " + a + "'s file (" + n(e.file_count().before) + " -> 0).";
        return "fput() drops one reference to " + a + "'s file: " + arrow(e.file_count()) + " left, so it stays open.";
    case EventKind::fput_deferred:
        return "The last reference to " + a + "'s file is gone; __fput() is queued (" +
               (e.delayed() ? "delayed_fput, a kernel worker" : "task_work, on the way back to user space") +
               ") and will release the socket.";
    case EventKind::sock_release:
        return a + (e.is_embryo() ? " (an embryo never accepted)" : "") +
               " is released (unix_release_sock()): its receive queue is purged, dropping every fd it carried.";
    case EventKind::peer_shutdown:
        return "Releasing " + a + " shuts down its peer " + s(e.peer()) +
               (e.reset() ? ", which also gets ECONNRESET: data was left unread, or the connection was never accepted."
                          : ": a reader on it now sees the end of the stream.");

    // ---- messages ----
    case EventKind::skb_queue:
        if (e.fn == KFn::sys_connect)
            return "connect() queues the connection request (skb#" + n(e.skb()) + ") on listener " + s(e.receiver()) +
                   ".";
        return "skb#" + n(e.skb()) + (e.fds() ? " carrying " + fds_text(e.fds()) : std::string(" with no fds")) +
               " is queued on " + s(e.receiver()) + "'s receive queue" +
               (e.sender() != npos && e.sender() != e.receiver() ? ", sent from " + s(e.sender()) : std::string()) +
               ".";
    case EventKind::skb_dequeue:
        if (e.fn == KFn::sys_accept)
            return "accept() takes the connection request (skb#" + n(e.skb()) + ") off " + s(e.sock()) + "'s queue.";
        return "recvmsg() takes skb#" + n(e.skb()) + " off " + s(e.sock()) + "'s receive queue.";
    case EventKind::skb_free:
        if (e.fn == KFn::skb_queue_purge)
            return "The collector purges skb#" + n(e.skb()) + " from the hitlist" +
                   (e.fds() ? ", dropping the " + fds_text(e.fds()) + " it carried: garbage loses its last references."
                            : ".");
        return "skb#" + n(e.skb()) + " is freed" +
               (e.fds() ? ", dropping the " + fds_text(e.fds()) + " it carried." : ".");
    case EventKind::skb_unref:
        return "One reference to skb#" + n(e.skb()) + " is dropped, but " + refs_text(e.refs_left()) +
               (e.refs_left() == 1 ? " remains" : " remain") + " (u->oob_skb holds one): it is not freed yet.";
    case EventKind::fds_attach:
        return fds_text(e.fds()) + (e.fds() == 1 ? " goes" : " go") + " into skb#" + n(e.skb()) +
               (e.duplicated() ? " (scm_fp_dup(): the message gets its own copy of the fd list)."
                               : " (the message takes over the sender's fd list).");
    case EventKind::fds_detach:
        return (e.fds() == 1 ? "The fd of skb#" + n(e.skb()) + " leaves"
                             : "The " + fds_text(e.fds()) + " of skb#" + n(e.skb()) + " leave") +
               " the message (unix_detach_fds()): recvmsg() installs " + (e.fds() == 1 ? "it" : "them") + " next.";
    case EventKind::splice_chunk:
        return n(e.bytes()) + " bytes are spliced from " + a + " to " + s(e.receiver()) +
               (e.checksummed() ? ", and checksummed on the way." : ".");
    case EventKind::creds_ref:
        return std::string(e.takes_refs() ? "The message takes references on the sender's pid and cred"
                                          : "The reader drops the message's pid and cred references") +
               " (SCM_CREDENTIALS by default): " + format_ns(static_cast<std::uint64_t>(e.cost_ns())) + ".";

    // ---- in flight ----
    case EventKind::inflight_change:
        switch (e.fn) {
        case KFn::dec_inflight:
            return "A candidate's queue holds a copy of " + a +
                   ": that reference is internal to the candidate set, so inflight drops " + arrow(e.inflight()) + ".";
        case KFn::inc_inflight_move_tail:
            return a + " is held by a socket that is reachable, so it is reachable too: inflight back to " +
                   n(e.inflight().after) + ".";
        case KFn::inc_inflight:
            return "Garbage is being collected: " + a + "'s count is given back (" + n(e.inflight().after) +
                   ") before its skb goes to the hitlist.";
        case KFn::unix_inflight:
            return a + "'s file is now in flight (" + n(e.inflight().after) +
                   (e.inflight().after == 1 ? " copy" : " copies") + " in queues)" +
                   (e.inflight().before == 0 ? "; it joins gc_inflight_list." : ".");
        case KFn::unix_notinflight:
            return "A copy of " + a + " left flight (" + n(e.inflight().after) +
                   (e.inflight().after == 1 ? " remains)" : " remain)") +
                   (e.inflight().after == 0 ? "; it leaves the GC's lists." : ".");
        default: return a + "'s in-flight count goes " + arrow(e.inflight()) + ".";
        }
    case EventKind::list_move:
        if (e.to == ListId::hitlist)
            return "skb#" + n(e.skb()) + " carries garbage: it moves to the hitlist.";
        if (e.to == ListId::gc_candidates && e.from == ListId::gc_inflight_list)
            return a + " moves to gc_candidates and is marked UNIX_GC_CANDIDATE and UNIX_GC_MAYBE_CYCLE: it may be "
                       "garbage.";
        if (e.to == ListId::not_cycle_list)
            return a + " is reachable: it moves to not_cycle_list, and everything in its queue will be restored.";
        if (e.to == ListId::gc_candidates && e.from == ListId::gc_candidates)
            return a + " might still be on a cycle, so it moves to the tail of gc_candidates to be looked at again.";
        if (e.to == ListId::gc_inflight_list)
            return a + " survived this collection and goes back to gc_inflight_list.";
        return a + " moves from " + std::string(list_name(e.from)) + " to " + std::string(list_name(e.to)) + ".";
    case EventKind::flags_change:
        return a + "'s collector marks change from " + flags_text(e.gc_flags().before) + " to " +
               flags_text(e.gc_flags().after) + ".";

    // ---- the collection, both eras ----
    case EventKind::gc_call:
        return "unix_gc() is called with " + n(e.tot_inflight()) + (e.tot_inflight() == 1 ? " file" : " files") +
               " in flight (unix_tot_inflight).";
    case EventKind::gc_queued:
        return e.already_pending() ? "A collection is already queued (unix_gc_work pending): this call adds nothing."
                                   : "unix_gc() queues the collection (unix_gc_work) for a kernel worker and returns.";
    case EventKind::gc_wait:
        if (e.fn == KFn::flush_work)
            return "The scene's gc waits for the collection it queued to finish (flush_work()).";
        if (k.era() == GcEra::classic)
            return "The sender must wait for the running collection: up to 6.8 every sendmsg() waits while one runs "
                   "(unix_gc_wait); " +
                   n(e.files_in_flight()) + (e.files_in_flight() == 1 ? " file is" : " files are") + " in flight.";
        return "The sender must wait for the collection (flush_work()): it passes an AF_UNIX fd and its user has " +
               n(e.files_in_flight()) + " files in flight, at least UNIX_INFLIGHT_SANE_USER (2024).";
    case EventKind::wait_end:
        return "The waiting task resumes: it waited " + format_ns(static_cast<std::uint64_t>(e.waited_ns())) + " for " +
               wait_for_text(e.waited_for()) + ".";
    case EventKind::lock_spin:
        return "Another CPU held " + lock_text(e.lock(), k) + ": this task spun " +
               format_ns(static_cast<std::uint64_t>(e.spun_ns())) + " before it could take it.";
    case EventKind::gc_begin:
        return "Collection #" + n(e.run()) + " starts" + (graph ? " (__unix_gc())." : " (unix_gc()).");
    case EventKind::gc_end:
        if (e.run_hung())
            return "Collection #" + n(e.run()) + " never ends: after purging " + n(e.skbs_purged()) +
                   (e.skbs_purged() == 1 ? " skb" : " skbs") +
                   ", the loop that drops the leftover candidates' oob_skb never finishes (the finding says why): "
                   "the kernel's task spins there for ever with gc_in_progress still set, and the hung-task "
                   "detector reports it (task hung in __unix_gc()). The model ends the loop here; no collection "
                   "runs again.";
        if (e.garbage() == 0)
            return "Collection #" + n(e.run()) + " ends: it found no garbage.";
        return "Collection #" + n(e.run()) + " ends: it found " + n(e.garbage()) +
               (e.garbage() == 1 ? " garbage socket" : " garbage sockets") + " and purged " + n(e.skbs_purged()) +
               (e.skbs_purged() == 1 ? " skb" : " skbs") + " from the hitlist.";
    case EventKind::gc_skip:
        return e.graph_not_cyclic()
                   ? "unix_graph_maybe_cyclic is false: no cycle can exist, so the collection skips the walk."
                   : "A collection is already running (gc_in_progress): this call returns at once.";

    // ---- classic ----
    case EventKind::candidate_check:
        if (e.is_candidate())
            return a + ": file refs " + n(e.refs()) + " == inflight " + n(e.inflight_count()) +
                   ", so every reference to it is in flight: it becomes a candidate.";
        return a + ": file refs " + n(e.refs()) + " > inflight " + n(e.inflight_count()) +
               ", so something outside flight (an open fd) holds it: not a candidate.";
    case EventKind::cursor_move:
        return e.inflight_count() > 0
                   ? "The cursor reaches " + a + ": inflight " + n(e.inflight_count()) +
                         " > 0 means something outside the candidates holds it, so it is not garbage."
                   : "The cursor reaches " + a + ": inflight 0, only other candidates hold it (so far).";
    case EventKind::scan:
        return "scan_children() looks at the fds in " +
               (e.embryo() != npos ? (s(e.embryo()).rfind("embryo", 0) == 0 ? "" : "embryo ") + s(e.embryo()) +
                                         "'s queue (listener " + a + " owns them)"
                                   : a + "'s receive queue") +
               ".";
    case EventKind::skb_hitlist:
        return "skb#" + n(e.skb()) + " in " + s(e.sock()) + "'s queue carries garbage: it moves to the hitlist.";

    // ---- graph ----
    case EventKind::queue_splice:
        return "The dead SCC's queue of " + (e.embryo() != npos ? s(e.embryo()) : a) +
               " goes to the hitlist whole (unix_collect_skb()): " + n(e.skbs()) + (e.skbs() == 1 ? " skb." : " skbs.");
    case EventKind::vertex_new: return a + " goes in flight and gets a vertex in the collector's graph.";
    case EventKind::vertex_free:
        return a + "'s last in-flight copy is gone (out_degree 0): its vertex is freed and it leaves the graph.";
    case EventKind::edge_add:
        return "An edge " + a + " -> " + s(e.receiver()) + ": a copy of " + a + "'s file now sits in " +
               s(e.receiver()) + "'s queue" +
               (e.successor() != npos && e.successor() != e.receiver()
                    ? " (an embryo: it counts for listener " + s(e.successor()) + ")"
                    : std::string()) +
               "; " + a + "'s out_degree " + arrow(e.out_degree()) + ".";
    case EventKind::edge_del:
        return "The edge " + a + " -> " + s(e.receiver()) + " is removed: that copy of " + a +
               "'s file left flight; out_degree " + arrow(e.out_degree()) + ".";
    case EventKind::graph_state: return graph_state_story(e);
    case EventKind::vertex_visit:
        return "Tarjan visits " + a + ": index = scc_index = " + n(e.index()) +
               ", and it is pushed on the vertex stack.";
    case EventKind::edge_push:
        if (e.receiver() != npos && e.receiver() != e.successor())
            return a + "'s file sits in the queue of " + s(e.receiver()) + ", an embryo that belongs to listener " +
                   s(e.successor()) + "; " + s(e.successor()) + " is unvisited: the walk descends into it.";
        return a + "'s file sits in " + s(e.successor()) + "'s queue, and " + s(e.successor()) +
               " is unvisited: the walk descends into it.";
    case EventKind::edge_pop:
        return "Back from " + s(e.successor()) + " to " + a + ": " + a + " takes the smaller scc_index (" +
               n(e.scc_index().after) + ").";
    case EventKind::scc_index_update:
        if (e.algo_line == static_cast<std::uint16_t>(AlgoLine::graph_unify))
            return "The fix: " + a + " takes its root's scc_index " + n(e.scc_index().after) +
                   " so the SCC is judged as one.";
        return s(e.successor()) + " is still on the stack, so " + a + " and it are in one SCC: scc_index " +
               arrow(e.scc_index()) + ".";
    case EventKind::scc_found:
        return a + " is the root of an SCC of " + n(e.members()) + (e.members() == 1 ? " vertex." : " vertices.");
    case EventKind::vertex_dead:
        return a + (e.dead() ? " is dead: " : " is alive: ") + dead_reason(e.reason(), s(e.successor())) + ".";
    case EventKind::scc_verdict: {
        if (e.dead())
            return "Every member is dead: the SCC of " + a + " is garbage and its receive queues go to the hitlist.";
        // An alive SCC is alive because of its one alive member: the verdict says what keeps that
        // member, since a cycle alone never keeps anything.
        std::string out = "The SCC of " + a + " is alive and stays";
        if (e.alive_by() != npos && e.alive_reason() != 0)
            out += ", because " + kept_alive_reason(e.alive_reason(), s(e.alive_by()), s(e.alive_where()));
        out += ".";
        if (e.cyclic())
            out += " It has a cycle: the next collection looks again.";
        return out;
    }

    // ---- autobind ----
    case EventKind::autobind_probe: {
        const std::string compared =
            n(e.compared()) + (e.compared() == 1 ? " socket" : " sockets") + " compared in bucket " + n(e.bucket());
        return e.taken()
                   ? "@" + autobind_name(e.name_value()) + " is taken (" + compared + "): " + a +
                         " tries the next name."
                   : "@" + autobind_name(e.name_value()) + " is free (" + compared + "): " + a + " is bound to it.";
    }
    case EventKind::autobind_fail:
        return e.loops_forever() ? "unix_autobind() for " + a + " would loop forever: after " + n(e.probes()) +
                                       " probes it has not come back to its start."
                                 : "unix_autobind() for " + a + " gives up with ENOSPC after " + n(e.probes()) +
                                       " probes: every name is taken.";
    case EventKind::fds_peek:
        return "unix_peek_fds(): scm_fp_dup() takes a new reference on each of the " + fds_text(e.fds()) + " in skb#" +
               n(e.skb()) + " on " + s(e.sock()) +
               "'s queue. Nothing leaves flight: the copies in the queue stay in flight, and the collector is not "
               "told" +
               (e.peek_seq_bumped()
                    ? " — except through unix_peek_seq, which this peek bumps because a collection is running."
                    : ".");
    case EventKind::task_switch:
        if (e.how() == TaskSwitch::race)
            return "Task switch: " + task_name(k, e.from_task()) + " is preempted right after " +
                   race_point_text(e, k, true) + ", and " + task_name(k, e.to_task()) +
                   " runs in that window (on another CPU, or preempting it).";
        if (e.how() == TaskSwitch::until)
            return "Task switch: " + task_name(k, e.from_task()) + " stops right after " + race_point_text(e, k, true) +
                   "; " + task_name(k, e.to_task()) + " goes on to the end of the statement it was preempted in.";
        return "Task switch: " + task_name(k, e.to_task()) + " resumes where it was preempted.";
    case EventKind::sched_point: return {};
    }
    return describe_with(e, k, scene);
}

// The event's own narration, then the findings made at its step: a WARN is said when it
// happens, not only in the run's summary.
template <class Names>
std::string narrate_with(const Event &e, const Names &k, const Scene *scene)
{
    std::string text = narrate_event_with(e, k, scene);
    if (e.kind == EventKind::finding)
        return text; // the event is the finding
    for (std::size_t i = 0; i < k.finding_count(); ++i) {
        const auto &f = k.finding(i);
        if (f.step != e.step)
            continue;
        text += "\n\n";
        text += kFindingMark;
        text += (f.warning ? "WARN: " : "BUG: ") + f.invariant + "\n" + f.message +
                (f.warning ? ". The kernel prints the warning and goes on, and so does the run."
                           : ". The run stops here so the state can be inspected.");
    }
    return text;
}

std::string describe(const Event &e, const Kernel &k, const Scene *scene)
{
    return describe_with(e, KernelNames(k), scene);
}

std::string describe(const Event &e, const RunNames &names, const Scene *scene)
{
    return describe_with(e, names, scene);
}

std::string narrate(const Event &e, const Kernel &k, const Scene *scene)
{
    return narrate_with(e, KernelNames(k), scene);
}

std::string narrate(const Event &e, const RunNames &names, const Scene *scene) { return narrate_with(e, names, scene); }

} // namespace inflight
