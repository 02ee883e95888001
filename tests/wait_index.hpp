// SPDX-License-Identifier: GPL-3.0-or-later
// GUI suites: waits (running the event loop) until the controller's index of the run is ready.
#pragma once

#include "player_controller.h"

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

} // namespace inflight::test
