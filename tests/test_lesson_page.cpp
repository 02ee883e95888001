// SPDX-License-Identifier: GPL-3.0-or-later
// The lesson as one self-contained web page: nothing fetched from anywhere, a section per beat,
// under 2 MB for the triangle, every text of the scene escaped (a note cannot close the
// script), and in a real browser (headless Chromium) #beat=N opens that beat, the keys move
// between beats, and two beats draw two different, non-blank pictures.
#include "lesson/web_page.h"
#include "main_window.h"
#include "player_controller.h"
#include "wait_index.hpp"

#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using inflight::test::waitIndex;

namespace {

QString scenePath(const char *name) { return QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/") + QLatin1String(name); }

QString readText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QString chromium()
{
    for (const char *name : {"chromium", "chromium-browser", "google-chrome"})
        if (const QString found = QStandardPaths::findExecutable(QLatin1String(name)); !found.isEmpty())
            return found;
    return {};
}

// Chromium, headless, on `url`: its serialised DOM (dump) or a screenshot into `png`.
QString runChromium(const QString &url, const QString &png = {})
{
    QProcess p;
    QStringList args{QStringLiteral("--headless"), QStringLiteral("--no-sandbox"), QStringLiteral("--disable-gpu"),
                     QStringLiteral("--hide-scrollbars"), QStringLiteral("--window-size=1280,800")};
    args << (png.isEmpty() ? QStringLiteral("--dump-dom") : QStringLiteral("--screenshot=") + png) << url;
    p.start(chromium(), args);
    if (!p.waitForFinished(20000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return QString::fromUtf8(p.readAllStandardOutput());
}

int shownBeat(const QString &dom)
{
    static const QRegularExpression beat(QStringLiteral("data-beat=\"(\\d+)\""));
    const auto m = beat.match(dom);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

int colours(const QString &png)
{
    const QImage image(png);
    QSet<QRgb> seen;
    for (int y = 0; y < image.height(); y += 4)
        for (int x = 0; x < image.width(); x += 4)
            seen.insert(image.pixel(x, y));
    return static_cast<int>(seen.size());
}

struct Exported {
    PlayerController c;
    MainWindow w{c};
    QTemporaryDir dir;
    QString page;
    bool exportScene(const QString &scene)
    {
        if (!w.openSceneNow(scene) || !waitIndex(c))
            return false;
        w.resize(1280, 800);
        w.show();
        page = dir.filePath(QStringLiteral("lesson.html"));
        QString error;
        if (!lesson::writeWebPage(c, w.graph(), page, &error)) {
            qWarning("%s", qPrintable(error));
            return false;
        }
        return true;
    }
};

} // namespace

class TestLessonPage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void theTrianglePageIsSelfContained()
    {
        Exported e;
        QVERIFY(e.exportScene(scenePath("selftest-triangle-stream.scn")));
        const QString html = readText(e.page);
        QVERIFY(QFileInfo(e.page).size() < 2 * 1024 * 1024);
        QVERIFY(!html.contains(QLatin1String("http:")) && !html.contains(QLatin1String("https:")));
        QVERIFY(!html.contains(QLatin1String(" src=")));
        static const QRegularExpression href(QStringLiteral("href=\"(?!#)"));
        QVERIFY(!href.match(html).hasMatch());
        QCOMPARE(html.count(QLatin1String("<section class=\"beat\"")), e.c.beatCount());
        QCOMPARE(html.count(QLatin1String("<svg")), e.c.beatCount());
        QCOMPARE(html.count(QLatin1String("<script>")), 1);
        // The ask's answer waits behind a click, without script too.
        QVERIFY(html.contains(QLatin1String("<details><summary>")));
    }

    void aScenesWordsNeverBecomeMarkup()
    {
        QTemporaryDir dir;
        const QString scene = dir.filePath(QStringLiteral("hostile.scn"));
        QFile f(scene);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("scene \"T </script><script>alert(1)</script> \\\"&<>\"\n"
                "note \"</script><script>alert(2)</script> <img src=x onerror=alert(3)> \\\"&<>\"\n"
                "socketpair a b\nclose a b\n");
        f.close();
        Exported e;
        QVERIFY(e.exportScene(scene));
        const QString html = readText(e.page);
        QCOMPARE(html.count(QLatin1String("<script>")), 1);
        QVERIFY(!html.contains(QLatin1String("alert(1)</script>")));
        QVERIFY(!html.contains(QLatin1String("<img")));
        QVERIFY(html.contains(QLatin1String("&lt;/script&gt;&lt;script&gt;alert(2)")));
        QVERIFY(html.contains(QLatin1String("&quot;&amp;&lt;&gt;")));
    }

    void aBrowserOpensTheLinkedBeatAndItsKeysMove()
    {
        if (chromium().isEmpty())
            QSKIP("no chromium: scripts/inflight test installs Debian's chromium for this test");
        Exported e;
        QVERIFY(e.exportScene(scenePath("selftest-triangle-stream.scn")));
        const QString url = QStringLiteral("file://") + e.page;
        const int beats = e.c.beatCount();
        QVERIFY(beats >= 20);
        // Beat 20's narration, as the app says it there.
        const std::uint64_t step = e.c.runIndex().beats()[19].step;
        e.c.seek(step);
        QTRY_VERIFY(!e.c.isBusy() && e.c.position() == step);
        const QString narration =
            e.c.narration().left(40).toHtmlEscaped().replace(QLatin1String("&quot;"), QLatin1String("\""));
        // The keys, through the page's own handler, from the linked beat: the sequence ends
        // elsewhere if the link or any one key fails.
        const QString moved =
            runChromium(url + QStringLiteral("#beat=20&press=ArrowRight,PageDown,ArrowRight,ArrowLeft"));
        QCOMPARE(shownBeat(moved), 22);
        QVERIFY(moved.contains(QStringLiteral("class=\"beat on\" id=\"beat-22\"")));
        QVERIFY2(moved.contains(narration), qPrintable(narration));
        QCOMPARE(shownBeat(runChromium(url + QStringLiteral("#beat=3&press=Home,End,PageUp"))), beats - 1);
    }

    void aBrowserDrawsTwoBeatsTwoPictures()
    {
        if (chromium().isEmpty())
            QSKIP("no chromium: scripts/inflight test installs Debian's chromium for this test");
        Exported e;
        QVERIFY(e.exportScene(scenePath("selftest-triangle-stream.scn")));
        const QString url = QStringLiteral("file://") + e.page;
        const QString one = e.dir.filePath(QStringLiteral("beat1.png"));
        const QString twenty = e.dir.filePath(QStringLiteral("beat20.png"));
        runChromium(url + QStringLiteral("#beat=1"), one);
        runChromium(url + QStringLiteral("#beat=20"), twenty);
        QVERIFY(QImage(one).width() > 0 && QImage(twenty).width() > 0);
        QVERIFY(QImage(one) != QImage(twenty));
        QVERIFY(colours(one) > 8 && colours(twenty) > 8);
    }
};

QTEST_MAIN(TestLessonPage)
#include "test_lesson_page.moc"
