// SPDX-License-Identifier: GPL-3.0-or-later
#include "inflight/object_image.hpp"

#include "inflight/kernel.hpp"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>
#include <zstd.h>

namespace inflight {

namespace {

constexpr std::uint32_t kNone = 0xFFFF'FFFFu;
constexpr std::uint32_t kCursor = 0xFFFF'FFFEu; // the restore walk's dummy node on a GC list

std::uint32_t id_of(const UnixSock *u) { return u ? u->id : kNone; }
std::uint32_t id_of(const File *f) { return f ? f->id : kNone; }
std::uint32_t id_of(const SkBuff *s) { return s ? s->slot : kNone; }
std::uint32_t id_of(const UnixVertex *v) { return v ? v->pool_index : kNone; }
std::uint32_t id_of(const User *u) { return u ? u->id : kNone; }
std::uint32_t id_of(const Process *p) { return p ? p->id : kNone; }

// Where each graph edge lives: the skb slot whose SCM_RIGHTS list holds the edge array, and
// the position in it. Edges have no id of their own (the kernel's sit in the fpl too).
class EdgeLocator {
public:
    void add(const UnixEdge *base, std::uint32_t count, std::uint32_t slot) { ranges_.push_back({base, count, slot}); }
    void sort()
    {
        std::sort(ranges_.begin(), ranges_.end(), [](const Range &a, const Range &b) { return a.base < b.base; });
    }
    std::pair<std::uint32_t, std::uint32_t> locate(const UnixEdge *e) const
    {
        auto it = std::upper_bound(ranges_.begin(), ranges_.end(), e,
                                   [](const UnixEdge *x, const Range &r) { return x < r.base; });
        assert(it != ranges_.begin());
        --it;
        assert(e < it->base + it->count);
        return {it->slot, static_cast<std::uint32_t>(e - it->base)};
    }

private:
    struct Range {
        const UnixEdge *base;
        std::uint32_t count;
        std::uint32_t slot;
    };
    std::vector<Range> ranges_;
};

// Buffers of tens of MB are made and dropped at every checkpoint, and glibc hands blocks that
// large back to the kernel: each new one page-faults its way in again, and a restore into cold
// memory costs several times one into warm memory. Each thread keeps its raw and
// compressed buffers for the next time, up to kKeptScratch each (a restore needs none: it
// decompresses through a small window, ImageReader). The raw
// one is shared by all threads: the recorder packs on its thread and the checkpoint store
// compresses (and so lets go of the raw image) on its own, so a per-thread buffer never came
// back to the packer, whose every pack then faulted in fresh memory.
constexpr std::size_t kKeptScratch = std::size_t(64) << 20;
enum class Scratch { raw, compressed };
ByteBuffer &scratch(Scratch which)
{
    thread_local ByteBuffer buffers[2];
    return buffers[static_cast<int>(which)];
}
std::mutex shared_raw_mutex;
ByteBuffer shared_raw;                     // guarded by shared_raw_mutex
std::atomic<std::size_t> last_raw_size{0}; // the last image's size: the next one's estimate
ByteBuffer take_raw_buffer()
{
    std::lock_guard lock(shared_raw_mutex);
    return std::exchange(shared_raw, ByteBuffer());
}
void keep_for_next_time(Scratch which, ByteBuffer &buffer)
{
    if (buffer.capacity() > kKeptScratch)
        return;
    if (which == Scratch::raw) {
        std::lock_guard lock(shared_raw_mutex);
        if (buffer.capacity() > shared_raw.capacity()) {
            buffer.clear();
            shared_raw.swap(buffer);
        }
        return;
    }
    if (buffer.capacity() <= scratch(which).capacity())
        return;
    buffer.clear();
    scratch(which).swap(buffer);
}

} // namespace

ObjectImage::~ObjectImage()
{
    if (!raw_size_)
        keep_for_next_time(Scratch::raw, data_); // a live copy's transient image
}

ObjectImage ObjectImage::pack(const Kernel &k)
{
    assert(k.vertex_stack_view.empty() && k.edge_stack_view.empty());
    ObjectImage img;
    img.data_ = take_raw_buffer(); // its memory, already faulted in, if it has some
    img.data_.clear();
    // Roughly what it will take, so the buffer grows once or twice rather than log(n) times:
    // the last image's size (states change little between checkpoints) or an estimate.
    img.data_.reserve(std::max(last_raw_size.load(std::memory_order_relaxed) / 8 * 9,
                               k.socks.size() * 48 + k.skb_slots_.size() * 72 + k.vertex_pool.size() * 64 +
                                   k.gc_runs.size() * sizeof(GcRun) + 4096));
    ImageWriter w(img.data_);

    // ---- how many of each object: unpack() makes them all first, then reads each object's
    // links as pointers at once, with no temporary array of ids (for a million sockets one would
    // be tens of MB, touched anew by every restore after the idle heap trim handed it back).
    w.put(static_cast<std::uint32_t>(k.socks.size()));
    w.put(static_cast<std::uint32_t>(k.files.size()));
    w.put(static_cast<std::uint32_t>(k.skb_slots_.size()));
    w.put(static_cast<std::uint32_t>(k.vertex_pool.size()));

    // ---- sockets and files ---------------------------------------------------------------------
    for (const UnixSock &u : k.socks) {
        // The flags travel as one word: bit-fields have no address to copy from.
        const std::uint32_t flags = static_cast<std::uint32_t>(u.type) | static_cast<std::uint32_t>(u.state) << 2 |
                                    static_cast<std::uint32_t>(u.freed_by) << 5 | std::uint32_t(u.released) << 7 |
                                    std::uint32_t(u.shutdown) << 8 | std::uint32_t(u.passcred) << 9 |
                                    std::uint32_t(u.passrights) << 10 | std::uint32_t(u.gc_flags) << 11 |
                                    std::uint32_t(u.judged_garbage) << 13 | std::uint32_t(u.conn_reset) << 14;
        w.put(flags);
        w.put(u.on);
        w.put(u.id);
        w.put(u.label);
        w.put(u.address);
        w.put(u.owner);
        w.put(u.nr_fds);
        w.put(u.nr_unix_fds);
        w.put(u.inflight);
        w.put(id_of(u.peer));
        w.put(id_of(u.listener));
        w.put(id_of(u.file));
        w.put(id_of(u.vertex));
        w.put(id_of(u.oob_skb));
        w.put(static_cast<std::uint32_t>(u.receive_queue.size()));
        for (const SkBuff &s : u.receive_queue)
            w.put(s.slot);
    }
    for (const File &f : k.files) {
        w.put(f.id);
        w.put(f.released);
        w.put(f.cause);
        w.put(f.count);
        w.put(id_of(f.sock));
        w.put(f.peeked_step);
        w.put(f.peeked_process);
    }
    w.put(static_cast<std::uint32_t>(k.label_owner.size()));
    for (std::uint32_t owner : k.label_owner)
        w.put(owner);

    // ---- processes and the tasks' pointers -----------------------------------------------------
    w.put(static_cast<std::uint32_t>(k.processes.size()));
    for (const Process &p : k.processes) {
        w.put(p.id);
        w.put_string(p.name);
        w.put(id_of(p.user));
        w.put(p.nofile);
        w.put(static_cast<std::uint32_t>(p.fds.size()));
        for (const File *f : p.fds)
            w.put(id_of(f));
        w.put(static_cast<std::uint32_t>(p.task_work.size()));
        for (const File *f : p.task_work)
            w.put(id_of(f));
        w.put(p.open_count);
        w.put(static_cast<std::uint64_t>(p.next_fd));
        img.fd_names_.push_back(p.names);
    }
    w.put(id_of(k.current));
    for (const Task &t : k.tasks) {
        w.put(id_of(t.process));
        w.put(id_of(t.context));
        w.put(id_of(t.wait_sock));
    }
    w.put(static_cast<std::uint32_t>(k.delayed_fput_list_.size()));
    for (const File *f : k.delayed_fput_list_)
        w.put(id_of(f));

    // ---- skbs with their SCM_RIGHTS lists and graph edges ----------------------------------------
    EdgeLocator edges;
    std::vector<std::pair<const ScmFpList *, std::uint32_t>> fpl_slot;
    for (const auto &slot : k.skb_slots_) {
        const SkBuff &s = *slot;
        w.put(s.id);
        w.put(s.len);
        w.put(s.oob);
        w.put(s.consumed);
        w.put(s.users);
        w.put(id_of(s.sk));
        w.put(id_of(s.sender));
        w.put(id_of(s.queue_owner));
        w.put(id_of(s.receiver));
        w.put(s.creds_owner);
        w.put(static_cast<std::uint8_t>(s.fp != nullptr));
        if (!s.fp)
            continue;
        const ScmFpList &fpl = *s.fp;
        fpl_slot.emplace_back(&fpl, s.slot);
        w.put(static_cast<std::uint32_t>(fpl.fp.size()));
        for (const File *f : fpl.fp)
            w.put(id_of(f));
        w.put(fpl.count_unix);
        w.put(id_of(fpl.user));
        w.put(fpl.inflight);
        w.put(fpl.dead);
        w.put(static_cast<std::uint8_t>(fpl.edges != nullptr));
        if (fpl.edges) {
            const auto n = static_cast<std::uint32_t>(fpl.count_unix);
            edges.add(fpl.edges.get(), n, s.slot);
            for (std::uint32_t j = 0; j < n; ++j) {
                w.put(id_of(fpl.edges[j].predecessor));
                w.put(id_of(fpl.edges[j].successor));
            }
        }
    }
    edges.sort();
    w.put(static_cast<std::uint32_t>(k.free_skbs_.size()));
    for (const SkBuff *s : k.free_skbs_)
        w.put(s->slot);
    // The SCM_RIGHTS registry, in its order: every list belongs to an skb at a quiescent point.
    std::sort(fpl_slot.begin(), fpl_slot.end());
    // One walk of the list (it keeps no size): the count is filled in after it.
    const std::size_t count_at = w.position();
    w.put(std::uint32_t(0));
    std::uint32_t registered = 0;
    for (const ScmFpList &fpl : k.live_fp_lists) {
        auto it = std::lower_bound(fpl_slot.begin(), fpl_slot.end(), std::make_pair(&fpl, std::uint32_t(0)));
        assert(it != fpl_slot.end() && it->first == &fpl);
        w.put(it->second);
        ++registered;
    }
    w.set(count_at, registered);

    // ---- the GC lists and the hitlist ----------------------------------------------------------
    for (const GcList *list : {&k.gc_inflight_list, &k.gc_candidates, &k.not_cycle_list}) {
        w.put(static_cast<std::uint32_t>(list->size()));
        for (const GcLink &l : *list)
            w.put(l.is_cursor ? kCursor : static_cast<const UnixSock &>(l).id);
    }
    w.put(k.cursor.on);
    w.put(static_cast<std::uint32_t>(k.hitlist.size()));
    for (const SkBuff &s : k.hitlist)
        w.put(s.slot);

    // ---- the graph: vertices with their edge lists, the vertex lists ----------------------------
    for (const UnixVertex &v : k.vertex_pool) {
        w.put(id_of(v.scc_prev));
        w.put(id_of(v.scc_next));
        w.put(v.visited_mark);
        w.put(v.verdict_value);
        w.put(v.verdict_run);
        w.put(v.visit_index);
        w.put(v.kept_by);
        w.put(v.kept_where);
        w.put(v.kept_reason);
        w.put(v.verdict_on_ring);
        w.put(v.verdict_root);
        w.put(v.out_degree);
        w.put(v.index);
        w.put(v.scc_index);
        w.put(id_of(v.sock));
        const std::size_t count_at = w.position();
        w.put(std::uint32_t(0));
        std::uint32_t n = 0;
        for (const UnixEdge &e : v.edges) {
            const auto [slot, j] = edges.locate(&e);
            w.put(slot);
            w.put(j);
            ++n;
        }
        w.set(count_at, n);
    }
    for (const VertexList *list : {&k.unvisited_vertices, &k.visited_vertices}) {
        w.put(static_cast<std::uint32_t>(list->size()));
        for (const UnixVertex &v : *list)
            w.put(v.pool_index);
    }
    w.put(static_cast<std::uint32_t>(k.free_vertices.size()));
    for (const UnixVertex *v : k.free_vertices)
        w.put(v->pool_index);

    // ---- histories: collections (the latency samples are shared, not packed: latencies_) ---------
    w.put(static_cast<std::uint64_t>(k.gc_runs.size()));
    for (const GcRun &r : k.gc_runs) {
        w.put_string(r.trigger);
        w.put(r.number);
        w.put(r.skipped);
        w.put(r.inflight_sockets);
        w.put(r.candidates);
        w.put(r.sccs);
        w.put(r.garbage);
        w.put(r.hitlist);
        w.put(r.fast_path);
        w.put(r.micro_steps);
        w.put(r.first_step);
        w.put(r.last_step);
        w.put(r.start_ns);
        w.put(r.end_ns);
        w.put(r.task);
    }
    img.latencies_ = k.latencies;
    w.finish();
    last_raw_size.store(img.data_.size(), std::memory_order_relaxed);
    return img;
}

ObjectImage ObjectImage::compressed_copy() const
{
    if (raw_size_)
        return *this;
    ByteBuffer &out = scratch(Scratch::compressed);
    out.resize(ZSTD_compressBound(data_.size()));
    // Level 1: a checkpoint is taken every few million micro-steps while the recorder runs, so
    // speed matters more than the last few percent (the state's ids compress well anyway).
    const std::size_t n = ZSTD_compress(out.data(), out.size(), data_.data(), data_.size(), 1);
    if (ZSTD_isError(n))
        throw std::runtime_error(std::string("checkpoint compression failed: ") + ZSTD_getErrorName(n));
    ObjectImage img;
    img.data_.assign(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n));
    if (out.capacity() > kKeptScratch)
        ByteBuffer().swap(out);
    img.raw_size_ = data_.size();
    img.fd_names_ = fd_names_;
    img.latencies_ = latencies_;
    return img; // this image's raw buffer goes back to the packer when it is destroyed
}

