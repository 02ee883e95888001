// SPDX-License-Identifier: GPL-3.0-or-later
// The socket model: references, errno behaviour, release and its cascade, per-era triggers.
#include "scene_runner.hpp"

#include "inflight/recycling_block_source.hpp"

#include <QTest>

using namespace inflight;
using namespace inflight::test;

class TestKernel : public QObject {
    Q_OBJECT
private slots:
    void sendHoldsOneReferencePerCopy()
    {
        for (GcEra era : {GcEra::classic, GcEra::async, GcEra::graph}) {
            auto sim = run_scene("socketpair a b\nsocketpair c d\nsend a fds=c,c,d\n", era);
            QVERIFY(sim);
            QVERIFY2(sim->kernel().findings.empty(), findings_of(*sim).c_str());
            // fd + two copies in flight; the send-time cookie's references are gone again.
            QCOMPARE(sock(*sim, "c").file->count, 3L);
            QCOMPARE(sock(*sim, "d").file->count, 2L);
            QCOMPARE(sim->kernel().collector().inflight_of(sock(*sim, "c")), 2L);
            QCOMPARE(sim->kernel().unix_tot_inflight, 3UL);
            QCOMPARE(sim->kernel().root().unix_inflight, 3UL);
            QCOMPARE(sock(*sim, "b").receive_queue.size(), std::size_t(1));
        }
    }

    void classicCountsInflightBeforeQueueing()
    {
        // Up to 6.9 the socket is in flight at attach time, before the skb is queued, while
        // the cookie's references keep file_count above inflight.
        auto scene = scene_of("set gc classic\nsocketpair a b\nsocketpair c d\nsend a fds=c\n");
        SimulationOptions o;
        o.checked = true;
        Simulation sim(scene, o);
        bool saw_inflight = false, queued_after = false;
        while (const Event *e = sim.step()) {
            if (e->kind == EventKind::inflight_change && e->fn == KFn::unix_inflight) {
                saw_inflight = true;
                QCOMPARE(sim.kernel().files[e->a].count, 3L); // fd + cookie + skb list
            }
            if (e->kind == EventKind::skb_queue && saw_inflight)
                queued_after = true;
        }
        QVERIFY(saw_inflight && queued_after);
    }

    void graphAddsEdgesAtEnqueue()
    {
        auto scene = scene_of("set gc graph\nsocketpair a b\nsocketpair c d\nsend a fds=c\n");
        Simulation sim(scene);
        // As unix_stream_sendmsg() does under unix_state_lock(other): scm_stat_add() ->
        // unix_add_edges(), then skb_queue_tail(). The other way round a reader on another CPU
        // could dequeue and free the fpl while the sender still spun on unix_gc_lock to add its
        // edges (tests/fuzz/regressions/graph-add-edges-vs-concurrent-recv.scn).
        bool queued = false, added = false;
        while (const Event *e = sim.step()) {
            if (e->kind == EventKind::skb_queue && e->b == sock(sim, "b").id) {
                QVERIFY2(added, "the edge is added as the skb is queued, just before it");
                queued = true;
            }
            if (e->kind == EventKind::edge_add) {
                QVERIFY2(!queued, "the edge is added as the skb is queued, just before it");
                added = true;
            }
        }
        QVERIFY(queued);
        QCOMPARE(sim.kernel().collector().inflight_of(sock(sim, "c")), 1L);
    }

