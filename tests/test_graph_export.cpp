// SPDX-License-Identifier: GPL-3.0-or-later
// Slide-ready pictures of the graph: every drawn item inside the picture (fd curves and labels
// too), the title line and narration as text in the SVG, the file name of scene, variant and
// step, the 2x PNG, and the headless `--export-graph`. Runs offscreen (QT_QPA_PLATFORM=offscreen).
#include "graph/collector_badge_item.h"
#include "graph/edge_item.h"
#include "graph/fd_edge_item.h"
#include "graph/graph_export.h"
#include "graph/graph_panel.h"
#include "graph/graph_scene.h"
#include "graph/legend_bar.h"
#include "graph/scc_hull_item.h"
#include "graph/socket_item.h"
#include "inflight/event.hpp"
#include "inflight/graph_snapshot.hpp"
#include "main_window.h"
#include "player_controller.h"

#include <QFile>
#include <QGraphicsItem>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <algorithm>
#include <cmath>

namespace {

QString triangle() { return QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/selftest-triangle-stream.scn"); }

// Every <text> element's characters, in document order.
QStringList svgTexts(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QXmlStreamReader xml(&f);
    QStringList texts;
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text"))
            texts << xml.readElementText(QXmlStreamReader::IncludeChildElements);
    if (xml.hasError())
        return {QStringLiteral("XML error: ") + xml.errorString()};
    return texts;
}

QProcessEnvironment offscreenEnv(const QString &config)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), config); // no settings from the user
    return env;
}

// The socket the scene labels `label`, at the controller's step (npos: none).
std::uint32_t socketLabelled(PlayerController &c, const char *label)
{
    const inflight::GraphSnapshot g = inflight::snapshot_graph(c.sim().kernel());
    for (const auto &n : g.nodes)
        if (g.label_of(n) == label)
            return n.sock;
    return inflight::npos;
}

} // namespace

class TestGraphExport : public QObject {
    Q_OBJECT

private slots:
    void pictureHoldsEveryItemIncludingFdCurves_data()
    {
        QTest::addColumn<QString>("scene_file");
        QTest::addColumn<int>("step");
        QTest::newRow("triangle") << triangle() << 160;
        // fd curves that sag below the layout's box
        QTest::newRow("welcome") << QStringLiteral(INFLIGHT_SOURCE_DIR "/resources/welcome.scn") << 90;
    }

