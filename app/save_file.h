// SPDX-License-Identifier: GPL-3.0-or-later
// The app's files (a saved scene, a recovery copy, an export) written whole or not at all by
// the platform library's write_file_atomically(): Qt's file name and bytes in, the user's
// message out.
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

// Nothing when `bytes` are now the file `path`; otherwise why not, as "cannot ACTION PATH:
// writing: No space left on device; the file on disk is unchanged".
std::optional<QString> saveFile(const QString &path, const QByteArray &bytes, const char *action = "save");
