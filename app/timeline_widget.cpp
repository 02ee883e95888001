// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeline_widget.h"

#include "player_controller.h"
#include "theme.h"

#include "inflight/event.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QPixmap>
#include <QPolygon>

#include <algorithm>
#include <cmath>
#include <map>

using namespace inflight;

TimelineWidget::TimelineWidget(PlayerController &controller, QWidget *parent) : QWidget(parent), controller_(controller)
{
    setObjectName(QStringLiteral("timeline"));
    setToolTip(
        tr("The whole run. Blue ticks: a collection starts (shaded while it runs). Red: a line "
           "breakpoint. Orange: a statement failed. Short grey marks along the top: the lesson's beats, where the "
           "presenter's clicker stops. Red bars along the bottom: a sender waits for the "
           "collector; click one to see that call's latency. Click or drag to go to a step."));
    connect(&controller_, &PlayerController::positionChanged, this, qOverload<>(&QWidget::update));
    connect(&controller_, &PlayerController::indexReadyChanged, this, [this] {
        rebuildTicks();
        update();
    });
    connect(&controller_, &PlayerController::lineBreakpointsChanged, this, [this] {
        rebuildTicks();
        update();
    });
    connect(&Theme::instance(), &Theme::changed, this, [this] {
        marks_ = QPixmap();
        updateGeometry();
        update();
    });
    // A timeline made after the index is ready (a test, a re-created view) starts with its marks.
    rebuildTicks();
}

QSize TimelineWidget::sizeHint() const { return {600, static_cast<int>(34 * Theme::instance().fontScale())}; }

QSize TimelineWidget::minimumSizeHint() const { return {120, static_cast<int>(26 * Theme::instance().fontScale())}; }

void TimelineWidget::rebuildTicks()
{
    marks_ = QPixmap();
    breakpoint_ticks_.clear();
    if (!controller_.indexReady())
        return;
    const auto &lines = controller_.lineBreakpoints();
    if (lines.isEmpty())
        return;
    for (const Event &e : controller_.timeline())
        if (e.kind == EventKind::stmt_begin && lines.contains(static_cast<int>(e.scene_line)))
            breakpoint_ticks_.push_back(e.step);
}

const std::vector<TimelineWidget::Marker> &TimelineWidget::collectionMarkers() const
{
    return controller_.landmarks().collections;
}

const std::vector<TimelineWidget::Marker> &TimelineWidget::waitMarkers() const { return controller_.landmarks().waits; }

QRect TimelineWidget::track() const { return rect().adjusted(8, 6, -8, -6); }

QRect TimelineWidget::waitLane() const
{
    const QRect t = track();
    const int h = std::max(4, t.height() * 3 / 10);
    return {t.left(), t.bottom() - h + 1, t.width(), h};
}

QRect TimelineWidget::waitMarkerRect(int i) const
{
    if (i < 0 || i >= static_cast<int>(waitMarkers().size()))
        return {};
    const Marker &m = waitMarkers()[static_cast<std::size_t>(i)];
    const QRect lane = waitLane();
    const int x0 = xOf(m.first), x1 = std::max(xOf(m.last), x0 + 3);
    return {x0, lane.top(), x1 - x0, lane.height()};
}

int TimelineWidget::waitMarkerAt(const QPoint &p) const
{
    if (!waitLane().adjusted(0, -2, 0, 2).contains(p))
        return -1;
    // Of the markers within a few pixels, the nearest: thousands of waits share a lane.
    int best = -1, best_d = 4;
    for (int i = 0; i < static_cast<int>(waitMarkers().size()); ++i) {
        const QRect r = waitMarkerRect(i);
        const int d = p.x() < r.left() ? r.left() - p.x() : p.x() > r.right() ? p.x() - r.right() : 0;
        if (d < best_d) {
            best = i;
            best_d = d;
            if (d == 0)
                break;
        }
    }
    return best;
}

int TimelineWidget::xOf(std::uint64_t step) const
{
    const QRect t = track();
    const std::uint64_t total = std::max<std::uint64_t>(controller_.totalSteps(), 1);
    return t.left() + static_cast<int>(static_cast<double>(step) / static_cast<double>(total) * t.width());
}

std::uint64_t TimelineWidget::stepAt(int x) const
{
    const QRect t = track();
    const std::uint64_t total = controller_.totalSteps();
    if (total == 0 || t.width() <= 0)
        return 0;
    const double f = std::clamp((x - t.left()) / static_cast<double>(t.width()), 0.0, 1.0);
    return static_cast<std::uint64_t>(std::llround(f * static_cast<double>(total)));
}

void TimelineWidget::setDivergence(std::optional<std::uint64_t> step)
{
    if (step == divergence_)
        return;
    divergence_ = step;
    update();
}

