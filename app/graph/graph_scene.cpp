// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/graph_scene.h"

#include "graph/aggregate_item.h"
#include "graph/collector_badge_item.h"
#include "graph/edge_item.h"
#include "graph/fd_edge_item.h"
#include "graph/finding_mark_item.h"
#include "graph/graph_style.h"
#include "graph/peer_link_item.h"
#include "graph/process_item.h"
#include "graph/scan_cursor_item.h"
#include "graph/scc_hull_item.h"
#include "graph/socket_item.h"
#include "inflight/scc_caption.hpp"

#include <QGraphicsSceneMouseEvent>
#include <QVariantAnimation>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using graph::NodeKey;

namespace {

constexpr std::uint32_t kNoNode = 0xffffffffu;
constexpr double kGap = 30;        // least space between two boxes in a layout
constexpr double kCompactGap = 18; // in the presentation layout
constexpr int kAnimationMs = 250;
constexpr std::size_t kMaxAnimated = 2500;        // more moving items: jump
constexpr std::size_t kObstacleRoutingMax = 1000; // nodes; above, edges are not bent around boxes
constexpr std::size_t kFaintFdsAbove = 40;

} // namespace

GraphScene::GraphScene(QObject *parent) : QGraphicsScene(parent), layout_(*this)
{
    connect(&layout_, &LayoutCoordinator::planReady, this, &GraphScene::planReady);
    animation_ = new QVariantAnimation(this);
    animation_->setDuration(kAnimationMs);
    animation_->setStartValue(0.0);
    animation_->setEndValue(1.0);
    animation_->setEasingCurve(QEasingCurve::OutCubic);
    connect(animation_, &QVariantAnimation::valueChanged, this, [this](const QVariant &v) { animate(v.toDouble()); });
    connect(animation_, &QVariantAnimation::finished, this, [this] { finishAnimations(); });
    setItemIndexMethod(QGraphicsScene::BspTreeIndex);
}

GraphScene::~GraphScene()
{
    animation_->stop();
    moves_.clear();
    for (SccHullItem *hull : hulls_)
        delete hull; // with its caption, before ~QGraphicsScene deletes the items it holds
}

// ---- content ------------------------------------------------------------------------------------

void GraphScene::setAggregateThreshold(std::size_t sockets)
{
    options_.aggregate_above = sockets;
    has_structure_ = false; // re-decide on the next snapshot
}

void GraphScene::clearGraph()
{
    finishAnimations();
    highlighted_ = nullptr;
    marked_.clear(); // the marks are children of the nodes clear() deletes
    // Children (embryos) go with their listeners: delete top-level sockets only via clear().
    for (SccHullItem *hull : hulls_)
        delete hull; // with its caption, an item of its own that clear() would delete twice
    hulls_.clear();
    clear();
    badged_.clear();
    scan_cursor_sock_ = inflight::npos;
    sockets_.clear();
    processes_.clear();
    aggregates_.clear();
    edges_.clear();
    fd_edges_.clear();
    peer_links_.clear();
    placed_.clear();
    expanded_.clear();
    expand_origin_.clear();
    snapshot_ = std::make_shared<const inflight::GraphSnapshot>();
    node_index_.clear();
    display_ = {};
    has_structure_ = false;
    layout_.clear(); // any plan or layout on its way is of the old graph
    setSceneRect(QRectF(0, 0, 1, 1));
    emit contentChanged();
}

void GraphScene::setSnapshot(std::shared_ptr<const inflight::GraphSnapshot> snapshot, bool graph_era)
{
    const std::uint64_t key = graph::structureKey(*snapshot);
    const bool era_changed = graph_era != graph_era_;
    // The same step again (a restyle, a new threshold) keeps the marks of the move to it.
    const bool moved = snapshot != snapshot_;
    const std::shared_ptr<const inflight::GraphSnapshot> before = std::move(snapshot_);
    snapshot_ = std::move(snapshot);
    graph_era_ = graph_era;
    node_index_ = graph::nodeIndexById(*snapshot_);
    if (!has_structure_ || key != structure_key_ || era_changed) {
        structure_key_ = key;
        has_structure_ = true;
        rebuild();
    } else {
        updateState();
    }
    if (moved)
        markChanges(era_changed || !before ? inflight::GraphSnapshot() : *before);
}

void GraphScene::markChanges(const inflight::GraphSnapshot &before)
{
    // What a student should look at after a press: the sockets whose colour, counts, queue or
    // reachability the move changed, and the new ones. A jump that changed many points at
    // nothing (the first picture of a run included).
    constexpr std::size_t kMost = 12;
    std::vector<std::uint32_t> now;
    if (!before.nodes.empty()) {
        for (const auto &n : snapshot_->nodes) {
            const bool fresh = n.sock >= before.nodes.size();
            const auto &b = fresh ? n : before.nodes[n.sock];
            if (fresh || b.role != n.role || b.file_refs != n.file_refs || b.inflight != n.inflight ||
                b.queue != n.queue || b.unreachable != n.unreachable)
                now.push_back(n.sock);
            if (now.size() > kMost)
                break;
        }
        if (now.size() > kMost || now.size() * 2 > snapshot_->nodes.size() + 2)
            now.clear();
    }
    for (std::uint32_t sock : changed_)
        if (SocketItem *item = socketItem(sock))
            item->setChanged(false);
    changed_.clear();
    for (std::uint32_t sock : now)
        if (SocketItem *item = socketItem(sock)) {
            item->setChanged(true);
            changed_.push_back(sock);
        }
}

QString GraphScene::labelOf(std::uint32_t sock) const
{
    if (sock < node_index_.size() && node_index_[sock] != kNoNode)
        return QString::fromUtf8(snapshot_->label_of(snapshot_->nodes[node_index_[sock]]));
    return QStringLiteral("socket %1").arg(sock);
}

