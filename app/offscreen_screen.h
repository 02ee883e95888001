// SPDX-License-Identifier: GPL-3.0-or-later
// The offscreen platform with one screen of a chosen size (its default screen is 800x600, and a
// full-screen window is the screen's size): for the lesson check's projector and the tests that
// stand in for one. Called before the QApplication exists.
#pragma once

#include <QSize>
#include <QString>

class QTemporaryDir;

namespace offscreen_screen {

// Writes the screen's description into `dir` and selects the offscreen platform with it.
// Returns an empty string when done; else why not (the platform is then offscreen on its
// default screen).
QString use(const QTemporaryDir &dir, QSize size);

} // namespace offscreen_screen