    void pictureHoldsEveryItemIncludingFdCurves()
    {
        QFETCH(QString, scene_file);
        QFETCH(int, step);
        PlayerController c;
        GraphPanel panel(c);
        QVERIFY(c.openFile(scene_file));
        c.seek(quint64(step));
        QVERIFY(panel.waitForLayout());
        GraphScene &scene = *panel.scene();
        QVERIFY(!scene.fdEdgeItems().isEmpty());

        const QRectF bounds = graph_export::graphBounds(scene);
        QRectF items;
        for (const QGraphicsItem *item : scene.items())
            if (item->isVisible()) {
                QVERIFY2(bounds.contains(item->sceneBoundingRect()),
                         qPrintable(QStringLiteral("item outside the picture")));
                items |= item->sceneBoundingRect();
            }
        // The picture is the items' extent and a margin, not a fixed box around the layout.
        QVERIFY(bounds.width() - items.width() < 40 && bounds.height() - items.height() < 40);

        // Rendered at 1x without captions, with and without the outermost fd curve: the pixels
        // that differ are the curve's ink, and they span its whole extent (none cut off).
        FdEdgeItem *outer = nullptr;
        for (FdEdgeItem *e : scene.fdEdgeItems())
            if (!outer || e->sceneBoundingRect().left() < outer->sceneBoundingRect().left())
                outer = e;
        QTemporaryDir dir;
        const QString with = dir.filePath(QStringLiteral("with.png")),
                      without = dir.filePath(QStringLiteral("without.png"));
        QString error;
        QVERIFY2(graph_export::writePng(scene, with, 1.0, &error), qPrintable(error));
        outer->setOpacity(0); // still visible to the bounds, not drawn
        QVERIFY2(graph_export::writePng(scene, without, 1.0, &error), qPrintable(error));
        outer->setOpacity(1);
        const QImage a(with), b(without);
        QCOMPARE(a.size(), bounds.size().toSize());
        QCOMPARE(b.size(), a.size());
        QRect ink;
        for (int y = 0; y < a.height(); ++y)
            for (int x = 0; x < a.width(); ++x)
                if (const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
                    std::max({std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)),
                              std::abs(qBlue(p) - qBlue(q))}) > 48) // not an antialiasing shade
                    ink |= QRect(x, y, 1, 1);
        QVERIFY(!ink.isEmpty());
        // Where the curve lies in the picture: its scene extent moved by the graph's place (the
        // shape is the wider hover outline: a few pixels of slack).
        const QRectF curve = outer->mapToScene(outer->shape()).boundingRect().translated(-bounds.topLeft());
        const QRect inside = a.rect().adjusted(1, 1, -1, -1);
        QVERIFY2(inside.contains(ink), qPrintable(QStringLiteral("ink %1,%2 %3x%4 touches the edge of %5x%6")
                                                      .arg(ink.x())
                                                      .arg(ink.y())
                                                      .arg(ink.width())
                                                      .arg(ink.height())
                                                      .arg(a.width())
                                                      .arg(a.height())));
        QVERIFY2(std::abs(ink.left() - curve.left()) < 10 && std::abs(ink.right() - curve.right()) < 10 &&
                     std::abs(ink.top() - curve.top()) < 10 && std::abs(ink.bottom() - curve.bottom()) < 10,
                 qPrintable(QStringLiteral("ink %1,%2 %3x%4 vs curve %5,%6 %7x%8")
                                .arg(ink.x())
                                .arg(ink.y())
                                .arg(ink.width())
                                .arg(ink.height())
                                .arg(curve.x())
                                .arg(curve.y())
                                .arg(curve.width())
                                .arg(curve.height())));
    }

    // mixed_lowpoint on 6.18 at the step unix_vertex_dead() judges u1: the walk's numbers on
    // u0, u1 and u2 (u1 and u2 keep different scc_index values: the defect) are on the graph,
    // the edge u1 -> u2 it finds is marked, and the SVG carries the numbers as text.
    void walkNumbersAtTheVerdictAreOnTheGraphAndInTheSvg()
    {
        PlayerController c;
        GraphPanel panel(c);
        QVERIFY(c.openFile(QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/selftest-mixed-lowpoint-stream.scn")));
        auto id = [&c](const char *label) { return socketLabelled(c, label); };
        // The step that judges u1.
        bool found = false;
        while (!c.atEnd()) {
            c.stepInto();
            const inflight::Event *e = c.currentEvent();
            if (e && e->kind == inflight::EventKind::vertex_dead && e->a == id("u1")) {
                found = true;
                break;
            }
        }
        QVERIFY(found);
        QVERIFY(panel.waitForLayout());
        GraphScene *scene = panel.scene();
        for (const auto &[label, numbers] :
             {std::pair{"u0", "2 / 2"}, std::pair{"u1", "3 / 2"}, std::pair{"u2", "4 / 3"}}) {
            const CollectorBadgeItem *mark = scene->walkMarkOf(id(label));
            QVERIFY2(mark, label);
            QCOMPARE(mark->numbersText(), QString::fromLatin1(numbers));
            QVERIFY(mark->placeText().isEmpty()); // cut off the stack with its SCC
            QVERIFY(mark->isVisible());
        }
        QVERIFY(!scene->walkMarkOf(id("u3"))); // not visited yet
        int examined = 0;
        for (const QGraphicsItem *item : scene->items())
            if (item->type() == EdgeItem::Type && static_cast<const EdgeItem *>(item)->isExamined()) {
                const auto &copy = static_cast<const EdgeItem *>(item)->copy();
                QCOMPARE(copy.from, id("u1"));
                QCOMPARE(copy.effective_to, id("u2"));
                ++examined;
            }
        QVERIFY(examined > 0);

        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("verdict.svg"));
        QString error;
        QVERIFY2(panel.exportSvg(svg, &error), qPrintable(error));
        const QStringList texts = svgTexts(svg);
        for (const char *numbers : {"2 / 2", "3 / 2", "4 / 3"})
            QVERIFY2(texts.contains(QString::fromLatin1(numbers)), qPrintable(texts.join(QLatin1Char('|'))));

        // Past the walk: no numbers, no examined edge.
        c.seek(c.totalSteps());
        QVERIFY(panel.waitForLayout());
        QVERIFY(!scene->walkMarkOf(id("u1")));
        for (const QGraphicsItem *item : scene->items())
            QVERIFY(item->type() != EdgeItem::Type || !static_cast<const EdgeItem *>(item)->isExamined());
    }

    void sccHullsCarryTheVerdictOnTheGraphAndInTheSvg()
    {
        PlayerController c;
        GraphPanel panel(c);
        QVERIFY(c.openFile(QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/selftest-mixed-lowpoint-stream.scn")));
        auto id = [&c](const char *label) { return socketLabelled(c, label); };
        bool judging = false, verdict = false;
        while (!c.atEnd() && !verdict) {
            c.stepInto();
            const inflight::Event *e = c.currentEvent();
            const bool judged = e && e->kind == inflight::EventKind::vertex_dead && e->a == id("u0");
            judging |= judged;
            verdict = e && e->kind == inflight::EventKind::scc_verdict && e->a == id("u0");
            if (judged) {
                // Cut off the stack and being judged: a hull already, its verdict not yet given.
                QVERIFY(panel.waitForLayout());
                QCOMPARE(panel.scene()->sccHulls().size(), std::size_t(1));
                QVERIFY2(panel.scene()->sccHulls()[0]->caption().endsWith(QStringLiteral("judging")),
                         qPrintable(panel.scene()->sccHulls()[0]->caption()));
            }
        }
        QVERIFY(judging && verdict);
        QVERIFY(panel.waitForLayout());
        GraphScene *scene = panel.scene();
        QCOMPARE(scene->sccHulls().size(), std::size_t(1));
        const SccHullItem *hull = scene->sccHulls()[0];
        QVERIFY(hull->isVisible());
        // The verdict's true reason: u1's copy sits with u2, which kept another scc_index.
        QCOMPARE(hull->caption(), QStringLiteral("SCC of u0 \u00b7 alive: u1's file is with u2, other scc_index"));
        for (const char *member : {"u0", "u1", "u2"})
            QVERIFY2(hull->shape().contains(scene->socketItem(id(member))->sceneBox().center()), member);
        QVERIFY(!hull->shape().contains(scene->socketItem(id("u3"))->sceneBox().center()));
        QVERIFY(scene->sceneRect().contains(hull->captionRect()));

        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("verdict.svg"));
        QString error;
        QVERIFY2(panel.exportSvg(svg, &error), qPrintable(error));
        QVERIFY2(svgTexts(svg).contains(hull->caption()), qPrintable(svgTexts(svg).join(QLatin1Char('|'))));

        c.seek(c.totalSteps()); // past the collections: no hull
        QVERIFY(panel.waitForLayout());
        QVERIFY(scene->sccHulls().empty());
    }

    // A hull takes in its members and nothing else, whatever the layout put between them: at
    // every verdict of the triangle lesson (presented: the layout that puts p1 between u1 and
    // u2) no other socket's box is inside a hull.
    void aHullTakesInItsMembersOnly()
    {
        PlayerController c;
        GraphPanel panel(c);
        panel.resize(950, 700);
        panel.setPresentation(true, MainWindow::kPresentationLabelPixels);
        QVERIFY(c.openFile(QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/selftest-triangle-stream.scn")));
        int verdicts = 0;
        while (!c.atEnd()) {
            c.stepInto();
            const inflight::Event *e = c.currentEvent();
            if (!e || e->kind != inflight::EventKind::scc_verdict)
                continue;
            ++verdicts;
            QVERIFY(panel.waitForLayout());
            GraphScene *scene = panel.scene();
            QVERIFY(!scene->sccHulls().empty());
            for (const SccHullItem *hull : scene->sccHulls()) {
                const auto &members = hull->scc().members;
                const inflight::GraphSnapshot g = inflight::snapshot_graph(c.sim().kernel());
                for (const inflight::SnapshotNode &n : g.nodes) {
                    const SocketItem *item = scene->socketItem(n.sock);
                    if (!item || !item->isVisible())
                        continue;
                    const bool member = std::find(members.begin(), members.end(), n.sock) != members.end();
                    QVERIFY2(
                        hull->shape().contains(item->sceneBox().center()) == member,
                        qPrintable(QStringLiteral("%1 in %2")
                                       .arg(QString::fromUtf8(g.label_of(n).data(), qsizetype(g.label_of(n).size())),
                                            hull->caption())));
                }
            }
        }
        QCOMPARE(verdicts, 2);
    }

    void classicCandidatesShowTheirCountsAndTheScansPlace()
    {
        PlayerController c;
        GraphPanel panel(c);
        QVERIFY(c.openFile(QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/cycle-kept-alive-by-open-fd.scn")));
        c.setEra(inflight::GcEra::classic);
        auto id = [&c](const char *label) { return socketLabelled(c, label); };
        // The last collection's decrement of b while a's queue is scanned.
        std::uint64_t decrement = 0;
        std::uint32_t scanned = inflight::npos;
        while (!c.atEnd()) {
            c.stepInto();
            const inflight::Event *e = c.currentEvent();
            if (e && e->kind == inflight::EventKind::scan)
                scanned = e->a;
            if (e && e->kind == inflight::EventKind::inflight_change && e->fn == inflight::KFn::dec_inflight &&
                e->a == id("b"))
                decrement = c.position();
        }
        QVERIFY(decrement > 0);
        c.seek(decrement);
        QVERIFY(panel.waitForLayout());
        GraphScene *scene = panel.scene();
        const CollectorBadgeItem *b = scene->badgeOf(id("b"));
        QVERIFY(b && !b->isWalkMark());
        QCOMPARE(b->numbersText(), QStringLiteral("1 / 0")); // file refs 1, inflight taken down to 0
        QVERIFY(scene->badgeOf(id("a")));
        QCOMPARE(scene->scanCursorSocket(), id("a")); // b's copy sits in a's queue
        QVERIFY(scanned != inflight::npos);
        const QStringList legend = panel.legend()->entryTexts();
        QVERIFY2(legend.contains(QStringLiteral("candidate: file refs / inflight")), qPrintable(legend.join(u'|')));

        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("decrement.svg"));
        QString error;
        QVERIFY2(panel.exportSvg(svg, &error), qPrintable(error));
        QVERIFY(svgTexts(svg).contains(QStringLiteral("1 / 0")));

        c.seek(c.totalSteps()); // after the collection: no counts, no cursor
        QVERIFY(panel.waitForLayout());
        QVERIFY(!scene->badgeOf(id("b")));
        QCOMPARE(scene->scanCursorSocket(), inflight::npos);
    }

    void aMoveRingsWhatItChangedUntilTheNext()
    {
        PlayerController c;
        GraphPanel panel(c);
        QVERIFY(c.openText(QStringLiteral("scene \"r\"\nsocketpair a b\nsocketpair c d\nsocketpair e f\n"
                                          "send b fds=c\nclose f\n"),
                           QStringLiteral("r.scn")));
        auto id = [&c](const char *label) { return socketLabelled(c, label); };
        auto ringed = [&panel] {
            std::vector<std::uint32_t> on;
            for (SocketItem *item : panel.scene()->socketItems())
                if (item->changed())
                    on.push_back(item->sock());
            std::sort(on.begin(), on.end());
            return on;
        };
        auto statementEnd = [&c](int line) {
            c.first();
            while (!c.atEnd()) {
                c.stepInto();
                const inflight::Event *e = c.currentEvent();
                if (e && e->kind == inflight::EventKind::stmt_end && e->scene_line == std::uint32_t(line))
                    return c.position();
            }
            return std::uint64_t(0);
        };
        const std::uint64_t before_send = statementEnd(4), after_send = statementEnd(5), after_close = statementEnd(6);
        QVERIFY(before_send && after_send > before_send && after_close > after_send);
        c.seek(before_send);
        QVERIFY(panel.waitForLayout());
        c.seek(after_send);
        QVERIFY(panel.waitForLayout());
        // c went in flight; a's queue holds it. b, d, e and f are as they were.
        const std::vector<std::uint32_t> sent = ringed();
        QVERIFY2(sent == (std::vector<std::uint32_t>{std::min(id("a"), id("c")), std::max(id("a"), id("c"))}),
                 qPrintable(QString::number(sent.size())));
        QCOMPARE(panel.scene()->changedSockets().size(), std::size_t(2));
        // The next move's marks replace them.
        c.seek(after_close);
        QVERIFY(panel.waitForLayout());
        QVERIFY(!ringed().empty());
        QVERIFY(!panel.scene()->socketItem(id("c"))->changed());
        // A jump across the whole run changes too much to point at.
        c.seek(0);
        QVERIFY(panel.waitForLayout());
        QVERIFY(ringed().empty());
    }

    void titleAndNarrationAreTextInTheSvg()
    {
        PlayerController c;
        GraphPanel panel(c);
        QVERIFY(c.openFile(triangle()));
        c.seek(160);
        QVERIFY(panel.waitForLayout());
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("g.svg"));
        graph_export::Captions captions;
        captions.title = graph_export::titleLine(QStringLiteral("Triangle"), 160, 261, 30);
        QCOMPARE(captions.title, QStringLiteral("Triangle — step 160 of 261 — line 30"));
        captions.narration = c.narration();
        QVERIFY(!captions.narration.isEmpty());
        captions.legend = panel.legend();
        QString error;
        QVERIFY2(panel.exportSvg(svg, &error, captions), qPrintable(error));
        const QStringList texts = svgTexts(svg);
        QVERIFY2(texts.contains(captions.title), qPrintable(texts.join(QLatin1Char('|'))));
        // The narration, wrapped onto lines, reads back as the same words.
        const QString joined = texts.join(QLatin1Char(' ')).simplified();
        QVERIFY2(joined.contains(captions.narration.simplified()), qPrintable(joined));
        // Socket labels are text too.
        QVERIFY(std::any_of(texts.begin(), texts.end(), [](const QString &t) { return t.contains(QLatin1Char('a')); }));
    }

    void defaultFileNameIsSceneVariantAndStep()
    {
        QCOMPARE(graph_export::defaultFileName(triangle(), QString(), 160, QStringLiteral("png")),
                 QStringLiteral("selftest-triangle-stream-step160.png"));
        QCOMPARE(graph_export::defaultFileName(QStringLiteral("/x/bug.scn"), QStringLiteral("fixed"), 7,
                                               QStringLiteral("svg")),
                 QStringLiteral("bug-fixed-step7.svg"));
        QCOMPARE(graph_export::defaultFileName(QString(), QString(), 0, QStringLiteral("png")),
                 QStringLiteral("inflight-graph-step0.png"));
    }

    void pngAtTwiceTheSize()
    {
        PlayerController c;
        GraphPanel panel(c);
        QVERIFY(c.openFile(triangle()));
        c.seek(160);
        QVERIFY(panel.waitForLayout());
        QTemporaryDir dir;
        const QString one = dir.filePath(QStringLiteral("1.png")), two = dir.filePath(QStringLiteral("2.png"));
        graph_export::Captions captions;
        captions.title = QStringLiteral("Triangle");
        QVERIFY(panel.exportPng(one, nullptr, captions, 1.0));
        QVERIFY(panel.exportPng(two, nullptr, captions, 2.0));
        const QImage a(one), b(two);
        QVERIFY(!a.isNull() && !b.isNull());
        QVERIFY2(
            std::abs(b.width() - 2 * a.width()) <= 1 && std::abs(b.height() - 2 * a.height()) <= 1,
            qPrintable(QStringLiteral("%1x%2 vs %3x%4").arg(a.width()).arg(a.height()).arg(b.width()).arg(b.height())));
    }

    void headlessExportWritesPngAndSvg()
    {
        QTemporaryDir tmp;
        for (const QString &name : {QStringLiteral("t.png"), QStringLiteral("t.svg")}) {
            const QString out = tmp.filePath(name);
            QProcess app;
            app.setProcessEnvironment(offscreenEnv(tmp.path()));
            app.start(QStringLiteral(INFLIGHT_APP), {triangle(), QStringLiteral("--step"), QStringLiteral("160"),
                                                     QStringLiteral("--export-graph"), out});
            QVERIFY(app.waitForFinished(25000));
            QVERIFY2(app.exitCode() == 0, app.readAllStandardError().constData());
            if (name.endsWith(QLatin1String(".png"))) {
                const QImage image(out);
                QVERIFY(!image.isNull());
                QVERIFY2(image.width() > 600 && image.height() > 400,
                         qPrintable(QStringLiteral("%1x%2").arg(image.width()).arg(image.height())));
            } else {
                const QStringList texts = svgTexts(out);
                QVERIFY2(std::any_of(texts.begin(), texts.end(),
                                     [](const QString &t) { return t.contains(QStringLiteral("step 160 of")); }),
                         qPrintable(texts.join(QLatin1Char('|'))));
            }
        }
    }

    void headlessExportToAnUnwritablePathFails()
    {
        QTemporaryDir tmp;
        const QString out = tmp.filePath(QStringLiteral("missing/dir/t.png"));
        QProcess app;
        app.setProcessEnvironment(offscreenEnv(tmp.path()));
        app.start(QStringLiteral(INFLIGHT_APP),
                  {triangle(), QStringLiteral("--step"), QStringLiteral("160"), QStringLiteral("--export-graph"), out});
        QVERIFY(app.waitForFinished(25000));
        QVERIFY(app.exitCode() != 0);
        const QString err = QString::fromLocal8Bit(app.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("No such file or directory")), qPrintable(err));
        QVERIFY(!QFile::exists(out));
    }
};

QTEST_MAIN(TestGraphExport)
#include "test_graph_export.moc"