void GraphScene::syncSockets(bool &sizes_changed)
{
    // Where each drawn socket belongs: top level, or inside its listener (unaccepted embryo).
    std::unordered_map<std::uint32_t, std::uint32_t> parent_of; // sock -> listener sock or kNoNode
    for (const auto &n : snapshot_->nodes) {
        if (!display_.individual(n.sock))
            continue;
        std::uint32_t parent = kNoNode;
        if (n.embryo && n.listener_sock < node_index_.size() && node_index_[n.listener_sock] != kNoNode &&
            display_.individual(n.listener_sock))
            parent = n.listener_sock;
        parent_of[n.sock] = parent;
    }
    auto keeps = [&](std::uint32_t sock, SocketItem *item) {
        auto it = parent_of.find(sock);
        if (it == parent_of.end())
            return false;
        if (it->second == kNoNode)
            return item->parentItem() == nullptr;
        auto *p = static_cast<SocketItem *>(item->parentItem());
        return p && p->sock() == it->second && parent_of.contains(it->second) && parent_of[it->second] == kNoNode;
    };
    for (auto &[sock, item] : sockets_)
        item->forgetEmbryos(); // re-set below, after embryo items come and go
    // Remove: children first, so deleting a listener never deletes an item we still track.
    for (int pass = 0; pass < 2; ++pass)
        for (auto it = sockets_.begin(); it != sockets_.end();) {
            SocketItem *item = it->second;
            if ((pass == 0) == (item->parentItem() != nullptr) && !keeps(it->first, item)) {
                if (item == highlighted_)
                    highlighted_ = nullptr;
                for (QGraphicsItem *child : item->childItems()) {
                    // A finding's mark goes with its node; tracked children were removed in pass 0.
                    if (child->type() != FindingMarkItem::Type)
                        child->setParentItem(nullptr);
                }
                placed_.erase(item->key());
                delete item;
                it = sockets_.erase(it);
            } else {
                ++it;
            }
        }
    // Create and update: top level first, then embryos inside their listeners.
    for (int pass = 0; pass < 2; ++pass)
        for (const auto &n : snapshot_->nodes) {
            auto pit = parent_of.find(n.sock);
            if (pit == parent_of.end() || (pass == 0) != (pit->second == kNoNode))
                continue;
            auto it = sockets_.find(n.sock);
            if (it == sockets_.end()) {
                SocketItem *parent = pit->second == kNoNode ? nullptr : sockets_.at(pit->second);
                auto *item = new SocketItem(n, labelOf(n.sock), graph_era_, parent);
                if (!parent) {
                    item->setVisible(false); // until the layout places it
                    addItem(item);
                }
                sockets_.emplace(n.sock, item);
            } else if (it->second->setNode(n, labelOf(n.sock), graph_era_) && !it->second->parentItem()) {
                sizes_changed = true;
            }
        }
    // Listeners hold their embryos.
    std::map<std::uint32_t, std::vector<SocketItem *>> embryos;
    for (auto &[sock, item] : sockets_)
        if (item->parentItem())
            embryos[static_cast<SocketItem *>(item->parentItem())->sock()].push_back(item);
    for (auto &[sock, item] : sockets_) {
        if (item->parentItem() || !item->node().listener)
            continue;
        auto &list = embryos[sock];
        std::sort(list.begin(), list.end(), [](SocketItem *a, SocketItem *b) { return a->sock() < b->sock(); });
        if (item->setEmbryos(list))
            sizes_changed = true;
    }
}

void GraphScene::syncProcesses(bool &sizes_changed)
{
    std::unordered_set<std::uint32_t> present;
    for (std::size_t i = 0; i < snapshot_->processes.size(); ++i) {
        const auto &p = snapshot_->processes[i];
        present.insert(p.id);
        auto it = processes_.find(p.id);
        if (it == processes_.end()) {
            auto *item = new ProcessItem(snapshot_, i);
            item->setVisible(false);
            addItem(item);
            processes_.emplace(p.id, item);
        } else if (it->second->setProcess(snapshot_, i)) {
            sizes_changed = true;
        }
    }
    for (auto it = processes_.begin(); it != processes_.end();) {
        if (!present.contains(it->first)) {
            if (it->second == highlighted_)
                highlighted_ = nullptr;
            placed_.erase(it->second->key());
            delete it->second;
            it = processes_.erase(it);
        } else {
            ++it;
        }
    }
}

void GraphScene::syncAggregates(bool &sizes_changed)
{
    std::unordered_set<NodeKey> present;
    for (const auto &g : display_.aggregates) {
        present.insert(g.key);
        auto it = aggregates_.find(g.key);
        if (it == aggregates_.end()) {
            auto *item = new AggregateItem(g);
            item->setVisible(false);
            addItem(item);
            aggregates_.emplace(g.key, item);
        } else if (it->second->setGroup(g)) {
            sizes_changed = true;
        }
    }
    for (auto it = aggregates_.begin(); it != aggregates_.end();) {
        if (!present.contains(it->first)) {
            if (it->second == highlighted_)
                highlighted_ = nullptr;
            placed_.erase(it->first);
            delete it->second;
            it = aggregates_.erase(it);
        } else {
            ++it;
        }
    }
}

