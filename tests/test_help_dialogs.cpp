// SPDX-License-Identifier: GPL-3.0-or-later
// Help ▸ Glossary: every entry of the engine's glossary is in the dialog, and asking again
// brings the open dialog forward instead of stacking a second one.
#include "help_dialogs.h"

#include "inflight/glossary.hpp"

#include <QDialog>
#include <QTest>
#include <QTextBrowser>
#include <QWidget>

class TestHelpDialogs : public QObject {
    Q_OBJECT
private slots:
    void glossaryShowsEveryEntry()
    {
        QWidget parent;
        parent.resize(1280, 800);
        help::showGlossary(&parent);
        auto *text = parent.findChild<QTextBrowser *>(QStringLiteral("glossaryText"));
        QVERIFY(text);
        const QString shown = text->toPlainText();
        QVERIFY(!inflight::glossary().empty());
        for (const inflight::GlossaryEntry &e : inflight::glossary()) {
            QVERIFY2(shown.contains(QString::fromUtf8(e.term.data(), static_cast<qsizetype>(e.term.size()))),
                     e.term.data());
            QVERIFY2(shown.contains(QString::fromUtf8(e.meaning.data(), static_cast<qsizetype>(e.meaning.size()))),
                     e.term.data());
        }
        help::showGlossary(&parent);
        QCOMPARE(parent.findChildren<QDialog *>(QStringLiteral("glossaryHelp")).size(), 1);
    }
};

QTEST_MAIN(TestHelpDialogs)
#include "test_help_dialogs.moc"
