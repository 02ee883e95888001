// SPDX-License-Identifier: GPL-3.0-or-later
#include "recovery_store.h"

#include "scene_file_reader.h"

#include "../save_file.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QRandomGenerator>
#include <QStandardPaths>

#include <algorithm>
#include <mutex>

namespace editor {

struct RecoveryStore::Instance {
    QString name; // "instance-PID-RANDOM": its directory, and with ".lock" its lock file
    QString parent;
    std::mutex mutex;
    std::unique_ptr<QLockFile> lock; // taken by the first write
    QString directory() const { return parent + QLatin1Char('/') + name; }
    ~Instance()
    {
        if (!lock)
            return;
        // Gone normally: an emptied directory goes; copies still in it stay to be offered.
        QDir(parent).rmdir(name);
        lock->unlock();
    }
};

namespace {

QString instancePrefix() { return QStringLiteral("instance-"); }
// A copy is read as a scene file is (the editor's cap); a note is three short fields.
constexpr qint64 kMaxCopyBytes = kMaxSceneFileBytes;
constexpr qint64 kMaxNoteBytes = qint64{64} << 10;

QString tr(const char *text) { return QCoreApplication::translate("editor::RecoveryStore", text); }

// Whether the instance that made `lock_path` still runs. A lock whose process is gone is stale
// whatever its age; a live one is never taken, however old (stale time 0). When unsure (no
// permission), the owner is taken to be alive: its copies are then neither offered nor deleted.
bool ownerRuns(const QString &lock_path)
{
    if (!QFileInfo::exists(lock_path))
        return false;
    QLockFile probe(lock_path);
    probe.setStaleLockTime(0);
    if (probe.tryLock(0)) {
        probe.unlock();
        return false;
    }
    return true;
}

} // namespace

RecoveryStore::RecoveryStore(QString directory)
    : dir_(directory.isEmpty() ? defaultDirectory() : std::move(directory)), instance_(std::make_shared<Instance>())
{
    instance_->parent = dir_;
    instance_->name = instancePrefix() + QString::number(QCoreApplication::applicationPid()) + QLatin1Char('-') +
                      QString::number(QRandomGenerator::global()->generate(), 16);
}

QString RecoveryStore::ownDirectory() const
{
    const std::lock_guard guard(instance_->mutex);
    if (!instance_->lock) {
        QDir().mkpath(dir_);
        instance_->lock = std::make_unique<QLockFile>(instance_->directory() + QStringLiteral(".lock"));
        instance_->lock->setStaleLockTime(0);
        instance_->lock->tryLock(0);
        QDir().mkpath(instance_->directory());
    }
    return instance_->directory();
}

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
    const QString own = ownDirectory();
    if (!QFileInfo(own).isDir()) {
        if (error)
            *error = QStringLiteral("%1: cannot create the recovery directory").arg(own);
        return false;
    }
    const QString slot = own + QLatin1Char('/') + slotOf(original_path);
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

std::optional<RecoveryStore::Copy> RecoveryStore::readSlot(const QString &directory, const QString &slot,
                                                           QStringList *refused) const
{
    const QString stem = directory + QLatin1Char('/') + slot;
    QString why;
    const QString info_path = stem + QStringLiteral(".json");
    const QString body_path = stem + QStringLiteral(".scn");
    std::optional<QByteArray> info = readRegularFile(info_path, kMaxNoteBytes, &why);
    std::optional<QByteArray> body;
    if (info)
        body = readRegularFile(body_path, kMaxCopyBytes, &why);
    if (!info || !body) {
        // Gone since it was listed (its instance cleared it), or a note whose text is gone: no copy.
        const QString missing = info ? body_path : info_path;
        if (!QFileInfo::exists(missing) && !QFileInfo(missing).isSymLink())
            return std::nullopt;
        const QString bad = info ? body_path : info_path;
        // The note and the text go aside together, so that the pair stays a copy a person can
        // still read and restore by hand.
        const auto suffix = setAsideUnreadable({info_path, body_path});
        const QString message = suffix ? tr("%1: error: the recovery copy was not restored: %2; it is kept, renamed "
                                            "%3 (nothing was deleted)")
                                             .arg(bad, why, QFileInfo(bad + *suffix).fileName())
                                       : tr("%1: error: the recovery copy was not restored: %2; it is left "
                                            "where it is (it could not be renamed aside)")
                                             .arg(bad, why);
        if (refused)
            refused->append(message);
        return std::nullopt;
    }
    const QJsonObject o = QJsonDocument::fromJson(*info).object();
    Copy c;
    c.text = *body; // every byte, as the editor held it
    // A text that does not match its note (written by an older copy) is still the newest text.
    c.original_path = o.value(QStringLiteral("path")).toString();
    c.written = QDateTime::fromString(o.value(QStringLiteral("written")).toString(), Qt::ISODateWithMs);
    c.slot = slot;
    c.directory = directory;
    return c;
}

QList<RecoveryStore::Copy> RecoveryStore::copiesIn(const QString &directory, QStringList *refused) const
{
    QList<Copy> out;
    // System too: a FIFO or a device named like a note is refused and said, not passed over.
    for (const QFileInfo &f : QDir(directory).entryInfoList({QStringLiteral("*.json")}, QDir::Files | QDir::System))
        if (auto c = readSlot(directory, f.completeBaseName(), refused))
            out.append(std::move(*c));
    return out;
}

std::optional<RecoveryStore::Copy> RecoveryStore::read(const QString &original_path, Whose whose,
                                                       QStringList *refused) const
{
    if (whose == Whose::mine)
        return readSlot(instance_->directory(), slotOf(original_path), refused);
    const QString slot = slotOf(original_path);
    for (const Copy &c : all(refused))
        if (c.slot == slot)
            return c;
    return std::nullopt;
}

QList<RecoveryStore::Copy> RecoveryStore::all(QStringList *refused) const
{
    // Copies written straight into the directory (by an instance without a lock of its own),
    // then those of every instance that is gone.
    QList<Copy> out = copiesIn(dir_, refused);
    for (const QFileInfo &d : QDir(dir_).entryInfoList({instancePrefix() + QLatin1Char('*')}, QDir::Dirs)) {
        if (d.fileName() == instance_->name || ownerRuns(d.absoluteFilePath() + QStringLiteral(".lock")))
            continue;
        out += copiesIn(d.absoluteFilePath(), refused);
    }
    std::stable_sort(out.begin(), out.end(), [](const Copy &a, const Copy &b) { return a.written > b.written; });
    return out;
}

std::optional<RecoveryStore::Copy> RecoveryStore::newest(QStringList *refused) const
{
    const QList<Copy> copies = all(refused);
    if (copies.isEmpty())
        return std::nullopt;
    return copies.front();
}

void RecoveryStore::clear(const QString &original_path)
{
    Copy c;
    c.slot = slotOf(original_path);
    c.directory = instance_->directory();
    remove(c);
}

void RecoveryStore::remove(const Copy &copy)
{
    const QString directory = copy.directory.isEmpty() ? dir_ : copy.directory;
    QFile::remove(directory + QLatin1Char('/') + copy.slot + QStringLiteral(".json"));
    QFile::remove(directory + QLatin1Char('/') + copy.slot + QStringLiteral(".scn"));
    // A gone instance's last copy: its directory goes with it (rmdir leaves one still in use).
    if (directory != dir_ && directory != instance_->directory())
        QDir(dir_).rmdir(QFileInfo(directory).fileName());
}

} // namespace editor