void GraphScene::syncEdges()
{
    std::unordered_set<std::uint64_t> present;
    // One item per in-flight copy between two sockets drawn on their own.
    for (const auto &e : snapshot_->edges) {
        if (!display_.individual(e.from) || !display_.individual(e.to))
            continue;
        SocketItem *from = socketItem(e.from), *to = socketItem(e.to);
        if (!from || !to)
            continue;
        present.insert(e.id);
        EdgeItem *&item = edges_[e.id];
        if (!item) {
            item = new EdgeItem(e.id);
            addItem(item);
        }
        item->setEnds(from, to);
        const QString listener =
            to->parentItem() ? labelOf(static_cast<SocketItem *>(to->parentItem())->sock()) : QString();
        item->setCopy(e, labelOf(e.from), labelOf(e.to), listener);
    }
    auto nodeText = [this](NodeKey k) {
        if (graph::kindOf(k) == graph::NodeKind::aggregate) {
            AggregateItem *a = aggregateItem(k);
            return a ? a->title() : QStringLiteral("a group");
        }
        if (graph::kindOf(k) == graph::NodeKind::process) {
            ProcessItem *p = processItem(static_cast<std::uint32_t>(graph::payloadOf(k)));
            return p ? QString::fromStdString(p->process().name) : QString();
        }
        return labelOf(static_cast<std::uint32_t>(k));
    };
    for (const auto &b : display_.bundles) {
        if (b.fd)
            continue;
        NodeItem *from = nodeItem(b.from), *to = nodeItem(b.to);
        if (!from || !to)
            continue;
        present.insert(b.key);
        EdgeItem *&item = edges_[b.key];
        if (!item) {
            item = new EdgeItem(b.key);
            addItem(item);
        }
        item->setEnds(from, to);
        item->setBundle(b, nodeText(b.from), nodeText(b.to));
    }
    for (auto it = edges_.begin(); it != edges_.end();) {
        if (!present.contains(it->first)) {
            delete it->second;
            it = edges_.erase(it);
        } else {
            ++it;
        }
    }

    // Fds: one dashed edge per fd into a drawn socket, one per process and aggregate otherwise.
    present.clear();
    for (const auto &p : snapshot_->processes) {
        ProcessItem *proc = processItem(p.id);
        if (!proc)
            continue;
        const bool faint = p.fds.size() > kFaintFdsAbove;
        for (const auto &fd : p.fds) {
            if (!display_.individual(fd.sock))
                continue;
            SocketItem *to = socketItem(fd.sock);
            if (!to)
                continue;
            const std::uint64_t key = graph::mix(graph::mix(0xfd0, p.id), static_cast<std::uint64_t>(fd.fd));
            present.insert(key);
            FdEdgeItem *&item = fd_edges_[key];
            if (!item) {
                item = new FdEdgeItem(key);
                addItem(item);
            }
            item->setEnds(proc, to, fd.fd, QString::fromStdString(snapshot_->fd_name(fd)), labelOf(fd.sock), 1);
            item->setFaint(faint);
        }
    }
    for (const auto &b : display_.bundles) {
        if (!b.fd)
            continue;
        ProcessItem *proc = processItem(static_cast<std::uint32_t>(graph::payloadOf(b.from)));
        NodeItem *to = nodeItem(b.to);
        if (!proc || !to)
            continue;
        present.insert(b.key);
        FdEdgeItem *&item = fd_edges_[b.key];
        if (!item) {
            item = new FdEdgeItem(b.key);
            addItem(item);
        }
        item->setEnds(proc, to, b.first_fd, QString(), nodeText(b.to), b.count);
    }
    for (auto it = fd_edges_.begin(); it != fd_edges_.end();) {
        if (!present.contains(it->first)) {
            delete it->second;
            it = fd_edges_.erase(it);
        } else {
            ++it;
        }
    }
    // Peers, both ends drawn on their own: a link, and side by side in the layout.
    std::set<std::pair<std::uint32_t, std::uint32_t>> peers;
    for (const auto &n : snapshot_->nodes) {
        if (n.embryo || n.peer == inflight::npos || n.peer >= snapshot_->nodes.size() || n.sock > n.peer)
            continue;
        if (snapshot_->nodes[n.peer].embryo || !display_.individual(n.sock) || !display_.individual(n.peer))
            continue;
        SocketItem *a = socketItem(n.sock), *b = socketItem(n.peer);
        if (!a || !b || a->parentItem() || b->parentItem())
            continue;
        peers.insert({n.sock, n.peer});
        PeerLinkItem *&item = peer_links_[{n.sock, n.peer}];
        if (!item) {
            item = new PeerLinkItem(a, b);
            addItem(item);
        } else {
            item->setEnds(a, b);
        }
    }
    for (auto it = peer_links_.begin(); it != peer_links_.end();) {
        if (!peers.contains(it->first)) {
            delete it->second;
            it = peer_links_.erase(it);
        } else {
            ++it;
        }
    }
    // Each socket's fd tab.
    std::unordered_map<std::uint32_t, int> open_fds;
    for (const auto &p : snapshot_->processes)
        for (const auto &fd : p.fds)
            ++open_fds[fd.sock];
    for (auto &[sock, item] : sockets_) {
        auto it = open_fds.find(sock);
        item->setOpenFds(it == open_fds.end() ? 0 : it->second);
    }
    assignLanes();
}

void GraphScene::assignLanes()
{
    // Parallel edges between the same two drawn nodes (either direction) get distinct bends.
    std::map<std::pair<NodeKey, NodeKey>, std::vector<EdgeItem *>> groups;
    for (auto &[key, item] : edges_) {
        const NodeKey a = item->from()->key(), b = item->to()->key();
        groups[{std::min(a, b), std::max(a, b)}].push_back(item);
    }
    for (auto &[pair, list] : groups) {
        std::sort(list.begin(), list.end(), [](EdgeItem *x, EdgeItem *y) { return x->key() < y->key(); });
        for (std::size_t i = 0; i < list.size(); ++i)
            list[i]->setLane(static_cast<int>(i), static_cast<int>(list.size()),
                             list[i]->from()->key() > list[i]->to()->key());
    }
}

void GraphScene::updateRoleCounts()
{
    roles_drawn_ = 0;
    for (const auto &n : snapshot_->nodes)
        roles_drawn_ |= 1u << static_cast<unsigned>(n.role);
    for (auto &g : display_.aggregates) {
        AggregateItem *item = aggregateItem(g.key);
        if (!item)
            continue;
        std::array<std::uint32_t, AggregateItem::kRoles> counts{};
        for (std::uint32_t sock : g.sockets)
            if (sock < node_index_.size() && node_index_[sock] != kNoNode)
                ++counts[static_cast<std::size_t>(snapshot_->nodes[node_index_[sock]].role)];
        item->setRoleCounts(counts);
    }
}

void GraphScene::rebuild()
{
    finishAnimations();
    const graph::DisplayGraph before =
        std::exchange(display_, graph::buildDisplayGraph(*snapshot_, expanded_, options_));
    bool sizes_changed = false;
    syncSockets(sizes_changed);
    syncProcesses(sizes_changed);
    syncAggregates(sizes_changed);
    noteWhereNewNodesWere(before);
    syncEdges();
    updateRoleCounts();
    syncBadges();
    syncHulls();
    syncScanCursor();
    setSelectedSocket(selected_);

    std::size_t fresh = 0, survivors = 0;
    auto check = [&](NodeItem *item) { ++(placed_.contains(item->key()) ? survivors : fresh); };
    for (auto &[s, item] : sockets_)
        if (!item->parentItem())
            check(item);
    for (auto &[p, item] : processes_)
        check(item);
    for (auto &[k, item] : aggregates_)
        check(item);
    // A jump to a very different step (many new nodes, few survivors) gets a fresh layout;
    // otherwise survivors are pinned and only the new nodes are placed.
    const bool full = survivors == 0 || (!expanding_ && fresh >= 8 && fresh > 2 * survivors);
    expanding_ = false;
    if (fresh || sizes_changed)
        layout_.requestLayout(full);
    updateVisibility();
    routeEdges();
    emit contentChanged();
}

