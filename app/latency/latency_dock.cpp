// SPDX-License-Identifier: GPL-3.0-or-later
#include "latency_dock.h"

#include "ab_comparison.h"
#include "bucket_calls_model.h"
#include "duration_text.h"
#include "histogram_widget.h"
#include "percentile_model.h"

#include "../player_controller.h"
#include "../save_file.h"
#include "../theme.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QTransposeProxyModel>
#include <QVBoxLayout>

using namespace inflight;

namespace latency {

namespace {

constexpr int kRefreshMs = 33;        // ~30 Hz: smooth to the eye, a fraction of a frame's work
constexpr double kTablePoints = 11.0; // the tables' font (PercentileModel, BucketCallsModel)
constexpr double kLabelPoints = 11.5;

QString grouped(std::uint64_t n)
{
    QLocale c = QLocale::c();
    c.setNumberOptions(QLocale::DefaultNumberOptions);
    return c.toString(static_cast<qulonglong>(n));
}

QString qs(std::string_view v) { return QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size())); }

QTableView *makeTable(QAbstractItemModel *model, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setWordWrap(false);
    view->setShowGrid(false);
    view->setAlternatingRowColors(true);
    view->verticalHeader()->hide();
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setHighlightSections(false);
    return view;
}

} // namespace

LatencyDock::LatencyDock(PlayerController &controller, QWidget *parent)
    : QDockWidget(tr("Latency"), parent), controller_(controller)
{
    setObjectName(QStringLiteral("latencyDock"));
    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setSpacing(4);
    tabs_ = new QTabWidget(body);
    tabs_->setDocumentMode(true);

    // The controls sit in the tab bar's row: the dock shares the bottom area with the event log
    // and every row of height it spends is one less histogram row.
    auto *controls = new QWidget(tabs_);
    auto *bar = new QHBoxLayout(controls);
    bar->setContentsMargins(0, 0, 0, 0);
    group_by_ = new QComboBox(body);
    group_by_->setObjectName(QStringLiteral("latencyGroupBy"));
    group_by_->setToolTip(tr("One histogram per task, per user, or per kind of call (no fd, fds, AF_UNIX fds, "
                             "autobind: the kernel makes them wait for different things)."));
    for (GroupBy by : {GroupBy::call_kind, GroupBy::task, GroupBy::user})
        group_by_->addItem(tr("by %1").arg(qs(group_by_name(by))), static_cast<int>(by));
    unit_box_ = new QComboBox(body);
    unit_box_->setObjectName(QStringLiteral("latencyUnit"));
    unit_box_->setToolTip(tr("Bucket the durations in nanoseconds, microseconds or milliseconds (funclatency, "
                             "-u, -m)."));
    for (TimeUnit u : {TimeUnit::ns, TimeUnit::us, TimeUnit::ms})
        unit_box_->addItem(qs(unit_label(u)), static_cast<int>(u));
    count_ = new QLabel(body);
    count_->setObjectName(QStringLiteral("latencyCount"));
    // A long count is cut (its tooltip has it whole), not a reason to widen the dock.
    count_->setMinimumWidth(1);
    count_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    export_ = new QToolButton(body);
    export_->setObjectName(QStringLiteral("latencyExport"));
    export_->setText(tr("Export"));
    export_->setPopupMode(QToolButton::InstantPopup);
    export_->setToolTip(tr("Write the histogram of the group selected in the table (or of all calls)."));
    auto *menu = new QMenu(export_);
    menu->addAction(tr("funclatency text…"), this, [this] { chooseExportFile(ExportFormat::funclatency); });
    menu->addAction(tr("CSV…"), this, [this] { chooseExportFile(ExportFormat::csv); });
    menu->addAction(tr("JSON…"), this, [this] { chooseExportFile(ExportFormat::json); });
    export_->setMenu(menu);
    bar->addWidget(count_);
    bar->addSpacing(8);
    bar->addWidget(group_by_);
    bar->addWidget(unit_box_);
    bar->addWidget(export_);
    tabs_->setCornerWidget(controls, Qt::TopRightCorner);

    // Each pane may be squeezed to a few rows (explicit minimums: a table's own is ~70 px); the
    // splitters let the user give one more room.
    const int min_pane = 36;
    split_ = new QSplitter(Qt::Horizontal, tabs_);
    split_->setChildrenCollapsible(false);
    histogram_area_ = new QScrollArea(split_);
    histogram_area_->setFrameShape(QFrame::NoFrame);
    histogram_area_->setMinimumHeight(min_pane);
    histogram_area_->setWidgetResizable(true);
    auto *list = new QWidget(histogram_area_);
    histogram_layout_ = new QVBoxLayout(list);
    histogram_layout_->setContentsMargins(0, 0, 0, 0);
    histogram_layout_->setSpacing(8);
    histogram_layout_->addStretch(1);
    histogram_area_->setWidget(list);

    side_ = new QSplitter(Qt::Vertical, split_);
    QSplitter *side = side_;
    side->setChildrenCollapsible(false);
    percentiles_ = new PercentileModel(this);
    // A column per group and a row per figure: three groups fit the half of a dock under the
    // graph at 1080p with every figure in view, where seven figure columns did not.
    auto *transposed = new QTransposeProxyModel(this);
    transposed->setSourceModel(percentiles_);
    percentile_view_ = makeTable(transposed, side);
    percentile_view_->setSelectionBehavior(QAbstractItemView::SelectColumns);
    percentile_view_->verticalHeader()->show();
    hideRows();
    connect(transposed, &QAbstractItemModel::modelReset, this, &LatencyDock::hideRows);
    percentile_view_->setObjectName(QStringLiteral("latencyPercentiles"));
    percentile_view_->setMinimumHeight(min_pane);
    percentile_view_->setToolTip(tr("Nearest-rank percentiles of the calls returned so far. Select a column to "
                                    "export that group."));
    auto *calls_box = calls_box_ = new QWidget(side);
    auto *calls_layout = new QVBoxLayout(calls_box);
    calls_layout->setContentsMargins(0, 0, 0, 0);
    calls_title_ = new QLabel(tr("Click a bar to list its calls."), calls_box);
    calls_title_->setMinimumWidth(1); // a long title is cut, not a reason to widen the dock
    calls_ = new BucketCallsModel(this);
    calls_view_ = makeTable(calls_, calls_box);
    calls_view_->setObjectName(QStringLiteral("latencyCalls"));
    calls_view_->setMinimumHeight(min_pane);
    calls_layout->addWidget(calls_title_);
    calls_layout->addWidget(calls_view_, 1);
    side->addWidget(percentile_view_);
    side->addWidget(calls_box);
    side->setStretchFactor(0, 2);
    side->setStretchFactor(1, 3);
    split_->addWidget(histogram_area_);
    split_->addWidget(side);
    split_->setStretchFactor(0, 1);
    split_->setStretchFactor(1, 1);
    tabs_->addTab(split_, tr("Live"));
    comparison_ = new AbComparison(tabs_);
    // A short tab title: the dock shares the row under the graph, 1280 px windows included.
    tabs_->addTab(comparison_, tr("A/B"));
    tabs_->setTabToolTip(tabs_->count() - 1, tr("A/B comparison of the scene's variants"));
    layout->addWidget(tabs_, 1);
    // An explicit minimum, below what the controls row asks for: beside the event log under
    // the graph of a 1280 px window, the row's end is cut rather than the side docks squeezed.
    body->setMinimumWidth(260);
    setWidget(body);

    throttle_.setSingleShot(true);
    throttle_.setInterval(kRefreshMs);
    connect(&throttle_, &QTimer::timeout, this, &LatencyDock::refresh);
    connect(&controller_, &PlayerController::positionChanged, this, &LatencyDock::scheduleRefresh);
    connect(&controller_, &PlayerController::indexReadyChanged, this, &LatencyDock::takeControllerRun);
    connect(&controller_, &PlayerController::sceneLoaded, this, [this] {
        comparison_->setScene(controller_.hasScene() ? std::make_shared<const Scene>(controller_.scene()) : nullptr);
    });
    connect(group_by_, &QComboBox::currentIndexChanged, this,
            [this] { setGroupBy(static_cast<GroupBy>(group_by_->currentData().toInt())); });
    connect(unit_box_, &QComboBox::currentIndexChanged, this,
            [this] { setUnit(static_cast<TimeUnit>(unit_box_->currentData().toInt())); });
    connect(calls_view_, &QTableView::doubleClicked, this, [this](const QModelIndex &i) {
        const QVariant step = i.data(BucketCallsModel::FirstStepRole);
        if (step.isValid())
            controller_.seek(step.toULongLong());
    });
    connect(&Theme::instance(), &Theme::changed, this, &LatencyDock::applyTheme);
    applyTheme();
    if (controller_.hasScene())
        comparison_->setScene(std::make_shared<const Scene>(controller_.scene()));
    takeControllerRun();
}

