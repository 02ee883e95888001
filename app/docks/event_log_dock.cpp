// SPDX-License-Identifier: GPL-3.0-or-later
#include "event_log_dock.h"

#include "dock_common.h"
#include "event_filter_proxy.h"
#include "event_log_model.h"

#include "../player_controller.h"
#include "../theme.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QStackedWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <string>

using namespace inflight;

namespace docks {

EventLogDock::EventLogDock(PlayerController &controller, QWidget *parent)
    : QDockWidget(tr("Event log"), parent), controller_(controller)
{
    setObjectName(QStringLiteral("eventLogDock"));
    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setSpacing(4);

    auto *bar = new QHBoxLayout;
    kinds_ = new QComboBox(body);
    kinds_->setToolTip(tr("Show only some kinds of micro-steps."));
    for (const KindGroup &g : kindGroups()) {
        kinds_->addItem(g.name, QVariant::fromValue<qulonglong>(g.mask));
        kinds_->setItemData(kinds_->count() - 1, g.tip, Qt::ToolTipRole);
    }
    kinds_->insertSeparator(kinds_->count());
    for (int k = 0; k < eventKindCount(); ++k)
        kinds_->addItem(qs(event_kind_name(static_cast<EventKind>(k))),
                        QVariant::fromValue<qulonglong>(kindBit(static_cast<EventKind>(k))));
    // The filter row shrinks with the dock: it shares the row under the graph with the lists.
    kinds_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    kinds_->setMinimumContentsLength(9);
    bar->addWidget(kinds_);
    socket_ = new QLineEdit(body);
    socket_->setMinimumWidth(60);
    socket_->setPlaceholderText(tr("socket label"));
    socket_->setClearButtonEnabled(true);
    socket_->setToolTip(tr("Show only the micro-steps that involve this socket (a, s2, embryo(c))."));
    bar->addWidget(socket_, 1);
    follow_selection_ = new QToolButton(body);
    follow_selection_->setText(tr("Selected socket"));
    follow_selection_->setCheckable(true);
    follow_selection_->setToolTip(tr("Show only the micro-steps that involve the selected socket, following the "
                                     "selection."));
    bar->addWidget(follow_selection_);
    count_ = new QLabel(body);
    count_->setToolTip(tr("Micro-steps shown / in the whole run."));
    count_->setMinimumWidth(1); // cut in a narrow dock rather than widening it
    count_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    bar->addWidget(count_);
    layout->addLayout(bar);

    pages_ = new QStackedWidget(body);
    // Until a scene runs (the one opened may have errors to fix first) nothing is indexed.
    indexing_ = new QLabel(controller_.hasScene() ? tr("Indexing the run…") : tr("No scene is running yet"), pages_);
    connect(&controller_, &PlayerController::sceneLoaded, indexing_,
            [this] { indexing_->setText(tr("Indexing the run…")); });
    indexing_->setAlignment(Qt::AlignCenter);
    pages_->addWidget(indexing_);
    model_ = new EventLogModel(controller_, this);
    proxy_ = new EventFilterProxy(this);
    proxy_->setSourceModel(model_);
    view_ = new QTableView(pages_);
    view_->setModel(proxy_);
    view_->setSelectionMode(QAbstractItemView::NoSelection);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->setWordWrap(false);
    view_->setShowGrid(false);
    view_->setAlternatingRowColors(true);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    view_->horizontalHeader()->setHighlightSections(false);
    view_->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    pages_->addWidget(view_);
    layout->addWidget(pages_, 1);
    setWidget(body);

    auto seek = [this](const QModelIndex &i) {
        const QVariant step = i.data(EventStepRole);
        if (step.isValid())
            controller_.seek(step.toULongLong());
    };
    connect(view_, &QTableView::clicked, this, seek);
    connect(view_, &QTableView::activated, this, seek);
    connect(kinds_, &QComboBox::currentIndexChanged, this, [this](int i) {
        const QVariant mask = kinds_->itemData(i);
        proxy_->setKindMask(mask.isValid() ? mask.toULongLong() : kAllKinds);
        updateCount();
        keepCurrentInView();
    });
    connect(socket_, &QLineEdit::textChanged, this, [this] {
        if (!socket_->text().isEmpty() && follow_selection_->isChecked())
            follow_selection_->setChecked(false);
        updateSocketFilter();
    });
    connect(follow_selection_, &QToolButton::toggled, this, [this](bool on) {
        if (on) {
            const QSignalBlocker b(socket_);
            socket_->clear();
        }
        updateSocketFilter();
    });
    connect(&controller_, &PlayerController::selectionChanged, this, [this] {
        if (follow_selection_->isChecked())
            updateSocketFilter();
    });
    connect(model_, &EventLogModel::labelsChanged, this, &EventLogDock::updateSocketFilter);
    connect(model_, &QAbstractItemModel::modelReset, this, [this] {
        pages_->setCurrentIndex(controller_.indexReady() ? 1 : 0);
        fitStepColumn();
        updateSocketFilter();
        updateCount();
        keepCurrentInView();
    });
    connect(&controller_, &PlayerController::positionChanged, this, &EventLogDock::keepCurrentInView);
    connect(&Theme::instance(), &Theme::changed, this, &EventLogDock::applyTheme);
    applyTheme();
    pages_->setCurrentIndex(controller_.indexReady() ? 1 : 0);
    updateCount();
}

bool EventLogDock::indexing() const { return pages_->currentIndex() == 0; }

void EventLogDock::updateSocketFilter()
{
    std::optional<std::uint32_t> sock;
    bool unknown = false;
    if (follow_selection_->isChecked()) {
        sock = controller_.selectedSocket();
        if (!sock)
            sock = npos; // nothing selected: nothing to show
    } else if (!socket_->text().trimmed().isEmpty() && controller_.hasScene()) {
        sock = model_->labelsReady() ? findLabel(model_->labels(), socket_->text())
                                     : controller_.findSocket(socket_->text());
        if (!sock) {
            sock = npos;
            unknown = true;
        }
    }
    QPalette p = socket_->palette();
    p.setColor(QPalette::Text, unknown ? QColor(0xb0, 0x00, 0x00) : Theme::instance().foreground());
    socket_->setPalette(p);
    socket_->setToolTip(unknown ? tr("No socket with this label in this run.")
                                : tr("Show only the micro-steps that involve this socket (a, s2, embryo(c))."));
    proxy_->setSocket(sock);
    updateCount();
    keepCurrentInView();
}

void EventLogDock::updateCount()
{
    const QLocale l;
    if (!controller_.indexReady()) {
        count_->setText(tr("indexing…"));
        return;
    }
    const int shown = proxy_->rowCount(), all = model_->rowCount();
    QString text =
        shown == all ? tr("%1 events").arg(l.toString(all)) : tr("%1 of %2").arg(l.toString(shown), l.toString(all));
    if (!controller_.indexComplete()) {
        // A very long run: past the cap the index keeps statements, collections and findings.
        text += tr(" (landmarks only after step %1)").arg(l.toString(qulonglong(PlayerController::kIndexCap)));
        count_->setToolTip(tr("The run has %1 micro-steps. Every one of the first %2 is listed; after that only "
                              "statements, collections and findings.")
                               .arg(l.toString(qulonglong(controller_.totalSteps())),
                                    l.toString(qulonglong(PlayerController::kIndexCap))));
    } else {
        count_->setToolTip(tr("Micro-steps shown / in the whole run."));
    }
    count_->setText(text);
}

void EventLogDock::keepCurrentInView()
{
    const int current = model_->rowAtOrBefore(controller_.position());
    if (current < 0 || !proxy_->rowCount())
        return;
    const int row = proxy_->rowAtOrBefore(current);
    if (row < 0)
        return;
    // A row already in view stays where it is (no jitter while stepping); one out of view is
    // centred, with the steps before and after it around.
    const QModelIndex i = proxy_->index(row, 0);
    const QRect r = view_->visualRect(i);
    const QRect vp = view_->viewport()->rect();
    if (!r.isValid() || r.top() < 0 || r.bottom() > vp.bottom())
        view_->scrollTo(i, QAbstractItemView::PositionAtCenter);
}

void EventLogDock::fitStepColumn()
{
    const QFontMetrics fm(Theme::instance().font(kLogPoints, true));
    const auto digits = std::max<std::size_t>(7, std::to_string(controller_.totalSteps()).size());
    view_->setColumnWidth(EventLogModel::StepColumn,
                          fm.horizontalAdvance(QString(static_cast<qsizetype>(digits), QLatin1Char('0'))) + 12);
}

void EventLogDock::applyTheme()
{
    const Theme &t = Theme::instance();
    const QFont f = t.font(kLogPoints);
    view_->setFont(f);
    view_->horizontalHeader()->setFont(t.font(kLogPoints, true));
    const QFontMetrics fm(t.font(kLogPoints, true));
    view_->verticalHeader()->setDefaultSectionSize(fm.height() + 6);
    fitStepColumn();
    view_->setColumnWidth(EventLogModel::LineColumn, fm.horizontalAdvance(QStringLiteral("Line0")) + 12);
    view_->setColumnWidth(EventLogModel::FunctionColumn,
                          fm.horizontalAdvance(QStringLiteral("unix_gc:not_cycle__")) + 12);
    view_->setColumnWidth(EventLogModel::EventColumn, fm.horizontalAdvance(QStringLiteral("scc_index_update")) + 12);
    for (QWidget *w : {static_cast<QWidget *>(kinds_), static_cast<QWidget *>(socket_),
                       static_cast<QWidget *>(follow_selection_), static_cast<QWidget *>(count_)})
        w->setFont(t.font(kLogPoints));
    indexing_->setFont(t.font(kTitlePoints));
    QPalette p = view_->palette();
    p.setColor(QPalette::Base, t.background());
    p.setColor(QPalette::AlternateBase, t.highContrast() ? QColor(0xf0, 0xf0, 0xf0) : QColor(0xf3, 0xf3, 0xee));
    p.setColor(QPalette::Text, t.foreground());
    view_->setPalette(p);
}

} // namespace docks
