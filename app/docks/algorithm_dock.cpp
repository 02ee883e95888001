// SPDX-License-Identifier: GPL-3.0-or-later
#include "algorithm_dock.h"

#include "algorithm_view.h"
#include "dock_common.h"

#include "../finding_text.h"
#include "../player_controller.h"
#include "../theme.h"

#include "inflight/algorithm_listing.hpp"
#include "inflight/glossary.hpp"
#include "inflight/narrate.hpp"
#include "inflight/report.hpp"
#include "inflight/run_summary.hpp"
#include "inflight/simulation.hpp"
#include "inflight/step_snapshot.hpp"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

using namespace inflight;

namespace docks {

namespace {
int row_of(const std::vector<ListingLine> &l, std::uint16_t line)
{
    if (!line)
        return -1;
    for (std::size_t i = 0; i < l.size(); ++i)
        if (static_cast<std::uint16_t>(l[i].id) == line)
            return static_cast<int>(i);
    return -1;
}

// The notes this run shows: a note naming other collectors or other variants is skipped by the
// run, so it is neither the current note nor the last one. An ask's question is a note too, and
// its answer is kept apart, to be added once the run has told it.
void collect_notes(const std::vector<Statement> &list, GcEra era, const std::string &variant,
                   std::map<std::uint32_t, QString> &out, std::map<std::uint32_t, QString> &answers)
{
    for (const Statement &s : list) {
        const bool other_era =
            !s.note_eras.empty() && std::find(s.note_eras.begin(), s.note_eras.end(), era) == s.note_eras.end();
        const bool other_variant = !s.only_variants.empty() && std::find(s.only_variants.begin(), s.only_variants.end(),
                                                                         variant) == s.only_variants.end();
        if (s.op == Op::note && !other_era && !other_variant) {
            out[s.loc.line] = QString::fromStdString(s.text);
        } else if (s.ask && !other_variant) {
            out[s.loc.line] = QString::fromStdString(s.ask->question);
            answers[s.loc.line] = QString::fromStdString(answer_text(s));
        } else if (s.op == Op::repeat) {
            collect_notes(s.body, era, variant, out, answers);
        }
    }
}

// Whether the step is an ask's before its answer is told: its start, or its question.
bool beforeAnswer(const Event *e)
{
    return e && (e->kind == EventKind::stmt_begin ||
                 (e->kind == EventKind::note && e->fn == KFn::scene && e->scene_note_shows() == SceneNote::question));
}
} // namespace

AlgorithmDock::AlgorithmDock(PlayerController &controller, QWidget *parent)
    : QDockWidget(tr("Algorithm"), parent), controller_(controller)
{
    setObjectName(QStringLiteral("algorithmDock"));
    auto *body = new QWidget(this);
    auto *layout = column_ = new QVBoxLayout(body);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setSpacing(6);

    note_box_ = new QFrame(body);
    note_box_->setObjectName(QStringLiteral("noteBox"));
    note_box_->setFrameShape(QFrame::StyledPanel);
    auto *nl = new QVBoxLayout(note_box_);
    nl->setContentsMargins(8, 4, 8, 6);
    nl->setSpacing(2);
    note_title_ = new QLabel(note_box_);
    note_title_->setWordWrap(true);
    note_ = new QLabel(note_box_);
    note_->setWordWrap(true);
    note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    note_box_->setToolTip(tr("The scene's own explanation: the text of its latest note statement."));
    // The notes are the lesson's outline: the button lists them all, a click goes to one
    // (N and P step through them).
    auto *title_row = new QHBoxLayout;
    title_row->setContentsMargins(0, 0, 0, 0);
    title_row->addWidget(note_title_, 1);
    outline_ = new QToolButton(note_box_);
    outline_->setObjectName(QStringLiteral("notesOutline"));
    outline_->setText(tr("All notes"));
    outline_->setToolTip(tr("The scene's notes, the lesson's outline: go to one (N, P: next, previous)"));
    outline_->setPopupMode(QToolButton::InstantPopup);
    auto *outline_menu = new QMenu(outline_);
    outline_->setMenu(outline_menu);
    connect(outline_menu, &QMenu::aboutToShow, this, [this, outline_menu] { fillOutline(outline_menu); });
    title_row->addWidget(outline_, 0, Qt::AlignTop);
    nl->addLayout(title_row);
    // A long note scrolls inside its box: the narration and the current code line below it
    // must stay in view, in presentation mode's large text too.
    note_scroll_ = new QScrollArea(note_box_);
    note_scroll_->setWidget(note_);
    note_scroll_->setWidgetResizable(true);
    note_scroll_->setFrameShape(QFrame::NoFrame);
    note_scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    note_scroll_->viewport()->setAutoFillBackground(false);
    note_->setAutoFillBackground(false);
    nl->addWidget(note_scroll_);
    layout->addWidget(note_box_);

    caption_ = new QLabel(body);
    caption_->setWordWrap(true);
    caption_->setToolTip(tr("The micro-step shown: its number, the scene line being executed, and the kernel "
                            "function it happens in."));
    layout->addWidget(caption_);
    finding_ = new QLabel(body);
    finding_->setObjectName(QStringLiteral("findingBanner"));
    finding_->setWordWrap(true);
    finding_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    finding_->setToolTip(tr("The kernel found a bug at this step: a WARN, a use-after-free or a leak. The objects it "
                            "names are ringed in red on the graph."));
    finding_->hide();
    narration_ = new QLabel(body);
    narration_->setWordWrap(true);
    narration_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    narration_->setToolTip(tr("What this micro-step did, and why it matters to the collector."));
    narration_->setMinimumHeight(QFontMetrics(narration_->font()).height() * 2);
    layout->addWidget(narration_);
    // Under the step's own narration: what the step did, then what the kernel found.
    layout->addWidget(finding_);
    // While presenting, the skbs a collection has moved to its hitlist, by name: what the
    // narration of the hitlist and the purge speaks of, with the lists dock out of sight.
    hitlist_row_ = new QLabel(body);
    hitlist_row_->setObjectName(QStringLiteral("hitlistRow"));
    hitlist_row_->setWordWrap(true);
    hitlist_row_->setToolTip(tr("The collector's hitlist: the skbs taken from the garbage's receive queues, and the "
                                "sockets whose files they carry. Purging it releases the garbage."));
    hitlist_row_->hide();
    layout->addWidget(hitlist_row_);
    // Presentation mode's free room: the code under it stays where it is.
    room_ = new QSpacerItem(0, 0, QSizePolicy::Minimum, QSizePolicy::Expanding);
    layout->addItem(room_);

    title_ = new QLabel(body);
    title_->setWordWrap(true);
    title_->setToolTip(tr("The collector of the kernel era the scene runs under, as pseudo-code with the "
                          "kernel's function names."));
    layout->addWidget(title_);
    scroll_ = new QScrollArea(body);
    scroll_->setWidgetResizable(true);
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    view_ = new AlgorithmView(scroll_);
    scroll_->setWidget(view_);
    // However little room the dock has, a few listing lines stay visible (the dock scrolls).
    scroll_->setMinimumHeight(QFontMetrics(Theme::instance().monoFont(kCodePoints)).lineSpacing() * 6);
    layout->addWidget(scroll_, 1);
    setWidget(scrollable(body, this));

    // Scrolled once the layout has settled (a resize or a font change moves the rows first).
    connect(view_, &AlgorithmView::currentRectChanged, this, [this] {
        if (scroll_pending_)
            return;
        scroll_pending_ = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                scroll_pending_ = false;
                placeCurrentLine();
            },
            Qt::QueuedConnection);
    });
    connect(&controller_, &PlayerController::sceneLoaded, this, &AlgorithmDock::sceneLoaded);
    connect(&controller_, &PlayerController::positionChanged, this, &AlgorithmDock::refresh);
    // Queued: the pane's refresh gets a turn of the event loop of its own rather than adding to
    // the slots that hear the index land (its listing lines come with it, RunLandmarks).
    connect(&controller_, &PlayerController::indexReadyChanged, this, &AlgorithmDock::refresh, Qt::QueuedConnection);
    connect(&Theme::instance(), &Theme::changed, this, &AlgorithmDock::applyTheme);
    applyTheme();
    if (controller_.hasScene())
        sceneLoaded();
    else
        refresh();
}

