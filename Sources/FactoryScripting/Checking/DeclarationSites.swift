/// Where a Lua source declares things — each `configuration …` and
/// `scope …` call — found by reading its tokens (comments and strings
/// skipped), so that `check` can tell which declarations a run never
/// reached: those after the point where it stopped, or in a function it
/// never called.
///
/// ```swift
/// let sites = DeclarationSites(source: Array("configuration \"app\" { }".utf8))
/// sites.all       // [Site(kind: .configuration, name: "app", line: 1, inFunction: false)]
/// ```
struct DeclarationSites {
    struct Site: Equatable {
        enum Kind: String { case configuration, scope }
        var kind: Kind
        /// The name, when it is a literal string (`configuration "app"`).
        var name: String?
        var line: Int
        /// Inside a function body (runs only when the function is called).
        var inFunction: Bool
        /// The named function it is in (innermost), if any.
        var function: String?

        /// `configuration "app"` / `scope "screen"` / `a configuration`.
        var label: String {
            name.map { "\(kind.rawValue) \"\($0)\"" } ?? "a \(kind.rawValue)"
        }
    }

    /// A use of the DSL or of code loading that the scan cannot follow to a
    /// declaration: an alias (`local c = configuration`), a field or index
    /// (`_G.configuration`, `_G["scope"]`), `load`/`loadfile`/`dofile`, or a
    /// `require` of a computed name.
    struct Opaque: Equatable {
        var line: Int
        var what: String
    }

    /// Every declaration site, in source order.
    private(set) var all: [Site] = []
    /// Modules the source requires by a literal name (`require "x"`,
    /// `require("x")`, `pcall(require, "x")`), with the line.
    private(set) var requires: [(name: String, line: Int)] = []
    /// Files the source runs by a literal name (`dofile "x.lua"`, `loadfile "x.lua"`).
    private(set) var files: [(name: String, line: Int)] = []
    private(set) var opaque: [Opaque] = []
    /// Calls of a name (`f(`, `f "…"`, `f {`), with their line: to find the
    /// calls of functions that declare.
    private(set) var calls: [(name: String, line: Int)] = []
    /// Named functions and the lines their bodies span.
    private(set) var functions: [(name: String, first: Int, last: Int)] = []
    /// Names bound to the DSL (`local c = configuration`) or to a declaration
    /// waiting for its body (`local late = configuration "late"`): calling
    /// them declares.
    private(set) var aliases: [(name: String, line: Int)] = []

