// SPDX-License-Identifier: GPL-3.0-or-later
// The scene editor, driven as a user drives it (offscreen): typed mistakes underlined at their
// exact byte ranges, a did-you-mean fixed with one click, save -> reopen byte for byte, the
// recovery copy back after the process is killed, the unsaved-changes question on close, open
// and quit, a live re-run that keeps the statement, run to cursor.
#include "docks/scene_dock.h"
#include "editor/editor_session.h"
#include "editor/recovery_store.h"
#include "editor/scene_editor.h"
#include "graph/graph_panel.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "main_window.h"
#include "player_controller.h"

#include "file_size_limit.hpp"

#include "inflight/parser.hpp"
#include "inflight/simulation.hpp"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>

using editor::EditorSession;
using editor::SceneEditor;

namespace {

const QByteArray kTriangle = "socketpair a a2\nsocketpair b b2\nsocketpair c c2\nsend a2 fds=b\nsend b2 fds=c\n"
                             "send c2 fds=a\nclose a b c\ngc\n";

QByteArray read_all(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

bool write_all(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// A Scene dock and its session, as the window has them, with questions answered by the test.
struct Editing {
    explicit Editing(const QString &recovery_dir)
    {
        session.setRecoveryStore(editor::RecoveryStore(recovery_dir));
        session.setMessageSink([this](const QString &m) { messages << m; });
        QObject::connect(&session, &EditorSession::checked, &session,
                         [this](const editor::CheckResult &r) { last_checked = r.text; });
        dock.resize(600, 600);
        dock.show();
    }
    SceneEditor &editor() { return *dock.editor(); }
    // The diagnostics on screen are the buffer's own.
    bool settled() { return !session.checker().pending() && last_checked == editor().bytes(); }
    void typeAtEnd(const QString &text)
    {
        editor().SendScintilla(QsciScintilla::SCI_DOCUMENTEND);
        QTest::keyClicks(&editor(), text);
    }
    PlayerController controller;
    docks::SceneDock dock{controller};
    EditorSession session{controller, dock};
    QStringList messages;
    QByteArray last_checked;
};

int child_main(int argc, char **argv);

} // namespace

class TestEditor : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString path(const char *name) const { return dir_.filePath(QString::fromLatin1(name)); }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
    }

