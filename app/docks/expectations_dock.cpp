// SPDX-License-Identifier: GPL-3.0-or-later
#include "expectations_dock.h"

#include "dock_common.h"

#include "../player_controller.h"
#include "../theme.h"

#include "inflight/gc_era.hpp"
#include "inflight/simulation.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

using namespace inflight;

namespace docks {

namespace {

enum Column { kMark, kLine, kWhat, kStep, kColumns };

const QColor kHeld(0x2e, 0x7d, 0x32), kFailed(0xc6, 0x28, 0x28), kPending(0x80, 0x80, 0x80);

} // namespace

ExpectationsDock::ExpectationsDock(PlayerController &controller, QWidget *parent)
    : QDockWidget(tr("Expectations"), parent), controller_(controller)
{
    setObjectName(QStringLiteral("expectationsDock"));
    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);
    layout->setContentsMargins(6, 4, 6, 4);
    warning_ = new QLabel(body);
    warning_->setObjectName(QStringLiteral("expectationsWarning"));
    warning_->setWordWrap(true);
    warning_->hide();
    layout->addWidget(warning_);
    summary_ = new QLabel(body);
    summary_->setWordWrap(true);
    layout->addWidget(summary_);
    list_ = new QTreeWidget(body);
    list_->setColumnCount(kColumns);
    list_->setHeaderLabels({QString(), tr("Line"), tr("Expected, and found"), tr("Step")});
    list_->setRootIsDecorated(false);
    list_->setWordWrap(true);
    list_->setUniformRowHeights(false);
    list_->header()->setStretchLastSection(false);
    list_->header()->setSectionResizeMode(kWhat, QHeaderView::Stretch);
    list_->setToolTip(tr("Click an expectation to go to the step that checked it."));
    layout->addWidget(list_, 1);
    setWidget(body);

    connect(list_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem *item) {
        const int row = list_->indexOfTopLevelItem(item);
        if (row >= 0 && static_cast<std::size_t>(row) < steps_.size() && steps_[row] > 0)
            controller_.seek(steps_[row]);
    });
    connect(&controller_, &PlayerController::sceneLoaded, this, &ExpectationsDock::rebuild);
    connect(&controller_, &PlayerController::indexReadyChanged, this, &ExpectationsDock::rebuild);
    connect(&controller_, &PlayerController::positionChanged, this, &ExpectationsDock::refresh);
    connect(&Theme::instance(), &Theme::changed, this, &ExpectationsDock::applyTheme);
    applyTheme();
    rebuild();
}

void ExpectationsDock::rebuild()
{
    list_->clear();
    steps_.clear();
    passed_.clear();
    failed_ = 0;
    updateWarning();
    const auto end = controller_.endOfRun();
    if (!controller_.hasScene() || !end) {
        summary_->setText(controller_.hasScene() ? tr("Running the scene…") : QString());
        setWindowTitle(tr("Expectations"));
        return;
    }
    // The n-th expect_result event of the run checked the n-th outcome.
    const std::vector<std::uint64_t> &checked_at = controller_.expectationSteps();
    const auto &outcomes = end->expectations;
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        const ExpectationOutcome &o = outcomes[i];
        auto *item = new QTreeWidgetItem(list_);
        item->setText(kLine, QString::number(o.line));
        item->setText(kWhat, qs(o.message));
        item->setToolTip(kWhat, qs(o.message));
        const std::uint64_t step = i < checked_at.size() ? checked_at[i] : 0;
        item->setText(kStep, step ? QString::number(step) : QString());
        steps_.push_back(step);
        passed_.push_back(o.passed);
        if (!o.passed)
            ++failed_;
    }
    if (outcomes.empty())
        summary_->setText(tr("The scene has no expect statements."));
    else if (failed_ == 0)
        summary_->setText(tr("All %n expectation(s) hold under this collector.", nullptr, int(outcomes.size())));
    else
        summary_->setText(tr("%1 of %2 expectations FAILED under this collector.").arg(failed_).arg(outcomes.size()));
    setWindowTitle(failed_ ? tr("Expectations (%1 ✗)").arg(failed_) : tr("Expectations"));
    list_->resizeColumnToContents(kMark);
    list_->resizeColumnToContents(kLine);
    list_->resizeColumnToContents(kStep);
    refresh();
}

void ExpectationsDock::refresh()
{
    const std::uint64_t here = controller_.position();
    for (int row = 0; row < list_->topLevelItemCount(); ++row) {
        QTreeWidgetItem *item = list_->topLevelItem(row);
        const bool reached = steps_[row] > 0 && steps_[row] <= here;
        const QString mark = !reached ? QStringLiteral("…") : passed_[row] ? QStringLiteral("✓") : QStringLiteral("✗");
        if (item->text(kMark) == mark)
            continue;
        item->setText(kMark, mark);
        const QColor c = !reached ? kPending : passed_[row] ? kHeld : kFailed;
        for (int col = 0; col < kColumns; ++col)
            item->setForeground(col, c);
        item->setToolTip(kMark, !reached       ? tr("not checked yet at this step")
                                : passed_[row] ? tr("holds")
                                               : tr("FAILED"));
    }
}

void ExpectationsDock::updateWarning()
{
    if (!controller_.hasScene()) {
        warning_->hide();
        return;
    }
    const auto &written_for = controller_.scene().settings.collectors;
    const GcEra era = controller_.era();
    if (written_for.empty() || std::find(written_for.begin(), written_for.end(), era) != written_for.end()) {
        warning_->hide();
        return;
    }
    QStringList list;
    for (GcEra e : written_for)
        list << qs(era_name(e));
    warning_->setText(tr("⚠ The scene's expectations were written for %1, not for %2: under this collector "
                         "they may not hold.")
                          .arg(list.join(QStringLiteral(", ")), qs(era_name(era))));
    warning_->show();
}

void ExpectationsDock::applyTheme()
{
    const Theme &t = Theme::instance();
    list_->setFont(t.font(kRowPoints));
    summary_->setFont(t.font(kTitlePoints, true));
    warning_->setFont(t.font(kTitlePoints, true));
    QPalette p = warning_->palette();
    p.setColor(QPalette::WindowText, QColor(0xb2, 0x4a, 0x00)); // a warning, in any theme
    warning_->setPalette(p);
}

} // namespace docks
