// SPDX-License-Identifier: GPL-3.0-or-later
// The latency panel: the histogram widget's rows, bars, hover and click; the dock showing only
// the calls that have returned by the player's step and keeping up incrementally; its exports
// matching the engine's funclatency text, CSV and JSON; the bucket's call list and the jump to a
// call; the A/B ratio; and the timeline's collection and wait markers feeding the dock.
//
// The samples are made by hand (the bcc output of the async-GC series, rebuilt), so these tests
// do not depend on the engine's cost model.
#include "latency/ab_comparison.h"
#include "latency/bucket_calls_model.h"
#include "latency/histogram_widget.h"
#include "latency/latency_dock.h"
#include "latency/live_latency.h"
#include "latency/percentile_model.h"
#include "main_window.h"
#include "player_controller.h"
#include "theme.h"
#include "timeline_widget.h"
#include "wait_index.hpp"

#include "inflight/log2_histogram.hpp"
#include "inflight/run_landmarks.hpp"

#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace inflight;
using inflight::test::waitIndex;
using namespace latency;

namespace {

// The first figure of the percentile table not wholly in its viewport ("row 2 column 1: ..."),
// or an empty string when every shown figure is; `rows` counts the rows shown.
QString figureOutOfView(const QTableView *t, int *rows = nullptr)
{
    const QRect view = t->viewport()->rect();
    int shown = 0;
    QString out;
    for (int row = 0; row < t->model()->rowCount(); ++row) {
        if (t->isRowHidden(row))
            continue;
        ++shown;
        for (int col = 0; col < t->model()->columnCount() && out.isEmpty(); ++col) {
            const QRect cell = t->visualRect(t->model()->index(row, col));
            if (!view.contains(cell))
                out = QStringLiteral("row %1 column %2: %3,%4 %5x%6 in %7x%8")
                          .arg(row)
                          .arg(col)
                          .arg(cell.x())
                          .arg(cell.y())
                          .arg(cell.width())
                          .arg(cell.height())
                          .arg(view.width())
                          .arg(view.height());
        }
    }
    if (rows)
        *rows = shown;
    return out;
}

const char *kTriangle = "socketpair a a2\nsocketpair b b2\nsocketpair c c2\nsend a2 fds=b\nsend b2 fds=c\n"
                        "send c2 fds=a\nclose a b c\nclose a2 b2 c2\ngc\n";

bool open(PlayerController &c, const char *text = kTriangle)
{
    QStringList errors;
    if (!c.openText(QString::fromLatin1(text), QStringLiteral("test"), &errors)) {
        qWarning() << errors;
        return false;
    }
    return waitIndex(c);
}

LatencySample call(std::uint64_t duration_ns, std::uint64_t first, std::uint64_t last, std::uint32_t task = 0,
                   CallKind kind = CallKind::no_fd)
{
    LatencySample s;
    s.duration_ns = duration_ns;
    s.first_step = first;
    s.last_step = last;
    s.task = task;
    s.kind = kind;
    s.start_ns = first * 100;
    s.scene_line = 4;
    return s;
}

// The seed's "before" histogram: 3881 + 214 + 1 calls, total 7477526027 ns, returning one
// per step from step 1 on.
std::shared_ptr<LatencyRun> beforeSeries(std::uint64_t first_return = 1)
{
    auto run = std::make_shared<LatencyRun>();
    run->tasks = {{"main", 0, 0, false}, {"sender", 1, 1, false}};
    run->user_names = {"root"};
    std::vector<std::uint64_t> d(3880, 1'760'001);
    d.push_back(1'722'147);
    d.insert(d.end(), 214, 3'000'000);
    d.push_back(5'000'000);
    for (std::size_t i = 0; i < d.size(); ++i)
        run->samples.push_back(call(d[i], first_return + i, first_return + i, i % 2 ? 1 : 0,
                                    i % 3 ? CallKind::no_fd : CallKind::with_unix_fds));
    return run;
}

// The seed's "after" histogram (total 1680510 ns).
std::shared_ptr<LatencyRun> afterSeries()
{
    auto run = std::make_shared<LatencyRun>();
    run->tasks = {{"main", 0, 0, false}};
    std::vector<std::uint64_t> d(1134, 406);
    d.insert(d.end(), 2958, 407);
    d.insert(d.end(), 2, 600);
    d.push_back(5'000);
    d.push_back(10'000);
    for (std::size_t i = 0; i < d.size(); ++i)
        run->samples.push_back(call(d[i], i + 1, i + 1));
    return run;
}

Log2Histogram histogramOf(const LatencyRun &run)
{
    Log2Histogram h;
    for (const LatencySample &s : run.samples)
        h.add(s.duration_ns);
    return h;
}

} // namespace

class TestLatencyPanel : public QObject {
    Q_OBJECT
private slots:
    void init() { Theme::instance().setFontScale(1.0); }

    void widgetRowsForKnownHistogram()
    {
        HistogramWidget w;
        w.resize(800, 300);
        w.setTitle(QStringLiteral("before the series"));
        w.setHistogram(histogramOf(*beforeSeries()));
        QCOMPARE(w.rows().size(), 3);
        QCOMPARE(w.rows()[0].bucket, 21);
        QCOMPARE(w.rows()[0].lo, 1048576u);
        QCOMPARE(w.rows()[0].hi, 2097151u);
        QCOMPARE(w.rows()[0].count, 3881u);
        QCOMPARE(w.rows()[1].count, 214u);
        QCOMPARE(w.rows()[2].count, 1u);
        QCOMPARE(HistogramWidget::rangeText(21), QStringLiteral("1048576 -> 2097151"));
        QCOMPARE(HistogramWidget::rangeText(0), QStringLiteral("0"));
        QCOMPARE(w.valueLabel(), QStringLiteral("nsecs"));
        // Bars scale to the fullest bucket; a single call still shows.
        const int full = w.barRect(0).width();
        QVERIFY(full > 100);
        QVERIFY(qAbs(w.barRect(1).width() - full * 214.0 / 3881.0) <= 1.5);
        QVERIFY(w.barRect(2).width() >= 2);
        // Rows fit the widget's height hint, one under another.
        QVERIFY(w.rowRect(1).top() >= w.rowRect(0).bottom());
        QVERIFY(w.sizeHint().height() > w.rowRect(2).bottom());
        // Units re-bucket, as funclatency -u.
        w.setUnit(TimeUnit::us);
        QCOMPARE(w.rows()[0].lo, 1024u);
        QCOMPARE(w.rows()[0].count, 3881u);
        QCOMPARE(w.valueLabel(), QStringLiteral("usecs"));
        w.setValueLabel(QStringLiteral("probes"));
        QCOMPARE(w.valueLabel(), QStringLiteral("probes"));
        // A fixed range (A/B) shows empty rows too.
        w.setBucketRange(5, 15);
        QCOMPARE(w.rows().size(), 11);
        QCOMPARE(w.rows().front().count, 0u);
    }

    void widgetHoverAndClick()
    {
        HistogramWidget w;
        w.resize(800, 300);
        w.setHistogram(histogramOf(*beforeSeries()));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy clicked(&w, &HistogramWidget::barClicked);
        QSignalSpy bucket(&w, &HistogramWidget::bucketClicked);
        const QPoint p = w.rowRect(1).center();
        QTest::mouseMove(&w, p);
        QTRY_COMPARE(w.hoveredRow(), 1);
        QCOMPARE(w.rowAt(p), 1);
        QCOMPARE(w.rowAt(QPoint(2, 2)), -1);
        QTest::mouseClick(&w, Qt::LeftButton, {}, p);
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked[0][0].toULongLong(), 2097152u);
        QCOMPARE(clicked[0][1].toULongLong(), 4194303u);
        QCOMPARE(bucket[0][0].toInt(), 22);
        QCOMPARE(w.selectedBucket(), 22);
        // The widget grows with the theme's font scale (presentation mode).
        const int h = w.sizeHint().height();
        Theme::instance().setFontScale(2.0);
        QVERIFY(w.sizeHint().height() > 1.6 * h);
        Theme::instance().setFontScale(1.0);
    }

    void liveStepsBackByTakingCallsBack()
    {
        // Stepping back one step at a time past returns (a few at most each time) gives what a
        // view opened at that step shows: the same groups, counts and percentiles.
        auto run = beforeSeries();
        run->samples.push_back(call(123, 5000, 5000, 0, CallKind::with_fds)); // a group of one
        LiveLatency live;
        live.setGroupBy(GroupBy::call_kind);
        live.setRun(run);
        const std::uint64_t end = 5001;
        live.setPosition(end);
        QCOMPARE(live.all().count(), run->samples.size());
        QVERIFY(live.all().percentile_ns(99) > 0); // the sorted copies have caught up
        for (std::uint64_t step : {5000u, 4999u, 4097u, 4096u, 4095u, 4090u, 3000u, 100u, 1u, 0u}) {
            live.setPosition(step);
            LiveLatency fresh;
            fresh.setGroupBy(GroupBy::call_kind);
            fresh.setRun(run);
            fresh.setPosition(step);
            QCOMPARE(live.visibleCount(), fresh.visibleCount());
            QCOMPARE(live.all().count(), fresh.all().count());
            QCOMPARE(live.all().total_ns(), fresh.all().total_ns());
            QCOMPARE(live.all().max_ns(), fresh.all().max_ns());
            QCOMPARE(live.all().percentile_ns(90), fresh.all().percentile_ns(90));
            QCOMPARE(live.groups().size(), fresh.groups().size());
            for (std::size_t g = 0; g < live.groups().size(); ++g) {
                QCOMPARE(live.groups()[g].name, fresh.groups()[g].name);
                QCOMPARE(live.groups()[g].samples, fresh.groups()[g].samples);
                QCOMPARE(live.groups()[g].histogram.buckets(), fresh.groups()[g].histogram.buckets());
                QCOMPARE(live.groups()[g].histogram.percentile_ns(50), fresh.groups()[g].histogram.percentile_ns(50));
            }
        }
    }

    void liveShowsOnlyReturnedCalls()
    {
        auto run = std::make_shared<LatencyRun>();
        run->tasks = {{"main", 0, 0, false}, {"sender", 1, 1, false}};
        run->samples = {call(500, 1, 30, 0), call(1500, 5, 10, 1, CallKind::with_unix_fds), call(3000, 12, 20, 1)};
        LiveLatency live;
        live.setGroupBy(GroupBy::task);
        live.setRun(run);
        QCOMPARE(live.visibleCount(), 0u);
        QCOMPARE(live.setPosition(9), LiveLatency::Change::none);
        QCOMPARE(live.setPosition(10), LiveLatency::Change::groups); // the first sender call returns
        QCOMPARE(live.visibleCount(), 1u);
        QCOMPARE(live.all().total_ns(), 1500u);
        QCOMPARE(live.setPosition(25), LiveLatency::Change::counts);
        QCOMPARE(live.groups().size(), 1u);
        QCOMPARE(live.groups()[0].histogram.count(), 2u);
        QVERIFY(!live.isVisible(0));
        QCOMPARE(live.setPosition(30), LiveLatency::Change::groups); // main appears, before sender
        QCOMPARE(live.groups()[0].name, std::string("main"));
        QCOMPARE(live.all().count(), 3u);
        // Backwards past a return rebuilds.
        QCOMPARE(live.setPosition(15), LiveLatency::Change::groups);
        QCOMPARE(live.visibleCount(), 1u);
        QCOMPARE(live.all().total_ns(), 1500u);
        // Lookups: calls in a bucket, the call a task was making at a step.
        live.setPosition(100);
        QCOMPARE(live.callsIn(-1, 1024, 2047), (std::vector<std::size_t>{1}));
        QCOMPARE(live.callsIn(live.groupOf(2), 2048, 4095), (std::vector<std::size_t>{2}));
        QCOMPARE(live.callAt(7, 1), std::optional<std::size_t>(1));
        QCOMPARE(live.callAt(7, 0), std::optional<std::size_t>(0));
        QVERIFY(!live.callAt(11, 1));
        live.setUnit(TimeUnit::us);
        QCOMPARE(live.callsIn(-1, 1, 1), (std::vector<std::size_t>{1}));
        live.setGroupBy(GroupBy::call_kind);
        QCOMPARE(live.groups().size(), 2u);
        QCOMPARE(live.groups()[0].name, std::string(call_kind_name(CallKind::no_fd)));
    }

    void dockFollowsPlayerStep()
    {
        PlayerController c;
        QVERIFY(open(c));
        LatencyDock dock(c);
        QCOMPARE(dock.objectName(), QStringLiteral("latencyDock"));
        // It starts from the controller's samples of the run (whatever the model times).
        QCOMPARE(dock.live().run().samples.size(), c.latencySamples().size());
        QVERIFY(!c.latencySamples().empty());
        // Shared with the controller, not copied (a million samples are 56 MB).
        QCOMPARE(&dock.live().run(), c.latencyRun().get());
        const std::uint64_t total = c.totalSteps();
        QVERIFY(total >= 20);
        auto run = std::make_shared<LatencyRun>();
        run->tasks = {{"main", 0, 0, false}};
        run->samples = {call(400, 2, 4), call(1'500'000, 5, 9, 0, CallKind::with_unix_fds), call(410, 10, 12),
                        call(3'000'000, 13, total, 0, CallKind::with_unix_fds)};
        dock.setRun(run);
        c.seek(0);
        dock.refresh();
        QCOMPARE(dock.live().visibleCount(), 0u);
        QVERIFY(dock.histograms().isEmpty());
        c.seek(9);
        dock.refresh();
        QCOMPARE(dock.live().visibleCount(), 2u);
        QCOMPARE(dock.histograms().size(), 2); // by call kind: no fd, with AF_UNIX fds
        QCOMPARE(dock.percentiles()->rowCount(), 3);
        QCOMPARE(dock.percentiles()->stats()[0].count, 2u);
        QCOMPARE(dock.percentiles()->stats()[0].max_ns, 1'500'000u);
        c.seek(total);
        dock.refresh();
        QCOMPARE(dock.live().visibleCount(), 4u);
        QCOMPARE(dock.histograms()[1]->histogram().count(), 2u);
        // The table: p50/p90/p99/max/count/avg in the unit.
        const PercentileModel::Stats &all = dock.percentiles()->stats()[0];
        QCOMPARE(all.p50_ns, 410u);
        QCOMPARE(all.p99_ns, 3'000'000u);
        QCOMPARE(all.count, 4u);
        QCOMPARE(dock.percentiles()->index(0, PercentileModel::P50Column).data().toString(), QStringLiteral("410"));
        dock.setUnit(TimeUnit::ms);
        QCOMPARE(dock.percentiles()->index(0, PercentileModel::MaxColumn).data().toString(), QStringLiteral("3.000"));
        QCOMPARE(dock.histograms()[1]->unit(), TimeUnit::ms);
        dock.setGroupBy(GroupBy::task);
        QCOMPARE(dock.histograms().size(), 1);
        QCOMPARE(dock.groupByBox()->currentData().toInt(), static_cast<int>(GroupBy::task));
        // Back to the start: nothing has returned.
        c.seek(1);
        dock.refresh();
        QCOMPARE(dock.live().visibleCount(), 0u);
    }

    void dockThrottlesWhilePlaying()
    {
        // Many position changes in one frame cost one refresh, and the dock catches up.
        PlayerController c;
        QVERIFY(open(c));
        LatencyDock dock(c);
        auto run = std::make_shared<LatencyRun>();
        for (std::uint64_t s = 1; s <= c.totalSteps(); ++s)
            run->samples.push_back(call(100 * s, s, s));
        dock.setRun(run);
        c.seek(0);
        dock.refresh();
        const int before = dock.refreshCount();
        for (int i = 0; i < 20; ++i)
            c.stepInto();
        QCOMPARE(dock.refreshCount(), before); // not yet: coalesced
        QTRY_COMPARE(dock.live().visibleCount(), 20u);
        QVERIFY(dock.refreshCount() <= before + 2);
    }

    void playingForwardKeepsUpWithTheCallsReturned()
    {
        // Playback moves forward a frame at a time (~137 newly returned calls each, 40,000 in 4
        // groups): the dock adds the new calls to what it shows instead of rebuilding. What it
        // shows at every frame must be what a dock set there at once shows. (What a frame costs is
        // the latency panel benchmark's.)
        PlayerController c;
        QVERIFY(open(c, "repeat 400 as i {\n  socketpair a$i b$i dgram\n  send a$i fds=b$i\n  close a$i b$i\n}\n"));
        const std::uint64_t total = c.totalSteps();
        QVERIFY(total > 4000);
        LatencyDock dock(c);
        dock.resize(1600, 600);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        auto run = std::make_shared<LatencyRun>();
        run->tasks = {{"main", 0, 0, false}};
        const std::uint64_t calls = 40'000;
        for (std::uint64_t i = 0; i < calls; ++i)
            run->samples.push_back(call(300 + (i * 7919) % 3'000'000, 1 + i * total / calls, 1 + i * total / calls, 0,
                                        static_cast<CallKind>(i % 4)));
        dock.setRun(run);
        c.seek(0);
        dock.refresh();
        int frames = 0;
        for (std::uint64_t step = 0; step < total; step += std::max<std::uint64_t>(1, total * 137 / calls), ++frames) {
            c.seek(step);
            dock.refresh();
            if (frames % 16 != 0)
                continue;
            LiveLatency fresh;
            fresh.setRun(run);
            fresh.setPosition(step);
            QCOMPARE(dock.live().visibleCount(), fresh.visibleCount());
            QCOMPARE(dock.live().all().buckets(), fresh.all().buckets());
            QCOMPARE(dock.live().groups().size(), fresh.groups().size());
        }
        QVERIFY(frames > 200);
        c.seek(total);
        dock.refresh();
        QCOMPARE(dock.live().visibleCount(), std::size_t(calls));
        QCOMPARE(dock.live().groups().size(), 4u);
    }

    void dockFitsUnderTheGraph()
    {
        // It shares the bottom dock area with the event log (170 px): it must not make the
        // window taller than the screen it is shown on.
        PlayerController c;
        QVERIFY(open(c));
        LatencyDock dock(c);
        auto run = beforeSeries();
        dock.setRun(run);
        c.seek(c.totalSteps());
        dock.refresh();
        QVERIFY(dock.minimumSizeHint().height() <= 160);
    }

    // "Tables show their rows and columns at 1080p without scrolling": under the
    // graph of a 1920x1080 window the dock is about 630 x 410 px; with three groups of
    // seven-digit figures every column and every figure of the percentile table is in view,
    // and so it is in a dock wide enough to put the histograms beside it.
    void percentileTableInFullAt1080p_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("under the graph at 1080p") << QSize(630, 410);
        QTest::newRow("a wide dock") << QSize(1400, 410);
    }
    void percentileTableInFullAt1080p()
    {
        QFETCH(QSize, size);
        PlayerController c;
        QVERIFY(open(c));
        LatencyDock dock(c);
        dock.setRun(beforeSeries()); // all calls, no fd, with AF_UNIX fds
        c.seek(c.totalSteps());
        dock.resize(size);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        dock.refresh();
        QCoreApplication::processEvents();
        QTableView *t = dock.percentileView();
        QCOMPARE(t->model()->columnCount(), 3);
        QVERIFY(!t->horizontalScrollBar()->isVisible());
        QVERIFY(!t->verticalScrollBar()->isVisible());
        const QString out = figureOutOfView(t);
        QVERIFY2(out.isEmpty(), qPrintable(out));
    }