    void errnoTable_data()
    {
        QTest::addColumn<QString>("scene");
        QTest::addColumn<QString>("err");
        QTest::newRow("EBADF closed fd") << "socketpair a b\nclose a\nsend a\n"
                                         << "EBADF";
        QTest::newRow("EBADF carried fd") << "socketpair a b\nsocketpair c d\nclose c\nsend a fds=c\n"
                                          << "EBADF";
        QTest::newRow("EINVAL 254 fds") << "socketpair a b\nsend a fds=" + QString("b,").repeated(253) + "b\n"
                                        << "EINVAL";
        QTest::newRow("EOPNOTSUPP oob dgram") << "socketpair a b dgram\nsend a oob\n"
                                              << "EOPNOTSUPP";
        QTest::newRow("EOPNOTSUPP oob seqpacket") << "socketpair a b seqpacket\nsend a oob\n"
                                                  << "EOPNOTSUPP";
        QTest::newRow("ENOTCONN stream") << "socket s\nsend s\n"
                                         << "ENOTCONN";
        QTest::newRow("ENOTCONN dgram") << "socket s dgram\nsend s\n"
                                        << "ENOTCONN";
        QTest::newRow("ECONNREFUSED no name") << "socket s\nconnect s @nobody\n"
                                              << "ECONNREFUSED";
        QTest::newRow("ECONNREFUSED not listening") << "socket l\nbind l @srv\nsocket s\nconnect s @srv\n"
                                                    << "ECONNREFUSED";
        QTest::newRow("ECONNREFUSED dgram to") << "socket s dgram\nsend s to=@nobody\n"
                                               << "ECONNREFUSED";
        QTest::newRow("ECONNREFUSED type space") << "socket l\nbind l @srv\nlisten l\nsocket s dgram\nconnect s @srv\n"
                                                 << "ECONNREFUSED";
        QTest::newRow("EISCONN") << "socket l\nbind l @srv\nlisten l\nsocket s\nconnect s @srv\nconnect s @srv\n"
                                 << "EISCONN";
        QTest::newRow("EISCONN to= on stream") << "socketpair a b\nsend a to=@x\n"
                                               << "EISCONN";
        QTest::newRow("EADDRINUSE") << "socket a\nbind a @x\nsocket b\nbind b @x\n"
                                    << "EADDRINUSE";
        QTest::newRow("EINVAL listen unbound") << "socket a\nlisten a\n"
                                               << "EINVAL";
        QTest::newRow("EOPNOTSUPP listen dgram") << "socket a dgram\nbind a @x\nlisten a\n"
                                                 << "EOPNOTSUPP";
        QTest::newRow("EINVAL accept not listening") << "socketpair a b\naccept a c\n"
                                                     << "EINVAL";
        QTest::newRow("EAGAIN accept empty") << "socket l\nbind l @srv\nlisten l\naccept l c\n"
                                             << "EAGAIN";
        QTest::newRow("EAGAIN recv empty") << "socketpair a b\nrecv a\n"
                                           << "EAGAIN";
        QTest::newRow("EPIPE peer gone") << "socketpair a b\nclose b\nsend a\n"
                                         << "EPIPE";
        // A peer released with data unread leaves ECONNRESET (sk_err): a stream read sees it once
        // the queue is empty, a seqpacket read or send before anything else.
        QTest::newRow("ECONNRESET stream, after the data")
            << "socketpair a b\nsend b\nsend a\nclose b\nrecv a\nrecv a\n"
            << "ECONNRESET";
        QTest::newRow("ECONNRESET seqpacket, before the data")
            << "socketpair a b seqpacket\nsend b\nsend a\nclose b\nrecv a\n"
            << "ECONNRESET";
        QTest::newRow("ECONNRESET seqpacket send") << "socketpair a b seqpacket\nsend a\nclose b\nsend a\n"
                                                   << "ECONNRESET";
        QTest::newRow("EAGAIN dgram peer gone") << "socketpair a b dgram\nclose b\nrecv a\n"
                                                << "EAGAIN";
        QTest::newRow("ECONNREFUSED dgram peer gone") << "socketpair a b dgram\nclose b\nsend a\n"
                                                      << "ECONNREFUSED";
        QTest::newRow("EPERM dgram peer connected elsewhere")
            << "socket x dgram\nbind x @x\nsocket y dgram\nbind y @y\nconnect x @y\nsocket s dgram\nsend s to=@x\n"
            << "EPERM";
        QTest::newRow("EINVAL recv oob without oob") << "socketpair a b\nrecv a oob\n"
                                                     << "EINVAL";
        QTest::newRow("EOPNOTSUPP recv oob dgram") << "socketpair a b dgram\nrecv a oob\n"
                                                   << "EOPNOTSUPP";
        QTest::newRow("ENOPROTOOPT passrights before 6.16")
            << "set gc async\nsocketpair a b\nsetsockopt a passrights=off\n"
            << "ENOPROTOOPT";
        QTest::newRow("EPERM passrights off")
            << "set gc graph\nsocketpair a b\nsetsockopt b passrights=off\nsend a fds=a\n"
            << "EPERM";
        QTest::newRow("EMFILE") << "set nofile 6\nsocketpair a b\nsocketpair c d\n"
                                << "EMFILE";
    }

