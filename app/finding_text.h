// SPDX-License-Identifier: GPL-3.0-or-later
// The findings a step's narration announces (the paragraphs inflight::narrate() starts with
// inflight::kFindingMark), set apart from the rest of it: the Algorithm pane shows them as a
// banner, the graph rings what they name.
#pragma once

#include <QString>
#include <QStringList>

QStringList findingParagraphs(const QString &narration);
QString withoutFindings(const QString &narration);
