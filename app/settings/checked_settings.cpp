// SPDX-License-Identifier: GPL-3.0-or-later
#include "checked_settings.h"

#include "../editor/scene_file_reader.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <algorithm>
#include <cmath>

namespace {

QString tr(const char *text) { return QCoreApplication::translate("CheckedSettings", text); }

bool acceptableText(const QString &s, qsizetype max_length)
{
    if (s.size() > max_length)
        return false;
    return std::none_of(s.begin(), s.end(), [](QChar c) { return c.category() == QChar::Other_Control; });
}

} // namespace

bool CheckedSettings::readBool(const QString &key, bool fallback) const
{
    const QVariant v = settings_.value(key);
    if (v.typeId() == QMetaType::Bool)
        return v.toBool();
    // INI files hold every value as text.
    if (v.typeId() == QMetaType::QString) {
        const QString s = v.toString();
        if (s == QLatin1String("true"))
            return true;
        if (s == QLatin1String("false"))
            return false;
    }
    return fallback;
}

double CheckedSettings::readDouble(const QString &key, double fallback, double min, double max) const
{
    bool ok = false;
    const double d = settings_.value(key).toDouble(&ok);
    // Outside the range is not a choice the app offers (the file was edited by hand or garbled):
    // the default, not the nearest bound, which for a font scale is an unusable extreme.
    if (!ok || !std::isfinite(d) || d < min || d > max)
        return fallback;
    return d;
}

int CheckedSettings::readInt(const QString &key, int fallback, int min, int max) const
{
    bool ok = false;
    const qlonglong n = settings_.value(key).toLongLong(&ok);
    return ok && n >= min && n <= max ? static_cast<int>(n) : fallback;
}

QByteArray CheckedSettings::readBytes(const QString &key, qsizetype max_bytes) const
{
    const QVariant v = settings_.value(key);
    if (v.typeId() != QMetaType::QByteArray)
        return {};
    const QByteArray b = v.toByteArray();
    return b.size() <= max_bytes ? b : QByteArray();
}

QString CheckedSettings::readString(const QString &key, const QString &fallback, qsizetype max_length) const
{
    const QVariant v = settings_.value(key);
    if (v.typeId() != QMetaType::QString)
        return fallback;
    const QString s = v.toString();
    return acceptableText(s, max_length) ? s : fallback;
}

QStringList CheckedSettings::readStringList(const QString &key, qsizetype max_items, qsizetype max_length) const
{
    QStringList out;
    const QVariant value = settings_.value(key);
    const QVariantList items = value.typeId() == QMetaType::QString ? QVariantList{value} : value.toList();
    for (const QVariant &item : items) {
        if (out.size() >= max_items)
            break;
        if (item.typeId() != QMetaType::QString)
            continue;
        const QString s = item.toString();
        if (!s.isEmpty() && acceptableText(s, max_length) && !out.contains(s))
            out.append(s);
    }
    return out;
}

QVariantMap CheckedSettings::readMap(const QString &key, qsizetype max_items, qsizetype max_length) const
{
    QVariantMap out;
    const QVariantMap all = settings_.value(key).toMap();
    for (auto it = all.cbegin(); it != all.cend() && out.size() < max_items; ++it)
        if (acceptableText(it.key(), max_length))
            out.insert(it.key(), it.value());
    return out;
}

QStringList userSettingsFiles()
{
    // Where QSettings looks in the user's scope on XDG systems (QStandardPaths, as it does):
    // the application's file, then the organization's, which it reads as a fallback. The
    // system-wide ones under /etc/xdg belong to the administrator.
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    if (dir.isEmpty())
        return {};
    const QString organization = QCoreApplication::organizationName();
    return {dir + QLatin1Char('/') + organization + QLatin1Char('/') + QCoreApplication::applicationName() +
                QStringLiteral(".conf"),
            dir + QLatin1Char('/') + organization + QStringLiteral(".conf")};
}

QStringList setAsideUnreadableSettingsFiles()
{
    // No QSettings may exist before this: constructing one reads its files.
    QStringList messages;
    bool kept_in_place = false;
    for (const QString &path : userSettingsFiles()) {
        if (!QFileInfo::exists(path) && !QFileInfo(path).isSymLink())
            continue; // none yet
        const auto problem = editor::unreadableFileProblem(path, kMaxSettingsFileBytes);
        if (!problem)
            continue; // a regular file of a fair size
        if (const auto suffix = editor::setAsideUnreadable({path})) {
            messages << tr("%1: error: the settings were not read: %2; the file is kept as %3 and the app starts "
                           "with its default settings")
                            .arg(path, *problem, path + *suffix);
            continue;
        }
        kept_in_place = true;
        messages << tr("%1: error: the settings were not read: %2; it could not be renamed aside, so the app "
                       "starts with its default settings and does not save them")
                        .arg(path, *problem);
    }
    // Not renamed (a read-only directory): nothing in this process may read it.
    if (kept_in_place)
        QSettings::setPath(QSettings::defaultFormat(), QSettings::UserScope, QStringLiteral("/nonexistent"));
    return messages;
}
