// SPDX-License-Identifier: GPL-3.0-or-later
#include "autobind/autobind_map.h"

#include "theme.h"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <bit>
#include <cmath>

using namespace inflight;

namespace autobind {

namespace {

constexpr SockType kTypes[] = {SockType::stream, SockType::dgram, SockType::seqpacket};

QString typeName(SockType t)
{
    switch (t) {
    case SockType::stream: return QStringLiteral("stream");
    case SockType::dgram: return QStringLiteral("dgram");
    case SockType::seqpacket: return QStringLiteral("seqpacket");
    }
    return QString();
}

QString atName(std::uint32_t value) { return QLatin1Char('@') + QString::fromStdString(autobind_name(value)); }

QString separator() { return QStringLiteral(" \u00b7 "); }

} // namespace

AutobindMap::AutobindMap(QWidget *parent) : QWidget(parent), image_(kSide, kSide, QImage::Format_RGB32)
{
    image_.fill(freeColor());
    // The free names are the ground of the map: dark in the dark theme, as the graph's is.
    connect(&Theme::instance(), &Theme::changed, this, [this] {
        if (freeColor().rgb() == free_rgb_)
            return;
        free_rgb_ = freeColor().rgb();
        repaintAll();
        update();
    });
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::WheelFocus);
    setCursor(Qt::CrossCursor);
}

// ---- colours --------------------------------------------------------------------------------------

QColor AutobindMap::typeColor(SockType type)
{
    switch (type) {
    case SockType::stream: return QColor(0x15, 0x65, 0xc0);    // blue
    case SockType::dgram: return QColor(0xef, 0x6c, 0x00);     // orange
    case SockType::seqpacket: return QColor(0x2e, 0x7d, 0x32); // green
    }
    return Qt::black;
}
QColor AutobindMap::freeColor()
{
    return Theme::instance().dark() ? QColor(0x2c, 0x30, 0x38) : QColor(0xe4, 0xe7, 0xec);
}
QColor AutobindMap::severalColor() { return QColor(0x6a, 0x1b, 0x9a); }
QColor AutobindMap::probedColor() { return QColor(0xff, 0xd6, 0x00, 215); }
QColor AutobindMap::cursorColor() { return QColor(0xd5, 0x00, 0x00); }

AutobindMap::Palette AutobindMap::palette() const
{
    Palette p;
    for (unsigned m = 0; m < p.size(); ++m) {
        if (filter_ != kAllTypes)
            p[m] = (m >> filter_ & 1u) ? typeColor(static_cast<SockType>(filter_)).rgb() : freeColor().rgb();
        else if (m == 0)
            p[m] = freeColor().rgb();
        else if (m & (m - 1))
            p[m] = severalColor().rgb();
        else
            p[m] = typeColor(static_cast<SockType>(std::countr_zero(m))).rgb();
    }
    return p;
}

QRgb AutobindMap::pixelOf(std::uint32_t value) const
{
    return ns_ ? palette()[ns_->taken_mask(value)] : freeColor().rgb();
}

// ---- model ------------------------------------------------------------------------------------------

void AutobindMap::setNamespace(const AbstractNamespace *ns)
{
    if (ns == ns_)
        return;
    ns_ = ns;
    cursor_ = DirtyCursor{}; // the next sync() repaints everything
    if (!ns_) {
        image_.fill(freeColor());
        update();
    }
}

void AutobindMap::letGoKeepingPicture()
{
    ns_ = nullptr;
    cursor_ = DirtyCursor{};
}

void AutobindMap::setTypeFilter(int type)
{
    if (type < kAllTypes || type > 2 || type == filter_)
        return;
    filter_ = type;
    repaintAll();
    last_full_ = true;
    last_pixels_ = kSide * kSide;
    if (hovered_)
        emit hovered(describe(*hovered_));
    update();
}

void AutobindMap::setLabeler(std::function<QString(std::uint32_t)> labeler) { labeler_ = std::move(labeler); }

