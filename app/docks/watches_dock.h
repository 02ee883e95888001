// SPDX-License-Identifier: GPL-3.0-or-later
// "Watches": watch expressions over the model (inflight/watch.hpp) with their value at the
// current step. A watch also stops continue and play when it fires: its value changes, or its
// condition (`inflight a >= 2`, `a freed`) becomes true (inflight::StopConditions, checked by PlayerController).
#pragma once

#include <QDockWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;
class PlayerController;

namespace docks {

class WatchesDock : public QDockWidget {
    Q_OBJECT
public:
    explicit WatchesDock(PlayerController &controller, QWidget *parent = nullptr);

    // For tests.
    QLineEdit *input() const { return input_; }
    QTableWidget *table() const { return table_; }
    QLabel *error() const { return error_; }
    QPushButton *removeButton() const { return remove_; }

private:
    void add();
    void rebuild();
    void refresh();
    void applyTheme();

    PlayerController &controller_;
    QLineEdit *input_ = nullptr;
    QLabel *error_ = nullptr;
    QTableWidget *table_ = nullptr;
    QPushButton *remove_ = nullptr;
};

} // namespace docks