void AlgorithmDock::placeCurrentLine()
{
    const QRect r = view_->rowRect(view_->currentRow());
    QScrollBar *bar = scroll_->verticalScrollBar();
    const int h = scroll_->viewport()->height();
    if (!r.isValid())
        return;
    if (presenting_) {
        // A column laid out taller than the dock (a label wrapped a line more than measured)
        // gives the overflow back from the code pane, down to its least.
        if (auto *area = qobject_cast<QScrollArea *>(widget()); area && area->widget()) {
            const int over = area->widget()->minimumSizeHint().height() - area->viewport()->height();
            if (over > 0 && scroll_->height() - over >= presentationCodeLeast()) {
                scroll_->setFixedHeight(scroll_->height() - over);
                QMetaObject::invokeMethod(this, &AlgorithmDock::placeCurrentLine, Qt::QueuedConnection);
                return;
            }
        }
        // Always at the same height on screen, counted from the pane's bottom (the pane grows
        // upwards into the room the text leaves): where the second line of the least pane
        // would be, higher only as far as a tall line needs to be seen whole. The eye finds it
        // where it was; a taller pane shows more of what led to it.
        const int line = QFontMetrics(view_->font()).lineSpacing();
        const int at = std::clamp(h - (kPresentationCodeLines - 1) * line, 0, std::max(0, h - r.height()));
        bar->setValue(r.top() - at);
        return;
    }
    // A line out of view is centred, so that the lines around it are seen too.
    if (r.top() < bar->value() || r.bottom() > bar->value() + h)
        bar->setValue(r.top() - std::max(0, (h - r.height()) / 2));
}

