// SPDX-License-Identifier: GPL-3.0-or-later
// The editor's recovery copies: an unsaved buffer written every few seconds to a slot of its
// own (atomically), one slot per file (and one for the untitled buffer), so that after a crash
// or a kill the next start can offer each back: two windows editing two files both lose
// nothing. A slot is cleared when its buffer is saved, reverted or closed without changes.
// Each instance (each store and its copies) writes in a directory of its own, guarded by a
// lock file held while it lives: the copies another instance offers or deletes are only those
// of instances that are gone (a crash, a kill), never those of one still running.
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace editor {

class RecoveryStore {
public:
    // `directory` empty: the application's data directory, "recovery" under it.
    explicit RecoveryStore(QString directory = {});
    static QString defaultDirectory();
    QString directory() const { return dir_; }

    struct Copy {
        QString original_path; // the file the buffer belongs to (empty: never saved)
        QByteArray text;
        QDateTime written;
        QString slot;      // the slot's file name stem in its directory
        QString directory; // where the slot's files are
    };
    enum class Whose { left, mine }; // left by instances that are gone, or this instance's own
    // Writes the copy of `original_path`'s buffer over its slot's previous one, whole or not at
    // all (saveFile(): a full disk or a kill mid-write leaves the previous one).
    bool write(const QString &original_path, const QByteArray &text, QString *error = nullptr) const;
    // Reading one: a slot whose files are not regular files of a bounded size (a FIFO, a link
    // to a device, hundreds of MB) is not read but renamed aside (setAsideUnreadable()), and
    // `refused` gets one located message for it.
    // The copy of `original_path` (empty: the untitled buffer's), if one was left (the newest).
    std::optional<Copy> read(const QString &original_path, Whose whose = Whose::left,
                             QStringList *refused = nullptr) const;
    // Every copy left by instances that are gone, newest first.
    QList<Copy> all(QStringList *refused = nullptr) const;
    // The newest copy of any file.
    std::optional<Copy> newest(QStringList *refused = nullptr) const;
    // Drops this instance's copy of `original_path`.
    void clear(const QString &original_path);
    void remove(const Copy &copy);

private:
    struct Instance;
    QString slotOf(const QString &original_path) const;
    std::optional<Copy> readSlot(const QString &directory, const QString &slot, QStringList *refused) const;
    QList<Copy> copiesIn(const QString &directory, QStringList *refused) const;
    // This instance's directory, its lock taken first (the first write creates both).
    QString ownDirectory() const;
    QString dir_;
    std::shared_ptr<Instance> instance_; // shared by the copies of this store (its writer thread)
};

} // namespace editor
