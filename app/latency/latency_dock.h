// SPDX-License-Identifier: GPL-3.0-or-later
// "Latency": the funclatency view of the run as it plays. The calls that have returned by the
// player's step (sendmsg, autobind), one histogram per group (task, user or kind of call) with
// the percentile table beside them; a click on a bar lists its calls and a double-click on a
// call goes to it. A second tab runs the scene twice for an A/B comparison. Export writes the
// funclatency text, CSV or JSON of the selected group (or of all calls).
#pragma once

#include "live_latency.h"

#include "inflight/log2_histogram.hpp"

#include <QDockWidget>
#include <QList>
#include <QTimer>

#include <cstdint>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QScrollArea;
class QSplitter;
class QTabWidget;
class QTableView;
class QToolButton;
class QVBoxLayout;
class PlayerController;

namespace latency {

class AbComparison;
class BucketCallsModel;
class HistogramWidget;
class PercentileModel;

enum class ExportFormat { funclatency, csv, json };

class LatencyDock : public QDockWidget {
    Q_OBJECT
public:
    explicit LatencyDock(PlayerController &controller, QWidget *parent = nullptr);
    ~LatencyDock() override;

    // The run's calls. The controller's are taken whenever its index is ready; tests give theirs.
    void setRun(std::shared_ptr<const LatencyRun> run);
    const LiveLatency &live() const { return live_; }
    void setGroupBy(inflight::GroupBy by);
    void setUnit(inflight::TimeUnit unit);
    // Brings the view to the player's step now. Position changes are otherwise coalesced and
    // applied at most ~30 times a second, so playback never waits on the panel.
    void refresh();
    int refreshCount() const { return refreshes_; }

    // What Export writes: the group selected in the table, or all calls.
    QString exportText(ExportFormat format) const;
    bool exportToFile(const QString &path, ExportFormat format, QString *error = nullptr) const;
    // Asks for a file (QFileDialog) and writes it.
    void chooseExportFile(ExportFormat format);

    // Lists the calls of `group` (-1: all calls) in `bucket`, and marks the bar.
    void showBucket(int group, int bucket);
    std::optional<std::size_t> selectedCall() const;

    // While presenting, the figures a class reads and nothing to click: the histograms and the
    // percentiles p50 to max, no tabs, controls or calls list.
    void setPresentation(bool on);
    bool presenting() const { return presenting_; }

    // For tests and the main window.
    QComboBox *groupByBox() const { return group_by_; }
    QComboBox *unitBox() const { return unit_box_; }
    const QList<HistogramWidget *> &histograms() const { return histograms_; }
    PercentileModel *percentiles() const { return percentiles_; }
    QTableView *percentileView() const { return percentile_view_; }
    BucketCallsModel *calls() const { return calls_; }
    QTableView *callsView() const { return calls_view_; }
    AbComparison *comparison() const { return comparison_; }
    QTabWidget *tabs() const { return tabs_; }

public slots:
    // The call `task` was making at `step` (a wait marker on the timeline): go to where it has
    // returned if it has not yet, list its bucket and select it. False if there is no such call.
    bool selectCallAt(quint64 step, int task);

protected:
    void resizeEvent(QResizeEvent *e) override;

private:
    void takeControllerRun();
    void scheduleRefresh();
    void applyPosition(bool force);
    int groupIndex(const QString &name) const; // position in live().groups(), or -1
    void rebuildHistogramWidgets();
    void updateCount();
    int exportGroup() const; // -1: all calls
    const inflight::Log2Histogram &exportHistogram() const;
    void applyTheme();
    void hideRows(); // the group's row always (it is the header); count and avg while presenting
    void selectCall(std::size_t sample);

    PlayerController &controller_;
    std::shared_ptr<const LatencyRun> run_;
    LiveLatency live_;
    QTimer throttle_;
    int refreshes_ = 0;
    std::optional<std::size_t> pending_select_; // selectCallAt() waiting for a long seek

    QComboBox *group_by_ = nullptr;
    QComboBox *unit_box_ = nullptr;
    QLabel *count_ = nullptr;
    QToolButton *export_ = nullptr;
    QTabWidget *tabs_ = nullptr;
    // How the histograms, the percentile table and the calls share the dock.
    enum class Arrangement {
        none,
        side_by_side, // histograms | figures over calls: a dock wide enough for both in full
        tables_below, // histograms over figures | calls: under the graph, too narrow for both
        stacked,      // all three stacked: a tall dock at a side of the window
    };
    Arrangement chooseArrangement() const;
    int percentileTableWidth() const;  // every group's column in full
    int percentileTableHeight() const; // every figure's row in full
    void arrange(bool force);

    QSplitter *split_ = nullptr;
    QSplitter *side_ = nullptr; // the percentile figures and the calls of a clicked bar
    Arrangement arrangement_ = Arrangement::none;
    int arranged_columns_ = -1; // the percentile table's column count the sizes were given for
    int arranged_table_w_ = 0;  // and the width its figures needed then
    QScrollArea *histogram_area_ = nullptr;
    QVBoxLayout *histogram_layout_ = nullptr;
    QList<HistogramWidget *> histograms_;
    PercentileModel *percentiles_ = nullptr;
    QTableView *percentile_view_ = nullptr;
    QLabel *calls_title_ = nullptr;
    BucketCallsModel *calls_ = nullptr;
    QTableView *calls_view_ = nullptr;
    // The bar whose calls are listed: its group by name (empty: all calls), so it survives new
    // groups shifting the others; bucket -1 when nothing is listed.
    QString calls_group_;
    int calls_bucket_ = -1;
    AbComparison *comparison_ = nullptr;
    QWidget *calls_box_ = nullptr;
    bool presenting_ = false;
};

} // namespace latency