std::size_t ObjectImage::bytes() const
{
    std::size_t n = sizeof(*this) + data_.capacity() + latencies_.unshared_bytes();
    for (const FdNames &names : fd_names_)
        n += sizeof names + names.bytes();
    return n;
}

void ObjectImage::unpack(Kernel &k) const
{
    ImageReader r(data_.data(), data_.size(), raw_size_ != 0);
    auto sock = [&k](std::uint32_t id) { return id == kNone ? nullptr : &k.socks[id]; };
    auto file = [&k](std::uint32_t id) { return id == kNone ? nullptr : &k.files[id]; };
    auto user = [&k](std::uint32_t id) { return id == kNone ? nullptr : &k.users[id]; };
    auto process = [&k](std::uint32_t id) { return id == kNone ? nullptr : &k.processes[id]; };
    auto vertex = [&k](std::uint32_t id) { return id == kNone ? nullptr : &k.vertex_pool[id]; };
    auto skb = [&k](std::uint32_t slot) { return slot == kNone ? nullptr : k.skb_slots_[slot].get(); };

    // Every socket, file, skb and vertex exists before any is read: a pointer read is set as it
    // is read (the arenas never move their objects).
    const auto nsocks = r.get<std::uint32_t>();
    const auto nfiles = r.get<std::uint32_t>();
    const auto nslots = r.get<std::uint32_t>();
    const auto nvertices = r.get<std::uint32_t>();
    for (std::uint32_t i = 0; i < nsocks; ++i)
        k.socks.emplace_back();
    for (std::uint32_t i = 0; i < nfiles; ++i)
        k.files.emplace_back();
    k.skb_slots_.resize(nslots);
    for (std::uint32_t i = 0; i < nslots; ++i) {
        k.skb_slots_[i] = std::make_unique<SkBuff>();
        k.skb_slots_[i]->slot = i;
    }
    for (std::uint32_t i = 0; i < nvertices; ++i) {
        UnixVertex &v = k.vertex_pool.emplace_back();
        v.pool_index = i;
    }

    for (std::uint32_t i = 0; i < nsocks; ++i) {
        UnixSock &u = k.socks[i];
        const auto flags = r.get<std::uint32_t>();
        u.type = static_cast<SockType>(flags & 3);
        u.state = static_cast<SockState>(flags >> 2 & 7);
        u.freed_by = static_cast<FreedBy>(flags >> 5 & 3);
        u.released = flags >> 7 & 1;
        u.shutdown = flags >> 8 & 1;
        u.passcred = flags >> 9 & 1;
        u.passrights = flags >> 10 & 1;
        u.gc_flags = flags >> 11 & 3;
        u.judged_garbage = flags >> 13 & 1;
        u.conn_reset = flags >> 14 & 1;
        u.on = r.get<ListId>();
        u.id = r.get<std::uint32_t>();
        u.label = r.get<std::uint32_t>();
        u.address = r.get<std::uint32_t>();
        u.owner = r.get<std::uint32_t>();
        u.nr_fds = r.get<std::uint32_t>();
        u.nr_unix_fds = r.get<std::uint32_t>();
        u.inflight = r.get<std::int32_t>();
        u.peer = sock(r.get<std::uint32_t>());
        u.listener = sock(r.get<std::uint32_t>());
        u.file = file(r.get<std::uint32_t>());
        u.vertex = vertex(r.get<std::uint32_t>());
        u.oob_skb = skb(r.get<std::uint32_t>());
        const auto queued = r.get<std::uint32_t>();
        for (std::uint32_t j = 0; j < queued; ++j)
            u.receive_queue.push_back(*k.skb_slots_[r.get<std::uint32_t>()]);
    }
    for (std::uint32_t i = 0; i < nfiles; ++i) {
        File &f = k.files[i];
        f.id = r.get<std::uint32_t>();
        f.released = r.get<bool>();
        f.cause = r.get<FreedBy>();
        f.count = r.get<long>();
        f.sock = sock(r.get<std::uint32_t>());
        f.peeked_step = r.get<std::uint64_t>();
        f.peeked_process = r.get<std::uint32_t>();
    }
    // The tables a replay from here grows get their room now, as the running kernel makes it
    // (label_owner and the fd names: the name pool's capacity; an fd table: a quarter more).
    // Copied at their size, the first socket a replay made moved tens of MB to bigger blocks.
    const auto nlabels = r.get<std::uint32_t>();
    k.label_owner.reserve(std::max<std::size_t>(nlabels, k.name_pool.capacity()));
    k.label_owner.resize(nlabels);
    for (std::uint32_t &owner : k.label_owner)
        owner = r.get<std::uint32_t>();

    // Processes and the tasks' pointers.
    const auto nprocs = r.get<std::uint32_t>();
    for (std::uint32_t i = 0; i < nprocs; ++i) {
        Process &p = k.processes.emplace_back();
        p.id = r.get<std::uint32_t>();
        p.name = r.get_string();
        p.user = user(r.get<std::uint32_t>());
        p.nofile = r.get<std::uint64_t>();
        const auto nfds = r.get<std::uint32_t>();
        p.fds.reserve(std::size_t{nfds} + nfds / 4);
        p.fds.resize(nfds);
        for (File *&f : p.fds)
            f = file(r.get<std::uint32_t>());
        p.task_work.resize(r.get<std::uint32_t>());
        for (File *&f : p.task_work)
            f = file(r.get<std::uint32_t>());
        p.open_count = r.get<std::uint32_t>();
        p.next_fd = static_cast<std::size_t>(r.get<std::uint64_t>());
        p.pool = &k.name_pool;
        p.names = fd_names_[i].copy_with_room(k.name_pool.capacity());
    }
    k.current = process(r.get<std::uint32_t>());
    for (Task &t : k.tasks) {
        t.process = process(r.get<std::uint32_t>());
        t.context = process(r.get<std::uint32_t>());
        t.wait_sock = sock(r.get<std::uint32_t>());
    }
    // Room for what the replay after a restore adds (a collection's purge queues every file it
    // frees): grown from an exact fit, these lists made malloc consolidate on the seek's path.
    k.delayed_fput_list_.reserve(nfiles);
    k.delayed_fput_list_.resize(r.get<std::uint32_t>());
    for (File *&f : k.delayed_fput_list_)
        f = file(r.get<std::uint32_t>());

    // skbs with their SCM_RIGHTS lists and edges.
    for (std::uint32_t i = 0; i < nslots; ++i) {
        SkBuff *s = k.skb_slots_[i].get();
        s->id = r.get<std::uint32_t>();
        s->len = r.get<std::uint64_t>();
        s->oob = r.get<bool>();
        s->consumed = r.get<bool>();
        s->users = r.get<std::uint8_t>();
        s->sk = sock(r.get<std::uint32_t>());
        s->sender = sock(r.get<std::uint32_t>());
        s->queue_owner = sock(r.get<std::uint32_t>());
        s->receiver = sock(r.get<std::uint32_t>());
        s->creds_owner = r.get<std::uint32_t>();
        if (r.get<std::uint8_t>()) {
            auto fpl = std::make_unique<ScmFpList>();
            fpl->fp.resize(r.get<std::uint32_t>());
            for (File *&f : fpl->fp)
                f = file(r.get<std::uint32_t>());
            fpl->count_unix = r.get<short>();
            fpl->user = user(r.get<std::uint32_t>());
            fpl->inflight = r.get<bool>();
            fpl->dead = r.get<bool>();
            if (r.get<std::uint8_t>()) {
                const auto n = static_cast<std::size_t>(fpl->count_unix);
                fpl->edges = k.edge_pool.allocate(static_cast<std::uint32_t>(n));
                for (std::size_t j = 0; j < n; ++j) {
                    fpl->edges[j].predecessor = sock(r.get<std::uint32_t>());
                    fpl->edges[j].successor = sock(r.get<std::uint32_t>());
                }
            }
            s->fp = std::move(fpl);
        }
    }
    k.free_skbs_.reserve(nslots);
    k.free_skbs_.resize(r.get<std::uint32_t>());
    for (SkBuff *&s : k.free_skbs_)
        s = skb(r.get<std::uint32_t>());
    const auto registered = r.get<std::uint32_t>();
    for (std::uint32_t i = 0; i < registered; ++i)
        k.live_fp_lists.push_back(*k.skb_slots_[r.get<std::uint32_t>()]->fp);

    // The GC lists and the hitlist.
    for (GcList *list : {&k.gc_inflight_list, &k.gc_candidates, &k.not_cycle_list}) {
        const auto n = r.get<std::uint32_t>();
        for (std::uint32_t i = 0; i < n; ++i) {
            const auto id = r.get<std::uint32_t>();
            if (id == kCursor)
                list->push_back(k.cursor);
            else
                list->push_back(k.socks[id]);
        }
    }
    k.cursor.on = r.get<ListId>();
    const auto nhit = r.get<std::uint32_t>();
    for (std::uint32_t i = 0; i < nhit; ++i)
        k.hitlist.push_back(*k.skb_slots_[r.get<std::uint32_t>()]);

    // The graph.
    for (UnixVertex &v : k.vertex_pool) {
        v.scc_prev = vertex(r.get<std::uint32_t>());
        v.scc_next = vertex(r.get<std::uint32_t>());
        v.visited_mark = r.get<std::uint64_t>();
        v.verdict_value = r.get<std::int8_t>();
        v.verdict_run = r.get<std::uint64_t>();
        v.visit_index = r.get<std::uint32_t>();
        v.kept_by = r.get<std::uint32_t>();
        v.kept_where = r.get<std::uint32_t>();
        v.kept_reason = r.get<std::uint8_t>();
        v.verdict_on_ring = r.get<bool>();
        v.verdict_root = r.get<std::uint32_t>();
        v.out_degree = r.get<unsigned long>();
        v.index = r.get<unsigned long>();
        v.scc_index = r.get<unsigned long>();
        v.sock = sock(r.get<std::uint32_t>());
        v.sock_id = v.sock ? v.sock->id : npos;
        const auto n = r.get<std::uint32_t>();
        for (std::uint32_t i = 0; i < n; ++i) {
            const auto slot = r.get<std::uint32_t>();
            const auto j = r.get<std::uint32_t>();
            v.edges.push_back(k.skb_slots_[slot]->fp->edges[j]);
        }
    }
    for (VertexList *list : {&k.unvisited_vertices, &k.visited_vertices}) {
        const auto n = r.get<std::uint32_t>();
        for (std::uint32_t i = 0; i < n; ++i)
            list->push_back(k.vertex_pool[r.get<std::uint32_t>()]);
    }
    k.free_vertices.resize(r.get<std::uint32_t>());
    for (UnixVertex *&v : k.free_vertices)
        v = vertex(r.get<std::uint32_t>());

    // Histories.
    const auto nruns = r.get<std::uint64_t>();
    k.gc_runs.reserve(static_cast<std::size_t>(nruns + nruns / 4 + 16));
    for (std::uint64_t i = 0; i < nruns; ++i) {
        GcRun &run = k.gc_runs.emplace_back();
        run.trigger = r.get_string();
        run.number = r.get<std::uint32_t>();
        run.skipped = r.get<bool>();
        run.inflight_sockets = r.get<std::uint32_t>();
        run.candidates = r.get<std::uint32_t>();
        run.sccs = r.get<std::uint32_t>();
        run.garbage = r.get<std::uint32_t>();
        run.hitlist = r.get<std::uint32_t>();
        run.fast_path = r.get<bool>();
        run.micro_steps = r.get<std::uint64_t>();
        run.first_step = r.get<std::uint64_t>();
        run.last_step = r.get<std::uint64_t>();
        run.start_ns = r.get<std::uint64_t>();
        run.end_ns = r.get<std::uint64_t>();
        run.task = r.get<std::uint32_t>();
    }
    k.latencies = latencies_;
    if (!r.at_end())
        throw std::runtime_error("a checkpoint's image is longer than its objects");
}

