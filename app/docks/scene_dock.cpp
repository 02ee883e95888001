// SPDX-License-Identifier: GPL-3.0-or-later
#include "scene_dock.h"

#include "dock_common.h"

#include "../editor/scene_editor.h"
#include "../player_controller.h"
#include "../theme.h"

#include "inflight/scene.hpp"
#include "inflight/simulation.hpp"

#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

using namespace inflight;

namespace docks {

namespace {
void statement_lines(const std::vector<Statement> &list, QSet<int> &out)
{
    for (const Statement &s : list) {
        if (s.op == Op::repeat || s.op == Op::spawn)
            statement_lines(s.body, out);
        else if (s.op != Op::user_decl && s.op != Op::process_decl)
            out.insert(static_cast<int>(s.loc.line));
    }
}

QString problem_text(const Diagnostic &d)
{
    QString text = QStringLiteral("%1:%2  %3: %4")
                       .arg(d.loc.line)
                       .arg(d.loc.col)
                       .arg(QString::fromLatin1(severity_word(d.severity)), QString::fromStdString(d.message));
    return text;
}
} // namespace

SceneDock::SceneDock(PlayerController &controller, QWidget *parent)
    : QDockWidget(tr("Scene"), parent), controller_(controller)
{
    setObjectName(QStringLiteral("sceneDock"));
    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);
    layout->setContentsMargins(6, 4, 6, 4);
    title_ = new QLabel(body);
    title_->setWordWrap(true);
    layout->addWidget(title_);

    auto *banner_row = new QHBoxLayout;
    banner_ = new QLabel(body);
    banner_->setObjectName(QStringLiteral("sceneErrorBanner"));
    banner_->setWordWrap(true);
    banner_->setTextFormat(Qt::PlainText);
    fix_ = new QPushButton(body);
    fix_->setObjectName(QStringLiteral("sceneFixButton"));
    banner_row->addWidget(banner_, 1);
    banner_row->addWidget(fix_);
    layout->addLayout(banner_row);
    banner_->hide();
    fix_->hide();

    auto *split = new QSplitter(Qt::Vertical, body);
    view_ = new editor::SceneEditor(split);
    view_->setToolTip(QString());
    problems_ = new QListWidget(split);
    problems_->setObjectName(QStringLiteral("problemsList"));
    problems_->setToolTip(tr("Problems of the scene being edited: click to go to the line"));
    problems_->hide();
    split->addWidget(view_);
    split->addWidget(problems_);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    setWidget(body);

    connect(view_, &editor::SceneEditor::marginLineClicked, this, [this](int line, Qt::KeyboardModifiers m) {
        if (!controller_.hasScene())
            return;
        if (m & (Qt::ControlModifier | Qt::AltModifier)) {
            controller_.runToLine(line); // a modified click: to that line's next execution
            return;
        }
        // A breakpoint stops before a statement starts: lines without one cannot take it.
        QSet<int> lines;
        statement_lines(controller_.scene().statements, lines);
        if (lines.contains(line))
            controller_.toggleLineBreakpoint(line);
    });
    connect(view_, &editor::SceneEditor::marginLineMenuRequested, this, &SceneDock::breakpointMenu);
    connect(problems_, &QListWidget::itemClicked, this, [this](QListWidgetItem *item) {
        const int i = problems_->row(item);
        if (i >= 0 && i < static_cast<int>(diagnostics_.size()))
            view_->goToLine(static_cast<int>(diagnostics_[static_cast<std::size_t>(i)].loc.line),
                            static_cast<int>(diagnostics_[static_cast<std::size_t>(i)].loc.col));
    });
    // The button offers the chosen problem's fix, naming its line: never another line's.
    connect(problems_, &QListWidget::currentRowChanged, this, [this](int row) {
        const bool fixable =
            row >= 0 && row < static_cast<int>(diagnostics_.size()) && diagnostics_[static_cast<std::size_t>(row)].fix;
        fix_->setVisible(fixable);
        if (fixable) {
            const Diagnostic &d = diagnostics_[static_cast<std::size_t>(row)];
            fix_->setText(tr("Fix line %1: %2").arg(d.loc.line).arg(QString::fromStdString(d.fix->replacement)));
        }
    });
    connect(fix_, &QPushButton::clicked, this, &SceneDock::applySelectedFix);
    connect(&controller_, &PlayerController::sceneLoaded, this, &SceneDock::sceneLoaded);
    connect(&controller_, &PlayerController::positionChanged, this, &SceneDock::refresh);
    connect(&controller_, &PlayerController::indexReadyChanged, this, &SceneDock::updateExpectations);
    connect(&controller_, &PlayerController::lineBreakpointsChanged, this,
            [this] { view_->setBreakpoints(controller_.lineBreakpoints(), controller_.conditionalLineBreakpoints()); });
    connect(&Theme::instance(), &Theme::changed, this, &SceneDock::applyTheme);
    applyTheme();
    sceneLoaded();
}

