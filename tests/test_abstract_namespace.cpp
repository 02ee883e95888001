// SPDX-License-Identifier: GPL-3.0-or-later
// The abstract name space and unix_autobind() (spec 6): name format, unix_abstract_hash()
// against values worked out by hand, per-type spaces, chain positions, and the exact give-up
// boundaries of the three autobind algorithms over a full space of 2^20 names.
#include "inflight/abstract_namespace.hpp"

#include <QTest>

#include <algorithm>
#include <random>
#include <vector>

using namespace inflight;

namespace {

constexpr SockType kTypes[] = {SockType::stream, SockType::dgram, SockType::seqpacket};

// Takes every autobind name of `type` by binding them one by one (socket id = value).
void fill(AbstractNamespace &ns, SockType type, std::uint32_t except = kNoSock)
{
    for (std::uint32_t v = 0; v < kAutobindSpace; ++v)
        if (v != except)
            QCOMPARE(ns.bind_value(v, type, v).err, Errno::none);
}

// An independent csum_partial(): 32-bit little-endian words added with end-around carry (what
// the x86 code does with adc), a 16-bit tail, an odd last byte as a low byte; then csum_fold.
std::uint16_t csum_x86_style(const std::vector<std::uint8_t> &b)
{
    std::uint64_t sum = 0;
    std::size_t i = 0;
    for (; i + 4 <= b.size(); i += 4)
        sum += std::uint32_t(b[i]) | std::uint32_t(b[i + 1]) << 8 | std::uint32_t(b[i + 2]) << 16 |
               std::uint32_t(b[i + 3]) << 24;
    if (i + 2 <= b.size()) {
        sum += std::uint32_t(b[i]) | std::uint32_t(b[i + 1]) << 8;
        i += 2;
    }
    if (i < b.size())
        sum += b[i];
    while (sum >> 32)
        sum = (sum & 0xFFFFFFFF) + (sum >> 32);
    std::uint32_t s = static_cast<std::uint32_t>(sum);
    s = (s & 0xFFFF) + (s >> 16);
    s = (s & 0xFFFF) + (s >> 16);
    return static_cast<std::uint16_t>(~s);
}

// Values of `type` whose autobind names share one bucket, in increasing order.
std::vector<std::uint32_t> same_bucket_values(SockType type, std::uint32_t bucket, std::size_t n)
{
    std::vector<std::uint32_t> out;
    for (std::uint32_t v = 0; v < kAutobindSpace && out.size() < n; ++v)
        if (autobind_bucket(v, type) == bucket)
            out.push_back(v);
    return out;
}

} // namespace

class TestAbstractNamespace : public QObject {
    Q_OBJECT
private slots:
    void nameFormat()
    {
        QCOMPARE(autobind_name(0), std::string("00000"));
        QCOMPARE(autobind_name(0x0abcd), std::string("0abcd"));
        QCOMPARE(autobind_name(0xfffff), std::string("fffff"));
        QCOMPARE(autobind_name(0x100000), std::string("00000")); // "%05x" of ordernum & 0xFFFFF
        QCOMPARE(autobind_value_of("0abcd"), std::optional<std::uint32_t>(0x0abcd));
        QCOMPARE(autobind_value_of("fffff"), std::optional<std::uint32_t>(0xfffff));
        QVERIFY(!autobind_value_of("0ABCD")); // %05x is lowercase: a different name
        QVERIFY(!autobind_value_of("abcd"));
        QVERIFY(!autobind_value_of("0abcde"));
        QVERIFY(!autobind_value_of("0abcg"));
        QVERIFY(!autobind_value_of("srv"));
        // offsetof(sun_path) + 6 = 8 bytes, no trailing NUL: 01 00 | 00 '0' 'a' 'b' 'c' 'd'.
        const auto a = abstract_sockaddr("0abcd");
        QCOMPARE(a, (std::vector<std::uint8_t>{0x01, 0x00, 0x00, '0', 'a', 'b', 'c', 'd'}));
        QCOMPARE(abstract_sockaddr("srv").size(), std::size_t(6));
        QCOMPARE(sk_type_value(SockType::stream), 1);
        QCOMPARE(sk_type_value(SockType::dgram), 2);
        QCOMPARE(sk_type_value(SockType::seqpacket), 5);
    }