// ---- ImageReader's window on a compressed image ----------------------------------------------

struct ImageReader::Stream {
    // A few hundred KB: large enough that a refill is rare, small enough to stay in the cache.
    static constexpr std::size_t kWindow = std::size_t(256) << 10;
    // Windows a decompressing thread may run ahead of the reader.
    static constexpr std::size_t kAhead = 4;
    // Room in front of each window for what was left unread of the one before (a value's
    // bytes may straddle two windows; a value is at most 8 bytes).
    static constexpr std::size_t kCarry = 16;
    // Below this (compressed; ~1.5 MB raw, half a millisecond to decompress) a thread costs
    // more than it saves: the reader decompresses as it goes.
    static constexpr std::size_t kThreadedFrom = std::size_t(256) << 10;

    struct Window {
        std::unique_ptr<std::byte[]> bytes{new std::byte[kCarry + kWindow]};
        std::size_t size = 0; // decompressed bytes, after the carry room
    };

    ZSTD_DCtx *dctx = nullptr;
    ZSTD_inBuffer in{};
    std::vector<Window> ring; // kAhead windows with a thread, one without

    // Between the thread and the reader, under m: windows are filled in order, `filled` of
    // them so far; the reader holds window `released` (when `holding`) and gives it back.
    std::mutex m;
    std::condition_variable cv;
    std::size_t filled = 0;
    std::size_t released = 0;
    bool holding = false;
    bool frame_done = false; // no window after the last filled one
    std::string error;       // why decompression stopped short, if it did
    bool stop = false;       // the reader is gone early
    std::thread worker;