void SceneDock::sceneLoaded()
{
    if (!controller_.hasScene()) {
        title_->clear();
        if (follows_)
            view_->setBytes({});
        return;
    }
    const Scene &s = controller_.scene();
    if (follows_ && !controller_.isRerun()) {
        QByteArray text;
        for (std::size_t i = 0; i < s.lines.size(); ++i) {
            text += QByteArray::fromStdString(s.lines[i]);
            if (i + 1 < s.lines.size())
                text += '\n';
        }
        view_->setBytes(text);
    }
    view_->setBreakpoints(controller_.lineBreakpoints(), controller_.conditionalLineBreakpoints());
    view_->setExpectations({});
    title_->setText(QString::fromStdString(s.title));
    title_->setToolTip(controller_.filePath());
    refresh();
}

void SceneDock::refresh()
{
    if (!controller_.hasScene())
        return;
    view_->setCurrentLine(controller_.position() ? static_cast<int>(controller_.snapshot().current_line) : 0);
    view_->setNextLine(controller_.nextStatementLine());
}

void SceneDock::updateExpectations()
{
    QList<QPair<int, bool>> outcomes;
    if (controller_.indexReady())
        if (const auto end = controller_.endOfRun())
            for (const ExpectationOutcome &o : end->expectations)
                outcomes.append({static_cast<int>(o.line), o.passed});
    view_->setExpectations(outcomes);
    refresh();
}

void SceneDock::showDiagnostics(const std::vector<Diagnostic> &diagnostics, bool stale)
{
    diagnostics_ = diagnostics;
    view_->setDiagnostics(diagnostics);
    problems_->clear();
    const Diagnostic *first_error = nullptr;
    int first_error_row = -1;
    int first_fix = -1;
    for (std::size_t i = 0; i < diagnostics.size(); ++i) {
        const Diagnostic &d = diagnostics[i];
        auto *item = new QListWidgetItem(problem_text(d), problems_);
        item->setForeground(d.severity == Diagnostic::Severity::error     ? QColor(0xc6, 0x28, 0x28)
                            : d.severity == Diagnostic::Severity::warning ? QColor(0xa0, 0x6a, 0x00)
                                                                          : Theme::instance().foreground());
        if (!first_error && d.severity == Diagnostic::Severity::error) {
            first_error = &d;
            first_error_row = static_cast<int>(i);
        }
        if (first_fix < 0 && d.fix)
            first_fix = static_cast<int>(i);
    }
    problems_->setVisible(!diagnostics.empty());
    if (first_error) {
        banner_->setText(
            stale ? tr("Line %1: %2 — showing the last good run")
                        .arg(first_error->loc.line)
                        .arg(QString::fromStdString(first_error->message))
                  : tr("Line %1: %2").arg(first_error->loc.line).arg(QString::fromStdString(first_error->message)));
        banner_->show();
    } else {
        banner_->hide();
    }
    // The problem chosen at first is the banner's when it can be fixed, else the first that can.
    const int chosen = first_error && first_error->fix ? first_error_row : first_fix;
    problems_->setCurrentRow(chosen);
    fix_->setVisible(chosen >= 0);
    if (stale != stale_) {
        stale_ = stale;
        emit staleRunChanged(stale);
    }
}

void SceneDock::breakpointMenu(int line, const QPoint &global)
{
    if (!controller_.hasScene())
        return;
    QSet<int> lines;
    statement_lines(controller_.scene().statements, lines);
    if (!lines.contains(line))
        return; // a breakpoint stops before a statement starts: this line has none
    const bool has = controller_.lineBreakpoints().contains(line);
    QMenu menu;
    QAction *edit = menu.addAction(has ? tr("Edit condition…") : tr("Add conditional breakpoint…"));
    QAction *remove = has ? menu.addAction(tr("Remove breakpoint")) : nullptr;
    QAction *chosen = menu.exec(global);
    if (chosen == remove && remove) {
        controller_.toggleLineBreakpoint(line);
        return;
    }
    if (chosen != edit)
        return;
    QString condition = controller_.lineBreakpointCondition(line);
    for (;;) {
        bool ok = false;
        condition = QInputDialog::getText(this, tr("Breakpoint condition"),
                                          tr("Stop at line %1 only when this holds (a watch expression such as "
                                             "\"inflight a >= 2\" or \"u0 alive\"; empty: always):")
                                              .arg(line),
                                          QLineEdit::Normal, condition, &ok);
        if (!ok)
            return;
        QString error;
        if (controller_.setLineBreakpointCondition(line, condition, &error))
            return;
        QMessageBox::warning(this, tr("Breakpoint condition"), error);
    }
}

bool SceneDock::applySelectedFix()
{
    // Only the chosen problem's fix: a fix on some other line would rewrite text the author
    // is not looking at.
    const int row = problems_->currentRow();
    if (row < 0 || row >= static_cast<int>(diagnostics_.size()) || !diagnostics_[static_cast<std::size_t>(row)].fix)
        return false;
    view_->applyFix(*diagnostics_[static_cast<std::size_t>(row)].fix);
    return true;
}

void SceneDock::applyTheme()
{
    const Theme &t = Theme::instance();
    title_->setFont(t.font(kTitlePoints, true));
    view_->restyle(t.monoFont(kCodePoints));
    const bool dark = t.background().lightness() < 128;
    banner_->setStyleSheet(
        dark ? QStringLiteral("QLabel{background:#3a2226;color:#ff8a80;padding:4px;border-radius:3px}")
             : QStringLiteral("QLabel{background:#fdecee;color:#b00020;padding:4px;border-radius:3px}"));
}

} // namespace docks
