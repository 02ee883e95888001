// SPDX-License-Identifier: GPL-3.0-or-later
#include "autobind/autobind_panel.h"

#include "docks/dock_common.h"
#include "player_controller.h"
#include "theme.h"

#include "latency/histogram_widget.h"

#include "inflight/abstract_namespace.hpp"
#include "inflight/latency.hpp"
#include "inflight/step_snapshot.hpp"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

using namespace inflight;

namespace autobind {

namespace {

constexpr double kFigurePoints = 13.0;
constexpr double kCaptionPoints = 11.5;
constexpr double kHoverPoints = 13.0;

QString grouped(std::uint64_t n) { return QLocale(QLocale::English).toString(static_cast<qulonglong>(n)); }

QPixmap swatch(const QColor &c, int side, bool ring = false)
{
    QPixmap pm(side, side);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing, ring);
    if (ring) {
        p.setPen(QPen(c, std::max(2, side / 6)));
        p.drawEllipse(QRectF(2, 2, side - 4, side - 4));
    } else {
        p.fillRect(QRect(0, 0, side, side), c);
        p.setPen(QColor(0x40, 0x40, 0x50));
        p.drawRect(QRect(0, 0, side - 1, side - 1));
    }
    return pm;
}

struct TypeRow {
    SockType type;
    const char *key;
    const char *name;
};
constexpr TypeRow kTypeRows[] = {
    {SockType::stream, "taken.stream", "stream"},
    {SockType::dgram, "taken.dgram", "dgram"},
    {SockType::seqpacket, "taken.seqpacket", "seqpacket"},
};

} // namespace

// ---- AutobindPanel -----------------------------------------------------------------------------------

