import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `factoryhost test` never reports success that is not there: `os.exit`
/// in a test, state one test leaves for the next, tests declared inside
/// tests, output held back or mixed into the report (issue #13).
@Suite("factoryhost test is honest")
struct HonestRunnerTests {
    let specs = CommandRunner.fixtures.appendingPathComponent("specs")

    @Test func osExitFailsItsTestAndTheRunCompletesItsReports() throws {
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("fh-exit-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: junit) }
        let result = try CommandRunner.factoryhost(["test", "honest/exits_spec.lua", "honest/exit_at_load_spec.lua",
                                                    "--junit", junit.path], in: specs, killAfter: 60)
        #expect(result == ProcessResult(status: 1, stdout: """
            honest/exits_spec.lua
              os.exit
                ✗ ends nothing when a test calls it (1)
                ✗ fails the test even when a pcall swallows it (2)
                ✓ still runs the next test
              os.exit in a hook
                ✗ fails the test it runs after (3)
            honest/exit_at_load_spec.lua
              ✗ the file failed to load (4)

            Failures:

              1) os.exit > ends nothing when a test calls it
                 honest/exits_spec.lua:3: called os.exit(0): tests must not end the process
                   stack traceback:
                     honest/exits_spec.lua:3: in function <honest/exits_spec.lua:3>

              2) os.exit > fails the test even when a pcall swallows it
                 honest/exits_spec.lua:4: called os.exit(true): tests must not end the process

