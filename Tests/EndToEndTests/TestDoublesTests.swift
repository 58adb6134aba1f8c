import Foundation
import Testing

/// The test library's structure and doubles (issue #16): before_all and
/// after_all, finally, to_equal's path, expect.extend, spies, stubs of
/// Swift interfaces, and --repeat — each report exactly as a user sees it.
@Suite("factoryhost test: hooks, matchers, spies and stubs")
struct TestDoublesTests {
    let specs = CommandRunner.fixtures.appendingPathComponent("specs")

    @Test func hooksMatchersSpiesAndStubsReportExactly() throws {
        let result = try CommandRunner.factoryhost(["test", "doubles/hooks_spec.lua", "doubles/matchers_spec.lua", "doubles/spies_spec.lua"],
                                                   in: specs, killAfter: 60)
        #expect(result == ProcessResult(status: 1, stdout: """
            doubles/hooks_spec.lua
              a block
                ✓ sees what before_all made
                ✓ shares it with the next test
              ✓ runs after the block's teardown
              a setup that fails
                ✗ fails the first test (1)
                ✗ fails the second too (2)
              a teardown that fails
                ✓ passes
                ✗ gets the teardown's failure (3)
              ✗ runs finally when the test fails (4)
              ✗ saw that finally run (5)
              ✗ refuses hooks inside a test (6)
              a teardown after a failed test
                ✗ reports both failures (7)
              an outer setup that fails
                an inner block
                  ✗ fails with the outer setup (8)
              ✓ never set up the inner block nor tore down the outer
            doubles/matchers_spec.lua
              ✗ names the path where tables differ (9)
              ✗ names a key one side lacks (10)
              ✗ has the spec's own matchers (11)
              ✗ reports a negated custom matcher (12)
              ✗ refuses expect.extend inside a test, even under a pcall (13)
              ✓ said why at the top level
            doubles/spies_spec.lua
              ✓ records calls, arguments and results
              ✓ starts every test with no calls, and spy.on put back
              ✗ says which calls there were (14)
              ✓ doubles a Swift interface, recording what Swift calls
              ✓ answers nothing for a method it was not given
              ✗ fails the test on a strict stub's unexpected call, even one Swift catches (15)
              ✓ refuses what is not an interface or not a method
              a singleton that calls a spy as it closes
                ✓ is built
                ✓ was closed after the last test, not during this one

            Failures:

              1) a setup that fails > fails the first test
                 doubles/hooks_spec.lua:21: in before_all: no database
                   stack traceback:
                     doubles/hooks_spec.lua:21: in function <doubles/hooks_spec.lua:21>