LatencyDock::~LatencyDock() = default;

void LatencyDock::takeControllerRun() { setRun(controller_.indexReady() ? controller_.latencyRun() : nullptr); }

void LatencyDock::setRun(std::shared_ptr<const LatencyRun> run)
{
    run_ = run ? std::move(run) : std::make_shared<LatencyRun>();
    live_.setRun(run_);
    calls_->clear();
    calls_bucket_ = -1;
    calls_title_->setText(tr("Click a bar to list its calls."));
    pending_select_.reset();
    applyPosition(true);
}

void LatencyDock::setGroupBy(GroupBy by)
{
    if (group_by_->currentData().toInt() != static_cast<int>(by)) {
        const QSignalBlocker block(group_by_);
        group_by_->setCurrentIndex(group_by_->findData(static_cast<int>(by)));
    }
    if (by == live_.groupBy())
        return;
    live_.setGroupBy(by);
    calls_bucket_ = -1;
    calls_->clear();
    calls_title_->setText(tr("Click a bar to list its calls."));
    applyPosition(true);
}

void LatencyDock::setUnit(TimeUnit unit)
{
    if (unit_box_->currentData().toInt() != static_cast<int>(unit)) {
        const QSignalBlocker block(unit_box_);
        unit_box_->setCurrentIndex(unit_box_->findData(static_cast<int>(unit)));
    }
    comparison_->setUnit(unit);
    if (unit == live_.unit())
        return;
    live_.setUnit(unit);
    // The listed calls stay; their bucket is re-drawn from the new unit's rows.
    calls_bucket_ = -1;
    calls_->clear();
    calls_title_->setText(tr("Click a bar to list its calls."));
    for (HistogramWidget *w : histograms_)
        w->setSelectedBucket(-1);
    applyPosition(true);
}

