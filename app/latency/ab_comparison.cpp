// SPDX-License-Identifier: GPL-3.0-or-later
#include "ab_comparison.h"

#include "duration_text.h"
#include "histogram_widget.h"

#include "../theme.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QStringList>
#include <QVBoxLayout>

#include <algorithm>

using namespace inflight;

namespace latency {

namespace {

constexpr double kRatioPoints = 15.0;

QString timesText(double r)
{
    QLocale grouped = QLocale::c();
    grouped.setNumberOptions(QLocale::DefaultNumberOptions);
    const int decimals = r >= 100 ? 0 : r >= 10 ? 1 : 2;
    return grouped.toString(r, 'f', decimals) + QStringLiteral("×");
}

} // namespace

AbComparison::AbComparison(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    auto *bar = new QHBoxLayout;
    a_box_ = new QComboBox(this);
    a_box_->setObjectName(QStringLiteral("abChoiceA"));
    a_box_->setToolTip(tr("Run A: the scene under this collector, or this variant of it."));
    b_box_ = new QComboBox(this);
    b_box_->setObjectName(QStringLiteral("abChoiceB"));
    b_box_->setToolTip(tr("Run B, compared with A."));
    kind_box_ = new QComboBox(this);
    kind_box_->setToolTip(tr("Compare only these calls."));
    kind_box_->addItem(tr("every call"), -1);
    for (CallKind k : {CallKind::no_fd, CallKind::with_fds, CallKind::with_unix_fds, CallKind::autobind})
        kind_box_->addItem(QString::fromLatin1(call_kind_name(k).data()), static_cast<int>(k));
    run_button_ = new QPushButton(tr("Run A and B"), this);
    run_button_->setObjectName(QStringLiteral("abRun"));
    run_button_->setToolTip(tr("Run the whole scene twice in the background, without recording it, and compare "
                               "the latencies of its calls."));
    status_ = new QLabel(this);
    bar->addWidget(new QLabel(tr("A:"), this));
    bar->addWidget(a_box_);
    bar->addWidget(new QLabel(tr("B:"), this));
    bar->addWidget(b_box_);
    bar->addWidget(kind_box_);
    bar->addWidget(run_button_);
    bar->addWidget(status_, 1);
    layout->addLayout(bar);

    ratio_ = new QLabel(this);
    ratio_->setObjectName(QStringLiteral("abRatio"));
    ratio_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    ratio_->setWordWrap(true);
    layout->addWidget(ratio_);

    auto *pair = new QWidget(this);
    auto *side = new QHBoxLayout(pair);
    side->setContentsMargins(0, 0, 0, 0);
    a_view_ = new HistogramWidget(pair);
    a_view_->setObjectName(QStringLiteral("abHistogramA"));
    b_view_ = new HistogramWidget(pair);
    b_view_->setObjectName(QStringLiteral("abHistogramB"));
    side->addWidget(a_view_, 1, Qt::AlignTop);
    side->addWidget(b_view_, 1, Qt::AlignTop);
    auto *scroll = new QScrollArea(this);
    scroll->setMinimumHeight(36); // squeezable, like the live tab's panes
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setWidget(pair);
    layout->addWidget(scroll, 1);

    connect(run_button_, &QPushButton::clicked, this, &AbComparison::run);
    connect(kind_box_, &QComboBox::currentIndexChanged, this, [this] {
        const int k = kind_box_->currentData().toInt();
        setKindFilter(k < 0 ? std::nullopt : std::optional<CallKind>(static_cast<CallKind>(k)));
    });
    auto apply_theme = [this] { ratio_->setFont(Theme::instance().font(kRatioPoints, true)); };
    connect(&Theme::instance(), &Theme::changed, this, apply_theme);
    apply_theme();
    rebuildHistograms();
}

AbComparison::~AbComparison() { cancel(); }

void AbComparison::cancel()
{
    // A result of a comparison since cancelled (new scene, new run) is dropped.
    a_jobs_.cancel();
    b_jobs_.cancel();
    pending_ = 0;
    run_button_->setEnabled(static_cast<bool>(scene_));
}

void AbComparison::setScene(std::shared_ptr<const Scene> scene)
{
    cancel();
    scene_ = std::move(scene);
    scenarios_ = scene_ ? scenariosOf(*scene_) : std::vector<Scenario>{};
    for (QComboBox *box : {a_box_, b_box_}) {
        const QSignalBlocker block(box);
        box->clear();
        for (std::size_t i = 0; i < scenarios_.size(); ++i)
            box->addItem(scenarios_[i].name, static_cast<int>(i));
    }
    // Default: before against after - the two earliest collectors (classic, async), or, when
    // the scene has variants, its two variants of the earliest eras (the first two on a tie).
    std::vector<int> order;
    for (std::size_t i = 0; i < scenarios_.size(); ++i)
        if (scenarios_[i].variant >= 0)
            order.push_back(static_cast<int>(i));
    auto era_of = [this](int i) {
        const Scenario &s = scenarios_[static_cast<std::size_t>(i)];
        return scene_->variants[static_cast<std::size_t>(s.variant)].settings.gc;
    };
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return era_of(x) < era_of(y); });
    if (order.size() < 2)
        order = {0, 1};
    a_box_->setCurrentIndex(order[0]);
    b_box_->setCurrentIndex(order[1]);
    run_button_->setEnabled(static_cast<bool>(scene_));
    status_->clear();
    setRuns(nullptr, nullptr);
}

