// SPDX-License-Identifier: GPL-3.0-or-later
// use_huge_page_heap(): the process starts again with glibc.malloc.hugetlb=1 added to what the
// user set, keeps its arguments and its name, and leaves a user's own hugetlb choice alone.
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QtTest>

#include <gnu/libc-version.h>

namespace {

// What the probe printed, by key.
QMap<QString, QString> runProbe(const QString &tunables, const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (tunables.isNull())
        env.remove(QStringLiteral("GLIBC_TUNABLES"));
    else
        env.insert(QStringLiteral("GLIBC_TUNABLES"), tunables);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(INFLIGHT_HEAP_PROBE), args);
    if (!p.waitForFinished(20000))
        return {};
    QMap<QString, QString> out;
    for (const QString &line : QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\n'))) {
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq > 0)
            out.insert(line.left(eq), line.mid(eq + 1));
    }
    return out;
}

// Whether this machine and glibc make the probe start again (the function's own conditions).
bool startsAgainHere()
{
    QFile thp(QStringLiteral("/sys/kernel/mm/transparent_hugepage/enabled"));
    if (!thp.open(QIODevice::ReadOnly) || thp.readAll().contains("[never]"))
        return false;
    const QStringList v = QString::fromLatin1(gnu_get_libc_version()).split(QLatin1Char('.'));
    return v.size() >= 2 && (v[0].toInt() > 2 || (v[0].toInt() == 2 && v[1].toInt() >= 35));
}

} // namespace

class TestHugePageHeap : public QObject {
    Q_OBJECT
private slots:
    void addsTheTunableAndKeepsArgumentsAndName()
    {
        const auto out = runProbe(QStringLiteral("glibc.malloc.tcache_count=7"), {QStringLiteral("a"), QStringLiteral("b c")});
        QCOMPARE(out.value(QStringLiteral("args")), QStringLiteral("a b c"));
        // Named after its binary (15 characters at most), not "exe" as through /proc/self/exe.
        QCOMPARE(out.value(QStringLiteral("comm")), QStringLiteral("huge_page_heap_"));
        if (startsAgainHere())
            QCOMPARE(out.value(QStringLiteral("tunables")),
                     QStringLiteral("glibc.malloc.tcache_count=7:glibc.malloc.hugetlb=1"));
        else
            QCOMPARE(out.value(QStringLiteral("tunables")), QStringLiteral("glibc.malloc.tcache_count=7"));
    }
    void withoutTunablesAtAll()
    {
        const auto out = runProbe(QString(), {});
        QCOMPARE(out.value(QStringLiteral("tunables")),
                 startsAgainHere() ? QStringLiteral("glibc.malloc.hugetlb=1") : QString());
    }
    void leavesTheUsersChoiceAlone()
    {
        const auto out = runProbe(QStringLiteral("glibc.malloc.hugetlb=0"), {});
        QCOMPARE(out.value(QStringLiteral("tunables")), QStringLiteral("glibc.malloc.hugetlb=0"));
    }
};

QTEST_GUILESS_MAIN(TestHugePageHeap)
#include "test_huge_page_heap.moc"
