// SPDX-License-Identifier: GPL-3.0-or-later
// The docks around the graph: every model passes QAbstractItemModelTester while a whole scene
// is stepped through; the lists show the kernel's lists in their real order (with the restore
// walk's cursor), the graph walk's stacks and SCC verdicts and the hitlist; the algorithm dock
// follows algo_line and narrates; the scene dock highlights the statement and toggles
// breakpoints from its gutter; the inspector shows the selected socket; the event log counts,
// filters and seeks.
#include "docks/algorithm_dock.h"
#include "docks/algorithm_view.h"
#include "docks/dock_common.h"
#include "docks/edge_stack_model.h"
#include "docks/event_filter_proxy.h"
#include "docks/event_log_dock.h"
#include "docks/event_log_model.h"
#include "docks/gc_list_model.h"
#include "docks/hitlist_model.h"
#include "docks/inspector_dock.h"
#include "docks/lists_dock.h"
#include "docks/scc_model.h"
#include "docks/scene_dock.h"
#include "docks/vertex_stack_model.h"
#include "docks/watches_dock.h"
#include "editor/scene_editor.h"
#include "player_controller.h"
#include "theme.h"
#include "wait_index.hpp"

#include "inflight/algorithm_listing.hpp"
#include "inflight/kernel.hpp"
#include "inflight/narrate.hpp"
#include "inflight/parser.hpp"
#include "inflight/run_summary.hpp"
#include "inflight/scene_cursor.hpp"
#include "inflight/simulation.hpp"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

#include <memory>

using namespace inflight;
using inflight::test::waitIndex;
using namespace docks;

namespace {

// Scenes small enough that the app steps into their collections (the seed scenes, with tens of
// thousands of statements, are fast-forwarded and checked elsewhere).
bool stepsThroughEveryCollection(const QString &file)
{
    const ParseResult r = load_scene_file(INFLIGHT_SOURCE_DIR "/scenes/" + file.toStdString());
    return r.ok() && !PlayerController::fastForwardsByDefault(r.scene) && r.scene.settings.cpus == 1;
}

const char *kTriangle = "socketpair a a2\nsocketpair b b2\nsocketpair c c2\nsend a2 fds=b\nsend b2 fds=c\n"
                        "send c2 fds=a\nclose a b c\nclose a2 b2 c2\n";

QString sceneFile(const char *name) { return QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes/") + QLatin1String(name); }

// Opens a scene ("file:NAME" from scenes/, or scene text) under `era` and waits for the index.
bool open(PlayerController &c, const QString &scene, GcEra era)
{
    QStringList errors;
    const bool ok = scene.startsWith(QLatin1String("file:")) ? c.openFile(sceneFile(qPrintable(scene.mid(5))), &errors)
                                                             : c.openText(scene, QStringLiteral("test"), &errors);
    if (!ok) {
        qWarning() << errors;
        return false;
    }
    c.setEra(era);
    c.first();
    return waitIndex(c);
}

std::uint32_t sockId(const PlayerController &c, const char *label)
{
    const auto id = findLabel(c.sim().kernel(), QString::fromLatin1(label));
    return id ? *id : npos;
}

// The model's rows as the test compares them: socket id per row, npos for the cursor.
std::vector<std::uint32_t> rowsOf(const DockListModel &m)
{
    std::vector<std::uint32_t> out;
    for (int r = 0; r < m.rowCount(); ++r) {
        const QModelIndex i = m.index(r);
        if (i.data(RowKindRole).toInt() == static_cast<int>(DockListModel::RowKind::cursor))
            out.push_back(npos);
        else
            out.push_back(m.row(r).id);
    }
    return out;
}

std::vector<std::uint32_t> kernelList(const GcList &l)
{
    std::vector<std::uint32_t> out;
    for (const GcLink &g : l)
        out.push_back(g.is_cursor ? npos : static_cast<const UnixSock &>(g).id);
    return out;
}

struct AllDocks {
    explicit AllDocks(PlayerController &c) : lists(c), algorithm(c), scene(c), inspector(c), log(c) { }
    ListsDock lists;
    AlgorithmDock algorithm;
    SceneDock scene;
    InspectorDock inspector;
    EventLogDock log;
};

void addEras()
{
    QTest::addColumn<QString>("scene");
    QTest::addColumn<int>("era");
    const std::pair<const char *, QString> scenes[] = {
        {"triangle", QString::fromLatin1(kTriangle)},
        {"listener", QStringLiteral("file:selftest-triangle-listener.scn")}};
    for (const auto &[name, text] : scenes)
        for (GcEra era : {GcEra::classic, GcEra::async, GcEra::graph})
            QTest::newRow(
                qPrintable(QStringLiteral("%1-%2").arg(QLatin1String(name), QString::fromUtf8(era_name(era).data()))))
                << text << static_cast<int>(era);
}

} // namespace

class TestDocks : public QObject {
    Q_OBJECT
private slots:
    void pseudoCodeWrapsNamesAtTheirUnderscores()
    {
        const auto [text, comment] = docks::listingText("if !unix_graph_maybe_cyclic: done  # nothing to do");
        // Drawn as it reads: the break opportunities are invisible.
        QCOMPARE(QString(text).remove(QChar(0x200B)),
                 QStringLiteral("if !unix_graph_maybe_cyclic: done  # nothing to do"));
        QCOMPARE(text.mid(comment, 3), QStringLiteral("  #"));
        QCOMPARE(docks::listingText("__unix_gc():").first, QStringLiteral("__unix_\u200Bgc():"));
        // Laid out narrower than the name, as the presentation view's large font does: every
        // line after the first starts after a space or an underscore, never inside a part.
        QFont f;
        f.setPixelSize(28);
        QTextLayout l(text, f);
        QTextOption o;
        o.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
        l.setTextOption(o);
        const int width = QFontMetrics(f).horizontalAdvance(QStringLiteral("unix_graph_maybe_cyc"));
        l.beginLayout();
        for (QTextLine line = l.createLine(); line.isValid(); line = l.createLine())
            line.setLineWidth(width);
        l.endLayout();
        QVERIFY(l.lineCount() >= 3);
        for (int i = 1; i < l.lineCount(); ++i) {
            const int start = l.lineAt(i).textStart();
            const QChar before = text[start - 1];
            QVERIFY2(before == u' ' || before == QChar(0x200B), qPrintable(text.left(start) + QStringLiteral(" | ")));
        }
    }

    void initTestCase()
    {
        Theme::instance().setFontScale(1.0);
        Theme::instance().setHighContrast(false);
    }

