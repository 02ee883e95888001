// SPDX-License-Identifier: GPL-3.0-or-later
#include "duration_text.h"

#include <QLocale>

using namespace inflight;

namespace latency {

QString unitSuffix(TimeUnit unit)
{
    switch (unit) {
    case TimeUnit::ns: return QStringLiteral("ns");
    case TimeUnit::us: return QStringLiteral("µs");
    case TimeUnit::ms: return QStringLiteral("ms");
    }
    return QStringLiteral("ns");
}

QString durationText(double ns, TimeUnit unit)
{
    // The C locale's grouping keeps the digits the same on every machine (and in tests).
    QLocale c = QLocale::c();
    c.setNumberOptions(QLocale::DefaultNumberOptions);
    const double v = ns / static_cast<double>(unit_divisor(unit));
    return unit == TimeUnit::ns ? c.toString(static_cast<qlonglong>(v)) : c.toString(v, 'f', 3);
}

QString durationWithUnit(double ns, TimeUnit unit)
{
    return durationText(ns, unit) + QLatin1Char(' ') + unitSuffix(unit);
}

QString callsText(std::uint64_t n)
{
    QLocale c = QLocale::c();
    c.setNumberOptions(QLocale::DefaultNumberOptions);
    return c.toString(static_cast<qulonglong>(n)) + (n == 1 ? QStringLiteral(" call") : QStringLiteral(" calls"));
}

} // namespace latency