void GraphScene::updateState()
{
    bool sizes_changed = false;
    for (const auto &n : snapshot_->nodes) {
        auto it = sockets_.find(n.sock);
        if (it != sockets_.end() && it->second->setNode(n, labelOf(n.sock), graph_era_)) {
            SocketItem *item = it->second;
            if (item->parentItem()) {
                // An embryo grew: its listener re-arranges the accept queue.
                auto *listener = static_cast<SocketItem *>(item->parentItem());
                std::vector<SocketItem *> list;
                for (QGraphicsItem *c : listener->childItems())
                    if (c->type() == SocketItem::Type)
                        list.push_back(static_cast<SocketItem *>(c));
                std::sort(list.begin(), list.end(), [](SocketItem *a, SocketItem *b) { return a->sock() < b->sock(); });
                sizes_changed |= listener->setEmbryos(list);
            } else {
                sizes_changed = true;
            }
        }
    }
    for (std::size_t i = 0; i < snapshot_->processes.size(); ++i)
        if (ProcessItem *item = processItem(snapshot_->processes[i].id))
            sizes_changed |= item->setProcess(snapshot_, i);
    // Which copies are on the hitlist changes without a new topology.
    std::unordered_map<std::uint64_t, std::uint32_t> bundle_hits;
    for (const auto &e : snapshot_->edges) {
        auto it = edges_.find(e.id);
        if (it != edges_.end() && !it->second->isBundle()) {
            it->second->updateCopy(e);
            continue;
        }
        NodeKey a, b;
        if (e.on_hitlist && graph::bundleEnds(display_, e, a, b))
            ++bundle_hits[graph::bundleKey(a, b, false)];
    }
    if (display_.aggregated)
        for (const auto &bundle : display_.bundles)
            if (!bundle.fd)
                if (EdgeItem *item = edgeItem(bundle.key)) {
                    auto it = bundle_hits.find(bundle.key);
                    item->setHitlist(it == bundle_hits.end() ? 0 : it->second);
                }
    updateRoleCounts();
    syncBadges();
    syncHulls();
    syncScanCursor();
    if (sizes_changed) {
        layout_.requestLayout(false);
        routeEdges();
    }
}

// ---- layout -------------------------------------------------------------------------------------

NodeItem *GraphScene::topLevel(NodeItem *item) const
{
    while (item && item->parentItem())
        item = static_cast<NodeItem *>(item->parentItem());
    return item;
}

void GraphScene::noteWhereNewNodesWere(const graph::DisplayGraph &before)
{
    // A node not yet placed whose sockets were drawn before, inside a placed aggregate (a
    // group that went in flight and split off, a socket that left its group): where that was.
    moved_out_of_.clear();
    auto note = [&](NodeItem *item, std::uint32_t sock) {
        if (placed_.contains(item->key()) || sock >= before.aggregate_of.size() || before.individual(sock))
            return;
        auto was = placed_.find(before.nodeOf(sock));
        if (was != placed_.end())
            moved_out_of_.emplace(item->key(), was->second);
    };
    for (auto &[sock, item] : sockets_)
        if (!item->parentItem())
            note(item, sock);
    for (const auto &g : display_.aggregates)
        if (AggregateItem *item = aggregateItem(g.key); item && !g.sockets.empty())
            note(item, g.sockets.front());
}

bool GraphScene::besideNeighbour(NodeItem *item, const SeedHints &hints, QPointF &seed) const
{
    // Next to a placed node it shares an in-flight copy with (receivers to the right).
    auto nb = hints.neighbour_of.find(item);
    if (nb == hints.neighbour_of.end())
        return false;
    NodeItem *other = nb->second.first;
    const double dir = nb->second.second;
    const QPointF p = placed_.at(other->key());
    seed = QPointF(p.x() + dir * (other->box().width() / 2 + item->box().width() / 2 + 3 * kGap), p.y());
    return true;
}

bool GraphScene::seedFor(NodeItem *item, QPointF &seed, const SeedHints &hints) const
{
    const double gap = kGap;
    // Out of a group drawn before: start where the group was, so the eye can follow it.
    if (auto was = moved_out_of_.find(item->key()); was != moved_out_of_.end()) {
        seed = was->second;
        return true;
    }
    if (item->type() == SocketItem::Type) {
        const auto sock = static_cast<SocketItem *>(item)->sock();
        // Drawn out of an aggregate: start where the aggregate was.
        if (!display_.instance_of.empty() && sock < display_.instance_of.size()) {
            auto it = expand_origin_.find(display_.instance_of[sock]);
            if (it != expand_origin_.end()) {
                seed = it->second + QPointF((sock % 7) * 20.0, (sock % 5) * 20.0);
                return true;
            }
        }
        // To the right of the process row holding it: sockets line up with their fds.
        auto fd = hints.fd_of.find(item);
        if (fd != hints.fd_of.end()) {
            ProcessItem *proc = fd->second->process();
            const QPointF p = placed_.at(proc->key());
            const QPointF anchor = proc->fdAnchor(fd->second->fd()) - proc->pos();
            seed = QPointF(p.x() + proc->box().width() / 2 + 3 * gap + item->box().width() / 2, p.y() + anchor.y());
            return true;
        }
        if (besideNeighbour(item, hints, seed))
            return true;
        // A socket is placed the moment it is created, before its fd exists: put it under the
        // socket created just before it (its socketpair partner, or the previous one)...
        // Columns wrap at a height that grows with √N, so thousands of sockets stay roughly square.
        auto before = hints.placed_sockets.lower_bound(sock);
        if (before != hints.placed_sockets.begin()) {
            --before;
            const QPointF p = placed_.at(before->second->key());
            const QRectF b = before->second->box();
            seed = QPointF(p.x(), p.y() + b.height() / 2 + gap + item->box().height() / 2);
            if (seed.y() + item->box().height() / 2 > hints.column_top + hints.column_height)
                seed = QPointF(p.x() + b.width() / 2 + 3 * gap + item->box().width() / 2,
                               hints.column_top + item->box().height() / 2);
            return true;
        }
        // ... or, the first one, right of the first process.
        if (hints.first_process) {
            const QPointF p = placed_.at(hints.first_process->key());
            const QRectF b = hints.first_process->box();
            seed = QPointF(p.x() + b.width() / 2 + 3 * gap + item->box().width() / 2,
                           p.y() + b.top() + item->box().height() / 2);
            return true;
        }
    }
    if (item->type() == AggregateItem::Type && besideNeighbour(item, hints, seed))
        return true;
    if (item->type() == ProcessItem::Type && !placed_.empty()) {
        double left = 1e300, top = 1e300;
        for (const auto &[k, p] : placed_) {
            left = std::min(left, p.x());
            top = std::min(top, p.y());
        }
        seed = QPointF(left - 4 * gap - item->box().width(), top + item->box().height() / 2);
        return true;
    }
    return false;
}

