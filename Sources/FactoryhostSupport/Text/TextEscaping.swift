/// How one text format writes the characters it cannot hold as they are:
/// a fixed replacement for some, a rule for the other control characters.
/// Every format factoryhost writes (JSON, Lua literals and messages, YAML in
/// TAP, XML in JUnit, DOT and Mermaid labels) is one value of this type, so
/// the walk over the text is written once.
///
/// ```swift
/// TextEscaping.json.quoted("a\"b\n")     // "\"a\\\"b\\n\""
/// TextEscaping.xml.escaped("a < b")     // "a &lt; b"
/// ```
package struct TextEscaping: Sendable {
    /// Replacements for single characters (`"` → `\"`).
    package let replacements: [Unicode.Scalar: String]
    /// What a control character (U+0000–U+001F, and U+007F where `deleteIsControl`)
    /// without a replacement becomes; nil keeps it.
    package let control: (@Sendable (UInt32) -> String)?
    /// Whether U+007F counts as a control character.
    package let deleteIsControl: Bool
    /// Whether U+0080–U+009F (C1: an 8-bit CSI among them) count as control
    /// characters — for text a terminal shows.
    package let c1IsControl: Bool
    /// The quote `quoted(_:)` puts around the text.
    package let quote: String

    package init(replacements: [Unicode.Scalar: String], control: (@Sendable (UInt32) -> String)?,
                 deleteIsControl: Bool = true, c1IsControl: Bool = false, quote: String = "\"") {
        self.replacements = replacements
        self.control = control
        self.deleteIsControl = deleteIsControl
        self.c1IsControl = c1IsControl
        self.quote = quote
    }

    /// `text` with every character the format cannot hold replaced.
    package func escaped(_ text: some StringProtocol) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let replacement = replacements[scalar] {
                out.append(contentsOf: replacement.unicodeScalars)
            } else if let control, scalar.value < 0x20 || (deleteIsControl && scalar.value == 0x7F)
                        || (c1IsControl && scalar.value >= 0x80 && scalar.value <= 0x9F) {
                out.append(contentsOf: control(scalar.value).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `text` escaped, between the format's quotes.
    package func quoted(_ text: some StringProtocol) -> String { quote + escaped(text) + quote }

    /// `value` in `radix`, zero-padded to `width` digits.
    package static func digits(_ value: UInt32, radix: Int, width: Int, uppercase: Bool = false) -> String {
        let digits = String(value, radix: radix, uppercase: uppercase)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static let backslashed: [Unicode.Scalar: String] = ["\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"]

    /// A JSON string: `\"`, `\\`, `\n`, `\r`, `\t`, other controls as `\u00XX`.
    package static let json = TextEscaping(replacements: backslashed, control: { "\\u" + digits($0, radix: 16, width: 4) },
                                           deleteIsControl: false)

    /// A Lua string literal that reads back as the same bytes: `\"`, `\\`,
    /// `\n`, other controls as three decimal digits (`\009`: a digit after
    /// it stays a digit).
    package static let luaLiteral = TextEscaping(replacements: ["\"": "\\\"", "\\": "\\\\", "\n": "\\n"],
                                                 control: { "\\" + digits($0, radix: 10, width: 3) })

    /// Text for a message, as Lua writes a string's bytes (`\n`, `\27`), so
    /// no byte of it reaches a terminal raw.
    package static let luaMessage = TextEscaping(replacements: backslashed, control: { "\\\($0)" })

    /// A YAML double-quoted scalar: `\"`, `\\`, `\n`, `\t`, `\r`, other controls as `\xHH`.
    package static let yaml = TextEscaping(replacements: backslashed,
                                           control: { "\\x" + digits($0, radix: 16, width: 2, uppercase: true) }, c1IsControl: true)

    /// XML character data or an attribute value: the five entities, `\n`,
    /// `\t`, `\r` as character references, and what XML 1.0 cannot hold
    /// written as Lua writes it in a message (`\27`, `\u{FFFE}`) — as U+FFFD
    /// they looked like a real U+FFFD, and like each other.
    package static let xml = TextEscaping(replacements: ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;",
                                                         "\n": "&#10;", "\t": "&#9;", "\r": "&#13;", "\u{FFFE}": "\\u{FFFE}",
                                                         "\u{FFFF}": "\\u{FFFF}"],
                                          control: { "\\\($0)" }, deleteIsControl: false)

    /// XML character data whose line breaks stay line breaks.
    package static let xmlText = TextEscaping(replacements: xml.replacements.merging(["\n": "\n"]) { $1 },
                                              control: { "\\\($0)" }, deleteIsControl: false)

    /// A control character as a terminal-safe name shows it: C0 as Lua writes
    /// a byte (`\27`), C1 as `\u{9B}` (as ``MessageText/terminalSafe(_:)`` does).
    package static func shownControl(_ value: UInt32) -> String {
        value < 0x80 ? "\\\(value)" : "\\u{" + String(value, radix: 16, uppercase: true) + "}"
    }

    /// `bytes` as text: UTF-8 as it is, each byte that is not as `\xNN` —
    /// for a name (a file's) that is not text, so it is neither shown as
    /// U+FFFD (a name that is not there) nor confused with one holding a real U+FFFD.
    ///
    /// ```swift
    /// TextEscaping.shownBytes([0x63, 0x61, 0x66, 0xE9])    // "caf\xE9"
    /// ```
    package static func shownBytes(_ bytes: some Collection<UInt8>) -> String {
        var out = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var at = bytes.startIndex
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                out.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                at = bytes.index(at, offsetBy: encoded.count)
            case .error(let length):
                for byte in bytes[at...].prefix(length) { out += "\\x" + digits(UInt32(byte), radix: 16, width: 2, uppercase: true) }
                at = bytes.index(at, offsetBy: length)
            case .emptyInput:
                return out
            }
        }
    }

    /// A DOT string: `\"`, `\\`, a line break as DOT's `\n`.
    package static let dot = TextEscaping(replacements: ["\"": "\\\"", "\\": "\\\\", "\n": "\\n"], control: nil)

    /// Text inside a quoted Mermaid label: quotes, `#`, `<`, `>` and `&` as
    /// Mermaid's entity codes, line breaks as spaces.
    package static let mermaid = TextEscaping(replacements: ["\"": "#quot;", "#": "#35;", "<": "#lt;", ">": "#gt;", "&": "#amp;",
                                                             "\n": " ", "\r": " "], control: nil)
}