    void hashByHand()
    {
        // "0abcd", worked out by hand. The 8 bytes 01 00 00 30 61 62 63 64 read as
        // little-endian u16 words: 0x0001, 0x3000, 0x6261, 0x6463.
        //   0x0001 + 0x3000 = 0x3001; + 0x6261 = 0x9262; + 0x6463 = 0xF6C5 (no carry out)
        //   csum_fold: ~0xF6C5 = 0x093A
        //   h ^= h >> 8: 0x093A ^ 0x0009 = 0x0933
        //   stream (1): 0x0933 ^ 1 = 0x0932 -> 0x32 = 50 -> bucket 256 + 50 = 306
        //   dgram (2):  0x0931 -> 49 -> 305;  seqpacket (5): 0x0936 -> 54 -> 310
        QCOMPARE(csum_fold_partial(abstract_sockaddr("0abcd")), std::uint16_t(0x093A));
        QCOMPARE(autobind_bucket(0x0abcd, SockType::stream), 306u);
        QCOMPARE(autobind_bucket(0x0abcd, SockType::dgram), 305u);
        QCOMPARE(autobind_bucket(0x0abcd, SockType::seqpacket), 310u);
        // "00000": 0x0001 + 0x3000 + 0x3030 + 0x3030 = 0x9061; ~ = 0x6F9E; ^ 0x6F = 0x6FF1;
        // ^1 = 0x6FF0 -> 240 -> 496; ^2 = 0x6FF3 -> 499; ^5 = 0x6FF4 -> 500.
        QCOMPARE(csum_fold_partial(abstract_sockaddr("00000")), std::uint16_t(0x6F9E));
        QCOMPARE(autobind_bucket(0, SockType::stream), 496u);
        QCOMPARE(autobind_bucket(0, SockType::dgram), 499u);
        QCOMPARE(autobind_bucket(0, SockType::seqpacket), 500u);
        // "fffff": 0x0001 + 0x6600 + 0x6666 + 0x6666 = 0x132CD; fold: 0x32CD + 1 = 0x32CE;
        // ~ = 0xCD31; ^ 0xCD = 0xCDFC; ^1 -> 0xFD = 253 -> 509; ^2 -> 0xFE -> 510; ^5 -> 0xF9 -> 505.
        QCOMPARE(csum_fold_partial(abstract_sockaddr("fffff")), std::uint16_t(0xCD31));
        QCOMPARE(autobind_bucket(0xfffff, SockType::stream), 509u);
        QCOMPARE(autobind_bucket(0xfffff, SockType::dgram), 510u);
        QCOMPARE(autobind_bucket(0xfffff, SockType::seqpacket), 505u);
        // "srv" (bind s @srv): 01 00 00 73 72 76 = 0x0001 + 0x7300 + 0x7672 = 0xE973;
        // ~ = 0x168C; ^ 0x16 = 0x169A; ^1 = 0x169B -> 155 -> 411; ^2 = 0x1698 -> 152 -> 408.
        QCOMPARE(csum_fold_partial(abstract_sockaddr("srv")), std::uint16_t(0x168C));
        QCOMPARE(abstract_name_bucket("srv", SockType::stream), 411u);
        QCOMPARE(abstract_name_bucket("srv", SockType::dgram), 408u);
        // "ab", an odd length: 01 00 00 61 62; the last byte is a low byte:
        // 0x0001 + 0x6100 + 0x0062 = 0x6163; ~ = 0x9E9C; ^ 0x9E = 0x9E02; ^1 -> 3 -> 259; ^2 -> 0 -> 256.
        QCOMPARE(csum_fold_partial(abstract_sockaddr("ab")), std::uint16_t(0x9E9C));
        QCOMPARE(abstract_name_bucket("ab", SockType::stream), 259u);
        QCOMPARE(abstract_name_bucket("ab", SockType::dgram), 256u);
        // The sockaddr-level entry point is the same function.
        QCOMPARE(abstract_hash(abstract_sockaddr("0abcd"), 1), 306u);
    }

    void hashAgreesEverywhere()
    {
        // The probe's table-driven bucket equals the generic byte-wise hash for every value and
        // type, and the byte-wise checksum equals an x86-style 32-bit one, with long and odd names.
        for (std::uint32_t v = 0; v < kAutobindSpace; v += 7) {
            const auto addr = abstract_sockaddr(autobind_name(v));
            for (SockType t : kTypes)
                QCOMPARE(autobind_bucket(v, t), abstract_hash(addr, sk_type_value(t)));
        }
        QCOMPARE(autobind_bucket(0xfffff, SockType::seqpacket), abstract_name_bucket("fffff", SockType::seqpacket));
        std::mt19937_64 rng(7);
        for (int i = 0; i < 2000; ++i) {
            std::string name(rng() % 108, '\0');
            for (char &c : name)
                c = static_cast<char>(rng() & 0xFF);
            const auto addr = abstract_sockaddr(name);
            QCOMPARE(csum_fold_partial(addr), csum_x86_style(addr));
        }
    }

