// SPDX-License-Identifier: GPL-3.0-or-later
#include "settings/cost_settings_dialog.h"

#include "theme.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

using namespace inflight;

namespace {

enum Column { kName, kValue, kDefault, kMeaning, kSource, kColumns };

QSpinBox *value_box(QTableWidget *table, int row) { return qobject_cast<QSpinBox *>(table->cellWidget(row, kValue)); }

} // namespace

CostSettingsDialog::CostSettingsDialog(const Overrides &current, const CostModel &scene_costs, QWidget *parent)
    : QDialog(parent), scene_costs_(scene_costs)
{
    setObjectName("costSettingsDialog");
    setWindowTitle(tr("Modelled costs"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("What each micro-step costs on the modelled clock, in nanoseconds. A collection costs "
                                "what it walks, so its time follows from these. Values set here apply over the "
                                "scene's own <tt>set cost</tt> lines; the run is replayed when you press OK."),
                             this);
    intro->setWordWrap(true);
    intro->setFont(Theme::instance().font(11));
    layout->addWidget(intro);

    const auto table = cost_table();
    table_ = new QTableWidget(static_cast<int>(table.size()), kColumns, this);
    table_->setObjectName("costTable");
    table_->setHorizontalHeaderLabels({tr("constant"), tr("ns"), tr("default"), tr("meaning"), tr("fitted to")});
    table_->verticalHeader()->hide();
    table_->setFont(Theme::instance().font(11));
    for (std::size_t i = 0; i < table.size(); ++i) {
        const CostInfo &c = table[i];
        const int row = static_cast<int>(i);
        auto *name = new QTableWidgetItem(QString::fromLatin1(c.name.data(), static_cast<int>(c.name.size())));
        name->setFont(Theme::instance().monoFont(11));
        name->setFlags(name->flags() & ~Qt::ItemIsEditable);
        table_->setItem(row, kName, name);
        auto *box = new QSpinBox(table_);
        box->setRange(0, 1'000'000'000);
        std::uint64_t value = scene_costs_[c.cost];
        for (const auto &[cost, ns] : current)
            if (cost == c.cost)
                value = ns;
        box->setValue(static_cast<int>(value));
        table_->setCellWidget(row, kValue, box);
        auto add_text = [&](int column, std::string_view text) {
            auto *item = new QTableWidgetItem(QString::fromUtf8(text.data(), static_cast<int>(text.size())));
            item->setFlags(item->flags() & ~Qt::ItemIsEditable);
            item->setToolTip(item->text());
            table_->setItem(row, column, item);
        };
        add_text(kDefault, std::to_string(c.default_ns));
        add_text(kMeaning, c.meaning);
        add_text(kSource, c.source);
    }
    table_->horizontalHeader()->setSectionResizeMode(kMeaning, QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(kSource, QHeaderView::Stretch);
    table_->resizeColumnToContents(kName);
    table_->resizeColumnToContents(kDefault);
    layout->addWidget(table_, 1);

    auto *buttons =
        new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::Reset, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::Reset), &QPushButton::clicked, this,
            &CostSettingsDialog::resetToDefaults);
    layout->addWidget(buttons);
    resize(1100, 700);
}

CostSettingsDialog::Overrides CostSettingsDialog::overrides() const
{
    Overrides out;
    const auto table = cost_table();
    for (std::size_t i = 0; i < table.size(); ++i) {
        const auto value = static_cast<std::uint64_t>(value_box(table_, static_cast<int>(i))->value());
        if (value != scene_costs_[table[i].cost])
            out.emplace_back(table[i].cost, value);
    }
    return out;
}

void CostSettingsDialog::resetToDefaults()
{
    const auto table = cost_table();
    for (std::size_t i = 0; i < table.size(); ++i)
        value_box(table_, static_cast<int>(i))->setValue(static_cast<int>(table[i].default_ns));
}
