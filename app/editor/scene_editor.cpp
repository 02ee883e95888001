// SPDX-License-Identifier: GPL-3.0-or-later
#include "scene_editor.h"

#include "scene_lexer.h"

#include "../theme.h"

#include <Qsci/qscistyledtext.h>

#include "inflight/language_service.hpp"

#include <QKeyEvent>
#include <QPainter>
#include <QPixmap>
#include <QSet>

namespace editor {
namespace {

// A margin symbol drawn as text (✓, ✗, the arrows), in a colour: Scintilla's character markers
// take bytes, not every code point.
QPixmap glyph(const QString &text, const QColor &colour, int size, bool bold = true)
{
    QPixmap pm(size, size);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    QFont f;
    f.setPixelSize(size - 2);
    f.setBold(bold);
    p.setFont(f);
    p.setPen(colour);
    p.drawText(pm.rect(), Qt::AlignCenter, text);
    return pm;
}

QPixmap arrow(const QColor &fill, const QColor &outline, int size)
{
    QPixmap pm(size, size);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    const double h = size, w = size;
    const QPolygonF shape{QPointF(w * 0.1, h * 0.3),  QPointF(w * 0.5, h * 0.3), QPointF(w * 0.5, h * 0.1),
                          QPointF(w * 0.95, h * 0.5), QPointF(w * 0.5, h * 0.9), QPointF(w * 0.5, h * 0.7),
                          QPointF(w * 0.1, h * 0.7)};
    p.setPen(QPen(outline, 1.2));
    p.setBrush(fill);
    p.drawPolygon(shape);
    return pm;
}

} // namespace

SceneEditor::SceneEditor(QWidget *parent) : QsciScintilla(parent)
{
    setUtf8(true);
    lexer_ = new SceneLexer(this);
    setLexer(lexer_);
    setMarginType(LineNumbers, NumberMargin);
    setMarginLineNumbers(LineNumbers, true);
    setMarginSensitivity(LineNumbers, true);
    setMarginType(Symbols, SymbolMargin);
    setMarginSensitivity(Symbols, true);
    setMarginMarkerMask(Symbols, (1 << Breakpoint) | (1 << ConditionalBreakpoint) | (1 << Current) | (1 << Next) |
                                     (1 << ExpectPassed) | (1 << ExpectFailed) | (1 << ErrorLine));
    setMarginMarkerMask(LineNumbers, 0);
    setFolding(BoxedTreeFoldStyle, Folds);
    setAnnotationDisplay(AnnotationBoxed);
    setAutoIndent(true);
    setIndentationsUseTabs(false);
    setIndentationWidth(2);
    setTabWidth(2);
    setBraceMatching(SloppyBraceMatch);
    setCaretLineVisible(true);
    setWrapMode(WrapNone);
    setEolVisibility(false);
    setAutoCompletionSource(AcsNone); // completions come from the engine (showCompletions)
    indicatorDefine(SquiggleIndicator, ErrorIndicator);
    indicatorDefine(SquiggleIndicator, WarningIndicator);
    SendScintilla(SCI_SETMOUSEDWELLTIME, 500);
    connect(this, &QsciScintilla::marginClicked, this,
            [this](int, int line, Qt::KeyboardModifiers m) { emit marginLineClicked(line + 1, m); });
    connect(this, &QsciScintilla::marginRightClicked, this,
            [this](int, int line, Qt::KeyboardModifiers) { emit marginLineMenuRequested(line + 1, QCursor::pos()); });
    connect(this, &QsciScintillaBase::SCN_DWELLSTART, this, &SceneEditor::dwellStart);
    connect(this, &QsciScintillaBase::SCN_DWELLEND, this, [this](int, int, int) { SendScintilla(SCI_CALLTIPCANCEL); });
    connect(this, &QsciScintilla::userListActivated, this, &SceneEditor::completionChosen);
    connect(this, &QsciScintilla::linesChanged, this, &SceneEditor::fitLineNumbers);
    restyle(Theme::instance().monoFont(10));
}

void SceneEditor::restyle(const QFont &font)
{
    const Theme &t = Theme::instance();
    QWidget::setFont(font); // QsciScintilla::setFont only sets a style's
    setFont(font);
    lexer_->applyTheme(font);
    const QFontMetrics fm(font);
    setMarginsFont(font);
    fitLineNumbers();
    const int symbol = std::max(12, fm.height() - 2);
    setMarginWidth(Symbols, symbol + 2);
    setMarginsBackgroundColor(t.background().lightness() < 128 ? t.background().lighter(130)
                                                               : t.background().darker(106));
    setMarginsForegroundColor(t.foreground());
    setFoldMarginColors(t.background(), t.background());
    setCaretForegroundColor(t.foreground());
    setCaretLineBackgroundColor(t.background().lightness() < 128 ? t.background().lighter(120)
                                                                 : t.background().darker(104));
    setPaper(t.background());
    setColor(t.foreground());
    markerDefine(Circle, Breakpoint);
    setMarkerBackgroundColor(QColor(0xd3, 0x2f, 0x2f), Breakpoint);
    setMarkerForegroundColor(QColor(0x8b, 0x1a, 0x1a), Breakpoint);
    markerDefine(glyph(QStringLiteral("\u25c6"), QColor(0xd3, 0x2f, 0x2f), symbol), ConditionalBreakpoint);
    markerDefine(arrow(QColor(0xf9, 0xa8, 0x25), QColor(0x8a, 0x5a, 0x00), symbol), Current);
    markerDefine(arrow(Qt::transparent, QColor(0x1a, 0x4f, 0xa0), symbol), Next);
    markerDefine(glyph(QStringLiteral("\u2713"), QColor(0x2e, 0x7d, 0x32), symbol), ExpectPassed);
    markerDefine(glyph(QStringLiteral("\u2717"), QColor(0xc6, 0x28, 0x28), symbol), ExpectFailed);
    markerDefine(Background, ErrorLine);
    setMarkerBackgroundColor(t.background().lightness() < 128 ? QColor(0x3a, 0x22, 0x26) : QColor(0xfd, 0xf1, 0xf2),
                             ErrorLine);
    // The statement being executed, highlighted across the line as in the algorithm listing.
    markerDefine(Background, CurrentLine);
    setMarkerBackgroundColor(t.highlightLineColor(), CurrentLine);
    setIndicatorForegroundColor(QColor(0xd3, 0x2f, 0x2f), ErrorIndicator);
    setIndicatorForegroundColor(QColor(0xe0, 0x9b, 0x00), WarningIndicator);
    // The current line's highlight, as the old read-only view had it.
    SendScintilla(SCI_MARKERSETALPHA, Current, 60);
    recolor();
}

void SceneEditor::fitLineNumbers()
{
    // As many digits as the last line number has (at least two), and a little room.
    const int digits = std::max(2, static_cast<int>(QString::number(std::max(1, lines())).size()));
    setMarginWidth(LineNumbers, QFontMetrics(font()).horizontalAdvance(QString(digits, QLatin1Char('0'))) + 6);
}

QByteArray SceneEditor::bytes() const
{
    const long n = SendScintilla(SCI_GETLENGTH);
    QByteArray out(static_cast<int>(n) + 1, '\0');
    SendScintilla(SCI_GETTEXT, n + 1, out.data());
    out.resize(static_cast<int>(n));
    return out;
}

void SceneEditor::setBytes(const QByteArray &text)
{
    replaceBytes(text);
    SendScintilla(SCI_EMPTYUNDOBUFFER);
}

void SceneEditor::replaceBytes(const QByteArray &text)
{
    // SCI_SETTEXT takes a C string and would stop at a NUL: the length is given instead.
    SendScintilla(SCI_BEGINUNDOACTION);
    SendScintilla(SCI_CLEARALL);
    SendScintilla(SCI_ADDTEXT, static_cast<unsigned long>(text.size()), text.constData());
    SendScintilla(SCI_ENDUNDOACTION);
}

int SceneEditor::positionOf(int line, int col) const
{
    const long start = SendScintilla(SCI_POSITIONFROMLINE, line - 1);
    const long end = SendScintilla(SCI_GETLINEENDPOSITION, line - 1);
    return static_cast<int>(std::min<long>(start + std::max(0, col - 1), end));
}

int SceneEditor::cursorLine() const
{
    return static_cast<int>(SendScintilla(SCI_LINEFROMPOSITION, SendScintilla(SCI_GETCURRENTPOS))) + 1;
}

void SceneEditor::goToLine(int line, int col)
{
    const int pos = positionOf(line, col);
    SendScintilla(SCI_GOTOPOS, pos);
    SendScintilla(SCI_SCROLLCARET);
    setFocus();
}

void SceneEditor::setBreakpoints(const QSet<int> &lines, const QSet<int> &conditional)
{
    markerDeleteAll(Breakpoint);
    markerDeleteAll(ConditionalBreakpoint);
    for (int l : lines)
        markerAdd(l - 1, conditional.contains(l) ? ConditionalBreakpoint : Breakpoint);
}

QSet<int> SceneEditor::breakpointLines() const
{
    QSet<int> out;
    for (int l = 0; l < lines(); ++l)
        if (hasMarker(l + 1, Breakpoint) || hasMarker(l + 1, ConditionalBreakpoint))
            out.insert(l + 1);
    return out;
}

bool SceneEditor::hasMarker(int line, Marker m) const { return line >= 1 && (markersAtLine(line - 1) & (1u << m)); }

void SceneEditor::updateMarker(int &line, int value, Marker m)
{
    if (line == value)
        return;
    if (line > 0)
        markerDelete(line - 1, m);
    line = value;
    if (line > 0)
        markerAdd(line - 1, m);
}

void SceneEditor::setCurrentLine(int line)
{
    if (current_ > 0)
        markerDelete(current_ - 1, CurrentLine);
    if (line > 0)
        markerAdd(line - 1, CurrentLine);
    updateMarker(current_, line, Current);
    if (line > 0) {
        // Keep the statement in view without moving the caret: the user may be typing.
        const int first = static_cast<int>(SendScintilla(SCI_GETFIRSTVISIBLELINE));
        const int shown = static_cast<int>(SendScintilla(SCI_LINESONSCREEN));
        if (line - 1 < first || line - 1 >= first + shown)
            SendScintilla(SCI_SETFIRSTVISIBLELINE, std::max(0, line - 1 - shown / 3));
    }
}

void SceneEditor::setNextLine(int line) { updateMarker(next_, line, Next); }

void SceneEditor::setExpectations(const QList<QPair<int, bool>> &outcomes)
{
    markerDeleteAll(ExpectPassed);
    markerDeleteAll(ExpectFailed);
    for (const auto &[line, passed] : outcomes)
        markerAdd(line - 1, passed ? ExpectPassed : ExpectFailed);
}

void SceneEditor::setDiagnostics(const std::vector<inflight::Diagnostic> &diagnostics)
{
    // A clean buffer checked clean again (every pause while typing clean text): nothing on
    // screen changes, and clearing the whole document's marks would repaint it all.
    if (diagnostics.empty() && diagnostics_.empty())
        return;
    diagnostics_ = diagnostics;
    const long length = SendScintilla(SCI_GETLENGTH);
    for (int ind : {ErrorIndicator, WarningIndicator}) {
        SendScintilla(SCI_SETINDICATORCURRENT, ind);
        SendScintilla(SCI_INDICATORCLEARRANGE, 0, length);
    }
    clearAnnotations();
    markerDeleteAll(ErrorLine);
    QMap<int, QList<const inflight::Diagnostic *>> by_line;
    for (const inflight::Diagnostic &d : diagnostics_) {
        if (d.loc.line == 0 || static_cast<int>(d.loc.line) > lines())
            continue;
        by_line[static_cast<int>(d.loc.line)].append(&d);
        if (d.severity == inflight::Diagnostic::Severity::note)
            continue;
        const int line = static_cast<int>(d.loc.line);
        const int start = positionOf(line, static_cast<int>(std::max<std::uint32_t>(d.loc.col, 1)));
        const long line_end = SendScintilla(SCI_GETLINEENDPOSITION, line - 1);
        int end = positionOf(line, static_cast<int>(d.end_col));
        if (end <= start) // past the end of the line (a missing '{'): mark its last character
            end = start < line_end ? start + 1 : start;
        int from = start;
        if (end == start && start > static_cast<int>(SendScintilla(SCI_POSITIONFROMLINE, line - 1)))
            from = start - 1;
        SendScintilla(SCI_SETINDICATORCURRENT,
                      d.severity == inflight::Diagnostic::Severity::error ? ErrorIndicator : WarningIndicator);
        SendScintilla(SCI_INDICATORFILLRANGE, from, std::max(1, end - from));
        if (d.severity == inflight::Diagnostic::Severity::error)
            markerAdd(line - 1, ErrorLine);
    }
    for (auto it = by_line.begin(); it != by_line.end(); ++it) {
        QList<QsciStyledText> parts;
        for (const inflight::Diagnostic *d : it.value()) {
            const int style = d->severity == inflight::Diagnostic::Severity::error     ? SceneLexer::AnnotationError
                              : d->severity == inflight::Diagnostic::Severity::warning ? SceneLexer::AnnotationWarning
                                                                                       : SceneLexer::AnnotationNote;
            const QString text =
                QStringLiteral("%1%2: %3")
                    .arg(parts.isEmpty() ? QString() : QStringLiteral("\n"),
                         QString::fromLatin1(inflight::severity_word(d->severity)), QString::fromStdString(d->message));
            parts.append(QsciStyledText(text, style));
        }
        annotate(it.key() - 1, parts);
    }
}

QList<std::tuple<int, int, int>> SceneEditor::indicatorRanges(Indicator indicator) const
{
    QList<std::tuple<int, int, int>> out;
    const long length = SendScintilla(SCI_GETLENGTH);
    long pos = 0;
    while (pos < length) {
        if (SendScintilla(SCI_INDICATORVALUEAT, indicator, pos)) {
            const long end = SendScintilla(SCI_INDICATOREND, indicator, pos);
            const int line = static_cast<int>(SendScintilla(SCI_LINEFROMPOSITION, pos));
            const long line_start = SendScintilla(SCI_POSITIONFROMLINE, line);
            out.append({line + 1, static_cast<int>(pos - line_start) + 1, static_cast<int>(end - line_start) + 1});
            pos = end;
        } else {
            const long next = SendScintilla(SCI_INDICATOREND, indicator, pos);
            if (next <= pos)
                break;
            pos = next;
        }
    }
    return out;
}

void SceneEditor::applyFix(const inflight::FixIt &fix)
{
    const int start = positionOf(static_cast<int>(fix.line), static_cast<int>(fix.col));
    const int end = positionOf(static_cast<int>(fix.line), static_cast<int>(fix.end_col));
    const QByteArray replacement = QByteArray::fromStdString(fix.replacement);
    SendScintilla(SCI_BEGINUNDOACTION);
    SendScintilla(SCI_SETTARGETRANGE, start, end);
    SendScintilla(SCI_REPLACETARGET, replacement.size(), replacement.constData());
    SendScintilla(SCI_ENDUNDOACTION);
    SendScintilla(SCI_GOTOPOS, static_cast<unsigned long>(start + replacement.size()));
}

int SceneEditor::showCompletions(bool automatic)
{
    const long pos = SendScintilla(SCI_GETCURRENTPOS);
    const int line = static_cast<int>(SendScintilla(SCI_LINEFROMPOSITION, pos));
    const long line_start = SendScintilla(SCI_POSITIONFROMLINE, line);
    const QByteArray text = bytes();
    std::uint32_t word_start = 0;
    const auto items = inflight::complete_at(std::string_view(text.constData(), static_cast<std::size_t>(text.size())),
                                             static_cast<std::uint32_t>(line + 1),
                                             static_cast<std::uint32_t>(pos - line_start + 1), &word_start);
    const int start = static_cast<int>(line_start + word_start - 1);
    const QByteArray typed = text.mid(start, static_cast<int>(pos) - start);
    QStringList found;
    for (const inflight::CompletionItem &c : items) {
        const QString label = QString::fromStdString(c.label);
        if (label.startsWith(QString::fromUtf8(typed)) && !found.contains(label))
            found << label;
    }
    if (automatic) {
        // While typing, the list comes when it has something to say: a statement's first
        // letter, two letters of any other word, or the value after an option's '='. A word
        // already typed in full (its only candidate) shows nothing.
        const bool statement_position = text.mid(line_start, start - line_start).trimmed().isEmpty();
        const bool after_equals = typed.isEmpty() && start > line_start && text.at(start - 1) == '=';
        const bool enough =
            typed.size() >= kAutoCompleteChars || (statement_position && !typed.isEmpty()) || after_equals;
        if (!enough || found.isEmpty() || (found.size() == 1 && found.front().toUtf8() == typed))
            return 0;
    }
    completion_start_ = start;
    last_completions_ = found;
    if (!last_completions_.isEmpty()) {
        showUserList(1, last_completions_);
        automatic_list_ = automatic;
    }
    return static_cast<int>(last_completions_.size());
}

bool SceneEditor::typedWordIsACompletion() const
{
    const long pos = SendScintilla(SCI_GETCURRENTPOS);
    if (completion_start_ < 0 || completion_start_ > pos)
        return false;
    const QByteArray all = bytes();
    const QString typed = QString::fromUtf8(all.mid(completion_start_, static_cast<int>(pos) - completion_start_));
    return last_completions_.contains(typed);
}

void SceneEditor::completionChosen(int /*id*/, const QString &text)
{
    const long pos = SendScintilla(SCI_GETCURRENTPOS);
    if (completion_start_ < 0 || completion_start_ > pos)
        return;
    const QByteArray word = text.toUtf8();
    SendScintilla(SCI_SETTARGETRANGE, completion_start_, pos);
    SendScintilla(SCI_REPLACETARGET, word.size(), word.constData());
    SendScintilla(SCI_GOTOPOS, static_cast<unsigned long>(completion_start_ + word.size()));
}

void SceneEditor::dwellStart(int position, int /*x*/, int /*y*/)
{
    if (position < 0)
        return;
    const int line = static_cast<int>(SendScintilla(SCI_LINEFROMPOSITION, position));
    const long line_start = SendScintilla(SCI_POSITIONFROMLINE, line);
    const QByteArray text = bytes();
    // A diagnostic under the mouse first, then what the word is.
    for (const inflight::Diagnostic &d : diagnostics_) {
        if (static_cast<int>(d.loc.line) == line + 1 && position - line_start + 1 >= d.loc.col &&
            position - line_start + 1 < std::max(d.end_col, d.loc.col + 1)) {
            QByteArray tip =
                QByteArray(inflight::severity_word(d.severity)) + ": " + QByteArray::fromStdString(d.message);
            if (d.fix)
                tip +=
                    "\n(Problems list or Ctrl+.: replace with '" + QByteArray::fromStdString(d.fix->replacement) + "')";
            SendScintilla(SCI_CALLTIPSHOW, position, tip.constData());
            return;
        }
    }
    const auto hover =
        inflight::hover_at(std::string_view(text.constData(), static_cast<std::size_t>(text.size())),
                           static_cast<std::uint32_t>(line + 1), static_cast<std::uint32_t>(position - line_start + 1));
    if (hover)
        SendScintilla(SCI_CALLTIPSHOW, position, hover->text.c_str());
}

void SceneEditor::toggleComment()
{
    int from = 0, index_from = 0, to = 0, index_to = 0;
    getSelection(&from, &index_from, &to, &index_to);
    if (from < 0) {
        from = to = cursorLine() - 1;
    } else if (index_to == 0 && to > from) {
        --to;
    }
    bool all_commented = true;
    for (int l = from; l <= to; ++l)
        if (!text(l).trimmed().isEmpty() && !text(l).trimmed().startsWith(QLatin1Char('#')))
            all_commented = false;
    SendScintilla(SCI_BEGINUNDOACTION);
    for (int l = from; l <= to; ++l) {
        const QString t = text(l);
        const long start = SendScintilla(SCI_POSITIONFROMLINE, l);
        if (all_commented) {
            const int hash = static_cast<int>(t.indexOf(QLatin1Char('#')));
            if (hash < 0)
                continue;
            const int n = t.mid(hash + 1).startsWith(QLatin1Char(' ')) ? 2 : 1;
            const int at = positionOf(l + 1, static_cast<int>(t.left(hash).toUtf8().size()) + 1);
            SendScintilla(SCI_DELETERANGE, at, n);
        } else if (!t.trimmed().isEmpty()) {
            SendScintilla(SCI_INSERTTEXT, start, "# ");
        }
    }
    SendScintilla(SCI_ENDUNDOACTION);
}

bool SceneEditor::event(QEvent *e)
{
    // Typing and moving in the text are the editor's, not the player's shortcuts (Space steps,
    // Left goes back, N is the next note): a key the editor uses overrides them while it has
    // the focus. Function keys (F5, F10, F11) and Ctrl+letter commands stay the window's.
    if (e->type() == QEvent::ShortcutOverride) {
        auto *k = static_cast<QKeyEvent *>(e);
        const Qt::KeyboardModifiers m = k->modifiers() & ~Qt::KeypadModifier;
        const int key = k->key();
        const bool function_key = key >= Qt::Key_F1 && key <= Qt::Key_F35;
        static const QSet<int> ctrl_keys{Qt::Key_Left,   Qt::Key_Right, Qt::Key_Home,  Qt::Key_End,  Qt::Key_Backspace,
                                         Qt::Key_Delete, Qt::Key_Z,     Qt::Key_Y,     Qt::Key_A,    Qt::Key_C,
                                         Qt::Key_V,      Qt::Key_X,     Qt::Key_Space, Qt::Key_Slash};
        if (((m == Qt::NoModifier || m == Qt::ShiftModifier) && !function_key && key != Qt::Key_Escape) ||
            ((m == Qt::ControlModifier || m == (Qt::ControlModifier | Qt::ShiftModifier)) && ctrl_keys.contains(key))) {
            e->accept();
            return true;
        }
    }
    return QsciScintilla::event(e);
}

void SceneEditor::keyPressEvent(QKeyEvent *e)
{
    if (e->key() == Qt::Key_Space && (e->modifiers() & Qt::ControlModifier)) {
        showCompletions();
        return;
    }
    if (e->key() == Qt::Key_Slash && (e->modifiers() & Qt::ControlModifier)) {
        toggleComment();
        return;
    }
    // Enter after a word typed in full ends the line, as without the list; Tab, or Enter on a
    // word still being typed, takes the list's choice.
    const bool enter = e->key() == Qt::Key_Return || e->key() == Qt::Key_Enter;
    if (enter && isListActive() && automatic_list_ && typedWordIsACompletion())
        cancelList();
    if (e->key() == Qt::Key_Tab && isListActive()) {
        SendScintilla(SCI_AUTOCCOMPLETE);
        return;
    }
    QsciScintilla::keyPressEvent(e);
    // After an option's '=' the list is of values, not of the options it was.
    if (e->text() == QLatin1String("=") && isListActive() && automatic_list_)
        cancelList();
    if (!complete_while_typing_ || isListActive() || e->text().size() != 1 ||
        (e->modifiers() & (Qt::ControlModifier | Qt::AltModifier)))
        return;
    const QChar c = e->text().front();
    if (c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char('=') || c == QLatin1Char(':'))
        showCompletions(true);
}

} // namespace editor
