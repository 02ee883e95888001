// SPDX-License-Identifier: GPL-3.0-or-later
// The scene's text, editable: QScintilla with the engine's highlighting (SceneLexer), line
// numbers, a margin of breakpoints (click), the debugger's arrows (the statement that just ran,
// the one that runs next) and ✓/✗ beside each expect after a run, folding of repeat, spawn and
// variant blocks, every diagnostic underlined at its exact byte range with its message under
// the line, completion (Ctrl+Space) and a call tip for the word under the mouse, both from the
// engine's language service. Positions are 1-based lines and byte columns, as the engine's.
#pragma once

#include "inflight/diagnostic.hpp"

#include <Qsci/qsciscintilla.h>

#include <QList>
#include <QPair>
#include <QSet>

#include <vector>

namespace editor {

class SceneLexer;

class SceneEditor : public QsciScintilla {
    Q_OBJECT
public:
    explicit SceneEditor(QWidget *parent = nullptr);

    enum Margin { LineNumbers = 0, Symbols = 1, Folds = 2 };
    enum Marker {
        Breakpoint = 0,
        Current = 1,
        Next = 2,
        ExpectPassed = 3,
        ExpectFailed = 4,
        ErrorLine = 5,
        CurrentLine = 6,
        ConditionalBreakpoint = 7
    };
    enum Indicator { ErrorIndicator = 8, WarningIndicator = 9 };

    // The buffer as bytes (UTF-8, line endings as typed): what is checked and saved.
    QByteArray bytes() const;
    void setBytes(const QByteArray &text);
    // The whole buffer becomes `text`, every byte of it, as one edit that Undo takes back.
    void replaceBytes(const QByteArray &text);
    // Byte position of (line, col), both 1-based.
    int positionOf(int line, int col) const;
    // The cursor's line (1-based).
    int cursorLine() const;
    void goToLine(int line, int col = 1);

    // `conditional`: those of `lines` whose breakpoint has a condition (drawn apart).
    void setBreakpoints(const QSet<int> &lines, const QSet<int> &conditional = {});
    QSet<int> breakpointLines() const;
    void setCurrentLine(int line); // 0: none
    int currentLine() const { return current_; }
    void setNextLine(int line);
    int nextLine() const { return next_; }
    // (line, passed) of every expect after a run; empty before one.
    void setExpectations(const QList<QPair<int, bool>> &outcomes);
    bool hasMarker(int line, Marker m) const;

    void setDiagnostics(const std::vector<inflight::Diagnostic> &diagnostics);
    const std::vector<inflight::Diagnostic> &diagnostics() const { return diagnostics_; }
    // The byte ranges underlined by `indicator`, as (line, col, end_col).
    QList<std::tuple<int, int, int>> indicatorRanges(Indicator indicator) const;
    // Replaces the fix-it's range with its text (one undo step).
    void applyFix(const inflight::FixIt &fix);
    // Shows the engine's completions for the word at the cursor; returns how many. Automatic
    // (while typing): only after a statement's first letter, kAutoCompleteChars of another
    // word or an option's '=', and not for a word already typed in full.
    int showCompletions(bool automatic = false);
    static constexpr int kAutoCompleteChars = 2;
    void setCompleteWhileTyping(bool on) { complete_while_typing_ = on; }
    bool completesWhileTyping() const { return complete_while_typing_; }
    QStringList lastCompletions() const { return last_completions_; }
    // Toggles '# ' at the start of the selected lines (or the cursor's).
    void toggleComment();
    // Theme colours and the code font changed.
    void restyle(const QFont &font);
    SceneLexer *sceneLexer() const { return lexer_; }

signals:
    // A click in the symbol or line-number margin.
    void marginLineClicked(int line, Qt::KeyboardModifiers modifiers);
    // A right click there: the line's breakpoint menu, at `global`.
    void marginLineMenuRequested(int line, const QPoint &global);

protected:
    bool event(QEvent *e) override;
    void keyPressEvent(QKeyEvent *e) override;

private:
    void updateMarker(int &line, int value, Marker m);
    void fitLineNumbers();
    void dwellStart(int position, int x, int y);
    void completionChosen(int id, const QString &text);
    bool typedWordIsACompletion() const;

    SceneLexer *lexer_ = nullptr;
    int current_ = 0, next_ = 0;
    std::vector<inflight::Diagnostic> diagnostics_;
    QStringList last_completions_;
    int completion_start_ = -1;   // byte position where the completed word starts
    bool automatic_list_ = false; // the list on screen came while typing (not Ctrl+Space)
    bool complete_while_typing_ = true;
};

} // namespace editor
