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
            name.map { "\(kind.rawValue) \"\(ScriptNames.shown($0))\"" } ?? "a \(kind.rawValue)"
        }
    }

    /// A use of the DSL or of code loading that the scan cannot follow to a
    /// declaration: an alias (`local c = configuration`), a field or index
    /// (`_G.configuration`, `_G["scope"]`), `load`/`loadfile`/`dofile`, or a
    /// `require` of a computed name.
    struct Opaque: Equatable {
        var line: Int
        var what: String
        /// The DSL, `require` or the globals taken as a value (kept in a
        /// table, passed, bound): it may be called anywhere later, so a use
        /// before the stop counts when the script goes on after it. (Code
        /// loading acts where it is written.)
        var escapes = true
    }

    /// The line of the source's last token.
    private(set) var lastLine = 0

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
        // The globals table: `_G`, `_ENV` (a field of that name too: `package.loaded._G`).
        func isGlobals(_ tokens: [Raw], _ back: Int, _ lexer: LuaLexer) -> Bool {
            guard let raw = previous(tokens, back), raw.kind == .name else { return false }
            return lexer.spells(raw, "_G") || lexer.spells(raw, "_ENV")
        }
        while let token = lexer.nextRaw() {
            let line = lexer.line
            lastLine = line
            // `package.path` (or where require looks) changed: what `require` finds after the stop is not what check found.
            if token.kind == .name, previousIs(tokens, 1, "."), let table = previous(tokens, 2), table.kind == .name,
               lexer.spells(table, "package"), !previousIs(tokens, 3, "."),
               lexer.spells(token, "path") || lexer.spells(token, "cpath") || lexer.spells(token, "searchers") || lexer.spells(token, "preload") {
                opaque.append(Opaque(line: line, what: "package.\(lexer.text(token)) (where require looks)", escapes: false))
            }
            // The globals used other than as `_G.name` or `_G["name"]` — indexed by a
            // computed key (`_G[("configuration")]`, `_G["config" .. "uration"]`), walked
            // (`pairs(_G)`), passed or bound (`local G = _G`): anything may be declared through it.
            if previous(tokens, 1)?.kind == .name, isGlobals(tokens, 1, lexer), !token.isSymbol("."), !token.isSymbol("[") {
                opaque.append(Opaque(line: line, what: "\(lexer.text(tokens[tokens.count - 1])) used as a whole"))
            } else if previousIs(tokens, 1, "["), isGlobals(tokens, 2, lexer), token.kind != .string {
                opaque.append(Opaque(line: line, what: "\(lexer.text(tokens[tokens.count - 2])) indexed by a computed key"))
            } else if previous(tokens, 1)?.kind == .string, previousIs(tokens, 2, "["), isGlobals(tokens, 3, lexer), !token.isSymbol("]") {
                opaque.append(Opaque(line: line, what: "\(lexer.text(tokens[tokens.count - 3])) indexed by a computed key"))
            }
            if token.kind == .string, lexer.stringIs(token, "_G") || lexer.stringIs(token, "_ENV") {
                opaque.append(Opaque(line: line, what: "the globals reached by name"))     // package.loaded["_G"], require "_G"
            }
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
                        // (`local configuration = configuration` keeps its name: calls of it are seen as sites.)
                        let sameName = previousIs(tokens, 2, "=") && previous(tokens, 3).map { lexer.text($0) == name } == true
                        opaque.append(Opaque(line: wordLine, what: "\(name) used as a value", escapes: !sameName))
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
                    } else if !token.isSymbol("="),
                              !(previousIs(tokens, 2, "=") && previous(tokens, 3).map { lexer.text($0) == lexer.text(word) } == true) {
                        // `local req = require`, `{ require }`: called later under another name
                        // (`local require = require`, the usual idiom, keeps its name: its calls are seen).
                        opaque.append(Opaque(line: wordLine, what: "\(lexer.text(word)) used as a value"))
                    }
                } else if lexer.spells(word, "load") || lexer.spells(word, "loadstring") {
                    opaque.append(Opaque(line: wordLine, what: "\(lexer.text(word)) of code", escapes: false))
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
                    opaque.append(Opaque(line: wordLine, what: "\(name) of a computed name", escapes: false))
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