void AlgorithmDock::setPresentation(bool on)
{
    if (on == presenting_)
        return;
    presenting_ = on;
    caption_->setVisible(!on);
    outline_->setVisible(!on);
    // The narrow column's width goes to the words, not to margins.
    column_->setContentsMargins(on ? QMargins(3, 2, 3, 2) : QMargins(6, 4, 6, 4));
    note_box_->layout()->setContentsMargins(on ? QMargins(4, 2, 4, 2) : QMargins(8, 4, 8, 6));
    // The whole note is shown while presenting: no scroll bar takes its width.
    note_scroll_->setVerticalScrollBarPolicy(on ? Qt::ScrollBarAlwaysOff : Qt::ScrollBarAsNeeded);
    // The code pane: a fixed height at the bottom while presenting, the free room above it.
    column_->setStretch(column_->indexOf(room_), on ? 1 : 0);
    column_->setStretch(column_->indexOf(scroll_), on ? 0 : 1);
    if (!on) {
        narration_->show();
        hitlist_row_->hide();
        scroll_->setMaximumHeight(QWIDGETSIZE_MAX);
    }
    applyTheme(); // the code pane's height for its font
    refresh();
}

void AlgorithmDock::sceneLoaded()
{
    notes_.clear();
    answers_.clear();
    if (controller_.hasScene())
        collect_notes(controller_.scene().statements, controller_.era(), controller_.scene().settings.variant, notes_,
                      answers_);
    indexed_ = false;
    followed_pos_ = 0;
    followed_line_ = 0;
    refresh();
}

