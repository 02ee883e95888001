// SPDX-License-Identifier: GPL-3.0-or-later
// Start-up cannot be wedged by its own files: a recovery copy or a settings file that is a
// FIFO, a link to /dev/zero or hundreds of MB is refused with a located message and set aside,
// and the window still comes up; hostile setting values give their defaults as read; a second
// instance leaves the first one's recovery copy alone. Each start is the app's start-up in a
// child process with a HOME of its own, so a start-up that blocks fails the wait instead of
// hanging the suite.
#include "editor/editor_session.h"
#include "editor/scene_editor.h"
#include "main_window.h"
#include "player_controller.h"
#include "settings/checked_settings.h"
#include "theme.h"

#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QMenu>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <fcntl.h>
#include <string_view>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

constexpr qint64 kHugeBytes = 200LL * 1024 * 1024;

// main()'s start-up, with the recovery question answered `answer` and every message printed.
// It ends once the window is made and the recovery offered.
int child_starts(int argc, char **argv, bool answer)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Inflight"));
    QApplication::setOrganizationName(QStringLiteral("Inflight"));
    for (const QString &m : setAsideUnreadableSettingsFiles())
        std::printf("message: %s\n", qPrintable(m));
    PlayerController controller;
    MainWindow window(controller);
    window.session().setMessageSink([](const QString &m) { std::printf("message: %s\n", qPrintable(m)); });
    window.session().setRecoverPrompt([answer](const editor::RecoveryStore::Copy &) { return answer; });
    const bool restored = window.offerRecovery();
    int recent = -1;
    for (QMenu *m : window.findChildren<QMenu *>())
        if (m->title() == QStringLiteral("Open &Recent"))
            recent = static_cast<int>(m->actions().size());
    struct rusage usage { };
    ::getrusage(RUSAGE_SELF, &usage);
    std::printf("started restored=%d text=%s recent=%d fontScale=%g speed=%g maxrssKB=%ld\n", restored ? 1 : 0,
                window.sceneEditor().bytes().toHex().constData(), recent, Theme::instance().fontScale(),
                controller.speed(), usage.ru_maxrss);
    std::fflush(stdout);
    return 0;
}

// An instance with unsaved text (`hex`, typed into the untitled buffer): it says "written" once
// its recovery copy is on disk, then runs until it is killed.
int child_edits(int argc, char **argv, const QByteArray &hex)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Inflight"));
    QApplication::setOrganizationName(QStringLiteral("Inflight"));
    PlayerController controller;
    MainWindow window(controller);
    window.session().setRecoveryInterval(20);
    QObject::connect(&window.session(), &editor::EditorSession::recoveryWritten, [] {
        std::printf("written\n");
        std::fflush(stdout);
    });
    window.sceneEditor().replaceBytes(QByteArray::fromHex(hex));
    return QApplication::exec();
}

bool make_sparse(const QString &path, qint64 size)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return false;
    const bool sized = ::ftruncate(fd, size) == 0; // nothing is written: no disk is used
    ::close(fd);
    return sized;
}

// Puts at `path` what no start-up may read whole or block on: a FIFO ("fifo"), a link to
// /dev/zero ("zero") or 200 MB ("huge"). Nothing, or why it cannot be made here.
const char *make_unreadable(const QString &path, const QString &kind)
{
    if (kind == QLatin1String("fifo") && ::mkfifo(QFile::encodeName(path).constData(), 0600) != 0)
        return "mkfifo is refused on this file system";
    if (kind == QLatin1String("zero") && !QFile::link(QStringLiteral("/dev/zero"), path))
        return "no symbolic link to /dev/zero can be made here";
    if (kind == QLatin1String("huge") && !make_sparse(path, kHugeBytes))
        return "this file system cannot make a 200 MB sparse file";
    return nullptr;
}

QByteArray read_all(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The names in `dir` that start with `prefix`.
QStringList names_starting(const QString &dir, const QString &prefix)
{
    return QDir(dir).entryList({prefix + QLatin1Char('*')}, QDir::AllEntries | QDir::System | QDir::Hidden);
}

} // namespace