    void typedMistakesAreMarkedAtTheirExactRange_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<int>("col");
        QTest::addColumn<int>("end");
        QTest::addColumn<bool>("fixable");
        QTest::newRow("statement") << QStringLiteral("sned a fds=b") << 1 << 5 << true;
        QTest::newRow("option") << QStringLiteral("send a fdz=b") << 8 << 11 << true;
        QTest::newRow("setting value") << QStringLiteral("set gc grpah") << 8 << 13 << true;
        QTest::newRow("expect kind") << QStringLiteral("expect fred a") << 8 << 12 << true;
        QTest::newRow("unknown name") << QStringLiteral("close zz") << 7 << 9 << false;
        QTest::newRow("name in a list") << QStringLiteral("send a2 fds=b,zz") << 15 << 17 << false;
        QTest::newRow("socket type") << QStringLiteral("socketpair x y strem") << 16 << 21 << true;
        QTest::newRow("number") << QStringLiteral("send a2 bytes=abc") << 15 << 18 << false;
        QTest::newRow("unterminated") << QStringLiteral("note \"open") << 6 << 11 << false;
    }
    void typedMistakesAreMarkedAtTheirExactRange()
    {
        QFETCH(QString, typed);
        QFETCH(int, col);
        QFETCH(int, end);
        QFETCH(bool, fixable);
        Editing e(path("recovery-typed"));
        const QString file = path("typed.scn");
        QVERIFY(write_all(file, kTriangle));
        QVERIFY(e.session.open(file));
        QVERIFY(e.session.isClean());
        QVERIFY(e.editor().indicatorRanges(SceneEditor::ErrorIndicator).isEmpty());
        e.typeAtEnd(typed);
        QTRY_VERIFY(e.settled());
        const auto ranges = e.editor().indicatorRanges(SceneEditor::ErrorIndicator);
        QCOMPARE(ranges.size(), 1);
        QCOMPARE(ranges.front(), std::make_tuple(9, col, end));
        QVERIFY(!e.session.isClean());
        // Its message is under the line, in the Problems list and in the banner.
        QVERIFY(!e.editor().annotation(8).isEmpty());
        QCOMPARE(e.dock.problems()->count(), 1);
        QVERIFY(e.dock.problems()->item(0)->text().startsWith(QStringLiteral("9:%1").arg(col)));
        QVERIFY(e.dock.banner()->isVisibleTo(&e.dock));
        QCOMPARE(e.dock.fixButton()->isVisibleTo(&e.dock), fixable);
        // The run on screen stays the last good one (the triangle, to its end).
        QCOMPARE(e.session.lastRunText(), kTriangle);
    }

    void aDidYouMeanIsFixedInOneClick()
    {
        Editing e(path("recovery-fix"));
        const QString file = path("fix.scn");
        QVERIFY(write_all(file, kTriangle));
        QVERIFY(e.session.open(file));
        e.typeAtEnd(QStringLiteral("sned a2 fds=b"));
        QTRY_VERIFY(e.settled());
        QVERIFY(e.dock.fixButton()->isVisibleTo(&e.dock));
        QCOMPARE(e.dock.fixButton()->text(), QStringLiteral("Fix line 9: send"));
        QSignalSpy ran(&e.session, &EditorSession::ran);
        QTest::mouseClick(e.dock.fixButton(), Qt::LeftButton);
        QCOMPARE(e.editor().bytes(), kTriangle + "send a2 fds=b");
        QTRY_VERIFY(e.settled());
        QVERIFY(e.session.isClean());
        QVERIFY(e.editor().indicatorRanges(SceneEditor::ErrorIndicator).isEmpty());
        QVERIFY(!e.dock.banner()->isVisibleTo(&e.dock));
        // Clean again: it runs as typed, the new statement included.
        QTRY_COMPARE(ran.count(), 1);
        QCOMPARE(e.controller.scene().lines.size(), std::size_t(9));
        // One undo takes the fix back.
        e.editor().undo();
        QCOMPARE(e.editor().bytes(), kTriangle + "sned a2 fds=b");
    }

    // A fix rewrites the line it belongs to and no other: Ctrl+. on a line without one changes
    // nothing, and the button names the line of the fix it offers.
    void aFixActsOnItsOwnLineOnly()
    {
        Editing e(path("recovery-fix-line"));
        const QString file = path("fix-line.scn");
        QVERIFY(write_all(file, kTriangle));
        QVERIFY(e.session.open(file));
        const QByteArray added = "qqqqqq a\nsned a2 fds=b";
        e.editor().SendScintilla(QsciScintilla::SCI_APPENDTEXT, added.size(), added.constData());
        QTRY_VERIFY(e.settled());
        const QByteArray typed = kTriangle + added;
        QCOMPARE(e.editor().bytes(), typed);
        QVERIFY(e.dock.banner()->text().startsWith(QStringLiteral("Line 9:")));
        QVERIFY(e.dock.fixButton()->isVisibleTo(&e.dock));
        QCOMPARE(e.dock.fixButton()->text(), QStringLiteral("Fix line 10: send"));
        e.editor().goToLine(9, 1);
        QVERIFY(!e.session.applyFix());
        QCOMPARE(e.editor().bytes(), typed);
        e.editor().goToLine(10, 3);
        QVERIFY(e.session.applyFix());
        QCOMPARE(e.editor().bytes(), kTriangle + "qqqqqq a\nsend a2 fds=b");
        QTRY_VERIFY(e.settled());
        // Line 9's problem has no fix: no button offers one for another line.
        QVERIFY(!e.dock.fixButton()->isVisibleTo(&e.dock));
        QVERIFY(!e.dock.applySelectedFix());
        QCOMPARE(e.editor().bytes(), kTriangle + "qqqqqq a\nsend a2 fds=b");
    }

    void aSceneWithErrorsOpensWithThemMarked()
    {
        PlayerController c;
        MainWindow w(c);
        const QString file = path("broken.scn");
        QVERIFY(write_all(file, "socketpair a b\nsned a fds=b\nexpect fred a\n"));
        QVERIFY(w.openSceneNow(file));
        QCOMPARE(w.session().path(), QFileInfo(file).absoluteFilePath());
        QCOMPARE(w.sceneEditor().bytes(), read_all(file));
        QCOMPARE(w.sceneEditor().indicatorRanges(SceneEditor::ErrorIndicator),
                 (QList<std::tuple<int, int, int>>{{2, 1, 5}, {3, 8, 12}}));
    }

    void saveThenReopenIsByteIdentical_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("LF, final newline") << kTriangle;
        QTest::newRow("CRLF, no final newline") << QByteArray("socketpair a b\r\nsend a fds=b\r\nclose a b\r\ngc");
        QTest::newRow("UTF-8") << QByteArray(
            "scene \"Dreieck \xc3\xa4\xc3\xb6\xc3\xbc \xe2\x9c\x93 \xf0\x9f\x90\x9b\"\n"
            "socketpair a b\nnote \"caf\xc3\xa9\"\n");
        QTest::newRow("BOM, tabs") << QByteArray("\xEF\xBB\xBFsocketpair a b\n\tsend a fds=b\nclose a b\n");
    }
    void saveThenReopenIsByteIdentical()
    {
        QFETCH(QByteArray, bytes);
        Editing e(path("recovery-save"));
        const QString file = path("save.scn");
        QVERIFY(write_all(file, bytes));
        QVERIFY(e.session.open(file));
        QCOMPARE(e.editor().bytes(), bytes);
        // An edit and its undoing: modified, saved, the bytes unchanged.
        e.typeAtEnd(QStringLiteral("x"));
        QVERIFY(e.session.isModified());
        QTest::keyClick(&e.editor(), Qt::Key_Backspace);
        QVERIFY(e.session.save());
        QVERIFY(!e.session.isModified());
        QCOMPARE(read_all(file), bytes);
        Editing again(path("recovery-save2"));
        QVERIFY(again.session.open(file));
        QCOMPARE(again.editor().bytes(), bytes);
        // A new line is typed with the file's own line ending.
        again.typeAtEnd(QString());
        QTest::keyClick(&again.editor(), Qt::Key_Return);
        QTest::keyClicks(&again.editor(), QStringLiteral("gc"));
        QVERIFY(again.session.save());
        const QByteArray eol = bytes.contains("\r\n") ? "\r\n" : "\n";
        QCOMPARE(read_all(file), bytes + eol + "gc");
        QVERIFY(again.messages.isEmpty());
    }

    void badFilesGetAMessageAndTheBufferStays_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        QTest::newRow("binary") << QByteArray("socketpair a b\n\x7f"
                                              "ELF\0\0\1",
                                              22)
                                << QStringLiteral("binary file");
        QTest::newRow("Latin-1") << QByteArray("note \"caf\xe9\"\n") << QStringLiteral("is not UTF-8");
        QTest::newRow("10 MB line") << QByteArray(10 * 1024 * 1024, 'a') << QStringLiteral("too long to edit");
    }
    void badFilesGetAMessageAndTheBufferStays()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        Editing e(path("recovery-bad"));
        const QString good = path("good.scn");
        QVERIFY(write_all(good, kTriangle));
        QVERIFY(e.session.open(good));
        e.typeAtEnd(QStringLiteral("# mine"));
        const QString bad = path("bad.scn");
        QVERIFY(write_all(bad, bytes));
        QVERIFY(!e.session.open(bad));
        QCOMPARE(e.messages.size(), 1);
        QVERIFY2(e.messages.front().contains(message), qPrintable(e.messages.front()));
        QVERIFY(e.messages.front().startsWith(bad + QLatin1Char(':')));
        QCOMPARE(e.editor().bytes(), kTriangle + "# mine");
        QCOMPARE(e.session.path(), QFileInfo(good).absoluteFilePath());
    }

    void aRefusedWriteLeavesTheBufferAndThePath()
    {
        Editing e(path("recovery-refused"));
        const QString file = path("refused.scn");
        QVERIFY(write_all(file, kTriangle));
        QVERIFY(e.session.open(file));
        e.typeAtEnd(QStringLiteral("gc"));
        // A directory that does not exist refuses the temporary file: nothing is written.
        QVERIFY(!e.session.saveAs(path("no-such-dir/refused.scn")));
        QCOMPARE(e.messages.size(), 1);
        QVERIFY2(e.messages.front().contains(QStringLiteral("cannot save")), qPrintable(e.messages.front()));
        QCOMPARE(e.session.path(), QFileInfo(file).absoluteFilePath());
        QVERIFY(e.session.isModified());
        QCOMPARE(e.editor().bytes(), kTriangle + "gc");
        QCOMPARE(read_all(file), kTriangle);
    }

    void aSaveThatCannotBeWrittenKeepsTheFileTheEditAndItsRecoveryCopy()
    {
        PlayerController c;
        MainWindow w(c);
        const QString recovery = path("recovery-unwritable");
        w.session().setRecoveryStore(editor::RecoveryStore(recovery));
        const QString file = path("unwritable.scn");
        QVERIFY(write_all(file, kTriangle));
        QVERIFY(w.openSceneNow(file));
        QStringList messages; // after opening: openSceneNow() sets the window's own sink
        w.session().setMessageSink([&](const QString &m) { messages << m; });
        w.show();
        w.sceneEditor().SendScintilla(QsciScintilla::SCI_DOCUMENTEND);
        QTest::keyClicks(&w.sceneEditor(), QStringLiteral("gc"));
        QSignalSpy recovered(&w.session(), &EditorSession::recoveryWritten);
        w.session().setRecoveryInterval(20);
        QVERIFY(recovered.wait(10000));

        // Ctrl+S when the disk takes only part of the file (a file size limit fails the write
        // as a full disk does).
        {
            const inflight::test::FileSizeLimit limit(16);
            QVERIFY(limit.active());
            w.action("save")->trigger();
        }
        QCOMPARE(read_all(file), kTriangle);
        QCOMPARE(messages.size(), 1);
        QCOMPARE(messages.front(),
                 QStringLiteral("cannot save %1: writing: File too large; the file on disk is unchanged")
                     .arg(QFileInfo(file).absoluteFilePath()));
        QVERIFY(w.session().isModified());
        QVERIFY2(w.windowTitle().contains(QStringLiteral("unwritable.scn*")), qPrintable(w.windowTitle()));
        // The window's own copy (another instance would be offered it only once this one is gone).
        const auto copy = w.session().recoveryStore().read(file, editor::RecoveryStore::Whose::mine);
        QVERIFY(copy);
        QCOMPARE(copy->text, kTriangle + "gc");
        QCOMPARE(QDir(dir_.path()).entryList({QStringLiteral("*unwritable.scn*")}, QDir::Files | QDir::Hidden),
                 QStringList{QStringLiteral("unwritable.scn")});
        // Quitting still asks.
        int asked = 0;
        w.session().setUnsavedPrompt([&](const QString &) {
            ++asked;
            return EditorSession::Answer::cancel;
        });
        QVERIFY(!w.close());
        QCOMPARE(asked, 1);
        // With room again, the same save goes through and ends the recovery copy.
        w.action("save")->trigger();
        QCOMPARE(read_all(file), kTriangle + "gc");
        QVERIFY(!w.session().isModified());
        QVERIFY(!editor::RecoveryStore(recovery).read(file));
    }

    void aVanishedFileIsWrittenBackOnSave()
    {
        Editing e(path("recovery-vanish"));
        const QString file = path("vanish.scn");
        QVERIFY(write_all(file, kTriangle));
        QVERIFY(e.session.open(file));
        QVERIFY(QFile::remove(file));
        e.typeAtEnd(QStringLiteral("gc"));
        QVERIFY(e.session.save());
        QCOMPARE(read_all(file), kTriangle + "gc");
    }

    void aFileChangedOnDiskAsksInsteadOfClobbering()
    {
        Editing e(path("recovery-disk"));
        int asked = 0;
        bool load_disk = false;
        e.session.setChangedOnDiskPrompt([&](const QString &) {
            ++asked;
            return load_disk;
        });
        const QString file = path("disk.scn");
        QVERIFY(write_all(file, kTriangle));
        QVERIFY(e.session.open(file));
        // Unmodified: the disk's version comes in without a question.
        QVERIFY(write_all(file, kTriangle + "gc\n"));
        QTRY_COMPARE(e.editor().bytes(), kTriangle + "gc\n");
        QCOMPARE(asked, 0);
        QVERIFY(!e.session.isModified());
        // Modified: asked; keeping ours keeps the buffer as typed.
        e.typeAtEnd(QStringLiteral("# mine"));
        QVERIFY(write_all(file, kTriangle + "# theirs\n"));
        QTRY_COMPARE(asked, 1);
        QCOMPARE(e.editor().bytes(), kTriangle + "gc\n# mine");
        QVERIFY(e.session.isModified());
        // Asked again on the next change; this time the disk's version wins.
        load_disk = true;
        QVERIFY(write_all(file, kTriangle + "# theirs, again\n"));
        QTRY_COMPARE(asked, 2);
        QCOMPARE(e.editor().bytes(), kTriangle + "# theirs, again\n");
        QVERIFY(!e.session.isModified());
    }

    void revertRunsTheFileFromItsStartParsedOffTheGuiThread()
    {
        // Revert parses on the checker's thread (a large scene takes a while to parse): the run
        // on screen stays, at its place, until the file's own replaces it.
        Editing e(path("recovery-revert"));
        const QString file = path("revert.scn");
        QVERIFY(write_all(file, kTriangle));
        QVERIFY(e.session.open(file));
        PlayerController &c = e.controller;
        e.session.setRunAsYouType(false); // Revert runs the file whatever the live setting
        e.typeAtEnd(QStringLiteral("gc"));
        QTRY_VERIFY(e.settled());
        c.last();
        QTRY_VERIFY_WITH_TIMEOUT(!c.isBusy() && c.atEnd(), 10000);
        const std::uint64_t at = c.position();
        QVERIFY(at > 0);
        QSignalSpy ran(&e.session, &EditorSession::ran);
        QVERIFY(e.session.revert());
        QCOMPARE(e.editor().bytes(), kTriangle); // the disk's text at once
        QVERIFY(!e.session.isModified());
        QCOMPARE(c.position(), at); // the old run, until the parse is back
        QCOMPARE(ran.count(), 0);
        QTRY_COMPARE(ran.count(), 1);
        QCOMPARE(c.position(), std::uint64_t(0));
        QCOMPARE(e.session.lastRunText(), kTriangle);
        QCOMPARE(c.scene().lines.size(), std::size_t(kTriangle.count('\n')));
        // A second Revert of an unchanged file runs it from its start again.
        c.last();
        QTRY_VERIFY_WITH_TIMEOUT(!c.isBusy() && c.atEnd(), 10000);
        QVERIFY(e.session.revert());
        QTRY_COMPARE(ran.count(), 2);
        QCOMPARE(c.position(), std::uint64_t(0));
    }

    void typingOverAFileStillBeingParsedRunsItAsOpened()
    {
        // Opened from the window, a file is parsed on the checker's thread; typing before that
        // parse is back drops its result. The first check of the typed text then runs in its
        // place, from step 0, even with running as one types turned off.
        Editing e(path("recovery-overtaken"));
        e.session.setRunAsYouType(false);
        const QString file = path("overtaken.scn");
        QVERIFY(write_all(file, kTriangle));
        PlayerController &c = e.controller;
        QSignalSpy ran(&e.session, &EditorSession::ran);
        QVERIFY(e.session.open(file, EditorSession::Parse::in_background));
        e.typeAtEnd(QStringLiteral("gc")); // before any event is served: the parse is not back
        QTRY_VERIFY(e.settled());
        QTRY_COMPARE(ran.count(), 1);
        QVERIFY(c.hasScene());
        QCOMPARE(c.position(), std::uint64_t(0));
        QVERIFY(e.session.lastRunText().endsWith("gc"));
        QVERIFY(e.session.isModified());
    }

    void theRecoveryCopyComesBackAfterAKill()
    {
        const QString recovery = path("recovery-kill");
        const QString file = path("killed.scn");
        QVERIFY(write_all(file, kTriangle));
        QProcess child;
        child.setProgram(QCoreApplication::applicationFilePath());
        child.setArguments({QStringLiteral("--child-types-then-waits"), file, recovery,
                            QStringLiteral("send a2 fds=c # typed before the kill")});
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        child.start();
        QVERIFY(child.waitForStarted(10000));
        // The child says "written" once its recovery copy is on disk; then it is killed.
        QByteArray out;
        while (!out.contains("written") && child.waitForReadyRead(20000))
            out += child.readAllStandardOutput();
        QVERIFY2(out.contains("written"), out.constData());
        child.kill();
        QVERIFY(child.waitForFinished(10000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);

        Editing e(recovery);
        int asked = 0;
        e.session.setRecoverPrompt([&](const editor::RecoveryStore::Copy &c) {
            ++asked;
            return c.original_path == QFileInfo(file).absoluteFilePath();
        });
        QVERIFY(e.session.offerRecovery());
        QCOMPARE(asked, 1);
        QCOMPARE(e.editor().bytes(), kTriangle + "send a2 fds=c # typed before the kill");
        QCOMPARE(e.session.path(), QFileInfo(file).absoluteFilePath());
        QVERIFY(e.session.isModified());
        QCOMPARE(read_all(file), kTriangle); // nothing was saved behind the user's back
        // Saving it ends the recovery copy.
        QVERIFY(e.session.save());
        QVERIFY(editor::RecoveryStore(recovery).all().isEmpty());
    }

    void twoEditedFilesBothComeBackAfterAKill()
    {
        // Two windows (two processes) edit two files; both are killed. One recovery slot would
        // keep only the later writer's text.
        const QString recovery = path("recovery-two");
        const QString a = path("two-a.scn"), b = path("two-b.scn");
        QVERIFY(write_all(a, kTriangle));
        QVERIFY(write_all(b, "socketpair x y\n"));
        const QList<QPair<QString, QString>> edits{{a, QStringLiteral("# typed into a")},
                                                   {b, QStringLiteral("# typed into b")}};
        for (const auto &[file, typed] : edits) {
            QProcess child;
            child.setProgram(QCoreApplication::applicationFilePath());
            child.setArguments({QStringLiteral("--child-types-then-waits"), file, recovery, typed});
            child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
            child.start();
            QVERIFY(child.waitForStarted(10000));
            QByteArray out;
            while (!out.contains("written") && child.waitForReadyRead(20000))
                out += child.readAllStandardOutput();
            QVERIFY2(out.contains("written"), out.constData());
            child.kill();
            QVERIFY(child.waitForFinished(10000));
        }
        QCOMPARE(editor::RecoveryStore(recovery).all().size(), 2);

        Editing e(recovery);
        QStringList offered;
        e.session.setRecoverPrompt([&](const editor::RecoveryStore::Copy &c) {
            offered << QFileInfo(c.original_path).fileName();
            return true;
        });
        // At start the newest (b's) comes back; a's waits for a to be opened.
        QVERIFY(e.session.offerRecovery());
        QCOMPARE(offered, QStringList{QStringLiteral("two-b.scn")});
        QCOMPARE(e.session.path(), QFileInfo(b).absoluteFilePath());
        QCOMPARE(e.editor().bytes(), QByteArray("socketpair x y\n# typed into b"));
        QVERIFY(e.session.save());
        QVERIFY(e.session.open(a));
        QCOMPARE(offered, (QStringList{QStringLiteral("two-b.scn"), QStringLiteral("two-a.scn")}));
        QCOMPARE(e.editor().bytes(), kTriangle + "# typed into a");
        QVERIFY(e.session.isModified());
        QCOMPARE(read_all(a), kTriangle);
        // Saved: no copy is left of either.
        QVERIFY(e.session.save());
        QVERIFY(editor::RecoveryStore(recovery).all().isEmpty());
    }

    // A second instance started while the first has unsaved text neither offers nor deletes
    // the first one's copy; once the first is gone, its copy is offered.
    void aSecondInstanceLeavesTheFirstOnesCopy()
    {
        const QString recovery = path("recovery-second");
        const QString file = path("second.scn");
        QVERIFY(write_all(file, kTriangle));
        auto first = std::make_unique<Editing>(recovery);
        first->session.setRecoveryInterval(50);
        QVERIFY(first->session.open(file));
        QSignalSpy written(&first->session, &EditorSession::recoveryWritten);
        first->editor().setCompleteWhileTyping(false);
        first->typeAtEnd(QStringLiteral("# unsaved in the first"));
        QVERIFY(written.wait(10000));

        Editing second(recovery);
        int asked = 0;
        second.session.setRecoverPrompt([&](const editor::RecoveryStore::Copy &) {
            ++asked;
            return false; // "No": would delete the copy offered
        });
        QVERIFY(!second.session.offerRecovery());
        QCOMPARE(asked, 0);
        QVERIFY(second.session.open(file)); // the file's own copy is not offered either
        QCOMPARE(asked, 0);
        const auto kept =
            first->session.recoveryStore().read(QFileInfo(file).absoluteFilePath(), editor::RecoveryStore::Whose::mine);
        QVERIFY(kept.has_value());
        QCOMPARE(kept->text, kTriangle + "# unsaved in the first");

        // The first instance goes without saving (its lock goes, its copy stays): now offered.
        first->editor().setModified(true);
        first.reset();
        Editing third(recovery);
        third.session.setRecoverPrompt([&](const editor::RecoveryStore::Copy &) {
            ++asked;
            return true;
        });
        QVERIFY(third.session.offerRecovery());
        QCOMPARE(asked, 1);
        QCOMPARE(third.editor().bytes(), kTriangle + "# unsaved in the first");
    }

    // A copy holding a NUL byte comes back whole, and is written back whole.
    void aRecoveryCopyWithANulComesBackWhole()
    {
        const QString recovery = path("recovery-nul");
        const QByteArray text("socketpair a b\n# before\0after the NUL\nclose a\n", 46);
        QVERIFY(text.contains('\0'));
        {
            editor::RecoveryStore gone(recovery); // an instance that wrote its copy and went
            QVERIFY(gone.write({}, text));
        }
        Editing e(recovery);
        e.session.setRecoverPrompt([](const editor::RecoveryStore::Copy &) { return true; });
        QVERIFY(e.session.offerRecovery());
        QCOMPARE(e.editor().bytes(), text);
        const auto own = e.session.recoveryStore().read({}, editor::RecoveryStore::Whose::mine);
        QVERIFY(own.has_value());
        QCOMPARE(own->text, text);
    }

    void unsavedChangesAreAskedAboutOnCloseOpenAndQuit()
    {
        PlayerController c;
        MainWindow w(c);
        w.session().setRecoveryStore(editor::RecoveryStore(path("recovery-prompt")));
        QStringList asked;
        EditorSession::Answer answer = EditorSession::Answer::cancel;
        w.session().setUnsavedPrompt([&](const QString &name) {
            asked << name;
            return answer;
        });
        const QString a = path("prompt-a.scn"), b = path("prompt-b.scn");
        QVERIFY(write_all(a, kTriangle));
        QVERIFY(write_all(b, "socketpair x y\n"));
        QVERIFY(w.openSceneNow(a));
        w.show();
        QVERIFY(!w.windowTitle().contains(QLatin1Char('*')));
        w.sceneEditor().SendScintilla(QsciScintilla::SCI_DOCUMENTEND);
        QTest::keyClicks(&w.sceneEditor(), QStringLiteral("gc"));
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("prompt-a.scn*")) ||
                w.windowTitle().contains(QStringLiteral("prompt-a.scn*")));

        // Open another file: asked; Cancel keeps this one.
        QVERIFY(!w.openSceneNow(b));
        QCOMPARE(asked, QStringList{QStringLiteral("prompt-a.scn")});
        QCOMPARE(w.session().path(), QFileInfo(a).absoluteFilePath());
        // New: asked too.
        w.action("new")->trigger();
        QCOMPARE(asked.size(), 2);
        QCOMPARE(w.session().path(), QFileInfo(a).absoluteFilePath());
        // Close: asked; Cancel keeps the window.
        QVERIFY(!w.close());
        QCOMPARE(asked.size(), 3);
        QVERIFY(w.isVisible());
        // Quit: asked; Save writes it, then the window closes.
        answer = EditorSession::Answer::save;
        w.action("quit")->trigger();
        QCOMPARE(asked.size(), 4);
        QVERIFY(!w.isVisible());
        QCOMPARE(read_all(a), kTriangle + "gc");
    }

    void liveRerunKeepsTheStatementAndItsMicroStep()
    {
        Editing e(path("recovery-live"));
        const QString file = path("live.scn");
        QVERIFY(write_all(file, kTriangle));
        QVERIFY(e.session.open(file));
        PlayerController &c = e.controller;
        QTRY_VERIFY(c.indexReady());
        // Somewhere inside the 7th statement (close a b c), a few micro-steps in.
        c.seek(c.firstStepOfLine(7) + 3);
        const std::uint64_t at = c.position();
        const std::uint64_t statement = c.sim().statements_executed();
        QCOMPARE(c.sim().current_line(), 7u);
        QSignalSpy ran(&e.session, &EditorSession::ran);
        // A line after it: the same statement, the same micro-step.
        e.typeAtEnd(QStringLiteral("expect freed a"));
        QTRY_COMPARE(ran.count(), 1);
        QCOMPARE(c.scene().lines.size(), std::size_t(9));
        QCOMPARE(c.position(), at);
        QCOMPARE(c.sim().statements_executed(), statement);
        QCOMPARE(c.sim().current_line(), 7u);
        // A comment above everything moves the statement a line down, not the view off it.
        e.editor().SendScintilla(QsciScintilla::SCI_DOCUMENTSTART);
        QTest::keyClicks(&e.editor(), QStringLiteral("# live"));
        QTest::keyClick(&e.editor(), Qt::Key_Return);
        QTRY_COMPARE(ran.count(), 2);
        QCOMPARE(c.position(), at);
        QCOMPARE(c.sim().statements_executed(), statement);
        QCOMPARE(c.sim().current_line(), 8u);
        QCOMPARE(e.editor().currentLine(), 8);
        // A mistake keeps the last good run, dimmed (stale), with the banner.
        QSignalSpy stale(&e.dock, &docks::SceneDock::staleRunChanged);
        e.typeAtEnd(QString());
        QTest::keyClick(&e.editor(), Qt::Key_Return);
        QTest::keyClicks(&e.editor(), QStringLiteral("sned"));
        QTRY_VERIFY(e.settled());
        QCOMPARE(ran.count(), 2);
        QCOMPARE(stale.count(), 1);
        QCOMPARE(stale.front().front().toBool(), true);
        QCOMPARE(c.position(), at);
    }

    void runToCursorStopsOnTheCursorsStatement()
    {
        PlayerController c;
        MainWindow w(c);
        w.session().setRecoveryStore(editor::RecoveryStore(path("recovery-cursor")));
        const QString file = path("cursor.scn");
        QVERIFY(write_all(file, kTriangle));
        QVERIFY(w.openSceneNow(file));
        w.show();
        QTRY_VERIFY(c.indexReady());
        for (int line : {5, 2, 8}) {
            w.sceneEditor().setCursorPosition(line - 1, 0);
            w.action("runToCursor")->trigger();
            QCOMPARE(c.currentEvent()->kind, inflight::EventKind::stmt_begin);
            QCOMPARE(static_cast<int>(c.sim().current_line()), line);
            QCOMPARE(w.sceneEditor().currentLine(), line);
        }
        // A line that never runs says so and moves nothing.
        const std::uint64_t at = c.position();
        w.sceneEditor().setCursorPosition(8, 0); // the empty line after the last
        QVERIFY(!w.runToCursor());
        QCOMPARE(c.position(), at);
    }

    void completionOffersTheStatementsAndTheNames()
    {
        Editing e(path("recovery-complete"));
        const QString file = path("complete.scn");
        QVERIFY(write_all(file, kTriangle));
        QVERIFY(e.session.open(file));
        e.typeAtEnd(QStringLiteral("se"));
        QCOMPARE(e.editor().showCompletions(), 3);
        QCOMPARE(e.editor().lastCompletions(),
                 (QStringList{QStringLiteral("set"), QStringLiteral("send"), QStringLiteral("setsockopt")}));
        e.editor().cancelList();
        QTest::keyClicks(&e.editor(), QStringLiteral("nd a2 fds="));
        e.editor().showCompletions();
        for (const char *name : {"a", "a2", "b", "b2", "c", "c2"})
            QVERIFY2(e.editor().lastCompletions().contains(QString::fromLatin1(name)), name);
    }

    void completionPopsUpWhileTyping()
    {
        Editing e(path("recovery-autocomplete"));
        const QString file = path("autocomplete.scn");
        QVERIFY(write_all(file, kTriangle));
        QVERIFY(e.session.open(file));
        SceneEditor &ed = e.editor();
        // A statement's first letter at a line's start: the statements that begin with it.
        e.typeAtEnd(QStringLiteral("so"));
        QVERIFY(ed.isListActive());
        QVERIFY(ed.lastCompletions().contains(QStringLiteral("socketpair")));
        // Enter on a word still being typed takes the list's choice.
        QTest::keyClick(&ed, Qt::Key_Return);
        QVERIFY(!ed.isListActive());
        QVERIFY(ed.bytes().endsWith("\nsocketpair"));
        // An option's '=': the names defined so far.
        QTest::keyClicks(&ed, QStringLiteral(" d d2"));
        QTest::keyClick(&ed, Qt::Key_Return);
        QTest::keyClicks(&ed, QStringLiteral("send d2 fds="));
        QVERIFY(ed.isListActive());
        for (const char *name : {"a", "b2", "d"})
            QVERIFY2(ed.lastCompletions().contains(QString::fromLatin1(name)), name);
        ed.cancelList();
        // A word typed in full ends its line on Enter, list or not ("set" also begins "setsockopt").
        QTest::keyClicks(&ed, QStringLiteral("a"));
        QTest::keyClick(&ed, Qt::Key_Return);
        QTest::keyClicks(&ed, QStringLiteral("set"));
        QVERIFY(ed.lastCompletions().contains(QStringLiteral("setsockopt")));
        QTest::keyClick(&ed, Qt::Key_Return);
        QVERIFY2(ed.bytes().endsWith("fds=a\nset\n"), ed.bytes().right(30).constData());
        // Nothing pops up in a comment, nor for one letter in the middle of a line.
        QTest::keyClicks(&ed, QStringLiteral("# so"));
        QVERIFY(!ed.isListActive());
        QTest::keyClick(&ed, Qt::Key_Return);
        QTest::keyClicks(&ed, QStringLiteral("close a"));
        QVERIFY(!ed.isListActive());
        // Switched off, only Ctrl+Space shows it.
        QTest::keyClick(&ed, Qt::Key_Return);
        ed.setCompleteWhileTyping(false);
        QTest::keyClicks(&ed, QStringLiteral("so"));
        QVERIFY(!ed.isListActive());
    }

    void aLongRerunKeepsTheWindowResponsiveAndTheOldRunUsable()
    {
        // 12,000 socket pairs, each sending one over another (under the 16,000 in flight that
        // make every send collect), then a hundred collections over them: millions of steps
        // before the last gc, far more than a re-run replays at once on any machine.
        QByteArray text = "set nofile 200000\nrepeat 12000 as r {\n  socketpair a$r b$r\n  send a$r fds=b$r\n}\n"
                          "repeat 100 {\n  gc\n}\ngc\n";
        Editing e(path("recovery-long"));
        const QString file = path("long.scn");
        QVERIFY(write_all(file, text));
        QVERIFY(e.session.open(file));
        PlayerController &c = e.controller;
        QTRY_VERIFY_WITH_TIMEOUT(c.indexReady(), 60000);
        c.seek(c.firstStepOfLine(9)); // the gc at the end
        QTRY_VERIFY_WITH_TIMEOUT(!c.isBusy(), 60000);
        const std::uint64_t at = c.position();
        QVERIFY(!c.replaysInline(at));
        const std::uint64_t statement = c.sim().statements_executed();
        // While the re-run replays, the event loop turns (a timer fires) and the old run is
        // still the one on screen, at its place, and can be stepped.
        bool turned_while_pending = false;
        std::uint64_t position_while_pending = 0;
        std::size_t lines_while_pending = 0;
        QTimer tick;
        tick.setInterval(0);
        connect(&tick, &QTimer::timeout, this, [&] {
            if (!c.isRerunPending() || turned_while_pending)
                return;
            turned_while_pending = true;
            position_while_pending = c.position();
            lines_while_pending = c.scene().lines.size();
        });
        QSignalSpy pending(&c, &PlayerController::rerunPendingChanged);
        QSignalSpy progress(&c, &PlayerController::rerunProgress);
        QSignalSpy ran(&e.session, &EditorSession::ran);
        tick.start();
        e.typeAtEnd(QStringLiteral("# edited"));
        QTRY_COMPARE_WITH_TIMEOUT(ran.count(), 1, 60000);
        tick.stop();
        QVERIFY(pending.count() >= 2);
        QCOMPARE(pending.front().front().toBool(), true);
        QCOMPARE(pending.back().front().toBool(), false);
        QVERIFY(!progress.isEmpty());
        QVERIFY(turned_while_pending);
        QCOMPARE(position_while_pending, at);
        QCOMPARE(lines_while_pending, std::size_t(9)); // the old scene's
        // Installed: the new scene, at the same statement and micro-step.
        QCOMPARE(c.scene().lines.size(), std::size_t(10));
        QCOMPARE(c.position(), at);
        QCOMPARE(c.sim().statements_executed(), statement);
        QVERIFY(!c.isRerunPending());
    }

    void aNewerEditSupersedesAPendingRerun()
    {
        QByteArray text = "set nofile 200000\nrepeat 12000 as r {\n  socketpair a$r b$r\n  send a$r fds=b$r\n}\n"
                          "repeat 100 {\n  gc\n}\ngc\n";
        Editing e(path("recovery-supersede"));
        const QString file = path("supersede.scn");
        QVERIFY(write_all(file, text));
        QVERIFY(e.session.open(file));
        PlayerController &c = e.controller;
        QTRY_VERIFY_WITH_TIMEOUT(c.indexReady(), 60000);
        c.seek(c.firstStepOfLine(9));
        QTRY_VERIFY_WITH_TIMEOUT(!c.isBusy(), 60000);
        const std::uint64_t at = c.position();
        QVERIFY(!c.replaysInline(at));
        QSignalSpy loaded(&c, &PlayerController::sceneLoaded);
        // Two re-runs asked for back to back: only the newer is installed.
        auto first = std::make_shared<const inflight::Scene>(
            inflight::parse_scene(std::string_view(QByteArray(text + "# one\n")), "supersede.scn").scene);
        auto second = std::make_shared<const inflight::Scene>(
            inflight::parse_scene(std::string_view(QByteArray(text + "# one\n# two\n")), "supersede.scn").scene);
        c.rerunKeepingPlace(first);
        QVERIFY(c.isRerunPending());
        c.rerunKeepingPlace(second);
        QTRY_VERIFY_WITH_TIMEOUT(!c.isRerunPending(), 60000);
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(c.scene().lines.size(), std::size_t(11));
        QCOMPARE(c.position(), at);
    }

    void liveRerunKeepsTheGraphViewport()
    {
        PlayerController c;
        MainWindow w(c);
        w.session().setRecoveryStore(editor::RecoveryStore(path("recovery-viewport")));
        const QString file = path("viewport.scn");
        QVERIFY(write_all(file, kTriangle));
        w.resize(1280, 800);
        w.show();
        QVERIFY(w.openSceneNow(file));
        QTRY_VERIFY(c.indexReady());
        c.seek(c.firstStepOfLine(7)); // the triangle built, not yet closed
        GraphView *view = w.graph().view();
        QSignalSpy laid(view->graphScene(), &GraphScene::layoutApplied);
        QTRY_VERIFY(w.graph().socketItemCount() > 0);
        // Laid out before the user looks: a layout of the first run landing after the zoom
        // below would be counted as the re-run's (and a clean-clone CI run under load once saw
        // the centre move by the graph's size).
        QVERIFY(w.graph().waitForLayout(60000));
        QTest::qWait(0);
        // The user zooms in and looks at one part.
        view->zoomBy(2.5);
        const QPointF look = view->mapToScene(view->viewport()->rect().center()) + QPointF(20, 10);
        view->centerOn(look);
        const double zoom = view->zoom();
        const QPointF centre = view->mapToScene(view->viewport()->rect().center());
        QVERIFY(!view->followsGraph());
        QSignalSpy ran(&w.session(), &EditorSession::ran);
        const int layouts = static_cast<int>(laid.count());
        w.sceneEditor().SendScintilla(QsciScintilla::SCI_DOCUMENTEND);
        QTest::keyClicks(&w.sceneEditor(), QStringLiteral("# a comment"));
        QTRY_COMPARE(ran.count(), 1);
        QTRY_VERIFY(laid.count() > layouts); // the re-run's graph laid out
        QCOMPARE(view->zoom(), zoom);
        const QPointF after = view->mapToScene(view->viewport()->rect().center());
        QVERIFY2(QLineF(after, centre).length() < 2.0,
                 qPrintable(QStringLiteral("centre moved from (%1, %2) to (%3, %4)")
                                .arg(centre.x())
                                .arg(centre.y())
                                .arg(after.x())
                                .arg(after.y())));
        QVERIFY(!view->followsGraph());
    }
};

namespace {

// The child of theRecoveryCopyComesBackAfterAKill: opens the file, types, and once the
// recovery copy is written says so and waits to be killed.
int child_main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    Editing e{QString::fromLocal8Bit(argv[3])};
    e.session.setRecoveryInterval(50);
    if (!e.session.open(QString::fromLocal8Bit(argv[2])))
        return 3;
    const QString typed = QString::fromLocal8Bit(argv[4]);
    QObject::connect(&e.session, &EditorSession::recoveryWritten, [] {
        std::fputs("written\n", stdout);
        std::fflush(stdout);
    });
    e.editor().setCompleteWhileTyping(false); // the text exactly as given
    e.typeAtEnd(typed);
    return app.exec();
}

} // namespace

int main(int argc, char **argv)
{
    if (argc == 5 && std::string_view(argv[1]) == "--child-types-then-waits")
        return child_main(argc, argv);
    QApplication app(argc, argv);
    TestEditor test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_editor.moc"