    init(source: [UInt8]) {
        var lexer = LuaLexer(source)
        var tokens: [LuaLexer.Token] = []          // the last few, newest last
        tokens.reserveCapacity(65)
        // Open blocks: the name of a function body (or "" for an anonymous
        // one), nil for other blocks; with the line it opened on.
        var blocks: [(function: String?, line: Int)] = []
        func previous(_ back: Int) -> LuaLexer.Token? { tokens.count >= back ? tokens[tokens.count - back] : nil }
        var pending: (token: LuaLexer.Token, line: Int)?
        var awaiting: (String, Int)?               // require/dofile/loadfile: its argument comes next
        while let token = lexer.next() {
            let line = lexer.line
            if let (word, wordLine) = pending.map({ ($0.token, $0.line) }) {
                pending = nil
                if case .name(let name, _) = word {
                    let inFunction = blocks.contains { $0.function != nil }
                    let function = blocks.last { $0.function != nil && $0.function != "" }?.function
                    let isCall: Bool
                    var literal: String?
                    switch token {
                    case .string(let text): isCall = true; literal = text
                    case .symbol("("), .symbol("{"): isCall = true
                    default: isCall = false
                    }
                    if isCall { calls.append((name, wordLine)) }
                    // `NAME = configuration` or `NAME = configuration "x"`: NAME declares when called.
                    if name == "configuration" || name == "scope", let equals = previous(2), equals == .symbol("="),
                       case .name(let alias, _)? = previous(3) {
                        aliases.append((alias, wordLine))
                    }
                    switch name {
                    case "configuration", "scope":
                        if isCall {
                            all.append(Site(kind: name == "scope" ? .scope : .configuration, name: literal,
                                            line: wordLine, inFunction: inFunction, function: function))
                        } else if token != .symbol("=") {   // `scope = "x"`: a field or variable of that name, no use
                            opaque.append(Opaque(line: wordLine, what: "\(name) used as a value"))
                        }
                    case "require", "dofile", "loadfile":
                        if let literal {
                            if name == "require" { requires.append((literal, wordLine)) } else { files.append((literal, wordLine)) }
                        } else if token == .symbol("(") || token == .symbol(",") {
                            awaiting = (name, wordLine)           // the argument decides
                            tokens.append(token)
                            if tokens.count > 64 { tokens.removeFirst(60) }   // only the last four are looked at
                            continue
                        }
                    case "load", "loadstring":
                        opaque.append(Opaque(line: wordLine, what: "\(name) of code"))
                    default: break
                    }
                }
            }
            // `require("x")`, `dofile("x")`, `pcall(require, "x")`: the argument after "(" or ",".
            if let (name, wordLine) = awaiting {
                awaiting = nil
                if case .string(let text) = token {
                    if name == "require" { requires.append((text, wordLine)) } else { files.append((text, wordLine)) }
                } else {
                    opaque.append(Opaque(line: wordLine, what: "\(name) of a computed name"))
                }
            }
            if case .string(let text) = token, (text == "configuration" || text == "scope") {
                if previous(1) == .symbol("[") {
                    opaque.append(Opaque(line: line, what: "\(text) reached by index"))
                } else if previous(1) == .symbol(","), previous(3) == .symbol("("), case .name("rawget", _)? = previous(4) {
                    opaque.append(Opaque(line: line, what: "\(text) reached by rawget"))     // rawget(_G, "configuration")
                }
            }
            switch token {
            case .name(let word, _):
                let before = previous(1)
                if before == .symbol(".") || before == .symbol(":") {
                    if word == "configuration" || word == "scope" { opaque.append(Opaque(line: lexer.line, what: "\(word) reached as a field")) }
                } else if before != .keyword("local") && before != .keyword("function") {
                    pending = (token, lexer.line)
                }
            case .keyword("function"):
                // Its name: `function a.b:name(`, `local function name(`, `name = function(`, `local name = function(`.
                var name = ""
                if previous(1) == .symbol("="), case .name(let assigned, _)? = previous(2) { name = assigned }
                blocks.append((function: name, line: line))
                if name.isEmpty {
                    // `function NAME…(`: the name follows; take the last part before "(".
                    var last = ""
                    while let next = lexer.next() {
                        if case .name(let part, _) = next { last = part; continue }
                        if next == .symbol(".") || next == .symbol(":") { continue }
                        tokens.append(next)
                        break
                    }
                    blocks[blocks.count - 1].function = last
                    if let last = tokens.last { tokens = [last] }
                    continue
                }
            case .keyword("do"), .keyword("if"), .keyword("repeat"):
                blocks.append((function: nil, line: line))
            case .keyword("end"), .keyword("until"):
                if let closed = blocks.popLast(), let name = closed.function, !name.isEmpty {
                    functions.append((name, closed.line, line))
                }
            default: break
            }
            tokens.append(token)
            if tokens.count > 64 { tokens.removeFirst(60) }   // only the last four are looked at
        }
    }
}

