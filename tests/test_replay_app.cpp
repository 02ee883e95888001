// SPDX-License-Identifier: GPL-3.0-or-later
// Run ▸ On this kernel: the open scene replayed in the background on this machine's kernel, a
// banner with the agreement, and the kernel's verdict in the Inspector for the selected socket.
#include "docks/inspector_dock.h"
#include "main_window.h"
#include "network_namespace.hpp"
#include "player_controller.h"
#include "realkernel/kernel_replay_job.h"
#include "wait_index.hpp"

#include "inflight/kernel.hpp"
#include "inflight/kernel_replay.hpp"

#include <QAction>
#include <QLabel>
#include <QTest>

class TestReplayApp : public QObject {
    Q_OBJECT
private slots:
    void bannerAndInspector()
    {
        INFLIGHT_REQUIRE_NETWORK_NAMESPACE();
        PlayerController c;
        MainWindow w(c);
        QVERIFY(w.openSceneNow(QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/selftest-self-ref-stream.scn")));
        QAction *replay = w.action("replayOnKernel");
        QVERIFY(replay);
        auto *banner = w.findChild<QLabel *>(QStringLiteral("kernelReplayBanner"));
        QVERIFY(banner);
        QVERIFY(banner->isHidden());
        replay->trigger();
        // The replay runs off the GUI thread: the window answers while it runs.
        QVERIFY(banner->text().startsWith(QStringLiteral("Replaying on Linux ")));
        QVERIFY(!replay->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(replay->isEnabled(), 30000);
        const QString release = QString::fromStdString(inflight::running_kernel_release());
        QVERIFY2(banner->text().endsWith(QStringLiteral(" agrees on 4 of 4 sockets")), qPrintable(banner->text()));
        QVERIFY(banner->text().startsWith(QStringLiteral("Linux ")));
        QVERIFY(release.startsWith(banner->text().section(QLatin1Char(' '), 1, 1)));
        QVERIFY(banner->toolTip().contains(QStringLiteral("u0")));

        // The Inspector shows the kernel's verdict for the selected socket.
        auto *inspector = w.findChild<docks::InspectorDock *>();
        QVERIFY(inspector);
        QVERIFY(inflight::test::waitIndex(c));
        c.last();
        QTRY_COMPARE(c.position(), c.totalSteps());
        const auto &k = c.sim().kernel();
        std::optional<std::uint32_t> u0;
        for (std::uint32_t i = 0; i < k.socks.size(); ++i)
            if (k.label_of(k.socks[i]) == "u0")
                u0 = i;
        QVERIFY(u0);
        c.selectSocket(*u0);
        QTRY_COMPARE(inspector->value(QStringLiteral("kernel")), QStringLiteral("freed (model: freed)"));

        // Another scene clears the verdicts.
        QVERIFY(w.openSceneNow(QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/self-reference.scn")));
        QVERIFY(banner->isHidden());
    }

    void refusedSceneSaysWhy()
    {
        const KernelReplayJob::Outcome o =
            KernelReplayJob::replay(QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/seed-splice-checksum.scn"));
        QVERIFY(!o.ran);
        QVERIFY2(o.banner.startsWith(QStringLiteral("This scene cannot run on a real kernel (line ")),
                 qPrintable(o.banner));
        QVERIFY(o.details.contains(QStringLiteral("error: cannot replay on a real kernel")));
    }
};

QTEST_MAIN(TestReplayApp)
#include "test_replay_app.moc"