    ~Stream()
    {
        if (worker.joinable()) {
            {
                std::lock_guard lock(m);
                stop = true;
            }
            cv.notify_all();
            worker.join();
        }
        ZSTD_freeDCtx(dctx);
    }

    // Decompresses the next window into w. Returns false once the frame is over (ended, or
    // `why` says what went wrong).
    bool fill(Window &w, std::string &why)
    {
        ZSTD_outBuffer out{w.bytes.get() + kCarry, kWindow, 0};
        bool ended = false;
        while (out.pos < out.size) {
            const std::size_t r = ZSTD_decompressStream(dctx, &out, &in);
            if (ZSTD_isError(r)) {
                why = std::string("a checkpoint's image does not decompress: ") + ZSTD_getErrorName(r);
                break;
            }
            if (r == 0) {
                ended = true; // the frame is whole (possibly with this window exactly full)
                break;
            }
            if (in.pos == in.size && out.pos < out.size) {
                why = "a checkpoint's image is cut short";
                break;
            }
        }
        w.size = out.pos;
        return !ended && out.pos == out.size && why.empty();
    }

    void decompress_ahead()
    {
        for (std::size_t n = 0;; ++n) {
            {
                std::unique_lock lock(m);
                cv.wait(lock, [&] { return stop || n - released < kAhead; });
                if (stop)
                    return;
            }
            std::string why;
            const bool more = fill(ring[n % kAhead], why);
            {
                std::lock_guard lock(m);
                ++filled;
                frame_done = !more;
                error = std::move(why);
            }
            cv.notify_all();
            if (!more)
                return;
        }
    }