    void perTypeSpaces()
    {
        // The same name under two types lands in two buckets (the XOR changes the low byte),
        // so each type has a space of its own although the lookup never compares the type.
        for (std::uint32_t v = 0; v < kAutobindSpace; ++v) {
            const auto s = autobind_bucket(v, SockType::stream), d = autobind_bucket(v, SockType::dgram),
                       q = autobind_bucket(v, SockType::seqpacket);
            if (s == d || s == q || d == q)
                QFAIL(qPrintable(QString("value %1 shares a bucket across types").arg(v, 5, 16, QChar('0'))));
        }
        AbstractNamespace ns;
        QCOMPARE(ns.bind_value(0x0abcd, SockType::stream, 10).err, Errno::none);
        QCOMPARE(ns.bind("0abcd", SockType::dgram, 11).err, Errno::none);
        QCOMPARE(ns.owner(SockType::stream, 0x0abcd), 10u);
        QCOMPARE(ns.owner(SockType::dgram, 0x0abcd), 11u);
        QVERIFY(!ns.is_taken(SockType::seqpacket, 0x0abcd));
        QCOMPARE(ns.taken_mask(0x0abcd), 0b011u);
        QCOMPARE(ns.find("0abcd", SockType::seqpacket).taken, false);
        QCOMPARE(ns.names_taken(SockType::stream), 1u);
        QCOMPARE(ns.names_taken_total(), 2u);
        QCOMPARE(ns.owner_of_name("0abcd", SockType::dgram), 11u);
    }

    void otherTypesLengthenChains()
    {
        // A stream name and a dgram name (different names) in one bucket: each is compared by
        // the other's lookups.
        const std::uint32_t bucket = autobind_bucket(0x0abcd, SockType::stream); // 306
        const auto dg = same_bucket_values(SockType::dgram, bucket, 1);
        QCOMPARE(dg.size(), std::size_t(1));
        AbstractNamespace ns;
        ns.bind_value(0x0abcd, SockType::stream, 1);
        ns.bind_value(dg[0], SockType::dgram, 2);
        QCOMPARE(ns.chain_length(bucket), 2u);
        const ProbeResult hit = ns.find_value(0x0abcd, SockType::stream);
        QVERIFY(hit.taken);
        QCOMPARE(hit.position, 2u); // behind the dgram entry at the head
        QCOMPARE(hit.compared, 2u);
        QCOMPARE(ns.find_value(dg[0], SockType::dgram).position, 1u);
        // A miss in that bucket compares the whole chain, whatever the types in it.
        const auto other = same_bucket_values(SockType::stream, bucket, 2);
        const std::uint32_t miss_value = other[0] == 0x0abcd ? other[1] : other[0];
        const ProbeResult miss = ns.find_value(miss_value, SockType::stream);
        QVERIFY(!miss.taken);
        QCOMPARE(miss.compared, 2u);
        const auto c = ns.chain(bucket);
        QCOMPARE(c.size(), std::size_t(2));
        QCOMPARE(c[0].type, SockType::dgram);
        QCOMPARE(c[1].name, std::string("0abcd"));
    }

    void addrInUse()
    {
        AbstractNamespace ns;
        QCOMPARE(ns.bind("srv", SockType::stream, 1).err, Errno::none);
        const BindResult again = ns.bind("srv", SockType::stream, 2);
        QCOMPARE(again.err, Errno::addrinuse);
        QCOMPARE(again.lookup.owner, 1u);
        QCOMPARE(again.lookup.bucket, 411u);
        QCOMPARE(ns.bind("srv", SockType::dgram, 3).err, Errno::none); // its own space
        QCOMPARE(ns.bind(std::string(108, 'x'), SockType::stream, 4).err, Errno::inval);
        QCOMPARE(ns.bind(std::string(107, 'x'), SockType::stream, 4).err, Errno::none);
        QCOMPARE(ns.stats().addrinuse, 1u);
        // Release: only the holder removes it; then the name is free again.
        QVERIFY(!ns.unbind("srv", SockType::stream, 2));
        QVERIFY(ns.unbind("srv", SockType::stream, 1));
        QCOMPARE(ns.find("srv", SockType::stream).taken, false);
        QCOMPARE(ns.bind("srv", SockType::stream, 5).err, Errno::none);
        QCOMPARE(ns.names_taken(SockType::stream), 2u);
    }