    // ---- every model, checked by QAbstractItemModelTester while the whole scene plays ----------
    void modelsPassTheTester_data() { addEras(); }
    void modelsPassTheTester()
    {
        QFETCH(QString, scene);
        QFETCH(int, era);
        PlayerController c;
        AllDocks d(c);
        using Mode = QAbstractItemModelTester::FailureReportingMode;
        std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
        std::vector<QAbstractItemModel *> models{d.lists.gcList(ListId::gc_inflight_list),
                                                 d.lists.gcList(ListId::gc_candidates),
                                                 d.lists.gcList(ListId::not_cycle_list),
                                                 d.lists.hitlist(),
                                                 d.lists.vertexStack(),
                                                 d.lists.edgeStack(),
                                                 d.lists.sccs(),
                                                 d.log.model(),
                                                 d.log.proxy()};
        for (QAbstractItemModel *m : models)
            testers.push_back(std::make_unique<QAbstractItemModelTester>(m, Mode::QtTest));
        QVERIFY(open(c, scene, static_cast<GcEra>(era)));
        QCOMPARE(d.log.model()->rowCount(), static_cast<int>(c.timeline().size()));
        // A selection and a filter while stepping: rows change marks and the proxy re-filters.
        c.selectSocket(0);
        d.log.kindBox()->setCurrentIndex(4); // Lists
        int steps = 0;
        while (!c.atEnd()) {
            c.stepInto();
            ++steps;
            if (steps == 40) {
                d.log.kindBox()->setCurrentIndex(0);
                d.log.selectedButton()->setChecked(true);
            }
            if (QTest::currentTestFailed())
                return;
        }
        QVERIFY(steps > 50);
        // Backwards and jumps.
        c.seek(c.totalSteps() / 2);
        c.back();
        c.backStatement();
        c.first();
        c.last();
        // Another era on the same scene resets everything.
        c.setEra(static_cast<GcEra>((era + 1) % 3));
        QVERIFY(waitIndex(c));
        c.last();
        QCOMPARE(d.log.model()->rowCount(), static_cast<int>(c.timeline().size()));
    }

