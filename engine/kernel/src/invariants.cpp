// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/invariants.hpp"

#include "inflight/kernel.hpp"

#include <unordered_map>

namespace inflight {

namespace {

void check_lists(Kernel &k)
{
    const struct {
        GcList *list;
        ListId id;
    } lists[] = {{&k.gc_inflight_list, ListId::gc_inflight_list},
                 {&k.gc_candidates, ListId::gc_candidates},
                 {&k.not_cycle_list, ListId::not_cycle_list}};
    std::size_t linked = 0;
    for (const auto &l : lists)
        for (GcLink &g : *l.list) {
            if (g.is_cursor)
                continue;
            ++linked;
            if (g.on != l.id) {
                auto &u = static_cast<UnixSock &>(g);
                k.finding("list membership consistent", k.label_of(u) + " is on " + std::string(list_name(l.id)) +
                                                            " but recorded on " + std::string(list_name(g.on)));
                return;
            }
        }
    std::size_t flagged = 0;
    for (const UnixSock &u : k.socks)
        flagged += u.on != ListId::none;
    if (flagged != linked)
        k.finding("list membership consistent",
                  std::to_string(flagged) + " sockets think they are on a GC list, " + std::to_string(linked) + " are");
}

} // namespace

void check_step_invariants(Kernel &k)
{
    // file_count == fd table entries + SCM_RIGHTS list entries, for every file.
    std::unordered_map<const File *, long> holders;
    for (const Process &p : k.processes)
        for (const File *f : p.fds)
            if (f)
                ++holders[f];
    for (const ScmFpList &fpl : k.live_fp_lists)
        for (const File *f : fpl.fp)
            if (f)
                ++holders[f];
    for (const File &f : k.files) {
        auto it = holders.find(&f);
        const long expected = it == holders.end() ? 0 : it->second;
        if (f.count != expected) {
            k.finding("file_count == fd references + in-flight references", k.label_of_id(f.id) + ": file_count " +
                                                                                std::to_string(f.count) + ", holders " +
                                                                                std::to_string(expected));
            return;
        }
    }
    check_lists(k);
    if (k.era() != GcEra::graph && !k.gc_in_progress) {
        unsigned long sum = 0;
        for (const UnixSock &u : k.socks) {
            sum += static_cast<unsigned long>(u.inflight);
            // 6.9 leaves a candidate that survived the purge on gc_candidates (after its WARN):
            // that is the kernel's state, not a broken model.
            const bool leftover = u.on == ListId::gc_candidates && k.config().has(KernelChange::remove_iouring_gc);
            if ((u.inflight > 0) != (u.on == ListId::gc_inflight_list || leftover)) {
                k.finding("inflight > 0 <=> on gc_inflight_list", k.label_of(u) + " inflight " +
                                                                      std::to_string(u.inflight) + " on " +
                                                                      std::string(list_name(u.on)));
                return;
            }
        }
        // After a race already reported as corrupting the counts (CVE-2024-26923), a sum that
        // disagrees is its effect, not news: the kernel runs on with it, and so does the run.
        if (sum != k.unix_tot_inflight && !k.inflight_corrupted)
            k.finding("unix_tot_inflight == sum of u->inflight",
                      std::to_string(k.unix_tot_inflight) + " != " + std::to_string(sum));
        // 6.9 (remove-iouring-gc) leaves the candidates a purge did not free on gc_candidates (it
        // WARNs once).
        const bool leftovers_allowed = k.config().has(KernelChange::remove_iouring_gc);
        if ((!leftovers_allowed && !k.gc_candidates.empty()) || !k.not_cycle_list.empty() || !k.hitlist.empty())
            k.finding("GC scratch lists empty outside a collection",
                      "gc_candidates, not_cycle_list or hitlist not empty");
    }
    if (k.era() == GcEra::graph) {
        for (const UnixSock &u : k.socks)
            if (u.vertex) {
                std::size_t edges = 0;
                for (auto it = u.vertex->edges.begin(); it != u.vertex->edges.end(); ++it)
                    ++edges;
                if (edges != u.vertex->out_degree || edges == 0) {
                    k.finding("out_degree == edges of the vertex > 0", k.label_of(u) + ": out_degree " +
                                                                           std::to_string(u.vertex->out_degree) + ", " +
                                                                           std::to_string(edges) + " edges");
                    return;
                }
            }
    }
}

void check_quiescent_invariants(Kernel &k)
{
    // At rest every SCM_RIGHTS list belongs to an skb: queued, or leaked (an skb whose last
    // reference never goes). Both keep their files in flight.
    std::unordered_map<const UnixSock *, long> copies;
    std::unordered_map<const User *, unsigned long> per_user;
    unsigned long total = 0;
    for (const ScmFpList &fpl : k.live_fp_lists) {
        per_user[fpl.user] += static_cast<unsigned long>(fpl.count());
        for (const File *f : fpl.fp)
            if (f && f->sock) {
                ++copies[f->sock];
                ++total;
            }
    }
    for (const UnixSock &r : k.socks) {
        std::uint32_t nr_fds = 0, nr_unix = 0;
        for (const SkBuff &skb : r.receive_queue) {
            if (!skb.fp)
                continue;
            nr_fds += static_cast<std::uint32_t>(skb.fp->count());
            nr_unix += static_cast<std::uint32_t>(skb.fp->count_unix);
        }
        if (!r.released && nr_fds != r.nr_fds) // a dying socket's counters are not kept
            k.finding("scm_stat.nr_fds == fds queued",
                      k.label_of(r) + ": nr_fds " + std::to_string(r.nr_fds) + ", queued " + std::to_string(nr_fds));
        if (k.era() == GcEra::graph && !r.released && nr_unix != r.nr_unix_fds)
            k.finding("scm_stat.nr_unix_fds == AF_UNIX fds queued", k.label_of(r) + ": nr_unix_fds " +
                                                                        std::to_string(r.nr_unix_fds) + ", queued " +
                                                                        std::to_string(nr_unix));
        if (r.released && !r.receive_queue.empty())
            k.finding("a released socket has an empty queue", k.label_of(r));
        if (!r.released && r.file && r.file->count == 0)
            k.finding("a socket with no references is released", k.label_of(r));
    }
    for (const UnixSock &u : k.socks) {
        auto it = copies.find(&u);
        const long expected = it == copies.end() ? 0 : it->second;
        if (k.collector().inflight_of(u) != expected) {
            std::string what =
                k.era() == GcEra::graph ? "out_degree == copies in flight" : "u->inflight == copies in flight";
            std::string detail = k.label_of(u) + ": " + std::to_string(k.collector().inflight_of(u)) + " counted, " +
                                 std::to_string(expected) + " in flight";
            if (k.inflight_corrupted) // the effect of a race already reported: the kernel goes on
                k.warn_finding(std::move(what), std::move(detail));
            else
                k.finding(std::move(what), std::move(detail));
            return;
        }
    }
    if (total != k.unix_tot_inflight)
        k.finding("unix_tot_inflight == AF_UNIX fds in flight",
                  std::to_string(k.unix_tot_inflight) + " != " + std::to_string(total));
    for (const User &user : k.users) {
        auto it = per_user.find(&user);
        const unsigned long expected = it == per_user.end() ? 0 : it->second;
        if (user.unix_inflight != expected)
            k.finding("user->unix_inflight == fds in flight sent by the user",
                      user.name + ": " + std::to_string(user.unix_inflight) + " != " + std::to_string(expected));
    }
    if (k.era() == GcEra::graph && (!k.visited_vertices.empty() || !k.vertex_stack_view.empty()))
        k.finding("no walk state outside a collection", "visited vertices or vertex stack not empty");
}

} // namespace inflight