AutobindPanel::AutobindPanel(QWidget *parent) : QWidget(parent)
{
    auto *split = new QSplitter(Qt::Horizontal, this);
    split_ = split;
    connect(split, &QSplitter::splitterMoved, this, [this] { split_moved_ = true; });

    // Left: the map, the hover line under it.
    auto *left = new QWidget(split);
    auto *lv = new QVBoxLayout(left);
    lv->setContentsMargins(4, 4, 4, 4);
    lv->setSpacing(4);
    map_ = new AutobindMap(left);
    map_->setObjectName(QStringLiteral("autobindMap"));
    lv->addWidget(map_, 1);
    hover_ = new QLabel(left);
    hover_->setObjectName(QStringLiteral("autobindHover"));
    hover_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    hover_->setText(tr("Hover a name; wheel zooms, drag pans, click selects its socket."));
    // Wraps instead of setting the pane's minimum width: the map pane is only as wide as the
    // square map needs (see resizeEvent()).
    hover_->setWordWrap(true);
    hover_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    lv->addWidget(hover_);

    // Right: controls, figures (the type rows are the legend), the latency histogram.
    auto *right = new QWidget(split);
    auto *rv = new QVBoxLayout(right);
    rv->setContentsMargins(8, 4, 4, 4);
    rv->setSpacing(8);
    auto *controls = new QHBoxLayout;
    type_box_ = new QComboBox(right);
    type_box_->setObjectName(QStringLiteral("autobindType"));
    type_box_->addItem(tr("All types"), AutobindMap::kAllTypes);
    for (const TypeRow &r : kTypeRows)
        type_box_->addItem(QString::fromLatin1(r.name), static_cast<int>(r.type));
    type_box_->setToolTip(tr("Which socket type's names the map shows: each type has its own 2^20 names"));
    fit_ = new QToolButton(right);
    fit_->setText(tr("Fit"));
    fit_->setToolTip(tr("Show the whole map"));
    actual_size_ = new QToolButton(right);
    actual_size_->setObjectName(QStringLiteral("autobindActualSize"));
    actual_size_->setText(tr("1:1"));
    actual_size_->setToolTip(tr("One screen pixel per name, around the name the last autobind tried"));
    controls->addWidget(type_box_, 1);
    controls->addWidget(actual_size_);
    controls->addWidget(fit_);
    rv->addLayout(controls);

    figures_ = new QGridLayout;
    figures_->setHorizontalSpacing(10);
    figures_->setVerticalSpacing(4);
    int row = 0;
    auto addRow = [&](const QString &key, const QString &caption, const QPixmap *pm = nullptr) {
        auto *sw = new QLabel(right);
        if (pm)
            sw->setPixmap(*pm);
        swatches_ << sw;
        auto *cap = new QLabel(caption, right);
        captions_ << cap;
        auto *val = new QLabel(QStringLiteral("\u2014"), right);
        val->setObjectName(QStringLiteral("autobindFigure_") + key);
        val->setTextInteractionFlags(Qt::TextSelectableByMouse);
        val->setWordWrap(true); // large fonts on a narrow dock wrap rather than clip
        values_.insert(key, val);
        figures_->addWidget(sw, row, 0);
        figures_->addWidget(cap, row, 1);
        figures_->addWidget(val, row, 2);
        ++row;
    };
    for (const TypeRow &r : kTypeRows) {
        const QPixmap pm = swatch(AutobindMap::typeColor(r.type), 16);
        addRow(QString::fromLatin1(r.key), QString::fromLatin1(r.name), &pm);
    }
    {
        // Legend-only rows: their value column explains them.
        const QPixmap several = swatch(AutobindMap::severalColor(), 16);
        addRow(QStringLiteral("legend.several"), tr("several types"), &several);
        values_[QStringLiteral("legend.several")]->setText(tr("held by 2 or 3 types"));
        const QPixmap free = swatch(AutobindMap::freeColor(), 16);
        addRow(QStringLiteral("legend.free"), tr("free"), &free);
        values_[QStringLiteral("legend.free")]->setText(tr("1 pixel = 1 name; row = value >> 10"));
        QColor probed = AutobindMap::probedColor();
        probed.setAlpha(255);
        const QPixmap pr = swatch(probed, 16);
        addRow(QStringLiteral("legend.probed"), tr("probed"), &pr);
        values_[QStringLiteral("legend.probed")]->setText(tr("tried by the current bind"));
        const QPixmap cur = swatch(AutobindMap::cursorColor(), 16, true);
        addRow(QStringLiteral("legend.cursor"), tr("cursor"), &cur);
        values_[QStringLiteral("legend.cursor")]->setText(tr("its last try"));
    }
    addRow(QStringLiteral("lastBind"), tr("Last bind"));
    addRow(QStringLiteral("meanProbes"), tr("Probes per bind"));
    addRow(QStringLiteral("longestChain"), tr("Longest chain"));
    addRow(QStringLiteral("lockWaits"), tr("Lock waits"));
    addRow(QStringLiteral("enospc"), tr("ENOSPC"));
    figures_->setColumnStretch(2, 1);
    rv->addLayout(figures_);

    latency_title_ = new QLabel(tr("autobind latency (\u00b5s)"), right);
    latency_title_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    rv->addSpacing(6);
    rv->addWidget(latency_title_);
    histogram_ = new latency::HistogramWidget(right);
    histogram_->setObjectName(QStringLiteral("autobindLatency"));
    histogram_->setUnit(TimeUnit::us);
    histogram_->setTitle(tr("unix_autobind()"));
    rv->addWidget(histogram_, 1);
    values_.insert(QStringLiteral("latency"), latency_title_);

    split->addWidget(left);
    // The figures and the histogram scroll when large fonts make them taller than the dock.
    split->addWidget(docks::scrollable(right, split));
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(split);

    connect(map_, &AutobindMap::hovered, this, [this](const QString &text) {
        if (!text.isEmpty())
            hover_->setText(text);
    });
    connect(map_, &AutobindMap::socketClicked, this, &AutobindPanel::socketClicked);
    connect(type_box_, &QComboBox::currentIndexChanged, this,
            [this] { map_->setTypeFilter(type_box_->currentData().toInt()); });
    connect(fit_, &QToolButton::clicked, map_, &AutobindMap::fitView);
    connect(actual_size_, &QToolButton::clicked, map_, &AutobindMap::showActualSize);
    connect(&Theme::instance(), &Theme::changed, this, &AutobindPanel::applyTheme);
    applyTheme();
    refresh();
}

