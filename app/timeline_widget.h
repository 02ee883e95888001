// SPDX-License-Identifier: GPL-3.0-or-later
// The scrubber under the graph: the whole run from step 0 to the last, the current step, and
// ticks where collections start (blue), where line breakpoints stop (red), where a statement
// failed or an invariant broke (orange) and where the lesson's beats are (short grey marks). Collections are shaded from start to end, and a lane
// along the bottom marks where a sender waited for one (gc_wait to wait_end); clicking a wait
// marker asks for that call in the latency panel. Click or drag elsewhere to go to a step.
#pragma once

#include "inflight/run_landmarks.hpp"

#include <QPixmap>
#include <QWidget>

class QPainter;

#include <cstdint>
#include <optional>
#include <vector>

class PlayerController;
namespace inflight {
struct Event;
}

class TimelineWidget : public QWidget {
    Q_OBJECT
public:
    explicit TimelineWidget(PlayerController &controller, QWidget *parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // For tests: the step a click at x goes to, and the breakpoint ticks drawn.
    std::uint64_t stepAt(int x) const;
    const std::vector<std::uint64_t> &breakpointTicks() const { return breakpoint_ticks_; }

    // A stretch of the run: a collection (task = the one that ran it) or a wait for one,
    // found as the run was indexed (RunLandmarks).
    using Marker = inflight::RunSpan;
    const std::vector<Marker> &collectionMarkers() const;
    const std::vector<Marker> &waitMarkers() const;
    // The wait marker under a point (index into waitMarkers()), or -1; and where one is drawn.
    int waitMarkerAt(const QPoint &p) const;
    QRect waitMarkerRect(int i) const;

    // Side by side: where the two runs first differ, marked across the track (none: no mark).
    void setDivergence(std::optional<std::uint64_t> step);
    std::optional<std::uint64_t> divergence() const { return divergence_; }

signals:
    // A wait marker was clicked: the task that waited and the step its wait began.
    void waitMarkerClicked(quint64 step, int task);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *e) override;
    void mouseMoveEvent(QMouseEvent *e) override;

private:
    void rebuildTicks();
    // Everything the run marks on the track (collections, waits, beats, ticks, breakpoints),
    // which the current step does not move.
    void paintMarks(QPainter &p) const;
    int xOf(std::uint64_t step) const;
    QRect track() const;
    QRect waitLane() const;

    PlayerController &controller_;
    std::vector<std::uint64_t> breakpoint_ticks_;
    // paintMarks() as drawn for this size and run length; null once they changed.
    QPixmap marks_;
    std::uint64_t marks_total_ = 0;
    std::optional<std::uint64_t> divergence_;
};
