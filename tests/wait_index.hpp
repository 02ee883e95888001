// SPDX-License-Identifier: GPL-3.0-or-later
// GUI suites: waits (running the event loop) until the controller's index of the run is ready,
// or until a navigation the controller runs on a pool thread has landed.
#pragma once

#include "player_controller.h"

#include <QCoreApplication>
#include <QSignalSpy>

namespace inflight::test {

inline bool waitIndex(PlayerController &c, int timeout_ms = 10000)
{
    if (c.indexReady())
        return true;
    QSignalSpy spy(&c, &PlayerController::indexReadyChanged);
    while (!c.indexReady())
        if (!spy.wait(timeout_ms))
            return false;
    return true;
}

// A seek the checkpoint store estimates to be long runs on a pool thread: the position moves
// when it lands, so a test that navigates and then reads the position waits for this first.
inline bool waitIdle(PlayerController &c, int timeout_ms = 60000)
{
    QSignalSpy spy(&c, &PlayerController::busyChanged);
    while (c.isBusy())
        if (!spy.wait(timeout_ms))
            return false;
    QCoreApplication::processEvents();
    return true;
}

} // namespace inflight::test