    void explicitHexNameIsTheAutobindName()
    {
        AbstractNamespace ns;
        QCOMPARE(ns.bind("0abcd", SockType::stream, 7).err, Errno::none);
        QCOMPARE(ns.bind("0ABCD", SockType::stream, 8).err, Errno::none); // another name
        QCOMPARE(ns.autobind_names_taken(SockType::stream), 1u);
        QCOMPARE(ns.bind_value(0x0abcd, SockType::stream, 9).err, Errno::addrinuse);

        // random: ordernum = 0x0abcc, advance then try: the first probe is 0x0abcd.
        auto it = ns.autobind(SockType::stream, AutobindMode::random, 0x0abccu);
        const ProbeResult p = it.probe();
        QCOMPARE(p.value, 0x0abcdu);
        QVERIFY(p.taken);
        QCOMPARE(p.owner, 7u);
        QCOMPARE(p.bucket, 306u);
        QCOMPARE(it.stop(), AutobindStop::running);
        const ProbeResult q = it.probe();
        QCOMPARE(q.value, 0x0abceu);
        QVERIFY(!q.taken);
        QVERIFY(it.awaiting_commit());
        QCOMPARE(it.commit(42), Errno::none);
        QCOMPARE(it.stop(), AutobindStop::bound);
        QCOMPARE(ns.owner(SockType::stream, 0x0abce), 42u);
        QCOMPARE(ns.owner_of_name("0abce", SockType::stream), 42u);

        // sequential: the shared ordernum at 0x0abcd collides with the explicit bind too.
        ns.set_sequential_ordernum(0x0abcd);
        auto s = ns.autobind(SockType::stream, AutobindMode::sequential, 0);
        QVERIFY(s.probe().taken);
        QCOMPARE(s.last().owner, 7u);
        QVERIFY(s.probe().taken); // 0x0abce: bound just above
        QVERIFY(!s.probe().taken);
        QCOMPARE(s.value(), 0x0abcfu);
        QCOMPARE(s.commit(43), Errno::none);
        QCOMPARE(ns.sequential_ordernum(), 0x0abd0u);
    }

    void chainPositions()
    {
        // Entries go in at the head: the newest is position 1; a hit stops there, a miss walks all.
        const std::uint32_t bucket = autobind_bucket(0, SockType::stream); // 496
        const auto vs = same_bucket_values(SockType::stream, bucket, 400);
        QCOMPARE(vs.size(), std::size_t(400));
        AbstractNamespace ns;
        std::vector<std::uint32_t> ref; // the chain from the head, kept by brute force
        for (std::uint32_t i = 0; i < 300; ++i) {
            ns.bind_value(vs[i], SockType::stream, i);
            ref.insert(ref.begin(), vs[i]);
        }
        QCOMPARE(ns.find_value(vs[0], SockType::stream).position, 300u);
        QCOMPARE(ns.find_value(vs[299], SockType::stream).position, 1u);
        QCOMPARE(ns.find_value(vs[299], SockType::stream).compared, 1u);
        QCOMPARE(ns.find_value(vs[350], SockType::stream).compared, 300u);
        QCOMPARE(ns.find_value(vs[350], SockType::stream).position, 0u);
        // Remove most of them in a scattered order (tombstones, then compaction) and re-add some.
        std::mt19937_64 rng(3);
        std::vector<std::uint32_t> order(300);
        for (std::uint32_t i = 0; i < 300; ++i)
            order[i] = i;
        std::shuffle(order.begin(), order.end(), rng);
        auto check = [&] {
            for (std::size_t pos = 0; pos < ref.size(); ++pos) {
                const ProbeResult r = ns.find_value(ref[pos], SockType::stream);
                QVERIFY(r.taken);
                QCOMPARE(r.position, static_cast<std::uint32_t>(pos + 1));
            }
            QCOMPARE(ns.chain_length(bucket), static_cast<std::uint32_t>(ref.size()));
            const auto c = ns.chain(bucket);
            QCOMPARE(c.size(), ref.size());
            for (std::size_t pos = 0; pos < ref.size(); ++pos)
                QCOMPARE(c[pos].value, ref[pos]);
        };
        for (std::size_t k = 0; k < 250; ++k) {
            const std::uint32_t i = order[k];
            QVERIFY(ns.unbind_value(vs[i], SockType::stream, i));
            ref.erase(std::find(ref.begin(), ref.end(), vs[i]));
            if (k % 37 == 0)
                check();
            if (k % 5 == 0) {
                const std::uint32_t j = 300 + static_cast<std::uint32_t>(k / 5);
                ns.bind_value(vs[j], SockType::stream, j);
                ref.insert(ref.begin(), vs[j]);
            }
        }
        check();
        std::uint32_t longest_bucket = 0;
        QCOMPARE(ns.longest_chain(&longest_bucket), static_cast<std::uint32_t>(ref.size()));
        QCOMPARE(longest_bucket, bucket);
    }

