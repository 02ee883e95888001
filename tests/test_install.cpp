// SPDX-License-Identifier: GPL-3.0-or-later
// The installed application: `cmake --install` into a temporary prefix puts every file a
// desktop needs where it looks for it, the files pass their validators (desktop-file-validate,
// appstreamcli, man), the MIME type tells scenes from Godot's binary .scn files, the installed
// programs find their examples, and `cpack -G DEB` makes a package whose dependencies resolve.
#include "example_scenes.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMimeDatabase>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cstdio>

namespace {

const QString kAppId = QStringLiteral("io.github.inflight.Inflight");

struct Result {
    int code = -1;
    QString out, err;
};

Result run(const QString &program, const QStringList &args, const QProcessEnvironment &env = {},
           int timeout_ms = 120000)
{
    QProcess p;
    if (!env.isEmpty())
        p.setProcessEnvironment(env);
    p.start(program, args);
    Result r;
    if (!p.waitForStarted(10000)) {
        r.err = QStringLiteral("could not start %1").arg(program);
        return r;
    }
    if (!p.waitForFinished(timeout_ms)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("%1 timed out").arg(program);
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

// Sets `path` to the tool, or skips the test function: a validator the machine lacks cannot
// pass or fail anything (scripts/inflight's set-up installs them all).
#define NEED_TOOL(path, tool)                                                                                          \
    const QString path = QStandardPaths::findExecutable(QStringLiteral(tool));                                         \
    if (path.isEmpty())                                                                                                \
        QSKIP(tool " is not installed (scripts/inflight's set-up installs it)");

} // namespace

class TestInstall : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString prefix_;

    QString installed(const QString &rel) const { return prefix_ + QLatin1Char('/') + rel; }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        prefix_ = dir_.path() + QStringLiteral("/usr");
        const Result r =
            run(QStringLiteral(INFLIGHT_CMAKE),
                {QStringLiteral("--install"), QStringLiteral(INFLIGHT_BUILD_DIR), QStringLiteral("--prefix"), prefix_});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    }

    void installsEveryFile_data()
    {
        QTest::addColumn<QString>("path");
        const QStringList files{
            QStringLiteral("bin/inflight"),
            QStringLiteral("bin/inflight-cli"),
            QStringLiteral("share/applications/%1.desktop").arg(kAppId),
            QStringLiteral("share/mime/packages/%1.xml").arg(kAppId),
            QStringLiteral("share/metainfo/%1.metainfo.xml").arg(kAppId),
            QStringLiteral("share/icons/hicolor/scalable/apps/%1.svg").arg(kAppId),
            QStringLiteral("share/icons/hicolor/48x48/apps/%1.png").arg(kAppId),
            QStringLiteral("share/icons/hicolor/256x256/apps/%1.png").arg(kAppId),
            QStringLiteral("share/man/man1/inflight.1"),
            QStringLiteral("share/man/man1/inflight-cli.1"),
            QStringLiteral("share/inflight/examples/selftest-triangle-stream.scn"),
            QStringLiteral("share/inflight/examples/large/large-32000-in-flight.scn"),
            QStringLiteral("share/org.kde.syntax-highlighting/syntax/inflight.xml"),
            QStringLiteral("share/vim/vimfiles/syntax/inflight.vim"),
            QStringLiteral("share/vim/vimfiles/ftdetect/inflight.vim"),
            QStringLiteral("share/nvim/site/syntax/inflight.vim"),
            QStringLiteral("share/inflight/editors/vscode-inflight-scene/package.json"),
            QStringLiteral("share/doc/inflight/LANGUAGE.md"),
            QStringLiteral("share/doc/inflight/LICENSE"),
            QStringLiteral("share/doc/inflight/user-guide.md"),
        };
        for (const QString &f : files)
            QTest::newRow(qPrintable(f)) << f;
    }
    void installsEveryFile()
    {
        QFETCH(QString, path);
        const QFileInfo fi(installed(path));
        QVERIFY2(fi.isFile(), qPrintable(fi.filePath()));
        QVERIFY2(fi.size() > 0, qPrintable(fi.filePath()));
    }

