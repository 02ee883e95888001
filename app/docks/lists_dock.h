// SPDX-License-Identifier: GPL-3.0-or-later
// "Collector's lists": the lists the running collector works on, in their real order.
// classic/async: gc_inflight_list, gc_candidates (with the restore walk's cursor),
// not_cycle_list, the hitlist. graph: the vertex stack, the edge stack, the SCCs of the
// current collection with their verdicts, the hitlist. The row the current micro-step touched
// is highlighted in the list it is now on; the selected socket is highlighted everywhere; a
// click selects a row's socket.
#pragma once

#include "inflight/event.hpp"

#include <QDockWidget>

#include <vector>

class QLabel;
class QListView;
class QStackedWidget;
class PlayerController;

namespace docks {

class DockListModel;
class GcListModel;
class HitlistModel;
class VertexStackModel;
class EdgeStackModel;
class SccModel;

class ListsDock : public QDockWidget {
    Q_OBJECT
public:
    explicit ListsDock(PlayerController &controller, QWidget *parent = nullptr);

    // For tests and the main window.
    GcListModel *gcList(inflight::ListId list) const;
    HitlistModel *hitlist() const { return hitlist_; }
    VertexStackModel *vertexStack() const { return vertex_stack_; }
    EdgeStackModel *edgeStack() const { return edge_stack_; }
    SccModel *sccs() const { return sccs_; }
    QListView *view(DockListModel *model) const;
    bool showingGraph() const;
    QString phaseText() const;

private:
    struct Section {
        DockListModel *model;
        bool graph;
        QLabel *title;
        QListView *view;
        QString name;
        QString empty;
    };
    QWidget *addSection(DockListModel *model, bool graph, const QString &name, const QString &tip,
                        const QString &empty);
    void updateTitles();
    void updatePhase();
    void updateGlobals();
    void applyTheme();

    PlayerController &controller_;
    QLabel *phase_ = nullptr;
    QLabel *globals_ = nullptr; // unix_tot_inflight, gc_in_progress, graph state, users
    QStackedWidget *pages_ = nullptr;
    GcListModel *inflight_ = nullptr, *candidates_ = nullptr, *not_cycle_ = nullptr;
    HitlistModel *hitlist_ = nullptr;
    VertexStackModel *vertex_stack_ = nullptr;
    EdgeStackModel *edge_stack_ = nullptr;
    SccModel *sccs_ = nullptr;
    std::vector<Section> sections_;
};

} // namespace docks
