// SPDX-License-Identifier: GPL-3.0-or-later
#include "lists_dock.h"

#include "dock_common.h"
#include "edge_stack_model.h"
#include "gc_list_model.h"
#include "hitlist_model.h"
#include "scc_model.h"
#include "vertex_stack_model.h"

#include "../player_controller.h"
#include "../theme.h"

#include "inflight/step_snapshot.hpp"

#include <QLabel>
#include <QListView>
#include <QLocale>
#include <QPainter>
#include <QScrollArea>
#include <QStackedWidget>
#include <QStyledItemDelegate>
#include <QVBoxLayout>

#include <algorithm>

using namespace inflight;

namespace docks {

namespace {

// A list as tall as its rows (up to a cap), so that empty lists take little room and a long
// one scrolls; the layout shrinks them all when the dock is short.
class FitListView : public QListView {
public:
    using QListView::QListView;
    QSize sizeHint() const override
    {
        const int cap = rowHeight() * kMaxRows;
        const int content = model() && model()->rowCount() ? contentsSize().height() : rowHeight();
        return {QListView::sizeHint().width(), std::clamp(content, rowHeight(), cap) + 2 * frameWidth() + 2};
    }
    QSize minimumSizeHint() const override
    {
        return {QListView::minimumSizeHint().width(), rowHeight() * 3 / 2 + 2 * frameWidth()};
    }

protected:
    void updateGeometries() override
    {
        QListView::updateGeometries();
        // Called once the rows are laid out: the content height is known now.
        if (contentsSize().height() != fitted_) {
            fitted_ = contentsSize().height();
            updateGeometry();
        }
    }

private:
    static constexpr int kMaxRows = 40;
    int rowHeight() const { return std::max(QFontMetrics(rowFont(true)).height(), iconSize().height()) + 6; }
    int fitted_ = -1;
};

// Draws the row as usual plus a bold bar on its left edge when the current micro-step touched
// it: a pale highlight alone fades out on a projector.
class RowDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *p, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        // The row is drawn kBar pixels in; the strip on its left takes the row's background, or
        // the bar.
        QStyleOptionViewItem o(option);
        o.rect.adjust(kBar + 2, 0, 0, 0);
        QStyledItemDelegate::paint(p, o, index);
        const QRect strip(option.rect.left(), option.rect.top(), kBar + 2, option.rect.height());
        const QVariant bg = index.data(Qt::BackgroundRole);
        if (bg.canConvert<QBrush>())
            p->fillRect(strip, bg.value<QBrush>());
        if (index.data(TouchedRole).toBool()) {
            const Theme &t = Theme::instance();
            const QColor bar = t.highContrast() ? QColor(Qt::black) : QColor(0xc0, 0x70, 0x00);
            p->fillRect(strip.adjusted(0, 0, -2, 0), bar);
        }
    }
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QSize s = QStyledItemDelegate::sizeHint(option, index);
        s.setHeight(s.height() + 4);
        s.setWidth(s.width() + kBar + 2);
        return s;
    }

private:
    static constexpr int kBar = 5;
};

} // namespace

