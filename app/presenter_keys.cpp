// SPDX-License-Identifier: GPL-3.0-or-later
#include "presenter_keys.h"

#include "player_controller.h"
#include "text_field_keys.h"

#include <QApplication>
#include <QKeyEvent>
#include <QPalette>
#include <QWidget>

namespace {

bool isForward(int key)
{
    return key == Qt::Key_Right || key == Qt::Key_PageDown || key == Qt::Key_Space || key == Qt::Key_Return ||
           key == Qt::Key_Enter;
}

bool isBack(int key) { return key == Qt::Key_Left || key == Qt::Key_PageUp; }

// A widget the user types into: a text field, or the scene editor.
bool typesText(const QObject *o) { return isTextField(o) || (o && o->inherits("QsciScintillaBase")); }

// The modifiers that choose the step, keypad aside (a clicker's Enter may come from it).
Qt::KeyboardModifiers chosen(const QKeyEvent &e) { return e.modifiers() & ~Qt::KeypadModifier; }

} // namespace

PresenterKeys::PresenterKeys(PlayerController &controller, QWidget &window)
    : QObject(&window), controller_(controller), window_(window)
{
    qApp->installEventFilter(this);
}

void PresenterKeys::setActive(bool on)
{
    active_ = on;
    number_.clear();
    if (!on)
        setBlank(false);
}

QList<QPair<QString, QString>> PresenterKeys::help()
{
    return {
        {tr("Presentation: next beat, beat back"), tr("Right, PageDown, Space, Enter; Left, PageUp")},
        {tr("Presentation: next statement, statement back"), tr("Shift+Right; Shift+Left")},
        {tr("Presentation: next micro-step, micro-step back"), tr("Ctrl+Right; Ctrl+Left")},
        {tr("Presentation: present from the beat on screen"), tr("F5, Shift+F5")},
        {tr("Presentation: go to a beat by its number"), tr("the number, then Enter")},
        {tr("Presentation: blank the screen (any key brings it back)"), tr("B, .")},
        {tr("Presentation: leave"), tr("Esc")},
    };
}

bool PresenterKeys::isBlank() const { return blank_ && blank_->isVisible(); }

void PresenterKeys::setBlank(bool on)
{
    if (on && !blank_) {
        blank_ = new QWidget(&window_);
        blank_->setObjectName(QStringLiteral("presentationBlank"));
        QPalette black = blank_->palette();
        black.setColor(QPalette::Window, Qt::black);
        blank_->setPalette(black);
        blank_->setAutoFillBackground(true);
    }
    if (!blank_)
        return;
    if (on) {
        blank_->setGeometry(window_.rect());
        blank_->raise();
        blank_->show();
    } else {
        blank_->hide();
    }
}

bool PresenterKeys::owns(const QKeyEvent &e) const
{
    if (isBlank())
        return true; // any key brings the screen back, and does nothing else
    const int key = e.key();
    const Qt::KeyboardModifiers m = chosen(e);
    if (key == Qt::Key_Escape || key == Qt::Key_F5)
        return m == Qt::NoModifier || m == Qt::ShiftModifier;
    if (m == Qt::NoModifier && (key == Qt::Key_B || key == Qt::Key_Period || (key >= Qt::Key_0 && key <= Qt::Key_9)))
        return true;
    if (isForward(key) || isBack(key))
        return m == Qt::NoModifier || m == Qt::ShiftModifier || m == Qt::ControlModifier;
    return false;
}

void PresenterKeys::forward(Granularity g)
{
    switch (g) {
    case Granularity::beat: controller_.nextBeat(); break;
    case Granularity::statement: controller_.stepOver(); break;
    case Granularity::microStep: controller_.stepInto(); break;
    }
}

void PresenterKeys::backward(Granularity g)
{
    switch (g) {
    case Granularity::beat: controller_.previousBeat(); break;
    case Granularity::statement: controller_.backStatement(); break;
    case Granularity::microStep: controller_.back(); break;
    }
}

void PresenterKeys::press(const QKeyEvent &e)
{
    if (isBlank()) {
        setBlank(false);
        return;
    }
    const int key = e.key();
    const Qt::KeyboardModifiers m = chosen(e);
    if (m == Qt::NoModifier && key >= Qt::Key_0 && key <= Qt::Key_9) {
        if (number_.size() < 9)
            number_ += QChar(u'0' + (key - Qt::Key_0));
        return;
    }
    const QString number = std::exchange(number_, QString());
    if ((key == Qt::Key_Return || key == Qt::Key_Enter) && !number.isEmpty()) {
        controller_.goToBeat(number.toInt());
        return;
    }
    if (key == Qt::Key_Escape) {
        emit leaveRequested();
        return;
    }
    if (key == Qt::Key_F5) {
        // Present from the beat on screen: the one at or before here.
        controller_.goToBeat(controller_.beatNumber());
        return;
    }
    if (key == Qt::Key_B || key == Qt::Key_Period) {
        setBlank(true);
        return;
    }
    const Granularity g = m == Qt::ShiftModifier     ? Granularity::statement
                          : m == Qt::ControlModifier ? Granularity::microStep
                                                     : granularity_;
    if (isForward(key))
        forward(g);
    else if (isBack(key))
        backward(g);
}

bool PresenterKeys::eventFilter(QObject *watched, QEvent *event)
{
    if (!active_)
        return false;
    const QEvent::Type type = event->type();
    if (type == QEvent::Resize && watched == &window_ && isBlank())
        blank_->setGeometry(window_.rect());
    if (type != QEvent::ShortcutOverride && type != QEvent::KeyPress)
        return false;
    const auto &key = static_cast<const QKeyEvent &>(*event);
    // Typing stays typing (the go-to box hands the keys back after Enter); Esc still leaves.
    if (typesText(QApplication::focusWidget()) && key.key() != Qt::Key_Escape && !isBlank())
        return false;
    // Only the window's keys (a dialog's are its own), and each press once: where it is
    // delivered first, not again as it propagates to the parents of a widget that ignored it
    // (a line edit ignores the Enter it acted on).
    const auto *widget = qobject_cast<const QWidget *>(watched);
    QWidget *focus = QApplication::focusWidget();
    if (!widget || widget->window() != &window_ || widget != (focus ? focus : &window_) || !owns(key))
        return false;
    if (type == QEvent::ShortcutOverride) {
        event->accept(); // no shortcut fires: the key comes as a key press, here
        return true;
    }
    press(key);
    return true;
}
