// SPDX-License-Identifier: GPL-3.0-or-later
#include "scene_text_view.h"

#include "../theme.h"

#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QTextBlock>

namespace docks {

class SceneGutter : public QWidget {
public:
    explicit SceneGutter(SceneTextView *view) : QWidget(view), view_(view)
    {
        setCursor(Qt::PointingHandCursor);
        setToolTip(tr("Click next to a statement to set or clear a breakpoint: Continue stops before it runs."));
    }
    QSize sizeHint() const override { return {view_->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent *e) override { view_->paintGutter(e); }
    void mousePressEvent(QMouseEvent *e) override
    {
        if (e->button() != Qt::LeftButton)
            return;
        const int line = view_->lineAt(e->position().toPoint().y());
        if (line > 0)
            emit view_->gutterClicked(line);
    }

private:
    SceneTextView *view_;
};

SceneTextView::SceneTextView(QWidget *parent) : QPlainTextEdit(parent), gutter_(new SceneGutter(this))
{
    setReadOnly(true);
    // Selectable for copying, but no caret: nothing blinks on the projector.
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setUndoRedoEnabled(false);
    // Notes are prose: wrapped lines keep their line number once, in the gutter.
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    connect(this, &QPlainTextEdit::blockCountChanged, this, &SceneTextView::updateGutterWidth);
    connect(this, &QPlainTextEdit::updateRequest, this, &SceneTextView::updateGutter);
    updateGutterWidth();
}

void SceneTextView::setSceneText(const QStringList &lines)
{
    setPlainText(lines.join(QLatin1Char('\n')));
    current_ = 0;
    highlight();
}

int SceneTextView::gutterWidth() const
{
    const int digits = QString::number(std::max(1, blockCount())).size();
    const QFontMetrics fm(font());
    // dot, digits, current-line marker
    return 6 + fm.height() * 2 / 3 + 4 + fm.horizontalAdvance(QLatin1Char('9')) * std::max(2, digits) +
           fm.horizontalAdvance(QStringLiteral("▶")) + 8;
}

void SceneTextView::updateGutterWidth()
{
    setViewportMargins(gutterWidth(), 0, 0, 0);
    // Never so narrow that statements wrap a few letters a line.
    setMinimumWidth(gutterWidth() + fontMetrics().horizontalAdvance(QLatin1Char('m')) * 10 +
                    verticalScrollBar()->sizeHint().width() + 2 * frameWidth());
}

void SceneTextView::updateGutter(const QRect &rect, int dy)
{
    if (dy)
        gutter_->scroll(0, dy);
    else
        gutter_->update(0, rect.y(), gutter_->width(), rect.height());
}

void SceneTextView::resizeEvent(QResizeEvent *e)
{
    QPlainTextEdit::resizeEvent(e);
    const QRect cr = contentsRect();
    gutter_->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
}

void SceneTextView::changeEvent(QEvent *e)
{
    QPlainTextEdit::changeEvent(e);
    if (e->type() == QEvent::FontChange) {
        updateGutterWidth();
        const QRect cr = contentsRect();
        gutter_->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
        highlight();
    }
}

QRect SceneTextView::lineRect(int line) const
{
    const QTextBlock b = document()->findBlockByNumber(line - 1);
    if (!b.isValid())
        return {};
    return blockBoundingGeometry(b).translated(contentOffset()).toRect();
}

int SceneTextView::lineAt(int y) const
{
    for (QTextBlock b = firstVisibleBlock(); b.isValid(); b = b.next()) {
        const QRectF r = blockBoundingGeometry(b).translated(contentOffset());
        if (r.top() > y)
            break;
        if (y < r.bottom())
            return b.blockNumber() + 1;
    }
    return 0;
}

void SceneTextView::setCurrentLine(int line)
{
    if (line == current_)
        return;
    current_ = line;
    highlight();
    // Keep the line in view without moving the text cursor (the user's selection stays). The
    // vertical scroll bar counts laid-out lines, so wrapped blocks count for several.
    const QTextBlock b = document()->findBlockByNumber(line - 1);
    if (b.isValid() && b.isVisible()) {
        const QRect r = lineRect(line);
        const int margin = fontMetrics().lineSpacing();
        if (r.top() < 0 || r.bottom() > viewport()->height() - margin) {
            const int visible = std::max(1, viewport()->height() / std::max(1, fontMetrics().lineSpacing()));
            verticalScrollBar()->setValue(std::max(0, b.firstLineNumber() - visible / 3));
        }
    }
    gutter_->update();
}

void SceneTextView::setBreakpoints(const QSet<int> &lines)
{
    breakpoints_ = lines;
    gutter_->update();
}

void SceneTextView::restyle()
{
    highlight();
    gutter_->update();
}

void SceneTextView::highlight()
{
    QList<QTextEdit::ExtraSelection> sel;
    if (current_ > 0) {
        const QTextBlock b = document()->findBlockByNumber(current_ - 1);
        if (b.isValid()) {
            QTextEdit::ExtraSelection s;
            s.format.setBackground(Theme::instance().highlightLineColor());
            s.format.setProperty(QTextFormat::FullWidthSelection, true);
            s.cursor = QTextCursor(b);
            sel << s;
        }
    }
    setExtraSelections(sel);
}

void SceneTextView::paintGutter(QPaintEvent *e)
{
    const Theme &theme = Theme::instance();
    QPainter p(gutter_);
    p.fillRect(e->rect(), theme.highContrast() ? QColor(0xe8, 0xe8, 0xe8) : QColor(0xee, 0xee, 0xea));
    p.setFont(font());
    const QFontMetrics fm(font());
    const int dot = std::max(6, fm.height() * 2 / 3);
    const int marker_w = fm.horizontalAdvance(QStringLiteral("▶"));
    for (QTextBlock b = firstVisibleBlock(); b.isValid(); b = b.next()) {
        const QRectF r = blockBoundingGeometry(b).translated(contentOffset());
        if (r.top() > e->rect().bottom())
            break;
        if (!b.isVisible() || r.bottom() < e->rect().top())
            continue;
        const int line = b.blockNumber() + 1;
        const int top = static_cast<int>(r.top()), block_h = static_cast<int>(r.height());
        // Marks go on the block's first laid-out line: a wrapped note keeps its number at the top.
        const int h =
            b.layout() && b.layout()->lineCount() ? static_cast<int>(b.layout()->lineAt(0).height()) : block_h;
        if (line == current_)
            p.fillRect(QRect(0, top, gutter_->width(), block_h), theme.highlightLineColor());
        if (breakpoints_.contains(line)) {
            p.setRenderHint(QPainter::Antialiasing);
            p.setPen(QPen(QColor(0x90, 0x00, 0x00), 1));
            p.setBrush(QColor(0xe0, 0x10, 0x10));
            p.drawEllipse(QRect(4, top + (h - dot) / 2, dot, dot));
            p.setRenderHint(QPainter::Antialiasing, false);
        }
        const bool statement = statement_lines_.contains(line);
        p.setPen(line == current_ ? theme.foreground()
                                  : (statement ? QColor(0x60, 0x60, 0x68) : QColor(0xa0, 0xa0, 0xa8)));
        const int number_right = gutter_->width() - marker_w - 6;
        p.drawText(QRect(0, top, number_right, h), Qt::AlignRight | Qt::AlignVCenter, QString::number(line));
        if (line == current_)
            p.drawText(QRect(number_right + 2, top, marker_w + 4, h), Qt::AlignLeft | Qt::AlignVCenter,
                       QStringLiteral("▶"));
    }
}

} // namespace docks
