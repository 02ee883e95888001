// SPDX-License-Identifier: GPL-3.0-or-later
#include "watches_dock.h"

#include "dock_common.h"

#include "../player_controller.h"
#include "../theme.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace docks {

WatchesDock::WatchesDock(PlayerController &controller, QWidget *parent)
    : QDockWidget(tr("Watches"), parent), controller_(controller)
{
    setObjectName(QStringLiteral("watchesDock"));
    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);
    layout->setContentsMargins(6, 4, 6, 4);

    auto *row = new QHBoxLayout;
    input_ = new QLineEdit(body);
    input_->setPlaceholderText(tr("add a watch: inflight a >= 2, a freed, refs a, unix_tot_inflight"));
    input_->setToolTip(tr("FIELD LABEL [OP VALUE], LABEL freed|alive|candidate|garbage, a global "
                          "(unix_tot_inflight, gc_in_progress, hitlist) or user NAME inflight.\n"
                          "Fields: inflight, refs (file_count), out_degree, index, scc_index, flags "
                          "(gc_flags), queue, nr_fds, state.\n"
                          "Without an operator it stops continue when the value changes; with one, "
                          "when the condition becomes true."));
    row->addWidget(input_, 1);
    remove_ = new QPushButton(tr("Remove"), body);
    remove_->setToolTip(tr("Remove the selected watch"));
    remove_->setEnabled(false);
    row->addWidget(remove_);
    layout->addLayout(row);

    error_ = new QLabel(body);
    error_->setWordWrap(true);
    error_->hide();
    layout->addWidget(error_);

    table_ = new QTableWidget(0, 2, body);
    table_->setHorizontalHeaderLabels({tr("Watch"), tr("Value")});
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    layout->addWidget(table_, 1);
    setWidget(body);

    connect(input_, &QLineEdit::returnPressed, this, &WatchesDock::add);
    connect(input_, &QLineEdit::textEdited, this, [this] { error_->hide(); });
    connect(remove_, &QPushButton::clicked, this, [this] {
        const int r = table_->currentRow();
        if (r >= 0)
            controller_.removeWatch(r);
    });
    connect(table_, &QTableWidget::itemSelectionChanged, this,
            [this] { remove_->setEnabled(!table_->selectedItems().isEmpty()); });
    connect(&controller_, &PlayerController::watchesChanged, this, &WatchesDock::rebuild);
    connect(&controller_, &PlayerController::positionChanged, this, &WatchesDock::refresh);
    connect(&controller_, &PlayerController::sceneLoaded, this, &WatchesDock::refresh);
    connect(&Theme::instance(), &Theme::changed, this, &WatchesDock::applyTheme);
    applyTheme();
    rebuild();
}

void WatchesDock::add()
{
    const QString text = input_->text().trimmed();
    if (text.isEmpty())
        return;
    QString why;
    if (!controller_.addWatch(text, &why)) {
        // Keep the text so the user can fix it where the message points.
        error_->setText(why);
        error_->show();
        return;
    }
    error_->hide();
    input_->clear();
}

void WatchesDock::rebuild()
{
    table_->setRowCount(controller_.watchCount());
    for (int i = 0; i < controller_.watchCount(); ++i) {
        table_->setItem(i, 0, new QTableWidgetItem(controller_.watchText(i)));
        table_->setItem(i, 1, new QTableWidgetItem);
    }
    remove_->setEnabled(!table_->selectedItems().isEmpty());
    refresh();
}

void WatchesDock::refresh()
{
    for (int i = 0; i < table_->rowCount() && i < controller_.watchCount(); ++i)
        if (QTableWidgetItem *v = table_->item(i, 1))
            v->setText(controller_.hasScene() ? controller_.watchValue(i) : QString());
}

void WatchesDock::applyTheme()
{
    const Theme &t = Theme::instance();
    table_->setFont(t.monoFont(kRowPoints));
    QPalette p = error_->palette();
    p.setColor(QPalette::WindowText, QColor(0xc0, 0x30, 0x30)); // an error, in any theme
    error_->setPalette(p);
}

} // namespace docks
