import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `factoryhost test` on its own fixtures — passing, failing, erroring,
/// pending, runaway, broken, filtered and tagged suites — with the exact
/// reports and exit statuses a user gets.
@Suite("factoryhost test")
struct TestCommandTests {
    let specs = CommandRunner.fixtures.appendingPathComponent("specs")

    @Test func passingSuitesPassAndEveryTestGetsAFreshContainer() throws {
        let result = try CommandRunner.factoryhost(["test", "pass"], in: specs)
        #expect(result == ProcessResult(status: 0, stdout: #"""
            pass/hooks_spec.lua
              outer
                inner
                  ✓ runs the hooks outside-in, then inside-out
                ✓ runs only the outer hooks around an outer test
            pass/isolation_spec.lua
              a singleton Cache
                ✓ is empty in the first test
                ✓ is empty again in the second test
                ✓ is what plain resolve returns too
              containers made by hand
                ✓ share a singleton within one container, never across two
            pass/matchers_spec.lua
              matchers
                ✓ compare values
                ✓ look inside strings and lists
                ✓ know types, Lua's and exported ones
                ✓ expect failures

            10 passed, 0 failed

            """#, stderr: ""))
    }

    @Test func failuresErrorsAndTimeoutsAreReportedWithTheirLinesAndTheRunGoesOn() throws {
        let result = try CommandRunner.factoryhost(["test", "fail"], in: specs)
        #expect(result == ProcessResult(status: 1, stdout: #"""
            fail/broken_spec.lua
              ✗ the file failed to load (1)
            fail/erroring_spec.lua
              errors
                ✗ raises with error() (2)
                ✗ fails an assert() (3)
                ✗ calls a method on nil (4)
                ✓ goes on after errors
                in a hook
                  ✗ is not run (5)
            fail/failing_spec.lua
              failing expectations
                ✗ compares numbers (6)
                ✗ compares tables deeply (7)
                ✗ negates (8)
                ✓ passes
            fail/pending_spec.lua
              pending work
                - the pizza oven (pending)
                - has no body yet (pending)
                ✓ passes
            fail/runaway_spec.lua
              a runaway test
                ✗ loops forever (9)
                ✓ still lets the next test run

            Failures:

              1) fail/broken_spec.lua (loading the file)
                 fail/broken_spec.lua:5: ')' expected (to close '(' at line 2) near 'end'