graph::LayoutRequest GraphScene::planRequest(const graph::RunGraph &run) const
{
    // Boxes measured by the real items (built off-scene and thrown away).
    graph::LayoutRequest req;
    req.full = true;
    req.gap = gap();
    req.aspect = aspect_;
    req.dot_max_nodes = dot_max_nodes_;
    // The plan's processes and names as a snapshot, which the items measure from (a run small
    // enough to be planned: a few thousand sockets at most).
    auto planned = std::make_shared<inflight::GraphSnapshot>();
    planned->names = run.names;
    planned->processes = run.processes;
    for (std::size_t i = 0; i < planned->processes.size(); ++i) {
        // Measured off-scene.
        ProcessItem item(planned, i);
        graph::LayoutNode n;
        n.key = item.key();
        n.width = item.box().width();
        n.height = item.box().height();
        n.process = true;
        req.nodes.push_back(n);
    }
    for (const auto &node : run.nodes) {
        SocketItem item(node, QString::fromUtf8(planned->label_of(node)), run.graph_era);
        std::vector<std::unique_ptr<SocketItem>> embryos;
        if (auto it = run.embryos.find(node.sock); it != run.embryos.end() && node.listener) {
            std::vector<SocketItem *> list;
            for (const auto &e : it->second) {
                embryos.push_back(
                    std::make_unique<SocketItem>(e, QString::fromUtf8(planned->label_of(e)), run.graph_era, &item));
                list.push_back(embryos.back().get());
            }
            item.setEmbryos(list);
        }
        graph::LayoutNode n;
        n.key = item.key();
        n.width = item.box().width();
        n.height = item.box().height();
        req.nodes.push_back(n);
        for (auto &e : embryos)
            e->setParentItem(nullptr); // the unique_ptr deletes it, not the parent
    }
    for (const auto &[pair, count] : run.edges)
        for (std::uint32_t i = 0; i < std::min<std::uint32_t>(count, 3); ++i)
            req.edges.push_back({graph::socketKey(pair.first), graph::socketKey(pair.second)});
    for (const auto &[process, sock] : run.fds)
        req.edges.push_back({graph::processKey(process), graph::socketKey(sock)});
    for (const auto &[a, b] : run.peers) // twice: peers side by side
        for (int i = 0; i < 2; ++i)
            req.edges.push_back({graph::socketKey(a), graph::socketKey(b)});
    return req;
}

graph::LayoutRequest GraphScene::layoutRequest(bool full, const LayoutCoordinator::Plan *plan) const
{
    graph::LayoutRequest req;
    req.full = full && !plan;
    req.gap = gap();
    req.aspect = aspect_;
    req.dot_max_nodes = dot_max_nodes_;
    SeedHints hints;
    if (!full) {
        for (auto &[k, fd] : fd_edges_)
            if (placed_.contains(fd->process()->key()) && !hints.fd_of.contains(fd->to()))
                hints.fd_of.emplace(fd->to(), fd);
        hints.column_top = 1e300;
        for (auto &[sock, item] : sockets_)
            if (!item->parentItem() && placed_.contains(item->key())) {
                hints.placed_sockets.emplace(sock, item);
                hints.column_top = std::min(hints.column_top, placed_.at(item->key()).y() - item->box().height() / 2);
            }
        if (hints.placed_sockets.empty())
            hints.column_top = 0;
        hints.column_height = std::max(12.0, 2.5 * std::sqrt(double(sockets_.size()))) *
                              (graphStyle().labelMetrics.height() * 2.6 + kGap);
        for (auto &[id, proc] : processes_)
            if (placed_.contains(proc->key()) &&
                (!hints.first_process ||
                 proc->processId() < static_cast<ProcessItem *>(hints.first_process)->processId()))
                hints.first_process = proc;
        for (auto &[k, e] : edges_) {
            NodeItem *a = topLevel(e->from()), *b = topLevel(e->to());
            if (a == b)
                continue;
            if (placed_.contains(a->key()) && !hints.neighbour_of.contains(b))
                hints.neighbour_of.emplace(b, std::make_pair(a, 1.0));
            if (placed_.contains(b->key()) && !hints.neighbour_of.contains(a))
                hints.neighbour_of.emplace(a, std::make_pair(b, -1.0));
        }
    }
    auto add = [&](NodeItem *item, bool process) {
        graph::LayoutNode n;
        n.key = item->key();
        n.width = item->box().width();
        n.height = item->box().height();
        n.process = process;
        auto it = placed_.find(n.key);
        const auto planned = plan ? plan->find(n.key) : LayoutCoordinator::Plan::const_iterator();
        if (!full && it != placed_.end()) {
            n.pinned = true;
            n.x = it->second.x();
            n.y = it->second.y();
        } else if (plan && planned != plan->end()) {
            n.pinned = true;
            n.x = planned->second.x();
            n.y = planned->second.y();
        } else if (!req.full) {
            QPointF seed;
            if (seedFor(item, seed, hints)) {
                n.seeded = true;
                n.x = seed.x();
                n.y = seed.y();
            }
        }
        req.nodes.push_back(n);
    };
    // Processes first (leftmost in dot's ranks), then sockets and aggregates in id order.
    std::vector<ProcessItem *> procs;
    for (auto &[id, item] : processes_)
        procs.push_back(item);
    std::sort(procs.begin(), procs.end(),
              [](ProcessItem *a, ProcessItem *b) { return a->processId() < b->processId(); });
    for (ProcessItem *p : procs)
        add(p, true);
    std::vector<NodeItem *> others;
    for (auto &[s, item] : sockets_)
        if (!item->parentItem())
            others.push_back(item);
    for (auto &[k, item] : aggregates_)
        others.push_back(item);
    std::sort(others.begin(), others.end(), [](NodeItem *a, NodeItem *b) { return a->key() < b->key(); });
    for (NodeItem *n : others)
        add(n, false);
    for (auto &[k, e] : edges_) {
        const NodeKey a = topLevel(e->from())->key(), b = topLevel(e->to())->key();
        for (std::uint32_t i = 0; i < std::min<std::uint32_t>(e->count(), 3); ++i)
            req.edges.push_back({a, b});
    }
    for (auto &[k, e] : fd_edges_)
        req.edges.push_back({e->process()->key(), topLevel(e->to())->key()});
    for (auto &[k, link] : peer_links_)
        for (int i = 0; i < 2; ++i)
            req.edges.push_back({link->a()->key(), link->b()->key()});
    return req;
}

