// SPDX-License-Identifier: GPL-3.0-or-later
// The keys of presentation mode, as presenters expect them from PowerPoint, Impress and
// reveal.js: a clicker's forward keys (Right, PageDown, Space, Enter) move one beat of the
// lesson, its back keys (Left, PageUp) one beat back; Shift moves a statement, Ctrl a
// micro-step. F5 and Shift+F5 (a clicker's "start slideshow") present from the beat on screen
// instead of running to the end, Esc leaves presentation mode, B or '.' blanks the screen until
// the next key, and a number then Enter goes to that beat. Outside presentation mode the
// debugger's keys are left alone: the filter takes nothing.
#pragma once

#include <QList>
#include <QObject>
#include <QPair>
#include <QString>

class PlayerController;
class QKeyEvent;
class QWidget;

class PresenterKeys : public QObject {
    Q_OBJECT
public:
    // What the clicker's forward and back keys move by (View > Clicker moves by).
    enum class Granularity { beat, statement, microStep };

    // Installs itself on the application: shortcuts are matched before a widget sees its key.
    PresenterKeys(PlayerController &controller, QWidget &window);

    void setActive(bool on); // presentation mode
    bool isActive() const { return active_; }
    void setGranularity(Granularity g) { granularity_ = g; }
    Granularity granularity() const { return granularity_; }
    bool isBlank() const;
    // What each key does, for the keyboard shortcuts help: (what, keys) rows.
    static QList<QPair<QString, QString>> help();

signals:
    void leaveRequested(); // Esc

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // Whether the key is presentation mode's (then no shortcut fires for it), and doing it.
    bool owns(const QKeyEvent &e) const;
    void press(const QKeyEvent &e);
    void forward(Granularity g);
    void backward(Granularity g);
    void setBlank(bool on);

    PlayerController &controller_;
    QWidget &window_;
    QWidget *blank_ = nullptr; // the black cover of a blanked screen
    bool active_ = false;
    Granularity granularity_ = Granularity::beat;
    QString number_; // digits typed so far, for "a number then Enter"
};
