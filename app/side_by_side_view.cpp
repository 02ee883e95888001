// SPDX-License-Identifier: GPL-3.0-or-later
#include "side_by_side_view.h"

#include "graph/graph_panel.h"
#include "lesson/scene_note.h"
#include "player_controller.h"
#include "side_by_side.h"
#include "theme.h"

#include "inflight/narrate.hpp"
#include "inflight/scene.hpp"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace {

QLabel *wrappedLabel(QWidget *parent, const char *name)
{
    auto *label = new QLabel(parent);
    label->setObjectName(QLatin1String(name));
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

// The text of the last note the run has shown (a variant's own notes only in its run).
QString lastNote(const PlayerController &c)
{
    if (!c.indexReady() || c.position() == 0)
        return {};
    const auto step = c.runIndex().previous_note(c.position() + 1);
    if (!step)
        return {};
    const auto &events = c.timeline();
    const std::size_t i = events.last_at_or_before(*step);
    if (i >= events.size())
        return {};
    const inflight::Statement *note = lesson::noteOnLine(c.scene().statements, events[i].scene_line);
    return note ? QString::fromStdString(note->text) : QString();
}

// A pane's narration: the step's words, and of each finding at it only its headline (the mark,
// WARN or BUG and what was broken): two panes have no room for the explanation, which the
// finding's mark on the graph and the Inspector give.
QString paneNarration(const QString &narration)
{
    const QString mark = QString::fromUtf8(inflight::kFindingMark.data(), qsizetype(inflight::kFindingMark.size()));
    QStringList paragraphs = narration.split(QStringLiteral("\n\n"));
    for (QString &p : paragraphs)
        if (p.startsWith(mark) && p.contains(QLatin1Char('\n')))
            p.truncate(p.indexOf(QLatin1Char('\n')));
    return paragraphs.join(QStringLiteral("\n\n"));
}

// The largest font from `points` down to 4/5 of it (a step of a tenth) in which every label
// fits `room` pixels high at its width; the smallest when none does.
void fitLabels(const std::vector<QLabel *> &labels, double points, int room)
{
    const Theme &theme = Theme::instance();
    for (double scale = 1.0; scale >= 0.8 - 1e-9; scale -= 0.1) {
        bool fits = true;
        for (QLabel *label : labels) {
            label->setFont(theme.font(points * scale));
            if (label->isVisibleTo(label->parentWidget()) && label->width() > 0 &&
                label->heightForWidth(label->width()) > room)
                fits = false;
        }
        if (fits)
            return;
    }
}

} // namespace

SideBySideView::SideBySideView(SideBySide &pair, GraphPanel *primary_graph, QWidget *parent)
    : QWidget(parent), pair_(pair), primary_graph_(primary_graph)
{
    setObjectName(QStringLiteral("sideBySideView"));
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(2);
    announcement_ = wrappedLabel(this, "sideBySideAnnouncement");
    announcement_->hide();
    outer->addWidget(announcement_);
    shared_note_ = wrappedLabel(this, "sideBySideSharedNote");
    shared_note_->hide();
    outer->addWidget(shared_note_);
    auto *panes = new QHBoxLayout;
    panes->setSpacing(4);
    outer->addLayout(panes, 1);

    left_ = new QVBoxLayout;
    title_a_ = wrappedLabel(this, "sideBySideTitleA");
    narration_a_ = wrappedLabel(this, "sideBySideNarrationA");
    note_a_ = wrappedLabel(this, "sideBySideNoteA");
    left_->addWidget(title_a_);
    left_->addWidget(note_a_);
    primary_graph_->setParent(this);
    left_->addWidget(primary_graph_, 1);
    left_->addWidget(narration_a_);
    panes->addLayout(left_, 1);

    auto *rule = new QFrame(this);
    rule->setFrameShape(QFrame::VLine);
    panes->addWidget(rule);

    auto *right = new QVBoxLayout;
    title_b_ = wrappedLabel(this, "sideBySideTitleB");
    narration_b_ = wrappedLabel(this, "sideBySideNarrationB");
    secondary_graph_ = new GraphPanel(*pair_.secondary(), this);
    secondary_graph_->setObjectName(QStringLiteral("sideBySideGraph"));
    note_b_ = wrappedLabel(this, "sideBySideNoteB");
    right->addWidget(title_b_);
    right->addWidget(note_b_);
    right->addWidget(secondary_graph_, 1);
    right->addWidget(narration_b_);
    panes->addLayout(right, 1);
    shared_narration_ = wrappedLabel(this, "sideBySideSharedNarration");
    shared_narration_->hide();
    outer->addWidget(shared_narration_);
    primary_graph_->show();

    connect(&pair_, &SideBySide::changed, this, &SideBySideView::refresh);
    connect(&pair_.primary(), &PlayerController::positionChanged, this, &SideBySideView::refresh);
    connect(&Theme::instance(), &Theme::changed, this, &SideBySideView::restyle);
    restyle();
    refresh();
}

