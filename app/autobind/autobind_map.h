// SPDX-License-Identifier: GPL-3.0-or-later
// The autobind fill map: the 2^20 autobind names of an AbstractNamespace as a 1024 x 1024 image,
// one pixel per name value, row-major (x = value & 1023, y = value >> 10). A pixel is free, or
// taken (coloured by the socket type that holds it; "several" when more than one type does), and
// the names the current (or last) autobind probed are drawn over it, with a cross-hair on the name
// it tried last. Wheel zooms about the pointer, drag pans, down to single names (nearest-neighbour
// when magnified; from ~28 px per name each cell shows its name). Hovering names a value
// ("@0abcd · bucket 306 · stream: s3"); clicking a taken name emits its socket.
//
// The image is kept up to date incrementally: sync() rewrites only the pixels of the values in the
// namespace's change journal (AbstractNamespace::read_dirty), and everything only when the
// journal cannot say (first read, another namespace object after a replay, journal overflow).
#pragma once

#include "inflight/abstract_namespace.hpp"

#include <QImage>
#include <QPointF>
#include <QWidget>

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace autobind {

class AutobindMap : public QWidget {
    Q_OBJECT
public:
    static constexpr int kSide = 1024;   // 1024 x 1024 = 2^20 names
    static constexpr int kAllTypes = -1; // typeFilter(): every type

    explicit AutobindMap(QWidget *parent = nullptr);

    // The namespace drawn (nullptr: an empty map). It must stay alive while set; the map reads it
    // in sync() and while painting (the probe overlay) and hovering.
    void setNamespace(const inflight::AbstractNamespace *ns);
    // Forgets the namespace, which is about to be freed, and keeps the picture of it: a seek
    // is building the next one (setNamespace() then repaints).
    void letGoKeepingPicture();
    const inflight::AbstractNamespace *ns() const { return ns_; }
    // Brings the image up to date with the namespace; returns the pixels rewritten.
    int sync();
    bool lastSyncFull() const { return last_full_; }
    int lastSyncPixels() const { return last_pixels_; }
    int fullRepaints() const { return full_repaints_; }

    // Which names are drawn taken: kAllTypes or int(SockType).
    void setTypeFilter(int type);
    int typeFilter() const { return filter_; }
    // The owning socket's label for hover text ("s3"); default "socket #N".
    void setLabeler(std::function<QString(std::uint32_t sock)> labeler);

    const QImage &image() const { return image_; }
    static QPoint cellOf(std::uint32_t value)
    {
        return {static_cast<int>(value & 1023u), static_cast<int>(value >> 10)};
    }
    static std::uint32_t valueOfCell(int x, int y)
    {
        return static_cast<std::uint32_t>(y) << 10 | static_cast<std::uint32_t>(x);
    }
    // The pixel colour of a value under the current filter.
    QRgb pixelOf(std::uint32_t value) const;

    static QColor typeColor(inflight::SockType type);
    static QColor freeColor();
    static QColor severalColor(); // held by more than one type (filter: all)
    static QColor probedColor();  // overlay: names the current/last autobind probed
    static QColor cursorColor();  // overlay: the name it tried last

    // ---- view --------------------------------------------------------------------------------
    double scale() const { return scale_; }     // screen pixels per name
    QPointF origin() const { return origin_; }  // image coordinates at the widget's top-left
    void setView(double scale, QPointF origin); // clamped; the view then stays put on resize
    void fitView();                             // the whole map, centred (the default)
    void showActualSize();                      // 1:1, one screen pixel per name, centred on the
                                                // name the last autobind tried (else the middle)
    void zoomAt(QPointF widget_pos, double factor);
    double fitScale() const;
    static constexpr double kMaxScale = 64.0;
    std::optional<std::uint32_t> valueAt(QPointF widget_pos) const;
    QPointF widgetPosOf(std::uint32_t value) const; // the cell's centre

    // "@0abcd · bucket 306 · stream: s3" (filter all: one part per type holding it; free:
    // "@0abcd · bucket 306 · free" with the filter's type, or the stream bucket under "all").
    QString describe(std::uint32_t value) const;
    std::optional<std::uint32_t> hoveredValue() const { return hovered_; }
    QString hoverText() const { return hovered_ ? describe(*hovered_) : QString(); }
    // The socket a click on `value` selects: the filter type's owner, or under "all" the first
    // type (stream, dgram, seqpacket) that holds it.
    std::optional<std::uint32_t> ownerAt(std::uint32_t value) const;

    QSize sizeHint() const override { return {720, 720}; }
    QSize minimumSizeHint() const override { return {256, 256}; }

signals:
    void hovered(const QString &text); // "" when the pointer leaves the map
    void socketClicked(quint32 sock);
    void viewChanged();

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *e) override;
    void mousePressEvent(QMouseEvent *e) override;
    void mouseMoveEvent(QMouseEvent *e) override;
    void mouseReleaseEvent(QMouseEvent *e) override;
    void leaveEvent(QEvent *event) override;

private:
    // A pixel by its taken mask (bit 1 << type per type holding the value), under the filter.
    using Palette = std::array<QRgb, 8>;
    Palette palette() const;
    void repaintAll();
    void applyView(double scale, QPointF origin);
    void setHovered(std::optional<std::uint32_t> v);
    void drawProbeOverlay(QPainter &p) const;
    void drawCellLabels(QPainter &p) const;
    QString ownerLabel(std::uint32_t sock) const;

    const inflight::AbstractNamespace *ns_ = nullptr;
    inflight::DirtyCursor cursor_;
    std::vector<std::uint32_t> dirty_;
    QImage image_;
    int filter_ = kAllTypes;
    std::function<QString(std::uint32_t)> labeler_;
    bool last_full_ = false;
    int last_pixels_ = 0;
    int full_repaints_ = 0;

    double scale_ = 1.0;
    QPointF origin_{0, 0};
    bool fitted_ = true; // follow the widget's size until the user zooms or pans
    std::optional<std::uint32_t> hovered_;
    bool pressing_ = false;
    bool dragged_ = false;
    QPointF press_pos_;
    QPointF press_origin_;
    QRgb free_rgb_ = freeColor().rgb(); // the free colour image_ was drawn with
};

} // namespace autobind
