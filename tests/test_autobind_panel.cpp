// SPDX-License-Identifier: GPL-3.0-or-later
// The autobind fill map and its panel, on namespaces filled directly: pixel colours after binds,
// the incremental repaint from the change journal (and the full repaint when it cannot say),
// hover text, click-to-select, zoom and pan down to single names, the probe overlay, the figures,
// and the dock in the main window.
#include "autobind/autobind_map.h"
#include "autobind/autobind_panel.h"
#include "main_window.h"
#include "player_controller.h"
#include "theme.h"

#include "latency/histogram_widget.h"
#include "wait_index.hpp"

#include "inflight/abstract_namespace.hpp"
#include "inflight/kernel.hpp"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

#include <memory>
#include <random>

using namespace inflight;
using autobind::AutobindDock;
using autobind::AutobindMap;
using autobind::AutobindPanel;

namespace {

QRgb rgb(const QColor &c) { return c.rgb(); }

QRgb pixel(const AutobindMap &m, std::uint32_t value)
{
    const QPoint c = AutobindMap::cellOf(value);
    return m.image().pixel(c.x(), c.y());
}

void mouse(QWidget *w, QEvent::Type type, QPointF pos, Qt::MouseButton button = Qt::NoButton,
           Qt::MouseButtons buttons = Qt::NoButton)
{
    QMouseEvent e(type, pos, w->mapToGlobal(pos), button, buttons, Qt::NoModifier);
    QApplication::sendEvent(w, &e);
}

void wheel(QWidget *w, QPointF pos, int delta)
{
    QWheelEvent e(pos, w->mapToGlobal(pos), QPoint(), QPoint(0, delta), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase,
                  false);
    QApplication::sendEvent(w, &e);
}

QString labelOf(std::uint32_t sock) { return QStringLiteral("s%1").arg(sock); }

} // namespace

class TestAutobindPanel : public QObject {
    Q_OBJECT
private slots:
    void pixelColoursAfterBinds()
    {
        AbstractNamespace ns;
        ns.bind_value(0x0abcd, SockType::stream, 3);
        ns.bind("0abce", SockType::dgram, 4);
        ns.bind_value(0x0abcd, SockType::dgram, 5);
        ns.bind("00042", SockType::seqpacket, 6);
        ns.bind("srv", SockType::stream, 7); // not in the value space
        AutobindMap map;
        map.resize(512, 512);
        map.setNamespace(&ns);
        map.sync();
        QVERIFY(map.lastSyncFull());
        QCOMPARE(map.image().size(), QSize(1024, 1024));
        // Row-major: x = value & 1023, y = value >> 10.
        QCOMPARE(AutobindMap::cellOf(0x0abcd), QPoint(0x3cd, 0x2a));
        QCOMPARE(AutobindMap::valueOfCell(0x3cd, 0x2a), 0x0abcdu);
        QCOMPARE(pixel(map, 0x0abcd), rgb(AutobindMap::severalColor())); // stream and dgram
        QCOMPARE(pixel(map, 0x0abce), rgb(AutobindMap::typeColor(SockType::dgram)));
        QCOMPARE(pixel(map, 0x00042), rgb(AutobindMap::typeColor(SockType::seqpacket)));
        QCOMPARE(pixel(map, 0), rgb(AutobindMap::freeColor()));
        QCOMPARE(pixel(map, 0xfffff), rgb(AutobindMap::freeColor()));
        // One type only.
        map.setTypeFilter(static_cast<int>(SockType::stream));
        QCOMPARE(pixel(map, 0x0abcd), rgb(AutobindMap::typeColor(SockType::stream)));
        QCOMPARE(pixel(map, 0x0abce), rgb(AutobindMap::freeColor()));
        map.setTypeFilter(static_cast<int>(SockType::dgram));
        QCOMPARE(pixel(map, 0x0abcd), rgb(AutobindMap::typeColor(SockType::dgram)));
        QCOMPARE(pixel(map, 0x00042), rgb(AutobindMap::freeColor()));
        // No namespace: all free.
        map.setNamespace(nullptr);
        QCOMPARE(pixel(map, 0x0abce), rgb(AutobindMap::freeColor()));
    }

