// SPDX-License-Identifier: GPL-3.0-or-later
#include "finding_text.h"

#include "inflight/narrate.hpp"

namespace {

bool isFinding(const QString &paragraph)
{
    static const QString mark =
        QString::fromUtf8(inflight::kFindingMark.data(), static_cast<qsizetype>(inflight::kFindingMark.size()));
    return paragraph.startsWith(mark);
}

} // namespace

QStringList findingParagraphs(const QString &narration)
{
    QStringList out;
    for (const QString &p : narration.split(QStringLiteral("\n\n")))
        if (isFinding(p))
            out << p;
    return out;
}

QString withoutFindings(const QString &narration)
{
    QStringList out;
    for (const QString &p : narration.split(QStringLiteral("\n\n")))
        if (!isFinding(p))
            out << p;
    return out.join(QStringLiteral("\n\n"));
}
