// SPDX-License-Identifier: GPL-3.0-or-later
#include "save_file.h"

#include "inflight/atomic_file.hpp"

#include <QFile>

std::optional<QString> saveFile(const QString &path, const QByteArray &bytes, const char *action)
{
    const auto failure =
        inflight::write_file_atomically(QFile::encodeName(path).toStdString(),
                                        std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    if (!failure)
        return std::nullopt;
    return QString::fromLocal8Bit(failure->message(action, QFile::encodeName(path).toStdString()));
}