class TestStartupFiles : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<QTemporaryDir> home_;
    QString output_;

    QString configDir() const { return home_->filePath(QStringLiteral("config")); }
    QString config() const { return configDir() + QStringLiteral("/Inflight/Inflight.conf"); }
    QString recovery() const { return home_->filePath(QStringLiteral("data/Inflight/Inflight/recovery")); }
    QString gone() const { return recovery() + QStringLiteral("/instance-1-gone"); }
    // The untitled slot of an instance that is gone (no lock file), with its note written: the
    // path of its text, for the case to make.
    QString goneSlot()
    {
        QDir().mkpath(gone());
        QFile note(gone() + QStringLiteral("/untitled.json"));
        if (!note.open(QIODevice::WriteOnly))
            return {};
        note.write(R"({"path": "", "written": "2026-01-01T00:00:00.000Z", "bytes": 3})");
        return gone() + QStringLiteral("/untitled.scn");
    }
    void setUp(QProcess &child, const QStringList &arguments) const
    {
        child.setProgram(QCoreApplication::applicationFilePath());
        child.setArguments(arguments);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), home_->path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), configDir());
        env.insert(QStringLiteral("XDG_DATA_HOME"), home_->filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        child.setProcessEnvironment(env);
        child.setProcessChannelMode(QProcess::MergedChannels);
    }
    // Starts the window in a child with this test's HOME; true once it said it started and
    // ended. A child that blocks is killed when the wait runs out.
    bool start(bool answer = true)
    {
        QProcess child;
        setUp(child, {QStringLiteral("--child-starts"), answer ? QStringLiteral("yes") : QStringLiteral("no")});
        output_.clear();
        QObject::connect(&child, &QProcess::readyRead, [&] { output_ += QString::fromUtf8(child.readAll()); });
        child.start();
        [&] { QTRY_VERIFY_WITH_TIMEOUT(child.state() == QProcess::NotRunning, 25000); }();
        if (child.state() != QProcess::NotRunning) {
            child.kill();
            child.waitForFinished(5000);
        }
        output_ += QString::fromUtf8(child.readAll());
        return output_.contains(QStringLiteral("started ")) && child.exitStatus() == QProcess::NormalExit &&
               child.exitCode() == 0;
    }
    // The "started" line's value of `key`.
    QString started(const QString &key) const
    {
        const QString line = output_.mid(output_.indexOf(QStringLiteral("started "))).section(QLatin1Char('\n'), 0, 0);
        for (const QString &field : line.split(QLatin1Char(' ')))
            if (field.startsWith(key + QLatin1Char('=')))
                return field.mid(key.size() + 1);
        return {};
    }
    void writeConfig(const QByteArray &text) const
    {
        QVERIFY(QDir().mkpath(QFileInfo(config()).path()));
        QFile f(config());
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(text), text.size());
    }

