// SPDX-License-Identifier: GPL-3.0-or-later
#include "offscreen_screen.h"

#include <QFile>
#include <QTemporaryDir>

namespace offscreen_screen {

QString use(const QTemporaryDir &dir, QSize size)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    if (!dir.isValid())
        return QStringLiteral("no temporary directory: %1").arg(dir.errorString());
    QFile config(dir.filePath(QStringLiteral("screens.json")));
    const QByteArray text = QStringLiteral(R"({"screens": [{"name": "projector", "x": 0, "y": 0, "width": %1, )"
                                           R"("height": %2, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})")
                                .arg(size.width())
                                .arg(size.height())
                                .toUtf8();
    if (!config.open(QIODevice::WriteOnly) || config.write(text) != text.size() || !config.flush())
        return QStringLiteral("cannot write %1: %2").arg(config.fileName(), config.errorString());
    config.close();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + config.fileName().toUtf8());
    return {};
}

} // namespace offscreen_screen
