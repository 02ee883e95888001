// SPDX-License-Identifier: GPL-3.0-or-later
// The editor's recovery copies: an unsaved buffer written every few seconds to a slot of its
// own (atomically), one slot per file (and one for the untitled buffer), so that after a crash
// or a kill the next start can offer each back: two windows editing two files both lose
// nothing. A slot is cleared when its buffer is saved, reverted or closed without changes.
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

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
        QString slot; // the slot's file name stem in the directory
    };
    // Writes the copy of `original_path`'s buffer over its slot's previous one, whole or not at
    // all (saveFile(): a full disk or a kill mid-write leaves the previous one).
    bool write(const QString &original_path, const QByteArray &text, QString *error = nullptr) const;
    // The copy of `original_path` (empty: the untitled buffer's), if one was left.
    std::optional<Copy> read(const QString &original_path) const;
    // Every copy left, newest first.
    QList<Copy> all() const;
    // The newest copy of any file.
    std::optional<Copy> newest() const;
    void clear(const QString &original_path);
    void remove(const Copy &copy);

private:
    QString slotOf(const QString &original_path) const;
    std::optional<Copy> readSlot(const QString &slot) const;
    QString dir_;
};

} // namespace editor