ListsDock::ListsDock(PlayerController &controller, QWidget *parent)
    : QDockWidget(tr("Collector's lists"), parent), controller_(controller)
{
    setObjectName(QStringLiteral("listsDock"));
    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);
    layout->setContentsMargins(6, 4, 6, 4);
    phase_ = new QLabel(body);
    phase_->setWordWrap(true);
    phase_->setToolTip(tr("What the collector is doing now, and which of its lists matter at this point."));
    layout->addWidget(phase_);
    globals_ = new QLabel(body);
    globals_->setObjectName(QStringLiteral("globals"));
    globals_->setWordWrap(true);
    globals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    globals_->setToolTip(tr("The collector's global state, named as in the kernel: unix_tot_inflight, each "
                            "user's unix_inflight, gc_in_progress and, for the graph collector, "
                            "unix_graph_maybe_cyclic / grouped, the index marks and the highest scc_index."));
    layout->addWidget(globals_);
    pages_ = new QStackedWidget(body);
    layout->addWidget(pages_, 1);

    hitlist_ = new HitlistModel(controller_, this);
    const QString hit_tip = tr("The skbs the collector will purge. Freeing an skb drops the file references it "
                               "carries, which is what finally releases the garbage sockets.");

    auto *classic = new QWidget(pages_);
    auto *classic_layout = new QVBoxLayout(classic);
    classic_layout->setContentsMargins(0, 0, 0, 0);
    inflight_ = new GcListModel(controller_, ListId::gc_inflight_list, this);
    candidates_ = new GcListModel(controller_, ListId::gc_candidates, this);
    not_cycle_ = new GcListModel(controller_, ListId::not_cycle_list, this);
    classic_layout->addWidget(addSection(
        inflight_, false, QStringLiteral("gc_inflight_list"),
        tr("Every socket with at least one copy of its file in flight (u->inflight > 0)."), tr("no socket in flight")));
    classic_layout->addWidget(addSection(candidates_, false, QStringLiteral("gc_candidates"),
                                         tr("Sockets whose every reference is in flight (file refs == inflight): they "
                                            "might be garbage. The restore walk's cursor moves down this list."),
                                         tr("empty")));
    classic_layout->addWidget(
        addSection(not_cycle_, false, QStringLiteral("not_cycle_list"),
                   tr("Candidates found reachable from outside during the restore walk: not garbage."), tr("empty")));
    classic_layout->addWidget(addSection(hitlist_, false, QStringLiteral("hitlist"), hit_tip, tr("empty")));
    classic_layout->addStretch(1);
    pages_->addWidget(classic);

    auto *graph = new QWidget(pages_);
    auto *graph_layout = new QVBoxLayout(graph);
    graph_layout->setContentsMargins(0, 0, 0, 0);
    vertex_stack_ = new VertexStackModel(controller_, this);
    edge_stack_ = new EdgeStackModel(controller_, this);
    sccs_ = new SccModel(controller_, this);
    graph_layout->addWidget(addSection(vertex_stack_, true, tr("vertex stack (bottom → top)"),
                                       tr("Tarjan's stack: vertices visited whose SCC is not finished yet."),
                                       tr("empty")));
    graph_layout->addWidget(addSection(edge_stack_, true, tr("edge stack (bottom → top)"),
                                       tr("The edges the walk descended along; it backtracks over them."),
                                       tr("empty")));
    graph_layout->addWidget(addSection(sccs_, true, tr("SCCs found"),
                                       tr("The strongly connected components this collection found, in order, with the "
                                          "verdict on each: garbage (every member dead) or alive."),
                                       tr("none yet")));
    graph_layout->addWidget(addSection(hitlist_, true, QStringLiteral("hitlist"), hit_tip, tr("empty")));
    graph_layout->addStretch(1);
    pages_->addWidget(graph);
    setWidget(scrollable(body, this));

    auto update = [this] {
        pages_->setCurrentIndex(controller_.hasScene() && controller_.era() == GcEra::graph ? 1 : 0);
        updatePhase();
        updateGlobals();
        updateTitles();
    };
    connect(&controller_, &PlayerController::positionChanged, this, update);
    connect(&controller_, &PlayerController::sceneLoaded, this, update);
    connect(&controller_, &PlayerController::indexReadyChanged, this, update);
    connect(&Theme::instance(), &Theme::changed, this, &ListsDock::applyTheme);
    applyTheme();
    update();
}

