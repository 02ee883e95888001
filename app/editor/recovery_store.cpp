// SPDX-License-Identifier: GPL-3.0-or-later
#include "recovery_store.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>

namespace editor {

RecoveryStore::RecoveryStore(QString directory) : dir_(directory.isEmpty() ? defaultDirectory() : std::move(directory))
{ }

QString RecoveryStore::defaultDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/recovery");
}

QString RecoveryStore::textPath() const { return dir_ + QStringLiteral("/buffer.scn"); }
QString RecoveryStore::infoPath() const { return dir_ + QStringLiteral("/buffer.json"); }

bool RecoveryStore::write(const QString &original_path, const QByteArray &text, QString *error)
{
    if (!QDir().mkpath(dir_)) {
        if (error)
            *error = QStringLiteral("%1: cannot create the recovery directory").arg(dir_);
        return false;
    }
    // The text first, then the note that names it: a copy is only offered once both are there.
    QSaveFile body(textPath());
    if (!body.open(QIODevice::WriteOnly) || body.write(text) != text.size() || !body.commit()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(textPath(), body.errorString());
        return false;
    }
    QSaveFile info(infoPath());
    const QJsonObject o{{QStringLiteral("path"), original_path},
                        {QStringLiteral("written"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
                        {QStringLiteral("bytes"), static_cast<qint64>(text.size())}};
    const QByteArray json = QJsonDocument(o).toJson();
    if (!info.open(QIODevice::WriteOnly) || info.write(json) != json.size() || !info.commit()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(infoPath(), info.errorString());
        return false;
    }
    return true;
}

std::optional<RecoveryStore::Copy> RecoveryStore::read() const
{
    QFile info(infoPath());
    QFile body(textPath());
    if (!info.open(QIODevice::ReadOnly) || !body.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject o = QJsonDocument::fromJson(info.readAll()).object();
    Copy c;
    c.text = body.readAll();
    // A text that does not match its note (written by an older copy) is still the newest text.
    c.original_path = o.value(QStringLiteral("path")).toString();
    c.written = QDateTime::fromString(o.value(QStringLiteral("written")).toString(), Qt::ISODateWithMs);
    return c;
}

void RecoveryStore::clear()
{
    QFile::remove(infoPath());
    QFile::remove(textPath());
}

} // namespace editor