              2) a setup that fails > fails the second too
                 doubles/hooks_spec.lua:21: in before_all: no database
                   stack traceback:
                     doubles/hooks_spec.lua:21: in function <doubles/hooks_spec.lua:21>

              3) a teardown that fails > gets the teardown's failure
                 doubles/hooks_spec.lua:27: in after_all: cannot drop the database
                   stack traceback:
                     doubles/hooks_spec.lua:27: in function <doubles/hooks_spec.lua:27>

              4) runs finally when the test fails
                 doubles/hooks_spec.lua:33: the test's own failure
                   stack traceback:
                     doubles/hooks_spec.lua:33: in function <doubles/hooks_spec.lua:31>

              5) saw that finally run
                 doubles/hooks_spec.lua:38: in finally: a cleanup that fails
                   stack traceback:
                     doubles/hooks_spec.lua:38: in function <doubles/hooks_spec.lua:38>

              6) refuses hooks inside a test
                 doubles/hooks_spec.lua:40: before_all cannot be used inside a test (it is running in 'refuses hooks inside a test'): declare tests and hooks at the file's top level or in describe blocks
                   stack traceback:
                     doubles/hooks_spec.lua:40: in function <doubles/hooks_spec.lua:40>

              7) a teardown after a failed test > reports both failures
                 doubles/hooks_spec.lua:43: the test failed
                 (and in after_all: doubles/hooks_spec.lua:42: teardown failed too)
                   stack traceback:
                     doubles/hooks_spec.lua:43: in function <doubles/hooks_spec.lua:43>

              8) an outer setup that fails > an inner block > fails with the outer setup
                 doubles/hooks_spec.lua:46: in before_all: outer setup failed
                   stack traceback:
                     doubles/hooks_spec.lua:46: in function <doubles/hooks_spec.lua:46>

              9) names the path where tables differ
                 doubles/matchers_spec.lua:3: expected { users = { { name = "ana" }, { name = "ben" } } } to equal { users = { { name = "ana" }, { name = "bea" } } } (they differ at .users[2].name: "ben" where "bea" was expected)
                   expected: { users = { { name = "ana" }, { name = "bea" } } }
                   actual:   { users = { { name = "ana" }, { name = "ben" } } }

              10) names a key one side lacks
                 doubles/matchers_spec.lua:6: expected { a = 1, ["odd key"] = { 1, 2 } } to equal { a = 1, ["odd key"] = { 1, 2, 3 } } (they differ at ["odd key"][3]: nil where 3 was expected)
                   expected: { a = 1, ["odd key"] = { 1, 2, 3 } }
                   actual:   { a = 1, ["odd key"] = { 1, 2 } }

              11) has the spec's own matchers
                 doubles/matchers_spec.lua:18: expected 3 to be even

              12) reports a negated custom matcher
                 doubles/matchers_spec.lua:20: expected 12 not to be within 1 and 20
                   expected: not 1…20
                   actual:   12

              13) refuses expect.extend inside a test, even under a pcall
                 doubles/matchers_spec.lua:21: expect.extend cannot be used inside a test (it is running in 'refuses expect.extend inside a test, even under a pcall'): declare tests and hooks at the file's top level or in describe blocks

              14) says which calls there were
                 doubles/spies_spec.lua:28: expected the spy to have been called with ("b", { 3 }) (its calls: ("a", 1), ("b", { 2 }))
                   expected: ("b", { 3 })
                   actual:   ("a", 1), ("b", { 2 })

              15) fails the test on a strict stub's unexpected call, even one Swift catches
                 doubles/spies_spec.lua:41: unexpected call to AuthRemoteAPI.signIn: the strict stub was given no signIn (inside a stub's method; the code that called it caught the error)

            13 passed, 15 failed
            """ + "\n", stderr: ""), "\(result)")
    }

    /// A test stopped by its time limit (or a before_all stopped) still gets
    /// its cleanup, and its block's other tests do not run without setup.
    @Test func aStoppedTestIsCleanedUpAfter() throws {
        let result = try CommandRunner.factoryhost(["test", "--timeout", "300ms", "doubles/stopped_spec.lua"], in: specs, killAfter: 60)
        #expect(result == ProcessResult(status: 1, stdout: """
            doubles/stopped_spec.lua
              a block whose test loops
                ✗ loops (1)
              a setup that loops
                ✗ is stopped (2)
                ✗ fails without running (3)
              ✓ finds everything cleaned up
              a test that holds a singleton and loops
                ✗ loops (4)
              an outer block
                whose inner after_each hangs
                  ✗ passes, then its after_each hangs (5)
              ✓ finds its container closed, and the rest cleaned up

            Failures:

              1) a block whose test loops > loops
                 doubles/stopped_spec.lua:12: timed out after 0.3 s; give it longer with it(name, { timeout = seconds }, fn) or --timeout

              2) a setup that loops > is stopped
                 doubles/stopped_spec.lua:16: in before_all: timed out after 0.3 s; give it longer with it(name, { timeout = seconds }, fn) or --timeout

              3) a setup that loops > fails without running
                 doubles/stopped_spec.lua:18: in before_all: before_all did not finish (stopped by the time limit)

              4) a test that holds a singleton and loops > loops
                 doubles/stopped_spec.lua:32: timed out after 0.3 s; give it longer with it(name, { timeout = seconds }, fn) or --timeout

              5) an outer block > whose inner after_each hangs > passes, then its after_each hangs
                 doubles/stopped_spec.lua:37: in after_each: timed out after 0.3 s; give it longer with it(name, { timeout = seconds }, fn) or --timeout

            2 passed, 5 failed
            """ + "\n", stderr: ""), "\(result)")
    }

    /// override "Key" { … }: this test's container only, typed, before it
    /// keeps anything, gone in the next test.
    @Test func overridesReplaceARegistrationForOneTest() throws {
        let result = try CommandRunner.factoryhost(["test", "doubles/overrides_spec.lua"], in: specs, killAfter: 60)
        #expect(result == ProcessResult(status: 1, stdout: """
            doubles/overrides_spec.lua
              overrides
                ✓ replace a registration for this test, for what depends on it too
                ✓ are gone in the next test
                ✗ come before the container keeps anything (1)
                ✗ are typed (2)
                ✗ override something (3)
              ✗ need a test's container (4)

            Failures:

              1) overrides > come before the container keeps anything
                 doubles/overrides_spec.lua:25: override "HTTPSession": the test's container has built HTTPSession already, and an override must come before anything is resolved; move it to the top of the test, and if a before_each resolves, override in a before_each registered before that one (for every test of the describe), or resolve in the tests instead of in that before_each
                   stack traceback:
                     doubles/overrides_spec.lua:25: in function <doubles/overrides_spec.lua:23>

              2) overrides > are typed
                 doubles/overrides_spec.lua:29: the factory for HTTPSession returned string "a string", expected HTTPSession in configuration 'app (test overrides)'
                   resolution path: HTTPSession
                   registered at doubles/overrides_spec.lua:28
                   stack traceback:
                     [C]: in method 'resolve'
                     doubles/overrides_spec.lua:29: in function <doubles/overrides_spec.lua:27>

              3) overrides > override something
                 doubles/overrides_spec.lua:31: override "Request": Request says it overrides, but there is nothing to override in configuration 'app (test overrides)'
                   at doubles/overrides_spec.lua:31: 'app' has no Request
                   stack traceback:
                     doubles/overrides_spec.lua:31: in function <doubles/overrides_spec.lua:31>

              4) need a test's container
                 doubles/overrides_spec.lua:33: override "Cache": this test has no container (give its describe or it a config, or run with --config)
                   stack traceback:
                     doubles/overrides_spec.lua:33: in function <doubles/overrides_spec.lua:33>

            2 passed, 4 failed
            """ + "\n", stderr: ""), "\(result)")
    }

    /// `check` runs a spec file's top level too: spies, stubs, matchers and
    /// hooks declared there are stood in for, not errors.
    @Test func checkReadsSpecFilesThatUseTheDoubles() throws {
        for file in ["doubles/spies_spec.lua", "doubles/matchers_spec.lua", "doubles/hooks_spec.lua", "doubles/overrides_spec.lua"] {
            let result = try CommandRunner.factoryhost(["check", file], in: specs)
            #expect(result.status == 0 && result.stdout.hasPrefix("ok: "), "\(file): \(result)")
        }
    }

    /// What an override may do (change only parameters), where it lands
    /// (never a configuration the script declared), and where it is refused.
    @Test func overrideRules() throws {
        let result = try CommandRunner.factoryhost(["test", "doubles/override_rules_spec.lua"], in: specs, killAfter: 60)
        #expect(result == ProcessResult(status: 1, stdout: """
            doubles/override_rules_spec.lua
              an override
                ✓ may change only parameters
                ✓ never lands in a configuration the script declared
                ✗ needs a body (1)
                ✗ is refused once a child container lives (2)
              in an after_each
                ✗ is refused (3)
              in a finally
                ✗ is refused (4)
              in a before_each after one that resolved
                ✗ is refused (5)

            Failures:

              1) an override > needs a body
                 doubles/override_rules_spec.lua:16: override "string#word" (doubles/override_rules_spec.lua:16) was given no body: write override "…" { make = function() … end }

              2) an override > is refused once a child container lives
                 doubles/override_rules_spec.lua:19: override "string#word": the test's container has opened a child container already, and an override must come before anything is resolved; move it to the top of the test, and if a before_each resolves, override in a before_each registered before that one (for every test of the describe), or resolve in the tests instead of in that before_each
                   stack traceback:
                     doubles/override_rules_spec.lua:19: in function <doubles/override_rules_spec.lua:17>

              3) in an after_each > is refused
                 doubles/override_rules_spec.lua:23: in after_each: override "string#word" is for a test or its before_each: each test's container is its own
                   stack traceback:
                     doubles/override_rules_spec.lua:23: in function <doubles/override_rules_spec.lua:23>

              4) in a finally > is refused
                 doubles/override_rules_spec.lua:28: in finally: override "string#word" is for a test or its before_each: each test's container is its own
                   stack traceback:
                     doubles/override_rules_spec.lua:28: in function <doubles/override_rules_spec.lua:28>

              5) in a before_each after one that resolved > is refused
                 doubles/override_rules_spec.lua:33: in before_each: override "string#word": the test's container has built table#box already, and an override must come before anything is resolved; an earlier before_each (this describe's or an outer one's) resolved: register this before_each before that one (in the same describe), or resolve in the tests instead of in that before_each
                   stack traceback:
                     doubles/override_rules_spec.lua:33: in function <doubles/override_rules_spec.lua:33>

            2 passed, 5 failed
            """ + "\n", stderr: ""), "\(result)")
    }

    @Test func aFailingExpectationInLuaCodeSwiftCalledFailsTheTest() throws {
        let result = try CommandRunner.factoryhost(["test", "doubles/swallowed_by_swift_spec.lua"], in: specs, killAfter: 60)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("✗ a plain fake's failing expectation fails the test (1)"), "\(result)")
        #expect(result.stdout.contains("swallowed_by_swift_spec.lua:6: expected \"wrong\" to be \"right\" "
                                       + "(in Lua code that Swift called; the code that called it caught the error)"), "\(result)")
        // With the test's own expectation failing after it, the swallowed one is reported first (it was buried in the second's text).
        #expect(result.stdout.contains("swallowed_by_swift_spec.lua:17: expected \"secret\" to be \"hunter2\" (in Lua code that Swift called; "
                                       + "the code that called it caught the error); then, at doubles/swallowed_by_swift_spec.lua:19: expected \"failed:"),
                "\(result)")
        #expect(result.stdout.hasSuffix("2 passed, 2 failed\n"), "\(result)")
    }

    /// Bad input to stubs, overrides and spies: each an error saying what is wrong.
    @Test func badInputToTheDoublesIsAClearError() throws {
        let result = try CommandRunner.factoryhost(["test", "doubles/errors_spec.lua"], in: specs, killAfter: 60)
        #expect(result.status == 0 && result.stdout.hasSuffix("\n3 passed, 0 failed\n"), "\(result)")
    }

    /// A last test without a container still lets its block's after_all
    /// run, and that after_all's failure is reported with it.
    @Test func afterAllRunsAfterALastTestWithoutAContainer() throws {
        let result = try CommandRunner.factoryhost(["test", "doubles/no_container_spec.lua"], in: specs, killAfter: 60)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("""
                 doubles/no_container_spec.lua:6: cannot make a container of 'nope': no configuration named 'nope'
                   defined: none
                 (and in after_all: doubles/no_container_spec.lua:4: teardown broke)
            """), "\(result)")
    }

    /// In worker processes (--jobs), and with only some of a block's tests
    /// selected, before_all runs before the first and after_all after the
    /// last selected one (the last test checks the order they ran in).
    @Test func hooksFollowTheSelectedTestsInWorkers() throws {
        let result = try CommandRunner.factoryhost(["test", "--jobs", "2", "--filter", "a block", "--filter", "runs after the block",
                                                    "doubles/hooks_spec.lua", "doubles/spies_spec.lua"], in: specs, killAfter: 60)
        #expect(result == ProcessResult(status: 0, stdout: """
            doubles/hooks_spec.lua
              a block
                ✓ sees what before_all made
                ✓ shares it with the next test
              ✓ runs after the block's teardown

            3 passed, 0 failed

            """, stderr: ""), "\(result)")
    }

    @Test func repeatRunsTheSelectionAgainAndStopsWithFailFast() throws {
        let passing = try CommandRunner.factoryhost(["test", "--repeat", "3", "--filter", "said why", "doubles/matchers_spec.lua"],
                                                    in: specs, killAfter: 60)
        #expect(passing.status == 0, "\(passing)")
        #expect(passing.stdout.components(separatedBy: "1 passed, 0 failed\n").count == 4, "\(passing)")
        #expect(passing.stdout.hasPrefix("run 1 of 3\n") && passing.stdout.contains("\nrun 3 of 3\n"), "\(passing)")
        #expect(passing.stdout.hasSuffix("\n3 runs of 3: every run passed\n"), "\(passing)")
        let failing = try CommandRunner.factoryhost(["test", "--repeat", "3", "--fail-fast", "doubles/matchers_spec.lua"],
                                                    in: specs, killAfter: 60)
        #expect(failing.status == 1, "\(failing)")
        #expect(!failing.stdout.contains("run 2 of 3"), "\(failing)")
        #expect(failing.stdout.hasSuffix("\n1 run of 3: 1 failed (run 1), stopped by --fail-fast\n"), "\(failing)")
        let bad = try CommandRunner.factoryhost(["test", "--repeat", "0", "doubles/matchers_spec.lua"], in: specs)
        #expect(bad.status == 64 && bad.stderr.hasPrefix("Error: --repeat: give a number from 1 to 10000 (got 0)"), "\(bad)")
        let tap = try CommandRunner.factoryhost(["test", "--repeat", "2", "--reporter", "tap", "doubles/matchers_spec.lua"], in: specs)
        #expect(tap.status == 64 && tap.stderr.hasPrefix("Error: --repeat reports every run in text; a TAP or JSON stream, a JUnit file and a coverage file hold one run"),
                "\(tap)")
    }
}

/// `--reporter json` (JSON Lines: a run, a test per line, the summary) and
/// `--profile N` (the slowest tests after the text report).
@Suite("factoryhost test: the JSON report and --profile")
struct JSONReportTests {
    let specs = CommandRunner.fixtures.appendingPathComponent("specs")

    @Test func everyLineIsAnObjectAndFailuresCarryExpectedAndActual() throws {
        let result = try CommandRunner.factoryhost(["test", "--reporter", "json", "coverage", "doubles/matchers_spec.lua"], in: specs, killAfter: 60)
        #expect(result.status == 1, "\(result)")
        let objects = try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        #expect(objects.first?["type"] as? String == "run")
        let tests = objects.filter { $0["type"] as? String == "test" }
        #expect(tests.count == 9)
        #expect(tests.allSatisfy { ($0["duration"] as? Double).map { $0 >= 0 } == true })
        let path = try #require(tests.first { $0["name"] as? String == "names the path where tables differ" })
        #expect(path["status"] as? String == "failed")
        #expect(path["file"] as? String == "doubles/matchers_spec.lua" && path["line"] as? Int == 2)
        let failure = try #require(path["failure"] as? [String: Any])
        #expect(failure["kind"] as? String == "expectation")
        #expect(failure["expected"] as? String == #"{ users = { { name = "ana" }, { name = "bea" } } }"#)
        #expect(failure["actual"] as? String == #"{ users = { { name = "ana" }, { name = "ben" } } }"#)
        #expect(failure["location"] as? String == "doubles/matchers_spec.lua:3")
        let summary = try #require(objects.last)
        #expect(summary["type"] as? String == "summary" && summary["passed"] as? Int == 4 && summary["failed"] as? Int == 5, "\(summary)")
    }

    @Test func profileListsTheSlowestTests() throws {
        let result = try CommandRunner.factoryhost(["test", "--profile", "2", "coverage"], in: specs, killAfter: 60)
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.firstIndex { $0.hasPrefix("slowest 2 of 3 tests (") }, "\(result)")
        #expect(lines[header + 1].range(of: #"^  [0-9.]+ (ms|s) +coverage/[a-z]+_spec\.lua:[0-9]+  .+$"#, options: .regularExpression) != nil, "\(result)")
        #expect(lines[header + 2].range(of: #"^  [0-9.]+ (ms|s) +coverage/[a-z]+_spec\.lua:[0-9]+  .+$"#, options: .regularExpression) != nil, "\(result)")
        // Each test's line carries its duration too, in text and in TAP.
        #expect(result.stdout.range(of: #"\n  ✓ says goodbye \([0-9.]+ (ms|s)\)\n"#, options: .regularExpression) != nil, "\(result)")
        let tap = try CommandRunner.factoryhost(["test", "--profile", "1", "--reporter", "tap", "coverage"], in: specs, killAfter: 60)
        #expect(tap.stdout.range(of: #"\nok 1 - says goodbye\n# time=[0-9.]+(ms|s)\n"#, options: .regularExpression) != nil, "\(tap)")
        let bad = try CommandRunner.factoryhost(["test", "--profile", "0", "coverage"], in: specs)
        #expect(bad.status == 64 && bad.stderr.hasPrefix("Error: --profile: give a number of tests from 1 to 10000 (got 0)"), "\(bad)")
    }
}
