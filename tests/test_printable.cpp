// SPDX-License-Identifier: GPL-3.0-or-later
// printable(): the one way text from a scene, a file name or an argument reaches a terminal.
// Printable UTF-8 is kept; controls and bytes that are not UTF-8 become \xNN; characters that
// change how the text around them shows without being seen are named by code point.
#include "inflight/utf8.hpp"

#include <QtTest>

#include <string>

using namespace inflight;

namespace {

QByteArray bytes(std::string_view s) { return QByteArray(s.data(), qsizetype(s.size())); }

} // namespace

class TestPrintable : public QObject {
    Q_OBJECT

private slots:
    void escapes_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("expected");
        const auto row = [](const char *name, std::string_view in, std::string_view out) {
            QTest::newRow(name) << bytes(in) << bytes(out);
        };
        row("plain ASCII", "socketpair a b", "socketpair a b");
        row("backslash stays", "a\\b", "a\\b");
        row("printable UTF-8 stays", "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x90\xA7",
            "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x90\xA7");
        row("ESC and a CSI sequence", "\x1B[31mred", "\\x1B[31mred");
        row("OSC title sequence", "\x1B]0;pwned\x07", "\\x1B]0;pwned\\x07");
        row("CR LF tab", "a\rb\nc\td", "a\\x0Db\\x0Ac\\x09d");
        row("NUL", std::string_view("a\0b", 3), "a\\x00b");
        row("DEL", "a\x7F", "a\\x7F");
        row("C1 CSI U+009B",
            "a\xC2\x9B"
            "31m",
            "a<U+009B>31m");
        row("C1 NEL U+0085", "\xC2\x85", "<U+0085>");
        row("invalid byte", "a\xFF\xFE", "a\\xFF\\xFE");
        row("truncated sequence", "a\xE2\x80", "a\\xE2\\x80");
        row("overlong slash", "\xC0\xAF", "\\xC0\\xAF");
        row("surrogate", "\xED\xA0\x80", "\\xED\\xA0\\x80");
        row("RLO U+202E",
            "a\xE2\x80\xAE"
            "b",
            "a<U+202E>b");
        row("LRE..RLO U+202A", "\xE2\x80\xAA", "<U+202A>");
        row("isolates U+2066..U+2069", "\xE2\x81\xA6\xE2\x81\xA9", "<U+2066><U+2069>");
        row("zero width space U+200B",
            "a\xE2\x80\x8B"
            "b",
            "a<U+200B>b");
        row("RLM U+200F", "\xE2\x80\x8F", "<U+200F>");
        row("line separator U+2028", "\xE2\x80\xA8", "<U+2028>");
        row("paragraph separator U+2029", "\xE2\x80\xA9", "<U+2029>");
        row("BOM U+FEFF", "\xEF\xBB\xBFscene", "<U+FEFF>scene");
        row("Arabic letter mark U+061C", "\xD8\x9C", "<U+061C>");
        row("soft hyphen U+00AD",
            "a\xC2\xAD"
            "b",
            "a<U+00AD>b");
        row("word joiner U+2060", "\xE2\x81\xA0", "<U+2060>");
        row("Hangul filler U+3164", "\xE3\x85\xA4", "<U+3164>");
        row("tag character U+E0041", "\xF3\xA0\x81\x81", "<U+E0041>");
        row("noncharacter U+FFFF", "\xEF\xBF\xBF", "<U+FFFF>");
        row("no-break space stays",
            "a\xC2\xA0"
            "b",
            "a\xC2\xA0"
            "b");
    }
    void escapes()
    {
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, expected);
        const std::string out = printable(std::string_view(input.constData(), std::size_t(input.size())));
        QCOMPARE(bytes(out), expected);
        // Whatever went in, what comes out is valid UTF-8 without a control byte.
        QVERIFY(!first_invalid_utf8(out));
        for (const char c : out)
            QVERIFY(static_cast<unsigned char>(c) >= 0x20 && c != 0x7F);
        // Escaping twice changes nothing: a message made of escaped parts can be escaped whole.
        QCOMPARE(printable(out), out);
    }

    void keepsLineBreaksWhenAsked()
    {
        QCOMPARE(printable("a\n\x1B[2Jb\n", LineBreaks::keep), std::string("a\n\\x1B[2Jb\n"));
        QCOMPARE(printable("a\r\nb", LineBreaks::keep), std::string("a\\x0D\nb"));
        QCOMPARE(printable("a\nb"), std::string("a\\x0Ab"));
    }

    void namesCodePoints()
    {
        QCOMPARE(code_point_name(0x202E), std::string("U+202E"));
        QCOMPARE(code_point_name(0x0D), std::string("U+000D"));
        QCOMPARE(code_point_name(0x1F427), std::string("U+1F427"));
        const std::string_view rlo = "\xE2\x80\xAE";
        QCOMPARE(utf8_code_point(rlo, 0, utf8_sequence(rlo, 0)), char32_t(0x202E));
        QVERIFY(is_invisible_code_point(0x202E));
        QVERIFY(is_invisible_code_point(0x1FFFE));
        QVERIFY(!is_invisible_code_point(U'é'));
        QVERIFY(!is_invisible_code_point(0x1F427));
    }
};

QTEST_APPLESS_MAIN(TestPrintable)
#include "test_printable.moc"
