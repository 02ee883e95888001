// SPDX-License-Identifier: GPL-3.0-or-later
// "Expectations": every `expect` of the scene with its outcome — ✓ held, ✗ failed with what was
// expected and what was found, … not reached yet at the current step — and the step that
// checked it (click: go there). Above the list, the CLI's warning when the scene's
// expectations were written for other collectors than the one running.
#pragma once

#include <QDockWidget>

#include <cstdint>
#include <vector>

class QLabel;
class QTreeWidget;
class PlayerController;

namespace docks {

class ExpectationsDock : public QDockWidget {
    Q_OBJECT
public:
    explicit ExpectationsDock(PlayerController &controller, QWidget *parent = nullptr);

    // For tests.
    QTreeWidget *list() const { return list_; }
    QLabel *warning() const { return warning_; }
    int failedCount() const { return failed_; }

private:
    void rebuild(); // a finished run: one row per expectation
    void refresh(); // the current step: which rows are reached yet
    void updateWarning();
    void applyTheme();

    PlayerController &controller_;
    QLabel *warning_ = nullptr;
    QLabel *summary_ = nullptr;
    QTreeWidget *list_ = nullptr;
    std::vector<std::uint64_t> steps_; // per row: the step of its expect_result (0: unknown)
    std::vector<bool> passed_;
    int failed_ = 0;
};

} // namespace docks
