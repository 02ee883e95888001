// SPDX-License-Identifier: GPL-3.0-or-later
#include "theme.h"

#include <algorithm>
#include <cmath>

#include <QFontDatabase>

using inflight::GcRole;

namespace {

// On a dark ground the fills are bright enough to stand out from it and carry black text; the
// quiet roles (idle, released, leaked) stay dark with light text, the leak darkest of all.
QColor darkRoleColor(GcRole role, bool graph_era)
{
    switch (role) {
    case GcRole::idle: return QColor(0x4a, 0x50, 0x5e);
    case GcRole::inflight: return QColor(0x3f, 0x7f, 0xff);
    case GcRole::candidate: return graph_era ? QColor(0xe8, 0x90, 0xff) : QColor(0xff, 0xd7, 0x09);
    case GcRole::maybe_cycle: return QColor(0xff, 0x9a, 0x3c);
    case GcRole::not_cycle: return QColor(0x2f, 0xb8, 0x72);
    case GcRole::garbage: return QColor(0xe8, 0x38, 0x3a);
    case GcRole::released: return QColor(0x44, 0x47, 0x4f);
    case GcRole::leaked: return QColor(0x4d, 0x2a, 0x0c);
    case GcRole::scc_pending: return QColor(0x9e, 0xea, 0xff);
    }
    return QColor(0x4a, 0x50, 0x5e);
}

} // namespace

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

void Theme::setDark(bool on)
{
    if (on == dark_)
        return;
    dark_ = on;
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
    if (dark_)
        return darkRoleColor(role, graph_era_);
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
        case GcRole::released: return QColor(0xc8, 0xc8, 0xc8);
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
    if (dark_)
        return role == GcRole::idle       ? QColor(Qt::white)
               : role == GcRole::released ? QColor(0xb4, 0xb8, 0xc0)
                                          : QColor(Qt::black);
    if (high_contrast_ && (role == GcRole::inflight || role == GcRole::not_cycle || role == GcRole::garbage ||
                           (role == GcRole::candidate && graph_era_)))
        return Qt::white;
    // Greyer than the others' (a released socket is out of the story) but still readable.
    if (role == GcRole::released)
        return high_contrast_ ? QColor(0x40, 0x40, 0x40) : QColor(0x5a, 0x5a, 0x5a);
    return Qt::black;
}

QColor Theme::background() const
{
    return dark_ ? QColor(0x16, 0x18, 0x1d) : high_contrast_ ? QColor(Qt::white) : QColor(0xfb, 0xfb, 0xf8);
}
QColor Theme::foreground() const { return dark_ ? QColor(0xf0, 0xf0, 0xf0) : QColor(Qt::black); }
QColor Theme::edgeColor() const
{
    return dark_ ? QColor(0xc8, 0xcc, 0xd6) : high_contrast_ ? QColor(Qt::black) : QColor(0x40, 0x40, 0x50);
}
QColor Theme::hitlistEdgeColor() const { return dark_ ? QColor(0xff, 0x50, 0x50) : QColor(0xd0, 0x00, 0x00); }
// Orange: apart from every role's fill and from the hitlist's red, also to deuteranopes.
QColor Theme::examinedEdgeColor() const { return QColor(0xff, 0x8c, 0x00, 0xb0); }
QColor Theme::processColor() const
{
    return dark_ ? QColor(0xc4, 0xa3, 0xff) : high_contrast_ ? QColor(0x55, 0x00, 0x99) : QColor(0x7a, 0x5c, 0xa8);
}
QColor Theme::processTextColor() const { return dark_ ? QColor(Qt::black) : QColor(Qt::white); }
QColor Theme::selectionColor() const
{
    return dark_ || high_contrast_ ? QColor(0xff, 0x00, 0xcc) : QColor(0x1f, 0x6f, 0xeb);
}
QColor Theme::highlightLineColor() const
{
    return dark_ ? QColor(0x5c, 0x4b, 0x00) : high_contrast_ ? QColor(0xff, 0xe6, 0x00) : QColor(0xff, 0xf1, 0xa8);
}
QColor Theme::ink() const
{
    return dark_ ? QColor(0xe8, 0xe8, 0xee) : high_contrast_ ? QColor(Qt::black) : QColor(0x30, 0x30, 0x38);
}
QColor Theme::mutedText() const
{
    return dark_ ? QColor(0xa8, 0xac, 0xb5) : high_contrast_ ? QColor(0x40, 0x40, 0x40) : QColor(0x70, 0x70, 0x78);
}
QColor Theme::outlineOf(const QColor &fill) const { return dark_ ? fill.lighter(140) : fill.darker(160); }
QColor Theme::panelColor() const { return dark_ ? QColor(0x23, 0x26, 0x2d) : QColor(Qt::white); }
QColor Theme::noteBackground() const { return dark_ ? QColor(0x1f, 0x2a, 0x40) : QColor(0xee, 0xf3, 0xff); }
QColor Theme::announcementBackground() const { return dark_ ? QColor(0x4a, 0x35, 0x00) : QColor(0xff, 0xf0, 0xd0); }

QPalette Theme::widgetPalette(const QPalette &standard) const
{
    if (!dark_)
        return standard;
    QPalette p = standard;
    const QColor window(0x1c, 0x1e, 0x24), base = background(), text = foreground(), button(0x2a, 0x2d, 0x35);
    const QColor disabled(0x7a, 0x7e, 0x86);
    for (QPalette::ColorGroup g : {QPalette::Active, QPalette::Inactive, QPalette::Disabled}) {
        const bool off = g == QPalette::Disabled;
        p.setColor(g, QPalette::Window, window);
        p.setColor(g, QPalette::WindowText, off ? disabled : text);
        p.setColor(g, QPalette::Base, base);
        p.setColor(g, QPalette::AlternateBase, QColor(0x22, 0x25, 0x2c));
        p.setColor(g, QPalette::Text, off ? disabled : text);
        p.setColor(g, QPalette::Button, button);
        p.setColor(g, QPalette::ButtonText, off ? disabled : text);
        p.setColor(g, QPalette::BrightText, QColor(0xff, 0x60, 0x60));
        p.setColor(g, QPalette::Highlight, QColor(0x3f, 0x7f, 0xff));
        p.setColor(g, QPalette::HighlightedText, Qt::white);
        p.setColor(g, QPalette::ToolTipBase, button);
        p.setColor(g, QPalette::ToolTipText, text);
        p.setColor(g, QPalette::PlaceholderText, disabled);
        p.setColor(g, QPalette::Link, QColor(0x8a, 0xb4, 0xff));
        p.setColor(g, QPalette::Light, QColor(0x3a, 0x3d, 0x46));
        p.setColor(g, QPalette::Midlight, QColor(0x30, 0x33, 0x3b));
        p.setColor(g, QPalette::Mid, QColor(0x24, 0x27, 0x2e));
        p.setColor(g, QPalette::Dark, QColor(0x10, 0x11, 0x14));
        p.setColor(g, QPalette::Shadow, Qt::black);
    }
    return p;
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