QWidget *ListsDock::addSection(DockListModel *model, bool graph, const QString &name, const QString &tip,
                               const QString &empty)
{
    auto *w = new QWidget;
    auto *v = new QVBoxLayout(w);
    v->setContentsMargins(0, 2, 0, 2);
    v->setSpacing(2);
    auto *title = new QLabel(name, w);
    title->setWordWrap(true);
    title->setToolTip(tip);
    auto *view = new FitListView(w);
    view->setModel(model);
    view->setItemDelegate(new RowDelegate(view));
    view->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    auto refit = [view] { view->updateGeometry(); };
    connect(model, &QAbstractItemModel::rowsInserted, view, refit);
    connect(model, &QAbstractItemModel::rowsRemoved, view, refit);
    connect(model, &QAbstractItemModel::modelReset, view, refit);
    view->setToolTip(QString());
    view->setSelectionMode(QAbstractItemView::NoSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // One line a row, all the same height: a list of 30,000 sockets lays out in no time. A row
    // too long for the dock is elided (its tooltip has it all); SCC rows put the verdict first.
    view->setUniformItemSizes(true);
    view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    view->setTextElideMode(Qt::ElideRight);
    connect(view, &QListView::clicked, this, [this](const QModelIndex &i) {
        const QVariant s = i.data(SockRole);
        if (s.isValid())
            controller_.selectSocket(s.toUInt());
    });
    // The list follows the current micro-step: the touched row is scrolled into view.
    auto follow = [view, model] {
        for (int r = 0; r < model->rowCount(); ++r)
            if (model->row(r).touched) {
                view->scrollTo(model->index(r), QAbstractItemView::EnsureVisible);
                return;
            }
    };
    connect(&controller_, &PlayerController::positionChanged, view, follow);
    v->addWidget(title);
    v->addWidget(view);
    w->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    sections_.push_back(Section{model, graph, title, view, name, empty});
    return w;
}

GcListModel *ListsDock::gcList(ListId list) const
{
    switch (list) {
    case ListId::gc_inflight_list: return inflight_;
    case ListId::gc_candidates: return candidates_;
    case ListId::not_cycle_list: return not_cycle_;
    default: return nullptr;
    }
}

QListView *ListsDock::view(DockListModel *model) const
{
    const bool graph = showingGraph();
    for (const Section &s : sections_)
        if (s.model == model && (s.graph == graph || model != hitlist_))
            return s.view;
    return nullptr;
}

bool ListsDock::showingGraph() const { return pages_->currentIndex() == 1; }

QString ListsDock::phaseText() const { return phase_->text(); }

void ListsDock::updateTitles()
{
    for (const Section &s : sections_) {
        const int n = s.model->rowCount();
        QString t = s.name;
        if (s.model == sccs_ && controller_.hasScene() && !controller_.indexReady()) {
            s.title->setText(tr("%1 · indexing the run…").arg(t)); // they are read from the recorded run
            continue;
        }
        if (s.model == sccs_ && sccs_->collection()) {
            t = tr("SCCs of collection #%1").arg(sccs_->collection());
            if (sccs_->unrecorded())
                t += tr(" (not recorded: past the first %L1 steps)").arg(qulonglong(PlayerController::kIndexCap));
            else if (sccs_->skipped())
                t += tr(" (skipped: graph not cyclic)");
            else if (n == 0 && !controller_.stepsIntoCollections())
                // A fast-forwarded collection records no walk: "none yet" read as if it found none.
                t += tr(" (fast-forwarded: Model ▸ Step into collections shows its SCCs)");
            else if (sccs_->finished())
                t += tr(" (finished)");
        }
        // The cursor is a list node, not a socket: it is not counted.
        int count = n;
        if (s.model == candidates_)
            for (int r = 0; r < n; ++r)
                count -= s.model->row(r).kind == DockListModel::RowKind::cursor;
        s.title->setText(n ? QStringLiteral("%1 · %2").arg(t).arg(count) : QStringLiteral("%1 · %2").arg(t, s.empty));
    }
}

void ListsDock::updatePhase()
{
    if (!controller_.hasScene()) {
        phase_->clear();
        return;
    }
    const StepSnapshot &k = controller_.snapshot();
    const bool running = k.collection_running;
    QString what;
    switch (k.gc_phase) {
    case GcPhase::none: what = running ? tr("starting") : QString(); break;
    case GcPhase::select: what = tr("1 · selecting candidates"); break;
    case GcPhase::decrement: what = tr("2 · discounting the references candidates hold on each other"); break;
    case GcPhase::restore: what = tr("3 · restore walk: the cursor looks for sockets held from outside"); break;
    case GcPhase::hitlist: what = tr("4 · moving the garbage's skbs to the hitlist"); break;
    case GcPhase::purge: what = tr("purging the hitlist"); break;
    case GcPhase::walk: what = tr("Tarjan walk: finding SCCs"); break;
    case GcPhase::fast_walk: what = tr("fast path: re-checking the last walk's SCCs"); break;
    }
    if (!running) {
        phase_->setText(tr("No collection running"));
        return;
    }
    const std::uint32_t n = k.collection;
    phase_->setText(what.isEmpty() ? tr("Collection #%1").arg(n) : tr("Collection #%1 — %2").arg(n).arg(what));
}

void ListsDock::updateGlobals()
{
    if (!controller_.hasScene()) {
        globals_->clear();
        return;
    }
    const CollectorGlobals &k = controller_.snapshot().globals;
    const QLocale l;
    QStringList parts;
    parts << tr("unix_tot_inflight %1").arg(l.toString(qulonglong(k.unix_tot_inflight)))
          << tr("gc_in_progress %1").arg(k.gc_in_progress ? tr("true") : tr("false"));
    if (controller_.era() == GcEra::graph)
        parts << tr("maybe_cyclic %1").arg(k.graph_maybe_cyclic ? tr("true") : tr("false"))
              << tr("grouped %1").arg(k.graph_grouped ? tr("true") : tr("false"))
              << tr("index marks %1/%2").arg(k.unvisited_index).arg(k.grouped_index)
              << tr("max_scc_index %1").arg(k.max_scc_index);
    parts << tr("hitlist %1").arg(k.hitlist_size);
    // Per user: the first few in the label, every one in its tooltip (the seed scene has 15
    // users with fds in flight, which would push the lists out of a 1080p dock).
    constexpr int kUsersShown = 4;
    QStringList users;
    for (const UserInflight &u : k.users)
        users
            << tr("%1->unix_inflight %2").arg(QString::fromStdString(u.name), l.toString(qulonglong(u.unix_inflight)));
    for (int i = 0; i < users.size() && i < kUsersShown; ++i)
        parts << users[i];
    if (users.size() > kUsersShown)
        parts << (users.size() == kUsersShown + 1 ? tr("1 more user")
                                                  : tr("%1 more users").arg(users.size() - kUsersShown));
    // The label wraps at spaces or after a user's "->", never inside the arrow
    // ("holder1_user-" / ">unix_inflight"): a no-break hyphen, then a zero-width space.
    for (QString &p : parts)
        p.replace(QStringLiteral("->"), QStringLiteral("\u2011>\u200b"));
    globals_->setText(parts.join(QStringLiteral(" · ")));
    globals_->setToolTip(users.size() > kUsersShown ? users.join(QLatin1Char('\n')) : QString());
}

void ListsDock::applyTheme()
{
    const Theme &t = Theme::instance();
    phase_->setFont(t.font(kTitlePoints, true));
    globals_->setFont(t.font(kRowPoints));
    // A dock squeezed to a sliver shows nothing: ask for room for ~14 characters of a row.
    if (widget())
        widget()->setMinimumWidth(QFontMetrics(rowFont()).averageCharWidth() * 14);
    const QFont row = rowFont();
    const int icon = QFontMetrics(row).height() * 2 / 3;
    for (const Section &s : sections_) {
        s.title->setFont(t.font(kTitlePoints, true));
        s.view->setFont(row);
        s.view->setIconSize(QSize(icon, icon));
        QPalette p = s.view->palette();
        p.setColor(QPalette::Base, t.background());
        p.setColor(QPalette::Text, t.foreground());
        s.view->setPalette(p);
        s.view->doItemsLayout(); // uniform item sizes are cached: measure again
        s.view->updateGeometry();
    }
}

} // namespace docks
