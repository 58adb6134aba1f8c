@testable import FactoryScripting
import LuaBridge
import Testing

/// The scan `check` uses to find declarations the run never reached: its
/// lexer must tell keywords from names that start like them, and read
/// strings with and without escapes, as Lua does.
@Suite("Declaration scan: the lexer and the sites it finds")
struct DeclarationScanTests {
    private func tokens(_ source: String) -> [LuaLexer.Token] {
        var lexer = LuaLexer(Array(source.utf8))
        var result: [LuaLexer.Token] = []
        while let token = lexer.next() { result.append(token) }
        return result
    }

    @Test func keywordsAreWholeWordsOnly() {
        #expect(tokens("end ends en d do done function functions in inx or order") == [
            .keyword("end"), .name("ends", line: 1), .name("en", line: 1), .name("d", line: 1), .keyword("do"),
            .name("done", line: 1), .keyword("function"), .name("functions", line: 1), .keyword("in"),
            .name("inx", line: 1), .keyword("or"), .name("order", line: 1),
        ])
        #expect(tokens("elseif else while whilst repeat_ until\nlocal") == [
            .keyword("elseif"), .keyword("else"), .keyword("while"), .name("whilst", line: 1), .name("repeat_", line: 1),
            .keyword("until"), .keyword("local"),
        ])
    }

    @Test func stringsWithAndWithoutEscapesAndLines() {
        #expect(tokens(#"'plain' "with \"quote\" and \\ backslash" "tab\tnew\nline" 'x'"#) == [
            .string("plain"), .string(#"with "quote" and \ backslash"#), .string("tab\tnew\nline"), .string("x"),
        ])
        // An unfinished string ends at its line; the next line's names keep their line numbers.
        #expect(tokens("a = 'open\nscope \"s\"") == [
            .name("a", line: 1), .symbol("="), .string("open"), .name("scope", line: 2), .string("s"),
        ])
        #expect(tokens("x = [==[long ]] string]==] -- comment scope\n--[[ block\nconfiguration ]] y") == [
            .name("x", line: 1), .symbol("="), .string("long ]] string"), .name("y", line: 3),
        ])
        #expect(tokens("s = \"a\\z\n   b\" t") == [.name("s", line: 1), .symbol("="), .string("ab"), .name("t", line: 2)])
    }

    @Test func sitesAreFoundWithTheirLines() {
        let sites = DeclarationSites(source: Array("""
            scope "screen"
            local function late()
              configuration "later" { }
            end
            configuration('app') { register "X" { } }
            local s = 'configuration'
            """.utf8))
        // (A parenthesized name is not read: that site is matched by its line.)
        #expect(sites.all.map(\.label) == ["scope \"screen\"", "configuration \"later\"", "a configuration"])
        #expect(sites.all.map(\.line) == [1, 3, 5])
        #expect(sites.all.map(\.inFunction) == [false, true, false])
        #expect(sites.all[1].function == "late")
    }

    /// Only what the unreached-declaration report reads is kept: functions
    /// that declare, and calls of them and of aliases — not a call per
    /// registration and a `make` function per registration.
    @Test func keepsOnlyDeclaringFunctionsAndTheirCalls() {
        let sites = DeclarationSites(source: Array("""
            local c = configuration
            local function setup() configuration "late" { } end
            local function other() return 1 end
            configuration "app" {
              register "A" { make = function() return {} end },
              register "B" { make = function() return {} end },
            }
            other()
            setup()
            c "x" { }
            """.utf8))
        #expect(sites.functions.map(\.name) == ["setup"])
        #expect(sites.calls.map(\.name) == ["setup", "c"])
        #expect(sites.calls.map(\.line) == [9, 10])
        #expect(sites.aliases.map(\.name) == ["c"])
    }

    /// A string with escapes is read as Lua reads it before it is compared
    /// (`"sco\z   pe"` is "scope").
    @Test func escapedStringsAreComparedDecoded() {
        let sites = DeclarationSites(source: Array(#"_G["sco\z   pe"] "s" ; require "mo\z  d""#.utf8))
        #expect(sites.opaque.map(\.what) == ["scope reached by index"])
        #expect(sites.requires.map(\.name) == ["mod"])
    }

    /// Every escape Lua knows is decoded as Lua decodes it, so a literal
    /// name written with escapes is the name the run declares.
    @Test func escapesDecodeAsLuaDecodesThem() throws {
        let cases: [(String, String)] = [
            (#""\65pp""#, "App"), (#""\x41pp""#, "App"), (#""\u{41}pp""#, "App"), (#""\u{E9}t\u{E9}""#, "été"),
            (#""\u{1F600}""#, "😀"), (#""a\0b""#, "a\u{0}b"), (#""\97\98\99""#, "abc"), (#""\0659""#, "A9"),
            (#""\a\b\f\n\r\t\v""#, "\u{7}\u{8}\u{C}\n\r\t\u{B}"), (#""x\z   \n y""#, "x\n y"),
        ]
        let lua = try LuaState()
        for (literal, expected) in cases {
            #expect(tokens(literal) == [.string(expected)], "\(literal)")
            // …and Lua agrees.
            guard case .string(let text)? = try lua.run("return " + literal, name: "s").first else { continue }
            #expect(text.description == expected, "\(literal)")
        }
        // An escaped line break (\r\n as one) counts its line.
        #expect(tokens("s = 'a\\\r\nb' t") == [.name("s", line: 1), .symbol("="), .string("a\nb"), .name("t", line: 2)])
    }

    /// A function reached as a field (`M.setup(…)`) or bound through an
    /// alias with an attribute (`local c <const> = configuration`) is still
    /// a call the report can follow.
    @Test func fieldCallsAndAttributedAliasesAreKept() {
        let sites = DeclarationSites(source: Array("""
            local M = {}
            function M.setup(n) configuration(n) { } end
            local c <const> = configuration
            local t = { cfg = configuration }
            M.setup("late")
            c "x" { }
            t.cfg "y" { }
            """.utf8))
        #expect(sites.functions.map(\.name) == ["setup"])
        #expect(sites.functions.map(\.qualifier) == ["M"])
        #expect(sites.aliases.map(\.name) == ["c", "cfg"])
        #expect(sites.aliases.map(\.inTable) == [false, true])
        #expect(sites.calls.map(\.name) == ["setup", "c", "cfg"])
        #expect(sites.calls.map(\.line) == [5, 6, 7])
        #expect(sites.calls.map(\.qualifier) == ["M", nil, "t"])
    }

    /// Line breaks count as Lua counts them: `\n`, `\r`, and `\r\n` or
    /// `\n\r` as one — in code, comments, long strings and after `\z` — so
    /// a file saved with CR endings reports the right lines.
    @Test func everyKindOfLineBreakCountsOnce() {
        #expect(tokens("a\rb\r\nc\n\rd\n\ne") == [
            .name("a", line: 1), .name("b", line: 2), .name("c", line: 3), .name("d", line: 4), .name("e", line: 6),
        ])
        #expect(tokens("-- comment\rx [[\rlong\rstring]] y 'a\\z\r  b' z") == [
            .name("x", line: 2), .string("long\nstring"), .name("y", line: 4), .string("ab"), .name("z", line: 5),
        ])
        // An unescaped line break ends a short string.
        #expect(tokens("s = 'open\rscope") == [.name("s", line: 1), .symbol("="), .string("open"), .name("scope", line: 2)])
        let sites = DeclarationSites(source: Array("configuration \"a\" {}\rconfiguration \"b\" {}\r\nlocal c = container \"a\"\r".utf8))
        #expect(sites.all.map(\.line) == [1, 2])
    }
}
