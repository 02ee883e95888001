// SPDX-License-Identifier: GPL-3.0-or-later
// The scene's text, read-only, with a line-number gutter: the statement being executed is
// highlighted (and marked ▶ in the gutter), breakpoints are red dots, and a click in the
// gutter toggles the breakpoint of that line's statement. Nothing can be typed: the editor
// comes with its own issue, so no keystroke can be lost here.
#pragma once

#include <QPlainTextEdit>
#include <QSet>

namespace docks {

class SceneTextView : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit SceneTextView(QWidget *parent = nullptr);

    void setSceneText(const QStringList &lines);
    // 1-based; 0 = none.
    void setCurrentLine(int line);
    int currentLine() const { return current_; }
    void setBreakpoints(const QSet<int> &lines);
    const QSet<int> &breakpoints() const { return breakpoints_; }
    // Lines where a statement starts: only those take a breakpoint.
    void setStatementLines(const QSet<int> &lines) { statement_lines_ = lines; }
    QWidget *gutter() const { return gutter_; }
    // The line's rectangle in viewport (and gutter) coordinates; empty when not laid out.
    QRect lineRect(int line) const;
    int lineAt(int y) const; // 0 when none
    int gutterWidth() const;
    // Theme colours changed: paint the highlight and the gutter again.
    void restyle();

signals:
    void gutterClicked(int line);

protected:
    void resizeEvent(QResizeEvent *e) override;
    void changeEvent(QEvent *e) override;

private:
    friend class SceneGutter;
    void paintGutter(QPaintEvent *e);
    void updateGutterWidth();
    void updateGutter(const QRect &rect, int dy);
    void highlight();

    QWidget *gutter_;
    int current_ = 0;
    QSet<int> breakpoints_;
    QSet<int> statement_lines_;
};

} // namespace docks