void AutobindMap::repaintAll()
{
    ++full_repaints_;
    // Every new run's first sync lands here (a replay builds a new namespace): a scene that
    // autobinds nothing, most of them, is one fill, not a million lookups on the GUI thread.
    bool any = false;
    for (int t = 0; ns_ && t < inflight::kSockTypes; ++t)
        any = any || ns_->autobind_names_taken(static_cast<SockType>(t)) > 0;
    if (!any) {
        image_.fill(freeColor());
        return;
    }
    const Palette colour = palette();
    for (int y = 0; y < kSide; ++y) {
        auto *line = reinterpret_cast<QRgb *>(image_.scanLine(y));
        const std::uint32_t base = static_cast<std::uint32_t>(y) << 10;
        for (int x = 0; x < kSide; ++x)
            line[x] = colour[ns_->taken_mask(base | static_cast<std::uint32_t>(x))];
    }
}

int AutobindMap::sync()
{
    last_full_ = false;
    last_pixels_ = 0;
    if (!ns_) {
        update();
        return 0;
    }
    dirty_.clear();
    if (!ns_->read_dirty(cursor_, dirty_)) {
        repaintAll();
        last_full_ = true;
        last_pixels_ = kSide * kSide;
    } else {
        const Palette colour = palette();
        for (std::uint32_t v : dirty_) {
            const QPoint c = cellOf(v);
            reinterpret_cast<QRgb *>(image_.scanLine(c.y()))[c.x()] = colour[ns_->taken_mask(v)];
        }
        last_pixels_ = static_cast<int>(dirty_.size());
    }
    if (hovered_ && last_pixels_)
        emit hovered(describe(*hovered_));
    update(); // the probe overlay follows the namespace's trace even when no name changed
    return last_pixels_;
}

// ---- text -------------------------------------------------------------------------------------------------

QString AutobindMap::ownerLabel(std::uint32_t sock) const
{
    if (labeler_) {
        QString l = labeler_(sock);
        if (!l.isEmpty())
            return l;
    }
    return QStringLiteral("socket #%1").arg(sock);
}

QString AutobindMap::describe(std::uint32_t value) const
{
    value &= kAutobindMask;
    const QString name = atName(value);
    auto bucketText = [value](SockType t) { return QStringLiteral("bucket %1").arg(autobind_bucket(value, t)); };
    if (filter_ != kAllTypes) {
        const auto t = static_cast<SockType>(filter_);
        const std::uint32_t owner = ns_ ? ns_->owner(t, value) : kNoSock;
        return name + separator() + bucketText(t) + separator() +
               (owner == kNoSock ? QStringLiteral("free (%1)").arg(typeName(t))
                                 : typeName(t) + QStringLiteral(": ") + ownerLabel(owner));
    }
    QStringList held;
    SockType only = SockType::stream;
    for (SockType t : kTypes) {
        const std::uint32_t owner = ns_ ? ns_->owner(t, value) : kNoSock;
        if (owner == kNoSock)
            continue;
        only = t;
        held << typeName(t) + QStringLiteral(": ") + ownerLabel(owner) + QStringLiteral(" (") + bucketText(t) + u')';
    }
    if (held.isEmpty())
        return name + separator() + QStringLiteral("free") + separator() +
               QStringLiteral("buckets %1/%2/%3 (stream/dgram/seqpacket)")
                   .arg(autobind_bucket(value, SockType::stream))
                   .arg(autobind_bucket(value, SockType::dgram))
                   .arg(autobind_bucket(value, SockType::seqpacket));
    if (held.size() == 1)
        return name + separator() + bucketText(only) + separator() + typeName(only) + QStringLiteral(": ") +
               ownerLabel(ns_->owner(only, value));
    return name + separator() + held.join(separator());
}

