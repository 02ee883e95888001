// SPDX-License-Identifier: GPL-3.0-or-later
// The lesson check (inflight --check-lesson SCENE [--size WxH] [--beats FROM-TO]): a scene shown in presentation
// mode on a projector of the given size, walked beat by beat with the presenter's own beat
// list, and what a student in the last row would miss, one located line each:
//   - a socket or process the narration (or the note being read out) names that is not wholly
//     inside the graph's visible viewport;
//   - socket names drawn under the projector's size floor (24 px from 1280x800 up, 20 px at
//     1024x768: MainWindow::kPresentationLabelPixels and the graph's own projector rule);
//   - a text that does not fit where it is shown: the narration, the note, the finding banner,
//     the end summary, the current code line (a student cannot scroll the presenter's pane).
// An author runs it on a lesson before teaching it (a long one a part at a time, --beats); the
// tests run it on every shipped scene.
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

#include <limits>
#include <memory>

class MainWindow;
class PlayerController;
class QTemporaryDir;

namespace lesson_check {

inline constexpr QSize kDefaultProjector{1280, 800};
inline constexpr QSize kDefaultScreenshot{1920, 1080};

// "WxH" exactly (digits, 'x', digits; each side 200..10000); nullopt-like invalid QSize otherwise.
QSize parseSize(const QString &text);

// The beats to walk, 1-based and inclusive: "FROM-TO", "FROM-" (to the last) or "N" (that one).
struct BeatRange {
    int from = 1;
    int to = std::numeric_limits<int>::max();
    bool valid = true;
};
// Refused (valid false) unless digits, 1 <= FROM <= TO.
BeatRange parseBeats(const QString &text);

// The least pixel size of a socket's name on a projector of `screen`'s size.
double labelFloorPixels(QSize screen);

// Before the QApplication exists: when argv asks for --check-lesson, or for --screenshot on the
// offscreen platform, that platform is chosen with one screen of the asked size (its default
// screen is 800x600, and full screen is the screen's size). The returned directory holds the
// screen's description and must outlive the application's start; null when neither is asked.
std::unique_ptr<QTemporaryDir> prepareOffscreenProjector(int argc, char **argv);

class LessonCheck {
public:
    LessonCheck(MainWindow &window, PlayerController &controller);

    // Opens presentation mode at `screen` (the window reset to the default layout and text size
    // first, so the result does not depend on a user's saved window) on the scene the controller
    // has, waits for its index, walks every beat and returns the problems, each line
    // "<label>:beat N (step S): …". `label` names the scene in the lines (its path). Only the
    // beats in `beats` are walked; a range starting past the last beat is a failure.
    QStringList run(const QString &label, QSize screen, BeatRange beats = {});
    int beatsChecked() const { return beats_checked_; }
    // Why the walk could not be made (no scene, the index never came); empty when it was.
    QString failure() const { return failure_; }

private:
    void settle();
    QStringList checkBeat(const QString &where, bool last_step);

    MainWindow &window_;
    PlayerController &controller_;
    QSize screen_;
    int beats_checked_ = 0;
    QString failure_;
};

// The --check-lesson command: the problems on stdout, a summary on stderr; 0 when there are
// none, 1 when there are, 2 when the check could not be made.
int runCommand(MainWindow &window, PlayerController &controller, const QString &label, QSize screen,
               BeatRange beats = {});

} // namespace lesson_check
