// SPDX-License-Identifier: GPL-3.0-or-later
// Every setting the app reads, read through one check: the settings file may have been edited
// by hand, written by another version or filled by anyone, so a value of the wrong type, out
// of its range (NaN, 1e9, negative) or too long gives the default, a list gives its first few
// items, and no read takes more than a bounded amount of it.
#pragma once

#include <QByteArray>
#include <QSettings>
#include <QString>
#include <QStringList>
#include <QVariantMap>

class CheckedSettings {
public:
    CheckedSettings() = default;

    bool readBool(const QString &key, bool fallback) const;
    // A number in [min, max], else (NaN, infinities, text, out of range) `fallback`.
    double readDouble(const QString &key, double fallback, double min, double max) const;
    // An integer in [min, max] (an enumeration's index), else `fallback`.
    int readInt(const QString &key, int fallback, int min, int max) const;
    // A blob (a window's geometry or state): empty when it is not one or exceeds `max_bytes`.
    QByteArray readBytes(const QString &key, qsizetype max_bytes) const;
    // Text of at most `max_length` characters without control characters, else `fallback`.
    QString readString(const QString &key, const QString &fallback, qsizetype max_length) const;
    // The first `max_items` distinct strings that readString() would take; the rest is never
    // looked at. A lone string is a list of one.
    QStringList readStringList(const QString &key, qsizetype max_items, qsizetype max_length) const;
    // A map of at most `max_items` keys of at most `max_length` characters (others are dropped).
    QVariantMap readMap(const QString &key, qsizetype max_items, qsizetype max_length) const;

    QSettings &raw() { return settings_; } // for writing

private:
    QSettings settings_;
};

// The user's settings files QSettings reads (the application's, the organization's).
QStringList userSettingsFiles();

// Before the first QSettings: a settings file that is not a regular file of at most
// kMaxSettingsFileBytes (a FIFO would block the first read, a device or a huge file would be
// read whole) is renamed aside (editor::setAsideUnreadable()), so the app starts with defaults
// and writes a fresh one. One message per file set aside, saying which file, what is wrong and
// where it was kept; none when all is well.
inline constexpr qint64 kMaxSettingsFileBytes = qint64{4} << 20;
QStringList setAsideUnreadableSettingsFiles();
