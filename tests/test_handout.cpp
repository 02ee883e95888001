// SPDX-License-Identifier: GPL-3.0-or-later
// The lesson as a PDF handout: a page per note (or per beat), each page's text real text in
// the file (the scene's title, the note, the narration, the scene's lines, the page number),
// read back with poppler-utils as a student's viewer would; a failed write leaves nothing.
#include "lesson/handout.h"
#include "main_window.h"
#include "offscreen_app.hpp"
#include "player_controller.h"
#include "wait_index.hpp"

#include "inflight/beats.hpp"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using inflight::test::waitIndex;

namespace {

QString scenePath(const char *name) { return QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/") + QLatin1String(name); }

// The output of a poppler-utils tool on `pdf`, or a null string when it did not run.
QString poppler(const QString &tool, const QStringList &args)
{
    QProcess p;
    p.start(tool, args);
    if (!p.waitForFinished(20000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return {};
    return QString::fromUtf8(p.readAllStandardOutput());
}

int pagesOf(const QString &pdf)
{
    for (const QString &line : poppler(QStringLiteral("pdfinfo"), {pdf}).split(QLatin1Char('\n')))
        if (line.startsWith(QLatin1String("Pages:")))
            return line.mid(6).trimmed().toInt();
    return -1;
}

std::size_t countBeats(const PlayerController &c, inflight::BeatKind kind)
{
    std::size_t n = 0;
    for (const inflight::Beat &b : c.runIndex().beats())
        n += b.kind == kind ? 1 : 0;
    return n;
}

} // namespace

class TestHandout : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        if (QStandardPaths::findExecutable(QStringLiteral("pdfinfo")).isEmpty() ||
            QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty())
            QSKIP("poppler-utils (pdfinfo, pdftotext) is not installed: scripts/inflight test installs it");
    }

    void aPagePerNoteWithItsWordsAsText()
    {
        PlayerController c;
        MainWindow w(c);
        QVERIFY(w.openSceneNow(scenePath("selftest-triangle-stream.scn")));
        QVERIFY(waitIndex(c));
        w.resize(1280, 800);
        w.show();
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("triangle.pdf"));
        int calls = 0;
        QString error;
        QVERIFY2(lesson::writeHandout(c, w.graph(), pdf, lesson::HandoutPages::per_note, &error,
                                      [&calls](int, int) {
                                          ++calls;
                                          return true;
                                      }),
                 qPrintable(error));
        const int notes = static_cast<int>(countBeats(c, inflight::BeatKind::note));
        QVERIFY(notes >= 5);
        QCOMPARE(pagesOf(pdf), notes);
        QCOMPARE(calls, notes);
        const QString text = poppler(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")});
        QVERIFY(text.contains(QStringLiteral("Selftest triangle (stream socketpairs)")));
        QVERIFY(text.contains(QStringLiteral("Page 1 of %1").arg(notes)));
        QVERIFY(text.contains(QStringLiteral("Page %1 of %1").arg(notes)));
        // A note's words, the graph's labels and a line of the scene, as text.
        QVERIFY(text.contains(QStringLiteral("First triangle")));
        QVERIFY(text.contains(QStringLiteral("out_degree")));
        QVERIFY(text.contains(QStringLiteral("send p1 fds=u0,u0")));
        // Per beat: a page for each.
        const QString beats_pdf = dir.filePath(QStringLiteral("beats.pdf"));
        QVERIFY2(lesson::writeHandout(c, w.graph(), beats_pdf, lesson::HandoutPages::per_beat, &error),
                 qPrintable(error));
        QCOMPARE(pagesOf(beats_pdf), c.beatCount());
    }

    void aCancelOrAFailedWriteLeavesNoFile()
    {
        PlayerController c;
        MainWindow w(c);
        QVERIFY(w.openSceneNow(scenePath("cycle-kept-alive-by-open-fd.scn")));
        QVERIFY(waitIndex(c));
        w.show();
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("cancelled.pdf"));
        QString error;
        QVERIFY(!lesson::writeHandout(c, w.graph(), pdf, lesson::HandoutPages::per_note, &error,
                                      [](int done, int) { return done < 1; }));
        QVERIFY(!QFile::exists(pdf));
        const QString nowhere = dir.filePath(QStringLiteral("no/such/dir/handout.pdf"));
        QVERIFY(!lesson::writeHandout(c, w.graph(), nowhere, lesson::HandoutPages::per_note, &error));
        QVERIFY2(!error.isEmpty(), "a failed write says why");
        QVERIFY(!QFile::exists(nowhere));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty()); // no temporary left
    }

    void theCommandLineWritesIt()
    {
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("cli.pdf"));
        QProcess p;
        p.setProcessEnvironment(inflight::test::offscreenAppEnvironment(dir.path()));
        p.start(QStringLiteral(INFLIGHT_APP),
                {scenePath("cycle-kept-alive-by-open-fd.scn"), QStringLiteral("--export-handout"), pdf});
        QVERIFY(p.waitForFinished(25000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(pagesOf(pdf) >= 2);
        p.start(QStringLiteral(INFLIGHT_APP),
                {scenePath("cycle-kept-alive-by-open-fd.scn"), QStringLiteral("--export-handout"), pdf,
                 QStringLiteral("--handout-pages"), QStringLiteral("every")});
        QVERIFY(p.waitForFinished(25000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains(QStringLiteral("--handout-pages")));
    }
};

QTEST_MAIN(TestHandout)
#include "test_handout.moc"