    void randomFillAndExactEnospc()
    {
        // 2^20 autobinds of one type with random starts all succeed ...
        AbstractNamespace ns;
        std::mt19937_64 rng(1);
        std::uint32_t most = 0;
        for (std::uint32_t i = 0; i < kAutobindSpace; ++i) {
            auto it = ns.autobind(SockType::dgram, AutobindMode::random, rng);
            if (it.run(i) != AutobindStop::bound)
                QFAIL(qPrintable(QString("autobind %1 failed").arg(i)));
            most = std::max(most, it.probes());
        }
        QVERIFY(most <= kAutobindSpace);
        QCOMPARE(ns.autobind_names_taken(SockType::dgram), kAutobindSpace);
        QCOMPARE(ns.stats().autobind_bound, std::uint64_t(kAutobindSpace));
        QVERIFY(ns.stats().probes > kAutobindSpace);
        // Chains: 2^20 names over the dgram buckets, every socket where its name hashes.
        std::uint64_t total = 0;
        for (std::uint32_t b = kAbstractBucketBase; b < kAbstractBucketBase + kAbstractBuckets; ++b)
            total += ns.chain_length(b);
        QCOMPARE(total, std::uint64_t(kAutobindSpace));
        // ... and the next one gives up after exactly 2^20 probes, the last being lastnum.
        auto it = ns.autobind(SockType::dgram, AutobindMode::random, 0xABC12345u);
        QCOMPARE(it.run(99), AutobindStop::enospc);
        QCOMPARE(it.probes(), kAutobindSpace);
        QCOMPARE(it.value(), 0x12345u); // lastnum = 0xABC12345 & 0xFFFFF
        QCOMPARE(ns.stats().enospc, 1u);
        // Other types are unaffected.
        auto st = ns.autobind(SockType::stream, AutobindMode::random, rng);
        QCOMPARE(st.run(7), AutobindStop::bound);
        QCOMPARE(st.probes(), 1u);
    }

    void randomEnospcStepByStep()
    {
        // The same boundary one probe at a time: first tried (lastnum + 1) & 0xFFFFF, then on,
        // wrapping at 0xFFFFF -> 0, until lastnum itself, the 2^20th.
        AbstractNamespace ns;
        fill(ns, SockType::stream);
        auto it = ns.autobind(SockType::stream, AutobindMode::random, 0xFFFFFFFFu); // lastnum 0xFFFFF
        std::uint32_t expect = 0;
        while (!it.finished()) {
            const ProbeResult &p = it.probe();
            QCOMPARE(p.value, expect);
            QVERIFY(p.taken);
            expect = (expect + 1) & kAutobindMask;
        }
        QCOMPARE(it.stop(), AutobindStop::enospc);
        QCOMPARE(it.probes(), kAutobindSpace);
        QCOMPARE(it.value(), 0xFFFFFu);
        // And with one name free, it is found wherever it is (here: the very last probe).
        AbstractNamespace ns2;
        fill(ns2, SockType::stream, 0x12345);
        auto it2 = ns2.autobind(SockType::stream, AutobindMode::random, 0x12345u);
        QCOMPARE(it2.run(5), AutobindStop::bound);
        QCOMPARE(it2.probes(), kAutobindSpace);
        QCOMPARE(ns2.owner(SockType::stream, 0x12345), 5u);
    }

