// SPDX-License-Identifier: GPL-3.0-or-later
// Run ▸ On this kernel: the open scene replayed on the machine's kernel in the background (the
// realkernel library forks a child into a fresh network namespace; this thread only waits for
// it), then the kernel's verdict beside the model's for every socket.
#pragma once

#include "jobs/job_tracker.h"

#include <QHash>
#include <QObject>
#include <QString>

#include <atomic>

class KernelReplayJob : public QObject {
    Q_OBJECT
public:
    struct Outcome {
        bool ran = false;
        bool agrees = false;
        QString banner;                  // "Linux 6.18.44 agrees on 12 of 12 sockets" or why it could not run
        QString details;                 // the text report, for a tooltip
        QHash<QString, QString> verdict; // label -> "freed (model: freed)"
    };

    explicit KernelReplayJob(QObject *parent = nullptr);

    // Replays the scene file at `path`; false when a replay is already running.
    bool start(const QString &path);
    bool running() const { return jobs_.isRunning(); }
    const Outcome &outcome() const { return outcome_; }

    // The replay itself, on the calling thread: what start() runs in the background. Setting
    // `cancel` kills the replay's child and ends it.
    static Outcome replay(const QString &path, const std::atomic<bool> *cancel = nullptr);

signals:
    void finished();

private:
    Outcome outcome_;
    // Destroyed meanwhile (the window closed), the tracker sets the replay's cancel flag: its
    // child is killed and the pool thread waiting for it is free again; the outcome is dropped.
    JobTracker jobs_{this};
};
