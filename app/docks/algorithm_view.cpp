// SPDX-License-Identifier: GPL-3.0-or-later
#include "algorithm_view.h"

#include "dock_common.h"

#include "../theme.h"

#include <QEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QTextLayout>

#include <cmath>
#include <memory>

namespace docks {

namespace {
constexpr int kPad = 4; // vertical padding of a row

QTextLayout *make_layout(const QString &text, int comment, const QFont &font, int width, const QColor &muted)
{
    auto *l = new QTextLayout(text, font);
    QTextOption o;
    o.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    l->setTextOption(o);
    if (comment >= 0) {
        QTextLayout::FormatRange r;
        r.start = comment;
        r.length = static_cast<int>(text.size()) - comment;
        r.format.setForeground(muted);
        r.format.setFontItalic(true);
        l->setFormats({r});
    }
    // Wrapped continuation lines hang two characters in, so they do not read as new lines.
    const int hang = QFontMetrics(font).horizontalAdvance(QStringLiteral("  "));
    l->beginLayout();
    qreal y = 0;
    for (bool first = true;; first = false) {
        QTextLine line = l->createLine();
        if (!line.isValid())
            break;
        line.setLineWidth(std::max(20, first ? width : width - hang));
        line.setPosition(QPointF(first ? 0 : hang, y));
        y += line.height();
    }
    l->endLayout();
    return l;
}
} // namespace

std::pair<QString, int> listingText(std::string_view line)
{
    const QString t = withNameBreaks(QString::fromUtf8(line.data(), static_cast<qsizetype>(line.size())));
    return {t, static_cast<int>(t.indexOf(QStringLiteral("  #")))};
}

QString withNameBreaks(const QString &raw)
{
    QString t;
    t.reserve(raw.size() + raw.size() / 4);
    for (qsizetype i = 0; i < raw.size(); ++i) {
        t += raw[i];
        // Between two parts of a name: `unix_graph`, not the leading `__` of `__unix_gc`.
        if (raw[i] == u'_' && i > 0 && raw[i - 1].isLetterOrNumber() && i + 1 < raw.size() &&
            raw[i + 1].isLetterOrNumber())
            t += QChar(0x200B);
    }
    return t;
}

AlgorithmView::AlgorithmView(QWidget *parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    QSizePolicy p(QSizePolicy::Preferred, QSizePolicy::Preferred);
    p.setHeightForWidth(true);
    setSizePolicy(p);
}

void AlgorithmView::setListing(const std::vector<inflight::ListingLine> *listing)
{
    if (listing == listing_)
        return;
    listing_ = listing;
    current_ = -1;
    laid_width_ = measured_width_ = -1;
    updateGeometry();
    update();
}

void AlgorithmView::setCurrent(int row, bool dimmed)
{
    if (row == current_ && dimmed == dimmed_)
        return;
    current_ = row;
    dimmed_ = dimmed;
    update();
    if (row >= 0)
        emit currentRectChanged(rowRect(row));
}

int AlgorithmView::gutter() const { return QFontMetrics(font()).horizontalAdvance(QStringLiteral("▶ ")) + 6; }
int AlgorithmView::indentStep() const { return QFontMetrics(font()).horizontalAdvance(QStringLiteral("  ")); }

QColor AlgorithmView::mutedColor() const { return Theme::instance().mutedText(); }

void AlgorithmView::restyle()
{
    laid_width_ = measured_width_ = -1;
    update();
}

const std::vector<AlgorithmView::Laid> &AlgorithmView::layoutRows(int width) const
{
    const bool own = width == this->width();
    if (own && width == laid_width_)
        return laid_;
    if (!own && width == measured_width_)
        return measured_;
    std::vector<Laid> out;
    int y = 2;
    if (listing_) {
        QFont bold = font();
        bold.setBold(true);
        const QColor muted = mutedColor();
        for (const auto &line : *listing_) {
            const int x = gutter() + line.indent * indentStep();
            auto [text, comment] = listingText(line.text);
            // Rows are measured bold: the current line is drawn bold and must not need more room.
            std::shared_ptr<QTextLayout> b(make_layout(text, comment, bold, width - x - 6, muted));
            std::shared_ptr<QTextLayout> r;
            if (own)
                r.reset(make_layout(text, comment, font(), width - x - 6, muted));
            const int h = static_cast<int>(std::ceil(b->boundingRect().height())) + 2 * kPad;
            out.push_back({y, h, x, r, own ? b : nullptr});
            y += h;
        }
    }
    if (own) {
        laid_ = std::move(out);
        laid_width_ = width;
        return laid_;
    }
    measured_ = std::move(out);
    measured_width_ = width;
    return measured_;
}

QRect AlgorithmView::rowRect(int row) const
{
    const auto &rows = layoutRows(width());
    if (row < 0 || row >= static_cast<int>(rows.size()))
        return {};
    return QRect(0, rows[static_cast<std::size_t>(row)].top, width(), rows[static_cast<std::size_t>(row)].height);
}

int AlgorithmView::heightForWidth(int w) const
{
    const auto &rows = layoutRows(w);
    return rows.empty() ? 40 : rows.back().top + rows.back().height + 4;
}

QSize AlgorithmView::sizeHint() const
{
    const int w = QFontMetrics(font()).averageCharWidth() * 60;
    return {w, heightForWidth(w)};
}

QSize AlgorithmView::minimumSizeHint() const { return {QFontMetrics(font()).averageCharWidth() * 20, 40}; }

void AlgorithmView::resizeEvent(QResizeEvent * /*event*/)
{
    if (current_ >= 0)
        emit currentRectChanged(rowRect(current_)); // rows moved: keep the current one in view
}

void AlgorithmView::changeEvent(QEvent *e)
{
    if (e->type() == QEvent::FontChange) {
        laid_width_ = measured_width_ = -1;
        updateGeometry();
    }
    QWidget::changeEvent(e);
}

void AlgorithmView::paintEvent(QPaintEvent *e)
{
    const Theme &theme = Theme::instance();
    QPainter p(this);
    p.fillRect(e->rect(), theme.background());
    if (!listing_)
        return;
    const auto &rows = layoutRows(width());
    const QColor muted = mutedColor();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Laid &r = rows[i];
        if (r.top > e->rect().bottom() || r.top + r.height < e->rect().top())
            continue;
        const bool current = static_cast<int>(i) == current_;
        QColor fg = theme.foreground();
        if (current) {
            QColor bg = theme.highlightLineColor();
            if (dimmed_)
                bg.setAlphaF(0.45);
            p.fillRect(QRect(0, r.top, width(), r.height), bg);
            p.setPen(dimmed_ ? muted : theme.foreground());
            p.drawText(QRect(4, r.top + kPad, gutter(), r.height - 2 * kPad), Qt::AlignLeft | Qt::AlignTop,
                       dimmed_ ? QStringLiteral("▷") : QStringLiteral("▶"));
            if (dimmed_)
                fg = muted;
        }
        p.setPen(fg);
        const QTextLayout *l = current && !dimmed_ ? r.bold.get() : r.regular.get();
        if (l)
            l->draw(&p, QPointF(r.x, r.top + kPad));
    }
}

} // namespace docks
