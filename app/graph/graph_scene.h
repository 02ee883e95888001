// SPDX-License-Identifier: GPL-3.0-or-later
// The scene of the graph view. It turns each GraphSnapshot into items - kept by socket id,
// process id, aggregate key and SnapshotEdge::id - and positions them from layouts computed on
// the Graphviz worker:
//  * the same topology (structureKey) as before: only roles, counts and labels change, so the
//    items are updated and repainted; no layout;
//  * a new topology: items are created and removed; if new nodes appeared (or boxes grew), a
//    layout is requested in which every node already placed is pinned, so survivors do not move;
//    new nodes stay hidden until their position arrives. Edges never need a layout: they are
//    routed from the node positions;
//  * results of an older generation than the newest request are dropped; moves are animated
//    (~250 ms) but every query (target(), waitForLayout) sees the final positions.
#pragma once

#include "graph/display_graph.h"
#include "graph/edge_geometry.h"
#include "graph/layout_request.h"
#include "graph/run_graph.h"
#include "inflight/graph_snapshot.hpp"

#include <QGraphicsScene>
#include <QList>

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>

class AggregateItem;
class EdgeItem;
class FdEdgeItem;
class PeerLinkItem;
class LayoutEngine;
class NodeItem;
class ProcessItem;
class QVariantAnimation;
class SocketItem;

class GraphScene : public QGraphicsScene {
    Q_OBJECT
public:
    static constexpr std::size_t kExpandBatch = 64; // instances drawn one by one per double-click

    explicit GraphScene(QObject *parent = nullptr);
    ~GraphScene() override;

    // ---- content ---------------------------------------------------------------------------------
    // Shared with the controller, not copied: a million sockets' snapshot is hundreds of MB.
    void setSnapshot(std::shared_ptr<const inflight::GraphSnapshot> snapshot, bool graph_era);
    void setSnapshot(inflight::GraphSnapshot snapshot, bool graph_era)
    {
        setSnapshot(std::make_shared<const inflight::GraphSnapshot>(std::move(snapshot)), graph_era);
    }
    const inflight::GraphSnapshot &snapshot() const { return *snapshot_; }
    const graph::DisplayGraph &display() const { return display_; }
    bool graphEra() const { return graph_era_; }
    // A new scene: forget every item, position and expansion.
    void clearGraph();
    // Above this many sockets, identical SCCs are collapsed into aggregates (default 3000).
    void setAggregateThreshold(std::size_t sockets);
    // Above this many nodes, layouts use sfdp/neato instead of dot (default 300).
    void setDotMaxNodes(int nodes) { dot_max_nodes_ = nodes; }
    int dotMaxNodes() const { return dot_max_nodes_; }

    // ---- layout ---------------------------------------------------------------------------------
    // The plan: every socket of the whole run laid out once (see run_graph.h). Until it arrives,
    // layouts wait for it; afterwards new sockets appear at their planned place.
    // Starts the plan: the worker replays the scene (time-boxed), then lays the whole run out.
    void planRun(std::shared_ptr<const inflight::Scene> scene, const inflight::SimulationOptions &options);
    void setRunGraph(const graph::RunGraph &run); // the second half, on the GUI thread
    bool hasPlan() const { return !plan_.empty(); }
    // Off: always place new nodes incrementally (neato with survivors pinned).
    void setPlanEnabled(bool on) { plan_enabled_ = on; }
    // Asks the worker for a layout of the current nodes. Survivors stay pinned unless `full`;
    // full with a plan puts every node at its planned place, without one it is a fresh layout
    // of everything (dot or sfdp). Returns the generation.
    std::uint64_t requestLayout(bool full);
    // A fresh layout of what is on screen now, forgetting the plan (the "Tidy layout" button).
    void tidy();
    bool layoutPending() const { return requested_ > applied_ || plan_pending_; }
    std::uint64_t requestedGeneration() const { return requested_; }
    std::uint64_t appliedGeneration() const { return applied_; }
    int staleResultsDropped() const { return stale_; }
    LayoutEngine &layoutEngine() { return *engine_; }
    // Applies a result; false (and nothing changes) when it is older than the newest request.
    bool applyLayout(const graph::LayoutResult &result);
    // The last applied result (engine, timings); nullptr before the first.
    const graph::LayoutResult *lastLayout() const { return last_layout_.get(); }
    void setAnimated(bool on) { animated_ = on; }
    void finishAnimations();
    // Where the nodes are going to be once the running animation ends (scene, with margins).
    QRectF contentRect() const;