    // The next window, once filled; null after the last one. Throws what decompression found.
    Window *next()
    {
        if (!worker.joinable()) {
            if (frame_done)
                return nullptr;
            frame_done = !fill(ring[0], error);
            if (!error.empty())
                throw std::runtime_error(error);
            return &ring[0];
        }
        std::unique_lock lock(m);
        if (holding) {
            ++released;
            holding = false;
            cv.notify_all();
        }
        cv.wait(lock, [&] { return filled > released || frame_done; });
        if (filled == released) {
            if (!error.empty())
                throw std::runtime_error(error);
            return nullptr;
        }
        holding = true;
        // An error stops after the window it was found in: that window's bytes are good.
        return &ring[released % kAhead];
    }
};

ImageReader::ImageReader(const std::byte *data, std::size_t size, bool compressed) : p_(data), end_(data + size)
{
    if (!compressed)
        return;
    stream_ = std::make_unique<Stream>();
    Stream &s = *stream_;
    s.dctx = ZSTD_createDCtx();
    if (!s.dctx)
        throw std::bad_alloc();
    s.in = ZSTD_inBuffer{data, size, 0};
    const bool threaded = size >= Stream::kThreadedFrom;
    s.ring.resize(threaded ? Stream::kAhead : 1);
    if (threaded)
        s.worker = std::thread([&s] { s.decompress_ahead(); });
    p_ = end_ = s.ring[0].bytes.get() + Stream::kCarry;
}