void AutobindPanel::applyTheme()
{
    const Theme &t = Theme::instance();
    const QFont fig = t.font(kFigurePoints);
    const QFont cap = t.font(kCaptionPoints, true);
    for (QLabel *l : std::as_const(captions_))
        l->setFont(cap);
    for (auto it = values_.cbegin(); it != values_.cend(); ++it)
        it.value()->setFont(it.key().startsWith(QLatin1String("legend.")) ? t.font(kCaptionPoints) : fig);
    latency_title_->setFont(cap);
    hover_->setFont(t.monoFont(kHoverPoints));
    type_box_->setFont(t.font(kCaptionPoints));
    fit_->setFont(t.font(kCaptionPoints));
    const int side = std::max(14, static_cast<int>(16 * t.fontScale()));
    // Swatches follow the font size; rows 0..2 are the types, 3.. the legend-only rows.
    QList<QPixmap> pms;
    for (const TypeRow &r : kTypeRows)
        pms << swatch(AutobindMap::typeColor(r.type), side);
    QColor probed = AutobindMap::probedColor();
    probed.setAlpha(255);
    pms << swatch(AutobindMap::severalColor(), side) << swatch(AutobindMap::freeColor(), side) << swatch(probed, side)
        << swatch(AutobindMap::cursorColor(), side, true);
    for (int i = 0; i < pms.size() && i < swatches_.size(); ++i)
        swatches_[i]->setPixmap(pms[i]);
    map_->update();
}

void AutobindPanel::setNamespace(const AbstractNamespace *ns) { map_->setNamespace(ns); }

void AutobindPanel::letGoKeepingPicture() { map_->letGoKeepingPicture(); }

void AutobindPanel::setFigure(const QString &key, const QString &text)
{
    if (QLabel *l = values_.value(key))
        if (l->text() != text)
            l->setText(text);
}

QString AutobindPanel::figure(const QString &key) const
{
    const QLabel *l = values_.value(key);
    return l ? l->text() : QString();
}

QString AutobindPanel::hoverText() const { return map_->hoverText(); }