void AlgorithmDock::indexIfNeeded()
{
    const auto &tl = controller_.timeline();
    const std::uint64_t data = controller_.indexReady() ? tl.contents_id() : 0;
    if (indexed_ && data == indexed_data_ && tl.size() == indexed_size_)
        return;
    indexed_data_ = data;
    indexed_size_ = tl.size();
    note_steps_.clear();
    indexed_ = controller_.indexReady();
    if (!indexed_)
        return;
    // Found off the GUI thread as the run was indexed (RunLandmarks); of the notes that began,
    // those this run shows.
    for (const auto &[step, line] : controller_.landmarks().note_steps)
        if (notes_.contains(line))
            note_steps_.emplace_back(step, line);
    // Past the cap only landmarks are recorded: the listing line is followed step by step there.
    complete_to_ = controller_.indexComplete() ? std::numeric_limits<std::uint64_t>::max()
                                               : static_cast<std::uint64_t>(PlayerController::kIndexCap);
}

std::uint16_t AlgorithmDock::lastLineBefore(std::uint64_t step) const
{
    if (!indexed_ || step > complete_to_)
        return followed_line_;
    const auto &lines = controller_.landmarks().listing_lines;
    auto it =
        std::upper_bound(lines.begin(), lines.end(), step, [](std::uint64_t s, const auto &p) { return s < p.first; });
    return it == lines.begin() ? 0 : std::prev(it)->second;
}

std::uint32_t AlgorithmDock::lastNoteLineBefore(std::uint64_t step) const
{
    if (indexed_) {
        auto it = std::upper_bound(note_steps_.begin(), note_steps_.end(), step,
                                   [](std::uint64_t s, const auto &p) { return s < p.first; });
        return it == note_steps_.begin() ? 0 : std::prev(it)->second;
    }
    // Until the run is indexed: the last note above the statement being executed.
    if (!step)
        return 0;
    const std::uint32_t line = controller_.snapshot().current_line;
    auto it = notes_.upper_bound(line);
    return it == notes_.begin() ? 0 : std::prev(it)->first;
}