    void keepsItsPictureWhileASeekHasTheState()
    {
        // A background seek frees the namespace the map shows (the controller's seekStarted()):
        // the map lets go of it at once and keeps its picture until the next one arrives.
        auto ns = std::make_unique<AbstractNamespace>();
        ns->bind_value(0x12345, SockType::dgram, 3);
        AutobindMap map;
        map.resize(512, 512);
        map.setNamespace(ns.get());
        map.sync();
        QCOMPARE(pixel(map, 0x12345), rgb(AutobindMap::typeColor(SockType::dgram)));
        map.letGoKeepingPicture();
        QVERIFY(!map.ns());
        ns.reset(); // freed by the seek
        map.sync(); // a repaint meanwhile reads nothing of it
        QCOMPARE(pixel(map, 0x12345), rgb(AutobindMap::typeColor(SockType::dgram)));
        // The state the seek lands on: painted whole.
        AbstractNamespace landed;
        landed.bind_value(0x54321, SockType::stream, 4);
        map.setNamespace(&landed);
        map.sync();
        QVERIFY(map.lastSyncFull());
        QCOMPARE(pixel(map, 0x12345), rgb(AutobindMap::freeColor()));
        QCOMPARE(pixel(map, 0x54321), rgb(AutobindMap::typeColor(SockType::stream)));
    }

    void incrementalUpdate()
    {
        AbstractNamespace ns;
        for (std::uint32_t v = 0; v < 5000; ++v)
            ns.bind_value(v * 97 % kAutobindSpace, SockType::stream, v);
        AutobindMap map;
        map.resize(400, 400);
        map.setNamespace(&ns);
        QCOMPARE(map.sync(), 1024 * 1024);
        QVERIFY(map.lastSyncFull());
        const int full_before = map.fullRepaints();
        QCOMPARE(map.sync(), 0); // nothing changed
        QVERIFY(!map.lastSyncFull());

        // A few binds (one by autobind) and a release: only those pixels are rewritten.
        const QImage before = map.image();
        ns.bind_value(0x12345, SockType::dgram, 1);
        ns.bind_value(0x54321, SockType::seqpacket, 2);
        ns.bind("fffff", SockType::stream, 3);
        auto it = ns.autobind(SockType::stream, AutobindMode::random, 0x0u); // tries 1, which is free
        QCOMPARE(it.run(4), AutobindStop::bound);
        ns.unbind_value(97, SockType::stream, 1);
        QCOMPARE(map.sync(), 5);
        QVERIFY(!map.lastSyncFull());
        QCOMPARE(map.fullRepaints(), full_before);
        QCOMPARE(pixel(map, 0x12345), rgb(AutobindMap::typeColor(SockType::dgram)));
        QCOMPARE(pixel(map, 0x54321), rgb(AutobindMap::typeColor(SockType::seqpacket)));
        QCOMPARE(pixel(map, 0xfffff), rgb(AutobindMap::typeColor(SockType::stream)));
        QCOMPARE(pixel(map, it.value()), rgb(AutobindMap::typeColor(SockType::stream)));
        QCOMPARE(pixel(map, 97), rgb(AutobindMap::freeColor()));
        // Nothing else moved.
        int differing = 0;
        for (int y = 0; y < 1024; ++y)
            for (int x = 0; x < 1024; ++x)
                differing += before.pixel(x, y) != map.image().pixel(x, y);
        QCOMPARE(differing, 5);

        // The image equals a full repaint.
        AutobindMap fresh;
        fresh.setNamespace(&ns);
        fresh.sync();
        QCOMPARE(fresh.image(), map.image());

        // Another namespace object (a replay builds a new kernel): everything, once.
        AbstractNamespace copy = ns;
        copy.bind_value(7, SockType::stream, 9);
        map.setNamespace(&copy);
        map.sync();
        QVERIFY(map.lastSyncFull());
        QCOMPARE(pixel(map, 7), rgb(AutobindMap::typeColor(SockType::stream)));
        QCOMPARE(map.sync(), 0);
        // The journal overflowed between two reads: everything, once.
        for (std::size_t i = 0; i <= AbstractNamespace::kJournalCap / 2; ++i) {
            copy.bind_value(0x80000, SockType::dgram, 1);
            copy.unbind_value(0x80000, SockType::dgram, 1);
        }
        copy.bind_value(0x80000, SockType::dgram, 1);
        map.sync();
        QVERIFY(map.lastSyncFull());
        QCOMPARE(pixel(map, 0x80000), rgb(AutobindMap::typeColor(SockType::dgram)));
    }

