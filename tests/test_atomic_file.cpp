// SPDX-License-Identifier: GPL-3.0-or-later
// write_file_atomically(): a file is replaced whole or not at all. A write that fails part way
// (a file size limit, a full tmpfs) leaves the old file byte for byte and no temporary file
// behind, and says which step failed with the errno's text; a directory, a device or an input
// file is refused; permission bits and symbolic links survive a save.
#include "inflight/atomic_file.hpp"

#include "file_size_limit.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

using inflight::write_file_atomically;

namespace {

// The exit status of the full-disk child when it may not mount (no CAP_SYS_ADMIN, no user
// namespaces): the test is skipped with the reason it printed.
constexpr int kCannotMount = 77;

std::string read_file(const std::string &path)
{
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly))
        return "<unreadable>";
    return f.readAll().toStdString();
}

mode_t mode_of(const std::string &path)
{
    struct stat st { };
    return ::lstat(path.c_str(), &st) == 0 ? st.st_mode : 0;
}

// Everything in `dir`, hidden files too: a temporary file left behind shows here.
QStringList entries(const QString &dir)
{
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
}

int full_disk_child(const char *dir);

} // namespace

class TestAtomicFile : public QObject {
    Q_OBJECT
private:
    QTemporaryDir tmp_;
    // A directory of its own per test, so that entries() sees only that test's files.
    QString fresh_dir(const char *name)
    {
        const QString d = tmp_.filePath(QLatin1String(name));
        QDir().mkpath(d);
        return d;
    }
    static std::string in(const QString &dir, const char *name)
    {
        return (dir + QLatin1Char('/') + QLatin1String(name)).toStdString();
    }

private slots:
    void initTestCase() { QVERIFY(tmp_.isValid()); }

    void createsAndReplacesAFile()
    {
        const QString dir = fresh_dir("replace");
        const std::string path = in(dir, "scene.scn");
        QVERIFY(!write_file_atomically(path, "first\n"));
        QCOMPARE(read_file(path), std::string("first\n"));
        const std::string big(300000, 'x'); // more than one write() may take
        QVERIFY(!write_file_atomically(path, big));
        QCOMPARE(read_file(path), big);
        QVERIFY(!write_file_atomically(path, ""));
        QCOMPARE(read_file(path), std::string());
        QCOMPARE(entries(dir), QStringList{QStringLiteral("scene.scn")});
    }

    void aFailedWriteKeepsTheOldFileAndNamesTheError()
    {
        const QString dir = fresh_dir("limit");
        const std::string path = in(dir, "scene.scn");
        const std::string old = std::string(5921, 'o');
        QVERIFY(!write_file_atomically(path, old));
        std::optional<inflight::WriteFailure> failure;
        {
            // Room for part of the new text: the write fails after a short write.
            const inflight::test::FileSizeLimit limit(4096);
            QVERIFY(limit.active());
            failure = write_file_atomically(path, std::string(8000, 'n'));
        }
        QVERIFY(failure);
        QCOMPARE(failure->step, std::string("writing"));
        QCOMPARE(failure->error, EFBIG);
        QCOMPARE(failure->text(), std::string("writing: ") + std::strerror(EFBIG));
        QCOMPARE(failure->message("save", path),
                 "cannot save " + path + ": writing: File too large; the file on disk is unchanged");
        QCOMPARE(read_file(path), old);
        QCOMPARE(entries(dir), QStringList{QStringLiteral("scene.scn")});

        // A file that did not exist is not created.
        const std::string fresh = in(dir, "new.scn");
        {
            const inflight::test::FileSizeLimit limit(10);
            failure = write_file_atomically(fresh, std::string(100, 'n'));
        }
        QVERIFY(failure);
        QCOMPARE(failure->message("write", fresh),
                 "cannot write " + fresh + ": writing: File too large; nothing was written");
        QCOMPARE(entries(dir), QStringList{QStringLiteral("scene.scn")});
    }

