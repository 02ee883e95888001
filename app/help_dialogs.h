// SPDX-License-Identifier: GPL-3.0-or-later
// Help ▸ Scene language (scenes/LANGUAGE.md, bundled, rendered) and Help ▸ Keyboard shortcuts
// (every action of the window with its keys, the presenter's keys first).
#pragma once

class QWidget;

namespace help {

void showSceneLanguage(QWidget *parent);
void showKeyboardShortcuts(QWidget *parent);
// Every word of the narration a student may not know, explained (the engine's glossary).
void showGlossary(QWidget *parent);

} // namespace help