void AlgorithmDock::refresh()
{
    if (!controller_.hasScene()) {
        view_->setListing(nullptr);
        narration_->clear();
        finding_->clear();
        finding_->hide();
        caption_->clear();
        note_box_->hide();
        return;
    }
    indexIfNeeded();
    const GcEra era = controller_.era();
    const StepSnapshot &k = controller_.snapshot();
    const Event *e = controller_.currentEvent();
    const std::uint64_t pos = controller_.position();
    const bool running = k.collection_running;

    // Followed step by step as well, for when the index cannot say (still being made, or past its
    // cap); a jump loses it (then the index answers where it can).
    if (pos == followed_pos_ + 1 && e && listing_line_of(*e, era))
        followed_line_ = listing_line_of(*e, era);
    else if (pos != followed_pos_ + 1 && pos != followed_pos_)
        followed_line_ = indexed_ && pos <= complete_to_ ? lastLineBefore(pos) : 0;
    followed_pos_ = pos;

    // The line: the current event's; else, inside a collection, the purge or the last line run;
    // else the last line run, dimmed.
    std::uint16_t line = e ? listing_line_of(*e, era) : 0;
    bool dim = false;
    if (!line && running && k.gc_phase == GcPhase::purge)
        line = static_cast<std::uint16_t>(era == GcEra::graph ? AlgoLine::graph_purge : AlgoLine::classic_purge);
    if (!line) {
        line = lastLineBefore(pos);
        dim = !running;
    }
    // The listing of the code that ran last, like a debugger's source pane: unix_autobind() of
    // the scene's generation while a bind probes, else the collector of the era.
    const AutobindMode mode = k.autobind;
    const auto &listing = listing_of_line(line, era, mode);
    view_->setListing(&listing);
    if (is_autobind_line(line))
        title_->setText(tr("unix_autobind() — %1").arg(autobindTitle(mode)));
    else
        title_->setText(era == GcEra::graph
                            ? tr("__unix_gc() — graph collector, kernel %1").arg(qs(k.profile))
                            : tr("unix_gc() — %1 collector, kernel %2").arg(qs(era_name(era)), qs(k.profile)));
    view_->setCurrent(row_of(listing, line), dim);

    // Narration.
    if (e) {
        // A finding made at this step is announced now, in a banner of its own.
        const QString told = controller_.narration();
        const QStringList findings = findingParagraphs(told);
        findings_.clear();
        for (const QString &f : findings)
            findings_.emplace_back(f.section(QLatin1Char('\n'), 0, 0), f.section(QLatin1Char('\n'), 1));
        setFindingText(Theme::instance().font(kNarrationPoints).pointSizeF());
        finding_->setVisible(!findings.isEmpty());
        QString story = withoutFindings(told);
        // The last step also tells how the run ended: what was freed, what leaked, the expectations.
        if (controller_.indexReady() && pos == controller_.totalSteps() && controller_.endOfRun())
            story += QStringLiteral("\n\n") + QString::fromStdString(controller_.endOfRun()->ending);
        narration_->setText(presenting_ ? withNameBreaks(story) : story);
        narration_->setToolTip(glossaryTip(story));
        QString cap = tr("Step %1").arg(pos);
        if (controller_.indexReady())
            cap += tr(" of %1").arg(controller_.totalSteps());
        // The line the editor and the timeline show (the step's own task's statement).
        if (k.current_line)
            cap += tr(" · line %1").arg(k.current_line);
        if (e->fn != KFn::none && e->fn != KFn::scene)
            cap += QStringLiteral(" · ") + qs(kfn_name(e->fn));
        // Several tasks: say whose step this is and when, on the modelled clock.
        if (k.concurrent && e->task < k.tasks.size()) {
            const TaskEntry &t = k.tasks[e->task];
            cap += tr(" · %1 on cpu %2").arg(QString::fromStdString(t.name)).arg(t.cpu);
        }
        if (e->time)
            cap += QStringLiteral(" · t = ") + QString::fromStdString(format_ns(e->time));
        caption_->setText(cap);
    } else {
        finding_->clear();
        finding_->hide();
        narration_->setText(tr("Nothing has run yet. Step forward to start the scene."));
        caption_->setText(tr("Step 0"));
    }

    // The note: the current statement's, else the last one run.
    const std::uint32_t cur = pos ? k.current_line : 0;
    std::uint32_t note_line = 0;
    note_current_ = false;
    if (cur && notes_.contains(cur)) {
        note_line = cur;
        note_current_ = true;
    } else {
        note_line = lastNoteLineBefore(pos);
    }
    if (note_line && notes_.contains(note_line)) {
        // An ask's question, and its answer from the press that tells it on.
        QString text = notes_[note_line];
        const auto answer = answers_.find(note_line);
        const bool asked = answer != answers_.end();
        if (asked && !(note_current_ && beforeAnswer(e)))
            text += QStringLiteral("\n\n") + answer->second;
        note_->setText(presenting_ ? withNameBreaks(text) : text);
        fitNote();
        if (asked)
            note_title_->setText(note_current_ ? tr("Question · line %1").arg(note_line)
                                               : tr("Last question · line %1").arg(note_line));
        else
            note_title_->setText(note_current_ ? tr("Note · line %1").arg(note_line)
                                               : tr("Last note · line %1").arg(note_line));
        note_box_->show();
    } else if (!notes_.empty()) {
        // Before the first note: its outline is already there to jump into the lesson.
        note_->clear();
        fitNote();
        note_title_->setText(tr("%n note(s) in this scene", nullptr, static_cast<int>(notes_.size())));
        note_box_->show();
    } else {
        note_->clear();
        note_box_->hide();
    }
    if (note_current_ != note_styled_current_)
        styleNote();
    if (presenting_) {
        // The note at its own beat, once: the narration of a note statement is the note (and
        // of an ask's steps, its question or its answer, which the note box holds).
        const bool note_now = note_current_ && !note_->text().isEmpty();
        note_box_->setVisible(note_now);
        const QString told = narrationText().simplified(), noted = noteText().simplified();
        narration_->setVisible(!note_now || (!told.contains(noted) && !noted.contains(told)));
        QStringList hitlist;
        if (controller_.hasScene()) {
            const inflight::StepSnapshot &snapshot = controller_.snapshot();
            const std::size_t shown = std::min<std::size_t>(snapshot.hitlist.size(), kHitlistNamesShown);
            for (std::size_t i = 0; i < shown; ++i)
                hitlist << docks::skbText(snapshot, snapshot.hitlist[i]);
            if (snapshot.hitlist.size() > shown)
                hitlist << tr("%n more", nullptr, static_cast<int>(snapshot.hitlist.size() - shown));
        }
        hitlist_row_->setText(
            hitlist.isEmpty() ? QString() : withNameBreaks(tr("Hitlist: %1").arg(hitlist.join(QStringLiteral(" · ")))));
        hitlist_row_->setVisible(!hitlist.isEmpty());
        fitPresentationText();
    }
}