              3) os.exit in a hook > fails the test it runs after
                 honest/exits_spec.lua:12: in after_each: called os.exit(3): tests must not end the process
                   stack traceback:
                     honest/exits_spec.lua:12: in function <honest/exits_spec.lua:12>

              4) honest/exit_at_load_spec.lua (loading the file)
                 called os.exit(2): tests must not end the process

            1 passed, 4 failed

            """, stderr: ""), "\(result)")
        // The JUnit file is written, with every test in it.
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("<testsuites name=\"factoryhost\" tests=\"5\" failures=\"0\" errors=\"4\""), "\(xml)")
        // TAP keeps its plan.
        let tap = try CommandRunner.factoryhost(["test", "--reporter", "tap", "honest/exits_spec.lua"], in: specs, killAfter: 60)
        #expect(tap.status == 1 && tap.stdout.hasSuffix("1..4\n# 1 passed, 3 failed\n"), "\(tap)")
    }

    /// os.exit in a finalizer that runs as the file's state closes, after
    /// every test passed: Lua only warns of an error raised there, and the run
    /// was green (exit 0, nothing in the JUnit file).
    @Test func osExitInAFinalizerAsTheFileClosesFailsTheRun() throws {
        let dir = try CommandRunner.scratchDirectory(["gc_spec.lua": """
            local holder = {}
            it("makes", function() holder[1] = setmetatable({}, { __gc = function() os.exit(1) end }) end)
            """], prefix: "fh-exit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["test", "--junit", "j.xml", "gc_spec.lua"], in: dir, killAfter: 30)
        #expect(result.status == 1 && result.stdout.contains("a finalizer (__gc) called os.exit as the file's Lua state closed"),
                "\(result)")
        let junit = (try? String(contentsOf: dir.appendingPathComponent("j.xml"), encoding: .utf8)) ?? ""
        #expect(junit.contains("errors=\"1\""), "\(junit)")
    }

    /// A worker killed after its report, as its finalizers ran, is blamed
    /// on closing the file (attack 12: "the file failed to load … (loading
    /// the file)", though it loaded and every test ran).
    @Test func aWorkerKilledAsTheFileClosesIsBlamedOnClosingIt() throws {
        let dir = try CommandRunner.scratchDirectory(["k_spec.lua": """
            G = setmetatable({}, { __gc = function()
              local pid = io.open("/proc/self/stat"):read("n")
              local f = io.open("closing.pid", "w") f:write(pid) f:close()
              local t = os.clock() while os.clock() - t < 5 do end
            end })
            it("passes", function() end)
            """], prefix: "fh-closing")
        defer { try? FileManager.default.removeItem(at: dir) }
        let status = try ProcessTreeTests.runInShell("""
            cd '\(dir.path)' || exit 5
            '\(CommandRunner.factoryhost)' test k_spec.lua > out.txt 2>&1 &
            command=$!
            i=0; while [ ! -s closing.pid ] && [ $i -lt 500 ]; do sleep 0.02; i=$((i + 1)); done
            [ -s closing.pid ] || { kill -9 $command; exit 4; }
            kill -9 "$(cat closing.pid)"
            wait $command
            exit 0
            """, killAfter: 30)
        #expect(status == 0, "status \(status)")
        let output = (try? String(contentsOf: dir.appendingPathComponent("out.txt"), encoding: .utf8)) ?? ""
        #expect(output.contains("closing the file failed") && output.contains("killed by signal 9 after its report, as the file's Lua state closed"),
                "\(output)")
        #expect(!output.contains("failed to load") && !output.contains("loading the file"), "\(output)")
    }

    /// A hook stuck in C, stopped in Lua, or killing its worker is named as
    /// the hook, at its line: each was blamed on the test it ran after.
    @Test func aHookThatHangsOrKillsItsWorkerIsNamed() throws {
        let dir = try CommandRunner.scratchDirectory([
            "aac_spec.lua": """
                describe("d", function()
                  after_all(function() local s = ("a"):rep(5000); s:find(".-.-.-.-.-b") end)
                  it("one", function() end)
                  it("two", function() end)
                end)
                """,
            "ae_spec.lua": "describe(\"e\", function()\n  after_each(function() while true do end end)\n  it(\"three\", function() end)\nend)\n",
            "die_spec.lua": "describe(\"k\", function()\n  after_all(function() os.execute(\"kill -9 $PPID\") end)\n  it(\"last\", function() end)\nend)\n",
        ], prefix: "fh-hooks")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["test", "--timeout", "1", "--reporter", "json", "."], in: dir, killAfter: 60)
        #expect(result.status == 1, "\(result)")
        let failures = result.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.filter { $0["status"] as? String == "failed" }
        func failure(_ name: String) -> [String: Any]? {
            failures.first { ($0["name"] as? String)?.hasSuffix(name) == true }?["failure"] as? [String: Any]
        }
        for (name, phase, location) in [("two", "after_all", "aac_spec.lua:2"), ("three", "after_each", "ae_spec.lua:2"),
                                        ("last", "after_all", "die_spec.lua:2")] {
            let found = failure(name)
            #expect(found?["phase"] as? String == phase && found?["location"] as? String == location, "\(name): \(String(describing: found))")
        }
    }

    @Test func replacingWhatTheRunnerUsesCannotTurnARunGreen() throws {
        let result = try CommandRunner.factoryhost(["test", "--reporter", "tap", "honest/tamper_spec.lua"], in: specs, killAfter: 60)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.hasSuffix("1..6\n# 1 passed, 5 failed\n"), "\(result)")
        for line in ["not ok 1 - tampering > fails an expectation", "not ok 2 - tampering > errors",
                     "not ok 3 - tampering > exits after breaking tostring", "not ok 4 - tampering > hides a describe in a pcall",
                     "not ok 5 - leaves a finalizer that exits", "ok 6 - runs after it"] {
            #expect(result.stdout.contains(line + "\n"), "\(line): \(result)")
        }
        #expect(result.stdout.contains("message: \"called os.exit(0): tests must not end the process (in a finalizer)\""), "\(result)")
        #expect(result.stdout.contains("message: \"describe cannot be used inside a test"), "\(result)")
    }

    /// A name's control characters reach the terminal as Lua writes them:
    /// an escape sequence in a test's name cannot clear the screen, paint a
    /// forged ✓ line, or break the report's lines.
    @Test func namesCannotWriteControlSequencesToTheTerminal() throws {
        let result = try CommandRunner.factoryhost(["test", "honest/control_names_spec.lua"], in: specs, killAfter: 60)
        #expect(result.status == 1, "\(result)")
        #expect(!result.stdout.contains("\u{1B}"), "\(result)")
        #expect(result.stdout.contains("  d\\27[2J\n"), "\(result)")
        #expect(result.stdout.contains(" a\\nb \\27[32m✓ forged\n"), "\(result)")
        #expect(result.stdout.contains("1) d\\27[2J > tab\\there\n"), "\(result)")
        // TAP and JSON say them escaped too (TAP kept them raw).
        for (reporter, escaped) in [("tap", "not ok 2 - d\\27[2J > tab\\there\n"), ("json", #""name": "d\u001b[2J > tab\there""#)] {
            let other = try CommandRunner.factoryhost(["test", "--reporter", reporter, "honest/control_names_spec.lua"], in: specs, killAfter: 60)
            #expect(other.status == 1 && !other.stdout.contains("\u{1B}") && other.stdout.contains(escaped), "\(reporter): \(other)")
        }
    }

    @Test func everyTestStartsFromTheFilesTopLevelStateInAnyOrder() throws {
        for seed in ["1", "2", "3", "4", "5", "6"] {
            let result = try CommandRunner.factoryhost(["test", "honest/insulation_spec.lua", "honest/insulation_interpreter_spec.lua",
                                                        "--seed", seed], in: specs, killAfter: 60)
            #expect(result.status == 0 && result.stdout.hasSuffix("\n6 passed, 0 failed\n"), "seed \(seed): \(result)")
        }
    }

    @Test func whatATestDroppedIsCollectedBeforeTheNextStarts() throws {
        let result = try CommandRunner.factoryhost(["test", "honest/release_spec.lua"], in: specs, killAfter: 60)
        #expect(result.status == 0 && result.stdout.hasSuffix("\n6 passed, 0 failed\n"), "\(result)")
        // A finalizer that exits on an object that aged during its test fails
        // that test (a young collection alone missed it: the run was green).
        let aged = try CommandRunner.factoryhost(["test", "--reporter", "tap", "honest/aged_exit_spec.lua"], in: specs, killAfter: 60)
        #expect(aged.status == 1, "\(aged)")
        #expect(aged.stdout.contains("not ok 1 - leaves an aged finalizer that exits\n"), "\(aged)")
        #expect(aged.stdout.contains("ok 2 - is innocent\n") && !aged.stdout.contains("not ok 2"), "\(aged)")
        #expect(aged.stdout.contains("(in a finalizer)"), "\(aged)")
    }

    @Test func testsAndHooksDeclaredInsideATestAreErrors() throws {
        let result = try CommandRunner.factoryhost(["test", "honest/nested_spec.lua"], in: specs, killAfter: 60)
        #expect(result.status == 1 && result.stdout.hasSuffix("\n0 passed, 4 failed\n"), "\(result)")
        for (line, what, name) in [(2, "it", "it inside it"), (3, "describe", "describe inside it"),
                                   (4, "before_each", "a hook inside it"), (5, "pending", "pending inside it")] {
            #expect(result.stdout.contains("honest/nested_spec.lua:\(line): \(what) cannot be used inside a test "
                                           + "(it is running in '\(name)'): declare tests and hooks at the file's top level "
                                           + "or in describe blocks"), "\(what): \(result)")
        }
    }

    @Test func whatATestPrintsIsReportedWithThatTest() throws {
        let text = try CommandRunner.factoryhost(["test", "honest/output_spec.lua"], in: specs, killAfter: 60)
        #expect(text == ProcessResult(status: 1, stdout: """
            honest/output_spec.lua
              printing
                ✓ passes quietly
                ✗ fails loudly (1)
                ✓ prints nothing

            Failures:

              1) printing > fails loudly
                 honest/output_spec.lua:10: expected 1 to be 2
                   expected: 2
                   actual:   1
                 output:
                   line one
                   line two, with a tab:  #
                   on standard error
                   no newline at the end

            2 passed, 1 failed

            """, stderr: ""), "\(text)")
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("fh-out-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: junit) }
        let tap = try CommandRunner.factoryhost(["test", "--reporter", "tap", "--junit", junit.path, "honest/output_spec.lua"],
                                                in: specs, killAfter: 60)
        #expect(tap == ProcessResult(status: 1, stdout: """
            TAP version 13
            # honest/output_spec.lua
            ok 1 - printing > passes quietly
            # passing output
            not ok 2 - printing > fails loudly
              ---
              message: "expected 1 to be 2"
              severity: fail
              at: "honest/output_spec.lua:10"
              expected: "2"
              actual: "1"
              ...
            # line one
            # line two, with a tab:  #
            # on standard error
            # no newline at the end
            ok 3 - printing > prints nothing
            # printed by honest/output_spec.lua outside its tests:
            # loading the file
            1..3
            # 2 passed, 1 failed

            """, stderr: ""), "\(tap)")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("name=\"passes quietly\" file=\"honest/output_spec.lua\" line=\"4\" time=\"")
                && xml.contains("<system-out>passing output\n</system-out>"), "\(xml)")
        #expect(xml.contains("<system-out>line one\nline two, with a tab:&#9;#\non standard error\nno newline at the end</system-out>"), "\(xml)")
        #expect(xml.contains("  <system-out>loading the file\n</system-out>"), "\(xml)")
        // Parallel workers never mix their output into the report either.
        // CRLF and lone CR in output and in names split into lines of their own.
        let parallel = try CommandRunner.factoryhost(["test", "-j", "2", "--reporter", "tap", "honest/output_spec.lua",
                                                      "honest/crlf_output_spec.lua", "pass"], in: specs, killAfter: 60)
        #expect(!parallel.stdout.unicodeScalars.contains("\r"), "\(parallel)")
        #expect(parallel.stdout.contains("\n# ok 7 - hi\n") && parallel.stdout.contains("- http > named not ok 3 - forged by name\n"),
                "\(parallel)")
        #expect(parallel.stdout.unicodeScalars.split(separator: "\n").map { String(String.UnicodeScalarView($0)) }.allSatisfy {
            $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") || $0.hasPrefix("#") || $0.hasPrefix("  ") || $0.hasPrefix("1..")
                || $0 == "TAP version 13"
        }, "\(parallel)")
    }

    @Test func resultsReachAPipeAsEachTestFinishes() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandRunner.factoryhost)
        process.arguments = ["test", "honest/streaming_spec.lua"]
        process.currentDirectoryURL = specs
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: killer)
        defer { killer.cancel() }
        var seen = ""
        var runningWhenSeen = false
        while !seen.contains("✓ quick") {
            let data = pipe.fileHandleForReading.availableData
            if data.isEmpty { break }
            seen += String(decoding: data, as: UTF8.self)
            runningWhenSeen = process.isRunning
        }
        process.waitUntilExit()
        #expect(seen.contains("✓ quick"), "\(seen)")
        #expect(runningWhenSeen, "the first result came only when the run ended: \(seen)")
    }
}