SideBySideView::~SideBySideView() = default;

void SideBySideView::release(QWidget *to)
{
    left_->removeWidget(primary_graph_);
    primary_graph_->setParent(to);
    primary_graph_->show();
}

void SideBySideView::setPresentation(bool on, double min_label_pixels)
{
    secondary_graph_->setPresentation(on, min_label_pixels);
}

void SideBySideView::restyle()
{
    const Theme &theme = Theme::instance();
    for (QLabel *title : {title_a_, title_b_})
        title->setFont(theme.font(11, true));
    for (QLabel *narration : {narration_a_, narration_b_, shared_narration_})
        narration->setFont(theme.font(kNarrationPoints));
    for (QLabel *note : {note_a_, note_b_, shared_note_}) {
        note->setFont(theme.font(10, true));
        note->setStyleSheet(QStringLiteral("QLabel { background: %1; color: %2; padding: 3px; }")
                                .arg(theme.noteBackground().name(), theme.foreground().name()));
    }
    announcement_->setFont(theme.font(11, true));
    // The announcement stands out from both narrations: the colour findings are marked in.
    announcement_->setStyleSheet(QStringLiteral("QLabel { background: %1; color: %2; "
                                                "border: 2px solid #d07000; padding: 4px; }")
                                     .arg(theme.announcementBackground().name(), theme.foreground().name()));
    fitTexts();
}

void SideBySideView::refresh()
{
    PlayerController *b = pair_.secondary();
    if (!b)
        return;
    title_a_->setText(tr("%1  (beat %2 of %3)")
                          .arg(pair_.nameA())
                          .arg(pair_.primary().beatNumber())
                          .arg(pair_.primary().beatCount()));
    title_b_->setText(tr("%1  (beat %2 of %3)").arg(pair_.nameB()).arg(b->beatNumber()).arg(b->beatCount()));
    const QString note_a = lastNote(pair_.primary()), note_b = lastNote(*b);
    // The same note in both runs is read once, across the width of both panes.
    const bool shared = note_a == note_b;
    shared_note_->setText(shared ? note_a : QString());
    shared_note_->setVisible(shared && !note_a.isEmpty());
    note_a_->setText(shared ? QString() : note_a);
    note_a_->setVisible(!shared && !note_a.isEmpty());
    note_b_->setText(shared ? QString() : note_b);
    note_b_->setVisible(!shared && !note_b.isEmpty());
    // At a note's own beat the narration is the note again: said once, in the note's box, the
    // room going to the graph.
    // What both runs say alike is read once, across the width of both panes (a line, not two).
    const QString said_a = paneNarration(pair_.primary().narration()), said_b = paneNarration(b->narration());
    const auto worth_saying = [](const QString &narration, const QString &note) {
        return !narration.isEmpty() && (note.isEmpty() || !narration.contains(note));
    };
    const bool say_a = worth_saying(said_a, note_a), say_b = worth_saying(said_b, note_b);
    const bool said_alike = say_a && say_b && said_a == said_b;
    shared_narration_->setText(said_alike ? said_a : QString());
    shared_narration_->setVisible(said_alike);
    narration_a_->setText(said_a);
    narration_a_->setVisible(say_a && !said_alike);
    narration_b_->setText(said_b);
    narration_b_->setVisible(say_b && !said_alike);
    const QString said = pair_.announcement();
    announcement_->setText(said);
    announcement_->setVisible(!said.isEmpty());
    fitTexts();
}

void SideBySideView::fitTexts()
{
    // The words under the graphs keep to a fifth of the view's height where a slightly
    // smaller font lets them: the graphs are what the two panes are for.
    fitLabels({narration_a_, narration_b_, shared_narration_}, kNarrationPoints, height() / 5);
}

void SideBySideView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitTexts();
}
