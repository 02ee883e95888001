// SPDX-License-Identifier: GPL-3.0-or-later
#include "lesson_check.h"

#include "docks/algorithm_dock.h"
#include "docks/algorithm_view.h"
#include "graph/collector_badge_item.h"
#include "graph/graph_panel.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/node_item.h"
#include "graph/process_item.h"
#include "graph/scc_hull_item.h"
#include "graph/socket_item.h"
#include "graph/step_subject.h"
#include "latency/latency_dock.h"
#include "main_window.h"
#include "offscreen_screen.h"
#include "player_controller.h"
#include "side_by_side.h"
#include "side_by_side_view.h"
#include "theme.h"

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QRegularExpression>
#include <QScrollArea>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextDocument>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <unordered_map>

namespace lesson_check {

namespace {

// How long one wait may take before the check gives up on it (an index, a seek, a layout).
constexpr int kIndexWaitMs = 120000;
constexpr int kSettleWaitMs = 20000;
// The least the back row needs besides the graph's own rules: the graph's share of the screen
// and the code lines around the current one.
constexpr double kGraphShare = 0.6;
constexpr int kCodeLines = 5;

QString quoted(const QString &text)
{
    QString flat = text.simplified();
    if (flat.size() > 48)
        flat = flat.left(46) + QStringLiteral("…");
    return QLatin1Char('"') + flat + QLatin1Char('"');
}

QString rectText(const QRect &r) { return QStringLiteral("%1x%2").arg(r.width()).arg(r.height()); }

// The part of `w` a student sees, in its own coordinates: clipped by every parent (a scroll
// area's viewport, a squeezed dock) and the window.
QRect seenRect(const QWidget *w)
{
    if (!w->isVisible())
        return {};
    return w->visibleRegion().boundingRect();
}

// What a label's text needs, laid out at the label's width: its width (a word wider than the
// label sticks out) and height.
QSize neededSize(const QLabel *label)
{
    const QRect box = label->contentsRect();
    const QString text = label->text();
    const bool rich =
        label->textFormat() == Qt::RichText || (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(text));
    if (rich) {
        QTextDocument doc;
        doc.setDefaultFont(label->font());
        doc.setDocumentMargin(0);
        doc.setHtml(text);
        doc.setTextWidth(label->wordWrap() ? box.width() : -1);
        return {static_cast<int>(std::ceil(doc.idealWidth())), static_cast<int>(std::ceil(doc.size().height()))};
    }
    const QFontMetrics fm(label->font());
    const int flags = label->wordWrap() ? Qt::TextWordWrap : Qt::TextSingleLine;
    const QRect needed = fm.boundingRect(QRect(0, 0, label->wordWrap() ? box.width() : 1 << 20, 1 << 20), flags, text);
    return needed.size();
}

// Empty when the label shows its whole text; else what is missing.
QString clipping(const QLabel *label)
{
    if (label->text().trimmed().isEmpty())
        return {};
    const QRect box = label->contentsRect();
    const QSize need = neededSize(label);
    const QRect wanted(box.topLeft(), QSize(std::min(need.width(), box.width()), need.height()));
    const QRect seen = seenRect(label);
    if (!label->isVisible() || seen.isEmpty())
        return QStringLiteral("not shown");
    if (need.width() > box.width() + 1)
        return QStringLiteral("wider than its box (needs %1 px, has %2)").arg(need.width()).arg(box.width());
    if (!seen.contains(wanted.adjusted(0, 0, -1, -1)))
        return QStringLiteral("clipped (needs %1 px, %2 visible)")
            .arg(rectText(wanted), rectText(seen.intersected(wanted)));
    return {};
}

} // namespace

QSize parseSize(const QString &text)
{
    static const QRegularExpression form(QStringLiteral("^([0-9]{1,5})x([0-9]{1,5})$"));
    const QRegularExpressionMatch m = form.match(text);
    if (!m.hasMatch())
        return {};
    const int w = m.captured(1).toInt(), h = m.captured(2).toInt();
    if (w < 200 || h < 200 || w > 10000 || h > 10000)
        return {};
    return {w, h};
}

BeatRange parseBeats(const QString &text)
{
    static const QRegularExpression form(QStringLiteral("^([0-9]{1,9})(-([0-9]{1,9})?)?$"));
    const QRegularExpressionMatch m = form.match(text);
    BeatRange range;
    if (!m.hasMatch()) {
        range.valid = false;
        return range;
    }
    range.from = m.captured(1).toInt();
    if (m.captured(2).isEmpty())
        range.to = range.from;
    else if (!m.captured(3).isEmpty())
        range.to = m.captured(3).toInt();
    range.valid = range.from >= 1 && range.from <= range.to;
    return range;
}

double labelFloorPixels(QSize screen)
{
    // The graph's own rule (GraphPanel): 24 px for a 1280-pixel-wide projector and up, shrinking
    // with a smaller one to 5/6 of it (20 px at 1024x768); the height asks as much.
    const double scale = std::min(screen.width() / 1280.0, screen.height() / 800.0);
    return MainWindow::kPresentationLabelPixels * std::clamp(scale, 5.0 / 6.0, 1.0);
}

std::unique_ptr<QTemporaryDir> prepareOffscreenProjector(int argc, char **argv)
{
    bool checking = false;
    bool screenshot = false;
    QSize size;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (!arg)
            continue;
        if (std::strcmp(arg, "--check-lesson") == 0 || std::strncmp(arg, "--check-lesson=", 15) == 0)
            checking = true;
        if (std::strcmp(arg, "--screenshot") == 0 || std::strncmp(arg, "--screenshot=", 13) == 0)
            screenshot = true;
        // A bad size is refused once the arguments are parsed; the screen keeps the default.
        const char *value = std::strcmp(arg, "--size") == 0 && i + 1 < argc ? argv[i + 1]
                            : std::strncmp(arg, "--size=", 7) == 0          ? arg + 7
                                                                            : nullptr;
        if (value && parseSize(QString::fromLocal8Bit(value)).isValid())
            size = parseSize(QString::fromLocal8Bit(value));
    }
    // An offscreen screenshot is taken on a screen of the window's size, so that a presentation
    // (full screen) is pictured as that projector shows it, not on the platform's 800x600.
    const bool offscreen = qgetenv("QT_QPA_PLATFORM").startsWith("offscreen");
    if (!checking && !(screenshot && offscreen))
        return nullptr;
    if (!size.isValid())
        size = checking ? kDefaultProjector : kDefaultScreenshot;
    auto dir = std::make_unique<QTemporaryDir>();
    // Offscreen still when the screen cannot be described: the window's size then says what
    // was checked.
    const QString why = offscreen_screen::use(*dir, size);
    if (!why.isEmpty())
        std::fprintf(stderr, "inflight: warning: the projector's screen: %s\n", qPrintable(why));
    return dir;
}

