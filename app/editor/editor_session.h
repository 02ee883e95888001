// SPDX-License-Identifier: GPL-3.0-or-later
// The scene file being edited: what is in the editor, where it came from and whether it is
// saved. New, Open, Save, Save As, Revert; the unsaved-changes question before anything that
// would drop the buffer; diagnostics as you type (BufferChecker) shown in the Scene dock; a
// clean buffer re-run where the view was ("Run as you type"); a recovery copy every few seconds
// (RecoveryStore); a file changed on disk while edited asks instead of clobbering either side.
// Saving writes the buffer's bytes as they are (its line endings, its final newline or none)
// whole or not at all (saveFile()): a failed save changes nothing but says why.
#pragma once

#include "buffer_checker.h"
#include "recovery_store.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>
#include <QTimer>

#include <functional>

class PlayerController;
class QFileSystemWatcher;

namespace docks {
class SceneDock;
}

namespace editor {

class SceneEditor;

class EditorSession : public QObject {
    Q_OBJECT
public:
    EditorSession(PlayerController &controller, docks::SceneDock &dock, QObject *parent = nullptr);
    ~EditorSession() override;

    enum class Answer { save, discard, cancel };
    // Questions the session asks the user; tests answer them. Defaults: message boxes.
    using UnsavedPrompt = std::function<Answer(const QString &file_name)>;
    using ChangedOnDiskPrompt = std::function<bool(const QString &file_name)>;  // true: load the disk's
    using RecoverPrompt = std::function<bool(const RecoveryStore::Copy &copy)>; // true: restore it
    using SavePathPrompt = std::function<QString(const QString &suggested)>;    // empty: cancelled
    using MessageSink = std::function<void(const QString &message)>;            // an error for the user
    void setUnsavedPrompt(UnsavedPrompt p) { unsaved_prompt_ = std::move(p); }
    void setChangedOnDiskPrompt(ChangedOnDiskPrompt p) { disk_prompt_ = std::move(p); }
    void setRecoverPrompt(RecoverPrompt p) { recover_prompt_ = std::move(p); }
    void setSavePathPrompt(SavePathPrompt p) { save_path_prompt_ = std::move(p); }
    void setMessageSink(MessageSink s) { message_sink_ = std::move(s); }
    void setRecoveryStore(RecoveryStore store)
    {
        recovery_writer_.waitForDone();
        recovery_ = std::move(store);
    }
    RecoveryStore &recoveryStore() { return recovery_; }
    static constexpr int kRecoveryIntervalMs = 3000;
    void setRecoveryInterval(int ms) { recovery_timer_.setInterval(ms); }
    BufferChecker &checker() { return checker_; }

    // How a file's text is parsed when it is opened or reverted: at once (the command line and
    // scripts: the run, or the errors, are there when open() returns), or on the checker's
    // thread (the window: parsing grows with the scene, and the run on screen stays usable
    // meanwhile; fileChecked() says when it is back).
    enum class Parse : bool { now, in_background };
    // Opens a file into the editor: a scene with errors opens too, every error marked, and the
    // run on screen stays the last good one. False (after a message) when it cannot be read
    // as text, or when the user kept the unsaved buffer.
    bool open(const QString &path, Parse parse = Parse::now);
    // A new buffer, empty or with an example's text; it belongs to no file until saved.
    bool newScene(const QByteArray &text = {});
    // Text that is no file's (the welcome scene): shown and run, not offered for saving.
    void showText(const QByteArray &text, const QString &name);
    bool save();
    bool saveAs(const QString &path = {});
    bool revert();
    // Asks about unsaved changes; true when it is fine to drop the buffer.
    bool maybeSave();
    // At start: offers the recovery copies a crash or a kill left, newest first, until one is
    // restored (true); the copies of other files are offered when those files are opened.
    bool offerRecovery();

    QString path() const { return path_; }
    QString displayName() const;
    bool isModified() const;
    bool isClean() const { return clean_; } // the last check found no error
    bool runAsYouType() const { return run_as_you_type_; }
    void setRunAsYouType(bool on);
    // The text the run on screen was made from.
    QByteArray lastRunText() const { return last_run_; }
    // Ctrl+.: the fix-it of the problem on the cursor's line; false (nothing changed) when that
    // line has none.
    bool applyFix();

signals:
    void titleChanged();
    void checked(const editor::CheckResult &result);
    void recoveryWritten();
    // A run was installed from the buffer (opened or re-run; a long re-run when it is ready).
    void ran();
    // The check of a file just opened or reverted is in: clean, or its errors are marked.
    void fileChecked(bool clean);

private:
    void load(const QByteArray &bytes, const QString &path, Parse parse = Parse::now);
    void onChecked(const CheckResult &r);
    void writeRecovery();
    void restore(const RecoveryStore::Copy &copy);
    // Drops the buffer's recovery copy (and that of the name it had when last written).
    void clearRecovery();
    void fileChangedOnDisk(const QString &path);
    void watch(const QString &path);
    void report(const QString &message);

    PlayerController &controller_;
    docks::SceneDock &dock_;
    QPointer<SceneEditor> editor_; // the dock's: it may go first when the window closes
    BufferChecker checker_;
    RecoveryStore recovery_;
    QTimer recovery_timer_;
    QThreadPool recovery_writer_; // one thread: copies are written in order
    QFileSystemWatcher *watcher_;
    QString path_;
    QString name_; // shown when there is no path ("welcome.scn", "untitled")
    QByteArray last_run_;
    QByteArray pending_run_; // the text of a re-run not yet installed (null: none)
    // The check whose result runs as a file just opened (from step 0, whatever the live
    // setting), or the first later one if typing overtook it; 0: none. load()'s own, or the
    // one it left to the checker's thread.
    quint64 opening_check_ = 0;
    QByteArray last_recovered_;
    QString recovered_path_; // whose slot the last recovery copy went to (null: none written)
    QByteArray saving_;      // the bytes being written: the watcher's echo of our own save
    bool clean_ = true;
    bool run_as_you_type_ = true;
    bool loading_ = false;
    UnsavedPrompt unsaved_prompt_;
    ChangedOnDiskPrompt disk_prompt_;
    RecoverPrompt recover_prompt_;
    SavePathPrompt save_path_prompt_;
    MessageSink message_sink_;
};

} // namespace editor