    // Presenting a scene about latency: the panel spans the projector under the graph, at the
    // presentation's font. Every figure from p50 to max is in view beside the bars, also once
    // the figures have grown by a digit since the table was sized; nothing to click is shown.
    void presentingShowsEveryFigureBesideTheBars_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x800 projector") << QSize(1280, 304);
        QTest::newRow("1024x768 projector") << QSize(1024, 292);
    }
    void presentingShowsEveryFigureBesideTheBars()
    {
        QFETCH(QSize, size);
        Theme::instance().setFontScale(1.6);
        PlayerController c;
        QVERIFY(open(c));
        LatencyDock dock(c);
        // The seed's story: 40 µs sends, then 1.8 ms ones once the collector runs in them.
        auto run = std::make_shared<LatencyRun>();
        run->tasks = {{"main", 0, 0, false}};
        run->user_names = {"root"};
        for (std::uint64_t i = 0; i < 100; ++i)
            run->samples.push_back(
                call(i < 50 ? 40'410 : 1'826'445, i + 1, i + 1, 0, i % 2 ? CallKind::no_fd : CallKind::with_unix_fds));
        QVERIFY(c.totalSteps() > 100);
        dock.setRun(run);
        dock.resize(size);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        dock.setPresentation(true);
        QVERIFY(dock.tabs()->tabBar()->isHidden());
        QVERIFY(!dock.callsView()->isVisible());
        QTableView *t = dock.percentileView();
        // Sized for the first calls' figures, then for the end's (three digits longer).
        c.seek(40);
        dock.refresh();
        QCoreApplication::processEvents();
        QCOMPARE(t->model()->columnCount(), 3);
        const int early = t->horizontalHeader()->length();
        c.seek(c.totalSteps());
        dock.refresh();
        QCoreApplication::processEvents();
        QVERIFY2(t->horizontalHeader()->length() > early, "the figures did not grow");
        QCOMPARE(t->model()->columnCount(), 3);
        int rows = 0;
        const QString out = figureOutOfView(t, &rows);
        QVERIFY2(out.isEmpty(), qPrintable(out));
        QCOMPARE(rows, 4); // p50, p90, p99, max
        // Beside the bars, not under them.
        const QWidget *bars = dock.histograms().front();
        QVERIFY(bars->isVisible());
        QVERIFY(bars->mapTo(&dock, QPoint(0, 0)).x() < t->mapTo(&dock, QPoint(0, 0)).x());
        dock.setPresentation(false);
        QVERIFY(!dock.tabs()->tabBar()->isHidden());
        QVERIFY(dock.callsView()->isVisible());
    }

    void exportMatchesEngine()
    {
        PlayerController c;
        QVERIFY(open(c));
        LatencyDock dock(c);
        auto run = beforeSeries();
        for (std::size_t i = 0; i < run->samples.size(); ++i)
            run->samples[i].first_step = run->samples[i].last_step = 1;
        dock.setRun(run);
        c.seek(c.totalSteps());
        dock.refresh();
        const Log2Histogram all = histogramOf(*run);
        QCOMPARE(dock.exportText(ExportFormat::funclatency), QString::fromStdString(funclatency_text(all)));
        QVERIFY(dock.exportText(ExportFormat::funclatency)
                    .contains(QLatin1String(
                        "   1048576 -> 2097151    : 3881     |****************************************|")));
        QVERIFY(dock.exportText(ExportFormat::funclatency)
                    .contains(QLatin1String("avg = 1825567 nsecs, total: 7477526027 nsecs, count: 4096")));
        QCOMPARE(dock.exportText(ExportFormat::csv), QString::fromStdString(histogram_csv(all)));
        QCOMPARE(dock.exportText(ExportFormat::json), QString::fromStdString(histogram_json(all)));

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("latency.txt"));
        QVERIFY(dock.exportToFile(path, ExportFormat::funclatency));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()), dock.exportText(ExportFormat::funclatency));
        QString error;
        QVERIFY(!dock.exportToFile(dir.filePath(QStringLiteral("no/such/dir/x.csv")), ExportFormat::csv, &error));
        QVERIFY(!error.isEmpty());

        // A group selected in the table is exported with bcc's section line.
        // The view shows the table transposed: a column per group.
        dock.percentileView()->setCurrentIndex(dock.percentileView()->model()->index(0, 1));
        const SampleGroup &g = dock.live().groups()[0];
        QCOMPARE(dock.exportText(ExportFormat::funclatency),
                 QString::fromStdString(funclatency_text(g.histogram, TimeUnit::ns, "call kind = " + g.name)));
        // In microseconds, as funclatency -u prints it.
        dock.percentileView()->setCurrentIndex(dock.percentileView()->model()->index(0, 0));
        dock.setUnit(TimeUnit::us);
        QCOMPARE(dock.exportText(ExportFormat::funclatency),
                 QString::fromStdString(funclatency_text(all, TimeUnit::us)));
    }

    void barClickListsCallsAndDoubleClickSeeks()
    {
        PlayerController c;
        QVERIFY(open(c));
        LatencyDock dock(c);
        dock.resize(1200, 700);
        auto run = std::make_shared<LatencyRun>();
        run->tasks = {{"main", 0, 0, false}};
        run->samples = {call(1'500'000, 3, 6), call(400, 7, 8), call(1'700'000, 9, 11), call(3'000'000, 12, 14)};
        dock.setRun(run);
        c.seek(c.totalSteps());
        dock.refresh();
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        HistogramWidget *w = dock.histograms().value(0);
        QVERIFY(w);
        const int row = 21 - w->rows().front().bucket; // 1048576 -> 2097151
        QTest::mouseClick(w, Qt::LeftButton, {}, w->rowRect(row).center());
        QCOMPARE(dock.calls()->samples(), (std::vector<std::size_t>{0, 2}));
        QCOMPARE(dock.calls()->index(1, BucketCallsModel::DurationColumn).data().toString(),
                 QStringLiteral("1,700,000"));
        QCOMPARE(dock.calls()->index(1, BucketCallsModel::TaskColumn).data().toString(), QStringLiteral("main"));
        QCOMPARE(dock.calls()->index(1, BucketCallsModel::LineColumn).data().toInt(), 4);
        QCOMPARE(w->selectedBucket(), 21);
        const QModelIndex second = dock.calls()->index(1, 0);
        // QTest::mouseDClick does not make the view emit doubleClicked here (offscreen, Qt 6.4).
        emit dock.callsView()->doubleClicked(second);
        QCOMPARE(c.position(), 9u); // the call's first step
    }

    void selectCallAtFromTimeline()
    {
        PlayerController c;
        QVERIFY(open(c));
        MainWindow window(c);
        auto *dock = window.findChild<LatencyDock *>(QStringLiteral("latencyDock"));
        QVERIFY(dock);
        QVERIFY(waitIndex(c));
        auto run = std::make_shared<LatencyRun>();
        run->tasks = {{"main", 0, 0, false}, {"sender", 1, 1, false}};
        run->samples = {call(1'500'000, 3, 12, 1), call(400, 4, 5, 0), call(900, 14, 15, 1)};
        dock->setRun(run);
        c.seek(2);
        dock->refresh();
        // The timeline's wait marker at step 6 of task 1: that call has not returned yet, so the
        // player goes to where it has, and the call is listed and selected.
        emit window.timeline().waitMarkerClicked(6, 1);
        QCOMPARE(c.position(), 12u);
        QTRY_COMPARE(dock->selectedCall(), std::optional<std::size_t>(0));
        QCOMPARE(dock->tabs()->currentIndex(), 0);
        QVERIFY(!dock->selectCallAt(6, 7)); // no such task
        QVERIFY(dock->selectCallAt(4, 0));
        QCOMPARE(dock->selectedCall(), std::optional<std::size_t>(1));
        QCOMPARE(c.position(), 12u); // already returned: the player stays
    }

    void timelineMarkers()
    {
        // Collections are shaded from gc_begin to gc_end; wait markers come from gc_wait/wait_end
        // (modelled once senders can wait; then a click on one asks for its call).
        PlayerController c;
        QVERIFY(open(c));
        TimelineWidget t(c);
        t.resize(1000, 40);
        QVERIFY(!t.collectionMarkers().empty());
        for (const TimelineWidget::Marker &m : t.collectionMarkers()) {
            QVERIFY(m.first <= m.last);
            QVERIFY(m.last <= c.totalSteps());
        }
        const auto &gc = c.collectionSteps();
        QCOMPARE(t.collectionMarkers().size(), gc.size());
        QCOMPARE(t.collectionMarkers().front().first, gc.front());
        std::size_t waits = 0, ends = 0;
        for (const Event &e : c.timeline()) {
            waits += e.kind == EventKind::gc_wait;
            ends += e.kind == EventKind::wait_end;
        }
        QVERIFY(t.waitMarkers().size() <= waits);
        QCOMPARE(t.waitMarkerAt(QPoint(500, 5)), -1); // above the lane
        if (t.waitMarkers().empty())
            return;
        t.show();
        QSignalSpy clicked(&t, &TimelineWidget::waitMarkerClicked);
        const QRect r = t.waitMarkerRect(0);
        QCOMPARE(t.waitMarkerAt(r.center()), 0);
        QTest::mouseClick(&t, Qt::LeftButton, {}, r.center());
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked[0][0].toULongLong(), t.waitMarkers()[0].first);
        Q_UNUSED(ends);
    }

    void timelineMarkerPairing()
    {
        auto ev = [](std::uint64_t step, EventKind kind, std::uint16_t task, std::uint32_t a = npos,
                     std::int64_t after = 0) {
            Event e;
            e.step = step;
            e.kind = kind;
            e.task = task;
            e.a = a;
            e.after = after;
            return e;
        };
        const auto gc = static_cast<std::int64_t>(WaitFor::gc);
        const std::vector<Event> events{// Task 1 waits while the kworker (2) collects, and wakes after it.
                                        ev(10, EventKind::gc_wait, 1), ev(11, EventKind::gc_begin, 2, 1),
                                        ev(20, EventKind::gc_end, 2, 1), ev(22, EventKind::wait_end, 1, npos, gc),
                                        // Task 0 runs the queued collection itself (flush_work): no wait_end.
                                        ev(30, EventKind::gc_wait, 0), ev(31, EventKind::gc_begin, 0, 2),
                                        ev(40, EventKind::gc_end, 0, 2), ev(41, EventKind::stmt_end, 0),
                                        // Later, task 0 sleeps on a receive: that is not a wait for the collector.
                                        ev(50, EventKind::wait_end, 0, npos, static_cast<std::int64_t>(WaitFor::data)),
                                        // A wait and a collection still open at the end of the run.
                                        ev(60, EventKind::gc_begin, 2, 3), ev(61, EventKind::gc_wait, 3)};
        std::vector<TimelineWidget::Marker> collections, waits;
        RecordedEvents recorded;
        for (const Event &e : events)
            recorded.push_back(e);
        inflight::run_spans(recorded, 100, collections, waits);
        QCOMPARE(collections.size(), 3u);
        QCOMPARE(collections[0].first, 11u);
        QCOMPARE(collections[0].last, 20u);
        QCOMPARE(collections[0].task, 2);
        QCOMPARE(collections[1].last, 40u);
        QCOMPARE(collections[2].last, 100u);
        QCOMPARE(waits.size(), 3u);
        QCOMPARE(waits[0].first, 10u);
        QCOMPARE(waits[0].last, 22u);
        QCOMPARE(waits[0].task, 1);
        QCOMPARE(waits[1].first, 30u);
        QCOMPARE(waits[1].last, 40u); // its collection's end, not the later receive
        QCOMPARE(waits[2].last, 100u);
    }

    // With several kinds of call the headline is the kind whose averages differ most (seed
    // 000: no-fd sends wait 4,454x longer, while p99 over all calls says 1.00x).
    void abHeadlineLeadsWithTheLargestRatioByKind()
    {
        auto run = [](std::uint64_t no_fd_ns, std::uint64_t with_fds_ns) {
            auto r = std::make_shared<LatencyRun>();
            r->tasks = {{"main", 0, 0, false}};
            for (std::uint64_t i = 0; i < 100; ++i)
                r->samples.push_back(call(with_fds_ns, 2 * i + 1, 2 * i + 1, 0, CallKind::with_fds));
            for (std::uint64_t i = 0; i < 10; ++i)
                r->samples.push_back(call(no_fd_ns, 2 * i + 2, 2 * i + 2, 0, CallKind::no_fd));
            return r;
        };
        AbComparison ab;
        ab.setRuns(run(4'000'000, 2'000), run(1'000, 1'000), QStringLiteral("A"), QStringLiteral("B"));
        const QStringList lines = ab.ratioText().split(QLatin1Char('\n'));
        QVERIFY2(lines.size() == 3, qPrintable(ab.ratioText()));
        QVERIFY2(lines[0].startsWith(QStringLiteral("A / B, no fd: average 4,000×")), qPrintable(lines[0]));
        QVERIFY2(lines[1].startsWith(QStringLiteral("all calls:")), qPrintable(lines[1]));
        QVERIFY2(lines[2].contains(QStringLiteral("with fds 2.00×")), qPrintable(lines[2]));
    }

    void abRatioFromTwoKnownRuns()
    {
        AbComparison ab;
        ab.resize(1400, 600);
        ab.setRuns(beforeSeries(), afterSeries(), QStringLiteral("classic collector"),
                   QStringLiteral("async collector"));
        QCOMPARE(ab.histogramA().count(), 4096u);
        QCOMPARE(ab.histogramB().count(), 4096u);
        const LatencyRatio r = ab.ratio();
        QVERIFY(r.avg && r.p99);
        QVERIFY(qAbs(*r.avg - 7477526027.0 / 1680510.0) < 1e-6); // 4449.6x
        QCOMPARE(*r.p99, 3'000'000.0 / 407.0);                   // 7371.0x
        QVERIFY(ab.ratioText().contains(QStringLiteral("4,450×")));
        QVERIFY(ab.ratioText().contains(QStringLiteral("7,371×")));
        // Both sides on the same rows and scale.
        QCOMPARE(ab.widgetA()->rows().size(), ab.widgetB()->rows().size());
        QCOMPARE(ab.widgetA()->rows().front().bucket, ab.widgetB()->rows().front().bucket);
        QVERIFY(ab.widgetA()->title().contains(QStringLiteral("classic collector")));
        // Only one kind of call.
        ab.setKindFilter(CallKind::with_unix_fds);
        QCOMPARE(ab.histogramA().count(), 1366u); // every third of the before-series calls
        QCOMPARE(ab.histogramB().count(), 0u);
        QVERIFY(!ab.ratio().avg);
        ab.setKindFilter(std::nullopt);
        QCOMPARE(ab.histogramB().count(), 4096u);
    }

    void abRunsTheSceneHeadless()
    {
        // Two variants: by default A is the earlier kernel (classic), B the later (async).
        const char *scene = "set gc graph\n"
                            "variant fixed {\n  set gc async\n}\n"
                            "variant old {\n  set gc classic\n}\n"
                            "socketpair a b dgram\n"
                            "repeat 20 {\n  send a fds=b\n}\n";
        PlayerController c;
        QVERIFY(open(c, scene));
        LatencyDock dock(c);
        AbComparison *ab = dock.comparison();
        QCOMPARE(ab->choiceA()->count(), 5); // three collectors, two variants
        QCOMPARE(ab->choiceA()->currentText(), QStringLiteral("variant old"));
        QCOMPARE(ab->choiceB()->currentText(), QStringLiteral("variant fixed"));
        QSignalSpy done(ab, &AbComparison::finished);
        ab->run();
        QVERIFY(ab->isRunning());
        QVERIFY(done.wait(20000));
        QVERIFY(!ab->isRunning());
        // Whatever the model times, both runs made the same 20 sends.
        QCOMPARE(ab->histogramA().count(), 20u);
        QCOMPARE(ab->histogramB().count(), 20u);
        QVERIFY(ab->widgetA()->title().contains(QStringLiteral("variant old")));

        // A scene without variants offers the collectors, classic against async.
        PlayerController plain;
        QVERIFY(open(plain));
        LatencyDock dock2(plain);
        QCOMPARE(dock2.comparison()->choiceA()->count(), 3);
        QCOMPARE(dock2.comparison()->choiceA()->currentText(), QStringLiteral("classic collector"));
        QCOMPARE(dock2.comparison()->choiceB()->currentText(), QStringLiteral("async collector"));
    }
};

QTEST_MAIN(TestLatencyPanel)
#include "test_latency_panel.moc"
