// SPDX-License-Identifier: GPL-3.0-or-later
// Start-up cannot be wedged by its own files: a recovery copy or a settings file that is a
// FIFO, a link to /dev/zero or hundreds of MB is refused with a located message and set aside,
// and the window still comes up; hostile setting values are clamped as read. Each case starts
// the window in a child process with a HOME of its own, so a start-up that blocks fails the
// wait instead of hanging the suite.
#include "editor/editor_session.h"
#include "editor/scene_editor.h"
#include "main_window.h"
#include "player_controller.h"
#include "settings/checked_settings.h"
#include "theme.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QMenu>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <fcntl.h>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

namespace {

// The start-up main() does, with the questions answered yes and every message printed.
int child_main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Inflight"));
    QApplication::setOrganizationName(QStringLiteral("Inflight"));
    if (const auto refused = setAsideUnreadableSettingsFile())
        std::printf("message: %s\n", qPrintable(*refused));
    PlayerController controller;
    MainWindow window(controller);
    window.session().setMessageSink([](const QString &m) { std::printf("message: %s\n", qPrintable(m)); });
    window.session().setRecoverPrompt([](const editor::RecoveryStore::Copy &) { return true; });
    const bool restored = window.offerRecovery();
    int recent = -1;
    for (QMenu *m : window.findChildren<QMenu *>())
        if (m->title() == QStringLiteral("Open &Recent"))
            recent = static_cast<int>(m->actions().size());
    std::printf("started restored=%d text=%s recent=%d fontScale=%g speed=%g\n", restored ? 1 : 0,
                window.sceneEditor().bytes().toHex().constData(), recent, Theme::instance().fontScale(),
                controller.speed());
    std::fflush(stdout);
    return 0;
}

} // namespace

class TestStartupFiles : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<QTemporaryDir> home_;
    QString output_;

    QString config() const { return home_->filePath(QStringLiteral("config/Inflight/Inflight.conf")); }
    QString recovery() const { return home_->filePath(QStringLiteral("data/Inflight/Inflight/recovery")); }
    // The slot directory of an instance that is gone (no lock file), with its note written.
    QString goneSlot()
    {
        const QString dir = recovery() + QStringLiteral("/instance-1-gone");
        QDir().mkpath(dir);
        QFile note(dir + QStringLiteral("/untitled.json"));
        if (!note.open(QIODevice::WriteOnly))
            return {};
        note.write(R"({"path": "", "written": "2026-01-01T00:00:00.000Z", "bytes": 3})");
        return dir + QStringLiteral("/untitled.scn");
    }
    // Starts the window in a child with this test's HOME; true once it says it started.
    bool start()
    {
        QProcess child;
        child.setProgram(QCoreApplication::applicationFilePath());
        child.setArguments({QStringLiteral("--child-starts")});
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), home_->path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home_->filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home_->filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        child.setProcessEnvironment(env);
        child.setProcessChannelMode(QProcess::MergedChannels);
        output_.clear();
        QObject::connect(&child, &QProcess::readyRead, [&] { output_ += QString::fromUtf8(child.readAll()); });
        child.start();
        bool started = false;
        [&] { QTRY_VERIFY_WITH_TIMEOUT(output_.contains(QStringLiteral("started ")), 25000); }();
        started = output_.contains(QStringLiteral("started "));
        if (!started) {
            child.kill();
            child.waitForFinished(5000);
        } else {
            child.waitForFinished(10000);
        }
        return started;
    }