    void errnoTable()
    {
        QFETCH(QString, scene);
        QFETCH(QString, err);
        auto sim = run_scene(scene.toStdString() + "expect error " + err.toStdString() + "\n");
        QVERIFY(sim);
        QVERIFY2(sim->kernel().findings.empty(), findings_of(*sim).c_str());
        QCOMPARE(sim->expectations().size(), std::size_t(1));
        QVERIFY2(sim->expectations().front().passed, sim->expectations().front().message.c_str());
        QVERIFY(sim->warnings().empty());
    }

    // As the kernel answers: the pending reset once, then end of file (0 bytes, no error) on
    // stream and seqpacket sockets whose peer is gone; a seqpacket send reads the reset, then
    // gets EPIPE.
    void endOfFileOnceThePeerIsGone()
    {
        auto sim = run_scene("socketpair a b\nsend a\nclose b\nrecv a\nexpect error ECONNRESET\nrecv a\nrecv a\n"
                             "socketpair c d\nclose d\nrecv c\nrecv c peek\n"
                             "socketpair e f seqpacket\nsend e\nclose f\nsend e\nexpect error ECONNRESET\n"
                             "send e\nexpect error EPIPE\nrecv e\n");
        QVERIFY(sim);
        QVERIFY2(sim->kernel().findings.empty(), findings_of(*sim).c_str());
        QCOMPARE(sim->expectations_failed(), std::size_t(0));
        QCOMPARE(sim->expectations().size(), std::size_t(3));
        for (const auto &w : sim->warnings())
            QFAIL(qPrintable(QStringLiteral("line %1: %2").arg(w.line).arg(QString::fromStdString(w.message))));
    }

    void failureWithoutExpectIsAWarning()
    {
        auto sim = run_scene("socketpair a b\nclose a\nsend a\nnote \"x\"\nsocketpair c d\n");
        QVERIFY(sim);
        QCOMPARE(sim->warnings().size(), std::size_t(1));
        QCOMPARE(sim->warnings().front().line, 3u);
        QVERIFY(sim->warnings().front().message.find("EBADF") != std::string::npos);
    }

    void expectErrorFailsOnSuccess()
    {
        auto sim = run_scene("socketpair a b\nsend a\nexpect error EPIPE\n");
        QVERIFY(sim);
        QCOMPARE(sim->expectations_failed(), std::size_t(1));
        QVERIFY(sim->expectations().front().message.find("succeeded") != std::string::npos);
    }