void GraphScene::place(const std::vector<NodeKey> &keys, const graph::LayoutResult &result)
{
    finishAnimations();
    if (!result.ok)
        qWarning("graph layout failed (%s); placing nodes in a grid", result.error.c_str());
    moves_.clear();
    double grid_x = 0, grid_y = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        NodeItem *item = nodeItem(keys[i]);
        if (!item)
            continue;
        QPointF p(result.positions[i].x, result.positions[i].y);
        if (!result.ok || !std::isfinite(p.x()) || !std::isfinite(p.y())) {
            p = QPointF(grid_x, grid_y);
            grid_x += 220;
            if (grid_x > 2200) {
                grid_x = 0;
                grid_y += 120;
            }
        }
        const bool was_placed = placed_.contains(item->key()) && item->isVisible();
        placed_[item->key()] = p;
        item->setTarget(p);
        if (was_placed) {
            if (item->pos() != p)
                moves_.push_back({item, item->pos(), p, -1});
        } else {
            // A new node appears in place and fades in.
            const double opacity = item->opacity();
            item->setPos(p);
            item->setVisible(true);
            moves_.push_back({item, p, p, opacity});
        }
    }
    updateVisibility();
    if (animated_ && !moves_.empty() && moves_.size() <= kMaxAnimated) {
        for (const Move &m : moves_)
            if (m.fade_to >= 0)
                m.item->setOpacity(0);
        animation_->start();
    } else {
        finishAnimations();
    }
    routeEdges();
    updateSceneRect();
    emit layoutApplied(result.generation);
    emit contentChanged();
}

void GraphScene::animate(double t)
{
    for (const Move &m : moves_) {
        m.item->setPos(m.from + (m.to - m.from) * t);
        if (m.fade_to >= 0)
            m.item->setOpacity(m.fade_to * t);
    }
    routeEdges();
}

void GraphScene::finishAnimations()
{
    if (moves_.empty())
        return;
    animation_->stop();
    for (const Move &m : moves_) {
        m.item->setPos(m.to);
        if (m.fade_to >= 0)
            m.item->setOpacity(m.fade_to);
    }
    moves_.clear();
    routeEdges();
    updateSceneRect();
}

void GraphScene::updateVisibility()
{
    auto shown = [this](NodeItem *n) {
        NodeItem *top = topLevel(n);
        return top && top->isVisible();
    };
    for (auto &[k, e] : edges_)
        e->setVisible(shown(e->from()) && shown(e->to()));
    for (auto &[k, e] : fd_edges_)
        e->setVisible(shown(e->process()) && shown(e->to()));
    for (auto &[k, link] : peer_links_)
        link->setVisible(shown(link->a()) && shown(link->b()));
}

void GraphScene::routeEdges()
{
    edge_geometry::Obstacles obstacles;
    const bool avoid = sockets_.size() + processes_.size() + aggregates_.size() <= kObstacleRoutingMax;
    if (avoid) {
        for (auto &[s, item] : sockets_)
            if (item->isVisible() && !item->parentItem())
                obstacles.add(item, item->sceneBox());
        for (auto &[p, item] : processes_)
            if (item->isVisible())
                obstacles.add(item, item->sceneBox());
        for (auto &[k, item] : aggregates_)
            if (item->isVisible())
                obstacles.add(item, item->sceneBox());
    }
    for (auto &[k, e] : edges_)
        if (e->isVisible())
            e->route(avoid ? &obstacles : nullptr);
    for (auto &[k, e] : fd_edges_)
        if (e->isVisible())
            e->route(avoid ? &obstacles : nullptr);
    for (auto &[k, link] : peer_links_)
        link->sync();
    reshapeHulls();
}

QRectF GraphScene::contentRect() const
{
    QRectF r;
    auto add = [&](NodeItem *item) {
        auto it = placed_.find(item->key());
        if (it == placed_.end())
            return;
        const QRectF b = item->box().translated(it->second);
        r = r.isNull() ? b : r.united(b);
    };
    for (auto &[s, item] : sockets_)
        if (!item->parentItem())
            add(item);
    for (auto &[p, item] : processes_)
        add(item);
    for (auto &[k, item] : aggregates_)
        add(item);
    if (r.isNull())
        return QRectF(0, 0, 1, 1);
    // Room for the highlight ring and edges bending around the outer boxes; the presentation
    // layout keeps the margin small, every pixel of the pane going to the boxes.
    return compact_ ? r.adjusted(-16, -16, 16, 16) : r.adjusted(-70, -90, 70, 60);
}

void GraphScene::updateSceneRect()
{
    QRectF r = contentRect();
    if (moves_.empty())
        for (auto &[k, e] : edges_)
            if (e->isVisible())
                r = r.united(e->sceneBoundingRect().adjusted(-10, -10, 10, 10));
    for (std::uint32_t sock : badged_)
        if (const CollectorBadgeItem *mark = badgeOf(sock); mark && mark->isVisible())
            r = r.united(mark->sceneBoundingRect());
    for (const SccHullItem *hull : hulls_)
        if (hull->isVisible())
            r = r.united(hull->sceneBoundingRect()).united(hull->captionRect());
    setSceneRect(r);
}

// ---- items --------------------------------------------------------------------------------------

SocketItem *GraphScene::socketItem(std::uint32_t sock) const
{
    auto it = sockets_.find(sock);
    return it == sockets_.end() ? nullptr : it->second;
}

ProcessItem *GraphScene::processItem(std::uint32_t process) const
{
    auto it = processes_.find(process);
    return it == processes_.end() ? nullptr : it->second;
}

EdgeItem *GraphScene::edgeItem(std::uint64_t id) const
{
    auto it = edges_.find(id);
    return it == edges_.end() ? nullptr : it->second;
}

AggregateItem *GraphScene::aggregateItem(NodeKey key) const
{
    auto it = aggregates_.find(key);
    return it == aggregates_.end() ? nullptr : it->second;
}

NodeItem *GraphScene::nodeItem(NodeKey key) const
{
    switch (graph::kindOf(key)) {
    case graph::NodeKind::socket: return socketItem(static_cast<std::uint32_t>(key));
    case graph::NodeKind::process: return processItem(static_cast<std::uint32_t>(graph::payloadOf(key)));
    case graph::NodeKind::aggregate: return aggregateItem(key);
    }
    return nullptr;
}

NodeItem *GraphScene::itemShowing(std::uint32_t sock) const
{
    if (SocketItem *s = socketItem(sock))
        return s;
    if (!display_.individual(sock))
        return aggregateItem(display_.nodeOf(sock));
    return nullptr;
}

template <typename T, typename Map>
static QList<T *> valuesOf(const Map &m)
{
    QList<T *> list;
    list.reserve(static_cast<qsizetype>(m.size()));
    for (auto &[k, v] : m)
        list.push_back(v);
    return list;
}

