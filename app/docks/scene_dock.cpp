// SPDX-License-Identifier: GPL-3.0-or-later
#include "scene_dock.h"

#include "dock_common.h"
#include "scene_text_view.h"

#include "../player_controller.h"
#include "../theme.h"

#include "inflight/scene.hpp"
#include "inflight/simulation.hpp"

#include <QLabel>
#include <QVBoxLayout>

using namespace inflight;

namespace docks {

namespace {
void statement_lines(const std::vector<Statement> &list, QSet<int> &out)
{
    for (const Statement &s : list) {
        if (s.op == Op::repeat)
            statement_lines(s.body, out);
        else if (s.op != Op::user_decl && s.op != Op::process_decl)
            out.insert(static_cast<int>(s.loc.line));
    }
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
    view_ = new SceneTextView(body);
    view_->setToolTip(tr("The scene being played. The highlighted line is the statement being executed."));
    layout->addWidget(view_, 1);
    setWidget(body);

    connect(view_, &SceneTextView::gutterClicked, this, [this](int line) {
        // A breakpoint stops before a statement starts: lines without one cannot take it.
        QSet<int> lines;
        if (controller_.hasScene())
            statement_lines(controller_.scene().statements, lines);
        if (lines.contains(line))
            controller_.toggleLineBreakpoint(line);
    });
    connect(&controller_, &PlayerController::sceneLoaded, this, &SceneDock::sceneLoaded);
    connect(&controller_, &PlayerController::positionChanged, this, &SceneDock::refresh);
    connect(&controller_, &PlayerController::lineBreakpointsChanged, this,
            [this] { view_->setBreakpoints(controller_.lineBreakpoints()); });
    connect(&Theme::instance(), &Theme::changed, this, &SceneDock::applyTheme);
    applyTheme();
    sceneLoaded();
}

void SceneDock::sceneLoaded()
{
    if (!controller_.hasScene()) {
        title_->clear();
        view_->setSceneText({});
        return;
    }
    const Scene &s = controller_.scene();
    QStringList lines;
    lines.reserve(static_cast<qsizetype>(s.lines.size()));
    for (const std::string &l : s.lines)
        lines << QString::fromStdString(l);
    QSet<int> statements;
    statement_lines(s.statements, statements);
    view_->setStatementLines(statements);
    view_->setSceneText(lines);
    view_->setBreakpoints(controller_.lineBreakpoints());
    title_->setText(QString::fromStdString(s.title));
    title_->setToolTip(controller_.filePath());
    refresh();
}

void SceneDock::refresh()
{
    if (!controller_.hasScene())
        return;
    view_->setCurrentLine(controller_.position() ? static_cast<int>(controller_.sim().current_line()) : 0);
}

void SceneDock::applyTheme()
{
    const Theme &t = Theme::instance();
    title_->setFont(t.font(kTitlePoints, true));
    view_->setFont(t.monoFont(kCodePoints));
    QPalette p = view_->palette();
    p.setColor(QPalette::Base, t.background());
    p.setColor(QPalette::Text, t.foreground());
    view_->setPalette(p);
    view_->restyle();
}

} // namespace docks
