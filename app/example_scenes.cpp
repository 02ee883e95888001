// SPDX-License-Identifier: GPL-3.0-or-later
#include "example_scenes.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

#include <algorithm>

namespace {

bool hasScenes(const QString &dir)
{
    return !dir.isEmpty() && QFileInfo(dir).isDir() &&
           !QDir(dir).entryList({QStringLiteral("*.scn")}, QDir::Files).isEmpty();
}

// The title from the first `scene "…"` line. Only the head of the file is read: a
// generated scene can be megabytes, and its title is at the top.
QString titleOf(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QString head = QString::fromUtf8(f.read(qint64{16} * 1024));
    static const QRegularExpression scene_line(QStringLiteral(R"re(^\s*scene\s+"([^"\n]*)")re"),
                                               QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = scene_line.match(head);
    return m.hasMatch() ? m.captured(1) : QString();
}

} // namespace

QString ExampleScenes::directory()
{
    const QString env = qEnvironmentVariable("INFLIGHT_EXAMPLES_DIR");
    if (!env.isEmpty())
        return hasScenes(env) ? QDir(env).absolutePath() : QString();
    QStringList candidates{QCoreApplication::applicationDirPath() + QStringLiteral("/../share/inflight/examples")};
    candidates += QStandardPaths::locateAll(QStandardPaths::GenericDataLocation, QStringLiteral("inflight/examples"),
                                            QStandardPaths::LocateDirectory);
#ifdef INFLIGHT_SOURCE_SCENES_DIR
    candidates += QStringLiteral(INFLIGHT_SOURCE_SCENES_DIR);
#endif
    for (const QString &c : std::as_const(candidates))
        if (hasScenes(c))
            return QDir(c).canonicalPath();
    return {};
}

QString ExampleScenes::groupOf(const QString &relative_path)
{
    const QString name = QFileInfo(relative_path).fileName();
    if (relative_path.startsWith(QLatin1String("bugs/"))) // the bug gallery, each with its buggy and fixed side
        return QCoreApplication::translate("ExampleScenes", "Bugs");
    if (relative_path.startsWith(QLatin1String("large/")))
        return QCoreApplication::translate("ExampleScenes", "Large scenes");
    if (name.startsWith(QLatin1String("selftest-")))
        return QCoreApplication::translate("ExampleScenes", "Kernel selftests");
    if (name.startsWith(QLatin1String("seed-")))
        return QCoreApplication::translate("ExampleScenes", "Seed stories (the mail threads)");
    if (name.startsWith(QLatin1String("autobind-")))
        return QCoreApplication::translate("ExampleScenes", "Autobind");
    if (name.contains(QLatin1String("leak")))
        return QCoreApplication::translate("ExampleScenes", "Bugs");
    return QCoreApplication::translate("ExampleScenes", "Basics");
}

QList<ExampleScene> ExampleScenes::list(const QString &directory)
{
    QList<ExampleScene> out;
    if (directory.isEmpty())
        return out;
    const QDir root(directory);
    QDirIterator it(directory, {QStringLiteral("*.scn")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString rel = root.relativeFilePath(path);
        QString title = titleOf(path);
        if (title.isEmpty())
            title = QFileInfo(path).completeBaseName();
        out.append({path, title, groupOf(rel)});
    }
    // Groups in teaching order: the basics first, the 32,000-socket scenes last.
    const QStringList order{groupOf(QStringLiteral("cycle.scn")),     groupOf(QStringLiteral("selftest-.scn")),
                            groupOf(QStringLiteral("a-leak.scn")),    groupOf(QStringLiteral("seed-.scn")),
                            groupOf(QStringLiteral("autobind-.scn")), groupOf(QStringLiteral("large/x.scn"))};
    std::sort(out.begin(), out.end(), [&](const ExampleScene &a, const ExampleScene &b) {
        const auto ra = order.indexOf(a.group), rb = order.indexOf(b.group);
        return ra != rb ? ra < rb : a.title.localeAwareCompare(b.title) < 0;
    });
    return out;
}
