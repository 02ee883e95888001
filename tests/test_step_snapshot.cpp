// SPDX-License-Identifier: GPL-3.0-or-later
// The step snapshot the docks read (step_snapshot.hpp) and the inspector's socket detail
// (socket_detail.hpp), checked against the kernel state they were taken from at every step of
// the shipped self-test scenes under the classic and the graph collector: list orders, counts,
// globals, labels, and the sharing that keeps a snapshot cheap.
#include "inflight/kernel.hpp"
#include "inflight/parser.hpp"
#include "inflight/simulation.hpp"
#include "inflight/socket_detail.hpp"
#include "inflight/step_snapshot.hpp"
#include "scene_runner.hpp"

#include <QDir>
#include <QTest>

#include <numeric>
#include <set>

using namespace inflight;
using namespace inflight::test;

namespace {

std::vector<std::string> selftestScenes()
{
    std::vector<std::string> out;
    const QDir dir(QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes"));
    for (const QString &f : dir.entryList({QStringLiteral("selftest-*.scn")}, QDir::Files, QDir::Name))
        out.push_back(dir.filePath(f).toStdString());
    return out;
}

// The sockets whose u->on says `id`, in id order: the list's members found without walking it.
std::vector<std::uint32_t> membersByField(const Kernel &k, ListId id)
{
    std::vector<std::uint32_t> out;
    for (const UnixSock &u : k.socks)
        if (u.on == id)
            out.push_back(u.id);
    return out;
}

// Compares one snapshot with the state; returns "" or what differs (QVERIFY2 gives the step).
std::string mismatch(const Simulation &sim, const StepSnapshot &s)
{
    const Kernel &k = sim.kernel();
    if (s.position != sim.steps())
        return "position";
    if (s.era != k.era() || s.gc_phase != k.gc_phase || s.current_line != sim.current_line() ||
        s.collection_running != sim.gc_in_progress())
        return "where the run is";
    if (s.collection != (k.gc_runs.empty() ? 0 : k.gc_runs.back().number))
        return "collection number";

    // Each list: in the kernel's order, and exactly the sockets whose u->on names it.
    std::size_t cursors = 0;
    for (ListId id : {ListId::gc_inflight_list, ListId::gc_candidates, ListId::not_cycle_list}) {
        const std::vector<ListEntry> &rows = *s.list(id);
        const GcList &list = const_cast<Kernel &>(k).gc_list(id);
        if (rows.size() != list.size())
            return std::string(list_name(id)) + " size";
        std::size_t i = 0;
        for (const GcLink &link : list) {
            const ListEntry &r = rows[i++];
            if (link.is_cursor != r.is_cursor())
                return std::string(list_name(id)) + " cursor place";
            cursors += r.is_cursor();
            if (r.is_cursor())
                continue;
            const UnixSock &u = k.socks[r.sock];
            if (&static_cast<const UnixSock &>(link) != &u || u.inflight != r.inflight ||
                (u.file ? u.file->count : 0) != r.file_refs || u.gc_flags != r.gc_flags || role_of(k, u) != r.role)
                return std::string(list_name(id)) + " entry of " + k.label_of(u);
        }
        std::vector<std::uint32_t> ids;
        for (const ListEntry &r : rows)
            if (!r.is_cursor())
                ids.push_back(r.sock);
        std::sort(ids.begin(), ids.end());
        if (ids != membersByField(k, id))
            return std::string(list_name(id)) + " members";
    }
    if (cursors > 1 || (cursors == 1 && k.gc_phase != GcPhase::restore))
        return "the cursor outside the restore walk";

    // The hitlist: its skbs in order, each with the files it carries.
    if (s.hitlist.size() != k.hitlist.size() || s.globals.hitlist_size != k.hitlist.size())
        return "hitlist size";
    std::size_t h = 0;
    for (const SkBuff &skb : k.hitlist) {
        const SkbEntry &e = s.hitlist[h++];
        std::size_t files = 0;
        if (skb.fp)
            for (const File *f : skb.fp->fp)
                files += f != nullptr;
        if (e.id != skb.id || e.carried.size() != files || e.receiver != (skb.receiver ? skb.receiver->id : npos))
            return "hitlist skb " + std::to_string(skb.id);
    }

    // The walk's stacks, bottom first.
    if (s.vertex_stack.size() != k.vertex_stack_view.size() || s.edge_stack.size() != k.edge_stack_view.size())
        return "stack sizes";
    for (std::size_t i = 0; i < s.vertex_stack.size(); ++i) {
        const UnixVertex &v = *k.vertex_stack_view[i];
        const VertexEntry &e = s.vertex_stack[i];
        if (e.sock != v.sock->id || e.index != static_cast<long>(v.index) ||
            e.scc_index != static_cast<long>(v.scc_index) || e.out_degree != static_cast<long>(v.out_degree) ||
            e.role != role_of(k, *v.sock))
            return "vertex stack entry " + std::to_string(i);
    }
    for (std::size_t i = 0; i < s.edge_stack.size(); ++i) {
        const UnixEdge &edge = *k.edge_stack_view[i];
        const EdgeEntry &e = s.edge_stack[i];
        if (e.from != edge.predecessor->id || e.to != edge.successor->id)
            return "edge stack entry " + std::to_string(i);
        // Only an unaccepted embryo's edges point past their successor, at its listener.
        if ((e.effective_to != e.to) != (edge.successor->listener != nullptr))
            return "edge stack effective successor " + std::to_string(i);
    }
    // Every ring the fast path walks closes on itself.
    for (const auto &[from, prev] : s.scc_prev) {
        std::uint32_t at = prev;
        std::size_t hops = 0;
        while (at != from && hops++ <= s.scc_prev.size())
            at = s.scc_prev.count(at) ? s.scc_prev.at(at) : from + 1;
        if (at != from)
            return "an SCC ring that does not close";
    }
    if (!s.scc_prev.empty() && k.gc_phase != GcPhase::fast_walk)
        return "rings outside the fast path";

    // Globals: every user with fds in flight is there, and root.
    const CollectorGlobals &g = s.globals;
    if (g.unix_tot_inflight != k.unix_tot_inflight || g.gc_in_progress != k.gc_in_progress ||
        g.graph_maybe_cyclic != k.graph_maybe_cyclic || g.graph_grouped != k.graph_grouped ||
        g.unvisited_index != k.unvisited_index || g.grouped_index != k.grouped_index ||
        g.max_scc_index != k.max_scc_index)
        return "globals";
    const unsigned long user_total = std::accumulate(
        k.users.begin(), k.users.end(), 0ul, [](unsigned long t, const User &u) { return t + u.unix_inflight; });
    unsigned long shown_total = 0;
    for (const UserInflight &u : g.users)
        shown_total += u.unix_inflight;
    if (g.users.empty() || g.users.front().name != k.users.front().name || shown_total != user_total)
        return "users' unix_inflight";

    // Labels of every socket made so far, and the leaked marks.
    if (s.sockets != k.socks.size() || !s.labels || s.labels->size() != k.socks.size())
        return "socket count";
    for (std::uint32_t id = 0; id < k.socks.size(); ++id)
        if (s.label(id) != k.label_of_id(id))
            return "label of socket " + std::to_string(id);
    if (s.label(static_cast<std::uint32_t>(k.socks.size())) != "?")
        return "label past the end";
    if (!s.leaked || *s.leaked != k.leaked)
        return "leaked marks";
    return {};
}

// The inspector's detail of one socket, against the kernel: the counts it shows come from
// separate walks (fds listed vs fd_refs, copies in queues vs fp_refs). A copy may be held by an
// SCM_RIGHTS list in no queue (a send under way, an OOB skb already read that u->oob_skb still
// holds), so the copies the inspector lists are at most fp_refs.
std::string detailMismatch(const Kernel &k, std::uint32_t id)
{
    const std::optional<SocketDetail> d = socket_detail(k, id);
    const UnixSock &u = k.socks[id];
    if (!d || d->label != k.label_of(u) || d->state != u.state || d->type != u.type)
        return "identity";
    if (d->has_file != (u.file != nullptr))
        return "file";
    if (u.file) {
        if (d->file_refs != u.file->count || d->fds.size() != d->fd_refs || d->fd_refs != k.fd_refs(*u.file))
            return "fds";
        int copies = 0;
        for (const FileInFlight &f : d->in_flight)
            copies += f.copies;
        if (d->fp_refs != k.fp_refs(*u.file) || static_cast<std::uint32_t>(copies) > d->fp_refs)
            return "copies in flight";
    }
    if (d->queue.size() != u.receive_queue.size())
        return "queue";
    if (d->role != role_of(k, u) || d->has_vertex != (u.vertex != nullptr))
        return "collector's view";
    if (!d->why || d->why->sock != id)
        return "why alive";
    return {};
}

} // namespace

class TestStepSnapshot : public QObject {
    Q_OBJECT
    std::size_t hitlist_rows_seen_ = 0;
private slots:
    void everyStepOfTheSelftests_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("era");
        const auto scenes = selftestScenes();
        QVERIFY(scenes.size() >= 10);
        for (const std::string &p : scenes)
            for (GcEra era : {GcEra::classic, GcEra::graph})
                QTest::newRow((QFileInfo(QString::fromStdString(p)).fileName() + QLatin1Char('/') +
                               QString::fromUtf8(era_name(era).data(), qsizetype(era_name(era).size())))
                                  .toUtf8()
                                  .constData())
                    << QString::fromStdString(p) << static_cast<int>(era);
    }
    void everyStepOfTheSelftests()
    {
        QFETCH(QString, path);
        QFETCH(int, era);
        ParseResult r = load_scene_file(path.toStdString());
        QVERIFY(r.ok());
        SimulationOptions o;
        o.era = static_cast<GcEra>(era);
        o.record = false;
        Simulation sim(std::make_shared<const Scene>(std::move(r.scene)), o);
        std::optional<StepSnapshot> previous;
        std::size_t list_rows = 0, stack_rows = 0, hitlist_rows = 0, details = 0;
        for (;;) {
            StepSnapshot s = snapshot_step(sim, previous ? &*previous : nullptr);
            const std::string bad = mismatch(sim, s);
            QVERIFY2(bad.empty(), ("step " + std::to_string(sim.steps()) + ": " + bad).c_str());
            // Unchanged parts are the previous snapshot's objects, not copies.
            if (previous && previous->sockets == s.sockets)
                QCOMPARE(s.labels.get(), previous->labels.get());
            if (previous && *previous->leaked == *s.leaked)
                QCOMPARE(s.leaked.get(), previous->leaked.get());
            list_rows += s.gc_inflight_list.size() + s.gc_candidates.size() + s.not_cycle_list.size();
            stack_rows += s.vertex_stack.size() + s.edge_stack.size();
            hitlist_rows += s.hitlist.size();
            if (sim.steps() % 7 == 0)
                for (std::uint32_t id = 0; id < sim.kernel().socks.size(); ++id, ++details) {
                    const std::string d = detailMismatch(sim.kernel(), id);
                    QVERIFY2(d.empty(), ("step " + std::to_string(sim.steps()) + ", socket " +
                                         sim.kernel().label_of_id(id) + ": " + d)
                                            .c_str());
                }
            previous = std::move(s);
            if (!sim.step())
                break;
        }
        QVERIFY(sim.steps() > 20);
        QVERIFY(details > 0);
        // The scenes put sockets in flight and collect them (unless the scene disables the
        // collector): the lists (classic) or the walk's stacks (graph), and the hitlist, were
        // compared while not empty.
        if (!path.contains(QLatin1String("-disabled")))
            QVERIFY((static_cast<GcEra>(era) == GcEra::graph ? stack_rows : list_rows) > 0);
        hitlist_rows_seen_ += hitlist_rows; // not every scene frees garbage (mixed-lowpoint leaks)
    }
    void theHitlistWasCompared() { QVERIFY(hitlist_rows_seen_ > 0); }

