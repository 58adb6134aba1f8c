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
    /// Calls of an alias or of a function that declares (`f(`, `f "…"`,
    /// `f {`), with their line.
    /// (`qualifier`: the table a field call reaches it through — `M` in
    /// `M.setup(…)` or `M:setup(…)` — nil for a plain call.)
    private(set) var calls: [(name: String, line: Int, qualifier: String?)] = []
    /// Named functions that declare, and the lines their bodies span.
    /// (`qualifier`: the table it is defined in — `M` in `function M.setup` —
    /// nil for a plain function.)
    private(set) var functions: [(name: String, first: Int, last: Int, qualifier: String?)] = []
    /// Names bound to a required module (`local m = require "mod"`): a call
    /// `m.setup(…)` may be of a function that module declares with.
    private(set) var moduleNames: [(name: String, module: String)] = []
    /// Names bound to the DSL (`local c = configuration`) or to a declaration
    /// waiting for its body (`local late = configuration "late"`): calling
    /// them declares.
    /// (`inTable`: a field of a table constructor, `{ cfg = configuration }`,
    /// called through the table.)
    private(set) var aliases: [(name: String, line: Int, inTable: Bool)] = []

    init(source: [UInt8]) {
        var lexer = LuaLexer(source)
        typealias Raw = LuaLexer.RawToken
        var tokens: [Raw] = []                     // the last few, newest last
        tokens.reserveCapacity(65)
        // Open blocks: the name of a function body (or "" for an anonymous
        // one), nil for other blocks; with the line it opened on.
        var blocks: [(function: String?, qualifier: String?, line: Int)] = []
        // (Not closures over `tokens`: a captured variable is checked for
        // exclusive access at every use, a third of the scan's time.)
        func previous(_ tokens: [Raw], _ back: Int) -> Raw? { tokens.count >= back ? tokens[tokens.count - back] : nil }
        func previousIs(_ tokens: [Raw], _ back: Int, _ symbol: Unicode.Scalar) -> Bool {
            tokens.count >= back && tokens[tokens.count - back].isSymbol(symbol)
        }
        // Calls, as places in the source: only a few are spelled out, at the end.
        // (qualifierStart -1: none)
        var callSites: [(start: Int32, end: Int32, line: Int32, qualifierStart: Int32, qualifierEnd: Int32)] = []
        var pending: Raw?                          // a name: what follows decides what it is
        var pendingIsField = false                 // (`M.name`: only whether it is called)
        var pendingQualifier: Raw?                 // (`M` of `M.name`)
        var awaiting: (name: String, line: Int)?   // require/dofile/loadfile: its argument comes next
        while let token = lexer.nextRaw() {
            let line = lexer.line
            if let word = pending {
                pending = nil
                let wordLine = word.line
                let literal: Raw? = token.kind == .string ? token : nil
                let isCall = literal != nil || token.isSymbol("(") || token.isSymbol("{")
                if isCall {
                    let qualifier = pendingIsField ? pendingQualifier : nil
                    callSites.append((Int32(truncatingIfNeeded: word.start), Int32(truncatingIfNeeded: word.end), Int32(truncatingIfNeeded: wordLine),
                                      Int32(truncatingIfNeeded: qualifier?.start ?? -1), Int32(truncatingIfNeeded: qualifier?.end ?? -1)))
                }
                let isConfiguration = !pendingIsField && lexer.spells(word, "configuration")
                let isScope = !pendingIsField && !isConfiguration && lexer.spells(word, "scope")
                if pendingIsField {
                    // `M.setup(…)`, `t.cfg "x"`: a call, nothing more.
                } else if isConfiguration || isScope {
                    // `NAME = configuration`, `local NAME <const> = configuration` or
                    // `NAME = configuration "x"`: NAME declares when called.
                    if previousIs(tokens, 2, "=") {
                        var alias = previous(tokens, 3)
                        if previousIs(tokens, 3, ">"), previous(tokens, 4)?.kind == .name, previousIs(tokens, 5, "<") {
                            alias = previous(tokens, 6)
                        }
                        if let alias, alias.kind == .name {
                            let inTable = previousIs(tokens, 4, "{") || previousIs(tokens, 4, ",")
                            aliases.append((lexer.text(alias), wordLine, inTable))
                        }
                    }
                    let name = isScope ? "scope" : "configuration"
                    if isCall {
                        all.append(Site(kind: isScope ? .scope : .configuration, name: literal.map(lexer.text),
                                        line: wordLine, inFunction: blocks.contains { $0.function != nil },
                                        function: blocks.last { $0.function != nil && $0.function != "" }?.function))
                    } else if !token.isSymbol("=") {   // `scope = "x"`: a field or variable of that name, no use
                        opaque.append(Opaque(line: wordLine, what: "\(name) used as a value"))
                    }
                } else if lexer.spells(word, "require") || lexer.spells(word, "dofile") || lexer.spells(word, "loadfile") {
                    let isRequire = lexer.spells(word, "require")
                    if let literal {
                        if isRequire { requires.append((lexer.text(literal), wordLine)) } else { files.append((lexer.text(literal), wordLine)) }
                        // `local m = require "mod"`
                        if isRequire, previousIs(tokens, 2, "="), let bound = previous(tokens, 3), bound.kind == .name {
                            moduleNames.append((lexer.text(bound), lexer.text(literal)))
                        }
                    } else if token.isSymbol("(") || token.isSymbol(",") {
                        awaiting = (lexer.text(word), wordLine)      // the argument decides
                        tokens.append(token)
                        if tokens.count > 64 { tokens.removeFirst(60) }   // only the last four are looked at
                        continue
                    }
                } else if lexer.spells(word, "load") || lexer.spells(word, "loadstring") {
                    opaque.append(Opaque(line: wordLine, what: "\(lexer.text(word)) of code"))
                }
            }
            // `require("x")`, `dofile("x")`, `pcall(require, "x")`: the argument after "(" or ",".
            if let (name, wordLine) = awaiting {
                awaiting = nil
                if token.kind == .string {
                    // `local m = require("mod")`: NAME = require (
                    if name == "require", previousIs(tokens, 1, "("), previousIs(tokens, 3, "="),
                       let bound = previous(tokens, 4), bound.kind == .name {
                        moduleNames.append((lexer.text(bound), lexer.text(token)))
                    }
                    if name == "require" { requires.append((lexer.text(token), wordLine)) } else { files.append((lexer.text(token), wordLine)) }
                } else {
                    opaque.append(Opaque(line: wordLine, what: "\(name) of a computed name"))
                }
            }
            if token.kind == .string {
                let isConfiguration = lexer.stringIs(token, "configuration")
                if isConfiguration || lexer.stringIs(token, "scope") {
                    let text = isConfiguration ? "configuration" : "scope"
                    if previousIs(tokens, 1, "[") {
                        opaque.append(Opaque(line: line, what: "\(text) reached by index"))
                    } else if previousIs(tokens, 1, ","), previousIs(tokens, 3, "("), let callee = previous(tokens, 4), callee.kind == .name,
                              lexer.spells(callee, "rawget") {
                        opaque.append(Opaque(line: line, what: "\(text) reached by rawget"))     // rawget(_G, "configuration")
                    }
                }
            }
            switch token.kind {
            case .name:
                if previousIs(tokens, 1, ".") || previousIs(tokens, 1, ":") {
                    if lexer.spells(token, "configuration") || lexer.spells(token, "scope") {
                        opaque.append(Opaque(line: lexer.line, what: "\(lexer.text(token)) reached as a field"))
                    }
                    pending = token
                    pendingIsField = true
                    pendingQualifier = previous(tokens, 2).flatMap { $0.kind == .name ? $0 : nil }
                } else if previous(tokens, 1)?.isKeyword(.local) != true && previous(tokens, 1)?.isKeyword(.function) != true {
                    pending = token
                    pendingIsField = false
                }
            case .keyword:
                switch token.keyword {
                case .function?:
                    // Its name: `function a.b:name(`, `local function name(`, `name = function(`, `local name = function(`.
                    var name = "", qualifier: String?
                    if previousIs(tokens, 1, "="), let assigned = previous(tokens, 2), assigned.kind == .name {
                        name = lexer.text(assigned)
                        // `M.name = function(`: M is its table.
                        if previousIs(tokens, 3, ".") || previousIs(tokens, 3, ":"), let table = previous(tokens, 4), table.kind == .name {
                            qualifier = lexer.text(table)
                        }
                    }
                    blocks.append((function: name, qualifier: qualifier, line: line))
                    if name.isEmpty {
                        // `function NAME…(`: the name follows; take the last part before "(",
                        // and the part before it as its table.
                        var last: Raw?, table: Raw?
                        while let next = lexer.nextRaw() {
                            if next.kind == .name { table = last; last = next; continue }
                            if next.isSymbol(".") || next.isSymbol(":") { continue }
                            tokens.append(next)
                            break
                        }
                        blocks[blocks.count - 1].function = last.map(lexer.text) ?? ""
                        blocks[blocks.count - 1].qualifier = table.map(lexer.text)
                        if let last = tokens.last { tokens = [last] }
                        continue
                    }
                case .do?, .if?, .repeat?:
                    blocks.append((function: nil, qualifier: nil, line: line))
                case .end?, .until?:
                    if let closed = blocks.popLast(), let name = closed.function, !name.isEmpty {
                        functions.append((name, closed.line, line, closed.qualifier))
                    }
                default: break
                }
            default: break
            }
            tokens.append(token)
            if tokens.count > 64 { tokens.removeFirst(60) }   // only the last four are looked at
        }
        // Only functions that declare, and calls of them and of aliases, are
        // ever looked at: the others (a call per registration, say) are not
        // kept while the script runs.
        let declaring = Set(all.compactMap(\.function))
        // A function declares if a declaration lies in its body (not merely
        // one of its name: every `make = function` is named "make").
        functions = functions.filter { function in
            declaring.contains(function.name)
                && all.contains { $0.function == function.name && $0.line >= function.first && $0.line <= function.last }
        }
        // Calls kept: of aliases, of functions that declare, and through a
        // required module's name (`m.setup(…)`: the module may declare with
        // that function; its functions are not known here).
        let callees = Set(aliases.map(\.name)).union(declaring)
        let modules = Set(moduleNames.map(\.name))
        if !callees.isEmpty || !modules.isEmpty {
            for call in callSites {
                let name = lexer.text(LuaLexer.RawToken(kind: .name, start: Int(call.start), end: Int(call.end)))
                let qualifier = call.qualifierStart < 0 ? nil
                    : lexer.text(LuaLexer.RawToken(kind: .name, start: Int(call.qualifierStart), end: Int(call.qualifierEnd)))
                if callees.contains(name) || qualifier.map(modules.contains) == true {
                    calls.append((name, Int(call.line), qualifier))
                }
            }
        }
    }
}

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