    // ---- classic lists: the kernel's order, the cursor, the touched row, the selection ---------
    void classicListsInRealOrder_data()
    {
        QTest::addColumn<QString>("scene");
        QTest::addColumn<int>("era");
        for (GcEra era : {GcEra::classic, GcEra::async}) {
            const QString e = QString::fromUtf8(era_name(era).data());
            QTest::newRow(qPrintable(QStringLiteral("triangle-") + e)) << QString::fromLatin1(kTriangle) << int(era);
            // Every scene: the restore walk's tail moves (chain-freed-without-gc), listeners, OOB.
            for (const QString &f :
                 QDir(QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes")).entryList({QStringLiteral("*.scn")}))
                if (stepsThroughEveryCollection(f)) // the seed scenes are fast-forwarded
                    QTest::newRow(qPrintable(f + QLatin1Char('-') + e)) << QStringLiteral("file:") + f << int(era);
        }
    }
    void classicListsInRealOrder()
    {
        QFETCH(QString, scene);
        QFETCH(int, era);
        PlayerController c;
        ListsDock lists(c);
        std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
        for (QAbstractItemModel *m : std::initializer_list<QAbstractItemModel *>{
                 lists.gcList(ListId::gc_inflight_list), lists.gcList(ListId::gc_candidates),
                 lists.gcList(ListId::not_cycle_list), lists.hitlist()})
            testers.push_back(
                std::make_unique<QAbstractItemModelTester>(m, QAbstractItemModelTester::FailureReportingMode::QtTest));
        QVERIFY(open(c, scene, static_cast<GcEra>(era)));
        QVERIFY(!lists.showingGraph());
        // A tail move in the restore walk (and each cursor step) is one row move, not a reset.
        QSignalSpy moved(lists.gcList(ListId::gc_candidates), &QAbstractItemModel::rowsMoved);
        QSignalSpy reset(lists.gcList(ListId::gc_candidates), &QAbstractItemModel::modelReset);
        int tail_moves = 0;
        const std::uint32_t sel = sockId(c, "a") != npos ? sockId(c, "a") : 0;
        c.selectSocket(sel);
        bool saw_cursor = false, saw_hitlist = false, saw_candidates = false;
        while (!c.atEnd()) {
            c.stepInto();
            const Kernel &k = c.sim().kernel();
            const std::pair<ListId, const GcList *> lists_of[] = {{ListId::gc_inflight_list, &k.gc_inflight_list},
                                                                  {ListId::gc_candidates, &k.gc_candidates},
                                                                  {ListId::not_cycle_list, &k.not_cycle_list}};
            for (const auto &[id, list] : lists_of) {
                const GcListModel &m = *lists.gcList(id);
                QCOMPARE(rowsOf(m), kernelList(*list));
                for (int r = 0; r < m.rowCount(); ++r)
                    if (m.row(r).kind == DockListModel::RowKind::sock)
                        QCOMPARE(m.index(r).data(SelectedRole).toBool(), m.row(r).id == sel);
            }
            const auto cand = kernelList(k.gc_candidates);
            if (std::find(cand.begin(), cand.end(), npos) != cand.end()) {
                saw_cursor = true;
                // The cursor row says so, and is marked when it just moved.
                const GcListModel &m = *lists.gcList(ListId::gc_candidates);
                const int r = static_cast<int>(std::find(cand.begin(), cand.end(), npos) - cand.begin());
                QCOMPARE(m.index(r).data().toString(), QStringLiteral("▶ cursor"));
                QCOMPARE(m.index(r).data(TouchedRole).toBool(), c.currentEvent()->kind == EventKind::cursor_move);
            }
            saw_candidates |= !k.gc_candidates.empty();
            // The row a list_move put somewhere is highlighted there.
            const Event &e = *c.currentEvent();
            if (e.kind == EventKind::list_move && e.from == ListId::gc_candidates && e.to == ListId::gc_candidates) {
                ++tail_moves;
                QVERIFY(moved.count() >= tail_moves); // the cursor's steps are row moves too
            }
            if (e.kind == EventKind::list_move && e.to != ListId::hitlist && lists.gcList(e.to)) {
                const GcListModel &m = *lists.gcList(e.to);
                int touched = 0;
                for (int r = 0; r < m.rowCount(); ++r)
                    if (m.index(r).data(TouchedRole).toBool()) {
                        ++touched;
                        QCOMPARE(m.row(r).id, e.a);
                    }
                QCOMPARE(touched, 1);
            }
            // The hitlist: skbs in order, with the files they carry.
            const HitlistModel &h = *lists.hitlist();
            QCOMPARE(h.rowCount(), static_cast<int>(k.hitlist.size()));
            int r = 0;
            for (const SkBuff &skb : k.hitlist) {
                saw_hitlist = true;
                QCOMPARE(h.row(r).id, skb.id);
                QString want = QStringLiteral("skb#%1").arg(skb.id);
                // The files' labels read from the kernel itself (the dock reads a snapshot).
                QStringList carried;
                if (skb.fp)
                    for (const File *f : skb.fp->fp)
                        if (f)
                            carried << (f->sock ? QString::fromStdString(k.label_of(*f->sock))
                                                : QStringLiteral("(non-socket file)"));
                const QString files = carried.join(QStringLiteral(", "));
                if (!files.isEmpty())
                    QVERIFY2(h.index(r).data().toString().endsWith(QStringLiteral(" → ") + files),
                             qPrintable(h.index(r).data().toString()));
                QVERIFY(h.index(r).data().toString().startsWith(want));
                if (e.kind == EventKind::skb_hitlist)
                    QCOMPARE(h.index(r).data(TouchedRole).toBool(), skb.id == e.a);
                ++r;
            }
        }
        QCOMPARE(reset.count(), 0);
        if (scene.contains(QLatin1String("chain-freed")))
            QVERIFY(tail_moves > 0);
        bool any_candidate = false;
        for (const Event &e : c.timeline())
            any_candidate |= e.kind == EventKind::list_move && e.to == ListId::gc_candidates;
        QCOMPARE(saw_candidates, any_candidate);
        if (scene.contains(QLatin1String("triangle")) || scene.startsWith(QLatin1String("socketpair"))) {
            QVERIFY(saw_cursor);
            QVERIFY(saw_hitlist);
        }
    }

    // The triangle under classic, by hand: the order at known steps.
    void classicTriangleAtKnownSteps()
    {
        PlayerController c;
        ListsDock lists(c);
        QVERIFY(open(c, QString::fromLatin1(kTriangle), GcEra::classic));
        c.last();
        const std::uint32_t a = sockId(c, "a"), b = sockId(c, "b"), cc = sockId(c, "c");
        auto step_to = [&](EventKind kind, int nth) {
            c.first();
            int seen = 0;
            while (c.stepInto(), !c.atEnd())
                if (c.currentEvent()->kind == kind && ++seen == nth)
                    return true;
            return false;
        };
        // After the candidates are chosen: b, c, a in gc_inflight_list's order (the lists dock says so).
        QVERIFY(step_to(EventKind::cursor_move, 1));
        QCOMPARE(rowsOf(*lists.gcList(ListId::gc_candidates)), (std::vector<std::uint32_t>{b, npos, cc, a}));
        QVERIFY(step_to(EventKind::cursor_move, 2));
        QCOMPARE(rowsOf(*lists.gcList(ListId::gc_candidates)), (std::vector<std::uint32_t>{b, cc, npos, a}));
        QVERIFY(lists.gcList(ListId::gc_candidates)->index(2).data(TouchedRole).toBool());
        QVERIFY(lists.gcList(ListId::gc_candidates)->index(1).data(TouchedRole).toBool()); // c, passed
        QVERIFY(lists.gcList(ListId::gc_inflight_list)->rowCount() == 0);
        QVERIFY(lists.phaseText().contains(QLatin1String("restore")));
        // The hitlist fills one skb at a time: a's queue holds c's... each carries one socket.
        QVERIFY(step_to(EventKind::skb_hitlist, 3));
        const HitlistModel &h = *lists.hitlist();
        QCOMPARE(h.rowCount(), 3);
        QStringList texts;
        for (int r = 0; r < 3; ++r)
            texts << h.index(r).data().toString();
        QCOMPARE(texts,
                 (QStringList{QStringLiteral("skb#2 → c"), QStringLiteral("skb#3 → a"), QStringLiteral("skb#1 → b")}));
        QVERIFY(h.index(2).data(TouchedRole).toBool());
        // Clicking a row selects its socket.
        lists.resize(400, 900);
        lists.show();
        QVERIFY(QTest::qWaitForWindowExposed(&lists));
        QListView *v = lists.view(lists.hitlist());
        QVERIFY(v);
        QTest::mouseClick(v->viewport(), Qt::LeftButton, {}, v->visualRect(h.index(0)).center());
        QCOMPARE(c.selectedSocket(), std::optional<std::uint32_t>(cc));
        QVERIFY(h.index(0).data(SelectedRole).toBool());
    }

    // ---- graph: stacks and SCC verdicts ------------------------------------------------------
    void graphStacksAndSccs_data()
    {
        QTest::addColumn<QString>("scene");
        QTest::newRow("triangle") << QString::fromLatin1(kTriangle);
        for (const QString &f :
             QDir(QStringLiteral(INFLIGHT_SOURCE_DIR "/scenes")).entryList({QStringLiteral("*.scn")}))
            if (stepsThroughEveryCollection(f))
                QTest::newRow(qPrintable(f)) << QStringLiteral("file:") + f;
    }
    void graphStacksAndSccs()
    {
        QFETCH(QString, scene);
        PlayerController c;
        ListsDock lists(c);
        std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
        for (QAbstractItemModel *m : std::initializer_list<QAbstractItemModel *>{lists.vertexStack(), lists.edgeStack(),
                                                                                 lists.sccs(), lists.hitlist()})
            testers.push_back(
                std::make_unique<QAbstractItemModelTester>(m, QAbstractItemModelTester::FailureReportingMode::QtTest));
        QVERIFY(open(c, scene, GcEra::graph));
        QVERIFY(lists.showingGraph());
        bool any_verdict = false;
        for (const Event &e : c.timeline())
            any_verdict |= e.kind == EventKind::scc_verdict;
        int verdicts = 0;
        std::vector<int> expected; // verdicts of the collection in progress, from the events
        while (!c.atEnd()) {
            c.stepInto();
            const Kernel &k = c.sim().kernel();
            const Event &e = *c.currentEvent();
            std::vector<std::uint32_t> vs;
            for (const UnixVertex *v : k.vertex_stack_view)
                vs.push_back(v->sock->id);
            QCOMPARE(rowsOf(*lists.vertexStack()), vs);
            const EdgeStackModel &es = *lists.edgeStack();
            QCOMPARE(es.rowCount(), static_cast<int>(k.edge_stack_view.size()));
            for (int r = 0; r < es.rowCount(); ++r) {
                QCOMPARE(es.row(r).id, k.edge_stack_view[static_cast<std::size_t>(r)]->predecessor->id);
                QCOMPARE(es.row(r).id2, k.edge_stack_view[static_cast<std::size_t>(r)]->successor->id);
            }
            if (e.kind == EventKind::gc_begin)
                expected.clear();
            if (e.kind == EventKind::scc_found)
                expected.push_back(-1);
            if (e.kind == EventKind::scc_verdict)
                expected.back() = e.before ? 1 : 0;
            const SccModel &s = *lists.sccs();
            QCOMPARE(s.rowCount(), static_cast<int>(expected.size()));
            for (int r = 0; r < s.rowCount(); ++r)
                QCOMPARE(static_cast<int>(s.row(r).v1), expected[static_cast<std::size_t>(r)]);
            if (e.kind == EventKind::scc_verdict) {
                ++verdicts;
                const auto &scc = s.sccs().back();
                QCOMPARE(scc.root, e.a);
                QCOMPARE(static_cast<std::int64_t>(scc.members.size()), scc.size);
                const QString text = s.index(s.rowCount() - 1).data().toString();
                QVERIFY2(text.contains(e.before ? QLatin1String("GARBAGE") : QLatin1String("alive")), qPrintable(text));
                QVERIFY(s.index(s.rowCount() - 1).data(TouchedRole).toBool());
                // Full walk: the SCC's members are exactly the vertices it grouped.
                for (std::uint32_t m : scc.members)
                    QVERIFY(k.socks[m].vertex);
            }
            if (e.kind == EventKind::vertex_visit)
                QVERIFY(lists.vertexStack()->index(lists.vertexStack()->rowCount() - 1).data(TouchedRole).toBool());
            if (e.kind == EventKind::edge_push)
                QVERIFY(es.index(es.rowCount() - 1).data(TouchedRole).toBool());
            // Hitlist rows in order.
            const HitlistModel &h = *lists.hitlist();
            QCOMPARE(h.rowCount(), static_cast<int>(k.hitlist.size()));
            int r = 0;
            for (const SkBuff &skb : k.hitlist)
                QCOMPARE(h.row(r++).id, skb.id);
            if (e.kind == EventKind::queue_splice && e.before > 0) {
                int touched = 0;
                for (int i = 0; i < h.rowCount(); ++i)
                    touched += h.index(i).data(TouchedRole).toBool();
                QCOMPARE(touched, static_cast<int>(e.before));
            }
        }
        QCOMPARE(verdicts > 0, any_verdict);
    }

    // The triangle under graph, by hand: one SCC {b, a, c}, garbage.
    void graphTriangleScc()
    {
        PlayerController c;
        ListsDock lists(c);
        QVERIFY(open(c, QString::fromLatin1(kTriangle), GcEra::graph));
        while (c.stepInto(),
               c.currentEvent()->kind != EventKind::vertex_visit || c.sim().kernel().vertex_stack_view.size() < 3) { }
        QCOMPARE(lists.vertexStack()->index(0).data().toString(), QStringLiteral("b    index 2 · scc_index 2"));
        QCOMPARE(lists.edgeStack()->index(0).data().toString(), QStringLiteral("b → a"));
        QCOMPARE(lists.edgeStack()->index(1).data().toString(), QStringLiteral("a → c"));
        while (c.stepInto(), c.currentEvent()->kind != EventKind::vertex_dead) { }
        QCOMPARE(lists.sccs()->index(0).data().toString(), QStringLiteral("judging…  {b\u00a0✓dead, a, c}"));
        while (c.stepInto(), c.currentEvent()->kind != EventKind::scc_verdict) { }
        QCOMPARE(lists.sccs()->index(0).data().toString(), QStringLiteral("GARBAGE  {b, a, c}"));
        QCOMPARE(lists.hitlist()->rowCount(), 3);
        c.last();
        QCOMPARE(lists.sccs()->rowCount(), 1);
        QVERIFY(lists.sccs()->finished());
    }

    // A fast-forwarded collection records no walk: its SCC section says so instead of "none
    // yet", and stepping into collections shows the SCCs.
    void aFastForwardedCollectionSaysWhyNoSccIsShown()
    {
        PlayerController c;
        ListsDock lists(c);
        QVERIFY(open(c, QString::fromLatin1(kTriangle), GcEra::graph));
        auto scc_title = [&lists] {
            for (const QLabel *l : lists.findChildren<QLabel *>())
                if (l->text().startsWith(QStringLiteral("SCCs")))
                    return l->text();
            return QString();
        };
        c.setStepsIntoCollections(false);
        QVERIFY(waitIndex(c));
        c.last();
        QCOMPARE(lists.sccs()->rowCount(), 0);
        QVERIFY2(scc_title().contains(QStringLiteral("fast-forwarded")), qPrintable(scc_title()));
        c.setStepsIntoCollections(true);
        QVERIFY(waitIndex(c));
        c.last();
        QCOMPARE(lists.sccs()->rowCount(), 1);
        QVERIFY2(scc_title().contains(QStringLiteral("(finished)")), qPrintable(scc_title()));
    }

    // ---- algorithm dock -----------------------------------------------------------------------
    // The run's last step tells how it ended: the leak of the unfixed graph collector and the
    // expectations; a step earlier only the step itself is told.
    void algorithmTellsTheEndOfTheRun()
    {
        PlayerController c;
        AlgorithmDock dock(c);
        QVERIFY(open(c, QStringLiteral("file:selftest-mixed-lowpoint-stream.scn"), GcEra::graph));
        c.last();
        QCOMPARE(c.position(), c.totalSteps());
        const QString end = dock.narrationText();
        QVERIFY2(end.contains(QStringLiteral("The scene is over.")), qPrintable(end));
        QVERIFY2(end.contains(QStringLiteral("u0, u1, u2, u3, u4 and u5 leaked")), qPrintable(end));
        QVERIFY2(end.contains(QStringLiteral("Every expectation held (18 of 18).")), qPrintable(end));
        c.back();
        QVERIFY(!dock.narrationText().contains(QStringLiteral("The scene is over.")));
    }

    // The SCCs judged alive whose members no fd reaches say they leaked, in the leak colour.
    void sccListSaysLeaked()
    {
        PlayerController c;
        ListsDock lists(c);
        QVERIFY(open(c, QStringLiteral("file:selftest-mixed-lowpoint-stream.scn"), GcEra::graph));
        c.last();
        const SccModel &s = *lists.sccs();
        QVERIFY(s.finished());
        QCOMPARE(s.rowCount(), 2);
        for (int r = 0; r < 2; ++r) {
            const QString text = s.index(r).data().toString();
            QVERIFY2(text.startsWith(QStringLiteral("alive (cyclic)")) && text.endsWith(QStringLiteral("leaked")),
                     qPrintable(text));
            QVERIFY(s.index(r).data(Qt::ToolTipRole).toString().contains(QStringLiteral("scc_index")));
        }
    }

    void algorithmFollowsTheEvent_data()
    {
        QTest::addColumn<int>("era");
        for (GcEra era : {GcEra::classic, GcEra::async, GcEra::graph})
            QTest::newRow(era_name(era).data()) << static_cast<int>(era);
    }
    void algorithmFollowsTheEvent()
    {
        QFETCH(int, era);
        PlayerController c;
        AlgorithmDock dock(c);
        const QString scene = QStringLiteral("note \"Three pairs, each holding the next\"\n") +
                              QString::fromLatin1(kTriangle) + QStringLiteral("note \"All three are gone\"\n");
        QVERIFY(open(c, scene, static_cast<GcEra>(era)));
        const auto &listing = algorithm_listing(static_cast<GcEra>(era));
        QCOMPARE(dock.currentListingRow(), -1);
        QVERIFY(!dock.narrationText().isEmpty());
        bool saw_dim = false, saw_line = false;
        int last_row = -1;
        while (!c.atEnd()) {
            c.stepInto();
            const Event &e = *c.currentEvent();
            QString story = QString::fromStdString(narrate(e, c.sim().kernel(), &c.sim().scene()));
            if (c.indexReady() && c.position() == c.totalSteps() && c.endOfRun())
                story += QStringLiteral("\n\n") + QString::fromStdString(c.endOfRun()->ending);
            QCOMPARE(dock.narrationText(), story);
            if (e.algo_line) {
                saw_line = true;
                QVERIFY(dock.currentListingRow() >= 0);
                QCOMPARE(static_cast<std::uint16_t>(listing[static_cast<std::size_t>(dock.currentListingRow())].id),
                         e.algo_line);
                QVERIFY(!dock.currentLineDimmed());
                last_row = dock.currentListingRow();
            } else if (!c.sim().gc_in_progress() && last_row >= 0 && e.kind != EventKind::gc_end) {
                // Between statements: the last collector line stays, dimmed.
                saw_dim = true;
                QVERIFY(dock.currentLineDimmed());
            }
            if (e.kind == EventKind::gc_end)
                last_row = dock.currentListingRow();
            // Notes: the current one is shown as current; later, the last one stays.
            if (c.sim().current_line() == 1) {
                QCOMPARE(dock.noteText(), QStringLiteral("Three pairs, each holding the next"));
                QVERIFY(dock.noteIsCurrent());
            } else if (c.sim().current_line() < 10) {
                QCOMPARE(dock.noteText(), QStringLiteral("Three pairs, each holding the next"));
                QVERIFY(!dock.noteIsCurrent());
            } else {
                QCOMPARE(dock.noteText(), QStringLiteral("All three are gone"));
            }
        }
        QVERIFY(saw_line);
        QVERIFY(saw_dim);
        // Going back before the first note hides it.
        c.first();
        QVERIFY(dock.noteText().isEmpty());
        c.seek(c.totalSteps());
        QCOMPARE(dock.noteText(), QStringLiteral("All three are gone"));
    }

    // Stepping through a bind probe by probe shows unix_autobind() of the scene's generation, its
    // line per probe; a collection afterwards brings the collector's listing back.
    void algorithmShowsUnixAutobindWhileBinding()
    {
        PlayerController c;
        AlgorithmDock dock(c);
        QVERIFY(open(c,
                     QStringLiteral("set autobind sequential\nsocket a dgram\nbind a @00001\nsocket b dgram\nbind b\n"
                                    "socketpair x y\nsend x fds=y\nsend y fds=x\nclose x y\ngc\n"),
                     GcEra::graph));
        const auto &autobind = autobind_listing(AutobindMode::sequential);
        auto rowOf = [](const std::vector<ListingLine> &l, AlgoLine id) {
            for (std::size_t i = 0; i < l.size(); ++i)
                if (l[i].id == id)
                    return static_cast<int>(i);
            return -1;
        };
        std::vector<AlgoLine> seen;
        bool saw_gc_listing = false, dimmed_after_bind = false;
        while (!c.atEnd()) {
            c.stepInto();
            const Event &e = *c.currentEvent();
            if (e.fn == KFn::unix_autobind) {
                QVERIFY2(dock.listingTitle().startsWith(QStringLiteral("unix_autobind()")),
                         qPrintable(dock.listingTitle()));
                QVERIFY(dock.listingTitle().contains(QStringLiteral("before 2021")));
                QCOMPARE(dock.listingView()->listing(), &autobind);
                QCOMPARE(dock.currentListingRow(), rowOf(autobind, static_cast<AlgoLine>(e.algo_line)));
                QVERIFY(!dock.currentLineDimmed());
                seen.push_back(static_cast<AlgoLine>(e.algo_line));
            } else if (!seen.empty() && !saw_gc_listing && !e.algo_line && !c.sim().gc_in_progress()) {
                // Between the bind and the collection: the bind's last line stays, dimmed.
                QCOMPARE(dock.listingView()->listing(), &autobind);
                dimmed_after_bind = dock.currentLineDimmed();
                QVERIFY(dimmed_after_bind);
            }
            if (e.kind == EventKind::gc_begin) {
                saw_gc_listing = true;
                QCOMPARE(dock.listingView()->listing(), &algorithm_listing(GcEra::graph));
                QVERIFY(dock.listingTitle().startsWith(QStringLiteral("__unix_gc()")));
            }
        }
        const std::vector<AlgoLine> expected{AlgoLine::autobind_taken, AlgoLine::autobind_lookup,
                                             AlgoLine::autobind_bound};
        QCOMPARE(seen, expected);
        QVERIFY(saw_gc_listing);
        QVERIFY(dimmed_after_bind);
        // A jump back into the bind finds its listing through the index.
        c.seek(1);
        c.seek(c.firstStepOfLine(5) + 1);
        QCOMPARE(dock.listingView()->listing(), &autobind);
    }

    // ---- scene dock -----------------------------------------------------------------------------
    void sceneHighlightsAndBreakpoints()
    {
        PlayerController c;
        SceneDock dock(c);
        const QString scene = QStringLiteral("# the triangle\n") + QString::fromLatin1(kTriangle);
        QVERIFY(open(c, scene, GcEra::graph));
        dock.resize(500, 500);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        editor::SceneEditor *v = dock.textView();
        QCOMPARE(v->lines(), static_cast<int>(c.scene().lines.size()));
        QCOMPARE(v->currentLine(), 0);
        while (!c.atEnd()) {
            c.stepInto();
            QCOMPARE(v->currentLine(), static_cast<int>(c.sim().current_line()));
            QVERIFY(v->hasMarker(v->currentLine(), editor::SceneEditor::Current));
        }
        c.seek(20);
        QCOMPARE(v->currentLine(), static_cast<int>(c.sim().current_line()));
        QVERIFY(v->currentLine() > 1);
        // The next statement's arrow is on the line the next stmt_begin runs.
        QCOMPARE(v->nextLine(), c.nextStatementLine());
        QVERIFY(v->hasMarker(v->nextLine(), editor::SceneEditor::Next));
        // A click in the marker margin at line 5 sets its breakpoint; a second click clears it.
        const auto margin_point = [v](int line) {
            const long pos = v->positionOf(line, 1);
            const int y = static_cast<int>(v->SendScintilla(QsciScintilla::SCI_POINTYFROMPOSITION, 0, pos)) +
                          v->textHeight(line - 1) / 2;
            return QPoint(
                v->marginWidth(editor::SceneEditor::LineNumbers) + v->marginWidth(editor::SceneEditor::Symbols) / 2, y);
        };
        QSignalSpy spy(&c, &PlayerController::lineBreakpointsChanged);
        QTest::mouseClick(v->viewport(), Qt::LeftButton, {}, margin_point(5));
        QCOMPARE(spy.count(), 1);
        QVERIFY(c.lineBreakpoints().contains(5));
        QVERIFY(v->breakpointLines().contains(5));
        QTest::mouseClick(v->viewport(), Qt::LeftButton, {}, margin_point(5));
        QVERIFY(!c.lineBreakpoints().contains(5));
        // A comment line takes no breakpoint.
        QTest::mouseClick(v->viewport(), Qt::LeftButton, {}, margin_point(1));
        QVERIFY(c.lineBreakpoints().isEmpty());
        // The breakpoint stops Continue before its statement.
        QTest::mouseClick(v->viewport(), Qt::LeftButton, {}, margin_point(8));
        c.first();
        c.continueToBreakpoint();
        QCOMPARE(c.currentEvent()->kind, EventKind::stmt_begin);
        QCOMPARE(v->currentLine(), 8);
    }

    // ---- inspector ------------------------------------------------------------------------------
    void inspectorShowsTheSelectedSocket_data()
    {
        QTest::addColumn<int>("era");
        for (GcEra era : {GcEra::classic, GcEra::graph})
            QTest::newRow(era_name(era).data()) << static_cast<int>(era);
    }
    void inspectorShowsTheSelectedSocket()
    {
        QFETCH(int, era);
        PlayerController c;
        InspectorDock dock(c);
        QVERIFY(open(c, QString::fromLatin1(kTriangle), static_cast<GcEra>(era)));
        QVERIFY(!dock.field(QStringLiteral("socket")));
        // After "send c2 fds=a": a is in flight in c's queue; c's queue holds one skb carrying a.
        while (c.stepInto(), !(c.currentEvent()->kind == EventKind::stmt_end && c.sim().current_line() == 6)) { }
        const std::uint32_t a = sockId(c, "a"), cc = sockId(c, "c");
        c.selectSocket(a);
        QCOMPARE(dock.value(QStringLiteral("socket/label")), QStringLiteral("a"));
        QCOMPARE(dock.value(QStringLiteral("socket/peer")), QStringLiteral("a2"));
        QCOMPARE(dock.value(QStringLiteral("socket/type")), QStringLiteral("stream"));
        QCOMPARE(dock.value(QStringLiteral("socket/owner")), QStringLiteral("root"));
        QCOMPARE(dock.value(QStringLiteral("refs/file_refs")), QStringLiteral("2"));
        QCOMPARE(dock.value(QStringLiteral("refs/fd_refs")), QStringLiteral("1"));
        QCOMPARE(dock.value(QStringLiteral("refs/inflight_refs")), QStringLiteral("1"));
        if (era == int(GcEra::graph)) {
            QCOMPARE(dock.value(QStringLiteral("gc/out_degree")), QStringLiteral("1"));
            QVERIFY(dock.field(QStringLiteral("gc/scc_index")));
        } else {
            QCOMPARE(dock.value(QStringLiteral("gc/inflight")), QStringLiteral("1"));
            QCOMPARE(dock.value(QStringLiteral("gc/list")), QStringLiteral("gc_inflight_list"));
            QCOMPARE(dock.value(QStringLiteral("gc/gc_flags")), QStringLiteral("none"));
        }
        QCOMPARE(dock.value(QStringLiteral("in_flight")), QStringLiteral("1 copy"));
        QVERIFY(dock.field(QStringLiteral("in_flight/skb3")));
        QCOMPARE(dock.field(QStringLiteral("in_flight/skb3"))->text(0), QStringLiteral("in c's queue"));
        QVERIFY(!dock.field(QStringLiteral("refs/file_refs"))->toolTip(1).isEmpty());
        c.selectSocket(cc);
        QCOMPARE(dock.value(QStringLiteral("queue")), QStringLiteral("1 skb"));
        QCOMPARE(dock.field(QStringLiteral("queue"))->childCount(), 1);
        QVERIFY2(dock.value(QStringLiteral("queue/0")).startsWith(QStringLiteral("skb#3 → a")),
                 qPrintable(dock.value(QStringLiteral("queue/0"))));
        // The values follow the kernel, and a changed one is marked: close a b c drops a's fd.
        c.selectSocket(a);
        while (c.stepInto(), c.currentEvent()->kind != EventKind::fd_close || c.currentEvent()->a != a) { }
        QCOMPARE(dock.value(QStringLiteral("refs/file_refs")), QStringLiteral("1"));
        QCOMPARE(dock.field(QStringLiteral("refs/file_refs"))->background(1).color(), touchedBackground());
        QCOMPARE(dock.value(QStringLiteral("socket/fds")), QStringLiteral("none"));
        // Why is it alive: c's fd still reaches it through c's queue ...
        QCOMPARE(dock.value(QStringLiteral("why")),
                 QStringLiteral("a process reaches it through 1 message(s) in flight"));
        QVERIFY2(dock.value(QStringLiteral("why/hop0")).startsWith(QStringLiteral("process main fd ")),
                 qPrintable(dock.value(QStringLiteral("why/hop0"))));
        QVERIFY2(
            dock.value(QStringLiteral("why/hop1")).contains(QStringLiteral("in c's receive queue carries a's file")),
            qPrintable(dock.value(QStringLiteral("why/hop1"))));
        // ... and once b and c are closed too, the cycle waits for the collector.
        while (c.stepInto(), !(c.currentEvent()->kind == EventKind::stmt_end && c.sim().current_line() == 7)) { }
        QCOMPARE(dock.value(QStringLiteral("why")), QStringLiteral("garbage: the next collection frees it"));
        QCOMPARE(dock.value(QStringLiteral("why/rule")), QStringLiteral("garbage"));
        QVERIFY(!dock.field(QStringLiteral("why/hop0")));
        // The whole reason, wrapped above the tree rather than elided in a cell.
        const auto *why = dock.findChild<QLabel *>(QStringLiteral("whyAlive"));
        QVERIFY(why && why->isVisibleTo(&dock) && why->wordWrap());
        QCOMPARE(why->text(), QStringLiteral("Why is it alive? ") +
                                  dock.value(QStringLiteral("why/reason")).left(1).toUpper() +
                                  dock.value(QStringLiteral("why/reason")).mid(1));
        // The label box selects.
        dock.findChild<QLineEdit *>()->setText(QStringLiteral("b2"));
        QTest::keyClick(dock.findChild<QLineEdit *>(), Qt::Key_Return);
        QCOMPARE(c.selectedSocket(), std::optional<std::uint32_t>(sockId(c, "b2")));
    }

    void inspectorListenerAndEmbryo()
    {
        PlayerController c;
        InspectorDock dock(c);
        QVERIFY(open(c, QStringLiteral("file:embryo-carrying-fds.scn"), GcEra::graph));
        while (c.stepInto(), !(c.currentEvent()->kind == EventKind::stmt_end && c.sim().current_line() == 17)) { }
        const auto embryo = findLabel(c.sim().kernel(), QStringLiteral("embryo(c)"));
        QVERIFY(embryo);
        c.selectSocket(*embryo);
        QCOMPARE(dock.value(QStringLiteral("socket/listener")), QStringLiteral("l"));
        QCOMPARE(dock.value(QStringLiteral("socket/address")), QStringLiteral("@srv")); // copied from the listener
        QCOMPARE(dock.value(QStringLiteral("socket/peer")), QStringLiteral("c"));
        QVERIFY(dock.value(QStringLiteral("socket/state")).startsWith(QLatin1String("embryo")));
        QCOMPARE(dock.value(QStringLiteral("refs/file_refs")), QStringLiteral("no file"));
        QCOMPARE(dock.value(QStringLiteral("queue")), QStringLiteral("1 skb"));
        QVERIFY2(dock.value(QStringLiteral("queue/0")).contains(QStringLiteral("→ x")),
                 qPrintable(dock.value(QStringLiteral("queue/0"))));
        c.selectSocket(sockId(c, "l"));
        QCOMPARE(dock.value(QStringLiteral("socket/address")), QStringLiteral("@srv"));
        QVERIFY(dock.value(QStringLiteral("queue/0")).contains(QStringLiteral("connect → embryo(c)")));
    }

    // ---- event log --------------------------------------------------------------------------------
    void eventLogCountsFiltersAndSeeks()
    {
        PlayerController c;
        EventLogDock dock(c);
        QVERIFY(c.openText(QString::fromLatin1(kTriangle), QStringLiteral("t")));
        c.setEra(GcEra::graph);
        QVERIFY(dock.indexing());
        QVERIFY(waitIndex(c));
        QVERIFY(!dock.indexing());
        EventLogModel &m = *dock.model();
        EventFilterProxy &p = *dock.proxy();
        const auto &tl = c.timeline();
        QCOMPARE(m.rowCount(), static_cast<int>(tl.size()));
        QCOMPARE(p.rowCount(), m.rowCount());
        QCOMPARE(m.index(0, EventLogModel::StepColumn).data().toULongLong(), 1ull);
        QCOMPARE(m.index(5, EventLogModel::DescriptionColumn).data().toString(),
                 QString::fromStdString(describe(tl[5], m.labels(), &c.sim().scene())));

        // By kind: each group passes exactly its kinds.
        for (int i = 0; i < dock.kindBox()->count(); ++i) {
            const QVariant mask = dock.kindBox()->itemData(i);
            if (!mask.isValid())
                continue; // the separator
            dock.kindBox()->setCurrentIndex(i);
            int want = 0;
            for (const Event &e : tl)
                want += (mask.toULongLong() & kindBit(e.kind)) != 0;
            QCOMPARE(p.rowCount(), want);
        }
        dock.kindBox()->setCurrentIndex(0);
        QCOMPARE(p.rowCount(), m.rowCount());

        // By a typed socket: the rows whose a/b/c is that socket.
        QSignalSpy labels(&m, &EventLogModel::labelsChanged);
        if (!m.labelsReady())
            QVERIFY(labels.wait(10000));
        dock.socketBox()->setText(QStringLiteral("b"));
        const std::uint32_t b = *findLabel(m.labels(), QStringLiteral("b"));
        int want_b = 0;
        for (const Event &e : tl)
            want_b += eventInvolves(e, b);
        QVERIFY(want_b > 5);
        QCOMPARE(p.rowCount(), want_b);
        for (int r = 0; r < p.rowCount(); ++r)
            QVERIFY(eventInvolves(m.eventAt(p.mapToSource(p.index(r, 0)).row()), b));
        // Mapped both ways, and a source row's repaint reaches the proxy row showing it.
        {
            int rejected = -1;
            for (int r = 0; r < m.rowCount() && rejected < 0; ++r)
                if (!eventInvolves(m.eventAt(r), b))
                    rejected = r;
            QVERIFY(rejected >= 0);
            QVERIFY(!p.mapFromSource(m.index(rejected, 0)).isValid());
            const QModelIndex shown = p.index(p.rowCount() / 2, 1);
            const QModelIndex source = p.mapToSource(shown);
            QCOMPARE(p.mapFromSource(source), shown);
            QCOMPARE(p.rowAtOrBefore(source.row()), shown.row());
            QSignalSpy changed(&p, &QAbstractItemModel::dataChanged);
            emit m.dataChanged(m.index(rejected, 0), m.index(rejected, 0));
            emit m.dataChanged(m.index(source.row(), 0), m.index(source.row(), 2));
            QCOMPARE(changed.count(), 1); // the rejected row has no proxy row to repaint
            QCOMPARE(changed.at(0).at(0).value<QModelIndex>().row(), shown.row());
        }
        // Both filters at once.
        dock.kindBox()->setCurrentIndex(5); // Graph walk
        int want_both = 0;
        for (const Event &e : tl)
            want_both += eventInvolves(e, b) && (kindGroups()[5].mask & kindBit(e.kind));
        QCOMPARE(p.rowCount(), want_both);
        dock.kindBox()->setCurrentIndex(0);
        // An unknown label shows nothing.
        dock.socketBox()->setText(QStringLiteral("nosuch"));
        QCOMPARE(p.rowCount(), 0);
        // Following the selection.
        dock.selectedButton()->setChecked(true);
        QVERIFY(dock.socketBox()->text().isEmpty());
        QCOMPARE(p.rowCount(), 0); // nothing selected
        c.selectSocket(b);
        QCOMPARE(p.rowCount(), want_b);
        dock.selectedButton()->setChecked(false);
        QCOMPARE(p.rowCount(), m.rowCount());

        // The current step's row is highlighted; clicking a row goes there.
        dock.resize(900, 400);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        c.seek(30);
        QCOMPARE(m.currentRow(), 29);
        QCOMPARE(m.index(29, 0).data(Qt::BackgroundRole).value<QBrush>().color(), touchedBackground());
        QVERIFY(!m.index(28, 0).data(Qt::BackgroundRole).isValid());
        QTableView *v = dock.view();
        const QRect cell = v->visualRect(p.index(29, 0));
        QVERIFY(v->viewport()->rect().contains(cell)); // kept in view
        const QModelIndex target = p.index(31, 3);
        v->scrollTo(target);
        QTest::mouseClick(v->viewport(), Qt::LeftButton, {}, v->visualRect(target).center());
        QCOMPARE(c.position(), tl[31].step);
        QCOMPARE(m.currentRow(), 31);
        // Keyboard activation too.
        emit v->activated(p.index(10, 0));
        QCOMPARE(c.position(), 11ull);
        // Far away: the row is scrolled into view.
        c.last();
        QVERIFY(v->viewport()->rect().intersects(v->visualRect(p.index(m.currentRow(), 0))));
    }

    // A long run: the model stores nothing per row and filters without making text.
    void eventLogLargeRun()
    {
        PlayerController c;
        EventLogDock dock(c);
        QVERIFY(open(
            c,
            QStringLiteral("repeat 3000 as i {\n socketpair a$i b$i\n send a$i fds=b$i\n close b$i\n close a$i\n}\n"),
            GcEra::graph));
        EventLogModel &m = *dock.model();
        QCOMPARE(m.rowCount(), static_cast<int>(c.timeline().size()));
        QVERIFY(m.rowCount() > 50000);
        dock.kindBox()->setCurrentIndex(6); // Collections
        int want = 0;
        for (const Event &e : c.timeline())
            want += (kindGroups()[6].mask & kindBit(e.kind)) != 0;
        QCOMPARE(dock.proxy()->rowCount(), want);
        c.seek(c.totalSteps() / 2);
        // Inline or on the pool, as the checkpoint store's measured costs decide.
        QTRY_COMPARE_WITH_TIMEOUT(m.currentRow(), static_cast<int>(c.totalSteps() / 2) - 1, 20000);
    }

    // ---- theme: every dock follows the font scale -------------------------------------------------
    void docksFollowTheTheme()
    {
        PlayerController c;
        AllDocks d(c);
        QVERIFY(open(c, QString::fromLatin1(kTriangle), GcEra::classic));
        c.seek(60);
        const double scene = d.scene.textView()->font().pointSizeF();
        const double log = d.log.view()->font().pointSizeF();
        const double listing = d.algorithm.listingView()->font().pointSizeF();
        const QVariant row = d.lists.gcList(ListId::gc_candidates)->index(0).data(Qt::FontRole);
        QLabel *narration = nullptr;
        for (QLabel *l : d.algorithm.findChildren<QLabel *>())
            if (l->text() == d.algorithm.narrationText())
                narration = l;
        QVERIFY(narration);
        const double narration_pt = narration->font().pointSizeF();
        QVERIFY(narration_pt > d.scene.textView()->font().pointSizeF()); // the narration is the big text
        QSignalSpy changed(&Theme::instance(), &Theme::changed);
        Theme::instance().setFontScale(2.0);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(d.scene.textView()->font().pointSizeF(), 2 * scene);
        QCOMPARE(d.log.view()->font().pointSizeF(), 2 * log);
        QCOMPARE(d.algorithm.listingView()->font().pointSizeF(), 2 * listing);
        QCOMPARE(narration->font().pointSizeF(), 2 * narration_pt);
        QCOMPARE(d.lists.gcList(ListId::gc_candidates)->index(0).data(Qt::FontRole).value<QFont>().pointSizeF(),
                 2 * row.value<QFont>().pointSizeF());
        Theme::instance().setFontScale(1.0);
        QCOMPARE(d.scene.textView()->font().pointSizeF(), scene);
    }

    // ---- watches: a value per watch at this step; continue stops where one fires ----------------
    void watchesDockShowsValuesAndStopsContinue()
    {
        PlayerController c;
        WatchesDock w(c);
        QVERIFY(open(c, QString::fromLatin1(kTriangle), GcEra::classic));
        c.eventBreakpoints().invariant_violated = false;
        // A typo is refused where it is, and the text is kept for fixing.
        QTest::keyClicks(w.input(), QStringLiteral("infligt b"));
        QTest::keyClick(w.input(), Qt::Key_Return);
        QCOMPARE(w.table()->rowCount(), 0);
        QVERIFY(!w.error()->isHidden());
        QVERIFY2(w.error()->text().contains(QLatin1String("column 1")), qPrintable(w.error()->text()));
        QVERIFY(w.error()->text().contains(QLatin1String("did you mean 'inflight'?")));
        QCOMPARE(w.input()->text(), QStringLiteral("infligt b"));
        w.input()->clear();
        for (const char *x : {"inflight b >= 1", "b freed"}) {
            QTest::keyClicks(w.input(), QString::fromLatin1(x));
            QTest::keyClick(w.input(), Qt::Key_Return);
        }
        QVERIFY(w.error()->isHidden());
        QCOMPARE(w.table()->rowCount(), 2);
        QCOMPARE(w.table()->item(0, 0)->text(), QStringLiteral("inflight b >= 1"));
        QCOMPARE(w.table()->item(0, 1)->text(), QStringLiteral("false (none)")); // step 0: no b yet

        // Where a replay of the same run sees the conditions become true.
        std::uint64_t inflight_at = 0, freed_at = 0;
        {
            Simulation sim(std::make_shared<const Scene>(c.scene()), c.simulationOptions());
            while (const Event *e = sim.step()) {
                const UnixSock *b = sim.kernel().find_label("b");
                if (!inflight_at && b && sim.kernel().collector().inflight_of(*b) >= 1)
                    inflight_at = e->step;
                if (!freed_at && b && b->released)
                    freed_at = e->step;
            }
        }
        QVERIFY(inflight_at > 1 && freed_at > inflight_at);
        QSignalSpy hits(&c, &PlayerController::breakpointHit);
        c.continueToBreakpoint();
        QCOMPARE(hits.count(), 1);
        QCOMPARE(c.position(), inflight_at);
        QVERIFY2(hits.front().front().toString().startsWith(QLatin1String("watch 1 (inflight b >= 1): false -> true")),
                 qPrintable(hits.front().front().toString()));
        QCOMPARE(w.table()->item(0, 1)->text(), QStringLiteral("true (1)"));
        QCOMPARE(w.table()->item(1, 1)->text(), QStringLiteral("false"));

        // Removing the first leaves the second, which stops where b is released.
        w.table()->selectRow(0);
        QVERIFY(w.removeButton()->isEnabled());
        QTest::mouseClick(w.removeButton(), Qt::LeftButton);
        QCOMPARE(w.table()->rowCount(), 1);
        QCOMPARE(w.table()->item(0, 0)->text(), QStringLiteral("b freed"));
        c.continueToBreakpoint();
        QCOMPARE(hits.count(), 2);
        QCOMPARE(c.position(), freed_at);
        QCOMPARE(w.table()->item(0, 1)->text(), QStringLiteral("true"));
        // Seeking back shows the value there, not a stale one.
        c.seek(inflight_at);
        QCOMPARE(w.table()->item(0, 1)->text(), QStringLiteral("false"));
    }

    void docksHaveObjectNames()
    {
        PlayerController c;
        AllDocks d(c);
        QStringList names{d.lists.objectName(), d.algorithm.objectName(), d.scene.objectName(),
                          d.inspector.objectName(), d.log.objectName()};
        for (const QString &n : names)
            QVERIFY(!n.isEmpty());
        names.removeDuplicates();
        QCOMPARE(names.size(), 5);
    }
};

QTEST_MAIN(TestDocks)
#include "test_docks.moc"