private slots:
    void init()
    {
        home_ = std::make_unique<QTemporaryDir>();
        QVERIFY(home_->isValid());
    }

    // A copy's text or note that no reader may open: said with its path, kept under another
    // name with its pair, not offered, and the window comes up.
    void anUnreadableRecoveryCopyIsRefusedAndKept_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("said");
        QTest::newRow("text is a FIFO") << "untitled.scn"
                                        << "fifo"
                                        << "it is a FIFO, not a regular file";
        QTest::newRow("note is a FIFO") << "untitled.json"
                                        << "fifo"
                                        << "it is a FIFO, not a regular file";
        QTest::newRow("text links to /dev/zero") << "untitled.scn"
                                                 << "zero"
                                                 << "it is a character device, not a regular file";
        QTest::newRow("text of 200 MB") << "untitled.scn"
                                        << "huge"
                                        << "it has 200 MB, more than the 16 MB read here";
    }
    void anUnreadableRecoveryCopyIsRefusedAndKept()
    {
        QFETCH(QString, file);
        QFETCH(QString, kind);
        QFETCH(QString, said);
        QVERIFY(!goneSlot().isEmpty());
        const QString bad = gone() + QLatin1Char('/') + file;
        if (file.endsWith(QStringLiteral(".json"))) {
            QVERIFY(QFile::remove(bad));
            QFile text(gone() + QStringLiteral("/untitled.scn"));
            QVERIFY(text.open(QIODevice::WriteOnly));
            text.write("gc\n");
        }
        if (const char *cannot = make_unreadable(bad, kind))
            QSKIP(cannot);

        QVERIFY2(start(), qPrintable(output_));
        QVERIFY2(output_.contains(QStringLiteral("message: ") + bad +
                                  QStringLiteral(": error: the recovery copy was not restored: ") + said +
                                  QStringLiteral("; it is kept, renamed ") + file + QStringLiteral(".unreadable-")),
                 qPrintable(output_));
        QCOMPARE(output_.count(QStringLiteral("message: ")), 1);
        QCOMPARE(started(QStringLiteral("restored")), QStringLiteral("0"));
        QCOMPARE(started(QStringLiteral("text")), QString());
        // Read in part at most: a 200 MB text read whole would be in memory.
        QVERIFY2(started(QStringLiteral("maxrssKB")).toLongLong() * 1024 < kHugeBytes, qPrintable(output_));
        // The note and the text, aside under one suffix; nothing left under the slot's names.
        const QStringList notes = names_starting(gone(), QStringLiteral("untitled.json.unreadable-"));
        const QStringList texts = names_starting(gone(), QStringLiteral("untitled.scn.unreadable-"));
        QCOMPARE(notes.size(), 1);
        QCOMPARE(texts.size(), 1);
        QCOMPARE(notes.front().mid(notes.front().indexOf(QStringLiteral(".unreadable-"))),
                 texts.front().mid(texts.front().indexOf(QStringLiteral(".unreadable-"))));
        QVERIFY(!QFileInfo::exists(gone() + QStringLiteral("/untitled.json")));
        QVERIFY(!QFileInfo::exists(gone() + QStringLiteral("/untitled.scn")));
        const QFileInfo kept(gone() + QLatin1Char('/') +
                             (file.endsWith(QStringLiteral(".json")) ? notes : texts).front());
        if (kind == QLatin1String("zero"))
            QCOMPARE(kept.symLinkTarget(), QStringLiteral("/dev/zero"));
        if (kind == QLatin1String("huge"))
            QCOMPARE(kept.size(), kHugeBytes);

        // Aside, it is not refused again at the next start.
        QVERIFY2(start(), qPrintable(output_));
        QVERIFY2(!output_.contains(QStringLiteral("message: ")), qPrintable(output_));
    }

    // The buffer may hold any byte: a copy comes back whole, and the copy this instance keeps
    // of it is whole too (not cut at the NUL and written over the original).
    void recoveryCopiesWithNulOrInvalidUtf8ComeBackWhole_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("NUL") << QByteArray("socketpair a b\n# before\0after the NUL\nclose a\n", 46);
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
        QCOMPARE(started(QStringLiteral("restored")), QStringLiteral("1"));
        QCOMPARE(started(QStringLiteral("text")), QString::fromLatin1(text.toHex()));
        // The child went with its buffer unsaved: its own copy holds every byte, and the one it
        // came from is gone (taken over, not lost).
        QStringList copies;
        for (QDirIterator it(recovery(), {QStringLiteral("untitled.scn")}, QDir::Files, QDirIterator::Subdirectories);
             it.hasNext();)
            copies << it.next();
        QCOMPARE(copies.size(), 1);
        QVERIFY2(!copies.front().startsWith(gone()), qPrintable(copies.front()));
        QCOMPARE(read_all(copies.front()), text);
    }

    // The settings files QSettings would read (the application's and the organization's), when
    // one would block, never end or flood: set aside before any QSettings reads it, said, and
    // the window comes up with the defaults.
    void unreadableSettingsFilesAreSetAside_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("said");
        QTest::newRow("FIFO") << "Inflight/Inflight.conf"
                              << "fifo"
                              << "it is a FIFO, not a regular file";
        QTest::newRow("organization's FIFO") << "Inflight.conf"
                                             << "fifo"
                                             << "it is a FIFO, not a regular file";
        QTest::newRow("link to /dev/zero") << "Inflight/Inflight.conf"
                                           << "zero"
                                           << "it is a character device, not a regular file";
        QTest::newRow("200 MB") << "Inflight/Inflight.conf"
                                << "huge"
                                << "it has 200 MB, more than the 4 MB read here";
    }
    void unreadableSettingsFilesAreSetAside()
    {
        QFETCH(QString, file);
        QFETCH(QString, kind);
        QFETCH(QString, said);
        const QString path = configDir() + QLatin1Char('/') + file;
        QVERIFY(QDir().mkpath(QFileInfo(path).path()));
        if (const char *cannot = make_unreadable(path, kind))
            QSKIP(cannot);

        QVERIFY2(start(), qPrintable(output_));
        QVERIFY2(output_.contains(QStringLiteral("message: ") + path +
                                  QStringLiteral(": error: the settings were not read: ") + said +
                                  QStringLiteral("; the file is kept as ") + path + QStringLiteral(".unreadable-")),
                 qPrintable(output_));
        QCOMPARE(started(QStringLiteral("fontScale")), QStringLiteral("1"));
        QVERIFY2(started(QStringLiteral("maxrssKB")).toLongLong() * 1024 < kHugeBytes, qPrintable(output_));
        QVERIFY(!QFileInfo::exists(path) && !QFileInfo(path).isSymLink());
        const QStringList aside = names_starting(QFileInfo(path).path(), QFileInfo(path).fileName() + ".unreadable-");
        QCOMPARE(aside.size(), 1);
        if (kind == QLatin1String("huge"))
            QCOMPARE(QFileInfo(QFileInfo(path).path() + QLatin1Char('/') + aside.front()).size(), kHugeBytes);
    }

    // Values no version writes give their defaults as they are read: not the nearest bound (a
    // font three times as large), not NaN.
    void hostileSettingValuesGiveTheirDefaults_data()
    {
        QTest::addColumn<QByteArray>("fontScale");
        QTest::addColumn<QByteArray>("speed");
        QTest::newRow("1e9") << QByteArray("1e9") << QByteArray("1e9");
        QTest::newRow("200") << QByteArray("200") << QByteArray("-5");
        QTest::newRow("NaN") << QByteArray("nan") << QByteArray("nan");
    }
    void hostileSettingValuesGiveTheirDefaults()
    {
        QFETCH(QByteArray, fontScale);
        QFETCH(QByteArray, speed);
        writeConfig("[view]\nfontScale=" + fontScale + "\n[run]\nspeed=" + speed + "\n");
        QVERIFY2(start(), qPrintable(output_));
        QVERIFY2(!output_.contains(QStringLiteral("message: ")), qPrintable(output_));
        QCOMPARE(started(QStringLiteral("fontScale")), QStringLiteral("1"));
        QCOMPARE(started(QStringLiteral("speed")), QStringLiteral("8"));
    }

    // A value in range is taken as it is: the checks above are not defaults for everything.
    void settingValuesInRangeAreKept()
    {
        writeConfig("[view]\nfontScale=2.5\n[run]\nspeed=100\n");
        QVERIFY2(start(), qPrintable(output_));
        QCOMPARE(started(QStringLiteral("fontScale")), QStringLiteral("2.5"));
        QCOMPARE(started(QStringLiteral("speed")), QStringLiteral("100"));
    }

    // 200,000 recent files, a window state far larger than any, garbage geometry and an
    // out-of-range choice: the Recent menu holds the first few, the rest are never looked at.
    void aFloodedSettingsFileStartsWithItsFirstRecentFiles()
    {
        QByteArray text = "[presentation]\nclickerStep=99\n[window]\nstate=@ByteArray(" + QByteArray(100000, 'x') +
                          ")\ngeometry=@ByteArray(\\0\\0\\0\\0garbage)\n[files]\nrecent=";
        for (int i = 0; i < 200000; ++i)
            text += "/r" + QByteArray::number(i) + ", ";
        text += "/last\n";
        writeConfig(text);
        QVERIFY2(start(), qPrintable(output_));
        QCOMPARE(started(QStringLiteral("recent")), QStringLiteral("8"));
    }

    // Two instances: the second, told "No" to every recovery question, neither offers nor
    // deletes the copy of the first, which still runs; once the first is killed, its text is
    // offered and comes back whole.
    void aSecondInstanceLeavesTheFirstOnesCopy()
    {
        const QByteArray typed("socketpair a b\n# typed in the first instance\n");
        QProcess first;
        setUp(first, {QStringLiteral("--child-edits"), QString::fromLatin1(typed.toHex())});
        QString first_output;
        QObject::connect(&first, &QProcess::readyRead, [&] { first_output += QString::fromUtf8(first.readAll()); });
        first.start();
        QTRY_VERIFY2_WITH_TIMEOUT(first_output.contains(QStringLiteral("written")), qPrintable(first_output), 25000);
        const auto first_copies = [&] {
            QStringList out;
            for (QDirIterator it(recovery(), {QStringLiteral("untitled.scn")}, QDir::Files,
                                 QDirIterator::Subdirectories);
                 it.hasNext();)
                out << it.next();
            return out;
        };
        QCOMPARE(first_copies().size(), 1);
        const QString copy = first_copies().front();
        QCOMPARE(read_all(copy), typed);

        QVERIFY2(start(false), qPrintable(output_));
        QCOMPARE(started(QStringLiteral("restored")), QStringLiteral("0"));
        QVERIFY2(QFileInfo::exists(copy), qPrintable(output_));
        QCOMPARE(read_all(copy), typed);

        first.kill();
        QVERIFY(first.waitForFinished(10000));
        QVERIFY2(start(true), qPrintable(output_));
        QCOMPARE(started(QStringLiteral("restored")), QStringLiteral("1"));
        QCOMPARE(started(QStringLiteral("text")), QString::fromLatin1(typed.toHex()));
    }
};

int main(int argc, char **argv)
{
    if (argc == 3 && std::string_view(argv[1]) == "--child-starts")
        return child_starts(argc, argv, std::string_view(argv[2]) == "yes");
    if (argc == 3 && std::string_view(argv[1]) == "--child-edits")
        return child_edits(argc, argv, QByteArray(argv[2]));
    QApplication app(argc, argv);
    TestStartupFiles t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_startup_files.moc"