void AutobindPanel::refresh()
{
    map_->sync();
    const AbstractNamespace *ns = map_->ns();
    const QString none = QStringLiteral("\u2014");
    for (const TypeRow &r : kTypeRows) {
        if (!ns) {
            setFigure(QString::fromLatin1(r.key), none);
            continue;
        }
        const std::uint32_t n = ns->autobind_names_taken(r.type);
        const std::uint32_t other = ns->names_taken(r.type) - n;
        QString text = QStringLiteral("%1 (%2 %)").arg(grouped(n)).arg(100.0 * n / kAutobindSpace, 0, 'f', 1);
        if (other)
            text += tr(" + %1 other names").arg(grouped(other));
        setFigure(QString::fromLatin1(r.key), text);
    }
    if (!ns) {
        for (const char *k : {"lastBind", "meanProbes", "longestChain", "lockWaits", "enospc"})
            setFigure(QString::fromLatin1(k), none);
        return;
    }
    const AbstractStats &st = ns->stats();
    const AutobindTrace &tr_ = ns->trace();
    if (tr_.active) {
        setFigure(QStringLiteral("lastBind"),
                  (tr_.probes == 1 ? tr("probing: 1 probe so far")
                                   : tr("probing: %1 probes so far").arg(grouped(tr_.probes))));
    } else if (tr_.any) {
        QString end;
        switch (tr_.stop) {
        case AutobindStop::bound: end = tr("bound @%1").arg(QString::fromStdString(autobind_name(tr_.cursor))); break;
        case AutobindStop::enospc: end = tr("ENOSPC"); break;
        case AutobindStop::endless: end = tr("endless loop (v1)"); break;
        case AutobindStop::running: break;
        }
        setFigure(QStringLiteral("lastBind"),
                  (tr_.probes == 1 ? tr("1 probe \u00b7 %1").arg(end)
                                   : tr("%1 probes \u00b7 %2").arg(grouped(tr_.probes), end)));
    } else {
        setFigure(QStringLiteral("lastBind"), none);
    }
    setFigure(QStringLiteral("meanProbes"),
              st.autobinds
                  ? tr("%1 mean over %2 binds")
                        .arg(QLocale(QLocale::English).toString(double(st.probes) / double(st.autobinds), 'f', 1),
                             grouped(st.autobinds))
                  : none);
    std::uint32_t bucket = 0;
    const std::uint32_t longest = ns->longest_chain(&bucket);
    setFigure(QStringLiteral("longestChain"),
              longest ? tr("%1 sockets in bucket %2").arg(grouped(longest)).arg(bucket) : QStringLiteral("0"));
    setFigure(QStringLiteral("lockWaits"),
              st.lock_waits ? tr("%1 (%2 \u00b5s waited)")
                                  .arg(grouped(st.lock_waits),
                                       QLocale(QLocale::English).toString(double(st.lock_wait_ns) / 1000.0, 'f', 1))
                            : QStringLiteral("0"));
    QString enospc = grouped(st.enospc);
    if (st.endless)
        enospc += tr(" \u00b7 %n endless loop(s) (v1)", nullptr, static_cast<int>(st.endless));
    setFigure(QStringLiteral("enospc"), enospc);
}

void AutobindPanel::resizeEvent(QResizeEvent *e)
{
    QWidget::resizeEvent(e);
    if (split_moved_)
        return;
    // The map is square: it gets about its height in width, the figures and the histogram the
    // rest (a fixed 3:2 split left grey bands beside the map and clipped the figures).
    const int total = split_->width();
    const int side = height() - hover_->sizeHint().height() - 12;
    const int left = std::clamp(side, total / 4, total * 3 / 5);
    split_->setSizes({left, std::max(0, total - left)});
}

void AutobindPanel::setLatency(const Log2Histogram &h)
{
    latency_ = h;
    latency_.set_unit(TimeUnit::us);
    histogram_->setHistogram(latency_);
    histogram_->setTitle(tr("unix_autobind() \u00b7 %n call(s)", nullptr, static_cast<int>(latency_.count())));
}

// ---- AutobindDock ----------------------------------------------------------------------------------------

AutobindDock::AutobindDock(PlayerController &controller, QWidget *parent)
    : QDockWidget(tr("Autobind"), parent), controller_(controller)
{
    setObjectName(QStringLiteral("autobindDock"));
    panel_ = new AutobindPanel(this);
    // In a scroll area, so the dock can be as short as the bottom area of a 1280x800 window
    // (it shares it with the event log and the latency panel) without forcing the window taller.
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(panel_);
    setWidget(scroll);
    provider_ = [this]() -> const AbstractNamespace * {
        return controller_.hasScene() ? controller_.abstractNamespace() : nullptr;
    };
    panel_->setLabeler([this](std::uint32_t sock) -> QString {
        if (!controller_.hasScene())
            return QString();
        const StepSnapshot &s = controller_.snapshot();
        return sock < s.sockets ? docks::label(s, sock) : QString();
    });
    throttle_.setSingleShot(true);
    throttle_.setInterval(kRefreshMs);
    connect(&throttle_, &QTimer::timeout, this, &AutobindDock::refresh);
    // The namespace pointer is re-read at once on every move: a backward step replays into a new
    // kernel and the old one is gone. Only the repaint is coalesced.
    connect(&controller_, &PlayerController::positionChanged, this, [this] {
        takeNamespace();
        scheduleRefresh();
    });
    // A seek working on the player in place frees this namespace: the map lets go of it at
    // once and shows the last picture until the seek lands.
    connect(&controller_, &PlayerController::seekStarted, panel_, &AutobindPanel::letGoKeepingPicture);
    connect(&controller_, &PlayerController::sceneLoaded, this, [this] {
        takeNamespace();
        takeSamples();
        scheduleRefresh();
    });
    connect(&controller_, &PlayerController::indexReadyChanged, this, [this] {
        takeSamples();
        scheduleRefresh();
    });
    connect(panel_, &AutobindPanel::socketClicked, this,
            [this](quint32 sock) { controller_.selectSocket(static_cast<std::uint32_t>(sock)); });
    takeNamespace();
    takeSamples();
    refresh();
}

