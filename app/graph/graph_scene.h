// SPDX-License-Identifier: GPL-3.0-or-later
// The scene of the graph view. It turns each GraphSnapshot into items - kept by socket id,
// process id, aggregate key and SnapshotEdge::id - and positions them from layouts computed in
// the background:
//  * the same topology (structureKey) as before: only roles, counts and labels change, so the
//    items are updated and repainted; no layout;
//  * a new topology: items are created and removed; if new nodes appeared (or boxes grew), a
//    layout is asked of the LayoutCoordinator in which every node already placed is pinned, so
//    survivors do not move; new nodes stay hidden until their position arrives. Edges never need a layout: they are routed from the node positions;
//  * a layout's positions are installed by place(): moves are animated (~250 ms) but every
//    query (target(), waitForLayout) sees the final positions.
#pragma once

#include "graph/display_graph.h"
#include "graph/edge_geometry.h"
#include "graph/layout_coordinator.h"
#include "graph/layout_request.h"
#include "graph/run_graph.h"
#include "inflight/graph_snapshot.hpp"

#include <QGraphicsScene>
#include <QList>

#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>

class AggregateItem;
class EdgeItem;
class FdEdgeItem;
class PeerLinkItem;
class NodeItem;
class ProcessItem;
class QVariantAnimation;
class SccHullItem;
class SocketItem;
class CollectorBadgeItem;

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

    // ---- layout ----------------------------------------------------------------------------------
    // Which layouts are asked for and installed: the coordinator's (see layout_coordinator.h).
    LayoutCoordinator &layout() { return layout_; }
    const LayoutCoordinator &layout() const { return layout_; }
    void planRun(std::shared_ptr<const inflight::Scene> scene, const inflight::SimulationOptions &options)
    {
        layout_.planRun(std::move(scene), options);
    }
    bool hasPlan() const { return layout_.hasPlan(); }
    void setPlanEnabled(bool on) { layout_.setPlanEnabled(on); }
    std::uint64_t requestLayout(bool full) { return layout_.requestLayout(full); }
    void tidy() { layout_.tidy(); }
    bool layoutPending() const { return layout_.pending(); }
    std::uint64_t requestedGeneration() const { return layout_.requestedGeneration(); }
    std::uint64_t appliedGeneration() const { return layout_.appliedGeneration(); }
    int staleResultsDropped() const { return layout_.staleResultsDropped(); }
    bool applyLayout(const graph::LayoutResult &result) { return layout_.applyLayout(result); }
    const graph::LayoutResult *lastLayout() const { return layout_.lastLayout(); }
    void setAnimated(bool on) { animated_ = on; }
    void finishAnimations();
    // Where the nodes are going to be once the running animation ends (scene, with margins).
    QRectF contentRect() const;

    // ---- what the layout coordinator asks of the items -------------------------------------------
    // A request for the nodes drawn now: processes first, then sockets and aggregates by key.
    // Placed nodes stay pinned unless `full`; a node with a place in `plan` is pinned there;
    // the others start at a seed beside their placed neighbours.
    graph::LayoutRequest layoutRequest(bool full, const LayoutCoordinator::Plan *plan) const;
    // The plan's request: every process and socket of the run, each box measured by an item
    // built off-scene.
    graph::LayoutRequest planRequest(const graph::RunGraph &run) const;
    // Moves the nodes to a layout's positions (keys[i] to result.positions[i]), animated.
    void place(const std::vector<graph::NodeKey> &keys, const graph::LayoutResult &result);
    bool hasPlacedNodes() const { return !placed_.empty(); }

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
    // The in-flight copies of `from`'s file in `to`'s queue (to: the walk's successor, the
    // listener for an embryo) that the graph walk examines at this step; none: nullopt.
    void setExaminedEdge(std::optional<std::pair<std::uint32_t, std::uint32_t>> edge);
    // The collector's numbers on a socket at this step: the graph walk's or a classic
    // candidate's (nullptr: none, or drawn in an aggregate); walkMarkOf() the walk's only.
    CollectorBadgeItem *badgeOf(std::uint32_t sock) const;
    CollectorBadgeItem *walkMarkOf(std::uint32_t sock) const;
    const std::vector<std::uint32_t> &badgedSockets() const { return badged_; }
    // The hulls around this collection's SCCs, in the snapshot's order (none where a member is
    // drawn inside an aggregate, or when there are too many to read).
    const std::vector<SccHullItem *> &sccHulls() const { return hulls_; }
    // The roles of the sockets drawn at this step, one bit per GcRole (aggregates included).
    unsigned rolesDrawn() const { return roles_drawn_; }
    // The sockets the last move changed (role, counts, queue, reachability, or new), ringed
    // until the next; none after a jump that changed too much to point at.
    const std::vector<std::uint32_t> &changedSockets() const { return changed_; }
    // The classic collection's place: the socket whose queue it scans (npos: none drawn).
    std::uint32_t scanCursorSocket() const { return scan_cursor_sock_; }
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
    void syncBadges();
    void syncHulls();
    void syncScanCursor();
    void markChanges(const inflight::GraphSnapshot &before);
    void reshapeHulls();
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
    bool besideNeighbour(NodeItem *item, const SeedHints &hints, QPointF &seed) const;
    void noteWhereNewNodesWere(const graph::DisplayGraph &before);
    void animate(double t);
    QString labelOf(std::uint32_t sock) const;
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
    std::unordered_map<graph::NodeKey, QPointF> moved_out_of_; // new node -> the aggregate it was in
    std::unordered_map<graph::NodeKey, QPointF> placed_;       // node -> centre from the last layout
    std::vector<std::uint32_t> badged_;                        // sockets with a badge, in id order
    std::vector<SccHullItem *> hulls_;
    std::uint32_t scan_cursor_sock_ = 0xffffffffu;
    std::vector<std::uint32_t> changed_;
    unsigned roles_drawn_ = 0;

    LayoutCoordinator layout_;

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
