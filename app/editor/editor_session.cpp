// SPDX-License-Identifier: GPL-3.0-or-later
#include "editor_session.h"

#include "scene_editor.h"
#include "scene_file_reader.h"

#include "../docks/scene_dock.h"
#include "../player_controller.h"
#include "../save_file.h"

#include "inflight/parser.hpp"

#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QMessageBox>
#include <QMetaObject>

#include <utility>

namespace editor {
namespace {

QWidget *window_of(QObject *o)
{
    auto *w = qobject_cast<QWidget *>(o);
    return w ? w->window() : nullptr;
}

} // namespace

EditorSession::EditorSession(PlayerController &controller, docks::SceneDock &dock, QObject *parent)
    : QObject(parent), controller_(controller), dock_(dock), editor_(dock.editor()),
      watcher_(new QFileSystemWatcher(this)), name_(tr("untitled.scn"))
{
    dock_.setFollowsController(false);
    recovery_writer_.setMaxThreadCount(1);
    recovery_timer_.setInterval(kRecoveryIntervalMs);
    connect(&recovery_timer_, &QTimer::timeout, this, &EditorSession::writeRecovery);
    recovery_timer_.start();
    connect(editor_, &QsciScintilla::textChanged, this, [this] {
        if (loading_)
            return;
        checker_.changed([this] { return editor_->bytes(); });
    });
    connect(editor_, &QsciScintilla::modificationChanged, this, &EditorSession::titleChanged);
    connect(&checker_, &BufferChecker::checked, this, &EditorSession::onChecked);
    // A re-run replayed off the GUI thread is shown when it is installed, not when it starts.
    connect(&controller_, &PlayerController::sceneLoaded, this, [this] {
        if (!controller_.isRerun() || pending_run_.isNull())
            return;
        last_run_ = pending_run_;
        pending_run_.clear();
        emit ran();
    });
    connect(&controller_, &PlayerController::rerunPendingChanged, this, [this](bool pending) {
        if (!pending)
            pending_run_ = QByteArray(); // dropped (superseded by another scene or options)
    });
    connect(watcher_, &QFileSystemWatcher::fileChanged, this, [this](const QString &p) {
        // Editors often replace the file: reload after the write settles, then watch again.
        QTimer::singleShot(200, this, [this, p] { fileChangedOnDisk(p); });
    });
    unsaved_prompt_ = [this](const QString &name) {
        const auto b = QMessageBox::question(
            window_of(&dock_), tr("Unsaved changes"), tr("%1 has unsaved changes. Save them?").arg(name),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        return b == QMessageBox::Save ? Answer::save : b == QMessageBox::Discard ? Answer::discard : Answer::cancel;
    };
    disk_prompt_ = [this](const QString &name) {
        return QMessageBox::question(window_of(&dock_), tr("Changed on disk"),
                                     tr("%1 changed on disk while you edited it. Load the version on disk "
                                        "(your changes are lost), or keep yours (saving overwrites the disk's)?")
                                         .arg(name),
                                     QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
    };
    recover_prompt_ = [this](const RecoveryStore::Copy &c) {
        return QMessageBox::question(
                   window_of(&dock_), tr("Recover unsaved changes"),
                   tr("Inflight did not close normally. Restore the unsaved text of %1 (written %2)?")
                       .arg(c.original_path.isEmpty() ? tr("an untitled scene") : QFileInfo(c.original_path).fileName(),
                            c.written.toLocalTime().toString()),
                   QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes) == QMessageBox::Yes;
    };
    message_sink_ = [this](const QString &m) { QMessageBox::warning(window_of(&dock_), tr("Inflight"), m); };
}

EditorSession::~EditorSession()
{
    // Closing normally with nothing unsaved: nothing to recover.
    if (editor_ && !editor_->isModified())
        clearRecovery();
    recovery_writer_.waitForDone();
}

QString EditorSession::displayName() const { return path_.isEmpty() ? name_ : QFileInfo(path_).fileName(); }

bool EditorSession::isModified() const { return editor_ && editor_->isModified(); }

void EditorSession::report(const QString &message)
{
    if (message_sink_)
        message_sink_(message);
}

void EditorSession::watch(const QString &path)
{
    if (!watcher_->files().isEmpty())
        watcher_->removePaths(watcher_->files());
    if (!path.isEmpty() && QFileInfo::exists(path))
        watcher_->addPath(path);
}

void EditorSession::load(const QByteArray &bytes, const QString &path, Parse parse)
{
    loading_ = true;
    editor_->setBytes(bytes);
    // New lines are typed with the file's own line ending.
    editor_->setEolMode(bytes.contains("\r\n") ? QsciScintilla::EolWindows : QsciScintilla::EolUnix);
    editor_->setModified(false);
    loading_ = false;
    path_ = path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath();
    checker_.setFileName(path_.isEmpty() ? name_ : path_);
    watch(path_);
    last_recovered_.clear();
    last_run_.clear();
    if (parse == Parse::in_background) {
        checker_.checkNow(bytes); // supersedes a check of the previous buffer still running
        opening_check_ = checker_.generation();
        emit titleChanged();
        return;
    }
    checker_.supersede(); // a check of the previous buffer still running is dropped
    CheckResult r;
    r.generation = opening_check_ = checker_.generation();
    r.text = bytes;
    r.parsed = std::make_shared<inflight::ParseResult>(
        inflight::parse_scene(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                              checker_.fileName().toStdString()));
    onChecked(r);
    emit titleChanged();
}

void EditorSession::onChecked(const CheckResult &r)
{
    if (r.text != editor_->bytes())
        return; // typed over meanwhile; the newer check comes
    const bool ok = r.parsed->ok();
    clean_ = ok;
    // A file opened (or reverted) runs from its start, whatever the live setting.
    // A file's opening check is parsed in the background, so typing can overtake it (its result
    // is then dropped, here or by the checker): the first check of the text as typed runs it in
    // its place, from its start, as the file would have run.
    const quint64 opening_check = std::exchange(opening_check_, 0);
    const bool opening = opening_check != 0 && r.generation >= opening_check;
    const bool runs_this_file =
        !opening && controller_.hasScene() && controller_.filePath() == path_ && !last_run_.isNull();
    const bool already = !opening && (pending_run_.isNull() ? r.text == last_run_ : r.text == pending_run_);
    if (ok && (run_as_you_type_ || opening) && !already) {
        auto scene = std::make_shared<const inflight::Scene>(std::move(r.parsed->scene));
        if (runs_this_file) {
            pending_run_ = r.text;
            controller_.rerunKeepingPlace(std::move(scene));
            // Replayed at once (sceneLoaded() installed it) or on a pool thread (ran() then).
        } else {
            pending_run_ = QByteArray();
            controller_.openParsed(std::move(scene), path_);
            last_run_ = r.text;
            emit ran();
        }
    }
    dock_.showDiagnostics(r.parsed->diagnostics, !ok && controller_.hasScene());
    emit checked(r);
    if (opening)
        emit fileChecked(ok);
}

void EditorSession::setRunAsYouType(bool on)
{
    run_as_you_type_ = on;
    if (on)
        checker_.checkNow(editor_->bytes());
}

bool EditorSession::maybeSave()
{
    if (!isModified())
        return true;
    switch (unsaved_prompt_ ? unsaved_prompt_(displayName()) : Answer::cancel) {
    case Answer::save: return save();
    case Answer::discard: clearRecovery(); return true;
    case Answer::cancel: return false;
    }
    return false;
}

bool EditorSession::open(const QString &path, Parse parse)
{
    QString error;
    const auto bytes = readSceneFile(path, &error);
    if (!bytes) {
        report(error);
        return false;
    }
    if (!maybeSave())
        return false;
    clearRecovery();
    load(*bytes, path, parse);
    // This file's own recovery copy, left by a session that did not close normally (another
    // file's was offered at start): offered as it is opened.
    QStringList refused;
    const auto copy = recovery_.read(path_, RecoveryStore::Whose::left, &refused);
    for (const QString &m : refused)
        report(m);
    if (copy && copy->text != *bytes) {
        if (recover_prompt_ && recover_prompt_(*copy))
            restore(*copy);
        else
            recovery_.remove(*copy);
    }
    return true;
}

bool EditorSession::newScene(const QByteArray &text)
{
    if (!maybeSave())
        return false;
    clearRecovery();
    name_ = tr("untitled.scn");
    load(text, {});
    return true;
}

void EditorSession::showText(const QByteArray &text, const QString &name)
{
    name_ = name;
    load(text, {});
}

bool EditorSession::save()
{
    if (path_.isEmpty())
        return saveAs();
    const QFileInfo info(path_);
    if (info.exists() && !info.isWritable()) {
        report(tr("%1: error: cannot save: the file is read-only; use Save As").arg(path_));
        return false;
    }
    const QByteArray bytes = editor_->bytes();
    // Whole or not at all: on a failure the file on disk, the buffer (still modified, so the
    // title keeps its mark and quitting asks) and its recovery copy all stay.
    if (const auto error = saveFile(path_, bytes)) {
        report(*error); // "cannot save PATH: STEP: ERRNO TEXT; the file on disk is unchanged"
        return false;
    }
    saving_ = bytes;
    editor_->setModified(false);
    clearRecovery();
    last_recovered_.clear();
    watch(path_);
    emit titleChanged();
    return true;
}

bool EditorSession::saveAs(const QString &path)
{
    QString target = path;
    if (target.isEmpty() && save_path_prompt_)
        target = save_path_prompt_(path_.isEmpty() ? name_ : path_);
    if (target.isEmpty())
        return false;
    const QString old = path_;
    path_ = QFileInfo(target).absoluteFilePath();
    if (!save()) {
        path_ = old;
        return false;
    }
    checker_.setFileName(path_);
    // The run on screen now belongs to the new file.
    if (clean_)
        checker_.checkNow(editor_->bytes());
    return true;
}

bool EditorSession::revert()
{
    if (path_.isEmpty())
        return false;
    QString error;
    const auto bytes = readSceneFile(path_, &error);
    if (!bytes) {
        report(error);
        return false;
    }
    clearRecovery();
    load(*bytes, path_, Parse::in_background);
    return true;
}

void EditorSession::writeRecovery()
{
    if (!isModified())
        return;
    const QByteArray bytes = editor_->bytes();
    if (bytes == last_recovered_)
        return;
    if (!recovered_path_.isNull() && recovered_path_ != path_) {
        recovery_writer_.waitForDone();
        recovery_.clear(recovered_path_); // saved under another name since: that slot is done
    }
    recovered_path_ = path_;
    last_recovered_ = bytes;
    // Written on a thread of its own, one copy after the other: the write syncs to disk, and
    // on a busy disk that takes longer than a frame, which typing must never wait for.
    QPointer<EditorSession> self(this);
    const RecoveryStore store = recovery_;
    const QString path = path_;
    recovery_writer_.start([self, store, path, bytes]() {
        if (!store.write(path, bytes))
            return;
        QMetaObject::invokeMethod(
            self.data(),
            [self] {
                if (self)
                    emit self->recoveryWritten();
            },
            Qt::QueuedConnection);
    });
}

bool EditorSession::offerRecovery()
{
    // The newest copy is offered into the buffer; a declined one is dropped and the next is
    // offered. The copies of other files stay: each is offered when its file is opened.
    // A copy that cannot be read (not a regular file, too large) is said and set aside; start-up
    // goes on with the others.
    QStringList refused;
    const QList<RecoveryStore::Copy> copies = recovery_.all(&refused);
    for (const QString &m : refused)
        report(m);
    // NOLINTNEXTLINE(readability-use-anyofallof): each copy declined is removed as the loop goes
    for (const RecoveryStore::Copy &copy : copies) {
        if (recover_prompt_ && recover_prompt_(copy)) {
            restore(copy);
            return true;
        }
        recovery_.remove(copy);
    }
    return false;
}

void EditorSession::restore(const RecoveryStore::Copy &copy)
{
    // The file as saved first, then the recovered text as an edit over it: the buffer shows as
    // modified, and Undo goes back to what is on disk.
    QByteArray disk;
    if (!copy.original_path.isEmpty())
        if (auto b = readSceneFile(copy.original_path, nullptr))
            disk = *b;
    if (copy.original_path.isEmpty())
        name_ = tr("untitled.scn");
    load(disk, copy.original_path);
    editor_->replaceBytes(copy.text);
    checker_.checkNow(editor_->bytes());
    emit titleChanged();
    // The text lives on in this instance's own slot, every byte of it, before the copy it came
    // from is dropped. Otherwise (an unwritable directory, a buffer that did not take the text
    // whole) the copy stays, to be offered again.
    writeRecovery();
    recovery_writer_.waitForDone();
    const auto mine = recovery_.read(path_, RecoveryStore::Whose::mine);
    if (!mine || mine->text != copy.text)
        return;
    recovery_.remove(copy);
}

void EditorSession::clearRecovery()
{
    recovery_writer_.waitForDone(); // a copy being written must not land after the clear
    recovery_.clear(path_);
    if (!recovered_path_.isNull() && recovered_path_ != path_)
        recovery_.clear(recovered_path_);
    recovered_path_ = QString();
    last_recovered_.clear();
}

void EditorSession::fileChangedOnDisk(const QString &path)
{
    if (path != path_)
        return;
    watch(path_);
    const auto bytes = readSceneFile(path_, nullptr);
    if (!bytes) // vanished or unreadable: the buffer stays; saving writes it back
        return;
    if (*bytes == editor_->bytes() || *bytes == saving_)
        return;
    if (isModified() && !(disk_prompt_ && disk_prompt_(displayName())))
        return;
    // Load the disk's version keeping the place: the check re-runs it where the view was.
    loading_ = true;
    editor_->setBytes(*bytes);
    editor_->setModified(false);
    loading_ = false;
    checker_.checkNow(*bytes);
}

bool EditorSession::applyFix()
{
    // The caret's line only: with no fix there, nothing is rewritten (the Problems list's
    // button applies the fix of the problem chosen in it).
    const int line = editor_->cursorLine();
    for (const inflight::Diagnostic &d : editor_->diagnostics())
        if (d.fix && static_cast<int>(d.loc.line) == line) {
            editor_->applyFix(*d.fix);
            return true;
        }
    return false;
}

} // namespace editor
