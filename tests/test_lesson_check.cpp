// SPDX-License-Identifier: GPL-3.0-or-later
// The lesson check (inflight --check-lesson): its arguments are refused when malformed, a lesson
// the back row cannot read is reported beat by beat and exits 1, and every shipped lesson
// (scenes/ but large/ and the autobind scenes, whose subject is a map, not a graph) passes on
// a 1280x800 and a 1024x768 projector. One row per scene and size, so the suite shards.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString scenesDir() { return QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes"); }

struct Result {
    int exit_code = -1;
    QString out, err;
};

// The app's own check, as an author runs it: a fresh settings home, the offscreen platform.
Result check(const QStringList &args, const QString &home)
{
    QProcess app;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home);
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    app.setProcessEnvironment(env);
    app.start(QStringLiteral(INFLIGHT_APP), QStringList{QStringLiteral("--check-lesson")} + args);
    Result r;
    if (!app.waitForFinished(28000)) {
        app.kill();
        app.waitForFinished();
        r.err = QStringLiteral("the check did not finish in 28 s");
        return r;
    }
    r.exit_code = app.exitStatus() == QProcess::NormalExit ? app.exitCode() : -1;
    r.out = QString::fromUtf8(app.readAllStandardOutput());
    r.err = QString::fromUtf8(app.readAllStandardError());
    return r;
}

// The autobind scenes (autobind in their names) are about the name space's map, their own
// panel; large/ is beyond a lesson's size. Both are outside what a lesson on the graph promises.
bool isLesson(const QString &relative)
{
    return !relative.startsWith(QLatin1String("large/")) &&
           !QFileInfo(relative).fileName().contains(QLatin1String("autobind"));
}

// Variants taught beside a scene's default one (the buggy side of a CVE, its finding's banner).
const QMultiMap<QString, QString> &taughtVariants()
{
    static const QMultiMap<QString, QString> variants{
        {QStringLiteral("bugs/cve-2021-0920-peek-classic.scn"), QStringLiteral("buggy")}};
    return variants;
}

} // namespace

class TestLessonCheck : public QObject {
    Q_OBJECT
    QTemporaryDir home_;

private slots:
    void initTestCase() { QVERIFY(home_.isValid()); }

    void refusesBadArguments_data()
    {
        QTest::addColumn<QStringList>("args");
        const QString triangle = scenesDir() + QStringLiteral("/selftest-triangle-stream.scn");
        for (const char *size : {"1280", "1280x", "x800", "1280x800x2", "1280X800", " 1280x800", "1280x800px",
                                 "-1280x800", "0x0", "199x800", "1280x10001", "99999x800"})
            // (Quoted: a tag's spaces must survive the shard runner.)
            QTest::newRow(qPrintable(QStringLiteral("size '%1'").arg(QLatin1String(size))))
                << QStringList{triangle, QStringLiteral("--size"), QString::fromLatin1(size)};
        for (const char *beats : {"0-5", "5-3", "a-b", "-3", "1-2-3", "99999-"})
            QTest::newRow(qPrintable(QStringLiteral("beats '%1'").arg(QLatin1String(beats))))
                << QStringList{triangle, QStringLiteral("--beats"), QString::fromLatin1(beats)};
        QTest::newRow("no such scene") << QStringList{scenesDir() + QStringLiteral("/no-such-scene.scn")};
    }
    void refusesBadArguments()
    {
        QFETCH(QStringList, args);
        const Result r = check(args, home_.path());
        QVERIFY2(r.exit_code == 2, qPrintable(QStringLiteral("exit %1: %2 %3").arg(r.exit_code).arg(r.out, r.err)));
        QVERIFY(r.out.isEmpty());
    }

    // A note no projector shows whole: reported at its beat, with the scene and the step.
    void reportsWhatTheBackRowMisses()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("wordy.scn"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QString words;
        for (int i = 0; i < 120; ++i)
            words += QStringLiteral("the lesson goes on and on ");
        f.write(
            QStringLiteral("set gc graph\nsocketpair a b\nnote \"%1\"\nsend a fds=b\nclose a b\n").arg(words).toUtf8());
        f.close();
        const Result r = check({path}, home_.path());
        QVERIFY2(r.exit_code == 1, qPrintable(QStringLiteral("exit %1: %2 %3").arg(r.exit_code).arg(r.out, r.err)));
        static const QRegularExpression located(
            QStringLiteral("^%1:beat [0-9]+ \\(step [0-9]+\\): note clipped").arg(QRegularExpression::escape(path)),
            QRegularExpression::MultilineOption);
        QVERIFY2(located.match(r.out).hasMatch(), qPrintable(r.out));
    }

    void shippedLessonPasses_data()
    {
        QTest::addColumn<QString>("scene");
        QTest::addColumn<QString>("size");
        QTest::addColumn<QString>("variant"); // empty: the scene's own
        QStringList scenes;
        for (QDirIterator it(scenesDir(), {QStringLiteral("*.scn")}, QDir::Files, QDirIterator::Subdirectories);
             it.hasNext();) {
            const QString relative = QDir(scenesDir()).relativeFilePath(it.next());
            if (isLesson(relative))
                scenes << relative;
        }
        scenes.sort();
        for (const QString &scene : scenes)
            for (const char *size : {"1280x800", "1024x768"}) {
                QTest::newRow(qPrintable(scene + QLatin1Char(' ') + QLatin1String(size)))
                    << scene << QString::fromLatin1(size) << QString();
                for (const QString &variant : taughtVariants().values(scene))
                    QTest::newRow(qPrintable(scene + QLatin1Char(' ') + QLatin1String(size) +
                                             QStringLiteral(" variant ") + variant))
                        << scene << QString::fromLatin1(size) << variant;
            }
    }
    void shippedLessonPasses()
    {
        QFETCH(QString, scene);
        QFETCH(QString, size);
        QStringList args{scenesDir() + QLatin1Char('/') + scene, QStringLiteral("--size"), size};
        QFETCH(QString, variant);
        if (!variant.isEmpty())
            args << QStringLiteral("--variant") << variant;
        const Result r = check(args, home_.path());
        QVERIFY2(r.exit_code == 0, qPrintable(QStringLiteral("exit %1\n%2%3").arg(r.exit_code).arg(r.out, r.err)));
    }
};

QTEST_GUILESS_MAIN(TestLessonCheck)
#include "test_lesson_check.moc"