void TimelineWidget::paintEvent(QPaintEvent * /*event*/)
{
    const Theme &theme = Theme::instance();
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRect t = track();
    p.fillRect(rect(), palette().window());
    p.setPen(Qt::NoPen);
    p.setBrush(theme.dark()           ? QColor(0x33, 0x36, 0x3e)
               : theme.highContrast() ? QColor(0xdd, 0xdd, 0xdd)
                                      : QColor(0xe8, 0xe8, 0xe4));
    p.drawRoundedRect(t, 4, 4);
    if (!controller_.indexReady()) {
        p.setPen(theme.foreground());
        p.setFont(theme.font(9));
        // No scene yet (the one opened has errors): nothing is being indexed.
        p.drawText(t, Qt::AlignCenter, controller_.hasScene() ? tr("indexing the run…") : tr("nothing runs yet"));
        return;
    }
    // Progress so far.
    QRect done = t;
    done.setRight(xOf(controller_.position()));
    p.setBrush(theme.dark()           ? QColor(0x27, 0x45, 0x80)
               : theme.highContrast() ? QColor(0x99, 0xbb, 0xff)
                                      : QColor(0xc6, 0xda, 0xfb));
    p.drawRoundedRect(done, 4, 4);
    // The run's marks change only with the index, the breakpoints, the size or the theme, while
    // this repaints at every step: they are drawn once into a picture, then copied.
    const qreal dpr = devicePixelRatioF();
    if (marks_.isNull() || marks_.size() != size() * dpr || marks_total_ != controller_.totalSteps()) {
        marks_ = QPixmap(size() * dpr);
        marks_.setDevicePixelRatio(dpr);
        marks_.fill(Qt::transparent);
        marks_total_ = controller_.totalSteps();
        QPainter marks(&marks_);
        marks.setRenderHint(QPainter::Antialiasing);
        paintMarks(marks);
    }
    p.drawPixmap(0, 0, marks_);
    if (divergence_) {
        // A diamond over a line the height of the strip: set apart from the orange warning ticks.
        const int dx = xOf(*divergence_);
        const QColor mark(0xc0, 0x00, 0xa0);
        p.setPen(QPen(mark, 2, Qt::DashLine));
        p.drawLine(dx, rect().top(), dx, rect().bottom());
        const int r = std::max(4, t.height() / 3);
        p.setPen(Qt::NoPen);
        p.setBrush(mark);
        p.drawPolygon(QPolygon({QPoint(dx, t.top() - 1), QPoint(dx + r, t.top() + r - 1),
                                QPoint(dx, t.top() + 2 * r - 1), QPoint(dx - r, t.top() + r - 1)}));
    }
    // The current step.
    const int x = xOf(controller_.position());
    p.setPen(QPen(theme.foreground(), 3));
    p.drawLine(x, rect().top() + 1, x, rect().bottom() - 1);
}

void TimelineWidget::paintMarks(QPainter &p) const
{
    const Theme &theme = Theme::instance();
    const QRect t = track();
    auto ticks = [&](const std::vector<std::uint64_t> &steps, const QColor &c, int inset) {
        p.setPen(QPen(c, 2));
        int last_x = -1;
        for (std::uint64_t s : steps) {
            const int x = xOf(s);
            if (x == last_x)
                continue; // one tick a pixel is enough for a million steps
            last_x = x;
            p.drawLine(x, t.top() + inset, x, t.bottom() - inset);
        }
    };
    // Collections, shaded while they run (one band a pixel column is enough).
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0x1f, 0x5f, 0xd0, theme.highContrast() ? 90 : 60));
    int last_band = -1;
    for (const Marker &m : collectionMarkers()) {
        const int x0 = xOf(m.first), x1 = std::max(xOf(m.last), x0 + 1);
        if (x1 <= last_band)
            continue;
        p.drawRect(QRect(QPoint(std::max(x0, last_band + 1), t.top()), QPoint(x1, t.bottom())));
        last_band = x1;
    }
    // Senders waiting for a collection, in their lane along the bottom.
    p.setBrush(theme.highContrast() ? QColor(0xd0, 0x00, 0x00) : QColor(0xd8, 0x3a, 0x2a));
    last_band = -1;
    for (int i = 0; i < static_cast<int>(waitMarkers().size()); ++i) {
        const QRect r = waitMarkerRect(i);
        if (r.right() <= last_band)
            continue;
        p.drawRect(r.adjusted(std::max(0, last_band + 1 - r.left()), 0, 0, 0));
        last_band = r.right();
    }
    // The lesson's beats: short marks along the top edge, where the clicker stops.
    p.setPen(QPen(theme.highContrast() ? theme.ink() : QColor(0x70, 0x70, 0x70), 1));
    int last_beat = -1;
    for (const inflight::Beat &b : controller_.runIndex().beats()) {
        const int x = xOf(b.step);
        if (x == last_beat)
            continue;
        last_beat = x;
        p.drawLine(x, t.top(), x, t.top() + std::max(3, t.height() / 4));
    }
    ticks(controller_.collectionSteps(), theme.dark() ? QColor(0x6b, 0x9c, 0xff) : QColor(0x1f, 0x5f, 0xd0), 2);
    ticks(controller_.warningSteps(), QColor(0xf0, 0x8c, 0x00), 5);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0xd0, 0x10, 0x10));
    int last_x = -1;
    for (std::uint64_t s : breakpoint_ticks_) {
        const int x = xOf(s);
        if (x == last_x)
            continue;
        last_x = x;
        p.drawEllipse(QPointF(x, t.top() + 3), 3.5, 3.5);
    }
}

void TimelineWidget::mousePressEvent(QMouseEvent *e)
{
    if (e->button() != Qt::LeftButton || !controller_.indexReady())
        return;
    const int wait = waitMarkerAt(e->position().toPoint());
    if (wait >= 0) {
        const Marker m = waitMarkers()[static_cast<std::size_t>(wait)];
        controller_.seek(m.last);
        emit waitMarkerClicked(m.first, m.task);
        return;
    }
    controller_.seek(stepAt(e->position().toPoint().x()));
}

void TimelineWidget::mouseMoveEvent(QMouseEvent *e)
{
    if ((e->buttons() & Qt::LeftButton) && controller_.indexReady())
        controller_.seek(stepAt(e->position().toPoint().x()));
}
