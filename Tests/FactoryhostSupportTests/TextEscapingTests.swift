import FactoryhostSupport
import Testing

/// Each format factoryhost writes escapes exactly what it cannot hold, in
/// its own words; what it can hold passes through as it is.
@Suite("Text escaping per format")
struct TextEscapingTests {
    static let awkward = "a\"b\\c\nd\re\tf\u{1}g\u{1B}h\u{7F}i<&>'#é"

    /// A terminal is shown no control character — C0, C1, nor the
    /// bidirectional ones that reorder what it shows (U+202E made
    /// `app\u{202E}stset` read "apptests") — but newline and tab.
    @Test func terminalSafeWritesEveryControlButNewlineAndTab() {
        #expect(MessageText.terminalSafe("a\u{1B}]0;t\u{7}\n\tb\u{9B}c") == "a\\27]0;t\\7\n\tb\\u{9B}c")
        #expect(MessageText.terminalSafe("app\u{202E}stset \u{2066}x\u{2069} \u{200F}\u{61C}") == "app\\u{202E}stset \\u{2066}x\\u{2069} \\u{200F}\\u{61C}")
        #expect(MessageText.terminalSafe("é ש ‐ \u{2028}") == "é ש ‐ \u{2028}")     // text, Hebrew and a hyphen pass
        #expect(MessageText.isBidiControl("\u{202A}") && !MessageText.isBidiControl("\u{2028}"))
    }

    @Test func json() {
        #expect(TextEscaping.json.quoted(Self.awkward) == "\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\\u001bh\u{7F}i<&>'#é\"")
    }

    @Test func luaLiteralReadsBackAsTheSameBytes() {
        #expect(TextEscaping.luaLiteral.quoted(Self.awkward) == "\"a\\\"b\\\\c\\nd\\013e\\009f\\001g\\027h\\127i<&>'#é\"")
        #expect(TextEscaping.luaLiteral.quoted("\u{1}2") == "\"\\0012\"")       // the digit after it stays a digit
    }

    @Test func luaMessage() {
        #expect(TextEscaping.luaMessage.escaped(Self.awkward) == "a\\\"b\\\\c\\nd\\re\\tf\\1g\\27h\\127i<&>'#é")
    }

    @Test func yaml() {
        #expect(TextEscaping.yaml.quoted(Self.awkward) == "\"a\\\"b\\\\c\\nd\\re\\tf\\x01g\\x1Bh\\x7Fi<&>'#é\"")
    }

    /// What XML cannot hold is written as a message writes it (`\27`,
    /// `\u{FFFE}`): as U+FFFD, it looked like a real U+FFFD.
    @Test func xmlKeepsNothingXMLCannotHold() {
        #expect(TextEscaping.xml.escaped(Self.awkward + "\u{FFFE}")
                == "a&quot;b\\c&#10;d&#13;e&#9;f\\1g\\27h\u{7F}i&lt;&amp;&gt;&apos;#é\\u{FFFE}")
        #expect(TextEscaping.xmlText.escaped("a\nb<") == "a\nb&lt;")
    }

    @Test func dotAndMermaidLabels() {
        #expect(TextEscaping.dot.quoted("a\"b\\c\nd") == "\"a\\\"b\\\\c\\nd\"")
        #expect(TextEscaping.mermaid.escaped("a\"#<>&\nb") == "a#quot;#35;#lt;#gt;#amp; b")
    }

    @Test func aFormatOfItsOwn() {
        let tap = TextEscaping(replacements: ["#": "\\#"], control: nil)
        #expect(tap.escaped("x # y\u{1}") == "x \\# y\u{1}")
        #expect(tap.escaped("") == "")
    }
}