    void incrementalIsFastEnoughFor60Fps()
    {
        // A frame's worth of a fast fill (~20,000 new names) costs far less than a frame.
        AbstractNamespace ns;
        AutobindMap map;
        map.resize(700, 700);
        map.setNamespace(&ns);
        map.sync();
        std::mt19937_64 rng(3);
        QElapsedTimer t;
        std::vector<qint64> took;
        for (int frame = 0; frame < 21; ++frame) {
            for (int i = 0; i < 20'000; ++i) {
                auto it = ns.autobind(SockType::stream, AutobindMode::random, rng);
                it.run(static_cast<std::uint32_t>(frame * 20'000 + i), false);
            }
            t.start();
            QCOMPARE(map.sync(), 20'000);
            took.push_back(t.nsecsElapsed());
            QVERIFY(!map.lastSyncFull());
        }
        std::sort(took.begin(), took.end());
        qInfo("incremental sync of 20,000 names: median %.2f ms, worst %.2f ms", took[10] / 1e6, took.back() / 1e6);
        QVERIFY2(took[10] < 16'000'000, "an incremental sync takes longer than a 60 fps frame");
    }

    void hoverText()
    {
        AbstractNamespace ns;
        ns.bind_value(0x0abcd, SockType::stream, 3);
        ns.bind_value(0x0abce, SockType::stream, 4);
        ns.bind_value(0x0abce, SockType::dgram, 5);
        AutobindMap map;
        map.setLabeler(labelOf);
        map.resize(1024, 1024); // one screen pixel per name
        map.setNamespace(&ns);
        map.sync();
        map.show();
        QVERIFY(QTest::qWaitForWindowExposed(&map));
        QCOMPARE(map.scale(), 1.0);
        QSignalSpy hovered(&map, &AutobindMap::hovered);
        mouse(&map, QEvent::MouseMove, map.widgetPosOf(0x0abcd));
        QCOMPARE(map.hoveredValue(), std::optional<std::uint32_t>(0x0abcd));
        const QString one = QString::fromUtf8("@0abcd \u00b7 bucket 306 \u00b7 stream: s3");
        QCOMPARE(map.hoverText(), one);
        QCOMPARE(hovered.count(), 1);
        QCOMPARE(hovered.last().at(0).toString(), one);
        mouse(&map, QEvent::MouseMove, map.widgetPosOf(0x0abce));
        QCOMPARE(map.hoverText(), QString::fromUtf8("@0abce \u00b7 stream: s4 (bucket %1) \u00b7 dgram: s5 (bucket %2)")
                                      .arg(autobind_bucket(0x0abce, SockType::stream))
                                      .arg(autobind_bucket(0x0abce, SockType::dgram)));
        mouse(&map, QEvent::MouseMove, map.widgetPosOf(0));
        QCOMPARE(map.hoverText(),
                 QString::fromUtf8("@00000 \u00b7 free \u00b7 buckets 496/499/500 (stream/dgram/seqpacket)"));
        map.setTypeFilter(static_cast<int>(SockType::dgram));
        QCOMPARE(map.hoverText(), QString::fromUtf8("@00000 \u00b7 bucket 499 \u00b7 free (dgram)"));
        mouse(&map, QEvent::MouseMove, map.widgetPosOf(0x0abce));
        QCOMPARE(map.hoverText(), QString::fromUtf8("@0abce \u00b7 bucket %1 \u00b7 dgram: s5")
                                      .arg(autobind_bucket(0x0abce, SockType::dgram)));
        QCOMPARE(map.toolTip(), map.hoverText());
        // Leaving clears it.
        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(&map, &leave);
        QVERIFY(!map.hoveredValue());
        QCOMPARE(hovered.last().at(0).toString(), QString());
    }

    void clickEmitsTheOwner()
    {
        AbstractNamespace ns;
        ns.bind_value(0x0abcd, SockType::stream, 3);
        ns.bind_value(0x0abce, SockType::dgram, 5);
        AutobindMap map;
        map.resize(1024, 1024);
        map.setNamespace(&ns);
        map.sync();
        QSignalSpy clicked(&map, &AutobindMap::socketClicked);
        auto click = [&](std::uint32_t v) {
            const QPointF p = map.widgetPosOf(v);
            mouse(&map, QEvent::MouseButtonPress, p, Qt::LeftButton, Qt::LeftButton);
            mouse(&map, QEvent::MouseButtonRelease, p, Qt::LeftButton, Qt::NoButton);
        };
        click(0x0abcd);
        click(0x0abce);
        click(0x0abcf); // free: nothing
        QCOMPARE(clicked.count(), 2);
        QCOMPARE(clicked.at(0).at(0).toUInt(), 3u);
        QCOMPARE(clicked.at(1).at(0).toUInt(), 5u);
        // A drag is a pan, not a click.
        map.setView(8.0, {0, 0});
        const QPointF p = map.widgetPosOf(0x0abcd);
        mouse(&map, QEvent::MouseButtonPress, p, Qt::LeftButton, Qt::LeftButton);
        mouse(&map, QEvent::MouseMove, p + QPointF(-40, -24), Qt::NoButton, Qt::LeftButton);
        mouse(&map, QEvent::MouseButtonRelease, p + QPointF(-40, -24), Qt::LeftButton, Qt::NoButton);
        QCOMPARE(clicked.count(), 2);
    }

    void zoomAndPanDownToSingleNames()
    {
        AutobindMap map;
        map.resize(512, 512);
        map.fitView();
        QCOMPARE(map.scale(), 0.5);
        QCOMPARE(map.valueAt({0.2, 0.2}), std::optional<std::uint32_t>(0));
        QCOMPARE(map.valueAt({511.9, 511.9}), std::optional<std::uint32_t>(0xfffff));
        // The name under the pointer stays under it while zooming.
        const QPointF at(300.3, 200.3); // not on a cell edge
        const auto under = map.valueAt(at);
        for (int i = 0; i < 30; ++i)
            wheel(&map, at, 120);
        QCOMPARE(map.scale(), AutobindMap::kMaxScale); // 64 px per name
        QCOMPARE(map.valueAt(at), under);
        // Panning by a drag of one cell moves the view by one name.
        const auto before = map.valueAt({100, 100});
        mouse(&map, QEvent::MouseButtonPress, {100, 100}, Qt::LeftButton, Qt::LeftButton);
        mouse(&map, QEvent::MouseMove, {100 - 64, 100}, Qt::NoButton, Qt::LeftButton);
        mouse(&map, QEvent::MouseButtonRelease, {100 - 64, 100}, Qt::LeftButton, Qt::NoButton);
        QCOMPARE(map.valueAt({100, 100}), std::optional<std::uint32_t>(*before + 1));
        // The view never leaves the map; fit shows it whole again.
        map.setView(64.0, {5000, -300});
        QCOMPARE(map.origin(), QPointF(1024 - 512 / 64.0, 0));
        for (int i = 0; i < 40; ++i)
            wheel(&map, at, -120);
        QCOMPARE(map.scale(), 0.5);
        map.setView(4.0, {10, 10});
        map.fitView();
        QCOMPARE(map.scale(), 0.5);
        QCOMPARE(map.origin(), QPointF(0, 0));
        // 1:1: one pixel per name; with no autobind yet, around the middle of the space.
        map.showActualSize();
        QCOMPARE(map.scale(), 1.0);
        QCOMPARE(map.valueAt({256.5, 256.5}), std::optional<std::uint32_t>(AutobindMap::valueOfCell(512, 512)));
        QCOMPARE(map.valueAt({257.5, 256.5}), std::optional<std::uint32_t>(AutobindMap::valueOfCell(513, 512)));
        // Magnified, nearest-neighbour: a name is a crisp square of its colour.
        AbstractNamespace ns;
        ns.bind_value(valueOfCell(10, 10), SockType::stream, 1);
        map.setNamespace(&ns);
        map.sync();
        map.setView(16.0, {8, 8});
        const QImage shot = map.grab().toImage();
        const QColor inside = shot.pixelColor(2 * 16 + 3, 2 * 16 + 3);
        const QColor inside2 = shot.pixelColor(2 * 16 + 12, 2 * 16 + 12);
        QCOMPARE(inside.rgb(), rgb(AutobindMap::typeColor(SockType::stream)));
        QCOMPARE(inside2.rgb(), rgb(AutobindMap::typeColor(SockType::stream)));
        QCOMPARE(shot.pixelColor(3 * 16 + 8, 2 * 16 + 8).rgb(), rgb(AutobindMap::freeColor()));
    }

    void probeOverlayAndCursor()
    {
        // 0x100..0x10f taken: an autobind from 0xff probes 0x100..0x110 and binds 0x110.
        AbstractNamespace ns;
        for (std::uint32_t v = 0x100; v < 0x110; ++v)
            ns.bind_value(v, SockType::stream, v);
        auto it = ns.autobind(SockType::stream, AutobindMode::random, 0xffu);
        for (int i = 0; i < 5; ++i)
            it.probe(); // mid-bind: 0x100..0x104 probed
        AutobindMap map;
        map.resize(512, 512);
        map.setNamespace(&ns);
        map.sync();
        map.setView(16.0, {0x100 - 4, 0}); // row 0, columns 0xfc..
        QImage shot = map.grab().toImage();
        auto cellColour = [&](std::uint32_t v, QPointF off = {4, 4}) {
            const QPointF c = map.widgetPosOf(v) - QPointF(8, 8) + off;
            return shot.pixelColor(c.toPoint());
        };
        auto isProbed = [](const QColor &c) { return c.red() > 180 && c.green() > 160 && c.blue() < 120; };
        QVERIFY(isProbed(cellColour(0x101)));
        QVERIFY(isProbed(cellColour(0x103)));
        QCOMPARE(cellColour(0x106).rgb(), rgb(AutobindMap::typeColor(SockType::stream))); // not yet probed
        QCOMPARE(cellColour(0xfe).rgb(), rgb(AutobindMap::freeColor()));
        // The cursor ring is drawn around 0x104 (the last probe) in the cursor colour.
        bool ring = false;
        const QPointF c = map.widgetPosOf(0x104);
        const double r = std::max(9.0, 16 * 0.75);
        for (int a = 0; a < 360 && !ring; a += 5) {
            const QPointF p = c + QPointF(r * std::cos(a * M_PI / 180), r * std::sin(a * M_PI / 180));
            if (!shot.rect().contains(p.toPoint()))
                continue;
            const QColor px = shot.pixelColor(p.toPoint());
            ring = px.red() > 180 && px.green() < 60 && px.blue() < 60;
        }
        QVERIFY(ring);
        QCOMPARE(ns.trace().cursor, 0x104u);
        QVERIFY(ns.trace().active);
        // Finished: the run covers 0x100..0x110, the new name is taken.
        QCOMPARE(it.run(99), AutobindStop::bound);
        map.sync();
        shot = map.grab().toImage();
        QVERIFY(isProbed(cellColour(0x10f)));
        QCOMPARE(pixel(map, 0x110), rgb(AutobindMap::typeColor(SockType::stream)));
    }

    void panelFigures()
    {
        AbstractNamespace ns;
        AutobindPanel panel;
        panel.resize(1200, 700);
        panel.setNamespace(&ns);
        panel.refresh();
        QCOMPARE(panel.figure("taken.stream"), QString("0 (0.0 %)"));
        QCOMPARE(panel.figure("enospc"), QString("0"));
        for (std::uint32_t v = 0; v < kAutobindSpace / 2; ++v)
            ns.bind_value(v, SockType::stream, v);
        ns.bind("srv", SockType::stream, 1);
        ns.bind_value(5, SockType::dgram, 2);
        auto it = ns.autobind(SockType::stream, AutobindMode::random, 0xfffffu); // tries 0 .. 0x80000
        QCOMPARE(it.run(3), AutobindStop::bound);
        ns.note_lock_wait(1500);
        panel.refresh();
        QCOMPARE(panel.figure("taken.stream"), QString("524,289 (50.0 %) + 1 other names"));
        QCOMPARE(panel.figure("taken.dgram"), QString("1 (0.0 %)"));
        QCOMPARE(panel.figure("lastBind"), QString::fromUtf8("524,289 probes \u00b7 bound @80000"));
        QCOMPARE(panel.figure("meanProbes"), QString("524,289.0 mean over 1 binds"));
        std::uint32_t bucket = 0;
        const std::uint32_t longest = ns.longest_chain(&bucket);
        QCOMPARE(panel.figure("longestChain"),
                 QString("%1 sockets in bucket %2").arg(QLocale(QLocale::English).toString(longest)).arg(bucket));
        QCOMPARE(panel.figure("lockWaits"), QString::fromUtf8("1 (1.5 \u00b5s waited)"));
        // Fill the rest: the next bind fails, and the map is all blue (but 5, held by two types).
        for (std::uint32_t v = kAutobindSpace / 2; v < kAutobindSpace; ++v)
            ns.bind_value(v, SockType::stream, v);
        auto full = ns.autobind(SockType::stream, AutobindMode::random, 7u);
        QCOMPARE(full.run(4), AutobindStop::enospc);
        panel.refresh();
        QCOMPARE(panel.figure("enospc"), QString("1"));
        QCOMPARE(panel.figure("lastBind"), QString::fromUtf8("1,048,576 probes \u00b7 ENOSPC"));
        QCOMPARE(panel.figure("taken.stream"), QString("1,048,576 (100.0 %) + 1 other names"));
        // Latency (ns in, µs shown).
        Log2Histogram h;
        for (std::uint64_t ns_ : {1500u, 2500u, 7000u, 19000u})
            h.add(ns_);
        panel.setLatency(h);
        QCOMPARE(panel.latency().count(), 4u);
        QCOMPARE(panel.latency().unit(), TimeUnit::us);
        QVERIFY(panel.histogram());
        QCOMPARE(panel.histogram()->histogram().count(), 4u);
        QCOMPARE(panel.histogram()->unit(), TimeUnit::us);
        // The hover line under the map follows the pointer.
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        AutobindMap *map = panel.map();
        mouse(map, QEvent::MouseMove, map->widgetPosOf(5));
        QVERIFY(panel.hoverText().startsWith("@00005"));
        auto *hover = panel.findChild<QLabel *>("autobindHover");
        QVERIFY(hover);
        QCOMPARE(hover->text(), panel.hoverText());
    }

    void dockInTheMainWindow()
    {
        PlayerController c;
        MainWindow w(c);
        auto *dock = w.findChild<QDockWidget *>("autobindDock");
        QVERIFY(dock);
        auto *ad = qobject_cast<AutobindDock *>(dock);
        QVERIFY(ad);
        QVERIFY(c.openText("socketpair a b\nclose a\nclose b\n", "t.scn"));
        // Until the kernel carries the namespace the dock is given one directly.
        AbstractNamespace ns;
        ns.bind_value(0x0abcd, SockType::stream, 0);
        ad->setNamespaceProvider([&ns] { return &ns; });
        ad->refresh();
        QCOMPARE(ad->panel()->ns(), &ns);
        QCOMPARE(ad->panel()->figure("taken.stream"), QString("1 (0.0 %)"));
        QCOMPARE(pixel(*ad->panel()->map(), 0x0abcd), rgb(AutobindMap::typeColor(SockType::stream)));
        // Owners are named by the kernel's labels (at the end of the run, socket 0 is "a").
        c.last();
        QCOMPARE(ad->panel()->map()->describe(0x0abcd), QString::fromUtf8("@0abcd \u00b7 bucket 306 \u00b7 stream: a"));
        // A click on a name selects its socket everywhere.
        emit ad->panel()->map()->socketClicked(0);
        QCOMPARE(c.selectedSocket(), std::optional<std::uint32_t>(0));
        // Position changes coalesce into at most one refresh per 16 ms.
        QTest::qWait(3 * AutobindDock::kRefreshMs);
        const int before = ad->refreshCount();
        for (int i = 0; i < 20; ++i) {
            c.last();
            c.first();
        }
        QTest::qWait(3 * AutobindDock::kRefreshMs);
        QVERIFY2(ad->refreshCount() - before <= 2, qPrintable(QString::number(ad->refreshCount() - before)));
        QVERIFY(ad->refreshCount() - before >= 1);
        ad->setNamespaceProvider(nullptr);
        QCOMPARE(ad->panel()->ns(), nullptr);
    }

    void dockFollowsTheKernel()
    {
        // The dock reads Kernel::abstract_ns at the player's step, and the autobind calls that
        // have returned by then.
        PlayerController c;
        MainWindow w(c);
        auto *ad = qobject_cast<AutobindDock *>(w.findChild<QDockWidget *>("autobindDock"));
        QVERIFY(ad);
        QVERIFY(
            c.openText("socket a dgram\nbind a\nsocket b stream\nbind b @0abcd\nsocket d dgram\nbind d\n", "t.scn"));
        QSignalSpy ready(&c, &PlayerController::indexReadyChanged);
        while (!c.indexReady())
            QVERIFY(ready.wait(10000));
        c.last();
        ad->refresh();
        const Kernel &k = c.sim().kernel();
        QCOMPARE(ad->panel()->ns(), &k.abstract_ns);
        QCOMPARE(ad->panel()->figure("taken.dgram"), QString("2 (0.0 %)"));
        QCOMPARE(ad->panel()->figure("taken.stream"), QString("1 (0.0 %)"));
        AutobindMap *map = ad->panel()->map();
        QCOMPARE(pixel(*map, 0x0abcd), rgb(AutobindMap::typeColor(SockType::stream)));
        QVERIFY(map->describe(0x0abcd).endsWith(QStringLiteral("stream: b")));
        const std::uint32_t a_name = k.abstract_ns.trace().cursor; // d's name (the last autobind)
        QCOMPARE(pixel(*map, a_name), rgb(AutobindMap::typeColor(SockType::dgram)));
        QVERIFY(map->describe(a_name).endsWith(QStringLiteral("dgram: d")));
        QVERIFY(ad->panel()->figure("lastBind").contains(QStringLiteral("bound @")));
        // Two autobinds (a and d); b's bind names its address.
        QVERIFY(c.latencyRun() && !c.latencyRun()->samples.empty());
        QCOMPARE(ad->panel()->latency().count(), 2u);
        // Back to the start: a replay builds a new kernel; the map repaints from it, empty.
        c.first();
        ad->refresh();
        QCOMPARE(ad->panel()->ns(), &c.sim().kernel().abstract_ns);
        QVERIFY(map->lastSyncFull());
        QCOMPARE(pixel(*map, 0x0abcd), rgb(AutobindMap::freeColor()));
        QCOMPARE(ad->panel()->figure("taken.dgram"), QString("0 (0.0 %)"));
        QCOMPARE(ad->panel()->latency().count(), 0u);
    }

    void stepsBackTakeReturnedCallsBack()
    {
        // Stepping back takes the calls that return after the new step out of the histogram
        // one by one; it does not start again from no calls (on the million-bind scene that
        // re-sorted a million durations on the GUI thread at each step back).
        PlayerController c;
        MainWindow w(c);
        auto *ad = qobject_cast<AutobindDock *>(w.findChild<QDockWidget *>("autobindDock"));
        QVERIFY(ad);
        QString text;
        for (int i = 0; i < 12; ++i)
            text += QStringLiteral("socket s%1 dgram\nbind s%1\n").arg(i);
        QVERIFY(c.openText(text, "t.scn"));
        QSignalSpy ready(&c, &PlayerController::indexReadyChanged);
        while (!c.indexReady())
            QVERIFY(ready.wait(10000));
        QVERIFY(c.latencyRun());
        // The durations of the autobind calls returned by each step, in the order they returned.
        std::vector<std::pair<std::uint64_t, std::uint64_t>> calls; // (last_step, duration_ns)
        for (const LatencySample &s : c.latencyRun()->samples)
            if (s.kind == CallKind::autobind)
                calls.emplace_back(s.last_step, s.duration_ns);
        std::stable_sort(calls.begin(), calls.end(), [](auto a, auto b) { return a.first < b.first; });
        QCOMPARE(calls.size(), std::size_t(12));
        auto expected = [&calls](std::uint64_t step) {
            std::vector<std::uint64_t> v;
            for (const auto &[last, ns] : calls)
                if (last <= step)
                    v.push_back(ns);
            return v;
        };
        // Long seeks land from a pool thread: each is waited for before the position is read.
        c.last();
        QVERIFY(test::waitIdle(c));
        ad->refresh();
        QCOMPARE(ad->panel()->latency().values_ns(), expected(c.position()));
        const int restarts = ad->latencyRestarts();
        int checked = 0;
        while (c.position() > 0) {
            const std::uint64_t before = c.position();
            c.back();
            QVERIFY(test::waitIdle(c));
            QVERIFY2(c.position() < before, "a step back moves back");
            ad->refresh();
            QCOMPARE(ad->panel()->latency().values_ns(), expected(c.position()));
            ++checked;
        }
        QVERIFY(checked > 24);
        QCOMPARE(ad->latencyRestarts(), restarts);
        QCOMPARE(ad->panel()->latency().count(), 0u);
        // Forward again: the calls come back in order.
        c.last();
        ad->refresh();
        QCOMPARE(ad->panel()->latency().values_ns(), expected(c.position()));
    }

private:
    static std::uint32_t valueOfCell(int x, int y) { return AutobindMap::valueOfCell(x, y); }
};

QTEST_MAIN(TestAutobindPanel)
#include "test_autobind_panel.moc"