void LatencyDock::scheduleRefresh()
{
    if (!throttle_.isActive())
        throttle_.start();
}

void LatencyDock::refresh()
{
    throttle_.stop();
    applyPosition(false);
}

void LatencyDock::applyPosition(bool force)
{
    ++refreshes_;
    const LiveLatency::Change change = live_.setPosition(controller_.hasScene() ? controller_.position() : 0);
    const auto &groups = live_.groups();
    if (change == LiveLatency::Change::groups || histograms_.size() != static_cast<qsizetype>(groups.size()))
        rebuildHistogramWidgets();
    else if (change == LiveLatency::Change::none && !force)
        return;
    for (std::size_t i = 0; i < groups.size(); ++i) {
        HistogramWidget *w = histograms_[static_cast<qsizetype>(i)];
        w->setHistogram(groups[i].histogram);
        w->setTitle(QStringLiteral("%1 (%2)").arg(QString::fromStdString(groups[i].name),
                                                  callsText(groups[i].histogram.count())));
    }
    percentiles_->setHistograms(live_.all(), groups, live_.unit());
    arrange(false); // a new group's column may no longer fit beside the histograms
    updateCount();
    if (pending_select_ && live_.isVisible(*pending_select_)) {
        const std::size_t s = *pending_select_;
        pending_select_.reset();
        selectCall(s);
    }
}