    void sequentialFillAndRetriesBoundary()
    {
        // Pre-2021: one shared ordernum starting at 1; on an empty space each bind takes the
        // next number in one probe, 0x00001 .. 0xFFFFF, then 0x00000.
        AbstractNamespace ns;
        QCOMPARE(ns.sequential_ordernum(), 1u);
        for (std::uint32_t i = 0; i < kAutobindSpace; ++i) {
            auto it = ns.autobind(SockType::stream, AutobindMode::sequential, 0);
            QCOMPARE(it.run(i), AutobindStop::bound);
            if (it.probes() != 1)
                QFAIL("a sequential bind on a space with free names ahead took more than one probe");
            if (i == 0)
                QCOMPARE(it.value(), 1u);
        }
        QCOMPARE(ns.owner(SockType::stream, 0), kAutobindSpace - 1);
        QCOMPARE(ns.sequential_ordernum(), 1u);
        // Full: retries++ == 0xFFFFF holds at the 2^20th collision; the shared ordernum went
        // once round and is back where it started.
        auto it = ns.autobind(SockType::stream, AutobindMode::sequential, 0);
        while (!it.finished())
            it.probe();
        QCOMPARE(it.stop(), AutobindStop::enospc);
        QCOMPARE(it.probes(), kAutobindSpace);
        QCOMPARE(it.retries(), kAutobindSpace);
        QCOMPARE(ns.sequential_ordernum(), 1u);
        // One free name, reached at the last possible probe (retries was 0xFFFFF - 1 ... the
        // 2^20th probe is the free one): bound, not ENOSPC.
        ns.unbind_value(0, SockType::stream, kAutobindSpace - 1); // ordernum 1: value 0 is tried last
        auto last = ns.autobind(SockType::stream, AutobindMode::sequential, 0);
        QCOMPARE(last.run(77), AutobindStop::bound);
        QCOMPARE(last.probes(), kAutobindSpace);
        QCOMPARE(last.retries(), kAutobindSpace - 1);
    }

    void sequentialRace()
    {
        // Two binders format the same shared ordernum before either advances it (the advance
        // is under the lock): the loser collides, and its next try skips the number the
        // winner's advance passed over.
        AbstractNamespace ns;
        auto a = ns.autobind(SockType::stream, AutobindMode::sequential, 0);
        auto b = ns.autobind(SockType::stream, AutobindMode::sequential, 0);
        QCOMPARE(a.format(), 1u);
        QCOMPARE(b.format(), 1u);
        a.locked_advance();
        QVERIFY(!a.lookup().taken);
        QCOMPARE(a.commit(100), Errno::none);
        b.locked_advance(); // ordernum 2 -> 3
        QVERIFY(b.lookup().taken);
        QCOMPARE(b.last().owner, 100u);
        QCOMPARE(b.after_taken(), AutobindStop::running);
        QCOMPARE(b.format(), 3u); // 2 was skipped
        b.locked_advance();
        QVERIFY(!b.lookup().taken);
        QCOMPARE(b.commit(101), Errno::none);
        QVERIFY(!ns.is_taken(SockType::stream, 2));
        QCOMPARE(ns.sequential_ordernum(), 4u);
        // Steps out of order change nothing.
        auto c = ns.autobind(SockType::stream, AutobindMode::sequential, 0);
        QCOMPARE(c.lookup().taken, false);
        QCOMPARE(c.probes(), 0u);
        QCOMPARE(c.commit(1), Errno::inval);
    }

    void randomV1BelowTwoTo20()
    {
        // initnum = ordernum = 0x12345 (< 2^20). Each try advances first: 0x12346, ...,
        // 0xFFFFF, 0x00000, ..., 0x12345. That last one is the 2^20th advance
        // ((0x100000 - 0x12346) + 0x12346 = 0x100000 probes), and ordernum == initnum: ENOSPC.
        AbstractNamespace ns;
        fill(ns, SockType::seqpacket);
        auto it = ns.autobind(SockType::seqpacket, AutobindMode::random_v1, 0x12345u);
        QCOMPARE(it.probe().value, 0x12346u);
        while (!it.finished())
            it.probe();
        QCOMPARE(it.stop(), AutobindStop::enospc);
        QCOMPARE(it.probes(), kAutobindSpace);
        QCOMPARE(it.value(), 0x12345u);
        QVERIFY(!it.endless());
        // The bulk path agrees.
        auto bulk = ns.autobind(SockType::seqpacket, AutobindMode::random_v1, 0x12345u);
        QCOMPARE(bulk.run(1), AutobindStop::enospc);
        QCOMPARE(bulk.probes(), kAutobindSpace);
        QCOMPARE(bulk.compared(), it.compared());
    }