private slots:
    void init()
    {
        home_ = std::make_unique<QTemporaryDir>();
        QVERIFY(home_->isValid());
    }

    void aFifoRecoveryCopyIsRefusedAndKept()
    {
        const QString body = goneSlot();
        QVERIFY(!body.isEmpty());
        if (::mkfifo(QFile::encodeName(body).constData(), 0600) != 0)
            QSKIP("mkfifo is refused on this file system");
        QVERIFY2(start(), qPrintable(output_));
        QVERIFY2(output_.contains(body + QStringLiteral(": error: the recovery copy was not restored: it is a FIFO")),
                 qPrintable(output_));
        QVERIFY2(output_.contains(QStringLiteral("started restored=0")), qPrintable(output_));
        QVERIFY(QFileInfo(body + QStringLiteral(".refused")).exists());
    }

    void aRecoveryCopyLinkedToDevZeroIsNotRead()
    {
        const QString body = goneSlot();
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), body));
        QVERIFY2(start(), qPrintable(output_));
        QVERIFY2(output_.contains(body + QStringLiteral(": error: the recovery copy was not restored: it is a "
                                                        "character device")),
                 qPrintable(output_));
        QVERIFY(QFileInfo(body + QStringLiteral(".refused")).isSymLink());
    }

    void aHugeRecoveryCopyIsRefused()
    {
        const QString body = goneSlot();
        const int fd = ::open(QFile::encodeName(body).constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        QVERIFY(fd >= 0);
        const bool sized = ::ftruncate(fd, 200LL * 1024 * 1024) == 0; // sparse: nothing is written
        ::close(fd);
        if (!sized)
            QSKIP("this file system cannot make a 200 MB sparse file");
        QVERIFY2(start(), qPrintable(output_));
        QVERIFY2(output_.contains(body + QStringLiteral(": error: the recovery copy was not restored: it has 200 MB, "
                                                        "more than the 16 MB read here")),
                 qPrintable(output_));
        QVERIFY2(output_.contains(QStringLiteral("started restored=0")), qPrintable(output_));
        QCOMPARE(QFileInfo(body + QStringLiteral(".refused")).size(), 200LL * 1024 * 1024);
    }

    // The editor's own buffer may hold any byte: a copy comes back whole.
    void recoveryCopiesWithNulOrInvalidUtf8ComeBackWhole_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("NUL") << QByteArray("gc\n# a\0b\n", 9);
        QTest::newRow("invalid UTF-8") << QByteArray("gc\n# \xff\xfe\n");
    }
    void recoveryCopiesWithNulOrInvalidUtf8ComeBackWhole()
    {
        QFETCH(QByteArray, text);
        QFile body(goneSlot());
        QVERIFY(body.open(QIODevice::WriteOnly));
        QCOMPARE(body.write(text), text.size());
        body.close();
        QVERIFY2(start(), qPrintable(output_));
        QVERIFY2(output_.contains(QStringLiteral("started restored=1 text=") + QString::fromLatin1(text.toHex())),
                 qPrintable(output_));
    }

    void unreadableSettingsFilesAreSetAside_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("said");
        QTest::newRow("FIFO") << QStringLiteral("fifo") << QStringLiteral("it is a FIFO");
        QTest::newRow("link to /dev/zero") << QStringLiteral("zero") << QStringLiteral("it is a character device");
        QTest::newRow("200 MB") << QStringLiteral("huge") << QStringLiteral("it has 200 MB");
    }
    void unreadableSettingsFilesAreSetAside()
    {
        QFETCH(QString, kind);
        QFETCH(QString, said);
        QVERIFY(QDir().mkpath(QFileInfo(config()).path()));
        const QByteArray name = QFile::encodeName(config());
        if (kind == QLatin1String("fifo") && ::mkfifo(name.constData(), 0600) != 0)
            QSKIP("mkfifo is refused on this file system");
        if (kind == QLatin1String("zero"))
            QVERIFY(QFile::link(QStringLiteral("/dev/zero"), config()));
        if (kind == QLatin1String("huge")) {
            const int fd = ::open(name.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            QVERIFY(fd >= 0);
            const bool sized = ::ftruncate(fd, 200LL * 1024 * 1024) == 0;
            ::close(fd);
            if (!sized)
                QSKIP("this file system cannot make a 200 MB sparse file");
        }
        QVERIFY2(start(), qPrintable(output_));
        QVERIFY2(output_.contains(config() + QStringLiteral(": error: the settings were not read: ") + said),
                 qPrintable(output_));
        QVERIFY(QFileInfo(config() + QStringLiteral(".refused")).exists() ||
                QFileInfo(config() + QStringLiteral(".refused")).isSymLink());
    }

    // Values no version writes: each is clamped or replaced by its default as it is read.
    void hostileSettingValuesAreCheckedAsRead()
    {
        QVERIFY(QDir().mkpath(QFileInfo(config()).path()));
        QFile f(config());
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[view]\nfontScale=1e9\n[run]\nspeed=nan\n[presentation]\nclickerStep=99\n"
                "[window]\nstate=@ByteArray(");
        f.write(QByteArray(100000, 'x')); // larger than any window's state, and garbage
        f.write(")\ngeometry=@ByteArray(\\0\\0\\0\\0garbage)\n[files]\nrecent=");
        for (int i = 0; i < 200000; ++i)
            f.write("/r" + QByteArray::number(i) + ", ");
        f.write("/last\n");
        f.close();
        QVERIFY2(start(), qPrintable(output_));
        const QString started = output_.mid(output_.indexOf(QStringLiteral("started ")));
        QVERIFY2(started.contains(QStringLiteral("recent=8 ")), qPrintable(started));
        QVERIFY2(started.contains(QStringLiteral("fontScale=%1 ").arg(Theme::kMaxFontScale)), qPrintable(started));
        QVERIFY2(started.contains(QStringLiteral("speed=8\n")) || started.endsWith(QStringLiteral("speed=8")),
                 qPrintable(started));
    }
};

int main(int argc, char **argv)
{
    if (argc == 2 && std::string_view(argv[1]) == "--child-starts")
        return child_main(argc, argv);
    QApplication app(argc, argv);
    TestStartupFiles t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_startup_files.moc"
