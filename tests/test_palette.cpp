// SPDX-License-Identifier: GPL-3.0-or-later
// The role colours stay apart for colour-blind students: every pair of roles a lesson shows
// side by side keeps a visible distance (CIE76 ΔE in L*a*b*) in full colour and under a
// simulation of protanopia, deuteranopia and tritanopia (Machado, Oliveira and Fernandes 2009,
// severity 1, applied in linear RGB), in every palette (normal, high contrast, dark) and both
// eras; each role's text reads on its fill; the dark palette's fills stand out from its ground;
// and the verdicts carry a pattern besides their colour.
#include "graph/role_mark.h"
#include "theme.h"

#include "inflight/graph_snapshot.hpp"

#include <QColor>
#include <QImage>
#include <QPainter>
#include <QPainterPath>
#include <QTest>

#include <array>
#include <cmath>
#include <utility>

using inflight::gc_role_name;
using inflight::GcRole;

enum class Palette { normal, high_contrast, dark };
Q_DECLARE_METATYPE(Palette)

namespace {

using Matrix = std::array<std::array<double, 3>, 3>;

struct Vision {
    const char *name;
    Matrix m;
};

constexpr std::array kVisions{
    Vision{"full colour", {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}},
    Vision{"protanopia",
           {{{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}}},
    Vision{"deuteranopia",
           {{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}}},
    Vision{"tritanopia",
           {{{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}}},
};

double linear(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }

std::array<double, 3> lab_as_seen(const QColor &colour, const Matrix &m)
{
    const std::array<double, 3> rgb{linear(colour.redF()), linear(colour.greenF()), linear(colour.blueF())};
    std::array<double, 3> seen{};
    for (int r = 0; r < 3; ++r)
        seen[r] = std::clamp(m[r][0] * rgb[0] + m[r][1] * rgb[1] + m[r][2] * rgb[2], 0.0, 1.0);
    const double x = 0.4124 * seen[0] + 0.3576 * seen[1] + 0.1805 * seen[2];
    const double y = 0.2126 * seen[0] + 0.7152 * seen[1] + 0.0722 * seen[2];
    const double z = 0.0193 * seen[0] + 0.1192 * seen[1] + 0.9505 * seen[2];
    auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
    const double fx = f(x / 0.95047), fy = f(y), fz = f(z / 1.08883);
    return {116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
}

// WCAG 2 contrast ratio of two colours (1 to 21).
double contrast(const QColor &a, const QColor &b)
{
    auto luminance = [](const QColor &c) {
        return 0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) + 0.0722 * linear(c.blueF());
    };
    const double x = luminance(a), y = luminance(b);
    return (std::max(x, y) + 0.05) / (std::min(x, y) + 0.05);
}

void use(Palette palette, bool graph_era)
{
    Theme &t = Theme::instance();
    t.setHighContrast(palette != Palette::normal); // presentation mode is high contrast in both themes
    t.setDark(palette == Palette::dark);
    t.setGraphEra(graph_era);
}

void addPaletteRows()
{
    QTest::addColumn<Palette>("palette");
    QTest::addColumn<bool>("graphEra");
    const std::array<std::pair<Palette, const char *>, 3> palettes{
        {{Palette::normal, "normal"}, {Palette::high_contrast, "high contrast"}, {Palette::dark, "dark"}}};
    for (const auto &[palette, name] : palettes)
        for (bool graph : {false, true})
            QTest::newRow(qPrintable(QStringLiteral("%1, %2").arg(
                QLatin1String(name), graph ? QStringLiteral("graph era") : QStringLiteral("classic"))))
                << palette << graph;
}

constexpr std::array kAllRoles{GcRole::idle,        GcRole::inflight,  GcRole::candidate,
                               GcRole::maybe_cycle, GcRole::not_cycle, GcRole::garbage,
                               GcRole::released,    GcRole::leaked,    GcRole::scc_pending};

double distance(const QColor &a, const QColor &b, const Matrix &m)
{
    const auto p = lab_as_seen(a, m), q = lab_as_seen(b, m);
    return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

// ΔE 20 is far beyond "just noticeable" (about 2.3): two fills a row apart on a projector.
constexpr double kMinimum = 20;

} // namespace

class TestPalette : public QObject {
    Q_OBJECT
private slots:
    void rolesStayApartForEveryEye_data() { addPaletteRows(); }

    void rolesStayApartForEveryEye()
    {
        QFETCH(Palette, palette);
        QFETCH(bool, graphEra);
        use(palette, graphEra);
        const Theme &t = Theme::instance();
        // Released sockets are told apart by their dashed outline and grey text, not their fill.
        const std::array roles{GcRole::idle,    GcRole::inflight, GcRole::candidate,   GcRole::not_cycle,
                               GcRole::garbage, GcRole::leaked,   GcRole::scc_pending, GcRole::maybe_cycle};
        for (std::size_t i = 0; i < roles.size(); ++i)
            for (std::size_t j = i + 1; j < roles.size(); ++j) {
                // maybe_cycle belongs to the classic collector, the vertex stack to the graph's.
                if (graphEra && (roles[i] == GcRole::maybe_cycle || roles[j] == GcRole::maybe_cycle))
                    continue;
                for (const Vision &v : kVisions) {
                    const double d = distance(t.roleColor(roles[i]), t.roleColor(roles[j]), v.m);
                    QVERIFY2(d >= kMinimum, qPrintable(QStringLiteral("%1 and %2 under %3: ΔE %4")
                                                           .arg(QLatin1String(gc_role_name(roles[i]).data()))
                                                           .arg(QLatin1String(gc_role_name(roles[j]).data()))
                                                           .arg(QLatin1String(v.name))
                                                           .arg(d, 0, 'f', 1)));
                }
            }
        use(Palette::normal, false);
    }

    // A socket's name is read from the last row: its text keeps WCAG's 4.5:1 on its fill, the
    // released socket's muted grey included.
    void roleTextReadsOnItsFill_data() { addPaletteRows(); }

    void roleTextReadsOnItsFill()
    {
        QFETCH(Palette, palette);
        QFETCH(bool, graphEra);
        use(palette, graphEra);
        const Theme &t = Theme::instance();
        for (GcRole role : kAllRoles) {
            const double ratio = contrast(t.roleColor(role), t.roleTextColor(role));
            QVERIFY2(
                ratio >= 4.5,
                qPrintable(
                    QStringLiteral("%1: %2:1").arg(QLatin1String(gc_role_name(role).data())).arg(ratio, 0, 'f', 2)));
        }
        QVERIFY(contrast(t.background(), t.foreground()) >= 7);
        QVERIFY(contrast(t.background(), t.edgeColor()) >= 4.5);
        QVERIFY(contrast(t.background(), t.ink()) >= 7);
        QVERIFY(contrast(t.background(), t.mutedText()) >= 4.5);
        QVERIFY(contrast(t.panelColor(), t.foreground()) >= 7);
        use(Palette::normal, false);
    }

    // On the dark ground a socket is seen by its fill, not only by its outline: every role's
    // fill stays apart from the ground for every eye.
    void darkFillsStandOutFromTheGround()
    {
        for (bool graph : {false, true}) {
            use(Palette::dark, graph);
            const Theme &t = Theme::instance();
            for (GcRole role : kAllRoles)
                for (const Vision &v : kVisions) {
                    const double d = distance(t.roleColor(role), t.background(), v.m);
                    QVERIFY2(d >= kMinimum, qPrintable(QStringLiteral("%1 under %2: ΔE %3")
                                                           .arg(QLatin1String(gc_role_name(role).data()))
                                                           .arg(QLatin1String(v.name))
                                                           .arg(d, 0, 'f', 1)));
                }
        }
        use(Palette::normal, false);
    }

    // The widgets go dark with the graph, and back to the style's own palette after.
    void theDarkThemeDarkensTheWidgets()
    {
        const QPalette standard;
        use(Palette::dark, false);
        const QPalette dark = Theme::instance().widgetPalette(standard);
        QVERIFY(dark.color(QPalette::Window).lightnessF() < 0.2);
        QVERIFY(contrast(dark.color(QPalette::Window), dark.color(QPalette::WindowText)) >= 7);
        QVERIFY(contrast(dark.color(QPalette::Base), dark.color(QPalette::Text)) >= 7);
        use(Palette::normal, false);
        QCOMPARE(Theme::instance().widgetPalette(standard), standard);
    }

    // Colour is never the only signal: a dead socket is hatched, a leaked one cross-hatched
    // (more ink), the other roles plain; the mark stays inside the node's outline.
    void verdictsHaveAShapeToo()
    {
        auto marked_pixels = [](GcRole role) {
            QImage image(120, 60, QImage::Format_RGB32);
            image.fill(Qt::white);
            QPainter p(&image);
            QPainterPath box;
            box.addRoundedRect(QRectF(20, 10, 80, 40), 6, 6);
            p.fillPath(box, Qt::red);
            drawRoleMark(p, box, role, Qt::black, 10);
            p.end();
            int inside = 0, outside = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x) {
                    const QRgb px = image.pixel(x, y);
                    if (box.contains(QPointF(x + 0.5, y + 0.5)))
                        inside += px != qRgb(255, 0, 0) ? 1 : 0;
                    else
                        outside += px != qRgb(255, 255, 255) ? 1 : 0;
                }
            return std::pair{inside, outside};
        };
        const auto dead = marked_pixels(GcRole::garbage);
        const auto leaked = marked_pixels(GcRole::leaked);
        QVERIFY2(dead.first > 80 * 40 / 6, qPrintable(QString::number(dead.first)));
        QVERIFY(leaked.first > dead.first * 3 / 2);
        QVERIFY(dead.second < 40 && leaked.second < 40); // antialiased edges only
        for (GcRole plain : {GcRole::inflight, GcRole::not_cycle, GcRole::candidate, GcRole::idle})
            QCOMPARE(marked_pixels(plain).first, 0);
    }
};

QTEST_MAIN(TestPalette)
#include "test_palette.moc"
