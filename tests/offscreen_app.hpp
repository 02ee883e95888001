// SPDX-License-Identifier: GPL-3.0-or-later
// The environment a test runs the application in: no display (the offscreen platform) and
// settings of its own under `config_home`, never the user's.
#pragma once

#include <QProcessEnvironment>
#include <QString>

namespace inflight::test {

inline QProcessEnvironment offscreenAppEnvironment(const QString &config_home)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), config_home);
    return env;
}

} // namespace inflight::test