    void tooManyRefsAtNofilePlusOne()
    {
        // A user may have RLIMIT_NOFILE + 1 fds in flight: the check is "greater than".
        std::string s =
            "set gc graph\nset nofile 64\nuser alice\nprocess p user=alice\n"
            "p: socketpair a b\nrepeat 65 {\n  p: send a fds=a\n}\np: send a fds=a\nexpect error ETOOMANYREFS\n"
            "p: send a\n"                                       // no fds: no check
            "socketpair c d\nrepeat 70 {\n  send c fds=c\n}\n"; // root is exempt
        auto sim = run_scene(s);
        QVERIFY(sim);
        QVERIFY2(sim->kernel().findings.empty(), findings_of(*sim).c_str());
        QCOMPARE(sim->expectations_failed(), std::size_t(0));
        QVERIFY(sim->warnings().empty());
        QCOMPARE(sim->kernel().find_user("alice") ? sim->kernel().users[1].unix_inflight : 0UL, 65UL);
        QCOMPARE(sim->kernel().root().unix_inflight, 70UL);
    }

    void chainIsFreedByCloseWithoutCollection()
    {
        for (GcEra era : {GcEra::classic, GcEra::async, GcEra::graph}) {
            auto sim = run_scene("socketpair a a2\nsocketpair b b2\nsocketpair c c2\n"
                                 "send b2 fds=a\nsend c2 fds=b\nclose a b\nclose c c2 b2 a2\n",
                                 era);
            QVERIFY(sim);
            QVERIFY2(sim->kernel().findings.empty(), findings_of(*sim).c_str());
            for (const char *l : {"a", "b", "c", "a2", "b2", "c2"})
                QVERIFY2(sock(*sim, l).released, l);
            std::uint32_t garbage = 0;
            for (const auto &r : sim->kernel().gc_runs)
                garbage += r.garbage;
            QCOMPARE(garbage, 0u);
            QCOMPARE(sock(*sim, "a").freed_by, FreedBy::cascade);
        }
    }

    void closeOfADupTriggersNothing()
    {
        // The refcount does not reach 0, nothing is released, so no collection is triggered.
        auto sim =
            run_scene("set gc classic\nsocketpair a b\nsend b fds=a\nsend a fds=b\ndup a a3\nclose a b\nclose a3\n");
        QVERIFY(sim);
        QVERIFY(sim->kernel().gc_runs.empty());
        QVERIFY(!sock(*sim, "a").released);
        QVERIFY(!sock(*sim, "b").released);
    }

    void recvInstallsAndTakesOutOfFlight()
    {
        for (GcEra era : {GcEra::classic, GcEra::async, GcEra::graph}) {
            auto sim = run_scene("socketpair a b\nsocketpair c d\nsend a fds=c\nrecv b fds=c2\nclose c\n"
                                 "send c2 bytes=3\nexpect queue d 1\nexpect inflight c 0\n",
                                 era);
            QVERIFY(sim);
            QVERIFY2(sim->kernel().findings.empty(), findings_of(*sim).c_str());
            QCOMPARE(sim->expectations_failed(), std::size_t(0));
            QCOMPARE(sock(*sim, "c").file->count, 1L);
            QCOMPARE(sim->kernel().unix_tot_inflight, 0UL);
        }
    }

    void peekDupsWithoutLeavingFlight()
    {
        auto sim = run_scene("set gc graph\nsocketpair a b\nsocketpair c d\nsend a fds=c\nrecv b fds=x peek\n"
                             "recv b fds=y peek\nexpect inflight c 1\nexpect queue b 1\n");
        QVERIFY(sim);
        QCOMPARE(sim->expectations_failed(), std::size_t(0));
        QCOMPARE(sock(*sim, "c").file->count, 4L); // c, the copy in flight, x, y
    }

    void oobRidesItsOwnSkbAndIsNeverDelivered()
    {
        auto sim = run_scene("set gc graph\nsocketpair a b\nsocketpair c d\nsend a fds=c oob\nexpect queue b 1\n"
                             "recv b oob\nexpect inflight c 1\nsend a bytes=2\nrecv b fds=n\nexpect inflight c 0\n"
                             "expect queue b 0\n");
        QVERIFY(sim);
        QVERIFY2(sim->kernel().findings.empty(), findings_of(*sim).c_str());
        QCOMPARE(sim->expectations_failed(), std::size_t(0));
        // The OOB skb's fds were dropped when the reader passed it, not installed.
        QCOMPARE(sock(*sim, "c").file->count, 1L);
        QVERIFY(!const_cast<Kernel &>(sim->kernel()).processes.front().lookup("n"));
    }