LessonCheck::LessonCheck(MainWindow &window, PlayerController &controller)
    : window_(window), controller_(controller) { }

void LessonCheck::settle()
{
    GraphPanel &graph = window_.graph();
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < kSettleWaitMs) {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
        if (controller_.isBusy() || controller_.isSeeking())
            continue;
        if (!graph.waitForLayout(50))
            continue;
        if (const SideBySideView *panes = window_.sideBySideView()) {
            // The second run follows: it is checked where it stands beside the first.
            if (!window_.sideBySide().inStep() || !panes->secondaryGraph()->waitForLayout(50))
                continue;
            panes->secondaryGraph()->view()->finishCameraMove();
        }
        // Where a camera move ends is what the check is about, not the move.
        graph.view()->finishCameraMove();
        break;
    }
    // The panes' own deferred work: texts set, their layouts and the code pane's scroll (queued).
    for (int i = 0; i < 3; ++i) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QApplication::processEvents();
    }
}

QStringList LessonCheck::run(const QString &label, QSize screen, BeatRange wanted)
{
    screen_ = screen;
    beats_checked_ = 0;
    failure_.clear();
    QStringList problems;
    if (!controller_.hasScene()) {
        failure_ = QStringLiteral("%1: the scene did not run").arg(label);
        return problems;
    }
    // The presenter's window as a fresh install has it: the default layout and text size.
    Theme::instance().setFontScale(1.0);
    Theme::instance().setHighContrast(false);
    window_.resetLayout();
    window_.resize(screen);
    window_.show();
    window_.setPresentationMode(true);
    QElapsedTimer clock;
    clock.start();
    while ((!controller_.indexReady() || window_.size() != screen) && clock.elapsed() < kIndexWaitMs)
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    if (!controller_.indexReady()) {
        failure_ = QStringLiteral("%1: the run was not indexed within %2 s").arg(label).arg(kIndexWaitMs / 1000);
        return problems;
    }
    if (window_.size() != screen) {
        failure_ = QStringLiteral("%1: the window is %2x%3, not the projector's %4x%5")
                       .arg(label)
                       .arg(window_.width())
                       .arg(window_.height())
                       .arg(screen.width())
                       .arg(screen.height());
        return problems;
    }
    const int beats = controller_.beatCount();
    if (wanted.from > beats) {
        failure_ =
            QStringLiteral("%1: beats %2 on were asked for; the lesson has %3").arg(label).arg(wanted.from).arg(beats);
        return problems;
    }
    for (int n = wanted.from; n <= std::min(beats, wanted.to); ++n) {
        controller_.goToBeat(n);
        settle();
        const bool end = controller_.position() == controller_.totalSteps();
        const QString where = QStringLiteral("%1:beat %2 (step %3)").arg(label).arg(n).arg(controller_.position());
        problems += checkBeat(where, end);
        ++beats_checked_;
    }
    return problems;
}