std::optional<std::uint32_t> AutobindMap::ownerAt(std::uint32_t value) const
{
    if (!ns_)
        return std::nullopt;
    if (filter_ != kAllTypes) {
        const std::uint32_t o = ns_->owner(static_cast<SockType>(filter_), value);
        return o == kNoSock ? std::nullopt : std::optional<std::uint32_t>(o);
    }
    for (SockType t : kTypes) {
        const std::uint32_t o = ns_->owner(t, value);
        if (o != kNoSock)
            return o;
    }
    return std::nullopt;
}

// ---- view -------------------------------------------------------------------------------------------------

double AutobindMap::fitScale() const
{
    const double s = std::min(width(), height()) / static_cast<double>(kSide);
    return s > 0 ? s : 1.0;
}

void AutobindMap::setView(double scale, QPointF origin)
{
    fitted_ = false;
    applyView(scale, origin);
}

void AutobindMap::applyView(double scale, QPointF origin)
{
    const double fit = fitScale();
    scale = std::clamp(scale, std::min(fit, kMaxScale), kMaxScale);
    auto clampAxis = [](double o, double visible) {
        if (visible >= kSide)
            return (kSide - visible) / 2.0; // smaller than the widget: centred
        return std::clamp(o, 0.0, kSide - visible);
    };
    const QPointF o(clampAxis(origin.x(), width() / scale), clampAxis(origin.y(), height() / scale));
    if (scale == scale_ && o == origin_)
        return;
    scale_ = scale;
    origin_ = o;
    update();
    emit viewChanged();
}

void AutobindMap::fitView()
{
    applyView(fitScale(), {0, 0});
    fitted_ = true;
}

void AutobindMap::showActualSize()
{
    QPointF centre(kSide / 2.0, kSide / 2.0);
    if (ns_ && ns_->trace().any)
        centre = QPointF(cellOf(ns_->trace().cursor)) + QPointF(0.5, 0.5);
    setView(1.0, centre - QPointF(width(), height()) / 2.0);
}

void AutobindMap::zoomAt(QPointF pos, double factor)
{
    const QPointF under = origin_ + pos / scale_;
    const double s = std::clamp(scale_ * factor, std::min(fitScale(), kMaxScale), kMaxScale);
    applyView(s, under - pos / s);
    fitted_ = s <= fitScale();
}

std::optional<std::uint32_t> AutobindMap::valueAt(QPointF pos) const
{
    const QPointF img = origin_ + pos / scale_;
    const double x = std::floor(img.x()), y = std::floor(img.y());
    if (x < 0 || y < 0 || x >= kSide || y >= kSide)
        return std::nullopt;
    return valueOfCell(static_cast<int>(x), static_cast<int>(y));
}

QPointF AutobindMap::widgetPosOf(std::uint32_t value) const
{
    const QPoint c = cellOf(value & kAutobindMask);
    return (QPointF(c.x() + 0.5, c.y() + 0.5) - origin_) * scale_;
}

// ---- painting ------------------------------------------------------------------------------------------

void AutobindMap::drawProbeOverlay(QPainter &p) const
{
    // The names tried: first, first + 1, ... (mod 2^20), `probes` of them, as row spans.
    // Zoomed out, a row of names is under a screen pixel tall: the spans are then drawn at least
    // 3 screen pixels tall (centred on their rows) so that a short probe run still shows.
    const AutobindTrace &t = ns_->trace();
    const std::uint32_t n = std::min(t.probes, kAutobindSpace);
    const QColor c = probedColor();
    const double min_h = std::max(1.0, 3.0 / scale_);
    auto span = [&](double x, double y, double w, double h) {
        if (h < min_h) {
            y -= (min_h - h) / 2;
            h = min_h;
        }
        p.fillRect(QRectF(x, y, w, h), c);
    };
    auto run = [&](std::uint32_t s, std::uint32_t len) {
        const std::uint32_t e = s + len - 1;
        const int x0 = static_cast<int>(s & 1023u), y0 = static_cast<int>(s >> 10);
        const int x1 = static_cast<int>(e & 1023u), y1 = static_cast<int>(e >> 10);
        if (y0 == y1) {
            span(x0, y0, x1 - x0 + 1, 1);
            return;
        }
        span(x0, y0, kSide - x0, 1);
        if (y1 > y0 + 1)
            span(0, y0 + 1, kSide, y1 - y0 - 1);
        span(0, y1, x1 + 1, 1);
    };
    std::uint32_t start = t.first & kAutobindMask, left = n;
    while (left) {
        const std::uint32_t seg = std::min(left, kAutobindSpace - start);
        run(start, seg);
        left -= seg;
        start = 0;
    }
}