void AbComparison::setUnit(TimeUnit unit)
{
    if (unit == unit_)
        return;
    unit_ = unit;
    rebuildHistograms();
}

void AbComparison::setKindFilter(std::optional<CallKind> kind)
{
    kind_ = kind;
    const int want = kind ? static_cast<int>(*kind) : -1;
    if (kind_box_->currentData().toInt() != want) {
        const QSignalBlocker block(kind_box_);
        kind_box_->setCurrentIndex(kind_box_->findData(want));
    }
    rebuildHistograms();
}

Scenario AbComparison::scenarioOf(QComboBox *box) const
{
    const int i = box->currentData().toInt();
    if (i < 0 || static_cast<std::size_t>(i) >= scenarios_.size())
        return {};
    return scenarios_[static_cast<std::size_t>(i)];
}

void AbComparison::run()
{
    cancel();
    if (!scene_)
        return;
    const Scenario a = scenarioOf(a_box_), b = scenarioOf(b_box_);
    pending_ = 2;
    run_button_->setEnabled(false);
    status_->setText(tr("running A and B…"));
    struct Results {
        std::shared_ptr<const LatencyRun> a, b;
        QString a_name, b_name;
    };
    auto results = std::make_shared<Results>(Results{nullptr, nullptr, a.name, b.name});
    auto launch = [&](const Scenario &scenario, bool is_a) {
        (is_a ? a_jobs_ : b_jobs_)
            .start([scene = scene_,
                    scenario](const JobControl &job) { return runHeadless(scene, scenario, &job.cancelFlag()); },
                   [this, is_a, results](std::shared_ptr<const LatencyRun> run) {
                       (is_a ? results->a : results->b) = std::move(run);
                       if (--pending_ > 0)
                           return;
                       run_button_->setEnabled(true);
                       status_->clear();
                       setRuns(results->a, results->b, results->a_name, results->b_name);
                       emit finished();
                   });
    };
    launch(a, true);
    launch(b, false);
}

void AbComparison::setRuns(std::shared_ptr<const LatencyRun> a, std::shared_ptr<const LatencyRun> b,
                           const QString &a_name, const QString &b_name)
{
    a_run_ = std::move(a);
    b_run_ = std::move(b);
    a_name_ = a_name;
    b_name_ = b_name;
    rebuildHistograms();
}