QList<SocketItem *> GraphScene::socketItems() const { return valuesOf<SocketItem>(sockets_); }
QList<EdgeItem *> GraphScene::edgeItems() const { return valuesOf<EdgeItem>(edges_); }
QList<FdEdgeItem *> GraphScene::fdEdgeItems() const { return valuesOf<FdEdgeItem>(fd_edges_); }

QList<PeerLinkItem *> GraphScene::peerLinkItems() const
{
    QList<PeerLinkItem *> out;
    for (const auto &[k, link] : peer_links_)
        out << link;
    return out;
}
QList<ProcessItem *> GraphScene::processItems() const { return valuesOf<ProcessItem>(processes_); }
QList<AggregateItem *> GraphScene::aggregateItems() const { return valuesOf<AggregateItem>(aggregates_); }

// ---- aggregates ---------------------------------------------------------------------------------

bool GraphScene::expandAggregate(NodeKey key, std::size_t instances)
{
    AggregateItem *item = aggregateItem(key);
    if (!item || instances == 0)
        return false;
    const QPointF origin = placed_.contains(key) ? placed_.at(key) : item->pos();
    const auto &list = item->group().instances;
    // If what would stay collapsed is too few to be worth an aggregate, draw it all.
    std::size_t take = std::min(instances, list.size());
    if (list.size() - take < options_.min_instances)
        take = list.size();
    for (std::size_t i = 0; i < take; ++i) {
        expanded_.insert(list[i]);
        expand_origin_[list[i]] = origin;
    }
    has_structure_ = false;
    expanding_ = true;
    setSnapshot(snapshot_, graph_era_); // the same step: its marks stay
    return true;
}

bool GraphScene::expandToShow(std::uint32_t sock)
{
    if (display_.individual(sock) || sock >= display_.instance_of.size())
        return false;
    const std::uint32_t inst = display_.instance_of[sock];
    const NodeKey key = display_.nodeOf(sock);
    expanded_.insert(inst);
    if (placed_.contains(key))
        expand_origin_[inst] = placed_.at(key);
    has_structure_ = false;
    expanding_ = true;
    setSnapshot(std::move(snapshot_), graph_era_);
    return true;
}

// ---- findings -----------------------------------------------------------------------------------

void GraphScene::setFindingMarks(const std::vector<std::uint32_t> &sockets, const std::vector<std::uint32_t> &processes,
                                 const QString &finding)
{
    for (NodeKey key : marked_)
        if (NodeItem *node = nodeItem(key))
            for (QGraphicsItem *child : node->childItems())
                if (child->type() == FindingMarkItem::Type)
                    delete child;
    marked_.clear();
    auto mark = [&](NodeItem *node) {
        if (!node || isMarked(node->key()))
            return;
        new FindingMarkItem(node, finding);
        marked_.push_back(node->key());
    };
    for (std::uint32_t sock : sockets)
        mark(itemShowing(sock));
    for (std::uint32_t process : processes)
        mark(processItem(process));
}

void GraphScene::setExaminedEdge(std::optional<std::pair<std::uint32_t, std::uint32_t>> edge)
{
    for (auto &[key, item] : edges_) {
        const bool on =
            edge && !item->isBundle() && item->copy().from == edge->first && item->copy().effective_to == edge->second;
        item->setExamined(on);
    }
}

CollectorBadgeItem *GraphScene::badgeOf(std::uint32_t sock) const
{
    SocketItem *socket = socketItem(sock);
    if (!socket)
        return nullptr;
    for (QGraphicsItem *child : socket->childItems())
        if (child->type() == CollectorBadgeItem::Type)
            return static_cast<CollectorBadgeItem *>(child);
    return nullptr;
}

CollectorBadgeItem *GraphScene::walkMarkOf(std::uint32_t sock) const
{
    CollectorBadgeItem *badge = badgeOf(sock);
    return badge && badge->isWalkMark() ? badge : nullptr;
}

void GraphScene::syncBadges()
{
    // This step's numbers; the last step's go where the vertex left the walk or the socket the
    // candidates.
    std::vector<std::uint32_t> now;
    bool grown = false;
    auto keep = [&](std::uint32_t sock, auto &&update, auto &&make) {
        SocketItem *socket = socketItem(sock);
        if (!socket)
            return; // drawn inside an aggregate
        CollectorBadgeItem *item = badgeOf(sock);
        if (item && !update(item)) {
            delete item; // the other collector's badge
            item = nullptr;
        }
        if (!item) {
            make(socket);
            grown = true;
        }
        now.push_back(sock); // in socket order, as the snapshot keeps them
    };
    for (const auto &m : snapshot_->walk_marks)
        keep(
            m.sock,
            [&](CollectorBadgeItem *item) {
                if (!item->isWalkMark())
                    return false;
                item->setMark(m);
                return true;
            },
            [&](SocketItem *socket) { new CollectorBadgeItem(socket, m); });
    // The classic collection's candidates, from select to the hitlist: the counts it compares.
    if (!graph_era_)
        for (const auto &n : snapshot_->nodes)
            if (n.role == inflight::GcRole::candidate || n.role == inflight::GcRole::maybe_cycle)
                keep(
                    n.sock,
                    [&](CollectorBadgeItem *item) {
                        if (item->isWalkMark())
                            return false;
                        item->setCounts(n.file_refs, n.inflight);
                        return true;
                    },
                    [&](SocketItem *socket) { new CollectorBadgeItem(socket, n.file_refs, n.inflight); });
    for (std::uint32_t sock : badged_)
        if (!std::binary_search(now.begin(), now.end(), sock))
            delete badgeOf(sock);
    badged_ = std::move(now);
    // A badge over a top row of sockets reaches above the layout's box: the view can show it.
    if (grown)
        updateSceneRect();
}