    void everySceneIsAnExample()
    {
        const QDir scenes(QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes"));
        int n = 0;
        for (const QString &f : scenes.entryList({QStringLiteral("*.scn")}, QDir::Files)) {
            QVERIFY2(QFile::exists(installed(QStringLiteral("share/inflight/examples/") + f)), qPrintable(f));
            ++n;
        }
        QVERIFY(n >= 30);
    }

    void programsAreExecutable()
    {
        QVERIFY(QFileInfo(installed(QStringLiteral("bin/inflight"))).isExecutable());
        const Result r = run(installed(QStringLiteral("bin/inflight-cli")), {QStringLiteral("--version")});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith(QStringLiteral("inflight-cli ")), qPrintable(r.out));
    }

    void desktopFileValidates()
    {
        NEED_TOOL(validate, "desktop-file-validate")
        const QString desktop = installed(QStringLiteral("share/applications/%1.desktop").arg(kAppId));
        const Result r = run(validate, {desktop});
        QVERIFY2(r.code == 0 && r.out.trimmed().isEmpty(), qPrintable(r.out + r.err));
        QFile f(desktop);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        // The app is the MIME type's handler and opens the file it is given.
        QVERIFY(text.contains(QStringLiteral("\nMimeType=text/x-inflight-scene;")));
        QVERIFY(text.contains(QStringLiteral("\nExec=inflight %f")));
        QVERIFY(text.contains(QStringLiteral("\nIcon=") + kAppId));
    }

    void metainfoValidates()
    {
        NEED_TOOL(appstreamcli, "appstreamcli")
        const QString metainfo = installed(QStringLiteral("share/metainfo/%1.metainfo.xml").arg(kAppId));
        const Result r = run(appstreamcli, {QStringLiteral("validate"), QStringLiteral("--no-net"), metainfo});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QFile f(metainfo);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY(text.contains(QStringLiteral("<screenshot type=\"default\">")));
        QVERIFY(text.contains(QStringLiteral("<release version=\"")));
        QVERIFY(!text.contains(QLatin1Char('@'))); // every @VAR@ was configured
    }

