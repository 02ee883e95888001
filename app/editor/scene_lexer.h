// SPDX-License-Identifier: GPL-3.0-or-later
// Colours a scene in the editor with the engine's own tokenizer (inflight::syntax_tokens()),
// so a keyword, a name, a number, a string and a comment are what the parser calls them, and
// sets the fold levels of repeat, spawn and variant blocks.
#pragma once

#include <Qsci/qscilexercustom.h>

namespace editor {

class SceneLexer : public QsciLexerCustom {
    Q_OBJECT
public:
    // One style per inflight::SyntaxKind, in its order, then the annotation styles.
    enum Style {
        Default = 0,
        Keyword,
        Prefix,
        Option,
        Flag,
        Number,
        Address,
        String,
        Comment,
        Brace,
        Variable,
        Name,
        Error,
        AnnotationError = 20,
        AnnotationWarning,
        AnnotationNote
    };

    explicit SceneLexer(QObject *parent = nullptr);
    const char *language() const override { return "Inflight scene"; }
    QString description(int style) const override;
    void styleText(int start, int end) override;
    // Colours and fonts from the Theme (call after a theme or font change).
    void applyTheme(const QFont &font);
};

} // namespace editor