    // ---- items ----------------------------------------------------------------------------------
    int socketItemCount() const { return static_cast<int>(sockets_.size()); }
    int edgeItemCount() const { return static_cast<int>(edges_.size()); } // copies + bundles
    int fdEdgeItemCount() const { return static_cast<int>(fd_edges_.size()); }
    int processItemCount() const { return static_cast<int>(processes_.size()); }
    int aggregateItemCount() const { return static_cast<int>(aggregates_.size()); }
    SocketItem *socketItem(std::uint32_t sock) const;
    ProcessItem *processItem(std::uint32_t process) const;
    EdgeItem *edgeItem(std::uint64_t id) const; // by SnapshotEdge::id (or bundle key)
    AggregateItem *aggregateItem(graph::NodeKey key) const;
    NodeItem *nodeItem(graph::NodeKey key) const;
    QList<SocketItem *> socketItems() const;
    QList<EdgeItem *> edgeItems() const;
    QList<FdEdgeItem *> fdEdgeItems() const;
    QList<PeerLinkItem *> peerLinkItems() const;
    QList<ProcessItem *> processItems() const;
    QList<AggregateItem *> aggregateItems() const;
    // The item drawing a socket: its SocketItem, or the aggregate that contains it.
    NodeItem *itemShowing(std::uint32_t sock) const;

    // ---- aggregates -------------------------------------------------------------------------------
    // Draws up to `instances` more SCCs of the aggregate one by one (needs a layout).
    bool expandAggregate(graph::NodeKey key, std::size_t instances = kExpandBatch);
    // If the socket is inside an aggregate, draws its SCC one by one. False if already drawn.
    bool expandToShow(std::uint32_t sock);

    // ---- findings ----------------------------------------------------------------------------------
    // Rings the nodes of the sockets and processes a finding names (none: clears them).
    void setFindingMarks(const std::vector<std::uint32_t> &sockets, const std::vector<std::uint32_t> &processes,
                         const QString &finding);
    int findingMarkCount() const { return static_cast<int>(marked_.size()); }
    bool isMarked(graph::NodeKey key) const;

    // ---- selection --------------------------------------------------------------------------------
    void setSelectedSocket(std::optional<std::uint32_t> sock);
    std::optional<std::uint32_t> selectedSocket() const { return selected_; }

    // Theme changed: new fonts and sizes, so a new layout.
    void restyle();
    // The presentation layout: compact boxes (GraphStyle::compact) and, for a small graph, its
    // parts arranged to the pane's width / height (LayoutRequest::aspect); a new layout.
    void setCompact(bool on);
    bool compact() const { return compact_; }
    // The pane's width / height, for the next full layouts; a graph small enough to be
    // arranged is laid out again when it changes by more than a fifth.
    void setLayoutAspect(double aspect);
    double layoutAspect() const { return aspect_; }

signals:
    void socketClicked(std::uint32_t sock);
    void layoutApplied(quint64 generation);
    void planReady();      // the plan arrived (or failed)
    void contentChanged(); // items appeared, vanished or moved

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent *event) override;