    void randomV1EndlessLoop()
    {
        // initnum >= 2^20: ordernum is always masked below 2^20, so ordernum == initnum never
        // holds; over a full space the kernel loops for ever. The model says so after the
        // 2^20th collision, when every name has been tried once.
        AbstractNamespace ns;
        fill(ns, SockType::stream);
        for (std::uint32_t start : {0x00100000u, 0x80000000u, 0xFFFFFFFFu}) {
            auto it = ns.autobind(SockType::stream, AutobindMode::random_v1, start);
            while (!it.finished())
                it.probe();
            QCOMPARE(it.stop(), AutobindStop::endless);
            QCOMPARE(it.probes(), kAutobindSpace);
            QVERIFY(it.endless());
            QCOMPARE(it.endless()->initnum, start);
            QCOMPARE(it.endless()->probes, kAutobindSpace);
            const QString reason = QString::fromStdString(it.endless()->reason);
            QVERIFY2(reason.startsWith(QString("initnum 0x%1 \u2265 2^20").arg(start, 0, 16)), qPrintable(reason));
            QVERIFY(reason.contains("ordernum == initnum never holds"));
            QVERIFY(reason.contains("loops forever"));
            auto bulk = ns.autobind(SockType::stream, AutobindMode::random_v1, start);
            QCOMPARE(bulk.run(1, false), AutobindStop::endless);
            QCOMPARE(bulk.probes(), kAutobindSpace);
            QCOMPARE(bulk.endless()->reason, it.endless()->reason);
        }
        QCOMPARE(ns.stats().endless, 6u);
        // With a free name the same start binds normally.
        ns.unbind_value(0x777, SockType::stream, 0x777);
        auto ok = ns.autobind(SockType::stream, AutobindMode::random_v1, 0x80000000u);
        QCOMPARE(ok.run(1), AutobindStop::bound);
        QCOMPARE(ok.probes(), 0x777u); // (0x80000000 + 1) & 0xFFFFF = 1: tries 1 .. 0x777
    }

    void fullSpaceNeverMoreThan2To20Probes()
    {
        AbstractNamespace ns;
        fill(ns, SockType::dgram);
        std::mt19937_64 rng(11);
        for (AutobindMode m : {AutobindMode::sequential, AutobindMode::random_v1, AutobindMode::random}) {
            for (int i = 0; i < 4; ++i) {
                auto it = ns.autobind(SockType::dgram, m, rng);
                const AutobindStop s = it.run(1);
                QVERIFY(s == AutobindStop::enospc || s == AutobindStop::endless);
                QVERIFY(it.probes() <= kAutobindSpace);
            }
        }
    }

