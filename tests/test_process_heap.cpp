// SPDX-License-Identifier: GPL-3.0-or-later
// configure_process_heap() and trim_idle_heap(), observed from a probe process that calls them
// as the programs do: the start again with glibc.malloc.hugetlb=1 (arguments, name and a
// user's own tunables kept; a user's own hugetlb choice left alone), one malloc arena, a fixed
// mmap threshold, and large blocks kept until the idle trim. The same probe unconfigured shows
// each observation can tell the two apart.
#include <QProcess>
#include <QProcessEnvironment>
#include <QtTest>

namespace {

// AddressSanitizer replaces malloc: glibc's arenas and mmap threshold, which two observations
// read, do not exist in such a build.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kGlibcMalloc = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kGlibcMalloc = false;
#else
constexpr bool kGlibcMalloc = true;
#endif
#else
constexpr bool kGlibcMalloc = true;
#endif

// What the probe printed, by key.
QMap<QString, QString> runProbe(const QString &tunables, const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("INFLIGHT_PROBE_STARTS"));
    if (tunables.isNull())
        env.remove(QStringLiteral("GLIBC_TUNABLES"));
    else
        env.insert(QStringLiteral("GLIBC_TUNABLES"), tunables);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(INFLIGHT_HEAP_PROBE), args);
    if (!p.waitForFinished(20000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return {};
    QMap<QString, QString> out;
    for (const QString &line : QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\n'))) {
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq > 0)
            out.insert(line.left(eq), line.mid(eq + 1));
    }
    return out;
}

} // namespace

class TestProcessHeap : public QObject {
    Q_OBJECT
private slots:
    void startsAgainWithTheTunableKeepingArgumentsAndName()
    {
        const QString mine = QStringLiteral("glibc.malloc.tcache_count=7");
        const auto out = runProbe(mine, {QStringLiteral("a"), QStringLiteral("b c")});
        QCOMPARE(out.value(QStringLiteral("args")), QStringLiteral("a b c"));
        // Named after its binary (15 characters at most), not "exe" as through /proc/self/exe.
        QCOMPARE(out.value(QStringLiteral("comm")), QStringLiteral("process_heap_pr"));
        const QString starts = out.value(QStringLiteral("starts"));
        if (starts == QLatin1String("1")) {
            // No transparent huge pages here, or a glibc without the tunable: nothing to gain.
            QCOMPARE(out.value(QStringLiteral("tunables")), mine);
        } else {
            QCOMPARE(starts, QStringLiteral("2"));
            QCOMPARE(out.value(QStringLiteral("tunables")), mine + QStringLiteral(":glibc.malloc.hugetlb=1"));
        }
    }
    void startsAgainAtMostOnceWithoutTunables()
    {
        const auto out = runProbe(QString(), {});
        const QString starts = out.value(QStringLiteral("starts"));
        QVERIFY2(starts == QLatin1String("1") || starts == QLatin1String("2"), qPrintable(starts));
        QCOMPARE(out.value(QStringLiteral("tunables")),
                 starts == QLatin1String("2") ? QStringLiteral("glibc.malloc.hugetlb=1") : QString());
    }
    void leavesTheUsersChoiceAlone()
    {
        const auto out = runProbe(QStringLiteral("glibc.malloc.hugetlb=0"), {});
        QCOMPARE(out.value(QStringLiteral("starts")), QStringLiteral("1"));
        QCOMPARE(out.value(QStringLiteral("tunables")), QStringLiteral("glibc.malloc.hugetlb=0"));
    }
    void oneArenaForEveryThread()
    {
        if (!kGlibcMalloc)
            QSKIP("AddressSanitizer's allocator replaces glibc malloc, whose arenas this reads");
        QCOMPARE(runProbe(QString(), {}).value(QStringLiteral("arenas")), QStringLiteral("1"));
        QVERIFY(runProbe(QString(), {QStringLiteral("--unconfigured")}).value(QStringLiteral("arenas")).toInt() > 1);
    }
    void fixedMmapThreshold()
    {
        if (!kGlibcMalloc)
            QSKIP("AddressSanitizer's allocator replaces glibc malloc, whose mmap threshold this reads");
        QCOMPARE(runProbe(QString(), {}).value(QStringLiteral("maps_after_larger_free")), QStringLiteral("1"));
        QCOMPARE(
            runProbe(QString(), {QStringLiteral("--unconfigured")}).value(QStringLiteral("maps_after_larger_free")),
            QStringLiteral("0"));
    }
    void largeBlocksKeptUntilTheIdleTrim()
    {
        const auto out = runProbe(QString(), {});
        QCOMPARE(out.value(QStringLiteral("block_source")), QStringLiteral("recycling"));
        QCOMPARE(out.value(QStringLiteral("kept_after_give")), QString::number(2 << 20));
        QCOMPARE(out.value(QStringLiteral("kept_after_trim")), QStringLiteral("0"));
        QCOMPARE(runProbe(QString(), {QStringLiteral("--unconfigured")}).value(QStringLiteral("block_source")),
                 QStringLiteral("plain"));
    }
};

QTEST_GUILESS_MAIN(TestProcessHeap)
#include "test_process_heap.moc"