void LatencyDock::rebuildHistogramWidgets()
{
    for (HistogramWidget *w : histograms_) {
        histogram_layout_->removeWidget(w);
        w->hide();
        w->deleteLater(); // it may be the one whose click led here
    }
    histograms_.clear();
    const auto &groups = live_.groups();
    for (const auto &group : groups) {
        auto *w = new HistogramWidget(histogram_area_->widget());
        const QString name = QString::fromStdString(group.name);
        w->setObjectName(QStringLiteral("latencyHistogram:") + name);
        w->setUnit(live_.unit());
        if (name == calls_group_ && calls_bucket_ >= 0)
            w->setSelectedBucket(calls_bucket_);
        connect(w, &HistogramWidget::bucketClicked, this,
                [this, name](int bucket) { showBucket(groupIndex(name), bucket); });
        histogram_layout_->insertWidget(histogram_layout_->count() - 1, w); // above the stretch
        histograms_.push_back(w);
    }
}

int LatencyDock::groupIndex(const QString &name) const
{
    const auto &groups = live_.groups();
    for (std::size_t i = 0; i < groups.size(); ++i)
        if (QString::fromStdString(groups[i].name) == name)
            return static_cast<int>(i);
    return -1;
}

void LatencyDock::updateCount()
{
    if (!controller_.indexReady() && run_->samples.empty()) {
        count_->setText(tr("indexing the run…"));
        return;
    }
    if (run_->samples.empty()) {
        count_->setText(tr("no timed calls in this run"));
        return;
    }
    count_->setText(tr("%1 of %2 calls returned by step %3")
                        .arg(grouped(live_.visibleCount()), grouped(run_->samples.size()), grouped(live_.position())));
}

void LatencyDock::showBucket(int group, int bucket)
{
    const auto &groups = live_.groups();
    if (group >= static_cast<int>(groups.size()) || bucket < 0 || bucket >= Log2Histogram::kBuckets)
        return;
    calls_group_ = group < 0 ? QString() : QString::fromStdString(groups[static_cast<std::size_t>(group)].name);
    calls_bucket_ = bucket;
    const std::uint64_t lo = Log2Histogram::bucket_low(bucket), hi = Log2Histogram::bucket_high(bucket);
    std::vector<std::size_t> calls = live_.callsIn(group, lo, hi);
    const int n = static_cast<int>(calls.size());
    calls_->setCalls(run_, std::move(calls), live_.unit());
    calls_title_->setText(tr("%1 of %2 took %3 %4. Double-click one to go to it.")
                              .arg(callsText(static_cast<std::uint64_t>(n)), group < 0 ? tr("all calls") : calls_group_,
                                   HistogramWidget::rangeText(bucket), unitSuffix(live_.unit())));
    for (qsizetype i = 0; i < histograms_.size(); ++i)
        histograms_[i]->setSelectedBucket(i == group ? bucket : -1);
}

std::optional<std::size_t> LatencyDock::selectedCall() const
{
    const QModelIndex i = calls_view_->currentIndex();
    if (!i.isValid())
        return std::nullopt;
    return static_cast<std::size_t>(i.data(BucketCallsModel::SampleRole).toULongLong());
}

void LatencyDock::selectCall(std::size_t sample)
{
    const LatencySample &s = live_.sample(sample);
    showBucket(live_.groupOf(sample), Log2Histogram::bucket_of(s.duration_ns / unit_divisor(live_.unit())));
    const int row = calls_->rowOf(sample);
    if (row < 0)
        return;
    calls_view_->selectRow(row);
    calls_view_->setCurrentIndex(calls_->index(row, 0));
    calls_view_->scrollTo(calls_->index(row, 0), QAbstractItemView::PositionAtCenter);
}

bool LatencyDock::selectCallAt(quint64 step, int task)
{
    if (task < 0)
        return false;
    const std::optional<std::size_t> sample = live_.callAt(step, static_cast<std::uint32_t>(task));
    if (!sample)
        return false;
    show();
    raise();
    tabs_->setCurrentIndex(0);
    if (!live_.isVisible(*sample)) {
        // The call has not returned at this step: go to where it has, so it is in the histogram.
        pending_select_ = *sample;
        controller_.seek(live_.sample(*sample).last_step);
        refresh(); // a long seek finishes later; pending_select_ is applied then
        return true;
    }
    selectCall(*sample);
    return true;
}