    void bulkMatchesStepwise()
    {
        // skip_taken() makes exactly the probes probe() would: same name bound, same probes,
        // same chain compares; with tombstones in the chains too.
        AbstractNamespace base;
        std::mt19937_64 rng(5);
        for (std::uint32_t i = 0; i < 900'000; ++i)
            base.bind_value(static_cast<std::uint32_t>(rng()) & kAutobindMask, SockType::stream, i);
        for (std::uint32_t v = 0; v < kAutobindSpace; v += 3)
            base.unbind_value(v, SockType::stream, base.owner(SockType::stream, v));
        for (std::uint32_t v = 0; v < 200'000; ++v)
            base.bind_value(v, SockType::stream, v);
        for (AutobindMode m : {AutobindMode::sequential, AutobindMode::random_v1, AutobindMode::random}) {
            for (int i = 0; i < 20; ++i) {
                const auto r = static_cast<std::uint32_t>(rng());
                AbstractNamespace a = base, b = base;
                a.set_sequential_ordernum(r);
                b.set_sequential_ordernum(r);
                auto x = a.autobind(SockType::stream, m, r);
                while (!x.finished())
                    if (!x.probe().taken)
                        QCOMPARE(x.commit(1), Errno::none);
                auto y = b.autobind(SockType::stream, m, r);
                QCOMPARE(y.run(1), x.stop());
                QCOMPARE(y.probes(), x.probes());
                QCOMPARE(y.value(), x.value());
                QCOMPARE(y.compared(), x.compared());
                QCOMPARE(b.stats().compared, a.stats().compared);
                QCOMPARE(b.sequential_ordernum(), a.sequential_ordernum());
                QCOMPARE(b.trace().first, a.trace().first);
                QCOMPARE(b.trace().cursor, a.trace().cursor);
            }
        }
        // A limit stops the bulk early and probing resumes where it stopped.
        AbstractNamespace full;
        fill(full, SockType::stream, 0x500);
        auto it = full.autobind(SockType::stream, AutobindMode::random, 0x100u);
        QCOMPARE(it.skip_taken(0x10), 0x10u);
        QCOMPARE(it.value(), 0x110u);
        QCOMPARE(it.stop(), AutobindStop::running);
        QCOMPARE(it.probe().value, 0x111u);
        QCOMPARE(it.skip_taken(), 0x500u - 0x112u); // stops before the free 0x500
        QVERIFY(!it.probe().taken);
        QCOMPARE(it.value(), 0x500u);
    }

    void traceAndStats()
    {
        AbstractNamespace ns;
        for (std::uint32_t v = 0x100; v < 0x110; ++v)
            ns.bind_value(v, SockType::stream, v);
        auto it = ns.autobind(SockType::stream, AutobindMode::random, 0xFFu); // first try 0x100
        it.probe();
        QVERIFY(ns.trace().active);
        QCOMPARE(ns.trace().first, 0x100u);
        QCOMPARE(it.run(3), AutobindStop::bound);
        const AutobindTrace &t = ns.trace();
        QVERIFY(!t.active);
        QVERIFY(t.any);
        QCOMPARE(t.first, 0x100u);
        QCOMPARE(t.cursor, 0x110u);
        QCOMPARE(t.probes, 17u);
        QCOMPARE(t.stop, AutobindStop::bound);
        QCOMPARE(t.sock, 3u);
        QCOMPARE(ns.stats().last_probes, 17u);
        QCOMPARE(ns.stats().autobinds, 1u);
        QCOMPARE(ns.stats().probes, 17u);
        QCOMPARE(ns.stats().explicit_binds, 16u);
        ns.note_lock_wait(250);
        QCOMPARE(ns.stats().lock_waits, 1u);
        QCOMPARE(ns.stats().lock_wait_ns, 250u);
    }

    void dirtyJournal()
    {
        AbstractNamespace ns;
        DirtyCursor cur;
        std::vector<std::uint32_t> out;
        QVERIFY(!ns.read_dirty(cur, out)); // first read: repaint all
        ns.bind_value(5, SockType::stream, 1);
        ns.bind("srv", SockType::stream, 2); // not in the value space: not journalled
        ns.bind("00007", SockType::dgram, 3);
        QVERIFY(ns.read_dirty(cur, out));
        QCOMPARE(out, (std::vector<std::uint32_t>{5, 7}));
        out.clear();
        QVERIFY(ns.read_dirty(cur, out));
        QVERIFY(out.empty());
        ns.unbind_value(5, SockType::stream, 1);
        auto it = ns.autobind(SockType::stream, AutobindMode::random, 0x41u);
        it.run(9);
        QVERIFY(ns.read_dirty(cur, out));
        QCOMPARE(out, (std::vector<std::uint32_t>{5, 0x42}));
        // A copy is another instance (a replay builds a new kernel): repaint all.
        AbstractNamespace copy = ns;
        QVERIFY(copy.instance() != ns.instance());
        DirtyCursor c2 = cur;
        out.clear();
        QVERIFY(!copy.read_dirty(c2, out));
        QVERIFY(copy.read_dirty(c2, out));
        // Past the journal's cap the reader is told to repaint all, once.
        for (std::size_t i = 0; i <= AbstractNamespace::kJournalCap / 2; ++i) {
            ns.bind_value(0x80000, SockType::seqpacket, 1);
            ns.unbind_value(0x80000, SockType::seqpacket, 1);
        }
        QVERIFY(!ns.read_dirty(cur, out));
        QVERIFY(ns.read_dirty(cur, out));
    }

    void memoryIsBounded()
    {
        // A fresh namespace allocates no per-value storage (a replay builds many kernels).
        AbstractNamespace ns;
        QCOMPARE(ns.owner(SockType::stream, 3), kNoSock);
        QCOMPARE(ns.taken_mask(3), 0u);
        QCOMPARE(ns.longest_chain(), 0u);
        QCOMPARE(ns.chain_length(12), 0u); // not an abstract bucket
    }
};

QTEST_GUILESS_MAIN(TestAbstractNamespace)
#include "test_abstract_namespace.moc"
