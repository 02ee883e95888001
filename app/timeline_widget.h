// The scrubber under the graph: the whole run from step 0 to the last, the current step, and
// ticks where collections start (blue), where line breakpoints stop (red) and where a statement
// failed or an invariant broke (orange). Click or drag to go to a step.
#pragma once

#include <QWidget>

#include <cstdint>
#include <vector>

class PlayerController;

class TimelineWidget : public QWidget {
    Q_OBJECT
public:
    explicit TimelineWidget(PlayerController &controller, QWidget *parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // For tests: the step a click at x goes to, and the breakpoint ticks drawn.
    std::uint64_t stepAt(int x) const;
    const std::vector<std::uint64_t> &breakpointTicks() const { return breakpoint_ticks_; }

protected:
    void paintEvent(QPaintEvent *) override;
    void mousePressEvent(QMouseEvent *e) override;
    void mouseMoveEvent(QMouseEvent *e) override;

private:
    void rebuildTicks();
    int xOf(std::uint64_t step) const;
    QRect track() const;

    PlayerController &controller_;
    std::vector<std::uint64_t> breakpoint_ticks_;
};
