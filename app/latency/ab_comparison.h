// SPDX-License-Identifier: GPL-3.0-or-later
// A/B: the same scene run twice, headless on worker threads (under two collectors, or as two of
// its variants), the two histograms side by side on the same rows and scale, and how many times
// slower A is than B on average and at p99 - the "1825567 nsecs before, 410 after" of the
// async-GC series, reproduced by the model.
#pragma once

#include "../jobs/job_tracker.h"
#include "headless_run.h"

#include "inflight/latency.hpp"
#include "inflight/log2_histogram.hpp"

#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;

namespace latency {

class HistogramWidget;

class AbComparison : public QWidget {
    Q_OBJECT
public:
    explicit AbComparison(QWidget *parent = nullptr);
    ~AbComparison() override;

    // The scene to compare (its collectors and variants fill the A and B choices).
    void setScene(std::shared_ptr<const inflight::Scene> scene);
    void setUnit(inflight::TimeUnit unit);
    // Only calls of this kind are compared (nullopt: every call).
    void setKindFilter(std::optional<inflight::CallKind> kind);

    // Runs A and B in the background; finished() when both are done.
    void run();
    bool isRunning() const { return pending_ > 0; }
    // Shows two runs' calls (what run() does when both finish; tests give their own).
    void setRuns(std::shared_ptr<const LatencyRun> a, std::shared_ptr<const LatencyRun> b, const QString &a_name = {},
                 const QString &b_name = {});

    const inflight::Log2Histogram &histogramA() const { return a_hist_; }
    const inflight::Log2Histogram &histogramB() const { return b_hist_; }
    inflight::LatencyRatio ratio() const { return inflight::latency_ratio(a_hist_, b_hist_); }
    QString ratioText() const;
    HistogramWidget *widgetA() const { return a_view_; }
    HistogramWidget *widgetB() const { return b_view_; }
    QComboBox *choiceA() const { return a_box_; }
    QComboBox *choiceB() const { return b_box_; }

signals:
    void finished();

private:
    void cancel();
    void rebuildHistograms();
    Scenario scenarioOf(QComboBox *box) const;

    std::shared_ptr<const inflight::Scene> scene_;
    std::vector<Scenario> scenarios_;
    inflight::TimeUnit unit_ = inflight::TimeUnit::ns;
    std::optional<inflight::CallKind> kind_;
    std::shared_ptr<const LatencyRun> a_run_, b_run_;
    inflight::Log2Histogram a_hist_, b_hist_;
    QString a_name_, b_name_;

    // The comparison running now: its two runs, each on a lane of its own.
    JobTracker a_jobs_{this}, b_jobs_{this};
    int pending_ = 0; // of the two runs, those still running

    QComboBox *a_box_ = nullptr;
    QComboBox *b_box_ = nullptr;
    QComboBox *kind_box_ = nullptr;
    QPushButton *run_button_ = nullptr;
    QLabel *status_ = nullptr;
    QLabel *ratio_ = nullptr;
    HistogramWidget *a_view_ = nullptr;
    HistogramWidget *b_view_ = nullptr;
};

} // namespace latency