int LatencyDock::exportGroup() const
{
    const QModelIndex i = percentile_view_->currentIndex();
    return i.isValid() ? i.data(PercentileModel::GroupRole).toInt() : -1;
}

const Log2Histogram &LatencyDock::exportHistogram() const
{
    const int g = exportGroup();
    const auto &groups = live_.groups();
    return g >= 0 && static_cast<std::size_t>(g) < groups.size() ? groups[static_cast<std::size_t>(g)].histogram
                                                                 : live_.all();
}

QString LatencyDock::exportText(ExportFormat format) const
{
    const Log2Histogram &h = exportHistogram();
    switch (format) {
    case ExportFormat::funclatency: {
        const int g = exportGroup();
        std::string label;
        if (g >= 0 && static_cast<std::size_t>(g) < live_.groups().size()) // bcc's "Function = ..." line
            label =
                std::string(group_by_name(live_.groupBy())) + " = " + live_.groups()[static_cast<std::size_t>(g)].name;
        return QString::fromStdString(funclatency_text(h, h.unit(), label));
    }
    case ExportFormat::csv: return QString::fromStdString(histogram_csv(h));
    case ExportFormat::json: return QString::fromStdString(histogram_json(h));
    }
    return {};
}

bool LatencyDock::exportToFile(const QString &path, ExportFormat format, QString *error) const
{
    if (const auto failed = saveFile(path, exportText(format).toUtf8(), "export")) {
        if (error)
            *error = *failed;
        return false;
    }
    return true;
}

void LatencyDock::chooseExportFile(ExportFormat format)
{
    QString suffix, filter;
    switch (format) {
    case ExportFormat::funclatency:
        suffix = QStringLiteral("txt");
        filter = tr("funclatency text (*.txt)");
        break;
    case ExportFormat::csv:
        suffix = QStringLiteral("csv");
        filter = tr("CSV (*.csv)");
        break;
    case ExportFormat::json:
        suffix = QStringLiteral("json");
        filter = tr("JSON (*.json)");
        break;
    }
    QString base = QStringLiteral("latency");
    if (!controller_.filePath().isEmpty())
        base = QFileInfo(controller_.filePath()).completeBaseName() + QStringLiteral("-latency");
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export latency histogram"), base + QLatin1Char('.') + suffix, filter);
    if (path.isEmpty())
        return;
    QString error;
    if (!exportToFile(path, format, &error))
        QMessageBox::warning(this, tr("Export latency histogram"), error);
}

void LatencyDock::applyTheme()
{
    const Theme &t = Theme::instance();
    const int row_h = QFontMetrics(t.monoFont(kTablePoints)).height() + static_cast<int>(6 * t.fontScale());
    for (QTableView *v : {percentile_view_, calls_view_})
        v->verticalHeader()->setDefaultSectionSize(row_h);
    // Enough for the bars' labels; more would force the bottom row wider than a 1280 px window
    // leaves under the graph.
    histogram_area_->setMinimumWidth(static_cast<int>(240 * t.fontScale()));
    count_->setFont(t.font(kLabelPoints));
    calls_title_->setFont(t.font(kLabelPoints));
    arrange(true); // the tables' widths follow the font
}

void LatencyDock::resizeEvent(QResizeEvent *e)
{
    QDockWidget::resizeEvent(e);
    arrange(false);
}

int LatencyDock::percentileTableWidth() const
{
    const QHeaderView *h = percentile_view_->horizontalHeader();
    const QAbstractItemView *view = percentile_view_; // sizeHintForColumn is public here
    // A few pixels of slack: a column one pixel short brings a horizontal scroll bar, which
    // then hides the last row.
    int w =
        std::max(percentile_view_->verticalHeader()->sizeHint().width(), percentile_view_->verticalHeader()->width()) +
        2 * percentile_view_->frameWidth() + 8;
    for (int c = 0; c < h->count(); ++c)
        w += std::max(h->sectionSizeHint(c), view->sizeHintForColumn(c));
    return w;
}

void LatencyDock::setPresentation(bool on)
{
    if (on == presenting_)
        return;
    presenting_ = on;
    if (on)
        tabs_->setCurrentIndex(0);
    tabs_->tabBar()->setVisible(!on);
    tabs_->cornerWidget(Qt::TopRightCorner)->setVisible(!on);
    calls_box_->setVisible(!on);
    hideRows();
    arrange(true);
}

