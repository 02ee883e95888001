// SPDX-License-Identifier: GPL-3.0-or-later
// Diagnostics as you type: after a pause in typing (300 ms by default) the buffer is parsed and
// checked on a pool thread; a newer edit supersedes an older check, whose result is dropped.
#pragma once

#include "../jobs/job_tracker.h"
#include "inflight/parser.hpp"

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>

namespace editor {

struct CheckResult {
    quint64 generation = 0; // the checker's generation() when the check started
    QByteArray text;        // what was checked
    std::shared_ptr<inflight::ParseResult> parsed;
    qint64 check_us = 0; // how long the parse and check took, off the GUI thread
};

class BufferChecker : public QObject {
    Q_OBJECT
public:
    explicit BufferChecker(QObject *parent = nullptr);
    static constexpr int kDefaultPauseMs = 300;
    void setPause(int ms) { timer_.setInterval(ms); }
    void setFileName(const QString &name) { file_name_ = name; }
    QString fileName() const { return file_name_; }
    // Drops what is pending or running: the buffer was replaced.
    void supersede();
    // The buffer changed: check it once typing pauses. `text` is read when the pause ends.
    void changed(std::function<QByteArray()> text);
    // Check this text now (on open), superseding anything pending.
    void checkNow(const QByteArray &text);
    // Grows with every edit, buffer and check: a result carries the one it checked.
    quint64 generation() const { return jobs_.generation(); }
    bool pending() const { return timer_.isActive() || jobs_.isRunning(); }

signals:
    // Only the newest check's result arrives.
    void checked(const editor::CheckResult &result);

private:
    void start(const QByteArray &text);

    QTimer timer_;
    std::function<QByteArray()> source_;
    QString file_name_;
    JobTracker jobs_{this};
};

} // namespace editor
