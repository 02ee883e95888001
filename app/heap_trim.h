// SPDX-License-Identifier: GPL-3.0-or-later
// Hands the heap's free pages back to the operating system once the app is idle.
//
// Why: glibc keeps freed memory in its arenas, and the app frees large blocks all the time on a
// large scene: a seek's restore builds a new state on a pool thread while its predecessor is
// freed on the checkpoint store's thread, and each graph refresh replaces a snapshot of every
// socket. On the million-socket scene that left ~650 MB free but resident next to 1.6 GB of
// live data (inflight-app-bench million). malloc_trim() gives it back in ~40 ms, but it locks
// each arena while it walks it, so it runs on a pool thread and only after a second without
// a move: never between the steps of playback or of a burst of step-backs. The large blocks the
// engine keeps for the next restore (inflight/recycled_blocks.hpp) go back then too.
#pragma once

#include <QObject>
#include <QTimer>

class IdleHeapTrim : public QObject {
    Q_OBJECT
public:
    explicit IdleHeapTrim(QObject *parent = nullptr);
    // Something moved or was freed: trim once nothing has for a second.
    void poke();
    // Trims now, on the calling thread (glibc only; elsewhere nothing).
    static void trimNow();

private:
    QTimer idle_;
};
