// SPDX-License-Identifier: GPL-3.0-or-later
// The funclatency histogram: bucket edges, units, nearest-rank percentiles, and the text, CSV and
// JSON renderings. The text is checked against the bcc output quoted in the commit message of
// "af_unix: Try to run GC async." (unix_dgram_sendmsg with 32K sockets in flight, before and after
// the series), rebuilt here from samples that fall in the same buckets with the same totals.
#include "inflight/log2_histogram.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <QTest>

#include <string>
#include <vector>

using namespace inflight;

namespace {

QStringList lines(const std::string &text) { return QString::fromStdString(text).split(QLatin1Char('\n')); }

void addN(Log2Histogram &h, int n, std::uint64_t ns)
{
    for (int i = 0; i < n; ++i)
        h.add(ns);
}

// Without the series: 4096 sendmsg calls, every one waiting for a whole collection.
Log2Histogram beforeSeries()
{
    Log2Histogram h;
    addN(h, 3880, 1'760'001);
    h.add(1'722'147);
    addN(h, 214, 3'000'000);
    h.add(5'000'000);
    return h; // total 7477526027
}

// With the series: the same calls no longer wait.
Log2Histogram afterSeries()
{
    Log2Histogram h;
    addN(h, 1134, 406);
    addN(h, 2958, 407);
    addN(h, 2, 600);
    h.add(5'000);
    h.add(10'000);
    return h; // total 1680510
}

} // namespace

class TestHistogram : public QObject {
    Q_OBJECT
private slots:
    void bucketEdges_data();
    void bucketEdges();
    void bucketRanges();
    void unitDividesBeforeBucketing();
    void setUnitRebuckets();
    void countTotalMinMax();
    void percentilesNearestRank();
    void percentilesAfterMoreSamples();
    void removeLastUndoesAdd();
    void copiesShareSamplesUntilOneChanges();
    void seedRowsAndBars();
    void seedBeforeSeriesTail();
    void seedAfterSeriesTail();
    void leadingEmptyBucketsDropped();
    void zeroSharesFirstRowAsInBcc();
    void wideLayoutPastBucket32();
    void emptyHistogram();
    void textInOtherUnit();
    void labelLine();
    void csvExport();
    void jsonExport();
    void ratio();
    void groupByTaskUserKind();
    void countedSamplesAreExact();
};

void TestHistogram::bucketEdges_data()
{
    QTest::addColumn<quint64>("value");
    QTest::addColumn<int>("bucket");
    QTest::newRow("0") << quint64(0) << 0;
    QTest::newRow("1") << quint64(1) << 1;
    QTest::newRow("2") << quint64(2) << 2;
    QTest::newRow("3") << quint64(3) << 2;
    QTest::newRow("4") << quint64(4) << 3;
    QTest::newRow("1023") << quint64(1023) << 10;
    QTest::newRow("1024") << quint64(1024) << 11;
    QTest::newRow("2^40") << (quint64(1) << 40) << 41;
    QTest::newRow("2^40-1") << ((quint64(1) << 40) - 1) << 40;
    QTest::newRow("max") << ~quint64(0) << 64;
}

void TestHistogram::bucketEdges()
{
    QFETCH(quint64, value);
    QFETCH(int, bucket);
    QCOMPARE(Log2Histogram::bucket_of(value), bucket);
    QVERIFY(Log2Histogram::bucket_low(bucket) <= value);
    QVERIFY(value <= Log2Histogram::bucket_high(bucket));
}

void TestHistogram::bucketRanges()
{
    QCOMPARE(Log2Histogram::bucket_low(0), 0u);
    QCOMPARE(Log2Histogram::bucket_high(0), 0u);
    QCOMPARE(Log2Histogram::bucket_low(1), 1u);
    QCOMPARE(Log2Histogram::bucket_high(1), 1u);
    QCOMPARE(Log2Histogram::bucket_low(11), 1024u);
    QCOMPARE(Log2Histogram::bucket_high(11), 2047u);
    QCOMPARE(Log2Histogram::bucket_low(21), 1048576u);
    QCOMPARE(Log2Histogram::bucket_high(21), 2097151u);
    QCOMPARE(Log2Histogram::bucket_high(64), ~std::uint64_t{0});
    // Consecutive buckets tile the integers.
    for (int i = 1; i < Log2Histogram::kBuckets; ++i)
        QCOMPARE(Log2Histogram::bucket_low(i), Log2Histogram::bucket_high(i - 1) + 1);
}

void TestHistogram::unitDividesBeforeBucketing()
{
    // funclatency -u: 1999 ns is 1 us (bucket 1), 999 ns is 0 us (bucket 0), 2000 ns is 2 us.
    Log2Histogram us(TimeUnit::us);
    us.add(999);
    us.add(1'999);
    us.add(2'000);
    QCOMPARE(us.bucket_count(0), 1u);
    QCOMPARE(us.bucket_count(1), 1u);
    QCOMPARE(us.bucket_count(2), 1u);
    QCOMPARE(us.total_ns(), 4'998u);
    QCOMPARE(us.total(), 4u); // 4998 / 1000, truncated
    QCOMPARE(us.average(), 1u);

    Log2Histogram ms(TimeUnit::ms);
    ms.add(1'500'000);
    ms.add(3'000'000);
    QCOMPARE(ms.bucket_count(1), 1u);
    QCOMPARE(ms.bucket_count(2), 1u);
    QCOMPARE(ms.percentile(50), 1u);
    QCOMPARE(ms.max(), 3u);
    QCOMPARE(unit_label(TimeUnit::ns), std::string_view("nsecs"));
    QCOMPARE(unit_label(TimeUnit::us), std::string_view("usecs"));
    QCOMPARE(unit_label(TimeUnit::ms), std::string_view("msecs"));
}

void TestHistogram::setUnitRebuckets()
{
    Log2Histogram h;
    h.add(1'500'000);
    QCOMPARE(h.bucket_count(21), 1u);
    h.set_unit(TimeUnit::us);
    QCOMPARE(h.bucket_count(21), 0u);
    QCOMPARE(h.bucket_count(11), 1u); // 1500 us
    h.set_unit(TimeUnit::ms);
    QCOMPARE(h.bucket_count(1), 1u);
    QCOMPARE(h.total_ns(), 1'500'000u);
}

void TestHistogram::countTotalMinMax()
{
    Log2Histogram h;
    QCOMPARE(h.count(), 0u);
    QCOMPARE(h.min_ns(), 0u);
    QCOMPARE(h.max_ns(), 0u);
    QCOMPARE(h.first_bucket(), -1);
    QCOMPARE(h.last_bucket(), -1);
    for (std::uint64_t v : {700u, 5u, 90'000u, 300u})
        h.add(v);
    QCOMPARE(h.count(), 4u);
    QCOMPARE(h.total_ns(), 91'005u);
    QCOMPARE(h.min_ns(), 5u);
    QCOMPARE(h.max_ns(), 90'000u);
    QCOMPARE(h.first_bucket(), 3);
    QCOMPARE(h.last_bucket(), 17);
    QCOMPARE(h.average(), 22'751u); // 91005 / 4 = 22751.25
    h.clear();
    QCOMPARE(h.count(), 0u);
    QCOMPARE(h.total_ns(), 0u);
    QCOMPARE(h.max_bucket_count(), 0u);
}

void TestHistogram::percentilesNearestRank()
{
    Log2Histogram h;
    for (std::uint64_t v = 100; v >= 1; --v) // 1..100, added in reverse
        h.add(v);
    QCOMPARE(h.percentile_ns(50), 50u);
    QCOMPARE(h.percentile_ns(90), 90u);
    QCOMPARE(h.percentile_ns(99), 99u);
    QCOMPARE(h.percentile_ns(100), 100u);
    QCOMPARE(h.percentile_ns(0.5), 1u);

    // Nearest rank on 10 samples: p90 is the 9th, p99 the 10th, p50 the 5th.
    Log2Histogram t;
    for (std::uint64_t v : {15u, 20u, 35u, 40u, 50u, 60u, 70u, 80u, 90u, 1000u})
        t.add(v);
    QCOMPARE(t.percentile_ns(50), 50u);
    QCOMPARE(t.percentile_ns(90), 90u);
    QCOMPARE(t.percentile_ns(99), 1000u);
    QCOMPARE(Log2Histogram().percentile_ns(50), 0u);

    Log2Histogram one;
    one.add(7);
    QCOMPARE(one.percentile_ns(50), 7u);
    QCOMPARE(one.percentile_ns(99), 7u);
}

void TestHistogram::percentilesAfterMoreSamples()
{
    // The sorted copy is extended as samples arrive (a live view asks between batches).
    Log2Histogram h;
    for (std::uint64_t v : {50u, 10u, 30u})
        h.add(v);
    QCOMPARE(h.percentile_ns(50), 30u);
    for (std::uint64_t v : {5u, 1u, 100u, 2u})
        h.add(v);
    // 1 2 5 10 30 50 100: p50 is the 4th.
    QCOMPARE(h.percentile_ns(50), 10u);
    QCOMPARE(h.percentile_ns(100), 100u);
    QCOMPARE(h.percentile_ns(14.2), 1u); // 0.994 of a sample: rank 1
    QCOMPARE(h.percentile_ns(14.3), 2u); // 1.001: rank 2
}

void TestHistogram::removeLastUndoesAdd()
{
    // Adding values and taking the last ones back leaves what adding the rest alone gives:
    // counts, buckets, total, min, max and the nearest-rank percentiles, whether or not the
    // sorted copy had caught up before (a percentile asked in between).
    std::vector<std::uint64_t> v;
    std::uint64_t x = 12345;
    for (int i = 0; i < 300; ++i) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        v.push_back((x >> 40) % 100000 + (i == 150 ? 10'000'000 : 0)); // one maximum in the middle
    }
    v.push_back(0); // a new minimum, last
    for (bool asked : {false, true}) {
        Log2Histogram h(TimeUnit::us);
        for (std::uint64_t ns : v)
            h.add(ns);
        if (asked)
            QVERIFY(h.percentile_ns(50) > 0);
        for (std::size_t keep = v.size(); keep-- > 0;) {
            QVERIFY(!h.remove_last(v[keep] + 1)); // not the last value added: refused, unchanged
            QVERIFY(h.remove_last(v[keep]));
            Log2Histogram fresh(TimeUnit::us);
            for (std::size_t i = 0; i < keep; ++i)
                fresh.add(v[i]);
            QCOMPARE(h.count(), fresh.count());
            QCOMPARE(h.buckets(), fresh.buckets());
            QCOMPARE(h.total_ns(), fresh.total_ns());
            QCOMPARE(h.min_ns(), fresh.min_ns());
            QCOMPARE(h.max_ns(), fresh.max_ns());
            for (double p : {1.0, 50.0, 90.0, 99.0, 100.0})
                QCOMPARE(h.percentile_ns(p), fresh.percentile_ns(p));
        }
        QVERIFY(h.empty());
        QVERIFY(!h.remove_last(0));
    }
    Log2Histogram counted;
    counted.add(5, 3);
    counted.add(7);
    QVERIFY(!counted.remove_last(7)); // counted values: not undone, left whole
    QCOMPARE(counted.count(), 4u);
}

void TestHistogram::copiesShareSamplesUntilOneChanges()
{
    // A view keeps a copy of the histogram it draws: the samples are shared, not copied, and
    // each copy still changes on its own.
    Log2Histogram a;
    for (std::uint64_t v : {5u, 900u, 40u, 7u})
        a.add(v);
    QCOMPARE(a.percentile_ns(50), 7u); // sorts a's samples
    Log2Histogram b = a;
    QCOMPARE(b.values_ns().data(), a.values_ns().data()); // the same memory
    b.add(1);
    QVERIFY(b.values_ns().data() != a.values_ns().data());
    QCOMPARE(a.count(), 4u);
    QCOMPARE(b.count(), 5u);
    QCOMPARE(a.percentile_ns(50), 7u);
    QCOMPARE(b.percentile_ns(50), 7u);
    QCOMPARE(b.percentile_ns(20), 1u);
    QCOMPARE(a.percentile_ns(20), 5u);
    Log2Histogram c = a;
    QVERIFY(c.remove_last(7));
    QCOMPARE(a.values_ns().size(), 4u);
    QCOMPARE(a.percentile_ns(25), 5u);
    QCOMPARE(c.percentile_ns(25), 5u);
    QCOMPARE(c.percentile_ns(100), 900u);
    QCOMPARE(c.count(), 3u);
    c.set_unit(TimeUnit::us);
    QCOMPARE(a.unit(), TimeUnit::ns);
    QCOMPARE(a.bucket_count(Log2Histogram::bucket_of(900)), 1u);
    a.clear();
    QCOMPARE(b.count(), 5u);
    QCOMPARE(b.percentile_ns(100), 900u);
}

void TestHistogram::seedRowsAndBars()
{
    // 3881 calls of 1.5 ms, 214 of 3 ms and one of 5 ms: the rows of the seed's histogram.
    Log2Histogram h;
    addN(h, 3881, 1'500'000);
    addN(h, 214, 3'000'000);
    h.add(5'000'000);
    const QStringList l = lines(funclatency_text(h, TimeUnit::ns));
    QCOMPARE(l.value(0), QStringLiteral("     nsecs               : count     distribution"));
    QCOMPARE(l.value(1),
             QStringLiteral("   1048576 -> 2097151    : 3881     |****************************************|"));
    QCOMPARE(l.value(2),
             QStringLiteral("   2097152 -> 4194303    : 214      |**                                      |"));
    QCOMPARE(l.value(3),
             QStringLiteral("   4194304 -> 8388607    : 1        |                                        |"));
    QCOMPARE(l.value(4), QString());
    // 3881 * 1.5 ms + 214 * 3 ms + 5 ms = 6468500000 ns; / 4096 = 1579223.6, printed truncated.
    QCOMPARE(l.value(5), QStringLiteral("avg = 1579223 nsecs, total: 6468500000 nsecs, count: 4096"));
    QCOMPARE(l.size(), 7); // the text ends with a newline
    QCOMPARE(l.value(6), QString());
}

void TestHistogram::seedBeforeSeriesTail()
{
    // Printed from the first row (funclatency does not strip), the tail is the seed's text
    // verbatim: its "[...]" stands for the empty rows 0 -> 1 ... 262144 -> 524287.
    const QStringList l = lines(funclatency_text(beforeSeries(), TimeUnit::ns, {}, false));
    const QStringList expected{
        QStringLiteral("    524288 -> 1048575    : 0        |                                        |"),
        QStringLiteral("   1048576 -> 2097151    : 3881     |****************************************|"),
        QStringLiteral("   2097152 -> 4194303    : 214      |**                                      |"),
        QStringLiteral("   4194304 -> 8388607    : 1        |                                        |"),
        QString(),
        QStringLiteral("avg = 1825567 nsecs, total: 7477526027 nsecs, count: 4096"),
        QString(),
    };
    QCOMPARE(l.value(0), QStringLiteral("     nsecs               : count     distribution"));
    QCOMPARE(l.value(1),
             QStringLiteral("         0 -> 1          : 0        |                                        |"));
    QCOMPARE(l.mid(l.size() - expected.size()), expected);
    QCOMPARE(l.size(), 1 + 23 + 3); // header, rows 1..23, blank, avg, final newline
}

void TestHistogram::seedAfterSeriesTail()
{
    const Log2Histogram h = afterSeries();
    QCOMPARE(h.total_ns(), 1'680'510u);
    const QStringList l = lines(funclatency_text(h, TimeUnit::ns, {}, false));
    const QStringList expected{
        QStringLiteral("       128 -> 255        : 0        |                                        |"),
        QStringLiteral("       256 -> 511        : 4092     |****************************************|"),
        QStringLiteral("       512 -> 1023       : 2        |                                        |"),
        QStringLiteral("      1024 -> 2047       : 0        |                                        |"),
        QStringLiteral("      2048 -> 4095       : 0        |                                        |"),
        QStringLiteral("      4096 -> 8191       : 1        |                                        |"),
        QStringLiteral("      8192 -> 16383      : 1        |                                        |"),
        QString(),
        QStringLiteral("avg = 410 nsecs, total: 1680510 nsecs, count: 4096"),
        QString(),
    };
    QCOMPARE(l.mid(l.size() - expected.size()), expected);
}

void TestHistogram::leadingEmptyBucketsDropped()
{
    const QStringList l = lines(funclatency_text(afterSeries(), TimeUnit::ns));
    QCOMPARE(l.value(0), QStringLiteral("     nsecs               : count     distribution"));
    // The first row is the first non-empty bucket; the empty ones between stay.
    QCOMPARE(l.value(1),
             QStringLiteral("       256 -> 511        : 4092     |****************************************|"));
    QCOMPARE(l.value(3),
             QStringLiteral("      1024 -> 2047       : 0        |                                        |"));
    QCOMPARE(l.value(6),
             QStringLiteral("      8192 -> 16383      : 1        |                                        |"));
    QCOMPARE(l.value(7), QString());
    QVERIFY(l.value(8).startsWith(QLatin1String("avg = 410 nsecs")));
}

void TestHistogram::zeroSharesFirstRowAsInBcc()
{
    // bpf_log2l(0) == 1, so bcc counts a 0 in the "0 -> 1" row; the histogram keeps it apart.
    Log2Histogram h;
    h.add(0);
    h.add(0);
    h.add(1);
    h.add(3);
    QCOMPARE(h.bucket_count(0), 2u);
    QCOMPARE(h.bucket_count(1), 1u);
    const QStringList l = lines(funclatency_text(h, TimeUnit::ns));
    QCOMPARE(l.value(1),
             QStringLiteral("         0 -> 1          : 3        |****************************************|"));
    QCOMPARE(l.value(2),
             QStringLiteral("         2 -> 3          : 1        |*************                           |"));
    QCOMPARE(l.value(4), QStringLiteral("avg = 1 nsecs, total: 4 nsecs, count: 4"));
}

void TestHistogram::wideLayoutPastBucket32()
{
    // A value past 2^32 makes bcc switch to 20-wide columns and 20-star bars.
    Log2Histogram h;
    h.add(std::uint64_t{1} << 40);
    h.add(3);
    h.add(3);
    const QStringList l = lines(funclatency_text(h, TimeUnit::ns));
    QCOMPARE(l.value(0), QStringLiteral("               nsecs                         : count     distribution"));
    QCOMPARE(l.value(1),
             QStringLiteral("                   2 -> 3                    : 2        |********************|"));
    QCOMPARE(l.value(2),
             QStringLiteral("                   4 -> 7                    : 0        |                    |"));
    QCOMPARE(l.value(40),
             QStringLiteral("       1099511627776 -> 2199023255551        : 1        |**********          |"));
    QCOMPARE(l.value(41), QString());
}

void TestHistogram::emptyHistogram()
{
    QCOMPARE(funclatency_text(Log2Histogram()), std::string());
    QCOMPARE(funclatency_text(Log2Histogram(), TimeUnit::ns, "task = main"), std::string("task = main\n"));
    QCOMPARE(histogram_csv(Log2Histogram()), std::string("bucket_low,bucket_high,count\n"));
}

void TestHistogram::textInOtherUnit()
{
    // The seed's "before" run in microseconds (funclatency -u): 1760 us is in 1024 -> 2047.
    const Log2Histogram ns = beforeSeries();
    const QStringList l = lines(funclatency_text(ns, TimeUnit::us));
    QCOMPARE(l.value(0), QStringLiteral("     usecs               : count     distribution"));
    QCOMPARE(l.value(1),
             QStringLiteral("      1024 -> 2047       : 3881     |****************************************|"));
    QCOMPARE(l.value(2),
             QStringLiteral("      2048 -> 4095       : 214      |**                                      |"));
    QCOMPARE(l.value(3),
             QStringLiteral("      4096 -> 8191       : 1        |                                        |"));
    QCOMPARE(l.value(5), QStringLiteral("avg = 1825 usecs, total: 7477526 usecs, count: 4096"));
    // The same text from a histogram built in microseconds.
    Log2Histogram us = ns;
    us.set_unit(TimeUnit::us);
    QCOMPARE(funclatency_text(us), funclatency_text(ns, TimeUnit::us));
    // Milliseconds: the after-series calls are all 0 ms, shown in bcc's "0 -> 1" row.
    const QStringList m = lines(funclatency_text(afterSeries(), TimeUnit::ms));
    QCOMPARE(m.value(0), QStringLiteral("     msecs               : count     distribution"));
    QCOMPARE(m.value(1),
             QStringLiteral("         0 -> 1          : 4096     |****************************************|"));
    QCOMPARE(m.value(3), QStringLiteral("avg = 0 msecs, total: 1 msecs, count: 4096"));
}

void TestHistogram::labelLine()
{
    const QStringList l = lines(funclatency_text(afterSeries(), TimeUnit::ns, "task = sender"));
    QCOMPARE(l.value(0), QStringLiteral("task = sender"));
    QCOMPARE(l.value(1), QStringLiteral("     nsecs               : count     distribution"));
}

void TestHistogram::csvExport()
{
    const std::string csv = histogram_csv(afterSeries());
    QCOMPARE(QString::fromStdString(csv), QStringLiteral("bucket_low,bucket_high,count\n"
                                                         "256,511,4092\n"
                                                         "512,1023,2\n"
                                                         "1024,2047,0\n"
                                                         "2048,4095,0\n"
                                                         "4096,8191,1\n"
                                                         "8192,16383,1\n"));
    Log2Histogram z;
    z.add(0);
    z.add(1);
    QCOMPARE(histogram_csv(z), std::string("bucket_low,bucket_high,count\n0,0,1\n1,1,1\n"));
}

void TestHistogram::jsonExport()
{
    const std::string text = histogram_json(beforeSeries());
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(text), &err);
    QCOMPARE(err.error, QJsonParseError::NoError);
    const QJsonObject o = doc.object();
    QCOMPARE(o.value("unit").toString(), QStringLiteral("nsecs"));
    QCOMPARE(o.value("count").toInteger(), 4096);
    QCOMPARE(o.value("total").toInteger(), 7477526027LL);
    QCOMPARE(o.value("avg").toInteger(), 1825567);
    QCOMPARE(o.value("p50").toInteger(), 1760001);
    QCOMPARE(o.value("p90").toInteger(), 1760001);
    QCOMPARE(o.value("p99").toInteger(), 3000000); // rank 4056 of 4096 is past the 3881 short calls
    QCOMPARE(o.value("max").toInteger(), 5000000);
    const QJsonArray b = o.value("buckets").toArray();
    QCOMPARE(b.size(), 3);
    QCOMPARE(b[0].toObject().value("low").toInteger(), 1048576);
    QCOMPARE(b[0].toObject().value("high").toInteger(), 2097151);
    QCOMPARE(b[0].toObject().value("count").toInteger(), 3881);
    QCOMPARE(b[2].toObject().value("count").toInteger(), 1);

    const QJsonDocument empty =
        QJsonDocument::fromJson(QByteArray::fromStdString(histogram_json(Log2Histogram())), &err);
    QCOMPARE(err.error, QJsonParseError::NoError);
    QCOMPARE(empty.object().value("buckets").toArray().size(), 0);
    QCOMPARE(empty.object().value("count").toInteger(), 0);
}

void TestHistogram::ratio()
{
    const LatencyRatio r = latency_ratio(beforeSeries(), afterSeries());
    QVERIFY(r.avg && r.p99);
    QVERIFY(qAbs(*r.avg - 7477526027.0 / 1680510.0) < 1e-9);
    QCOMPARE(*r.p99, 3'000'000.0 / 407.0);
    QVERIFY(!latency_ratio(beforeSeries(), Log2Histogram()).avg);
    Log2Histogram zeros;
    zeros.add(0);
    QVERIFY(!latency_ratio(beforeSeries(), zeros).avg);
}

void TestHistogram::groupByTaskUserKind()
{
    std::vector<TaskInfo> tasks{{"main", 0, 0, false},
                                {"sender", 1, 1, false},
                                {"sender", 2, 2, false},
                                {"kworker", npos, 3, true},
                                {"other", 3, 0, false}};
    const std::vector<std::string> users{"root", "alice"};
    LatencyLog s;
    for (int i = 0; i < 5; ++i)
        s.emplace_back();
    s[0].task = 4, s[0].user = 1, s[0].kind = CallKind::with_unix_fds, s[0].duration_ns = 100;
    s[1].task = 1, s[1].user = 0, s[1].kind = CallKind::no_fd, s[1].duration_ns = 200;
    s[2].task = 2, s[2].user = 1, s[2].kind = CallKind::no_fd, s[2].duration_ns = 300;
    s[3].task = 0, s[3].user = 0, s[3].kind = CallKind::autobind, s[3].duration_ns = 400;
    s[4].task = 9, s[4].user = 7, s[4].kind = CallKind::with_fds, s[4].duration_ns = 500;

    auto byTask = group_samples(s, GroupBy::task, TimeUnit::ns, tasks, users);
    QCOMPARE(byTask.size(), 4u);
    QCOMPARE(byTask[0].name, std::string("main"));
    QCOMPARE(byTask[1].name, std::string("sender")); // both sender tasks in one group
    QCOMPARE(byTask[1].samples, (std::vector<std::size_t>{1, 2}));
    QCOMPARE(byTask[1].histogram.count(), 2u);
    QCOMPARE(byTask[1].histogram.total_ns(), 500u);
    QCOMPARE(byTask[2].name, std::string("other"));
    QCOMPARE(byTask[3].name, std::string("task 9")); // unknown task index: named by number

    auto byUser = group_samples(s, GroupBy::user, TimeUnit::ns, tasks, users);
    QCOMPARE(byUser.size(), 3u);
    QCOMPARE(byUser[0].name, std::string("root"));
    QCOMPARE(byUser[0].samples, (std::vector<std::size_t>{1, 3}));
    QCOMPARE(byUser[1].name, std::string("alice"));
    QCOMPARE(byUser[2].name, std::string("user 7"));

    auto byKind = group_samples(s, GroupBy::call_kind, TimeUnit::us, tasks, users);
    QCOMPARE(byKind.size(), 4u);
    QCOMPARE(byKind[0].name, std::string(call_kind_name(CallKind::no_fd)));
    QCOMPARE(byKind[0].samples.size(), 2u);
    QCOMPARE(byKind[1].name, std::string(call_kind_name(CallKind::with_fds)));
    QCOMPARE(byKind[2].name, std::string(call_kind_name(CallKind::with_unix_fds)));
    QCOMPARE(byKind[3].name, std::string(call_kind_name(CallKind::autobind)));
    QCOMPARE(byKind[0].histogram.unit(), TimeUnit::us);

    // Incremental: add() returns the group's position; a new group slots in by order.
    SampleGroups live(GroupBy::task, TimeUnit::ns, tasks, users);
    QCOMPARE(live.add(s[1], 1), 0u); // sender
    QCOMPARE(live.add(s[3], 3), 0u); // main goes before sender
    QCOMPARE(live.groups()[1].name, std::string("sender"));
    QCOMPARE(live.add(s[2], 2), 1u);
    QCOMPARE(live.groups()[1].samples.size(), 2u);
    live.set_unit(TimeUnit::ms);
    QCOMPARE(live.groups()[1].histogram.unit(), TimeUnit::ms);
    live.clear();
    QVERIFY(live.groups().empty());
}

// Calls past the latency-samples budget arrive as (value, times): every figure must be what the
// same samples added one by one give (latency_counts.hpp).
void TestHistogram::countedSamplesAreExact()
{
    const std::vector<std::pair<std::uint64_t, std::uint64_t>> counted{{700, 5}, {90, 3}, {1'000'000, 2}, {0, 1}};
    const std::vector<std::uint64_t> single{650, 700, 2'000'000, 91};
    Log2Histogram one_by_one, mixed;
    for (std::uint64_t v : single) {
        one_by_one.add(v);
        mixed.add(v);
    }
    for (const auto &[v, times] : counted) {
        for (std::uint64_t i = 0; i < times; ++i)
            one_by_one.add(v);
        mixed.add(v, times);
    }
    QCOMPARE(mixed.count(), one_by_one.count());
    QCOMPARE(mixed.total_ns(), one_by_one.total_ns());
    QCOMPARE(mixed.min_ns(), one_by_one.min_ns());
    QCOMPARE(mixed.max_ns(), one_by_one.max_ns());
    QCOMPARE(mixed.average(), one_by_one.average());
    QVERIFY(mixed.buckets() == one_by_one.buckets());
    for (double p : {1.0, 10.0, 25.0, 50.0, 66.0, 90.0, 99.0, 100.0})
        QCOMPARE(mixed.percentile_ns(p), one_by_one.percentile_ns(p));
    mixed.set_unit(TimeUnit::us);
    one_by_one.set_unit(TimeUnit::us);
    QVERIFY(mixed.buckets() == one_by_one.buckets());
    // A sum past 2^64 saturates instead of wrapping below its parts.
    Log2Histogram huge;
    huge.add(~std::uint64_t(0) / 2, 3);
    QCOMPARE(huge.total_ns(), ~std::uint64_t(0));
}

QTEST_GUILESS_MAIN(TestHistogram)
#include "test_histogram.moc"
