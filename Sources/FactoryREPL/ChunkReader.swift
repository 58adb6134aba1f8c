import FactoryScripting

/// Turns what was typed at the prompt into a chunk to run, as lua.c does:
/// a single line is first tried as `return <line>` (so an expression prints
/// its values); otherwise the lines are a statement, and a chunk that ends
/// early (Lua's message ends in `<eof>`) waits for more lines.
///
/// A statement's top-level `local` names are kept for later lines: the
/// chunk ends with a call that hands their values to the REPL's locals
/// table (see `repl.lua`), which every later line's environment consults
/// before the globals.
enum ChunkReader {
    /// What compiling the lines typed so far came to.
    enum Outcome {
        /// Ready to run: the compiled function, and whether it is the
        /// `return …` form (an expression, whose values are printed).
        case ready(code: [UInt8], isExpression: Bool)
        /// The chunk is unfinished: read another line (the continuation prompt).
        case incomplete
        /// A syntax error (the message as Lua gives it).
        case syntaxError(String)
    }

    /// The code to compile for `lines`, trying the expression form first.
    /// `compiles(code)` returns nil if the code compiles, else Lua's message.
    static func read(_ lines: [[UInt8]], keepName: String = "keep", compiles: ([UInt8]) -> String?) -> Outcome {
        let text = Array(lines.joined(separator: [10]))
        if lines.count == 1 {
            let expression = Array("return ".utf8) + text
            if compiles(expression) == nil { return .ready(code: expression, isExpression: true) }
        }
        guard let message = compiles(text) else {
            let kept = keepingLocals(text, keepName: keepName)
            if kept != text, compiles(kept) == nil { return .ready(code: kept, isExpression: false) }
            return .ready(code: text, isExpression: false)
        }
        if message.hasSuffix("<eof>") { return .incomplete }
        return .syntaxError(message)
    }

    /// `text` with a last statement that hands each top-level `local` name
    /// and its value to the REPL's `keep` (reached through the prompt's
    /// environment under `keepName`): `local a, b = 1` becomes
    /// `local a, b = 1 ;keep("a", a, "b", b)`. (A line ending in `return`,
    /// or declaring more locals than a function can hold, keeps none.)
    static func keepingLocals(_ text: [UInt8], keepName: String) -> [UInt8] {
        let names = topLevelLocals(text)
        guard !names.isEmpty else { return text }
        return text + Array(("\n;" + keepName + "(" + names.map { "\"\($0)\", \($0)" }.joined(separator: ", ") + ")").utf8)
    }

    /// The names top-level `local` statements in `text` declare, in order,
    /// each once (`local function f`, `local a <const>, b = …`).
    static func topLevelLocals(_ text: [UInt8]) -> [String] {
        enum State { case outside, name, afterName, attribute }
        var lexer = LuaLexer(text)
        var depth = 0
        var state = State.outside
        var names: [String] = []
        func add(_ name: String) { if !names.contains(name) { names.append(name) } }
        while let token = lexer.next() {
            switch state {
            case .name:                                   // right after `local` or a comma
                if token == .keyword("function") {
                    if case .name(let name, _)? = lexer.next() { add(name) }
                    depth += 1                            // the function's body
                    state = .outside
                    continue
                }
                if case .name(let name, _) = token { add(name); state = .afterName; continue }
                state = .outside
            case .afterName:
                if token == .symbol(",") { state = .name; continue }
                if token == .symbol("<") { state = .attribute; continue }
                state = .outside
            case .attribute:                              // `<const>` / `<close>`
                if token == .symbol(">") { state = .afterName }
                continue
            case .outside:
                break
            }
            switch token {
            case .keyword("local") where depth == 0: state = .name
            case .keyword("function"), .keyword("do"), .keyword("if"), .keyword("repeat"): depth += 1
            case .keyword("end"), .keyword("until"): depth = max(0, depth - 1)
            default: break
            }
        }
        return names
    }
}