void AlgorithmDock::setFindingText(double head_points)
{
    // Each finding's first line (what broke) in the narration's type, its details under it.
    QString html;
    for (const auto &[head, rest] : findings_)
        html += QStringLiteral("<p style=\"font-size:%1pt; font-weight:bold\">%2</p><p>%3</p>")
                    .arg(head_points)
                    .arg(head.toHtmlEscaped(), rest.toHtmlEscaped());
    finding_->setText(html);
}

QString AlgorithmDock::autobindTitle(AutobindMode mode)
{
    switch (mode) {
    case AutobindMode::sequential: return tr("one shared counter (before 2021)");
    case AutobindMode::random_v1: return tr("random start, 2021 patch v1 (could loop forever)");
    case AutobindMode::random: break;
    }
    return tr("random start, merged form (2021-11 on)");
}

QString AlgorithmDock::listingTitle() const { return title_->text(); }

int AlgorithmDock::currentListingRow() const { return view_->currentRow(); }
bool AlgorithmDock::currentLineDimmed() const { return view_->dimmed(); }
QString AlgorithmDock::glossaryTip(const QString &story)
{
    // Hovering the narration explains the words it uses, from the same glossary as Help ▸ Glossary.
    const QByteArray utf8 = story.toUtf8();
    QString tip;
    for (const inflight::GlossaryEntry *e : inflight::glossary_terms_in(std::string_view(utf8.data(), utf8.size())))
        tip +=
            QStringLiteral("<p><b>%1</b>: %2</p>")
                .arg(QString::fromUtf8(e->term.data(), static_cast<qsizetype>(e->term.size())).toHtmlEscaped(),
                     QString::fromUtf8(e->meaning.data(), static_cast<qsizetype>(e->meaning.size())).toHtmlEscaped());
    return tip.isEmpty() ? tr("What this micro-step did, and why it matters to the collector.") : tip;
}

QString AlgorithmDock::narrationText() const { return QString(narration_->text()).remove(QChar(0x200B)); }
QString AlgorithmDock::captionText() const { return caption_->text(); }
QString AlgorithmDock::findingText() const
{
    if (finding_->isHidden())
        return {};
    QTextDocument doc;
    doc.setHtml(finding_->text());
    return doc.toPlainText();
}
QString AlgorithmDock::noteText() const
{
    return note_box_->isHidden() ? QString() : QString(note_->text()).remove(QChar(0x200B));
}

