// SPDX-License-Identifier: GPL-3.0-or-later
// The editor's recovery copy: the unsaved buffer written every few seconds to a file of its
// own (atomically), so that after a crash or a kill the next start can offer it back. Cleared
// when the buffer is saved, reverted or closed without changes.
#pragma once

#include <QByteArray>
#include <QDateTime>
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
    };
    // Writes the copy (temporary file, then rename: a kill mid-write leaves the previous one).
    bool write(const QString &original_path, const QByteArray &text, QString *error = nullptr);
    std::optional<Copy> read() const;
    void clear();

private:
    QString textPath() const;
    QString infoPath() const;
    QString dir_;
};

} // namespace editor