void GraphScene::syncHulls()
{
    // A hull a student can read: a few SCCs whose members are drawn one by one. In a scene of
    // thousands the SCC list and the narration say it.
    constexpr std::size_t kMaxHulls = 48, kMaxMembers = 64;
    std::vector<const inflight::SnapshotScc *> shown;
    if (graph_era_ && snapshot_->sccs.size() <= kMaxHulls)
        for (const auto &scc : snapshot_->sccs) {
            const bool drawn = scc.members.size() <= kMaxMembers &&
                               std::all_of(scc.members.begin(), scc.members.end(),
                                           [this](std::uint32_t m) { return socketItem(m) != nullptr; });
            if (drawn)
                shown.push_back(&scc);
        }
    const bool grown = shown.size() > hulls_.size();
    while (hulls_.size() > shown.size()) {
        delete hulls_.back();
        hulls_.pop_back();
    }
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const QString caption = QString::fromStdString(inflight::scc_caption(*snapshot_, *shown[i]));
        if (i < hulls_.size()) {
            hulls_[i]->setScc(*shown[i], caption);
        } else {
            hulls_.push_back(new SccHullItem(*shown[i], caption));
            addItem(hulls_.back());
            addItem(hulls_.back()->captionItem());
        }
    }
    reshapeHulls();
    // A verdict's caption is longer than "judging": the view must be able to show it whole.
    const bool outside = std::any_of(hulls_.begin(), hulls_.end(), [this](const SccHullItem *h) {
        return h->isVisible() && !sceneRect().contains(h->captionRect());
    });
    if (grown || outside)
        updateSceneRect();
}

void GraphScene::syncScanCursor()
{
    const std::uint32_t sock = snapshot_->classic_scan_subject;
    if (sock == scan_cursor_sock_ && (sock == inflight::npos || socketItem(sock)))
        return;
    if (SocketItem *was = socketItem(scan_cursor_sock_))
        for (QGraphicsItem *child : was->childItems())
            if (child->type() == ScanCursorItem::Type)
                delete child;
    SocketItem *socket = socketItem(sock);
    scan_cursor_sock_ = socket ? sock : inflight::npos;
    if (socket)
        new ScanCursorItem(socket);
}

void GraphScene::reshapeHulls()
{
    if (hulls_.empty())
        return;
    std::vector<QRectF> taken; // what a caption should not cover: every box drawn
    for (auto &[s, item] : sockets_)
        if (item->isVisible() && !item->parentItem())
            taken.push_back(item->sceneBox());
    for (auto &[p, item] : processes_)
        if (item->isVisible())
            taken.push_back(item->sceneBox());
    for (SccHullItem *hull : hulls_) {
        std::vector<QRectF> boxes;
        bool visible = true;
        for (std::uint32_t m : hull->scc().members) {
            SocketItem *socket = socketItem(m);
            NodeItem *top = socket ? topLevel(socket) : nullptr;
            visible = visible && top && top->isVisible();
            if (!visible)
                break;
            boxes.push_back(socket->sceneBox());
            if (const CollectorBadgeItem *mark = walkMarkOf(m))
                boxes.push_back(mark->sceneBoundingRect());
        }
        hull->setVisible(visible);
        hull->reshape(visible ? boxes : std::vector<QRectF>(), taken);
    }
}

bool GraphScene::isMarked(NodeKey key) const { return std::find(marked_.begin(), marked_.end(), key) != marked_.end(); }

// ---- selection ----------------------------------------------------------------------------------

void GraphScene::setSelectedSocket(std::optional<std::uint32_t> sock)
{
    selected_ = sock;
    // The fds of a process with many are drawn only for the selected socket.
    for (auto &[k, e] : fd_edges_)
        if (e->isFaint())
            e->setEmphasized(sock && e->to() == socketItem(*sock));
    NodeItem *item = sock ? itemShowing(*sock) : nullptr;
    if (item == highlighted_) {
        if (item)
            item->setHighlighted(true);
        return;
    }
    if (highlighted_)
        highlighted_->setHighlighted(false);
    highlighted_ = item;
    if (item)
        item->setHighlighted(true);
}

void GraphScene::restyle()
{
    refreshGraphStyle();
    finishAnimations();
    for (auto &[s, item] : sockets_)
        if (item->parentItem())
            item->restyle();
    for (auto &[s, item] : sockets_)
        if (!item->parentItem()) {
            std::vector<SocketItem *> list;
            for (QGraphicsItem *c : item->childItems())
                if (c->type() == SocketItem::Type)
                    list.push_back(static_cast<SocketItem *>(c));
            std::sort(list.begin(), list.end(), [](SocketItem *a, SocketItem *b) { return a->sock() < b->sock(); });
            item->setEmbryos(list);
            item->restyle();
        }
    for (auto &[p, item] : processes_)
        item->restyle();
    for (auto &[k, item] : aggregates_)
        item->restyle();
    for (auto &[k, e] : edges_)
        e->update();
    for (auto &[k, e] : fd_edges_)
        e->update();
    layout_.layOutAgain(); // new sizes

    routeEdges();
    update();
}

double GraphScene::gap() const { return compact_ ? kCompactGap : kGap; }

void GraphScene::setCompact(bool on)
{
    if (on == compact_ && graphStyle().compact == on)
        return;
    compact_ = on;
    setCompactGraphStyle(on);
    restyle();
}

void GraphScene::setLayoutAspect(double aspect)
{
    if (!(aspect > 0) || !std::isfinite(aspect))
        return;
    const bool changed = aspect_ <= 0 || std::abs(std::log(aspect / aspect_)) > std::log(1.2);
    if (!changed)
        return;
    aspect_ = aspect;
    const graph::RunGraph *run = layout_.runGraph();
    const std::size_t nodes =
        run ? run->nodes.size() + run->processes.size() : sockets_.size() + processes_.size() + aggregates_.size();
    if (nodes <= graph::kArrangeMaxNodes)
        layout_.layOutAgain(); // a plan on its way was made for the old shape: it is superseded
}

// ---- mouse --------------------------------------------------------------------------------------

static NodeItem *nodeAt(QGraphicsScene *scene, const QPointF &pos)
{
    for (QGraphicsItem *item : scene->items(pos, Qt::IntersectsItemShape, Qt::DescendingOrder)) {
        if (item->type() == SocketItem::Type || item->type() == ProcessItem::Type ||
            item->type() == AggregateItem::Type)
            return static_cast<NodeItem *>(item);
    }
    return nullptr;
}

void GraphScene::mousePressEvent(QGraphicsSceneMouseEvent *event)
{
    NodeItem *node = event->button() == Qt::LeftButton ? nodeAt(this, event->scenePos()) : nullptr;
    if (!node) {
        QGraphicsScene::mousePressEvent(event); // not accepted: the view pans
        return;
    }
    event->accept();
    if (node->type() == SocketItem::Type)
        emit socketClicked(static_cast<SocketItem *>(node)->sock());
}

void GraphScene::mouseDoubleClickEvent(QGraphicsSceneMouseEvent *event)
{
    NodeItem *node = nodeAt(this, event->scenePos());
    if (node && node->type() == AggregateItem::Type) {
        event->accept();
        expandAggregate(node->key());
        return;
    }
    QGraphicsScene::mouseDoubleClickEvent(event);
}