void AlgorithmDock::applyTheme()
{
    const Theme &t = Theme::instance();
    // Presenting, the code is read less than the words: smaller than the narration's large
    // type (still larger than at the desk), so that a listing line wraps to two or three rows
    // in the narrow column, not six.
    const QFont code_font = t.monoFont(presenting_ ? kCodePoints * kPresentationCodeScale : kCodePoints);
    view_->setFont(code_font);
    const int code_line = QFontMetrics(code_font).lineSpacing();
    scroll_->setMinimumHeight(code_line * 6);
    if (presenting_) // the pane's own frame around its lines (fitPresentationText() gives it the rest)
        scroll_->setFixedHeight(presentationCodeLeast());
    // A dock squeezed to a sliver shows nothing: ask for room for ~16 code characters.
    if (widget())
        widget()->setMinimumWidth(QFontMetrics(t.monoFont(kCodePoints)).horizontalAdvance(QLatin1Char('m')) * 16);
    title_->setFont(t.font(presenting_ ? kTitlePoints * kPresentationCodeScale : kTitlePoints, true));
    caption_->setFont(t.font(kRowPoints * 0.9));
    narration_->setFont(t.font(kNarrationPoints));
    hitlist_row_->setFont(t.font(kNarrationPoints));
    fitPresentationText();
    finding_->setFont(t.font(kRowPoints));
    finding_->setTextFormat(Qt::RichText);
    finding_->setStyleSheet(QStringLiteral("#findingBanner { background: #c01010; color: white; padding: 6px; "
                                           "border-radius: 4px; }"));
    note_title_->setFont(t.font(kRowPoints * 0.9, true));
    QPalette p = caption_->palette();
    p.setColor(QPalette::WindowText, t.mutedText());
    caption_->setPalette(p);
    styleNote();
    view_->restyle();
}

void AlgorithmDock::styleNote()
{
    const Theme &t = Theme::instance();
    note_styled_current_ = note_current_;
    note_->setFont(t.font(kNotePoints, note_current_));
    fitNote();
    fitPresentationText();
    // The note box: tinted like the current line when the note is the statement being run.
    const QColor bg = note_current_ ? t.highlightLineColor() : t.background();
    const QColor border = note_current_ ? t.foreground() : t.mutedText();
    note_box_->setStyleSheet(QStringLiteral("#noteBox { background: %1; border: %2px solid %3; border-radius: 4px; }")
                                 .arg(bg.name())
                                 .arg(note_current_ ? 2 : 1)
                                 .arg(border.name()));
}

void AlgorithmDock::fillOutline(QMenu *menu)
{
    menu->clear();
    indexIfNeeded();
    for (const auto &[step, line] : note_steps_) {
        QString text = notes_.contains(line) ? notes_.at(line) : QString();
        if (text.size() > 70)
            text = text.left(68) + QStringLiteral("…");
        const std::uint64_t to = step;
        menu->addAction(tr("line %1: %2").arg(line).arg(text), this, [this, to] { controller_.seek(to); });
    }
    if (menu->isEmpty())
        menu->addAction(tr("The scene has no notes (or is still being indexed)"))->setEnabled(false);
}

void AlgorithmDock::resizeEvent(QResizeEvent *e)
{
    QDockWidget::resizeEvent(e);
    fitNote();
    if (presenting_)
        QMetaObject::invokeMethod(this, &AlgorithmDock::fitPresentationText, Qt::QueuedConnection);
}

