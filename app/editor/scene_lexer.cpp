// SPDX-License-Identifier: GPL-3.0-or-later
#include "scene_lexer.h"

#include "../theme.h"

#include "inflight/line_tokens.hpp"

#include <Qsci/qsciscintilla.h>

namespace editor {

SceneLexer::SceneLexer(QObject *parent) : QsciLexerCustom(parent) { }

QString SceneLexer::description(int style) const
{
    switch (style) {
    case Default: return tr("Default");
    case Keyword: return tr("Statement");
    case Prefix: return tr("Process prefix");
    case Option: return tr("Option");
    case Flag: return tr("Flag");
    case Number: return tr("Number");
    case Address: return tr("Address");
    case String: return tr("String");
    case Comment: return tr("Comment");
    case Brace: return tr("Brace");
    case Variable: return tr("Variable");
    case Name: return tr("Name");
    case Error: return tr("Error");
    case AnnotationError: return tr("Error message");
    case AnnotationWarning: return tr("Warning message");
    case AnnotationNote: return tr("Note");
    default: return {};
    }
}

void SceneLexer::applyTheme(const QFont &font)
{
    const Theme &t = Theme::instance();
    const bool dark = t.background().lightness() < 128;
    setDefaultFont(font);
    setDefaultPaper(t.background());
    setDefaultColor(t.foreground());
    for (int s = Default; s <= AnnotationNote; ++s) {
        setFont(font, s);
        setPaper(t.background(), s);
        setColor(t.foreground(), s);
    }
    const auto colour = [dark](const char *light, const char *on_dark) {
        return QColor(QLatin1String(dark ? on_dark : light));
    };
    setColor(colour("#1a4fa0", "#82aaff"), Keyword);
    QFont bold = font;
    bold.setBold(true);
    setFont(bold, Keyword);
    setColor(colour("#7a3e9d", "#c792ea"), Prefix);
    setColor(colour("#8a5a00", "#ffcb6b"), Option);
    setColor(colour("#8a5a00", "#ffcb6b"), Flag);
    setColor(colour("#0b7a75", "#89ddff"), Number);
    setColor(colour("#0b7a75", "#89ddff"), Address);
    setColor(colour("#2e7d32", "#c3e88d"), String);
    QFont italic = font;
    italic.setItalic(true);
    setColor(colour("#6a737d", "#8b949e"), Comment);
    setFont(italic, Comment);
    setColor(colour("#7a3e9d", "#c792ea"), Variable);
    setColor(colour("#b00020", "#ff5370"), Error);
    QFont small = font;
    small.setPointSizeF(font.pointSizeF() * 0.9);
    small.setItalic(true);
    for (int s : {AnnotationError, AnnotationWarning, AnnotationNote})
        setFont(small, s);
    setColor(colour("#b00020", "#ff8a80"), AnnotationError);
    setPaper(colour("#fdecee", "#3a2226"), AnnotationError);
    setColor(colour("#8a5a00", "#ffcb6b"), AnnotationWarning);
    setPaper(colour("#fff6e0", "#3a3322"), AnnotationWarning);
    setColor(colour("#44546a", "#a0aec0"), AnnotationNote);
    setPaper(colour("#eef2f7", "#262c36"), AnnotationNote);
}

void SceneLexer::styleText(int start, int end)
{
    QsciScintilla *e = editor();
    if (!e)
        return;
    const int first = static_cast<int>(e->SendScintilla(QsciScintilla::SCI_LINEFROMPOSITION, start));
    const int last = static_cast<int>(e->SendScintilla(QsciScintilla::SCI_LINEFROMPOSITION, end));
    // The block depth where `first` begins, from the fold level of the line before it.
    int depth = 0;
    if (first > 0) {
        const long prev = e->SendScintilla(QsciScintilla::SCI_GETFOLDLEVEL, first - 1);
        depth = static_cast<int>((prev & QsciScintilla::SC_FOLDLEVELNUMBERMASK) - QsciScintilla::SC_FOLDLEVELBASE);
        if (prev & QsciScintilla::SC_FOLDLEVELHEADERFLAG)
            ++depth;
    }
    for (int line = first; line <= last; ++line) {
        const int line_start = static_cast<int>(e->SendScintilla(QsciScintilla::SCI_POSITIONFROMLINE, line));
        const int line_end = static_cast<int>(e->SendScintilla(QsciScintilla::SCI_GETLINEENDPOSITION, line));
        const int next_line = static_cast<int>(e->SendScintilla(QsciScintilla::SCI_POSITIONFROMLINE, line + 1));
        QByteArray text(std::max(0, line_end - line_start), '\0');
        if (line_end > line_start)
            e->SendScintilla(QsciScintilla::SCI_GETTEXTRANGE, line_start, line_end, text.data());
        startStyling(line_start);
        int at = 0;
        bool opens = false;
        int closes = 0;
        const auto tokens =
            inflight::syntax_tokens(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
        for (const inflight::SyntaxToken &t : tokens) {
            const int col = static_cast<int>(t.col) - 1;
            if (col > at)
                setStyling(col - at, Default);
            setStyling(static_cast<int>(t.length), static_cast<int>(t.kind) + 1);
            at = col + static_cast<int>(t.length);
            if (t.kind == inflight::SyntaxKind::brace) {
                const QByteArray b = text.mid(col, static_cast<int>(t.length));
                if (b == "{" || b.endsWith('{'))
                    opens = true;
                else
                    closes += static_cast<int>(b.count('}'));
            }
        }
        // "repeat 3{" has its brace inside the last word.
        if (!tokens.empty() && tokens.front().kind == inflight::SyntaxKind::keyword && text.trimmed().endsWith('{'))
            opens = true;
        const int rest = (next_line > line_start ? next_line : line_end) - line_start - at;
        if (rest > 0)
            setStyling(rest, Default);
        const int level_depth = std::max(0, depth - closes);
        int level = QsciScintilla::SC_FOLDLEVELBASE + level_depth;
        if (opens)
            level |= QsciScintilla::SC_FOLDLEVELHEADERFLAG;
        e->SendScintilla(QsciScintilla::SCI_SETFOLDLEVEL, line, level);
        depth = level_depth + (opens ? 1 : 0);
    }
}

} // namespace editor
