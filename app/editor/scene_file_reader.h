// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a file the app did not write this session (a scene, a recovery copy, the settings):
// only a regular file is opened and read (a FIFO blocks until a writer comes, /dev/zero never
// ends), never more than a cap, and what is wrong is said with the file's name.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace editor {

// What the editor opens: larger files are not scenes anyone types (generated ones run in
// inflight-cli, whose input-bytes budget --limit raises), and Scintilla slows to a crawl on one
// line of megabytes.
constexpr qint64 kMaxSceneFileBytes = qint64{16} << 20;

// Why `path` is not a regular file of at most `max_bytes` bytes ("it is a FIFO", "it has
// 200 MB, more than 16 MB"), or nothing when it is one. Symbolic links are followed.
std::optional<QString> unreadableFileProblem(const QString &path, qint64 max_bytes);

// The bytes of the regular file `path`, at most `max_bytes` of them; otherwise nothing and
// `why` (without the path). Opened without blocking and checked again once open, so a file
// swapped for a FIFO or a device between the check and the open is not read either.
std::optional<QByteArray> readRegularFile(const QString &path, qint64 max_bytes, QString *why);

// A scene file as the editor takes it: a regular file of at most 16 MB, UTF-8 without NUL
// bytes, no line over 1 MB. An empty optional and a located `error` when it cannot.
std::optional<QByteArray> readSceneFile(const QString &path, QString *error);

// A file that cannot be read is renamed aside rather than deleted: it may be someone's only copy
// of their text, or a file put there on purpose, and once aside it is neither read nor refused
// again at the next start. Every one of `paths` that exists (a link or a FIFO too: a rename
// touches only the name) gets the same suffix, ".unreadable-" and the UTC time (with "-2", "-3"
// when that name is taken), so files that belong together stay together. The suffix, or
// nothing when a rename failed.
std::optional<QString> setAsideUnreadable(const QStringList &paths);

} // namespace editor
