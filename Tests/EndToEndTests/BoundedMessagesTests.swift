import Foundation
import Testing

/// Every message a script, a test or a file can put on a terminal is at
/// most about 4 KB and escaped (#38): a 10 MB error was printed whole (and
/// a test worker's report of it took seconds, read quadratically), and
/// escape sequences in an error reached the terminal raw.
@Suite("Messages are bounded and escaped")
struct BoundedMessagesTests {
    func directory(_ files: [String: String]) throws -> URL { try CommandRunner.scratchDirectory(files, prefix: "fh-bounded") }

    @Test func aHugeErrorIsItsStartAndItsEnd() throws {
        let dir = try directory(["big.lua": "error(string.rep('e', 10000000) .. 'THE END')\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["run", "big.lua"], in: dir)
        #expect(result.status == 1)
        #expect(result.stderr.utf8.count < 4600, "\(result.stderr.utf8.count) bytes")
        #expect(result.stderr.hasPrefix("factoryhost: big.lua:1: eeee"), "\(result.stderr.prefix(80))")
        #expect(result.stderr.contains("bytes left out) …"), "\(result.stderr.prefix(200))")
        #expect(result.stderr.contains("in main chunk"), "the traceback's end is kept")
    }

    @Test func aTestsHugeErrorIsReportedBoundedAndAtOnce() throws {
        let dir = try directory(["big_spec.lua": """
            describe("huge", function()
              it("fails with 10 MB", function() error(string.rep("e", 10000000)) end)
              it("passes", function() end)
            end)
            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["test", "big_spec.lua"], in: dir, killAfter: 60)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("1 passed, 1 failed"), "\(result.stdout.suffix(300))")
        #expect(!result.stdout.contains("stopped responding"), "\(result.stdout.suffix(300))")
        #expect(result.stdout.utf8.count < 12_000, "\(result.stdout.utf8.count) bytes")
        #expect(result.seconds < 10, "\(result.seconds) s")
    }

    @Test func escapeSequencesFromAScriptAreWrittenNotActedOn() throws {
        let dir = try directory(["title.lua": "error('a\\27]0;TITLE\\7b\\27[2Jc')\n",
                                 "title_spec.lua": "describe('d', function() it('x', function() error('a\\27[2Jb') end) end)\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CommandRunner.factoryhost(["run", "title.lua"], in: dir)
        #expect(run.stderr.hasPrefix("factoryhost: title.lua:1: a\\27]0;TITLE\\7b\\27[2Jc\n"), "\(run.stderr)")
        #expect(!run.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        let test = try CommandRunner.factoryhost(["test", "title_spec.lua"], in: dir)
        #expect(test.stdout.contains("title_spec.lua:1: a\\27[2Jb"), "\(test.stdout)")
        #expect(!test.stdout.unicodeScalars.contains { $0.value == 0x1B })
    }

    @Test func theREPLTellsBytesThatAreNotUTF8FromAReplacementCharacter() throws {
        let dir = try directory([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["repl"], in: dir, input: "return '\\xff', '\u{FFFD}', 'ok\\xc3\\xa9\\xc3'\n", killAfter: 30)
        #expect(result.stdout == "\"\\xFF\"\t\"\u{FFFD}\"\t\"oké\\xC3\"\n", "\(result)")
    }

    @Test func whatATestPrintsAndWhatAValueSaysAreEscapedToo() throws {
        let dir = try directory(["out_spec.lua": "describe('d', function() it('prints', function() io.write('out\\27]0;T\\7') error('x') end) end)\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        for format in ["text", "tap"] {
            let result = try CommandRunner.factoryhost(["test", "--reporter", format, "out_spec.lua"], in: dir)
            #expect(result.stdout.contains("out\\27]0;T\\7"), "\(format): \(result.stdout)")
            #expect(!result.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(format)")
        }
        let repl = try CommandRunner.factoryhost(["repl"], in: dir, input: "setmetatable({}, { __tostring = function() return 'T\\27[2J' .. string.rep('x', 200000) end })\n", killAfter: 30)
        #expect(repl.stdout.hasPrefix("T\\27[2Jxxx"), "\(repl.stdout.prefix(40))")
        #expect(repl.stdout.utf8.count < 70_000, "\(repl.stdout.utf8.count) bytes")
    }

    /// A byte that is not UTF-8 in what a test printed is shown as \xNN, as in
    /// names and messages: decoded, it printed as a real U+FFFD does.
    @Test func whatATestPrintsKeepsInvalidBytesApartFromU_FFFD() throws {
        let dir = try directory(["u_spec.lua": """
            it("a", function() print("A\\xffB") error("fail") end)
            it("b", function() print("C\\u{FFFD}D") error("fail") end)
            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        for format in ["text", "tap", "json"] {
            let result = try CommandRunner.factoryhost(["test", "--reporter", format, "--junit", "j.xml", "u_spec.lua"], in: dir)
            // (In JSON the backslash is written escaped.)
            #expect(result.stdout.contains(format == "json" ? "A\\\\xFFB" : "A\\xFFB") && result.stdout.contains("C\u{FFFD}D"),
                    "\(format): \(result.stdout)")
            let junit = (try? String(contentsOf: dir.appendingPathComponent("j.xml"), encoding: .utf8)) ?? ""
            #expect(junit.contains("A\\xFFB") && junit.contains("C\u{FFFD}D"), "\(junit)")
        }
    }

    /// C1 controls (an 8-bit CSI) in a test's name are escaped in the text
    /// and TAP reports as elsewhere (they were raw), and JUnit writes control
    /// characters as `\27`, not as U+FFFD (which a real U+FFFD also is).
    @Test func c1ControlsAndJUnitControlsAreShownApart() throws {
        let dir = try directory(["c1_spec.lua": """
            it("c1 \\u{9B}31mRED \\u{85} end", function() error("x") end)
            it("ctl \\1\\27[2J \\u{FFFD}", function() error("y") end)
            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        for format in ["text", "tap"] {
            let result = try CommandRunner.factoryhost(["test", "--reporter", format, "--junit", "j.xml", "c1_spec.lua"], in: dir)
            #expect(!result.stdout.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0.value == 0x1B }, "\(format): \(result.stdout)")
            #expect(result.stdout.contains("c1 \\u{9B}31mRED \\u{85} end"), "\(format): \(result.stdout)")
        }
        let junit = (try? String(contentsOf: dir.appendingPathComponent("j.xml"), encoding: .utf8)) ?? ""
        #expect(junit.contains("ctl \\1\\27[2J \u{FFFD}") && !junit.contains("\u{FFFD}\u{FFFD}"), "\(junit)")
    }

    @Test func checkAndGraphWriteNamesWithoutRawEscapes() throws {
        let dir = try directory(["g.lua": """
            configuration ("app\\27]0;PWN\\7") {
              register "table#a\\27[2J" { deps = { ["l\\27[2J"] = "table#missing\\27[2J" }, make = function() return {} end },
            }
            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        for arguments in [["check", "g.lua"], ["graph", "g.lua"], ["graph", "--format", "dot", "g.lua"], ["graph", "--format", "mermaid", "g.lua"]] {
            let result = try CommandRunner.factoryhost(arguments, in: dir)
            #expect(!(result.stdout + result.stderr).unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 },
                    "\(arguments): \(result)")
            #expect((result.stdout + result.stderr).contains("\\27"), "\(arguments): \(result)")
        }
    }
}