    void aTemporaryThatCannotBeCreatedKeepsTheOldFile()
    {
        const QString dir = fresh_dir("missing");
        const std::string path = in(dir, "no-such-dir/scene.scn");
        const auto failure = write_file_atomically(path, "text");
        QVERIFY(failure);
        QCOMPARE(failure->error, ENOENT);
        QVERIFY2(failure->text().find("creating a temporary file in ") == 0, failure->text().c_str());
    }

    void aDirectoryOrADeviceIsRefused()
    {
        const QString dir = fresh_dir("refused");
        const std::string sub = in(dir, "sub");
        QVERIFY(QDir().mkpath(QString::fromStdString(sub)));
        auto failure = write_file_atomically(sub, "text");
        QVERIFY(failure);
        QCOMPARE(failure->message("save", sub), "cannot save " + sub + ": it is a directory; nothing was written");
        QVERIFY(S_ISDIR(mode_of(sub)));

        const std::string fifo = in(dir, "fifo");
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        failure = write_file_atomically(fifo, "text");
        QVERIFY(failure);
        QVERIFY2(failure->text().find("not a regular file") != std::string::npos, failure->text().c_str());
        QVERIFY(S_ISFIFO(mode_of(fifo)));
        QCOMPARE(entries(dir), (QStringList{QStringLiteral("fifo"), QStringLiteral("sub")}));
    }

    void anInputIsRefusedUnderAnyName()
    {
        const QString dir = fresh_dir("inputs");
        const std::string scene = in(dir, "scene.scn");
        QVERIFY(!write_file_atomically(scene, "the scene\n"));
        const std::string hard = in(dir, "hard.c");
        QCOMPARE(::link(scene.c_str(), hard.c_str()), 0);
        inflight::AtomicWriteOptions options;
        options.inputs = {scene};
        for (const std::string &out : {scene, hard}) {
            const auto failure = write_file_atomically(out, "int main(void) {}\n", options);
            QVERIFY(failure);
            QCOMPARE(failure->text(), "it is the input file " + scene);
        }
        QCOMPARE(read_file(scene), std::string("the scene\n"));
        // Another file is written as usual.
        QVERIFY(!write_file_atomically(in(dir, "out.c"), "int main(void) {}\n", options));
    }

    void permissionBitsAreKept()
    {
        const QString dir = fresh_dir("mode");
        const std::string path = in(dir, "script.scn");
        QVERIFY(!write_file_atomically(path, "old"));
        for (const mode_t mode : {mode_t(0640), mode_t(0755), mode_t(0600), mode_t(0444)}) {
            QCOMPARE(::chmod(path.c_str(), mode), 0);
            QVERIFY(!write_file_atomically(path, "new"));
            QCOMPARE(mode_of(path) & 07777, mode);
        }
        // A new file: what the umask allows of 0666, as any program's new file.
        const mode_t mask = ::umask(022);
        ::umask(mask);
        const std::string fresh = in(dir, "fresh.scn");
        QVERIFY(!write_file_atomically(fresh, "new"));
        QCOMPARE(mode_of(fresh) & 07777, 0666 & ~mask);
    }

    void aSymbolicLinkStaysALink()
    {
        const QString dir = fresh_dir("links");
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/real")));
        const std::string target = in(dir, "real/scene.scn");
        QVERIFY(!write_file_atomically(target, "old\n"));
        // A relative link to a relative link.
        const std::string link = in(dir, "link.scn"), link2 = in(dir, "link2.scn");
        QCOMPARE(::symlink("real/scene.scn", link.c_str()), 0);
        QCOMPARE(::symlink("link.scn", link2.c_str()), 0);
        QVERIFY(!write_file_atomically(link2, "new\n"));
        QVERIFY(S_ISLNK(mode_of(link)));
        QVERIFY(S_ISLNK(mode_of(link2)));
        QCOMPARE(std::filesystem::read_symlink(link2).string(), std::string("link.scn"));
        QCOMPARE(std::filesystem::read_symlink(link).string(), std::string("real/scene.scn"));
        QCOMPARE(read_file(target), std::string("new\n"));
        QCOMPARE(entries(dir + QStringLiteral("/real")), QStringList{QStringLiteral("scene.scn")});
        // A dangling link: the file it names is created, the link stays.
        const std::string dangling = in(dir, "dangling.scn");
        QCOMPARE(::symlink("real/later.scn", dangling.c_str()), 0);
        QVERIFY(!write_file_atomically(dangling, "later\n"));
        QVERIFY(S_ISLNK(mode_of(dangling)));
        QCOMPARE(read_file(in(dir, "real/later.scn")), std::string("later\n"));
        // A loop is an error, not a hang.
        const std::string loop = in(dir, "loop.scn");
        QCOMPARE(::symlink("loop.scn", loop.c_str()), 0);
        const auto failure = write_file_atomically(loop, "x");
        QVERIFY(failure);
        QCOMPARE(failure->error, ELOOP);
    }