void LatencyDock::hideRows()
{
    percentile_view_->setRowHidden(PercentileModel::GroupColumn, true); // its column's header
    for (int row : {int(PercentileModel::CountColumn), int(PercentileModel::AvgColumn)})
        percentile_view_->setRowHidden(row, presenting_); // a histogram's title has the count
}

int LatencyDock::percentileTableHeight() const
{
    int rows = 0; // the group's row is the header
    for (int r = 0; r < PercentileModel::ColumnCount; ++r)
        rows += percentile_view_->isRowHidden(r) ? 0 : 1;
    return percentile_view_->horizontalHeader()->sizeHint().height() +
           rows * percentile_view_->verticalHeader()->defaultSectionSize() + 2 * percentile_view_->frameWidth();
}

LatencyDock::Arrangement LatencyDock::chooseArrangement() const
{
    if (width() < height())
        return Arrangement::stacked;
    // A class reads the figures beside the bars: under a presentation's graph the dock is wide
    // and low, and the bars shrink to what the table leaves them.
    if (presenting_)
        return percentileTableWidth() <= width() * 3 / 5 ? Arrangement::side_by_side : Arrangement::tables_below;
    // Side by side only when the histograms and every group's percentile column both fit;
    // otherwise the histograms take the dock's full width above the two tables (at 1080p the
    // dock under the graph is ~630 px: three group columns and the bars do not fit beside each other).
    const int histogram_w =
        histograms_.isEmpty() ? histogram_area_->minimumWidth() : histograms_.front()->sizeHint().width();
    const int handle = split_->handleWidth() + 16; // the splitter handle, the dock's margins
    return histogram_w + percentileTableWidth() + handle <= width() ? Arrangement::side_by_side
                                                                    : Arrangement::tables_below;
}

void LatencyDock::arrange(bool force)
{
    const Arrangement a = chooseArrangement();
    const int columns = percentile_view_->model()->columnCount();
    const int table_w = percentileTableWidth();
    // Sizes are given when the arrangement or the number of groups changes, or when figures
    // with more digits outgrow the table's room; in between, a splitter the user dragged keeps
    // its place.
    if (a == arrangement_ && columns == arranged_columns_ && table_w <= arranged_table_w_ && !force)
        return;
    arrangement_ = a;
    arranged_columns_ = columns;
    arranged_table_w_ = table_w;
    const int table_h = percentileTableHeight();
    // The dock's title, and unless presenting the tabs and the controls row: about 90 px.
    const int usable_h = std::max(1, height() - (presenting_ ? 40 : 90));
    switch (a) {
    case Arrangement::side_by_side: {
        split_->setOrientation(Qt::Horizontal);
        side_->setOrientation(Qt::Vertical);
        const int side_w = std::min(width() * (presenting_ ? 3 : 2) / 5, table_w + 4);
        split_->setSizes({width() - side_w, side_w});
        side_->setSizes({std::min(table_h, usable_h * 3 / 4), std::max(usable_h - table_h, usable_h / 4)});
        break;
    }
    case Arrangement::tables_below: {
        split_->setOrientation(Qt::Vertical);
        side_->setOrientation(Qt::Horizontal);
        const int tables_h = std::min(table_h + 4, usable_h * 3 / 5);
        split_->setSizes({usable_h - tables_h, tables_h});
        const int figures_w = std::min(table_w + 4, width() * 3 / 4);
        side_->setSizes({figures_w, std::max(width() - figures_w, width() / 4)});
        break;
    }
    case Arrangement::stacked:
    case Arrangement::none: {
        split_->setOrientation(Qt::Vertical);
        side_->setOrientation(Qt::Vertical);
        split_->setSizes({height() * 21 / 50, height() - height() * 21 / 50});
        const int side_h = height() / 2 - 90;
        if (side_h > 0)
            side_->setSizes({std::min(table_h, side_h * 3 / 4), std::max(side_h - table_h, side_h / 4)});
        break;
    }
    }
}

} // namespace latency