void AbComparison::rebuildHistograms()
{
    auto fill = [this](Log2Histogram &h, const std::shared_ptr<const LatencyRun> &run) {
        h = Log2Histogram(unit_);
        if (run)
            for (const LatencySample &s : run->samples)
                if (!kind_ || s.kind == *kind_)
                    h.add(s.duration_ns);
    };
    fill(a_hist_, a_run_);
    fill(b_hist_, b_run_);
    a_view_->setHistogram(a_hist_);
    b_view_->setHistogram(b_hist_);
    auto title = [](const char *side, const QString &name, const Log2Histogram &h) -> QString {
        QString t = QLatin1String(side);
        if (!name.isEmpty())
            t += QStringLiteral(": ") + name;
        return t + QStringLiteral(" (") + callsText(h.count()) + QLatin1Char(')');
    };
    a_view_->setTitle(title("A", a_name_, a_hist_));
    b_view_->setTitle(title("B", b_name_, b_hist_));
    // Both on the same rows and the same scale, so bars compare across the pair.
    int first = -1, last = -1;
    for (const Log2Histogram *h : {&a_hist_, &b_hist_}) {
        if (h->empty())
            continue;
        first = first < 0 ? h->first_bucket() : std::min(first, h->first_bucket());
        last = std::max(last, h->last_bucket());
    }
    const std::uint64_t scale = std::max(a_hist_.max_bucket_count(), b_hist_.max_bucket_count());
    for (HistogramWidget *w : {a_view_, b_view_}) {
        w->setBucketRange(first, last);
        w->setScaleMax(scale);
    }
    ratio_->setText(ratioText());
}

QString AbComparison::ratioText() const
{
    if (a_hist_.empty() && b_hist_.empty())
        return tr("Choose A and B and run them: the same scene, two collectors or two variants.");
    if (a_hist_.empty() || b_hist_.empty())
        return tr("%1 made no such calls.").arg(a_hist_.empty() ? tr("A") : tr("B"));
    const LatencyRatio r = ratio();
    const QString avg = r.avg ? timesText(*r.avg) : tr("n/a");
    const QString p99 = r.p99 ? timesText(*r.p99) : tr("n/a");
    const QString a_avg = durationWithUnit(a_hist_.mean_ns(), unit_);
    const QString b_avg = durationWithUnit(b_hist_.mean_ns(), unit_);
    const QString overall = tr("all calls: average %1 (%2 vs %3), p99 %4").arg(avg, a_avg, b_avg, p99);
    if (kind_ || !a_run_ || !b_run_)
        return tr("A / B: average %1 (%2 vs %3), p99 %4").arg(avg, a_avg, b_avg, p99);
    // Every call together mixes senders the kernel treats differently (the seed's sane sender
    // stops waiting, the heavy one does not, and it makes far fewer calls): the headline is
    // the kind of call whose averages differ most, the rest follow.
    struct KindRatio {
        CallKind kind;
        double ratio;
        double a_mean, b_mean;
    };
    std::vector<KindRatio> kinds;
    for (CallKind k : {CallKind::no_fd, CallKind::with_fds, CallKind::with_unix_fds, CallKind::autobind}) {
        Log2Histogram a, b;
        for (const LatencySample &x : a_run_->samples)
            if (x.kind == k)
                a.add(x.duration_ns);
        for (const LatencySample &x : b_run_->samples)
            if (x.kind == k)
                b.add(x.duration_ns);
        if (const auto kr = latency_ratio(a, b).avg)
            kinds.push_back({k, *kr, a.mean_ns(), b.mean_ns()});
    }
    if (kinds.size() < 2)
        return tr("A / B: average %1 (%2 vs %3), p99 %4").arg(avg, a_avg, b_avg, p99);
    auto spread = [](double x) { return x >= 1 ? x : (x > 0 ? 1 / x : 0); };
    std::stable_sort(kinds.begin(), kinds.end(),
                     [&](const KindRatio &x, const KindRatio &y) { return spread(x.ratio) > spread(y.ratio); });
    const KindRatio &lead = kinds.front();
    QString text = tr("A / B, %1: average %2 (%3 vs %4)")
                       .arg(QString::fromLatin1(call_kind_name(lead.kind).data()), timesText(lead.ratio),
                            durationWithUnit(lead.a_mean, unit_), durationWithUnit(lead.b_mean, unit_));
    QStringList rest;
    for (std::size_t i = 1; i < kinds.size(); ++i)
        rest << QStringLiteral("%1 %2").arg(QString::fromLatin1(call_kind_name(kinds[i].kind).data()),
                                            timesText(kinds[i].ratio));
    text += QLatin1Char('\n') + overall + QLatin1Char('\n') +
            tr("average by kind of call: %1").arg(rest.join(QStringLiteral(" · ")));
    return text;
}

} // namespace latency
