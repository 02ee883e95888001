// SPDX-License-Identifier: GPL-3.0-or-later
// The dock widgets around the central graph. Each takes the shared PlayerController, has an
// objectName for QMainWindow::saveState(), and follows positionChanged()/selectionChanged().
#pragma once

#include "algorithm_dock.h"
#include "event_log_dock.h"
#include "inspector_dock.h"
#include "lists_dock.h"
#include "scene_dock.h"
#include "watches_dock.h"
