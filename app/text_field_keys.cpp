// SPDX-License-Identifier: GPL-3.0-or-later
#include "text_field_keys.h"

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextEdit>

bool isTextField(const QObject *o)
{
    if (qobject_cast<const QLineEdit *>(o) || qobject_cast<const QAbstractSpinBox *>(o))
        return true;
    if (const auto *c = qobject_cast<const QComboBox *>(o))
        return c->isEditable();
    if (const auto *t = qobject_cast<const QPlainTextEdit *>(o))
        return !t->isReadOnly();
    if (const auto *t = qobject_cast<const QTextEdit *>(o))
        return !t->isReadOnly();
    return false;
}

bool TextFieldKeys::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::ShortcutOverride && isTextField(watched)) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter)
            event->accept(); // the field's, not the shortcut's
    }
    return QObject::eventFilter(watched, event);
}