void AutobindMap::drawCellLabels(QPainter &p) const
{
    // Magnified far enough: each visible cell names itself.
    const int x0 = std::max(0, static_cast<int>(std::floor(origin_.x())));
    const int y0 = std::max(0, static_cast<int>(std::floor(origin_.y())));
    const int x1 = std::min(kSide - 1, static_cast<int>(std::floor(origin_.x() + width() / scale_)));
    const int y1 = std::min(kSide - 1, static_cast<int>(std::floor(origin_.y() + height() / scale_)));
    QFont f = Theme::instance().monoFont(8);
    f.setPixelSize(std::max(6, static_cast<int>(scale_ / 3.2)));
    p.setFont(f);
    const QColor dark_text(0x30, 0x33, 0x3a);
    const QColor free_text = Theme::instance().dark() ? QColor(0xd0, 0xd3, 0xda) : dark_text;
    // Dark text on probed (yellow) cells, white on the type colours, the ground's own on free ones.
    const AutobindTrace *t =
        ns_ && ns_->trace().any && (filter_ == kAllTypes || static_cast<int>(ns_->trace().type) == filter_)
            ? &ns_->trace()
            : nullptr;
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
            const std::uint32_t v = valueOfCell(x, y);
            const QRectF r((QPointF(x, y) - origin_) * scale_, QSizeF(scale_, scale_));
            const bool probed = t && ((v - t->first) & kAutobindMask) < t->probes;
            p.setPen(probed ? dark_text : image_.pixel(x, y) == freeColor().rgb() ? free_text : QColor(Qt::white));
            p.drawText(r, Qt::AlignCenter, QString::fromStdString(autobind_name(v)));
        }
}