              2) errors > raises with error()
                 fail/erroring_spec.lua:3: the store is closed
                   stack traceback:
                     fail/erroring_spec.lua:3: in function <fail/erroring_spec.lua:2>

              3) errors > fails an assert()
                 fail/erroring_spec.lua:8: no user signed in
                   stack traceback:
                     [C]: in function 'assert'
                     fail/erroring_spec.lua:8: in function <fail/erroring_spec.lua:6>

              4) errors > calls a method on nil
                 fail/erroring_spec.lua:13: attempt to index a nil value (local 'loader')
                   stack traceback:
                     fail/erroring_spec.lua:13: in function <fail/erroring_spec.lua:11>

              5) errors > in a hook > is not run
                 fail/erroring_spec.lua:21: in before_each: before_each broke
                   stack traceback:
                     fail/erroring_spec.lua:21: in function <fail/erroring_spec.lua:21>

              6) failing expectations > compares numbers
                 fail/failing_spec.lua:3: expected 2 to be 3
                   expected: 3
                   actual:   2

              7) failing expectations > compares tables deeply
                 fail/failing_spec.lua:7: expected { cast = { "Weaver" }, name = "Alien", year = 1979 } to equal { cast = { "Weaver", "Hurt" }, name = "Alien", year = 1979 } (they differ at .cast[2]: nil where "Hurt" was expected)
                   expected: { cast = { "Weaver", "Hurt" }, name = "Alien", year = 1979 }
                   actual:   { cast = { "Weaver" }, name = "Alien", year = 1979 }

              8) failing expectations > negates
                 fail/failing_spec.lua:12: expected "x" not to be "x"
                   expected: not "x"
                   actual:   "x"

              9) a runaway test > loops forever
                 fail/runaway_spec.lua:3: timed out after 0.3 s; give it longer with it(name, { timeout = seconds }, fn) or --timeout

            4 passed, 9 failed, 2 skipped

            """#, stderr: ""))
    }

    /// Plugin module and class tables raise for a member they lack; the
    /// matchers compare them like any table (they once failed inside the runner).
    @Test func matchersCompareStrictPluginTables() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-strict-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("""
            local net = require "factoryhost.networking"
            it("compares", function()
              expect({ typeName = "Cache", extra = 1 }).never:to_equal(net.Cache)
              expect(net.Cache).never:to_equal({ typeName = "Cache", extra = 1 })
              expect(net).never:to_equal(require "factoryhost.session")
            end)
            """.utf8).write(to: dir.appendingPathComponent("strict_spec.lua"))
        let result = try CommandRunner.factoryhost(["test", "strict_spec.lua"], in: dir)
        #expect(result.status == 0 && result.stdout.hasSuffix("1 passed, 0 failed\n"), "\(result)")
    }

    /// A test failing on a resolve whose factory raised a table reports the
    /// resolve's message (the error object's metatable is hidden, so the
    /// runner once reported only "(error object is a table value)").
    @Test func aFailedResolveWithAnErrorObjectReportsItsMessage() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-cause-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("""
            configuration "app" { register "table#payments" { make = function() error({ code = 503 }) end } }
            it("resolves", function() container("app"):resolve "table#payments" end)
            it("sees the cause", function()
              local ok, err = pcall(function() return container("app"):resolve "table#payments" end)
              expect(err.cause.code):to_be(503)
            end)
            """.utf8).write(to: dir.appendingPathComponent("cause_spec.lua"))
        let result = try CommandRunner.factoryhost(["test", "cause_spec.lua"], in: dir)
        #expect(result.status == 1 && result.stdout.hasSuffix("1 passed, 1 failed\n"), "\(result)")
        #expect(result.stdout.contains(
            "cause_spec.lua:2: the factory for table#payments failed: (error object is a table value) in configuration 'app'"),
                "\(result)")
    }

    /// Every test's container is closed after it: a Lua singleton's close
    /// runs, and a close that fails fails the test that built it.
    @Test func eachTestsContainerIsClosedAfterIt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-close-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("""
            local closed = {}
            configuration "app" {
              register "table#log" { scope = "singleton", make = function() return { close = function() closed[#closed + 1] = "log" end } end },
              register "table#bad" { scope = "singleton", make = function() return { close = function() error("disk full", 0) end } end },
            }
            describe("closing", function()
              it("builds a log", function(c) c:resolve "table#log" end)
              it("saw it closed", function() expect(#closed):to_be(1) end)
              it("fails when a close fails", function(c) c:resolve "table#bad" end)
            end)
            """.utf8).write(to: dir.appendingPathComponent("close_spec.lua"))
        let result = try CommandRunner.factoryhost(["test", "--config", "app", "close_spec.lua"], in: dir)
        #expect(result.status == 1 && result.stdout.hasSuffix("2 passed, 1 failed\n"), "\(result)")
        #expect(result.stdout.contains("""
                 close_spec.lua:9: after the test, closing its container: closing container 'app': an instance failed to close (every other one was closed) in configuration 'app'
                   table#bad (close_spec.lua:4): disk full
            """), "\(result)")
    }

    /// An interface a test declares is that test's own, as its scopes and
    /// configurations are: the next test may declare it another way.
    @Test func interfacesDeclaredInATestAreItsOwn() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-iface-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("""
            describe("interfaces", function()
              it("declares Logger one way", function()
                interface "Logger" { "info" }
                configuration "t1" { register "Logger" { make = function() return { info = print } end } }
              end)
              it("declares Logger another way", function()
                interface "Logger" { "info", "warn" }
                configuration "t2" { register "Logger" { make = function() return { info = print, warn = print } end } }
                expect(container("t2"):resolve("Logger").warn):to_be(print)
              end)
            end)
            """.utf8).write(to: dir.appendingPathComponent("iface_spec.lua"))
        let result = try CommandRunner.factoryhost(["test", "iface_spec.lua"], in: dir)
        #expect(result.status == 0 && result.stdout.hasSuffix("2 passed, 0 failed\n"), "\(result)")
    }

    @Test func tapReport() throws {
        let result = try CommandRunner.factoryhost(["test", "fail", "--reporter", "tap"], in: specs)
        #expect(result == ProcessResult(status: 1, stdout: #"""
            TAP version 13
            # fail/broken_spec.lua
            not ok 1 - fail/broken_spec.lua (loading the file)
              ---
              message: "')' expected (to close '(' at line 2) near 'end'"
              severity: error
              at: "fail/broken_spec.lua:5"
              ...
            # fail/erroring_spec.lua
            not ok 2 - errors > raises with error()
              ---
              message: "the store is closed"
              severity: error
              at: "fail/erroring_spec.lua:3"
              traceback: "stack traceback:\n\tfail/erroring_spec.lua:3: in function <fail/erroring_spec.lua:2>"
              ...
            not ok 3 - errors > fails an assert()
              ---
              message: "no user signed in"
              severity: error
              at: "fail/erroring_spec.lua:8"
              traceback: "stack traceback:\n\t[C]: in function 'assert'\n\tfail/erroring_spec.lua:8: in function <fail/erroring_spec.lua:6>"
              ...
            not ok 4 - errors > calls a method on nil
              ---
              message: "attempt to index a nil value (local 'loader')"
              severity: error
              at: "fail/erroring_spec.lua:13"
              traceback: "stack traceback:\n\tfail/erroring_spec.lua:13: in function <fail/erroring_spec.lua:11>"
              ...
            ok 5 - errors > goes on after errors
            not ok 6 - errors > in a hook > is not run
              ---
              message: "in before_each: before_each broke"
              severity: error
              at: "fail/erroring_spec.lua:21"
              traceback: "stack traceback:\n\tfail/erroring_spec.lua:21: in function <fail/erroring_spec.lua:21>"
              ...
            # fail/failing_spec.lua
            not ok 7 - failing expectations > compares numbers
              ---
              message: "expected 2 to be 3"
              severity: fail
              at: "fail/failing_spec.lua:3"
              expected: "3"
              actual: "2"
              ...
            not ok 8 - failing expectations > compares tables deeply
              ---
              message: "expected { cast = { \"Weaver\" }, name = \"Alien\", year = 1979 } to equal { cast = { \"Weaver\", \"Hurt\" }, name = \"Alien\", year = 1979 } (they differ at .cast[2]: nil where \"Hurt\" was expected)"
              severity: fail
              at: "fail/failing_spec.lua:7"
              expected: "{ cast = { \"Weaver\", \"Hurt\" }, name = \"Alien\", year = 1979 }"
              actual: "{ cast = { \"Weaver\" }, name = \"Alien\", year = 1979 }"
              ...
            not ok 9 - failing expectations > negates
              ---
              message: "expected \"x\" not to be \"x\""
              severity: fail
              at: "fail/failing_spec.lua:12"
              expected: "not \"x\""
              actual: "\"x\""
              ...
            ok 10 - failing expectations > passes
            # fail/pending_spec.lua
            ok 11 - pending work > the pizza oven # SKIP pending
            ok 12 - pending work > has no body yet # SKIP pending
            ok 13 - pending work > passes
            # fail/runaway_spec.lua
            not ok 14 - a runaway test > loops forever
              ---
              message: "timed out after 0.3 s; give it longer with it(name, { timeout = seconds }, fn) or --timeout"
              severity: timeout
              at: "fail/runaway_spec.lua:3"
              ...
            ok 15 - a runaway test > still lets the next test run
            1..15
            # 4 passed, 9 failed, 2 skipped

            """#, stderr: ""))
    }

    @Test func junitReportIsValidXMLWithEveryOutcome() throws {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("fh-junit-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: report) }
        let result = try CommandRunner.factoryhost(["test", "fail", "pass", "--junit", report.path], in: specs)
        #expect(result.status == 1)
        #expect(result.stdout.hasSuffix("\n14 passed, 9 failed, 2 skipped\n"))
        let collector = JUnitCollector()
        let parser = XMLParser(data: try Data(contentsOf: report))
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { String(describing: $0) } ?? "")")
        #expect(collector.root == ["name": "factoryhost", "tests": "25", "failures": "3", "errors": "6", "skipped": "2",
                                   "time": collector.root["time"] ?? "?"])
        #expect(collector.suites.map { $0["name"] ?? "" } == [
            "fail/broken_spec.lua", "fail/erroring_spec.lua", "fail/failing_spec.lua", "fail/pending_spec.lua",
            "fail/runaway_spec.lua", "pass/hooks_spec.lua", "pass/isolation_spec.lua", "pass/matchers_spec.lua",
        ])
        let negates = try #require(collector.cases.first { $0.attributes["name"] == "negates" })
        #expect(negates.attributes["classname"] == "failing_spec.failing expectations")
        #expect(negates.attributes["file"] == "fail/failing_spec.lua" && negates.attributes["line"] == "11")
        #expect(negates.outcome == "failure")
        #expect(negates.message == "fail/failing_spec.lua:12: expected \"x\" not to be \"x\"")
        #expect(negates.text == "fail/failing_spec.lua:12: expected \"x\" not to be \"x\"\n  expected: not \"x\"\n  actual:   \"x\"")
        let runaway = try #require(collector.cases.first { $0.attributes["name"] == "loops forever" })
        #expect(runaway.outcome == "error" && runaway.type == "timeout")
        #expect(Double(runaway.attributes["time"] ?? "") ?? 0 >= 0.3)
        let broken = try #require(collector.cases.first { $0.attributes["classname"] == "broken_spec" })
        #expect(broken.attributes["name"] == "(loading the file)" && broken.outcome == "error")
        #expect(collector.cases.filter { $0.outcome == "skipped" }.count == 2)
        #expect(collector.cases.filter { $0.outcome == nil }.count == 14)
    }

    @Test func listShowsTheSelectedTestsWithoutRunningThem() throws {
        let all = try CommandRunner.factoryhost(["test", "--list", "tags"], in: specs)
        #expect(all == ProcessResult(status: 0, stdout: """
            tags/tagged_spec.lua:2: loaders > fetches [network, slow]
            tags/tagged_spec.lua:3: loaders > caches [network]
            tags/tagged_spec.lua:7: screens > signs in [fast, session]
            tags/tagged_spec.lua:8: screens > signs out
            tags/tagged_spec.lua:12: hyphens > signs-in twice
            5 tests in 1 file

            """, stderr: ""))
        let pending = try CommandRunner.factoryhost(["test", "--list", "fail/pending_spec.lua", "fail/runaway_spec.lua"], in: specs)
        #expect(pending.stdout == """
            fail/pending_spec.lua:2: pending work > the pizza oven (pending)
            fail/pending_spec.lua:3: pending work > has no body yet (pending)
            fail/pending_spec.lua:4: pending work > passes
            fail/runaway_spec.lua:2: a runaway test > loops forever
            fail/runaway_spec.lua:6: a runaway test > still lets the next test run
            5 tests in 2 files

            """)
    }

    @Test func filtersByNamePatternAndByTag() throws {
        let tagged = try CommandRunner.factoryhost(["test", "--list", "--tag", "slow", "--tag", "session", "tags"], in: specs)
        #expect(tagged.stdout == """
            tags/tagged_spec.lua:2: loaders > fetches [network, slow]
            tags/tagged_spec.lua:7: screens > signs in [fast, session]
            2 tests in 1 file

            """)
        let excluded = try CommandRunner.factoryhost(["test", "--exclude-tag", "network", "--filter-pattern", "^screens > sign", "tags"], in: specs)
        #expect(excluded == ProcessResult(status: 0, stdout: """
            tags/tagged_spec.lua
              screens
                ✓ signs in
                ✓ signs out

            2 passed, 0 failed

            """, stderr: ""))
        let inherited = try CommandRunner.factoryhost(["test", "--list", "--tag", "network", "--exclude-tag", "slow", "tags"], in: specs)
        #expect(inherited.stdout.hasPrefix("tags/tagged_spec.lua:3: loaders > caches [network]\n1 test in 1 file"))
        let none = try CommandRunner.factoryhost(["test", "--filter", "nothing like this", "tags"], in: specs)
        #expect(none == ProcessResult(status: 1, stdout: "\n0 passed, 0 failed\n",
                                      stderr: "factoryhost: no tests matched (1 spec file searched)\n"))
        for (pattern, problem) in [("movie%", "malformed pattern (ends with '%')"), ("[ab", "malformed pattern (missing ']')"),
                                   ("(sign", "unfinished capture (a '(' is never closed)"), ("%fx", "missing '[' after '%f' in pattern"),
                                   ("%b(", "malformed pattern (missing arguments to '%b')"),
                                   ("%1", "invalid capture index %1 (capture 1 is not closed before it)"),
                                   ("(a(b)%1)", "invalid capture index %1 (capture 1 is not closed before it)")] {
            let bad = try CommandRunner.factoryhost(["test", "--filter-pattern", pattern, "tags"], in: specs)
            #expect(bad.status == 64)
            #expect(bad.stderr.hasPrefix("Error: --filter-pattern '\(pattern)': \(problem)\n"), "\(bad)")
            // The same text as plain --filter is no pattern, so never malformed: it just matches nothing.
            let plain = try CommandRunner.factoryhost(["test", "--filter", pattern, "tags"], in: specs)
            #expect(plain.status == 1 && plain.stderr == "factoryhost: no tests matched (1 spec file searched)\n", "\(plain)")
        }
        let brackets = try CommandRunner.factoryhost(["test", "--list", "--filter-pattern", "[]s]igns %f[%w]in", "tags"], in: specs)
        #expect(brackets.stdout == "tags/tagged_spec.lua:7: screens > signs in [fast, session]\n1 test in 1 file\n")
        // Plain text by default: a hyphen (special in Lua patterns) is a hyphen.
        let hyphen = try CommandRunner.factoryhost(["test", "--list", "--filter", "signs-in", "--filter", "fetches", "tags"], in: specs)
        #expect(hyphen.stdout == "tags/tagged_spec.lua:2: loaders > fetches [network, slow]\ntags/tagged_spec.lua:12: hyphens > signs-in twice\n2 tests in 1 file\n", "\(hyphen)")
        let hyphenPattern = try CommandRunner.factoryhost(["test", "--list", "--filter-pattern", "signs-in", "tags"], in: specs)
        #expect(hyphenPattern.stdout == "0 tests in 1 file\n", "\(hyphenPattern)")
    }

    /// A filter reads a test's whole name, not the one reports show (a long
    /// name's start and end): the middle of a 6,000-byte name was not found,
    /// and the marker's "bytes left out" found it.
    @Test func aFilterReadsALongNameWhole() throws {
        let dir = try CommandRunner.scratchDirectory(["long_spec.lua": """
            describe("suite", function()
              it(string.rep("a", 3000) .. "MIDDLE" .. string.rep("a", 3000), function() end)
              it("short", function() end)
            end)
            describe(string.rep("z", 5000), function() it("inner", function() end) end)
            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        func count(_ filter: [String]) throws -> String {
            let result = try CommandRunner.factoryhost(["test", "--list", "long_spec.lua"] + filter, in: dir, killAfter: 30)
            return String(result.stdout.split(separator: "\n").last ?? "")
        }
        #expect(try count(["--filter", "MIDDLE"]) == "1 test in 1 file")
        #expect(try count(["--filter-pattern", "^suite > a+MIDDLEa+$"]) == "1 test in 1 file")
        #expect(try count(["--filter", "zzz > inner"]) == "1 test in 1 file")
        #expect(try count(["--filter", "bytes left out"]) == "0 tests in 1 file")
        #expect(try count(["--filter", "b"]) == "0 tests in 1 file")
    }

    /// `never:to_fail()` says what it expected in one negative: it read
    /// "expected the opposite of: expected the function not to fail …",
    /// expected "not no error".
    @Test func neverToFailSaysItOnce() throws {
        let dir = try CommandRunner.scratchDirectory(["n_spec.lua": """
            describe("never", function()
              it("fails", function() expect(function() error("boom", 0) end).never:to_fail() end)
              it("fails with", function() expect(function() error("boom", 0) end).never:to_fail("oo") end)
              it("passes", function() expect(function() error("boom", 0) end).never:to_fail("bang") end)
            end)
            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["test", "n_spec.lua"], in: dir, killAfter: 30)
        #expect(result.stdout.contains("""
                 n_spec.lua:2: expected the function not to fail (it failed with "boom")
                   expected: no error
                   actual:   "boom"
            """), "\(result)")
        #expect(result.stdout.contains("""
                 n_spec.lua:3: expected the function not to fail with "oo" (it failed with "boom")
                   expected: no error containing "oo"
                   actual:   "boom"
            """), "\(result)")
        #expect(result.stdout.hasSuffix("1 passed, 2 failed\n") && !result.stdout.contains("opposite"), "\(result)")
    }

    /// A test's tags are shown bounded in --list and JSON (attack 13:
    /// 100,000 tags made lines of 0.8 and 1 MB); --tag still reads them all.
    @Test func manyTagsAreShownBoundedAndStillSelect() throws {
        let dir = try CommandRunner.scratchDirectory(["t_spec.lua": """
            local tags = {} for i = 1, 20000 do tags[i] = "t" .. i end
            it("many", { tags = tags }, function() end)
            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = try CommandRunner.factoryhost(["test", "--list", "t_spec.lua"], in: dir, killAfter: 60)
        let listed = list.stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(listed.utf8.count < 4_096 && listed.hasPrefix("t_spec.lua:2: many [t1, t2,") && listed.contains(" more]"), "\(listed.prefix(300))")
        let json = try CommandRunner.factoryhost(["test", "--format", "json", "t_spec.lua"], in: dir, killAfter: 60)
        #expect(json.status == 0 && json.stdout.split(separator: "\n").allSatisfy { $0.utf8.count < 8_192 }, "\(json.stdout.prefix(300))")
        let selected = try CommandRunner.factoryhost(["test", "--tag", "t19999", "t_spec.lua"], in: dir, killAfter: 60)
        #expect(selected.status == 0 && selected.stdout.hasSuffix("1 passed, 0 failed\n"), "\(selected)")
    }

    /// An error value with no message (a table, no __tostring) matches no
    /// text: `to_fail("x")` passed for `error({})`, as "table: 0x55…" holds an x.
    @Test func toFailFindsNoTextInAnErrorWithNoMessage() throws {
        let dir = try CommandRunner.scratchDirectory(["t_spec.lua": """
            it("table", function() expect(function() error({}) end):to_fail("x") end)
            it("with __tostring", function()
              expect(function() error(setmetatable({}, { __tostring = function() return "boom x" end })) end):to_fail("x") end)
            it("never", function() expect(function() error({}) end).never:to_fail("x") end)
            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["test", "t_spec.lua"], in: dir, killAfter: 30)
        #expect(result.stdout.contains("t_spec.lua:1: expected the function to fail with \"x\" (it failed with a table error value with no message: {})"),
                "\(result)")
        #expect(result.status == 1 && result.stdout.hasSuffix("2 passed, 1 failed\n"), "\(result)")
    }

    /// Options after the body were ignored: `it("x", fn, { timeout = 1 })`
    /// ran with the default limit.
    @Test func optionsAfterTheBodyAreAnError() throws {
        let dir = try CommandRunner.scratchDirectory(["o_spec.lua": "describe('d', function() it('x', function() end, { timeout = 1 }) end)\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["test", "o_spec.lua"], in: dir, killAfter: 30)
        #expect(result.status == 1 && result.stdout.contains("o_spec.lua:1: it 'x': options go before the body: "
                                                              + "it(name, { … }, function() … end) (got a table after it)"), "\(result)")
    }

    @Test func failFastStopsAtTheFirstFailure() throws {
        let result = try CommandRunner.factoryhost(["test", "--fail-fast", "fail/failing_spec.lua", "pass"], in: specs)
        #expect(result.status == 1)
        #expect(result.stdout == """
            fail/failing_spec.lua
              failing expectations
                ✗ compares numbers (1)

            Failures:

              1) failing expectations > compares numbers
                 fail/failing_spec.lua:3: expected 2 to be 3
                   expected: 3
                   actual:   2

            Stopped at the first failure (--fail-fast).
            0 passed, 1 failed

            """)
    }

    /// With workers in parallel, the first failure ends the others' running
    /// tests at once — stopped, not reported as run (attack 12: a test with a
    /// day's limit kept the run waiting; one that ended was counted as passed).
    @Test func failFastEndsTheOtherWorkersAtOnce() throws {
        let dir = try CommandRunner.scratchDirectory([
            "a_spec.lua": "it('fails', function() os.execute('sleep 0.3') error('first failure') end)\n",
            "b_spec.lua": "it('long', { timeout = 86400 }, function() io.open('b.started', 'w'):close() while true do end end)\n",
            "c_spec.lua": "it('sleeps', function() os.execute('sleep 5') end)\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        for other in ["b_spec.lua", "c_spec.lua"] {
            let result = try CommandRunner.factoryhost(["test", "-j", "2", "--fail-fast", "a_spec.lua", other], in: dir, killAfter: 60)
            #expect(result.status == 1 && result.seconds < 4, "\(other): \(result)")
            #expect(result.stdout.hasSuffix("Stopped at the first failure (--fail-fast).\n0 passed, 1 failed\n"), "\(other): \(result)")
        }
    }

    @Test func shuffleRepeatsForAGivenSeed() throws {
        let first = try CommandRunner.factoryhost(["test", "--seed", "7", "pass", "tags"], in: specs)
        let again = try CommandRunner.factoryhost(["test", "--seed", "7", "pass", "tags"], in: specs)
        let plain = try CommandRunner.factoryhost(["test", "pass", "tags"], in: specs)
        #expect(first.status == 0 && first == again)
        #expect(first.stdout.hasPrefix("Shuffled with seed 7 (run again in this order with --seed 7)\n"))
        #expect(first.stdout != "Shuffled with seed 7 (run again in this order with --seed 7)\n" + plain.stdout)
        #expect(first.stdout.split(separator: "\n").filter { $0.contains("✓") }.sorted()
                == plain.stdout.split(separator: "\n").filter { $0.contains("✓") }.sorted())
        let random = try CommandRunner.factoryhost(["test", "--shuffle", "pass"], in: specs)
        #expect(random.stdout.hasPrefix("Shuffled with seed "))
        #expect(random.stdout.hasSuffix("\n10 passed, 0 failed\n"))
    }

    @Test func parallelWorkersReportTheSameAsOneWorker() throws {
        let one = try CommandRunner.factoryhost(["test", "fail", "pass", "tags"], in: specs)
        let three = try CommandRunner.factoryhost(["test", "-j", "3", "fail", "pass", "tags"], in: specs)
        #expect(one.status == 1)
        #expect(three == one)
        #expect(one.stdout.hasSuffix("\n19 passed, 9 failed, 2 skipped\n"))
    }

    @Test func configurationsComeFromTheSuiteOrFromConfig() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-specs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            local net = require "factoryhost.networking"
            configuration "app" { register "Cache" { make = function() return net.Cache.new() end } }
            it("resolves from --config", function(c) expect(c:resolve "Cache"):to_be_a("Cache") end)
            describe("a suite", { config = "missing" }, function()
              it("names a configuration nobody declared", function() end)
            end)
            """.write(to: dir.appendingPathComponent("config_spec.lua"), atomically: true, encoding: .utf8)
        let result = try CommandRunner.factoryhost(["test", "--config", "app", "."], in: dir)
        #expect(result.status == 1)
        #expect(result.stdout == """
            config_spec.lua
              ✓ resolves from --config
              a suite
                ✗ names a configuration nobody declared (1)

            Failures:

              1) a suite > names a configuration nobody declared
                 config_spec.lua:4: cannot make a container of 'missing': no configuration named 'missing'
                   defined: app

            1 passed, 1 failed

            """)
        // At the describe that names it (the typo is there, not at each test), from a worker too.
        #expect(try CommandRunner.factoryhost(["test", "-j", "2", "--config", "app", ".", "."], in: dir).stdout.contains("config_spec.lua:4: cannot make"))
        // A --config naming nothing says it came from --config (each test failed at its own line, with no word of it).
        let typo = try CommandRunner.factoryhost(["test", "--config", "apx", "--filter", "from --config", "."], in: dir)
        #expect(typo.stdout.contains("config_spec.lua:3: cannot make a container of 'apx' (given by --config): no configuration named 'apx'"),
                "\(typo)")
        let noConfig = try CommandRunner.factoryhost(["test", "--filter", "from --config", "."], in: dir)
        #expect(noConfig.status == 1)
        #expect(noConfig.stdout.contains("config_spec.lua:3: this test has no container, so it has no \"resolve\" (give its describe or it a config"), "\(noConfig)")
    }

    /// The first spec of docs/Testing.md (moved there from the README).
    @Test func theReadmeSpecRunsAsShown() throws {
        let page = try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent("docs/Testing.md"), encoding: .utf8)
        let section = try #require(page.range(of: "# Scenario tests"))
        let rest = page[section.upperBound...]
        let start = try #require(rest.range(of: "```lua\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```"))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-readme-spec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try String(rest[start.upperBound..<end.lowerBound]).write(to: dir.appendingPathComponent("cache_spec.lua"), atomically: true, encoding: .utf8)
        let result = try CommandRunner.factoryhost(["test", "cache_spec.lua"], in: dir)
        #expect(result == ProcessResult(status: 0, stdout: """
            cache_spec.lua
              a singleton Cache
                ✓ starts empty in every test
                ✓ has typed factories
                - expires old entries (pending)

            2 passed, 0 failed, 1 skipped

            """, stderr: ""))
    }

    /// The doubles spec of docs/Testing.md (moved there from the README).
    @Test func theReadmeDoublesSpecRunsAsShown() throws {
        let page = try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent("docs/Testing.md"), encoding: .utf8)
        let start = try #require(page.range(of: "```lua\n-- doubles_spec.lua\n"))
        let end = try #require(page[start.upperBound...].range(of: "```"))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-readme-doubles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try String(page[start.upperBound..<end.lowerBound]).write(to: dir.appendingPathComponent("doubles_spec.lua"), atomically: true, encoding: .utf8)
        let result = try CommandRunner.factoryhost(["test", "doubles_spec.lua"], in: dir)
        #expect(result == ProcessResult(status: 0, stdout: """
            doubles_spec.lua
              signing in
                ✓ asks the remote API, which a stub stands in for
                ✓ gives the stub to this test's container
                ✓ counts calls with a spy

            3 passed, 0 failed

            """, stderr: ""), "\(result)")
    }

    @Test func discoveryVisitsEachRealFileOnceAndNeverLoops() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-links-\(UUID().uuidString)")
        let real = dir.appendingPathComponent("a")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("it('x', function() end)\n".utf8).write(to: real.appendingPathComponent("one_spec.lua"))
        try FileManager.default.createSymbolicLink(atPath: real.appendingPathComponent("loop").path, withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("b").path, withDestinationPath: "a")
        let result = try CommandRunner.factoryhost(["test", "--list", "."], in: dir, killAfter: 30)
        #expect(result == ProcessResult(status: 0, stdout: "a/one_spec.lua:1: x\n1 test in 1 file\n", stderr: ""), "\(result)")
    }

    @Test func badPathsAndOptionsAreClearErrors() throws {
        let missing = try CommandRunner.factoryhost(["test", "no/such/dir"], in: specs)
        #expect(missing == ProcessResult(status: 1, stdout: "", stderr: "factoryhost: no/such/dir: no such file or directory\n"))
        let empty = try CommandRunner.factoryhost(["test", "."], in: CommandRunner.fixtures.appendingPathComponent("dsl"))
        #expect(empty == ProcessResult(status: 1, stdout: "", stderr: "factoryhost: no *_spec.lua files under .\n"))
        let timeout = try CommandRunner.factoryhost(["test", "--timeout", "3x", "pass"], in: specs)
        #expect(timeout.status == 64 && timeout.stderr.hasPrefix("Error: --timeout: '3x' is not a duration"))
        let reporter = try CommandRunner.factoryhost(["test", "--reporter", "xml", "pass"], in: specs)
        #expect(reporter.status == 64 && reporter.stderr.hasPrefix("Error: --format (--reporter): 'xml' is not a format (text, tap or json)"))
        // --format, as check and graph say it, is the same option; a typo of it gets a suggestion.
        for arguments in [["test", "--format", "tap", "pass"], ["test", "--format=tap", "pass"], ["test", "--color", "never", "--format", "tap", "pass"]] {
            let format = try CommandRunner.factoryhost(arguments, in: specs)
            #expect(format.status == 0 && format.stdout.hasPrefix("TAP version 13\n"), "\(format)")
        }
        let twice = try CommandRunner.factoryhost(["test", "--format", "tap", "--reporter", "json", "pass"], in: specs)
        #expect(twice.status == 0 && twice.stdout.hasPrefix("{"), "\(twice)")          // the last wins, as for any option
        let typo = try CommandRunner.factoryhost(["test", "--fromat", "tap", "pass"], in: specs)
        #expect(typo.status == 64 && typo.stderr.hasPrefix("Error: Unknown option '--fromat'. Did you mean '--format'?"), "\(typo)")
        let jobs = try CommandRunner.factoryhost(["test", "--jobs", "0", "pass"], in: specs)
        #expect(jobs.status == 64 && jobs.stderr.hasPrefix("Error: --jobs: give a number from 1 to 256 (got 0)"))
        let junit = try CommandRunner.factoryhost(["test", "--junit", "/no/such/dir/report.xml", "pass"], in: specs)
        #expect(junit.status == 1 && junit.stdout.isEmpty, "\(junit)")      // said before the run
        #expect(junit.stderr == "factoryhost: --junit: cannot write /no/such/dir/report.xml: its folder /no/such/dir does not exist\n")
    }
}

/// Collects what the JUnit report holds, through Foundation's XML parser.
private final class JUnitCollector: NSObject, XMLParserDelegate {
    struct Case {
        var attributes: [String: String]
        var outcome: String?
        var message: String?
        var type: String?
        var text = ""
    }
    var root: [String: String] = [:]
    var suites: [[String: String]] = []
    var cases: [Case] = []
    private var inOutcome = false

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        switch name {
        case "testsuites": root = attributes
        case "testsuite": suites.append(attributes)
        case "testcase": cases.append(Case(attributes: attributes))
        case "failure", "error", "skipped":
            cases[cases.count - 1].outcome = name
            cases[cases.count - 1].message = attributes["message"]
            cases[cases.count - 1].type = attributes["type"]
            inOutcome = true
        default: break
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if ["failure", "error", "skipped"].contains(name) { inOutcome = false }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inOutcome { cases[cases.count - 1].text += string }
    }
}
