// SPDX-License-Identifier: GPL-3.0-or-later
// Calls inflight::trim_idle_heap() once the app has been idle for a second: never between the
// steps of playback or of a burst of steps back, whose large states the heap keeps for reuse,
// and on a pool thread, since the trim holds the malloc arena the GUI thread allocates from.
#pragma once

#include <QObject>
#include <QTimer>

class IdleHeapTrim : public QObject {
    Q_OBJECT
public:
    explicit IdleHeapTrim(QObject *parent = nullptr);
    // Something moved or was freed: trim once nothing has for a second.
    void poke();

private:
    QTimer idle_;
};