void AutobindDock::setNamespaceProvider(std::function<const AbstractNamespace *()> provider)
{
    provider_ = std::move(provider);
    takeNamespace();
    refresh();
}

void AutobindDock::takeNamespace() { panel_->setNamespace(provider_ ? provider_() : nullptr); }

void AutobindDock::scheduleRefresh()
{
    if (!throttle_.isActive())
        throttle_.start();
}

void AutobindDock::refresh()
{
    throttle_.stop();
    // The figures and the map of the state on screen stay while a seek works on the player:
    // its landing (positionChanged, or sceneLoaded if another run replaces it) refreshes them.
    if (controller_.isSeeking())
        return;
    ++refreshes_;
    takeNamespace();
    panel_->refresh();
    updateLatency();
}

void AutobindDock::takeSamples()
{
    samples_.clear();
    shown_ = 0;
    shown_position_ = 0;
    latency_.clear();
    run_.reset();
    if (const auto run = controller_.latencyRun(); run && controller_.indexReady()) {
        // Shares the controller's run (aliasing pointer): the indices stay valid whatever the
        // controller holds next.
        run_ = std::shared_ptr<const LatencyLog>(run, &run->samples);
        const LatencyLog &all = *run_;
        for (std::size_t i = 0; i < all.size(); ++i)
            if (all[i].kind == CallKind::autobind)
                samples_.push_back(static_cast<std::uint32_t>(i));
        std::stable_sort(samples_.begin(), samples_.end(),
                         [&all](std::uint32_t a, std::uint32_t b) { return all[a].last_step < all[b].last_step; });
    }
    panel_->setLatency(latency_);
}

void AutobindDock::updateLatency()
{
    // The calls that have returned by the player's step: forward adds the new ones; backward
    // past a few returns (a step back) takes those back one by one, as the latency dock does
    // (LiveLatency). Starting again would re-add and re-sort every shown duration on the GUI
    // thread, in proportion to the calls returned so far, for a step back of one call.
    constexpr std::size_t kTakeBackAtMost = 64;
    const std::uint64_t pos = controller_.hasScene() ? controller_.position() : 0;
    bool changed = false;
    for (std::size_t taken = 0; pos < shown_position_ && shown_ > 0; ++taken) {
        const LatencySample &s = (*run_)[samples_[shown_ - 1]];
        if (s.last_step <= pos)
            break;
        changed = true;
        if (taken == kTakeBackAtMost || !latency_.remove_last(s.duration_ns)) {
            latency_.clear();
            shown_ = 0;
            ++latency_restarts_;
            break;
        }
        --shown_;
    }
    shown_position_ = pos;
    while (shown_ < samples_.size() && (*run_)[samples_[shown_]].last_step <= pos) {
        latency_.add((*run_)[samples_[shown_++]].duration_ns);
        changed = true;
    }
    if (changed)
        panel_->setLatency(latency_);
}

} // namespace autobind
