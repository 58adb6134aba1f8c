/// Just enough of Lua's lexer to find names outside comments and strings:
/// names (with their line), keywords, literal strings (short and long, with
/// escapes), and single symbols. Numbers and other symbols are skipped over.
///
/// ``nextRaw()`` reads a token as a place in the source (no string made:
/// the declaration scan reads every token of a script but spells out few);
/// ``next()`` reads it spelled out.
package struct LuaLexer {
    package enum Token: Equatable {
        case name(String, line: Int)
        case keyword(String)
        case string(String)
        case symbol(Unicode.Scalar)
        case other
    }

    package enum Keyword: String {
        case and, `break`, `do`, `else`, elseif, end, `false`, `for`, function, goto, `if`, `in`,
             local, `nil`, not, or, `repeat`, `return`, then, `true`, until, `while`
    }

    /// A token as a place in the source: a name or keyword is
    /// `bytes[start..<end]`; a string's contents (escapes not yet decoded)
    /// are; a symbol is `symbol`.
    package struct RawToken {
        package enum Kind: UInt8 { case name, keyword, string, symbol, other }
        package var kind: Kind
        package var start = 0
        package var end = 0
        /// The line a name starts on.
        package var line = 0
        package var symbol: UInt8 = 0
        package var keyword: Keyword?
        /// A short string with escapes, or a long one with line breaks
        /// (decoded, or its breaks made `\n`, when spelled out).
        package var escaped = false
        /// A long string (its line breaks are `\n` when spelled out, as in Lua).
        package var isLong = false

        package func isSymbol(_ c: Unicode.Scalar) -> Bool { kind == .symbol && UInt32(symbol) == c.value }
        package func isKeyword(_ word: Keyword) -> Bool { kind == .keyword && keyword == word }
    }

    private let bytes: [UInt8]
    private var i = 0
    /// The line the lexer is on (after the last token read).
    package private(set) var line = 1

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark is skipped, then a first line starting with '#', as Lua does.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        if i < bytes.count && bytes[i] == UInt8(ascii: "#") {
            while i < bytes.count && bytes[i] != 10 && bytes[i] != 13 { i += 1 }
        }
    }

    /// The next token, spelled out.
    package mutating func next() -> Token? {
        guard let raw = nextRaw() else { return nil }
        switch raw.kind {
        case .name: return .name(text(raw), line: raw.line)
        case .keyword: return .keyword(raw.keyword?.rawValue ?? "")
        case .string: return .string(text(raw))
        case .symbol: return .symbol(Unicode.Scalar(raw.symbol))
        case .other: return .other
        }
    }

    /// A name's or a string's text (a string's escapes decoded).
    package func text(_ token: RawToken) -> String {
        guard token.escaped else { return String(decoding: bytes[token.start..<token.end], as: UTF8.self) }
        return token.isLong ? longStringText(token.start, token.end) : decodeShortString(token.start, token.end)
    }

    /// A long string's text: each line break (`\r\n`, `\n\r`, `\r`) is `\n`, as Lua reads it.
    private func longStringText(_ start: Int, _ end: Int) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var k = start
        while k < end {
            let c = bytes[k]
            k += 1
            guard c == 10 || c == 13 else { out.append(c); continue }
            out.append(10)
            if k < end, bytes[k] == 23 - c { k += 1 }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether a name (or a string without escapes) spells `word`.
    package func spells(_ token: RawToken, _ word: StaticString) -> Bool {
        guard !token.escaped, word.utf8CodeUnitCount == token.end - token.start else { return false }
        return word.withUTF8Buffer { letters in
            var k = 0
            while k < letters.count && letters[k] == bytes[token.start + k] { k += 1 }
            return k == letters.count
        }
    }

    /// Whether a string token's text is `word` (escapes decoded).
    package func stringIs(_ token: RawToken, _ word: StaticString) -> Bool {
        token.escaped ? text(token) == word.description : spells(token, word)
    }

    private func at(_ offset: Int) -> UInt8? { i + offset < bytes.count ? bytes[i + offset] : nil }

    /// At `\n` or `\r`: one line break, as Lua counts them (`\r\n` and
    /// `\n\r` are one; a lone `\r` is one).
    private mutating func skipLineBreak() {
        let first = bytes[i]
        i += 1
        if i < bytes.count, bytes[i] == 23 - first { i += 1 }      // the other of the pair
        line += 1
    }

    package mutating func nextRaw() -> RawToken? {
        while i < bytes.count {
            let c = bytes[i]
            switch c {
            case 10, 13:
                skipLineBreak()
            case 9, 11, 12, 32:
                i += 1
            case UInt8(ascii: "-") where at(1) == UInt8(ascii: "-"):
                i += 2
                if let level = longBracketLevel() {
                    _ = longString(level: level)
                } else {
                    while i < bytes.count && bytes[i] != 10 && bytes[i] != 13 { i += 1 }
                }
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                return shortString(quote: c)
            case UInt8(ascii: "[") where longBracketLevel() != nil:
                return longString(level: longBracketLevel() ?? 0)
            case _ where Self.isNameStart(c):
                let start = i
                while i < bytes.count && Self.isNameByte(bytes[i]) { i += 1 }
                if let keyword = keyword(start, i) { return RawToken(kind: .keyword, start: start, end: i, line: line, keyword: keyword) }
                return RawToken(kind: .name, start: start, end: i, line: line)
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                // A number (hex, exponents, fractions): letters and digits and '.', and a sign after an exponent.
                while i < bytes.count {
                    let d = bytes[i]
                    if Self.isNameByte(d) || d == UInt8(ascii: ".") { i += 1; continue }
                    if d == UInt8(ascii: "+") || d == UInt8(ascii: "-") {
                        let e = bytes[i - 1] | 0x20                  // (i > 0: a digit came first)
                        if e == UInt8(ascii: "e") || e == UInt8(ascii: "p") { i += 1; continue }
                    }
                    break
                }
                return RawToken(kind: .other)
            default:
                i += 1
                return RawToken(kind: .symbol, symbol: c)
            }
        }
        return nil
    }

    /// The keyword `bytes[start..<end]` spells, if it is one (compared as
    /// bytes, by first letter: hashing every name cost more than the rest of
    /// the lexer).
    private func keyword(_ start: Int, _ end: Int) -> Keyword? {
        let length = end - start
        guard length >= 2 && length <= 8 else { return nil }
        func spells(_ word: StaticString, _ keyword: Keyword) -> Keyword? {
            guard word.utf8CodeUnitCount == length else { return nil }
            let matches = word.withUTF8Buffer { letters in
                var k = 1
                while k < letters.count && letters[k] == bytes[start + k] { k += 1 }
                return k == letters.count
            }
            return matches ? keyword : nil
        }
        switch bytes[start] {
        case UInt8(ascii: "a"): return spells("and", .and)
        case UInt8(ascii: "b"): return spells("break", .break)
        case UInt8(ascii: "d"): return spells("do", .do)
        case UInt8(ascii: "e"): return spells("end", .end) ?? spells("else", .else) ?? spells("elseif", .elseif)
        case UInt8(ascii: "f"): return spells("function", .function) ?? spells("false", .false) ?? spells("for", .for)
        case UInt8(ascii: "g"): return spells("goto", .goto)
        case UInt8(ascii: "i"): return spells("if", .if) ?? spells("in", .in)
        case UInt8(ascii: "l"): return spells("local", .local)
        case UInt8(ascii: "n"): return spells("nil", .nil) ?? spells("not", .not)
        case UInt8(ascii: "o"): return spells("or", .or)
        case UInt8(ascii: "r"): return spells("return", .return) ?? spells("repeat", .repeat)
        case UInt8(ascii: "t"): return spells("then", .then) ?? spells("true", .true)
        case UInt8(ascii: "u"): return spells("until", .until)
        case UInt8(ascii: "w"): return spells("while", .while)
        default: return nil
        }
    }

    private static func isNameStart(_ c: UInt8) -> Bool {
        (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c == 95
    }

    private static func isNameByte(_ c: UInt8) -> Bool { isNameStart(c) || (c >= 48 && c <= 57) }

    /// At `[` followed by `=`* and `[`: the number of `=`.
    private func longBracketLevel() -> Int? {
        guard at(0) == UInt8(ascii: "[") else { return nil }
        var level = 0
        while at(1 + level) == UInt8(ascii: "=") { level += 1 }
        return at(1 + level) == UInt8(ascii: "[") ? level : nil
    }

    private mutating func longString(level: Int) -> RawToken {
        i += level + 2
        if at(0) == 10 || at(0) == 13 { skipLineBreak() }    // a first line break is skipped
        let start = i
        var breaks = false
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "]") {
                var j = 1
                while at(j) == UInt8(ascii: "=") { j += 1 }
                if j - 1 == level && at(j) == UInt8(ascii: "]") {
                    let end = i
                    i += j + 1
                    return RawToken(kind: .string, start: start, end: end, escaped: breaks, isLong: true)
                }
            }
            if bytes[i] == 10 || bytes[i] == 13 { skipLineBreak(); breaks = true } else { i += 1 }
        }
        return RawToken(kind: .string, start: start, end: bytes.count, escaped: breaks, isLong: true)
    }

    /// A short string: its contents end at the closing quote, or at a line's
    /// end or the source's (unfinished). Lines are counted here; escapes are
    /// decoded only when it is spelled out.
    private mutating func shortString(quote: UInt8) -> RawToken {
        i += 1
        let start = i
        var escaped = false
        while i < bytes.count, bytes[i] != quote, bytes[i] != 10, bytes[i] != 13 {
            guard bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.count else { i += 1; continue }
            escaped = true
            switch bytes[i + 1] {
            case 10, 13:                                 // an escaped line break (\r\n or \n\r: one)
                line += 1
                i += 2
                if i < bytes.count, bytes[i] == 23 - bytes[i - 1] { i += 1 }
            case UInt8(ascii: "z"):
                i += 2
                while i < bytes.count, Self.isSpace(bytes[i]) {
                    if bytes[i] == 10 || bytes[i] == 13 { skipLineBreak() } else { i += 1 }
                }
            default:
                i += 2
            }
        }
        let end = i
        if i < bytes.count && bytes[i] == quote { i += 1 }
        return RawToken(kind: .string, start: start, end: end, escaped: escaped)
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 32 || (c >= 9 && c <= 13) }

    /// The text of a short string's contents with their escapes decoded as
    /// Lua decodes them: `\\n` and the other letters, `\\ddd`, `\\xhh`,
    /// `\\u{h…}`, `\\z`, an escaped line break; any other escaped byte stands
    /// for itself.
    private func decodeShortString(_ start: Int, _ end: Int) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var k = start
        func hexValue(_ c: UInt8) -> UInt32? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(c - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
        while k < end {
            guard bytes[k] == UInt8(ascii: "\\"), k + 1 < end else { out.append(bytes[k]); k += 1; continue }
            let e = bytes[k + 1]
            k += 2
            switch e {
            case UInt8(ascii: "a"): out.append(7)
            case UInt8(ascii: "b"): out.append(8)
            case UInt8(ascii: "f"): out.append(12)
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "v"): out.append(11)
            case 10, 13:                                 // an escaped line break (\r\n or \n\r: one)
                out.append(10)
                if k < end, bytes[k] == 23 - e { k += 1 }
            case UInt8(ascii: "x"):
                var value: UInt32 = 0, digits = 0
                while digits < 2, k < end, let digit = hexValue(bytes[k]) { value = value * 16 + digit; digits += 1; k += 1 }
                out.append(UInt8(truncatingIfNeeded: value))
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                var value = UInt32(e - UInt8(ascii: "0")), digits = 1
                while digits < 3, k < end, bytes[k] >= UInt8(ascii: "0"), bytes[k] <= UInt8(ascii: "9") {
                    value = value * 10 + UInt32(bytes[k] - UInt8(ascii: "0"))
                    digits += 1
                    k += 1
                }
                out.append(UInt8(truncatingIfNeeded: value))
            case UInt8(ascii: "u") where k < end && bytes[k] == UInt8(ascii: "{"):
                var value: UInt32 = 0
                k += 1
                while k < end, let digit = hexValue(bytes[k]), value < 0x800_0000 { value = value * 16 + digit; k += 1 }
                if k < end, bytes[k] == UInt8(ascii: "}") { k += 1 }
                out.append(contentsOf: Self.utf8(value))
            case UInt8(ascii: "z"): while k < end, Self.isSpace(bytes[k]) { k += 1 }
            default: out.append(e)                    // \" \\ \' and the rest
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `value` in UTF-8 as Lua writes `\\u{…}` (up to 2^31, six bytes).
    private static func utf8(_ value: UInt32) -> [UInt8] {
        if value < 0x80 { return [UInt8(value)] }
        var bytes: [UInt8] = []
        var rest = value, limit: UInt32 = 0x3F                // what fits in the first byte
        while rest > limit {
            bytes.insert(UInt8(0x80 | (rest & 0x3F)), at: 0)
            rest >>= 6
            limit >>= 1
        }
        bytes.insert(UInt8((~limit << 1) & 0xFF) | UInt8(rest), at: 0)
        return bytes
    }
}
