// SPDX-License-Identifier: GPL-3.0-or-later
#include "scene_file_reader.h"

#include "inflight/utf8.hpp"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

namespace editor {
namespace {

constexpr qsizetype kMaxLineBytes = qsizetype{1} << 20;
constexpr qint64 kMiB = qint64{1} << 20;

QString tr(const char *text) { return QCoreApplication::translate("editor::SceneFileReader", text); }

QString megabytes(qint64 bytes) { return bytes >= kMiB ? tr("%1 MB").arg(bytes / kMiB) : tr("%1 bytes").arg(bytes); }

std::optional<QString> problemOf(const struct stat &st, qint64 max_bytes)
{
    if (S_ISDIR(st.st_mode))
        return tr("it is a directory");
    if (S_ISFIFO(st.st_mode))
        return tr("it is a FIFO, not a regular file");
    if (S_ISCHR(st.st_mode))
        return tr("it is a character device, not a regular file");
    if (S_ISBLK(st.st_mode))
        return tr("it is a block device, not a regular file");
    if (S_ISSOCK(st.st_mode))
        return tr("it is a socket, not a regular file");
    if (!S_ISREG(st.st_mode))
        return tr("not a regular file");
    if (st.st_size > max_bytes)
        return tr("it has %1, more than the %2 read here").arg(megabytes(st.st_size), megabytes(max_bytes));
    return std::nullopt;
}

} // namespace

std::optional<QString> unreadableFileProblem(const QString &path, qint64 max_bytes)
{
    struct stat st { };
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return errno == ENOENT ? tr("it does not exist") : qt_error_string(errno);
    return problemOf(st, max_bytes);
}

std::optional<QByteArray> readRegularFile(const QString &path, qint64 max_bytes, QString *why)
{
    const auto fail = [why](const QString &reason) {
        if (why)
            *why = reason;
        return std::optional<QByteArray>();
    };
    // Checked before opening too: opening a device may do something (a tape rewinds).
    if (auto problem = unreadableFileProblem(path, max_bytes))
        return fail(*problem);
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return fail(qt_error_string(errno));
    QFile f;
    if (!f.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        return fail(f.errorString());
    }
    struct stat st { };
    if (::fstat(fd, &st) != 0)
        return fail(qt_error_string(errno));
    if (auto problem = problemOf(st, max_bytes))
        return fail(*problem);
    // One byte more than allowed: a file that grows while it is read is still bounded.
    QByteArray bytes = f.read(max_bytes + 1);
    if (f.error() != QFileDevice::NoError)
        return fail(f.errorString());
    if (bytes.size() > max_bytes)
        return fail(tr("it grew past %1 while it was read").arg(megabytes(max_bytes)));
    return bytes;
}

std::optional<QByteArray> readSceneFile(const QString &path, QString *error)
{
    const auto fail = [&](const QString &why) {
        if (error)
            *error = why;
        return std::optional<QByteArray>();
    };
    // A regular file too large for the editor is a scene for the CLI, which reads more.
    const QFileInfo info(path);
    if (info.isFile() && info.size() > kMaxSceneFileBytes)
        return fail(tr("%1: error: %2 MB is too large to edit (at most %3 MB); inflight-cli runs it with "
                       "--limit input-bytes=N")
                        .arg(path)
                        .arg(info.size() / kMiB)
                        .arg(kMaxSceneFileBytes / kMiB));
    QString why;
    const auto read = readRegularFile(path, kMaxSceneFileBytes, &why);
    if (!read)
        return fail(tr("%1: error: cannot open scene file: %2").arg(path, why));
    const QByteArray &bytes = *read;
    const auto located = [&](qsizetype offset) {
        const qsizetype line_start = bytes.lastIndexOf('\n', offset - 1) + 1;
        return QStringLiteral("%1:%2:%3")
            .arg(path)
            .arg(bytes.left(offset).count('\n') + 1)
            .arg(offset - line_start + 1);
    };
    if (const qsizetype nul = bytes.indexOf('\0'); nul >= 0)
        return fail(tr("%1: error: this is a binary file (a NUL byte), not a scene").arg(located(nul)));
    const std::string_view view(bytes.constData(), static_cast<std::size_t>(bytes.size()));
    if (const auto bad = inflight::first_invalid_utf8(view))
        return fail(tr("%1: error: byte 0x%2 is not UTF-8; save the file as UTF-8 to edit it here")
                        .arg(located(static_cast<qsizetype>(*bad)))
                        .arg(static_cast<unsigned char>(bytes[static_cast<qsizetype>(*bad)]), 2, 16, QLatin1Char('0')));
    qsizetype start = 0;
    while (start < bytes.size()) {
        qsizetype end = bytes.indexOf('\n', start);
        if (end < 0)
            end = bytes.size();
        if (end - start > kMaxLineBytes)
            return fail(tr("%1: error: line of %2 bytes is too long to edit (at most %3)")
                            .arg(located(start))
                            .arg(end - start)
                            .arg(kMaxLineBytes));
        start = end + 1;
    }
    return bytes;
}

std::optional<QString> setAsideUnreadable(const QStringList &paths)
{
    const auto present = [](const QString &name) { return QFileInfo::exists(name) || QFileInfo(name).isSymLink(); };
    const QString stamp =
        QStringLiteral(".unreadable-") + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd'T'HHmmss"));
    QString suffix = stamp;
    const auto taken = [&] {
        return std::any_of(paths.begin(), paths.end(), [&](const QString &p) { return present(p + suffix); });
    };
    for (int n = 2; taken(); ++n)
        suffix = stamp + QLatin1Char('-') + QString::number(n);
    bool moved = true;
    for (const QString &p : paths)
        if (present(p))
            moved = QFile::rename(p, p + suffix) && moved;
    if (!moved)
        return std::nullopt;
    return suffix;
}

} // namespace editor