    void acceptedEmbryoKeepsItsQueue()
    {
        auto sim = run_scene("set gc graph\nsocket l\nbind l @srv\nlisten l\nsocket c\nconnect c l\n"
                             "socketpair x y\nsend c fds=x bytes=4\nexpect queue embryo(c) 1\naccept l s\n"
                             "expect queue s 1\nrecv s fds=x2\nexpect inflight x 0\n");
        QVERIFY(sim);
        QVERIFY2(sim->kernel().findings.empty(), findings_of(*sim).c_str());
        QCOMPARE(sim->expectations_failed(), std::size_t(0));
        QCOMPARE(&sock(*sim, "s"), &sock(*sim, "embryo(c)"));
    }

    void closingAListenerReleasesItsEmbryos()
    {
        for (GcEra era : {GcEra::classic, GcEra::async, GcEra::graph}) {
            auto sim = run_scene("socket l\nbind l\nlisten l\nsocket c\nconnect c l\nsocketpair x y\n"
                                 "send c fds=x\nclose x\nclose l\nexpect freed l embryo(c) x\nsend c\n"
                                 "expect error EPIPE\n",
                                 era);
            QVERIFY(sim);
            QVERIFY2(sim->kernel().findings.empty(), findings_of(*sim).c_str());
            QCOMPARE(sim->expectations_failed(), std::size_t(0));
        }
    }

    void autobindNamesAreFiveHexDigits()
    {
        auto sim = run_scene("socket a\nbind a\nsocket b\nbind b\n");
        QVERIFY(sim);
        const Kernel &k = sim->kernel();
        const std::string &na = k.address_of(sock(*sim, "a"));
        QCOMPARE(na.size(), std::size_t(5));
        QVERIFY(na.find_first_not_of("0123456789abcdef") == std::string::npos);
        QVERIFY(na != k.address_of(sock(*sim, "b")));
    }

    void addressesOfBothKinds()
    {
        // A name of five hex digits is stored as its value (every autobind name is one), any
        // other as text; both read back the same, and closing unbinds either.
        auto sim = run_scene("socket a dgram\nbind a @0abcd\nsocket b dgram\nbind b @srv\nsocket c dgram\nbind c\n"
                             "close a b\nsocket d dgram\nbind d @0abcd\nsocket e dgram\nbind e @srv\n");
        QVERIFY(sim);
        const Kernel &k = sim->kernel();
        QCOMPARE(k.address_of(sock(*sim, "a")), std::string("0abcd"));
        QCOMPARE(k.address_of(sock(*sim, "b")), std::string("srv"));
        QCOMPARE(k.address_of(sock(*sim, "d")), std::string("0abcd"));
        QCOMPARE(k.address_of(sock(*sim, "e")), std::string("srv"));
        QCOMPARE(k.address_of(sock(*sim, "c")).size(), std::size_t(5));
        QCOMPARE(k.addresses.size(), std::size_t(2)); // "srv" twice; no autobind-shaped text
        QCOMPARE(sim->expectations_failed(), std::size_t(0));
        QVERIFY2(k.findings.empty(), findings_of(*sim).c_str());
    }