void AlgorithmDock::fitPresentationText()
{
    if (!presenting_ || fitting_ || !widget())
        return;
    fitting_ = true;
    const Theme &t = Theme::instance();
    auto *area = qobject_cast<QScrollArea *>(widget());
    const int room_height = area ? area->viewport()->height() : height();
    // The code pane at its least (presentationCodeLeast()); it takes what the text leaves.
    const int code_least = presentationCodeLeast();
    const QMargins m = column_->contentsMargins();
    const int width = (area ? area->viewport()->width() : this->width()) - m.left() - m.right();
    const int spacing = column_->spacing();
    // What does not shrink: the title, the code pane, a finding's banner, the margins.
    int fixed = m.top() + m.bottom() + title_->heightForWidth(width) + spacing;

    const int room = room_height - fixed - code_least;
    // The note box's own margins and frame around its text.
    const QMargins note_margins = note_box_->layout()->contentsMargins();
    const int note_frame = 2 * note_box_->frameWidth();
    const int note_width = width - note_margins.left() - note_margins.right() - note_frame;
    const int note_extra = note_title_->heightForWidth(note_width) + note_margins.top() + note_margins.bottom() +
                           note_box_->layout()->spacing() + note_frame;
    // Measured by the labels themselves, in the font tried (their own wrapping, at break
    // opportunities the metrics alone do not know).
    auto needed = [&](const QFont &font) {
        // (A word wider than the column does not fit at any height.)
        auto tooWide = [](const QFont &f, const QString &text, int w) {
            return QFontMetrics(f).boundingRect(QRect(0, 0, std::max(1, w), 1 << 20), Qt::TextWordWrap, text).width() >
                   w;
        };
        int h = 0;
        if (finding_->isVisibleTo(this)) {
            // The banner steps down with the words: its head in their size, its details smaller.
            QFont details = finding_->font();
            details.setPointSizeF(font.pointSizeF() * kRowPoints / kNarrationPoints);
            finding_->setFont(details);
            setFindingText(font.pointSizeF());
            h += finding_->heightForWidth(std::max(1, width)) + spacing;
        }
        if (note_box_->isVisibleTo(this)) {
            QFont bold = font;
            bold.setBold(note_current_);
            note_->setFont(bold);
            if (tooWide(bold, note_->text(), note_width))
                return 1 << 20;
            h += note_->heightForWidth(std::max(1, note_width)) + note_extra + spacing;
        }
        for (QLabel *words : {narration_, hitlist_row_})
            if (words->isVisibleTo(this)) {
                words->setFont(font);
                if (tooWide(font, words->text(), width))
                    return 1 << 20;
                h += words->heightForWidth(std::max(1, width)) + spacing;
            }
        return h;
    };
    // As large as the room allows, from presentation's size down to the floor.
    const double largest = t.font(kNarrationPoints).pointSizeF();
    QFont font = t.font(kNarrationPoints);
    int text_height = 0;
    // Half-point steps counted as integers: a float counter would drift past the floor.
    const int steps = static_cast<int>((largest - kPresentationTextFloorPoints) * 2);
    for (int step = 0; step <= steps; ++step) {
        font.setPointSizeF(largest - step * 0.5);
        text_height = needed(font);
        if (text_height <= room)
            break;
    }
    narration_->setFont(font);
    hitlist_row_->setFont(font);
    QFont note_font = font;
    note_font.setBold(note_current_);
    note_->setFont(note_font);
    note_text_width_ = note_width;
    fitNote();
    // No empty band: the code pane grows up to the text (and the spacing the free room keeps).
    // (Half a code line to spare for the layout's rounding.)
    const int code_height = std::max(code_least, room_height - fixed - text_height - spacing -
                                                     QFontMetrics(view_->font()).lineSpacing() / 2);
    if (scroll_->height() != code_height)
        scroll_->setFixedHeight(code_height);
    // Once the pane and the listing under it have their heights: the current line to its place.
    QMetaObject::invokeMethod(this, &AlgorithmDock::placeCurrentLine, Qt::QueuedConnection);
    fitting_ = false;
}

int AlgorithmDock::presentationCodeLeast() const
{
    // Its lines, or the current listing line wrapped at this width and one more, so that the
    // current line is always seen whole.
    const int code_line = QFontMetrics(view_->font()).lineSpacing();
    const int current = view_->currentRow() >= 0 ? view_->rowRect(view_->currentRow()).height() : 0;
    return std::max(code_line * kPresentationCodeLines, current + code_line) + 2 * scroll_->frameWidth();
}

void AlgorithmDock::fitNote()
{
    if (presenting_) {
        // The whole note, at the width its room was measured for (fitPresentationText()).
        const int wanted = note_->heightForWidth(std::max(1, note_text_width_));
        note_scroll_->setMaximumHeight(QWIDGETSIZE_MAX);
        note_scroll_->setMinimumHeight(std::max(0, wanted));
        return;
    }
    // At most a third of the dock for the note: the code needs the rest.
    const int cap = std::max(60, height() / 3);
    const int wanted = note_->heightForWidth(note_scroll_->viewport()->width());
    note_scroll_->setMaximumHeight(cap);
    note_scroll_->setMinimumHeight(std::min(cap, std::max(0, wanted)));
}

} // namespace docks
