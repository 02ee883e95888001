// SPDX-License-Identifier: GPL-3.0-or-later
// Run ▸ On this kernel, wired into a window: the menu action, the banner in the status bar
// ("Linux 6.18.44 agrees on 12 of 12 sockets") and the Inspector's "On this kernel" field.
#pragma once

class QMainWindow;
class QMenu;
class PlayerController;
namespace docks {
class InspectorDock;
}

// Adds the action (object name "replayOnKernel") to `run`, the banner (object name
// "kernelReplayBanner") to the window's status bar, and a KernelReplayJob (a child of the
// window) that replays the open scene file in the background when the action is triggered.
void install_kernel_replay(QMainWindow &window, PlayerController &controller, QMenu &run,
                           docks::InspectorDock *inspector);