/// Just enough of Lua's lexer to find names outside comments and strings:
/// names (with their line), keywords, literal strings (short and long, with
/// escapes), and single symbols. Numbers and other symbols are skipped over.
package struct LuaLexer {
    package enum Token: Equatable {
        case name(String, line: Int)
        case keyword(String)
        case string(String)
        case symbol(Unicode.Scalar)
        case other
    }

    private let bytes: [UInt8]
    private var i = 0
    /// The line the lexer is on (after the last token read).
    package private(set) var line = 1

    /// The keyword `bytes[start..<end]` spells, if it is one (compared as
    /// bytes, by first letter: hashing every name cost more than the rest of
    /// the lexer).
    private func keyword(_ start: Int, _ end: Int) -> String? {
        func spells(_ word: StaticString) -> String? {
            guard word.utf8CodeUnitCount == end - start else { return nil }
            let matches = word.withUTF8Buffer { letters in
                var k = 1
                while k < letters.count && letters[k] == bytes[start + k] { k += 1 }
                return k == letters.count
            }
            return matches ? word.description : nil
        }
        switch bytes[start] {
        case UInt8(ascii: "a"): return spells("and")
        case UInt8(ascii: "b"): return spells("break")
        case UInt8(ascii: "d"): return spells("do")
        case UInt8(ascii: "e"): return spells("end") ?? spells("else") ?? spells("elseif")
        case UInt8(ascii: "f"): return spells("function") ?? spells("false") ?? spells("for")
        case UInt8(ascii: "g"): return spells("goto")
        case UInt8(ascii: "i"): return spells("if") ?? spells("in")
        case UInt8(ascii: "l"): return spells("local")
        case UInt8(ascii: "n"): return spells("nil") ?? spells("not")
        case UInt8(ascii: "o"): return spells("or")
        case UInt8(ascii: "r"): return spells("return") ?? spells("repeat")
        case UInt8(ascii: "t"): return spells("then") ?? spells("true")
        case UInt8(ascii: "u"): return spells("until")
        case UInt8(ascii: "w"): return spells("while")
        default: return nil
        }
    }

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        // A first line starting with '#' is skipped, as Lua does.
        if bytes.first == UInt8(ascii: "#") {
            while i < bytes.count && bytes[i] != 10 { i += 1 }
        }
    }

    private func at(_ offset: Int) -> UInt8? { i + offset < bytes.count ? bytes[i + offset] : nil }

    package mutating func next() -> Token? {
        while i < bytes.count {
            let c = bytes[i]
            switch c {
            case 10:
                line += 1
                i += 1
            case 9, 11, 12, 13, 32:
                i += 1
            case UInt8(ascii: "-") where at(1) == UInt8(ascii: "-"):
                i += 2
                if let level = longBracketLevel() {
                    _ = longString(level: level)
                } else {
                    while i < bytes.count && bytes[i] != 10 { i += 1 }
                }
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                return .string(shortString(quote: c))
            case UInt8(ascii: "[") where longBracketLevel() != nil:
                let level = longBracketLevel() ?? 0
                return .string(longString(level: level))
            case _ where Self.isNameStart(c):
                let start = i
                let startLine = line
                while i < bytes.count && Self.isNameByte(bytes[i]) { i += 1 }
                if let keyword = keyword(start, i) { return .keyword(keyword) }
                return .name(String(decoding: bytes[start..<i], as: UTF8.self), line: startLine)
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                // A number (hex, exponents, fractions): letters and digits and '.', and a sign after an exponent.
                while i < bytes.count {
                    let d = bytes[i]
                    if Self.isNameByte(d) || d == UInt8(ascii: ".") { i += 1; continue }
                    if (d == UInt8(ascii: "+") || d == UInt8(ascii: "-")),
                       let e = i > 0 ? bytes[i - 1] : nil, [UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "p"), UInt8(ascii: "P")].contains(e) {
                        i += 1
                        continue
                    }
                    break
                }
                return .other
            default:
                i += 1
                return .symbol(Unicode.Scalar(c))
            }
        }
        return nil
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

    private mutating func longString(level: Int) -> String {
        i += level + 2
        if at(0) == 13 { i += 1 }                // a first newline is skipped
        if at(0) == 10 { line += 1; i += 1 }
        let start = i
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "]") {
                var j = 1
                while at(j) == UInt8(ascii: "=") { j += 1 }
                if j - 1 == level && at(j) == UInt8(ascii: "]") {
                    let text = String(decoding: bytes[start..<i], as: UTF8.self)
                    i += j + 1
                    return text
                }
            }
            if bytes[i] == 10 { line += 1 }
            i += 1
        }
        return String(decoding: bytes[start...], as: UTF8.self)
    }

    private mutating func shortString(quote: UInt8) -> String {
        i += 1
        // Most strings have no escape: their bytes as they are.
        var end = i
        while end < bytes.count, bytes[end] != quote, bytes[end] != 10, bytes[end] != UInt8(ascii: "\\") { end += 1 }
        if end == bytes.count || bytes[end] != UInt8(ascii: "\\") {
            let text = String(decoding: bytes[i..<end], as: UTF8.self)
            i = end < bytes.count && bytes[end] == quote ? end + 1 : end
            return text
        }
        var out: [UInt8] = Array(bytes[i..<end])
        i = end
        while i < bytes.count, bytes[i] != quote, bytes[i] != 10 {
            if bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.count {
                let e = bytes[i + 1]
                switch e {
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "t"): out.append(9)
                case 10: out.append(10); line += 1
                case UInt8(ascii: "z"):
                    i += 2
                    while i < bytes.count, [9, 10, 11, 12, 13, 32].contains(bytes[i]) {
                        if bytes[i] == 10 { line += 1 }
                        i += 1
                    }
                    continue
                default: out.append(e)                // \" \\ \' and the rest, close enough for a name
                }
                i += 2
                continue
            }
            out.append(bytes[i])
            i += 1
        }
        if i < bytes.count && bytes[i] == quote { i += 1 }
        return String(decoding: out, as: UTF8.self)
    }
}
