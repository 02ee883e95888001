// SPDX-License-Identifier: GPL-3.0-or-later
#include "recovery_store.h"

#include "../save_file.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

#include <algorithm>

namespace editor {

RecoveryStore::RecoveryStore(QString directory) : dir_(directory.isEmpty() ? defaultDirectory() : std::move(directory))
{ }

QString RecoveryStore::defaultDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/recovery");
}

QString RecoveryStore::slotOf(const QString &original_path) const
{
    if (original_path.isEmpty())
        return QStringLiteral("untitled");
    // The file's name for whoever looks in the directory, a hash of its whole path to tell two
    // files of that name apart.
    const QString absolute = QFileInfo(original_path).absoluteFilePath();
    const QByteArray hash = QCryptographicHash::hash(absolute.toUtf8(), QCryptographicHash::Sha1).toHex().left(16);
    return QFileInfo(absolute).completeBaseName() + QLatin1Char('-') + QString::fromLatin1(hash);
}

bool RecoveryStore::write(const QString &original_path, const QByteArray &text, QString *error) const
{
    if (!QDir().mkpath(dir_)) {
        if (error)
            *error = QStringLiteral("%1: cannot create the recovery directory").arg(dir_);
        return false;
    }
    const QString slot = dir_ + QLatin1Char('/') + slotOf(original_path);
    // The text first, then the note that names it: a copy is only offered once both are there.
    if (const auto failed = saveFile(slot + QStringLiteral(".scn"), text, "write the recovery copy")) {
        if (error)
            *error = *failed;
        return false;
    }
    const QJsonObject o{
        {QStringLiteral("path"), original_path.isEmpty() ? QString() : QFileInfo(original_path).absoluteFilePath()},
        {QStringLiteral("written"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
        {QStringLiteral("bytes"), static_cast<qint64>(text.size())}};
    if (const auto failed =
            saveFile(slot + QStringLiteral(".json"), QJsonDocument(o).toJson(), "write the recovery note")) {
        if (error)
            *error = *failed;
        return false;
    }
    return true;
}

std::optional<RecoveryStore::Copy> RecoveryStore::readSlot(const QString &slot) const
{
    QFile info(dir_ + QLatin1Char('/') + slot + QStringLiteral(".json"));
    QFile body(dir_ + QLatin1Char('/') + slot + QStringLiteral(".scn"));
    if (!info.open(QIODevice::ReadOnly) || !body.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject o = QJsonDocument::fromJson(info.readAll()).object();
    Copy c;
    c.text = body.readAll();
    // A text that does not match its note (written by an older copy) is still the newest text.
    c.original_path = o.value(QStringLiteral("path")).toString();
    c.written = QDateTime::fromString(o.value(QStringLiteral("written")).toString(), Qt::ISODateWithMs);
    c.slot = slot;
    return c;
}

std::optional<RecoveryStore::Copy> RecoveryStore::read(const QString &original_path) const
{
    return readSlot(slotOf(original_path));
}

QList<RecoveryStore::Copy> RecoveryStore::all() const
{
    QList<Copy> out;
    // Every note with its text (the older single slot, "buffer", included).
    for (const QFileInfo &f : QDir(dir_).entryInfoList({QStringLiteral("*.json")}, QDir::Files))
        if (auto c = readSlot(f.completeBaseName()))
            out.append(std::move(*c));
    std::stable_sort(out.begin(), out.end(), [](const Copy &a, const Copy &b) { return a.written > b.written; });
    return out;
}

std::optional<RecoveryStore::Copy> RecoveryStore::newest() const
{
    const QList<Copy> copies = all();
    if (copies.isEmpty())
        return std::nullopt;
    return copies.front();
}

void RecoveryStore::clear(const QString &original_path)
{
    Copy c;
    c.slot = slotOf(original_path);
    remove(c);
}

void RecoveryStore::remove(const Copy &copy)
{
    QFile::remove(dir_ + QLatin1Char('/') + copy.slot + QStringLiteral(".json"));
    QFile::remove(dir_ + QLatin1Char('/') + copy.slot + QStringLiteral(".scn"));
}

} // namespace editor
