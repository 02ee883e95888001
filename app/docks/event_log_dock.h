// SPDX-License-Identifier: GPL-3.0-or-later
// "Event log": every micro-step of the run, filterable by kind and by socket; the current
// step's row is highlighted and kept in view, and clicking a row goes to that step.
#pragma once

#include <QDockWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;
class QTableView;
class QToolButton;
class PlayerController;

namespace docks {

class EventLogModel;
class EventFilterProxy;

class EventLogDock : public QDockWidget {
    Q_OBJECT
public:
    explicit EventLogDock(PlayerController &controller, QWidget *parent = nullptr);

    EventLogModel *model() const { return model_; }
    EventFilterProxy *proxy() const { return proxy_; }
    QTableView *view() const { return view_; }
    QComboBox *kindBox() const { return kinds_; }
    QLineEdit *socketBox() const { return socket_; }
    QToolButton *selectedButton() const { return follow_selection_; }
    bool indexing() const;

private:
    void updateSocketFilter();
    void updateCount();
    void keepCurrentInView();
    void applyTheme();
    // Wide enough for the run's largest step number (nine digits in the 32,000-socket scene).
    void fitStepColumn();

    PlayerController &controller_;
    EventLogModel *model_ = nullptr;
    EventFilterProxy *proxy_ = nullptr;
    QStackedWidget *pages_ = nullptr;
    QLabel *indexing_ = nullptr;
    QTableView *view_ = nullptr;
    QComboBox *kinds_ = nullptr;
    QLineEdit *socket_ = nullptr;
    QToolButton *follow_selection_ = nullptr;
    QLabel *count_ = nullptr;
};

} // namespace docks