    void manPagesRender_data()
    {
        QTest::addColumn<QString>("page");
        QTest::addColumn<QString>("name_line");
        QTest::newRow("inflight") << QStringLiteral("inflight.1")
                                  << QStringLiteral("inflight - step through the Linux kernel");
        QTest::newRow("inflight-cli") << QStringLiteral("inflight-cli.1")
                                      << QStringLiteral("inflight-cli - run, check and question");
    }
    void manPagesRender()
    {
        NEED_TOOL(man, "man")
        QFETCH(QString, page);
        QFETCH(QString, name_line);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("MANWIDTH"), QStringLiteral("200"));
        env.insert(QStringLiteral("MAN_KEEP_FORMATTING"), QString());
        const Result r = run(man,
                             {QStringLiteral("--warnings"), QStringLiteral("-P"), QStringLiteral("cat"),
                              QStringLiteral("-l"), installed(QStringLiteral("share/man/man1/") + page)},
                             env);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.trimmed().isEmpty(), qPrintable(r.err)); // no troff warnings
        QVERIFY2(r.out.contains(name_line), qPrintable(r.out.left(400)));
        QVERIFY(r.out.contains(QStringLiteral("EXIT STATUS")));
    }

    // The installed MIME package, compiled with freedesktop.org's as installing it does
    // (update-mime-database) and read by Qt's QMimeDatabase through XDG_DATA_DIRS in a child
    // process (the database is read once per process): a scene is ours by name and by content;
    // Godot, which also claims *.scn, keeps its own scenes.
    void mimeTypeTellsScenesApart()
    {
        NEED_TOOL(updateMime, "update-mime-database")
        QTemporaryDir data;
        QVERIFY(data.isValid());
        QVERIFY(QDir().mkpath(data.path() + QStringLiteral("/mime/packages")));
        QVERIFY(QFile::copy(installed(QStringLiteral("share/mime/packages/%1.xml").arg(kAppId)),
                            data.path() + QStringLiteral("/mime/packages/inflight.xml")));
        // Compiled together with the system's database, as installing the package does.
        QVERIFY(QFile::copy(QStringLiteral("/usr/share/mime/packages/freedesktop.org.xml"),
                            data.path() + QStringLiteral("/mime/packages/freedesktop.org.xml")));
        const Result update = run(updateMime, {data.path() + QStringLiteral("/mime")});
        QVERIFY2(update.code == 0, qPrintable(update.err));

        auto write = [&](const QString &name, const QByteArray &bytes) {
            QFile f(data.path() + QLatin1Char('/') + name);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        };
        write(QStringLiteral("plain.scn"), "scene \"a\"\nsocketpair a b\n");
        write(QStringLiteral("commented.scn"), "# a comment first\n# and another\nscene \"b\"\n");
        write(QStringLiteral("no-extension"), "scene \"c\"\nsocketpair a b\n");
        write(QStringLiteral("godot.scn"),
              "[gd_scene load_steps=2 format=3]\n\n[node name=\"Root\" type=\"Node2D\"]\n");
        write(QStringLiteral("godot-binary.scn"), QByteArray("RSRC\0\0\0\0\x03\0\0\0", 12));

        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_DIRS"), data.path());
        env.insert(QStringLiteral("INFLIGHT_MIME_PROBE"), data.path());
        const Result r = run(QCoreApplication::applicationFilePath(), {}, env);
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral("plain.scn=text/x-inflight-scene\n")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("commented.scn=text/x-inflight-scene\n")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("no-extension=text/x-inflight-scene\n")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("godot.scn=application/x-godot-scene\n")), qPrintable(r.out));
        QVERIFY2(!r.out.contains(QStringLiteral("godot-binary.scn=text/x-inflight-scene")), qPrintable(r.out));
    }
    void installedExamplesAreListed()
    {
        const QList<ExampleScene> examples = ExampleScenes::list(installed(QStringLiteral("share/inflight/examples")));
        QVERIFY(examples.size() >= 30);
        QStringList groups;
        for (const ExampleScene &e : examples) {
            QVERIFY2(!e.title.isEmpty(), qPrintable(e.path));
            if (groups.isEmpty() || groups.last() != e.group)
                groups.append(e.group);
        }
        // One block per group, the basics first and the 32,000-socket scenes last.
        QCOMPARE(groups.size(), QSet<QString>(groups.begin(), groups.end()).size());
        QCOMPARE(groups.first(), ExampleScenes::groupOf(QStringLiteral("cycle-broken-by-recv.scn")));
        QCOMPARE(groups.last(), ExampleScenes::groupOf(QStringLiteral("large/large-32000-in-flight.scn")));
        // File > Examples > Bugs: the gallery's scenes.
        QVERIFY(std::any_of(examples.begin(), examples.end(), [](const ExampleScene &e) {
            return e.path.contains(QStringLiteral("/bugs/")) && e.group == QStringLiteral("Bugs");
        }));
        const auto triangle = std::find_if(examples.begin(), examples.end(), [](const ExampleScene &e) {
            return e.path.endsWith(QStringLiteral("/selftest-triangle-stream.scn"));
        });
        QVERIFY(triangle != examples.end());
        QCOMPARE(triangle->title, QStringLiteral("Selftest triangle (stream socketpairs)"));
    }

    // An installed app looks in its own prefix, then the XDG data dirs, before the source tree.
    void examplesFoundThroughDataDirs()
    {
        qputenv("XDG_DATA_DIRS", (prefix_ + QStringLiteral("/share")).toUtf8());
        qunsetenv("INFLIGHT_EXAMPLES_DIR");
        QCOMPARE(ExampleScenes::directory(),
                 QDir(installed(QStringLiteral("share/inflight/examples"))).canonicalPath());
        qputenv("INFLIGHT_EXAMPLES_DIR", QByteArray(INFLIGHT_SOURCE_DIR "/scenes"));
        QCOMPARE(ExampleScenes::directory(), QDir(QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes")).absolutePath());
        qunsetenv("INFLIGHT_EXAMPLES_DIR");
    }

    // cpack -G DEB: a package with the files above and its dependencies worked out by
    // dpkg-shlibdeps, which dpkg accepts in a dry run (docs/packaging.md has the install on a
    // clean Debian 12 chroot).
    void debianPackage()
    {
        NEED_TOOL(dpkgDeb, "dpkg-deb")
        NEED_TOOL(dpkg, "dpkg")
        QTemporaryDir out;
        QVERIFY(out.isValid());
        const Result cpack =
            run(QStringLiteral(INFLIGHT_CPACK),
                {QStringLiteral("-G"), QStringLiteral("DEB"), QStringLiteral("--config"),
                 QStringLiteral(INFLIGHT_BUILD_DIR "/CPackConfig.cmake"), QStringLiteral("-B"), out.path()},
                {}, 600000);
        QVERIFY2(cpack.code == 0, qPrintable(cpack.out + cpack.err));
        const QStringList debs = QDir(out.path()).entryList({QStringLiteral("inflight_*.deb")}, QDir::Files);
        QCOMPARE(debs.size(), 1);
        const QString deb = out.path() + QLatin1Char('/') + debs.first();

        const Result info = run(dpkgDeb, {QStringLiteral("-I"), deb});
        QCOMPARE(info.code, 0);
        QVERIFY2(info.out.contains(QStringLiteral(" Package: inflight\n")), qPrintable(info.out));
        const QString depends = info.out.section(QStringLiteral(" Depends: "), 1).section(QLatin1Char('\n'), 0, 0);
        for (const char *lib : {"libqt6widgets6", "libqt6svg6", "libgvc6", "libcgraph6", "libstdc++6", "libc6"})
            QVERIFY2(depends.contains(QLatin1String(lib)),
                     qPrintable(QStringLiteral("%1 not in: %2").arg(QLatin1String(lib), depends)));

        const Result contents = run(dpkgDeb, {QStringLiteral("-c"), deb});
        QCOMPARE(contents.code, 0);
        for (const QString &f : {QStringLiteral("./usr/bin/inflight"), QStringLiteral("./usr/bin/inflight-cli"),
                                 QStringLiteral("./usr/share/applications/%1.desktop").arg(kAppId),
                                 QStringLiteral("./usr/share/mime/packages/%1.xml").arg(kAppId),
                                 QStringLiteral("./usr/share/man/man1/inflight.1"),
                                 QStringLiteral("./usr/share/inflight/examples/selftest-triangle-stream.scn")})
            QVERIFY2(contents.out.contains(f + QLatin1Char('\n')), qPrintable(f));

        const Result dry = run(dpkg, {QStringLiteral("--dry-run"), QStringLiteral("-i"), deb});
        QVERIFY2(dry.code == 0, qPrintable(dry.out + dry.err));
    }

    void installedCliRunsAnExample()
    {
        const Result r = run(
            installed(QStringLiteral("bin/inflight-cli")),
            {QStringLiteral("run"), installed(QStringLiteral("share/inflight/examples/selftest-triangle-stream.scn"))});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QVERIFY(r.out.contains(QStringLiteral(" 0 failed")));
    }
};

// The MIME probe mimeTypeTellsScenesApart starts: this executable again, in a child process
// whose XDG_DATA_DIRS holds the MIME package just compiled.
int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QString probe = qEnvironmentVariable("INFLIGHT_MIME_PROBE");
    if (!probe.isEmpty()) {
        const QMimeDatabase db;
        for (const QString &f :
             {QStringLiteral("plain.scn"), QStringLiteral("commented.scn"), QStringLiteral("no-extension"),
              QStringLiteral("godot.scn"), QStringLiteral("godot-binary.scn")})
            std::printf("%s=%s\n", qPrintable(f), qPrintable(db.mimeTypeForFile(probe + QLatin1Char('/') + f).name()));
        return 0;
    }
    TestInstall test;
    return QTest::qExec(&test, argc, argv);
}
#include "test_install.moc"
