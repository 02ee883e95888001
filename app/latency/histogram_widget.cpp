// SPDX-License-Identifier: GPL-3.0-or-later
#include "histogram_widget.h"

#include "../theme.h"

#include <QFontMetrics>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

using namespace inflight;

namespace latency {

namespace {

// Point sizes at font scale 1 (the theme scales them for presentation mode).
constexpr double kTitlePoints = 12.5;
constexpr double kRowPoints = 12.0;
constexpr double kHeaderPoints = 10.5;

QColor barColor(const Theme &t)
{
    return t.dark() ? QColor(0x4f, 0x8f, 0xff) : t.highContrast() ? QColor(0x00, 0x4a, 0xd0) : QColor(0x3b, 0x78, 0xe0);
}
QColor trackColor(const Theme &t)
{
    return t.dark() ? QColor(0x2c, 0x30, 0x38) : t.highContrast() ? QColor(0xee, 0xee, 0xee) : QColor(0xf0, 0xf0, 0xec);
}
QColor hoverBarColor() { return QColor(0xe0, 0x6c, 0x00); }
QColor mutedText() { return Theme::instance().mutedText(); }

} // namespace

HistogramWidget::HistogramWidget(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setAttribute(Qt::WA_OpaquePaintEvent);
    connect(&Theme::instance(), &Theme::changed, this, [this] {
        updateGeometry();
        update();
    });
}

void HistogramWidget::setHistogram(const Log2Histogram &h)
{
    hist_ = h;
    rowsChanged();
}

void HistogramWidget::setTitle(const QString &title)
{
    if (title == title_)
        return;
    title_ = title;
    update();
}

void HistogramWidget::setUnit(TimeUnit unit)
{
    if (unit == hist_.unit())
        return;
    hist_.set_unit(unit);
    rowsChanged();
}

void HistogramWidget::setValueLabel(const QString &label)
{
    value_label_ = label;
    update();
}

QString HistogramWidget::valueLabel() const
{
    if (!value_label_.isEmpty())
        return value_label_;
    const std::string_view u = unit_label(hist_.unit());
    return QString::fromLatin1(u.data(), static_cast<qsizetype>(u.size()));
}

void HistogramWidget::setBucketRange(int first, int last)
{
    range_first_ = first;
    range_last_ = last;
    rowsChanged();
}

void HistogramWidget::setScaleMax(std::uint64_t max_count)
{
    scale_max_ = max_count;
    update();
}

void HistogramWidget::setSelectedBucket(int bucket)
{
    if (bucket == selected_)
        return;
    selected_ = bucket;
    update();
}

void HistogramWidget::rowsChanged()
{
    const qsizetype before = rows_.size();
    const int first_before = rows_.isEmpty() ? -1 : rows_.front().bucket;
    rows_ = computeRows();
    if (rows_.size() != before || (!rows_.isEmpty() && rows_.front().bucket != first_before)) {
        hovered_ = std::min(hovered_, static_cast<int>(rows_.size()) - 1);
        updateGeometry(); // height follows the number of rows, width the widest range
    }
    update();
}

QVector<HistogramWidget::Row> HistogramWidget::computeRows() const
{
    int first = hist_.first_bucket(), last = hist_.last_bucket();
    if (range_first_ >= 0 && range_last_ >= range_first_) {
        first = range_first_;
        last = range_last_;
    }
    QVector<Row> out;
    if (first < 0)
        return out;
    for (int b = first; b <= last; ++b)
        out.push_back({b, Log2Histogram::bucket_low(b), Log2Histogram::bucket_high(b), hist_.bucket_count(b)});
    return out;
}

QString HistogramWidget::rangeText(int bucket)
{
    if (bucket <= 1)
        return QString::number(bucket);
    return QStringLiteral("%1 -> %2").arg(Log2Histogram::bucket_low(bucket)).arg(Log2Histogram::bucket_high(bucket));
}

HistogramWidget::Metrics HistogramWidget::metrics() const
{
    const Theme &t = Theme::instance();
    const QFontMetrics title(t.font(kTitlePoints, true));
    const QFontMetrics row(t.monoFont(kRowPoints));
    const QFontMetrics header(t.font(kHeaderPoints));
    Metrics m{};
    m.margin = static_cast<int>(6 * t.fontScale());
    m.title_h = title_.isEmpty() ? 0 : title.height() + m.margin / 2;
    m.header_h = header.height() + 2;
    m.row_h = row.height() + std::max(2, row.height() / 5);
    m.footer_h = row.height() + m.margin;
    // Wide enough for the widest range drawn (and at least for "1048576 -> 2097151").
    int widest = row.horizontalAdvance(QStringLiteral("1048576 -> 2097151"));
    for (const Row &r : rows_)
        widest = std::max(widest, row.horizontalAdvance(rangeText(r.bucket)));
    m.range_w = widest;
    m.count_w = row.horizontalAdvance(QStringLiteral("00000000"));
    return m;
}

QSize HistogramWidget::sizeHint() const
{
    const Metrics m = metrics();
    const int n = std::max(1, static_cast<int>(rows_.size()));
    const int w = m.margin * 4 + m.range_w + m.count_w + static_cast<int>(260 * Theme::instance().fontScale());
    return {w, m.margin * 2 + m.title_h + m.header_h + n * m.row_h + m.footer_h};
}

QSize HistogramWidget::minimumSizeHint() const
{
    const Metrics m = metrics();
    return {m.margin * 4 + m.range_w + m.count_w + 80, sizeHint().height()};
}

QRect HistogramWidget::rowRect(int row) const
{
    const Metrics m = metrics();
    const int top = m.margin + m.title_h + m.header_h + row * m.row_h;
    return {m.margin, top, width() - 2 * m.margin, m.row_h};
}

QRect HistogramWidget::barRect(int row) const
{
    const QVector<Row> &rs = rows_;
    if (row < 0 || row >= rs.size())
        return {};
    const Metrics m = metrics();
    const QRect r = rowRect(row);
    const int left = r.left() + m.range_w + m.margin * 2 + m.count_w + m.margin;
    const int full = std::max(10, r.right() - m.margin - left);
    const std::uint64_t max = scale_max_ ? scale_max_ : std::max<std::uint64_t>(hist_.max_bucket_count(), 1);
    const std::uint64_t c = rs[row].count;
    int w = static_cast<int>(static_cast<double>(std::min(c, max)) / static_cast<double>(max) * full);
    if (c > 0)
        w = std::max(w, 2); // one call in a bucket still shows
    const int inset = std::max(2, r.height() / 6);
    return {left, r.top() + inset, w, r.height() - 2 * inset};
}

int HistogramWidget::rowAt(const QPoint &p) const
{
    const Metrics m = metrics();
    const int top = m.margin + m.title_h + m.header_h;
    if (p.y() < top || p.x() < m.margin || p.x() > width() - m.margin)
        return -1;
    const int row = (p.y() - top) / m.row_h;
    return row < rows_.size() ? row : -1;
}

void HistogramWidget::paintEvent(QPaintEvent * /*event*/)
{
    const Theme &t = Theme::instance();
    QPainter p(this);
    p.fillRect(rect(), t.background());
    const Metrics m = metrics();
    const QVector<Row> &rs = rows_;

    int y = m.margin;
    if (!title_.isEmpty()) {
        p.setFont(t.font(kTitlePoints, true));
        p.setPen(t.foreground());
        p.drawText(QRect(m.margin, y, width() - 2 * m.margin, m.title_h), Qt::AlignLeft | Qt::AlignVCenter, title_);
        y += m.title_h;
    }
    const int count_left = m.margin + m.range_w + m.margin * 2;
    const int bar_left = count_left + m.count_w + m.margin;
    p.setFont(t.font(kHeaderPoints));
    p.setPen(mutedText());
    p.drawText(QRect(m.margin, y, m.range_w, m.header_h), Qt::AlignRight | Qt::AlignVCenter, valueLabel());
    p.drawText(QRect(count_left, y, m.count_w, m.header_h), Qt::AlignRight | Qt::AlignVCenter, tr("count"));
    p.drawText(QRect(bar_left, y, width() - bar_left - m.margin, m.header_h), Qt::AlignLeft | Qt::AlignVCenter,
               tr("distribution"));

    if (rs.isEmpty()) {
        p.setFont(t.font(kRowPoints));
        p.drawText(rowRect(0), Qt::AlignCenter, tr("no calls yet"));
        return;
    }
    const QFont mono = t.monoFont(kRowPoints);
    p.setFont(mono);
    for (int i = 0; i < rs.size(); ++i) {
        const Row &r = rs[i];
        const QRect rr = rowRect(i);
        const bool hovered = i == hovered_;
        const bool selected = r.bucket == selected_;
        if (hovered || selected)
            p.fillRect(rr, t.highlightLineColor());
        if (selected) {
            p.setPen(QPen(t.selectionColor(), 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(rr.adjusted(1, 1, -1, -1));
        }
        p.setPen(r.count ? t.foreground() : mutedText());
        p.drawText(QRect(rr.left(), rr.top(), m.range_w, rr.height()), Qt::AlignRight | Qt::AlignVCenter,
                   rangeText(r.bucket));
        p.drawText(QRect(count_left, rr.top(), m.count_w, rr.height()), Qt::AlignRight | Qt::AlignVCenter,
                   QString::number(r.count));
        // The bar's track, then the bar.
        const QRect bar = barRect(i);
        p.fillRect(QRect(bar.left(), bar.top(), rr.right() - m.margin - bar.left(), bar.height()), trackColor(t));
        if (r.count)
            p.fillRect(bar, hovered ? hoverBarColor() : barColor(t));
    }
    // funclatency's summary line.
    const std::string_view unit = unit_label(hist_.unit());
    const QString u =
        value_label_.isEmpty() ? QString::fromLatin1(unit.data(), static_cast<qsizetype>(unit.size())) : value_label_;
    const QString summary = QStringLiteral("avg = %1 %2, total: %3 %2, count: %4")
                                .arg(hist_.average())
                                .arg(u)
                                .arg(hist_.total())
                                .arg(hist_.count());
    const QRect last = rowRect(static_cast<int>(rs.size()) - 1);
    p.setPen(t.foreground());
    p.drawText(QRect(m.margin, last.bottom() + 1, width() - 2 * m.margin, m.footer_h), Qt::AlignLeft | Qt::AlignVCenter,
               summary);
}

void HistogramWidget::mouseMoveEvent(QMouseEvent *e)
{
    const int row = rowAt(e->position().toPoint());
    if (row != hovered_) {
        hovered_ = row;
        update();
    }
    const QVector<Row> &rs = rows_;
    if (row >= 0 && row < rs.size()) {
        const Row &r = rs[row];
        const double all = static_cast<double>(std::max<std::uint64_t>(hist_.count(), 1));
        const double pct = 100.0 * static_cast<double>(r.count) / all;
        QToolTip::showText(
            e->globalPosition().toPoint(),
            tr("%1 %2: %3 (%4%). Click to list them.")
                .arg(rangeText(r.bucket), valueLabel(), QString::number(r.count), QString::number(pct, 'f', 1)),
            this, rowRect(row));
    }
}

void HistogramWidget::mousePressEvent(QMouseEvent *e)
{
    if (e->button() != Qt::LeftButton)
        return;
    const int row = rowAt(e->position().toPoint());
    const QVector<Row> &rs = rows_;
    if (row < 0 || row >= rs.size())
        return;
    setSelectedBucket(rs[row].bucket);
    emit bucketClicked(rs[row].bucket);
    emit barClicked(rs[row].lo, rs[row].hi);
}

void HistogramWidget::leaveEvent(QEvent * /*event*/)
{
    if (hovered_ != -1) {
        hovered_ = -1;
        update();
    }
}

} // namespace latency
