// SPDX-License-Identifier: GPL-3.0-or-later
// "Autobind": the abstract name space of the run's network namespace as a fill map
// (AutobindMap: 2^20 names, one pixel each) with its figures beside it — names taken per type
// (which doubles as the map's legend), probes of the last bind, mean probes per bind, the longest
// hash chain, hash-lock waits, ENOSPC count — and a histogram of autobind latency in µs drawn by
// the latency panel's HistogramWidget.
//
// AutobindPanel is the view of one AbstractNamespace (tests fill one directly); AutobindDock
// (objectName "autobindDock") feeds it from the PlayerController: the current kernel's namespace
// and the autobind calls that have returned by the player's step, refreshed at most every 16 ms.
#pragma once

#include "autobind/autobind_map.h"

#include "inflight/abstract_namespace.hpp"
#include "inflight/log2_histogram.hpp"

#include <QDockWidget>
#include <QHash>
#include <QTimer>
#include <QWidget>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace latency {
class HistogramWidget; // the latency panel's widget, shared: not a copy
}

class QComboBox;
class QSplitter;
class QGridLayout;
class QLabel;
class QToolButton;
class PlayerController;

namespace autobind {

class AutobindPanel : public QWidget {
    Q_OBJECT
public:
    explicit AutobindPanel(QWidget *parent = nullptr);

    AutobindMap *map() const { return map_; }
    void setNamespace(const inflight::AbstractNamespace *ns);
    void letGoKeepingPicture(); // the namespace is being freed (AutobindMap::letGoKeepingPicture())
    const inflight::AbstractNamespace *ns() const { return map_->ns(); }
    void setLabeler(std::function<QString(std::uint32_t sock)> labeler) { map_->setLabeler(std::move(labeler)); }
    // Re-reads the namespace: the map's changed pixels, the trace overlay and the figures.
    void refresh();
    // The autobind calls returned so far (durations in ns; shown in µs).
    void setLatency(const inflight::Log2Histogram &h);
    const inflight::Log2Histogram &latency() const { return latency_; }

    // The figures as shown, by key: "taken.stream", "taken.dgram", "taken.seqpacket",
    // "lastBind", "meanProbes", "longestChain", "lockWaits", "enospc", "latency".
    QString figure(const QString &key) const;
    QString hoverText() const;
    QComboBox *typeBox() const { return type_box_; }
    latency::HistogramWidget *histogram() const { return histogram_; }

signals:
    void socketClicked(quint32 sock);

protected:
    void resizeEvent(QResizeEvent *e) override;

private:
    void applyTheme();
    void setFigure(const QString &key, const QString &text);

    QSplitter *split_ = nullptr;
    bool split_moved_ = false; // the user placed the splitter: keep it there
    AutobindMap *map_ = nullptr;
    QLabel *hover_ = nullptr;
    QComboBox *type_box_ = nullptr;
    QToolButton *fit_ = nullptr;
    QToolButton *actual_size_ = nullptr;
    QGridLayout *figures_ = nullptr;
    QHash<QString, QLabel *> values_;
    QList<QLabel *> captions_;
    QList<QLabel *> swatches_;
    QLabel *latency_title_ = nullptr;
    inflight::Log2Histogram latency_{inflight::TimeUnit::us};
    latency::HistogramWidget *histogram_ = nullptr;
};

class AutobindDock : public QDockWidget {
    Q_OBJECT
public:
    explicit AutobindDock(PlayerController &controller, QWidget *parent = nullptr);

    AutobindPanel *panel() const { return panel_; }
    // Where the namespace comes from. Default: the controller's current kernel
    // (Kernel::abstract_ns, once the kernel has one; until then nothing). Tests give their own.
    void setNamespaceProvider(std::function<const inflight::AbstractNamespace *()> provider);
    // Brings the panel to the player's step now (position changes are otherwise coalesced and
    // applied at most every 16 ms, so a fill can play at 60 frames a second).
    void refresh();
    int refreshCount() const { return refreshes_; }
    // How often the latency histogram started again from no calls (a step back past many
    // returns, or to the start) instead of taking the returned calls back one by one.
    int latencyRestarts() const { return latency_restarts_; }

    static constexpr int kRefreshMs = 16;

private:
    void scheduleRefresh();
    void takeNamespace();
    void takeSamples();
    void updateLatency();

    PlayerController &controller_;
    AutobindPanel *panel_ = nullptr;
    std::function<const inflight::AbstractNamespace *()> provider_;
    QTimer throttle_;
    int refreshes_ = 0;
    int latency_restarts_ = 0;
    // The run's autobind calls, as indices into run_'s samples in the order of the step they
    // returned at (4 bytes a call, not a copy of each step and duration: a million calls).
    std::shared_ptr<const inflight::LatencyLog> run_;
    std::vector<std::uint32_t> samples_;
    std::size_t shown_ = 0;
    std::uint64_t shown_position_ = 0;
    inflight::Log2Histogram latency_{inflight::TimeUnit::us};
};

} // namespace autobind
