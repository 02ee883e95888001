// SPDX-License-Identifier: GPL-3.0-or-later
#include "checked_settings.h"

#include "../editor/scene_file_reader.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

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
    if (!ok || !std::isfinite(d))
        return fallback;
    return std::clamp(d, min, max);
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

std::optional<QString> setAsideUnreadableSettingsFile()
{
    // fileName() only names the file: QSettings reads it at the first value() or sync().
    const QString path = QSettings().fileName();
    const auto problem = editor::unreadableFileProblem(path, kMaxSettingsFileBytes);
    if (!problem || (!QFileInfo(path).exists() && !QFileInfo(path).isSymLink()))
        return std::nullopt; // a regular file of a fair size, or none yet
    QString aside = path + QStringLiteral(".refused");
    for (int n = 2; QFileInfo::exists(aside) || QFileInfo(aside).isSymLink(); ++n)
        aside = path + QStringLiteral(".refused-%1").arg(n);
    if (QFile::rename(path, aside))
        return tr("%1: error: the settings were not read: %2; the file is kept as %3 and the app starts with "
                  "its default settings")
            .arg(path, *problem, aside);
    // Not renamed (a read-only directory): nothing may read it in this process.
    QSettings::setPath(QSettings::defaultFormat(), QSettings::UserScope, QStringLiteral("/nonexistent"));
    return tr("%1: error: the settings were not read: %2; it could not be renamed aside, so the app starts with "
              "its default settings and does not save them")
        .arg(path, *problem);
}