QStringList LessonCheck::checkBeat(const QString &where, bool last_step)
{
    QStringList out;
    auto say = [&](const QString &what) { out << where + QStringLiteral(": ") + what; };
    auto *algorithm = qobject_cast<docks::AlgorithmDock *>(window_.windowDocks().algorithm);
    GraphPanel &graph = window_.graph();
    GraphView *view = graph.view();
    const QRect port = seenRect(view->viewport());
    const QSize window = window_.size();
    // The picture: the graph, and the panel a scene about one shows under it.
    double picture = double(port.width()) * port.height();
    for (QDockWidget *panel : {window_.windowDocks().latency, window_.windowDocks().autobind})
        if (panel && panel->isVisible() && !panel->isFloating())
            picture += double(panel->width()) * panel->height();
    // Side by side, the picture is both graphs.
    if (const SideBySideView *panes = window_.sideBySideView()) {
        const QRect second = seenRect(panes->secondaryGraph()->view()->viewport());
        picture += double(second.width()) * second.height();
    }

    // ---- the graph -----------------------------------------------------------------------------
    if (port.isEmpty()) {
        say(QStringLiteral("the graph is not shown"));
    } else if (picture < kGraphShare * window.width() * window.height()) {
        say(QStringLiteral("the graph (%1 px) and its panel have %2% of the %3x%4 screen, under %5%")
                .arg(rectText(port))
                .arg(std::lround(100 * picture / (double(window.width()) * window.height())))
                .arg(window.width())
                .arg(window.height())
                .arg(std::lround(kGraphShare * 100)));
    }
    const auto snapshot = controller_.graphSnapshot();
    QString told =
        algorithm ? algorithm->narrationText() + QLatin1Char('\n') + algorithm->findingText() : controller_.narration();
    if (algorithm && algorithm->noteIsCurrent())
        told += QLatin1Char('\n') + algorithm->noteText();
    if (snapshot && !port.isEmpty()) {
        std::unordered_map<std::uint32_t, QString> names;
        for (const auto &n : snapshot->nodes)
            names[n.sock] = QString::fromUtf8(snapshot->label_of(n));
        const StepSubject named = subjectOfText(*snapshot, told, false);
        QRectF together; // what is named, and the processes an fd points at, in scene units
        auto unite = [&together](const QGraphicsItem *item, const QRectF &box) {
            if (item && item->isVisible())
                together = together.isNull() ? box : together.united(box);
        };
        auto check = [&](const QGraphicsItem *item, const QRectF &box, const QString &what) {
            if (!item || !item->isVisible()) {
                say(QStringLiteral("%1 is named but not drawn").arg(what));
                return;
            }
            unite(item, box);
            const QRect r = view->mapFromScene(box).boundingRect();
            if (!port.contains(r))
                say(QStringLiteral("%1 is named but not fully on screen (%2 at %3,%4 in the %5 graph)")
                        .arg(what, rectText(r))
                        .arg(r.x())
                        .arg(r.y())
                        .arg(rectText(port)));
        };
        for (std::uint32_t sock : named.sockets) {
            const NodeItem *item = graph.scene()->itemShowing(sock);
            check(item, item ? item->sceneBox() : QRectF(), QStringLiteral("socket %1").arg(names[sock]));
            if (const CollectorBadgeItem *numbers = graph.scene()->badgeOf(sock))
                check(numbers, numbers->sceneBoundingRect(),
                      QStringLiteral("the collector's numbers of %1").arg(names[sock]));
            for (const SccHullItem *hull : graph.scene()->sccHulls())
                if (hull->scc().root == sock)
                    check(hull->captionItem(), hull->captionRect(),
                          QStringLiteral("the verdict on the SCC of %1").arg(names[sock]));
        }
        auto checkProcess = [&](std::uint32_t id) {
            const ProcessItem *item = graph.scene()->processItem(id);
            check(item, item ? item->sceneBox() : QRectF(),
                  QStringLiteral("process %1")
                      .arg(item ? QString::fromStdString(item->process().name) : QString::number(id)));
        };
        for (std::uint32_t id : named.processes)
            checkProcess(id);
        // A process the text points at by an fd must be in sight where it fits beside what is
        // named; where it does not, the named sockets come first (the camera's rule).
        for (std::uint32_t id : named.holders) {
            const ProcessItem *item = graph.scene()->processItem(id);
            unite(item, item ? item->sceneBox() : QRectF());
        }
        if (view->fitsWithMargin(together))
            for (std::uint32_t id : named.holders)
                checkProcess(id);
        // Names under the floor, where any socket is in sight.
        const double floor = labelFloorPixels(screen_);
        const double pixels = view->labelScreenPixels();
        bool socket_in_sight = false;
        for (const SocketItem *s : graph.scene()->socketItems())
            if (s->isVisible() && port.intersects(view->mapFromScene(s->sceneBox()).boundingRect())) {
                socket_in_sight = true;
                break;
            }
        if (socket_in_sight && pixels < floor - 0.05)
            say(QStringLiteral("socket labels are %1 px, under the %2 px floor")
                    .arg(pixels, 0, 'f', 1)
                    .arg(floor, 0, 'f', 0));
    }

    // ---- the scene's own panel: its figures are what the lesson is about -----------------------
    if (auto *latency = qobject_cast<latency::LatencyDock *>(window_.windowDocks().latency);
        latency && latency->isVisible()) {
        const QTableView *table = latency->percentileView();
        const QRect seen = seenRect(table->viewport());
        const QAbstractItemModel *figures = table->model();
        for (int r = 0; r < figures->rowCount(); ++r) {
            if (table->isRowHidden(r))
                continue;
            for (int c = 0; c < figures->columnCount(); ++c) {
                const QRect cell = table->visualRect(figures->index(r, c));
                if (!seen.contains(cell.adjusted(0, 0, -1, -1)))
                    say(QStringLiteral("latency figure clipped (%1 of %2: %3 px, %4 visible)")
                            .arg(figures->headerData(r, Qt::Vertical).toString().simplified(),
                                 figures->headerData(c, Qt::Horizontal).toString().simplified(), rectText(cell),
                                 rectText(seen.intersected(cell))));
            }
        }
    }

    // ---- side by side: the second graph's names and each pane's texts -------------------------------
    if (const SideBySideView *panes = window_.sideBySideView()) {
        const GraphView *second = panes->secondaryGraph()->view();
        const double floor = labelFloorPixels(screen_);
        if (!seenRect(second->viewport()).isEmpty() && !panes->secondaryGraph()->scene()->socketItems().isEmpty() &&
            second->labelScreenPixels() < floor - 0.05)
            say(QStringLiteral("the second graph's socket labels are %1 px, under the %2 px floor")
                    .arg(second->labelScreenPixels(), 0, 'f', 1)
                    .arg(floor, 0, 'f', 0));
        for (int pane = 0; pane < 2; ++pane)
            for (const QLabel *label : {panes->note(pane), panes->narration(pane)}) {
                if (label->isHidden() || label->text().trimmed().isEmpty())
                    continue;
                const QString why = clipping(label);
                if (!why.isEmpty())
                    say(QStringLiteral("pane %1's %2 %3: %4")
                            .arg(pane + 1)
                            .arg(label == panes->note(pane) ? QStringLiteral("note") : QStringLiteral("narration"), why,
                                 quoted(label->text())));
            }
        if (const QLabel *note = panes->sharedNote(); !note->isHidden())
            if (const QString why = clipping(note); !why.isEmpty())
                say(QStringLiteral("the note %1: %2").arg(why, quoted(note->text())));
        if (const QLabel *narration = panes->sharedNarration(); !narration->isHidden())
            if (const QString why = clipping(narration); !why.isEmpty())
                say(QStringLiteral("the narration %1: %2").arg(why, quoted(narration->text())));
        if (const QLabel *said = panes->announcementLabel(); !said->isHidden())
            if (const QString why = clipping(said); !why.isEmpty())
                say(QStringLiteral("the announcement %1: %2").arg(why, quoted(said->text())));
        return out;
    }

    // ---- the texts -----------------------------------------------------------------------------
    if (!algorithm || !algorithm->isVisible()) {
        say(QStringLiteral("the narration is not shown (the Algorithm pane is hidden)"));
        return out;
    }
    const QString narration_name =
        last_step ? QStringLiteral("narration with the end summary") : QStringLiteral("narration");
    struct Text {
        const QLabel *label;
        QString name;
    };
    for (const Text &t :
         {Text{algorithm->narrationLabel(), narration_name}, Text{algorithm->noteLabel(), QStringLiteral("note")},
          Text{algorithm->findingLabel(), QStringLiteral("finding banner")}}) {
        if (!t.label || t.label->isHidden() || t.label->text().trimmed().isEmpty())
            continue;
        if (t.name == QLatin1String("note") && algorithm->noteText().isEmpty())
            continue;
        const QString why = clipping(t.label);
        if (!why.isEmpty())
            say(QStringLiteral("%1 %2: %3").arg(t.name, why, quoted(t.label->text())));
    }
    if (algorithm->noteIsCurrent() && algorithm->noteLabel()->isVisible() && algorithm->narrationLabel()->isVisible()) {
        const QString note = algorithm->noteText().simplified();
        if (!note.isEmpty() && algorithm->narrationText().simplified().contains(note))
            say(QStringLiteral("the note is shown twice (note box and narration): %1").arg(quoted(note)));
    }
    const docks::AlgorithmView *code = algorithm->listingView();
    const QRect code_seen = seenRect(code);
    const int line_height = QFontMetrics(code->font()).lineSpacing();
    if (code_seen.height() < kCodeLines * line_height)
        say(QStringLiteral("the code pane shows %1 lines, under %2")
                .arg(line_height > 0 ? code_seen.height() / line_height : 0)
                .arg(kCodeLines));
    const int row = code->currentRow();
    if (row >= 0 && code->listing() && row < static_cast<int>(code->listing()->size())) {
        const QRect r = code->rowRect(row);
        if (!code_seen.contains(r.adjusted(0, 0, -1, -1)))
            say(QStringLiteral("code line %1 clipped (%2 px, %3 visible): %4")
                    .arg(row + 1)
                    .arg(rectText(r), rectText(code_seen.intersected(r)),
                         quoted(QString::fromStdString(std::string((*code->listing())[row].text)))));
    }
    return out;
}

int runCommand(MainWindow &window, PlayerController &controller, const QString &label, QSize screen, BeatRange beats)
{
    LessonCheck check(window, controller);
    const QStringList problems = check.run(label, screen, beats);
    if (!check.failure().isEmpty()) {
        std::fprintf(stderr, "inflight: error: %s\n", qPrintable(check.failure()));
        return 2;
    }
    for (const QString &p : problems)
        std::printf("%s\n", qPrintable(p));
    std::fflush(stdout);
    std::fprintf(stderr, "%s: %d beats at %dx%d, %lld problem(s)\n", qPrintable(label), check.beatsChecked(),
                 screen.width(), screen.height(), static_cast<long long>(problems.size()));
    return problems.isEmpty() ? 0 : 1;
}

} // namespace lesson_check