    void socketsNeverMove()
    {
        // Sockets point at each other (peer, listener): growing the table must not move them.
        ChunkedVector<int> v;
        std::vector<int *> at;
        for (int i = 0; i < 100'000; ++i)
            at.push_back(&v.emplace_back(i));
        QCOMPARE(v.size(), std::size_t(100'000));
        for (int i : {0, 31, 32, 95, 96, 99'999}) {
            QCOMPARE(at[i], &v[i]);
            QCOMPARE(v[i], i);
        }
        long sum = 0, expect = 0;
        for (int x : v)
            sum += x;
        for (int i = 0; i < 100'000; ++i)
            expect += i;
        QCOMPARE(sum, expect);
        QCOMPARE(v.end() - v.begin(), 100'000L);
        const ChunkedVector<int> copy = v;
        QCOMPARE(copy.back(), 99'999);
        QVERIFY(&copy[5] != &v[5]);

        auto sim = run_scene("set nofile 5000\nrepeat 2000 as i {\n  socketpair a$i b$i\n}\n");
        QVERIFY(sim);
        const Kernel &k = sim->kernel();
        QCOMPARE(k.socks.size(), std::size_t(4000));
        QCOMPARE(k.socks[0].peer, &k.socks[1]);
        QCOMPARE(k.socks[3999].peer, &k.socks[3998]);
        QCOMPARE(k.files[3999].sock, &k.socks[3999]);
    }

    void freedLargeChunksAreUsedAgain()
    {
        // A restore builds a state of the same shape as the one just freed: with a recycling
        // source its large chunks are taken back whole, at the same addresses.
        RecyclingBlockSource source(std::size_t(2) << 20);
        using Row = std::array<char, 64>;
        constexpr std::size_t kRows = 40'000; // chunk 10 (32,768 rows of 64 B: 2 MiB) is in use
        constexpr std::size_t kInChunk10 = 32 * ((std::size_t(1) << 10) - 1) + 7;
        const Row *first_at = nullptr;
        {
            ChunkedVector<Row> v(source);
            for (std::size_t i = 0; i < kRows; ++i)
                v.emplace_back();
            first_at = &v[kInChunk10];
        }
        QCOMPARE(source.kept_bytes(), std::size_t(2) << 20); // chunk 10 waits; small ones were freed
        {
            ChunkedVector<Row> w(source);
            for (std::size_t i = 0; i < kRows; ++i)
                w.emplace_back().fill(static_cast<char>(i));
            QCOMPARE(&w[kInChunk10], first_at);
            QCOMPARE(source.kept_bytes(), std::size_t(0));
            QCOMPARE(w[kInChunk10][0], static_cast<char>(kInChunk10));
            // A copy and a move keep taking from, and giving back to, the same source.
            ChunkedVector<Row> copy = w;
            ChunkedVector<Row> moved = std::move(copy);
            QCOMPARE(moved[kInChunk10][0], static_cast<char>(kInChunk10));
        }
        // Bounded: of the two 2 MiB chunks given back (w's and the copy's), one fits the cap;
        // the other is freed.
        QCOMPARE(source.kept_bytes(), std::size_t(2) << 20);
        source.release_kept();
        QCOMPARE(source.kept_bytes(), std::size_t(0));
    }

    void perEraTriggers()
    {
        // classic runs the collection inside close(); 6.9+ queue it to a kworker.
        const std::string s = "socketpair a b\nsend a fds=b\nsend b fds=a\nclose a b\nsocketpair t t2\nclose t\n";
        auto classic = run_scene("set gc classic\n" + s, std::nullopt, true);
        auto async = run_scene("set gc async\n" + s, std::nullopt, true);
        QVERIFY(classic && async);
        auto has = [](const Simulation &sim, EventKind k) {
            for (const Event &e : sim.events())
                if (e.kind == k)
                    return true;
            return false;
        };
        QVERIFY(!has(*classic, EventKind::gc_queued));
        QVERIFY(has(*async, EventKind::gc_queued));
        QCOMPARE(classic->kernel().gc_runs.size(), std::size_t(1));
        QCOMPARE(classic->kernel().gc_runs.front().garbage, 2u);
        QCOMPARE(async->kernel().gc_runs.front().garbage, 2u);
    }

    // The interned names are part of every copy of the state (checkpoints, restores): a copy
    // shares the texts and the index with its original, and each pool still interns, finds and
    // names as a value of its own.
    void namePoolCopiesShareAndStayIndependent()
    {
        NamePool a;
        const std::string long_name(70000, 'x'); // longer than a text chunk: kept whole
        std::vector<std::string> names;
        for (int i = 0; i < 20000; ++i)
            names.push_back("s" + std::to_string(i));
        names.push_back(long_name);
        names.push_back(""); // an empty name is a name too
        for (std::size_t i = 0; i < names.size(); ++i)
            QCOMPARE(a.intern(names[i]), static_cast<std::uint32_t>(i));
        QCOMPARE(a.intern("s7"), 7u); // interned once
        const NamePool b = a;
        // Shared: the same text, not a copy of it (the pool's own accounting says so too).
        QCOMPARE(b.str(5).data(), a.str(5).data());
        QVERIFY(b.bytes() < 128 * 1024); // the chunks being filled; the whole pool is ~400 KB
        NamePool c = b;
        const auto fresh = static_cast<std::uint32_t>(names.size());
        QCOMPARE(c.intern("new-in-c"), fresh);
        QCOMPARE(a.intern("new-in-a"), fresh); // the same id, another name
        QCOMPARE(c.str(fresh), std::string_view("new-in-c"));
        QCOMPARE(a.str(fresh), std::string_view("new-in-a"));
        QVERIFY(!b.find("new-in-c") && !b.find("new-in-a"));
        QVERIFY(!a.find("new-in-c") && !c.find("new-in-a"));
        for (const NamePool *p : {static_cast<const NamePool *>(&a), &b, static_cast<const NamePool *>(&c)}) {
            QCOMPARE(p->find(long_name), std::optional<std::uint32_t>(20000));
            QCOMPARE(p->str(20000), std::string_view(long_name));
            QCOMPARE(p->str(20001), std::string_view());
            for (std::uint32_t i : {0u, 1u, 4095u, 4096u, 19999u})
                QCOMPARE(p->str(i), std::string_view(names[i]));
        }
        // Growing the index of one (a rehash) leaves the others' alone.
        for (int i = 0; i < 40000; ++i)
            c.intern("t" + std::to_string(i));
        QVERIFY(c.capacity() > a.capacity());
        QCOMPARE(c.find("t39999"), std::optional<std::uint32_t>(fresh + 40000));
        QCOMPARE(a.find("s19999"), std::optional<std::uint32_t>(19999));
        QVERIFY(!a.find("t0"));
        QCOMPARE(b.size(), static_cast<std::uint32_t>(names.size()));
    }

    // A restored state's fd-name tables are copied with room for the names a replay adds;
    // the copy maps every name as the original does, flat or hashed.
    void fdNamesCopyWithRoomKeepsEveryName()
    {
        FdNames flat;
        for (std::uint32_t i = 0; i < 3000; i += 3)
            flat.set(i, static_cast<int>(i) + 10);
        FdNames sparse; // ids far apart: hashed
        for (std::uint32_t i = 0; i < 100; ++i)
            sparse.set(i * 100000, static_cast<int>(i));
        for (const FdNames *t : {&flat, &sparse}) {
            const FdNames c = t->copy_with_room(8192);
            QCOMPARE(c.size(), t->size());
            std::size_t seen = 0;
            t->for_each([&](std::uint32_t name, int fd) {
                ++seen;
                QCOMPARE(c.get(name), fd);
            });
            QCOMPARE(seen, t->size());
            QCOMPARE(c.get(1), -1);
        }
        QVERIFY(flat.copy_with_room(4096).bytes() >= 4096 * sizeof(std::int32_t)); // the room (flat stays cheaper)
        FdNames grown = flat.copy_with_room(8192);
        grown.set(5000, 7);
        QCOMPARE(grown.get(5000), 7);
        QCOMPARE(flat.get(5000), -1);
    }
};

QTEST_GUILESS_MAIN(TestKernel)
#include "test_kernel.moc"
