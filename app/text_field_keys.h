// SPDX-License-Identifier: GPL-3.0-or-later
// Enter and Return step the scene (a presenter's keys), but a line edit needs them itself: the
// go-to box, the inspector's label box, the event log's filter. Qt asks the focused widget
// first (ShortcutOverride) and a QLineEdit claims editing keys, not Return: this filter claims
// Return and Enter for any focused text field, so typing never steps the run.
#pragma once

#include <QObject>

// A widget that takes typed text (a line edit, a spin box, an editable combo box, an editable
// text view): the keys it is given are the user's typing.
bool isTextField(const QObject *o);

class TextFieldKeys : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
};
