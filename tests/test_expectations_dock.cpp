// SPDX-License-Identifier: GPL-3.0-or-later
// The Expectations dock: one row per `expect` with ✓/✗ (or … before the step that checks it),
// what was expected and found, a click goes to that step; the warning when the scene's
// expectations were written for other collectors.
#include "docks/expectations_dock.h"
#include "player_controller.h"
#include "wait_index.hpp"

#include <QLabel>
#include <QTest>
#include <QTreeWidget>

using inflight::GcEra;
using inflight::test::waitIndex;

namespace {

// Two expectations that hold and one that fails: b's file is still in flight in a's queue, so
// closing b does not free it.
const char *kScene = "scene \"e\"\nset gc classic\nset collectors classic\nsocketpair a a2\nsocketpair b b2\n"
                     "send a2 fds=b\nclose b b2\nexpect alive a\nexpect freed b\nexpect alive b\n";

} // namespace

class TestExpectationsDock : public QObject {
    Q_OBJECT
private slots:
    void rowsMarksAndClicks()
    {
        PlayerController c;
        docks::ExpectationsDock dock(c);
        QVERIFY(c.openText(QString::fromLatin1(kScene), QStringLiteral("e.scn")));
        QVERIFY(waitIndex(c));
        QTRY_COMPARE(dock.list()->topLevelItemCount(), 3);
        QCOMPARE(dock.failedCount(), 1);
        QTreeWidget *list = dock.list();
        // At step 0 nothing is checked yet.
        for (int i = 0; i < 3; ++i)
            QCOMPARE(list->topLevelItem(i)->text(0), QStringLiteral("…"));
        QCOMPARE(list->topLevelItem(1)->text(1), QStringLiteral("9"));
        QVERIFY(!list->topLevelItem(1)->text(2).isEmpty()); // expected and found
        // A click goes to the step that checked it, and then it shows its outcome.
        QTreeWidgetItem *failed = list->topLevelItem(1);
        emit list->itemClicked(failed, 0);
        const std::uint64_t step = failed->text(3).toULongLong();
        QVERIFY(step > 0);
        QTRY_COMPARE(c.position(), step);
        QCOMPARE(failed->text(0), QStringLiteral("✗"));
        QCOMPARE(list->topLevelItem(0)->text(0), QStringLiteral("✓"));
        QCOMPARE(list->topLevelItem(2)->text(0), QStringLiteral("…")); // checked after this step
        QVERIFY(dock.windowTitle().contains(QStringLiteral("1 ✗")));
    }

    void warnsUnderAnotherCollector()
    {
        PlayerController c;
        docks::ExpectationsDock dock(c);
        QVERIFY(c.openText(QString::fromLatin1(kScene), QStringLiteral("e.scn")));
        QVERIFY(dock.warning()->isHidden());
        c.setEra(GcEra::graph);
        QVERIFY(!dock.warning()->isHidden());
        QVERIFY(dock.warning()->text().contains(QStringLiteral("written for classic, not for graph")));
        c.setEra(GcEra::classic);
        QVERIFY(dock.warning()->isHidden());
    }
};

QTEST_MAIN(TestExpectationsDock)
#include "test_expectations_dock.moc"
