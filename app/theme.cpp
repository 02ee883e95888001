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
    if (role == GcRole::candidate && graph_era_) // Tarjan's stack: not classic's candidate yellow
        return high_contrast_ ? QColor(0xb0, 0x3c, 0xff) : QColor(0xd9, 0xbf, 0xff);
    // Normal: soft fills readable with dark text. High contrast: saturated fills that survive a
    // washed-out projector, paired with white or black text by roleTextColor().
    if (high_contrast_) {
        switch (role) {
        case GcRole::idle: return QColor(0xff, 0xff, 0xff);
        case GcRole::inflight: return QColor(0x00, 0x5f, 0xff);
        case GcRole::candidate: return QColor(0xff, 0xd4, 0x00);
        case GcRole::maybe_cycle: return QColor(0xff, 0x8c, 0x00);
        case GcRole::not_cycle: return QColor(0x00, 0xa0, 0x3c);
        case GcRole::garbage: return QColor(0xe0, 0x00, 0x00);
        case GcRole::released: return QColor(0x9a, 0x9a, 0x9a);
        case GcRole::leaked: return QColor(0x6e, 0x3b, 0x0a);
        case GcRole::scc_pending: return QColor(0x00, 0x9a, 0xb0);
        }
    }
    switch (role) {
    case GcRole::idle: return QColor(0xf4, 0xf4, 0xf0);
    case GcRole::inflight: return QColor(0x9e, 0xc5, 0xfe);
    case GcRole::candidate: return QColor(0xff, 0xe0, 0x82);
    case GcRole::maybe_cycle: return QColor(0xff, 0xb8, 0x6c);
    case GcRole::not_cycle: return QColor(0x9b, 0xe3, 0xa9);
    case GcRole::garbage: return QColor(0xf2, 0x8b, 0x82);
    case GcRole::released: return QColor(0xe0, 0xe0, 0xe0);
    // Brown, unlike any colour of a collection: a leak is what no collection will ever change.
    case GcRole::leaked: return QColor(0x9c, 0x6b, 0x3c);
    case GcRole::scc_pending: return QColor(0x8f, 0xdc, 0xe6);
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