void AutobindMap::paintEvent(QPaintEvent * /*event*/)
{
    QPainter p(this);
    const Theme &theme = Theme::instance();
    p.fillRect(rect(), theme.background());

    const QRectF view(origin_, QSizeF(width() / scale_, height() / scale_));
    const QRectF visible = view & QRectF(0, 0, kSide, kSide);
    const QRectF map_on_screen(-origin_ * scale_, QSizeF(kSide * scale_, kSide * scale_));
    if (!visible.isEmpty()) {
        p.save();
        p.scale(scale_, scale_);
        p.translate(-origin_);
        // Magnified: nearest neighbour, so each name is a crisp square. Reduced: smoothed, so
        // the density of a region still reads when several names share a screen pixel.
        p.setRenderHint(QPainter::SmoothPixmapTransform, scale_ < 1.0);
        const QRect src = visible.toAlignedRect() & QRect(0, 0, kSide, kSide);
        p.drawImage(QRectF(src), image_, QRectF(src));
        if (ns_ && ns_->trace().any && (filter_ == kAllTypes || static_cast<int>(ns_->trace().type) == filter_))
            drawProbeOverlay(p);
        p.restore();
    }

    if (scale_ >= 6.0) {
        // Cell grid.
        p.setPen(QPen(QColor(0, 0, 0, scale_ >= 20 ? 70 : 35), 1));
        const int x0 = std::max(0, static_cast<int>(std::ceil(origin_.x())));
        const int y0 = std::max(0, static_cast<int>(std::ceil(origin_.y())));
        for (int x = x0; x <= std::min<double>(kSide, origin_.x() + width() / scale_); ++x)
            p.drawLine(QPointF((x - origin_.x()) * scale_, std::max(0.0, map_on_screen.top())),
                       QPointF((x - origin_.x()) * scale_, std::min<double>(height(), map_on_screen.bottom())));
        for (int y = y0; y <= std::min<double>(kSide, origin_.y() + height() / scale_); ++y)
            p.drawLine(QPointF(std::max(0.0, map_on_screen.left()), (y - origin_.y()) * scale_),
                       QPointF(std::min<double>(width(), map_on_screen.right()), (y - origin_.y()) * scale_));
    }
    if (scale_ >= 28.0)
        drawCellLabels(p);

    p.setRenderHint(QPainter::Antialiasing, true);
    // The probe cursor: the name the current (or last) autobind tried last, with a cross-hair
    // so it can be found on a projector at any zoom.
    if (ns_ && ns_->trace().any && (filter_ == kAllTypes || static_cast<int>(ns_->trace().type) == filter_)) {
        const QPointF c = widgetPosOf(ns_->trace().cursor);
        QColor line = cursorColor();
        line.setAlpha(150);
        p.setPen(QPen(line, 1.5, Qt::DashLine));
        p.drawLine(QPointF(map_on_screen.left(), c.y()), QPointF(map_on_screen.right(), c.y()));
        p.drawLine(QPointF(c.x(), map_on_screen.top()), QPointF(c.x(), map_on_screen.bottom()));
        const double r = std::max(9.0, scale_ * 0.75);
        p.setPen(QPen(Qt::white, 5));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(c, r, r);
        p.setPen(QPen(cursorColor(), 3));
        p.drawEllipse(c, r, r);
    }
    // The hovered cell.
    if (hovered_ && scale_ >= 3.0) {
        const QPoint cell = cellOf(*hovered_);
        p.setPen(QPen(theme.selectionColor(), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF((QPointF(cell) - origin_) * scale_, QSizeF(scale_, scale_)));
    }
    // The map's edge.
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(QPen(theme.edgeColor(), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(map_on_screen.adjusted(-1, -1, 0, 0));
}

// ---- input -----------------------------------------------------------------------------------------------

void AutobindMap::resizeEvent(QResizeEvent * /*event*/)
{
    if (fitted_)
        fitView();
    else
        applyView(scale_, origin_);
}

void AutobindMap::wheelEvent(QWheelEvent *e)
{
    const int dy = e->angleDelta().y();
    if (dy == 0) {
        e->ignore();
        return;
    }
    zoomAt(e->position(), std::pow(1.0015, dy)); // one notch (120) = x1.2
    setHovered(valueAt(e->position()));
    e->accept();
}

void AutobindMap::mousePressEvent(QMouseEvent *e)
{
    if (e->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(e);
        return;
    }
    pressing_ = true;
    dragged_ = false;
    press_pos_ = e->position();
    press_origin_ = origin_;
}

void AutobindMap::mouseMoveEvent(QMouseEvent *e)
{
    if (pressing_) {
        const QPointF d = e->position() - press_pos_;
        if (!dragged_ && d.manhattanLength() > 3)
            dragged_ = true;
        if (dragged_) {
            setCursor(Qt::ClosedHandCursor);
            setView(scale_, press_origin_ - d / scale_);
        }
    }
    setHovered(valueAt(e->position()));
}

void AutobindMap::mouseReleaseEvent(QMouseEvent *e)
{
    if (e->button() != Qt::LeftButton || !pressing_) {
        QWidget::mouseReleaseEvent(e);
        return;
    }
    pressing_ = false;
    setCursor(Qt::CrossCursor);
    if (!dragged_) {
        if (const auto v = valueAt(e->position()))
            if (const auto owner = ownerAt(*v))
                emit socketClicked(*owner);
    }
    dragged_ = false;
}

void AutobindMap::leaveEvent(QEvent * /*event*/) { setHovered(std::nullopt); }

void AutobindMap::setHovered(std::optional<std::uint32_t> v)
{
    if (v == hovered_)
        return;
    hovered_ = v;
    const QString text = hoverText();
    setToolTip(text);
    emit hovered(text);
    update();
}

} // namespace autobind