private:
    void rebuild();
    void updateState();
    void syncSockets(bool &sizes_changed);
    void syncProcesses(bool &sizes_changed);
    void syncAggregates(bool &sizes_changed);
    void syncEdges();
    void updateRoleCounts();
    void assignLanes();
    void routeEdges();
    void updateVisibility();
    void updateSceneRect();
    NodeItem *topLevel(NodeItem *item) const;
    struct SeedHints {
        std::unordered_map<NodeItem *, FdEdgeItem *> fd_of; // socket -> an fd edge from a placed process
        std::unordered_map<NodeItem *, std::pair<NodeItem *, double>> neighbour_of; // node -> placed neighbour, side
        std::map<std::uint32_t, SocketItem *> placed_sockets;                       // by socket id
        NodeItem *first_process = nullptr;                                          // placed, lowest id
        double column_top = 0, column_height = 0; // fallback columns of new sockets wrap here
    };
    bool seedFor(NodeItem *item, QPointF &seed, const SeedHints &hints) const;
    void onLayoutFinished(std::shared_ptr<const graph::LayoutResult> result);
    void onPlanFinished(std::shared_ptr<const graph::LayoutResult> result);
    void onRunCollected(quint64 generation, std::shared_ptr<const graph::RunGraph> run);
    void planFailed();
    void animate(double t);
    QString labelOf(std::uint32_t sock) const;
    void layOutAgain(); // plan again (new box sizes or shape) and lay everything out
    double gap() const;

    std::shared_ptr<const inflight::GraphSnapshot> snapshot_ = std::make_shared<const inflight::GraphSnapshot>();
    std::vector<std::uint32_t> node_index_; // socket id -> index in snapshot_.nodes
    graph::DisplayGraph display_;
    graph::DisplayOptions options_;
    std::uint64_t structure_key_ = 0;
    bool has_structure_ = false;
    bool expanding_ = false;
    bool graph_era_ = false;
    int dot_max_nodes_ = 300;

    std::unordered_map<std::uint32_t, SocketItem *> sockets_;
    std::unordered_map<std::uint32_t, ProcessItem *> processes_;
    std::unordered_map<graph::NodeKey, AggregateItem *> aggregates_;
    std::unordered_map<std::uint64_t, EdgeItem *> edges_;
    std::unordered_map<std::uint64_t, FdEdgeItem *> fd_edges_;
    std::map<std::pair<std::uint32_t, std::uint32_t>, PeerLinkItem *> peer_links_; // (lower, higher) socket id

    std::unordered_set<std::uint32_t> expanded_;               // SCC instances drawn one by one
    std::unordered_map<std::uint32_t, QPointF> expand_origin_; // instance -> where its aggregate was
    std::unordered_map<graph::NodeKey, QPointF> placed_;       // node -> centre from the last layout

    std::unique_ptr<LayoutEngine> engine_;
    std::uint64_t requested_ = 0, applied_ = 0;
    int stale_ = 0;
    std::vector<graph::NodeKey> request_keys_; // the nodes of the newest request, in order
    std::shared_ptr<const graph::LayoutResult> last_layout_;
    std::unordered_map<graph::NodeKey, QPointF> plan_; // node -> planned centre
    bool plan_enabled_ = true, plan_dropped_ = false, plan_pending_ = false, layout_deferred_ = false;
    std::uint64_t plan_generation_ = 0;
    std::shared_ptr<std::atomic<bool>> run_cancel_;
    std::shared_ptr<const graph::RunGraph> run_; // kept to plan again when box sizes change
    std::vector<graph::NodeKey> plan_keys_;

    struct Move {
        NodeItem *item;
        QPointF from, to;
        double fade_to; // < 0: no fade
    };
    std::vector<Move> moves_;
    QVariantAnimation *animation_ = nullptr;
    bool animated_ = true;

    std::vector<graph::NodeKey> marked_; // nodes carrying a FindingMarkItem
    bool compact_ = false;
    double aspect_ = 0;
    std::optional<std::uint32_t> selected_;
    NodeItem *highlighted_ = nullptr;
};
