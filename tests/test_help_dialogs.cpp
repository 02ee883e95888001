// SPDX-License-Identifier: GPL-3.0-or-later
// Help ▸ Glossary: every entry of the engine's glossary is in the dialog, and asking again
// brings the open dialog forward instead of stacking a second one; the narration's tooltip
// explains the terms it uses.
#include "docks/algorithm_dock.h"
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

    // Hovering the narration explains its terms, in the order it uses them.
    void narrationTipExplainsItsTerms()
    {
        const QString tip = docks::AlgorithmDock::glossaryTip(
            QStringLiteral("The collector purges skb#2 from the hitlist: u0's out_degree "
                           "drops to 0."));
        const qsizetype skb = tip.indexOf(QStringLiteral("<b>skb</b>"));
        const qsizetype hitlist = tip.indexOf(QStringLiteral("<b>hitlist</b>"));
        const qsizetype out_degree = tip.indexOf(QStringLiteral("<b>out_degree</b>"));
        QVERIFY2(skb >= 0 && hitlist > skb && out_degree > hitlist, qPrintable(tip));
        QVERIFY(
            !docks::AlgorithmDock::glossaryTip(QStringLiteral("Nothing has run yet.")).contains(QStringLiteral("<b>")));
    }
};

QTEST_MAIN(TestHelpDialogs)
#include "test_help_dialogs.moc"