    // The labels table of a later step serves an earlier one (a step back) and a larger one
    // (sockets created since): its full chunks are kept, the rest is read again.
    void labelsAcrossChunksForwardAndBack()
    {
        // 600 sockets: two full chunks and part of a third (300 fds a process can hold).
        auto sim = run_scene("repeat 300 as i {\n  socketpair a$i b$i\n}\n", GcEra::graph);
        QVERIFY(sim);
        const Kernel &k = sim->kernel();
        QCOMPARE(k.socks.size(), std::size_t(600));
        // A table made at the end, then used as the previous of a fresh run's steps.
        const auto end = SocketLabels::of(k, nullptr);
        auto again = run_scene("repeat 150 as i {\n  socketpair a$i b$i\n}\n", GcEra::graph);
        QVERIFY(again);
        const auto back = SocketLabels::of(again->kernel(), end); // fewer sockets: a step back
        QCOMPARE(back->size(), std::size_t(300));
        for (std::uint32_t id = 0; id < 300; ++id)
            QCOMPARE((*back)[id], std::string_view(again->kernel().label_of_id(id)));
        const auto forward = SocketLabels::of(k, back); // more again
        QCOMPARE(forward->size(), std::size_t(600));
        for (std::uint32_t id = 0; id < 600; ++id)
            QCOMPARE((*forward)[id], std::string_view(k.label_of_id(id)));
        QCOMPARE((*forward)[600], std::string_view("?"));
        QCOMPARE(SocketLabels::of(k, forward).get(), forward.get());
    }

    // A detail asked for a socket the run has not made is none, not a crash.
    void detailOfAnUnmadeSocket()
    {
        auto sim = run_scene("socketpair a b\n");
        QVERIFY(sim);
        QVERIFY(socket_detail(sim->kernel(), 1).has_value());
        QVERIFY(!socket_detail(sim->kernel(), 2).has_value());
        QVERIFY(!socket_detail(sim->kernel(), npos).has_value());
    }
};

QTEST_GUILESS_MAIN(TestStepSnapshot)
#include "test_step_snapshot.moc"