ImageReader::~ImageReader() = default;

void ImageReader::refill(std::size_t need)
{
    if (!stream_)
        throw std::runtime_error("a checkpoint's image ends before its objects do");
    assert(need <= Stream::kCarry);
    while (static_cast<std::size_t>(end_ - p_) < need) {
        // What is left of this window goes in front of the next one.
        std::byte carry[Stream::kCarry];
        const auto left = static_cast<std::size_t>(end_ - p_);
        std::memcpy(carry, p_, left);
        Stream::Window *w = stream_->next();
        if (!w)
            throw std::runtime_error("a checkpoint's image ends before its objects do");
        std::byte *data = w->bytes.get() + Stream::kCarry;
        std::memcpy(data - left, carry, left);
        p_ = data - left;
        end_ = data + w->size;
    }
}

bool ImageReader::at_end()
{
    if (p_ != end_)
        return false;
    if (!stream_)
        return true;
    try {
        // Windows may remain that hold nothing (the frame's end fell on a window's edge).
        while (Stream::Window *w = stream_->next()) {
            p_ = end_ = w->bytes.get() + Stream::kCarry;
            if (w->size != 0) {
                end_ += w->size;
                return false;
            }
        }
    } catch (const std::runtime_error &) {
        return false; // the frame did not end cleanly
    }
    return true;
}

} // namespace inflight
