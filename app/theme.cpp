// SPDX-License-Identifier: GPL-3.0-or-later
#include "theme.h"

#include <algorithm>
#include <cmath>

#include <QFontDatabase>

using inflight::GcRole;

Theme &Theme::instance()
{
    static Theme theme;
    return theme;
}

void Theme::setFontScale(double scale)
{
    scale = std::isfinite(scale) ? std::clamp(scale, kMinFontScale, kMaxFontScale) : 1.0;
    if (qFuzzyCompare(scale, font_scale_))
        return;
    font_scale_ = scale;
    emit changed();
}

void Theme::setHighContrast(bool on)
{
    if (on == high_contrast_)
        return;
    high_contrast_ = on;
    emit changed();
}

void Theme::setGraphEra(bool on)
{
    if (on == graph_era_)
        return;
    graph_era_ = on;
    emit changed();
}

QColor Theme::roleColor(GcRole role) const
{
    // Both palettes keep every pair of roles a lesson shows side by side apart under
    // protanopia, deuteranopia and tritanopia as well as in full colour (test_palette checks the
    // distances). Hue keeps its meaning (in flight blue, alive green, dead red), and lightness
    // differs where a colour-blind eye loses the hue, so alive and dead never depend on red
    // against green alone.
    if (role == GcRole::candidate && graph_era_) // Tarjan's stack: not classic's candidate yellow
        return high_contrast_ ? QColor(0xc4, 0x0d, 0x95) : QColor(0xc2, 0x74, 0xfe);
    // Normal: soft fills readable with dark text. High contrast: saturated fills that survive a
    // washed-out projector, paired with white or black text by roleTextColor().
    if (high_contrast_) {
        switch (role) {
        case GcRole::idle: return QColor(0xff, 0xff, 0xff);
        case GcRole::inflight: return QColor(0x03, 0x40, 0xbd);
        case GcRole::candidate: return QColor(0xff, 0xd7, 0x09);
        case GcRole::maybe_cycle: return QColor(0xef, 0x9b, 0x30);
        case GcRole::not_cycle: return QColor(0x07, 0x7a, 0x51);
        case GcRole::garbage: return QColor(0xce, 0x04, 0x04);
        case GcRole::released: return QColor(0x9a, 0x9a, 0x9a);
        case GcRole::leaked: return QColor(0x31, 0x1d, 0x02);
        case GcRole::scc_pending: return QColor(0x11, 0xc3, 0xfe);
        }
    }
    switch (role) {
    case GcRole::idle: return QColor(0xf4, 0xf4, 0xf0);
    case GcRole::inflight: return QColor(0x70, 0xa1, 0xcc);
    case GcRole::candidate: return QColor(0xf5, 0xd4, 0x56);
    case GcRole::maybe_cycle: return QColor(0xe8, 0x89, 0x50);
    case GcRole::not_cycle: return QColor(0xb6, 0xf3, 0x99);
    case GcRole::garbage: return QColor(0xcd, 0x8b, 0x8a);
    case GcRole::released: return QColor(0xe0, 0xe0, 0xe0);
    // Dark brown, unlike any colour of a collection: a leak is what no collection will ever change.
    case GcRole::leaked: return QColor(0x5c, 0x3d, 0x10);
    case GcRole::scc_pending: return QColor(0x8e, 0xe2, 0xfe);
    }
    return Qt::white;
}

QColor Theme::roleTextColor(GcRole role) const
{
    if (role == GcRole::leaked)
        return Qt::white;
    if (high_contrast_ && (role == GcRole::inflight || role == GcRole::not_cycle || role == GcRole::garbage ||
                           (role == GcRole::candidate && graph_era_)))
        return Qt::white;
    if (role == GcRole::released)
        return QColor(0x70, 0x70, 0x70);
    return Qt::black;
}

QColor Theme::background() const { return high_contrast_ ? Qt::white : QColor(0xfb, 0xfb, 0xf8); }
QColor Theme::foreground() const { return Qt::black; }
QColor Theme::edgeColor() const { return high_contrast_ ? Qt::black : QColor(0x40, 0x40, 0x50); }
QColor Theme::hitlistEdgeColor() const { return QColor(0xd0, 0x00, 0x00); }
// Orange: apart from every role's fill and from the hitlist's red, also to deuteranopes.
QColor Theme::examinedEdgeColor() const { return QColor(0xff, 0x8c, 0x00, 0xb0); }
QColor Theme::processColor() const { return high_contrast_ ? QColor(0x55, 0x00, 0x99) : QColor(0x7a, 0x5c, 0xa8); }
QColor Theme::selectionColor() const { return high_contrast_ ? QColor(0xff, 0x00, 0xcc) : QColor(0x1f, 0x6f, 0xeb); }
QColor Theme::highlightLineColor() const
{
    return high_contrast_ ? QColor(0xff, 0xe6, 0x00) : QColor(0xff, 0xf1, 0xa8);
}

QFont Theme::font(double points, bool bold) const
{
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPointSizeF(points * font_scale_);
    f.setBold(bold);
    return f;
}

QFont Theme::monoFont(double points) const
{
    QFont f(QStringLiteral("DejaVu Sans Mono"));
    f.setStyleHint(QFont::Monospace);
    f.setPointSizeF(points * font_scale_);
    return f;
}
