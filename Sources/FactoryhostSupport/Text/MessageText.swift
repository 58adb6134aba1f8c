/// Text from a script or a file on its way into a message a person reads:
/// bounded in size and with nothing a terminal would act on.
///
/// ```swift
/// MessageText.bounded(String(repeating: "e", count: 10_000_000))   // 3 KB of e's, "… (9,996,000 bytes left out) …", the last 1 KB
/// MessageText.terminalSafe("a\u{1B}]0;title\u{07}b")               // "a\\27]0;title\\7b"
/// ```
package enum MessageText {
    /// The most of one message shown, in bytes: its start and its end.
    package static let limit = 4096

    /// `text` at most about `limit` bytes: its first three quarters and its
    /// last quarter, with how much was left out between (cut on character
    /// boundaries). The end is kept because a traceback ends there.
    package static func bounded(_ text: String, limit: Int = limit) -> String {
        let utf8 = text.utf8
        guard utf8.count > limit else { return text }
        var head = utf8.index(utf8.startIndex, offsetBy: limit * 3 / 4)
        while head > utf8.startIndex && !isBoundary(head, in: text) { head = utf8.index(before: head) }
        var tail = utf8.index(utf8.endIndex, offsetBy: -(limit / 4))
        while tail < utf8.endIndex && !isBoundary(tail, in: text) { tail = utf8.index(after: tail) }
        let leftOut = utf8.distance(from: head, to: tail)
        return String(text[..<head]) + "… (\(leftOut) bytes left out) …" + String(text[tail...])
    }

    private static func isBoundary(_ index: String.Index, in text: String) -> Bool {
        index.samePosition(in: text.unicodeScalars) != nil
    }

    /// `text` with every control character but newline and tab written as
    /// Lua writes a byte in a message (`\27`, `\7`; U+0080–U+009F as
    /// `\u{9B}`), so no escape sequence in a script's text or a file's
    /// reaches the terminal (clearing it, setting its title) — and the
    /// bidirectional controls (U+202E, …) as `\u{202E}`, so none makes a
    /// name read as another (`app\u{202E}stset` shown as "apptests").
    package static func terminalSafe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                out.append(contentsOf: TextEscaping.shownControl(scalar.value).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x200E { return (value < 0x20 && scalar != "\n" && scalar != "\t") || (value >= 0x7F && value <= 0x9F) || value == 0x061C }
        return isBidiControl(value)
    }

    /// Whether `scalar` is a bidirectional control — U+061C, U+200E,
    /// U+200F, U+202A–U+202E, U+2066–U+2069: marks, embeddings, overrides
    /// and isolates that reorder what a terminal shows.
    package static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value == 0x061C || isBidiControl(scalar.value) }

    private static func isBidiControl(_ value: UInt32) -> Bool {
        value == 0x200E || value == 0x200F || (value >= 0x202A && value <= 0x202E) || (value >= 0x2066 && value <= 0x2069)
    }

    /// `text` made terminal-safe and kept on one line: a newline is written
    /// `\n` — for a name, or one line of a report whose lines each mean one
    /// thing (`file:line: problem`), where a newline would forge another.
    ///
    /// ```swift
    /// MessageText.oneLine("app\nstdin:1: ok")   // "app\\nstdin:1: ok"
    /// ```
    package static func oneLine(_ text: String) -> String {
        let safe = terminalSafe(text)
        // (By bytes: by characters, this was a quarter of check's time on 1,000 problems.)
        guard safe.utf8.contains(UInt8(ascii: "\n")) else { return safe }
        return safe.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n")
    }

    /// Names listed in a message: the first `shown`, then how many in all
    /// (30,000 configurations made each "no configuration named" error a
    /// 229 KB string, and slow to build). "none" for none.
    ///
    /// ```swift
    /// MessageText.list(["app", "app-tests"])        // "app, app-tests"
    /// ```
    package static func list(_ names: [String], shown: Int = 20) -> String {
        if names.isEmpty { return "none" }
        if names.count <= shown { return names.joined(separator: ", ") }
        return names.prefix(shown).joined(separator: ", ") + ", … (\(names.count) in all)"
    }

    /// `text` bounded, then made terminal-safe: what a message from a script
    /// or a file becomes before it is printed.
    package static func printable(_ text: String) -> String { terminalSafe(bounded(text)) }
}