    // A real full disk: a 64 KiB tmpfs, in a child in a mount namespace of its own.
    void aFullTmpfsKeepsTheOldFile()
    {
        const QString dir = fresh_dir("tmpfs");
        QProcess child;
        child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--full-disk-child"), dir});
        QVERIFY(child.waitForFinished(20000));
        const QByteArray err = child.readAllStandardError();
        if (child.exitStatus() == QProcess::NormalExit && child.exitCode() == kCannotMount)
            QSKIP(qPrintable(QStringLiteral("cannot mount a tmpfs here: ") + QString::fromLocal8Bit(err).trimmed()));
        QCOMPARE(child.exitStatus(), QProcess::NormalExit);
        QVERIFY2(child.exitCode() == 0, err.constData());
        const QByteArray out = child.readAllStandardOutput();
        QVERIFY2(out.contains(": writing: No space left on device; the file on disk is unchanged"), out.constData());
    }
};

namespace {

// In a mount namespace of its own: a 64 KiB tmpfs on `dir`, a scene saved on it, the rest of
// it filled, then a larger save. Prints the failure; exits 0 when the old file is intact and
// nothing is left behind, 1 (with the reason on stderr) otherwise.
int full_disk_child(const char *dir)
{
    const auto cannot_mount = [](const char *what) {
        std::fprintf(stderr, "%s: %s\n", what, std::strerror(errno));
        return kCannotMount;
    };
    if (::unshare(CLONE_NEWNS) != 0)
        return cannot_mount("unshare(CLONE_NEWNS)");
    // The mount stays in this namespace: nothing propagates back to the host's.
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        return cannot_mount("making / private");
    if (::mount("inflight-test", dir, "tmpfs", 0, "size=64k") != 0)
        return cannot_mount("mount -t tmpfs");
    const auto fail = [](const std::string &why) {
        std::fprintf(stderr, "%s\n", why.c_str());
        return 1;
    };
    const std::string path = std::string(dir) + "/scene.scn";
    const std::string old(5921, 'o');
    if (auto f = write_file_atomically(path, old))
        return fail("the first save failed: " + f->message("save", path));
    // The rest of the disk, to the last block.
    const std::string filler = std::string(dir) + "/filler";
    const int fd = ::open(filler.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    const std::string block(4096, 'f');
    while (::write(fd, block.data(), block.size()) > 0) { }
    while (::write(fd, block.data(), 1) > 0) { }
    if (errno != ENOSPC)
        return fail(std::string("filling the tmpfs: ") + std::strerror(errno));
    ::close(fd);
    const auto failure = write_file_atomically(path, std::string(16384, 'n'));
    if (!failure)
        return fail("the save on a full disk succeeded");
    std::printf("%s\n", failure->message("save", path).c_str());
    if (failure->error != ENOSPC)
        return fail("not ENOSPC: " + failure->text());
    if (read_file(path) != old)
        return fail("the old file changed");
    const QStringList left = entries(QString::fromLocal8Bit(dir));
    if (left != QStringList{QStringLiteral("filler"), QStringLiteral("scene.scn")})
        return fail("left in the directory: " + left.join(QLatin1Char(' ')).toStdString());
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc == 3 && std::string_view(argv[1]) == "--full-disk-child")
        return full_disk_child(argv[2]);
    QCoreApplication app(argc, argv);
    TestAtomicFile test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_atomic_file.moc"
