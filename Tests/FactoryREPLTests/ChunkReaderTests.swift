import Foundation
import Testing
@testable import FactoryREPL

/// How the prompt reads what is typed, as lua.c does — an expression first,
/// `<eof>` meaning "go on" — and which `local`s a line keeps for the next.
@Suite("The REPL's chunk reader")
struct ChunkReaderTests {
    /// A stand-in for Lua's compiler: unbalanced `do`/`end` is unfinished
    /// (`<eof>`), `return` before a statement and `= =` are errors.
    static func compiles(_ code: [UInt8]) -> String? {
        let text = String(decoding: code, as: UTF8.self)
        if text.contains("= =") { return "stdin:1: unexpected symbol near '='" }
        if text.hasPrefix("return local") || text.hasPrefix("return for") || text.hasPrefix("return x = ") {
            return "stdin:1: unexpected symbol near 'local'"
        }
        let opened = text.components(separatedBy: "do").count - 1, closed = text.components(separatedBy: "end").count - 1
        return opened > closed ? "stdin:2: 'end' expected near <eof>" : nil
    }

    static func lines(_ texts: String...) -> [[UInt8]] { texts.map { Array($0.utf8) } }

    @Test func anExpressionIsReturnedAndAStatementRuns() {
        guard case .ready(let code, true) = ChunkReader.read(Self.lines("1 + 2"), compiles: Self.compiles) else {
            Issue.record("not an expression"); return
        }
        #expect(String(decoding: code, as: UTF8.self) == "return 1 + 2")
        guard case .ready(let statement, false) = ChunkReader.read(Self.lines("x = 1"), compiles: Self.compiles) else {
            Issue.record("not a statement"); return
        }
        #expect(String(decoding: statement, as: UTF8.self) == "x = 1")
    }

    @Test func eofMeansGoOnAndOtherErrorsAreErrors() {
        guard case .incomplete = ChunkReader.read(Self.lines("for i = 1, 3 do"), compiles: Self.compiles) else {
            Issue.record("an unfinished loop is not incomplete"); return
        }
        guard case .ready = ChunkReader.read(Self.lines("for i = 1, 3 do", "end"), compiles: Self.compiles) else {
            Issue.record("the finished loop is not ready"); return
        }
        guard case .syntaxError(let message) = ChunkReader.read(Self.lines("x = = 1"), compiles: Self.compiles) else {
            Issue.record("a syntax error is not one"); return
        }
        #expect(message == "stdin:1: unexpected symbol near '='")
    }

    @Test func topLevelLocalsAreKeptAndNestedOnesAreNot() {
        #expect(ChunkReader.topLevelLocals(Array("local a, b <const> = 1, 2; local function f() local inner = 1 end".utf8)) == ["a", "b", "f"])
        #expect(ChunkReader.topLevelLocals(Array("do local hidden = 1 end local shown = 2".utf8)) == ["shown"])
        #expect(ChunkReader.topLevelLocals(Array("x = 'local y = 1' -- local z\n".utf8)).isEmpty)
        let kept = String(decoding: ChunkReader.keepingLocals(Array("local a = 1".utf8), keepName: "keep"), as: UTF8.self)
        #expect(kept == "local a = 1\n;keep(\"a\", a)")
    }
}
