import Foundation
import Testing

/// `Fixtures/hostile/*.lua`: one script per way of outliving a limit or
/// trapping the host. Each says how to run it and what must come out:
///
///     -- command: test                       (the command; `run` when not said)
///     -- args: --timeout 1                   (options before the script)
///     -- status: 1                           (the exit status)
///     -- stderr: time limit exceeded (…)     (text stderr contains; `<none>`: empty)
///     -- stdout: closed                      (text stdout contains, when said; one line each)
///     -- output under: 20000                 (stdout and stderr together are shorter, in bytes)
///
/// Every one must end by itself, without a signal, within its time limit
/// plus the one-second hard stop (and a little for a slow machine).
@Suite("Hostile scripts end on time, with their message, never by a signal")
struct HostileScriptsTests {
    struct Fixture: CustomStringConvertible, Sendable {
        var file: String
        var command = "run"
        var arguments: [String]
        var status: Int32
        var stderr: String
        var stdout: [String] = []
        var outputLimit: Int?
        var timeout: Double
        var description: String { file }
    }

    static let directory = CommandRunner.fixtures.appendingPathComponent("hostile")

    static let fixtures: [Fixture] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".lua") }.sorted().map { file in
            let text = (try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)) ?? ""
            var fixture = Fixture(file: file, arguments: [], status: -1, stderr: "<no stderr line>", timeout: 0)
            for line in text.split(separator: "\n") where line.hasPrefix("-- ") {
                let words = line.dropFirst(3)
                if words.hasPrefix("command: ") {
                    fixture.command = String(words.dropFirst(9))
                } else if words.hasPrefix("args: ") {
                    fixture.arguments = words.dropFirst(6).split(separator: " ").map(String.init)
                } else if words.hasPrefix("status: ") {
                    fixture.status = Int32(words.dropFirst(8)) ?? -1
                } else if words.hasPrefix("stderr: ") {
                    fixture.stderr = String(words.dropFirst(8))
                } else if words.hasPrefix("stdout: ") {
                    fixture.stdout.append(String(words.dropFirst(8)))
                } else if words.hasPrefix("output under: ") {
                    fixture.outputLimit = Int(words.dropFirst(14))
                }
            }
            if let i = fixture.arguments.firstIndex(of: "--timeout"), i + 1 < fixture.arguments.count {
                fixture.timeout = Double(fixture.arguments[i + 1]) ?? 0
            }
            return fixture
        }
    }()

    @Test func everyClassHasAFixture() {
        #expect(Self.fixtures.count >= 15)
        for fixture in Self.fixtures {
            #expect(fixture.status >= 0, "\(fixture.file) says no '-- status:'")
        }
    }

    @Test(arguments: fixtures)
    func endsOnTimeWithItsMessage(_ fixture: Fixture) throws {
        let result = try CommandRunner.factoryhost([fixture.command] + fixture.arguments + [fixture.file],
                                                   in: Self.directory, killAfter: fixture.timeout + 20)
        #expect(!result.signalled, "\(result)")
        #expect(result.status == fixture.status, "\(result)")
        if fixture.stderr == "<none>" {
            #expect(result.stderr.isEmpty, "\(result)")
        } else if ProcessInfo.processInfo.environment["FACTORYHOST_SANITIZER"] != nil, fixture.stderr.contains("time limit exceeded"),
                  result.stderr.contains("time limit exceeded") && result.stderr.contains("the process was stopped") {
            // Under a sanitizer a long C builtin (100 MB string.rep) can outlast the hard stop's
            // second: the same limit, ended by the watchdog instead of at the next instruction.
        } else {
            #expect(result.stderr.contains(fixture.stderr), "\(result)")
        }
        for stdout in fixture.stdout { #expect(result.stdout.contains(stdout), "\(result)") }
        if let limit = fixture.outputLimit {
            #expect(result.stdout.utf8.count + result.stderr.utf8.count < limit, "\(fixture.file): \(result.stdout.utf8.count + result.stderr.utf8.count) bytes of output")
        }
        if fixture.timeout > 0 {
            // The limit plus the hard stop's second, plus slack for a loaded machine.
            #expect(result.seconds < fixture.timeout + 1 + 1.5, "\(result)")
            // (One that succeeds is done before its limit: the limit is only its bound.)
            if fixture.status != 0 { #expect(result.seconds >= fixture.timeout * 0.9, "stopped before its limit: \(result)") }
        }
    }
}

@Suite("Spec options never trap the runner")
struct HostileSpecOptionsTests {
    @Test func whatAScriptPrintedBeforeAHardStopIsKept() throws {
        // Stuck in a C builtin: the hard stop ends the process from the stuck
        // thread itself, and still writes out what standard output held.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-hard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("""
            os.execute("true")
            print("before the stall")
            io.write("and a line without its end")
            string.find(("a"):rep(1e6), ("a*"):rep(40) .. "b")
            print("never")
            """.utf8).write(to: dir.appendingPathComponent("stall.lua"))
        let result = try CommandRunner.factoryhost(["run", "--timeout", "1", "stall.lua"], in: dir, killAfter: 30)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == "before the stall\nand a line without its end", "\(result)")
        #expect(result.stderr.contains("time limit exceeded (1.0 seconds), and the code did not stop within 1 s more"), "\(result)")
        #expect(!result.stderr.contains("blocked in"), "the os.execute that returned is not blamed: \(result)")
        // Blocked in a builtin that waits for a process: named, with the line (attack 12: no line was named).
        try Data("local x = 1\nos.execute('sleep 30')\n".utf8).write(to: dir.appendingPathComponent("block.lua"))
        try Data("local f = io.popen('sleep 30')\nf:close()\n".utf8).write(to: dir.appendingPathComponent("popen.lua"))
        for (script, blocked) in [("block.lua", "os.execute, called at block.lua:2"),
                                  ("popen.lua", "closing an io.popen stream (it waits for the command), called at popen.lua:2")] {
            let blockedRun = try CommandRunner.factoryhost(["run", "--timeout", "1", script], in: dir, killAfter: 30)
            #expect(blockedRun.status == 1 && blockedRun.stderr.hasSuffix("\n  it was blocked in \(blocked)\n"), "\(blockedRun)")
        }
    }

    @Test func aReaderThatStopsReadingDoesNotHoldTheHardStop() throws {
        // Standard output is a pipe no one reads: the script blocks in a
        // write, inside stdio. The hard stop must neither wait for the pipe
        // nor write the stream's half-written buffer.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-pipe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("while true do io.write(\"x\") end\n".utf8).write(to: dir.appendingPathComponent("flood.lua"))
        let errors = dir.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandRunner.factoryhost)
        process.arguments = ["run", "--timeout", "1", "flood.lua"]
        process.currentDirectoryURL = dir
        let unread = Pipe()
        process.standardOutput = unread
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let start = Date()
        while process.isRunning && Date().timeIntervalSince(start) < 15 { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }   // never hold the suite
        process.waitUntilExit()
        let text = String(decoding: try Data(contentsOf: errors), as: UTF8.self)
        #expect(process.terminationReason == .exit && process.terminationStatus == 1, "\(process.terminationStatus): \(text)")
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(text.contains("time limit exceeded (1.0 seconds), and the code did not stop within 1 s more"), "\(text)")
        try? unread.fileHandleForReading.close()
    }

    @Test func aHardStopInsideAWriteWritesNothingTwice() throws {
        // A finalizer prints numbered lines until the hard stop: the file
        // must hold each number once, in order (the stream's buffer written
        // out while a write was under way repeated its last block).
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-twice-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("""
            setmetatable({}, { __gc = function() local i = 0 while true do i = i + 1; print(i) end end })
            collectgarbage()
            """.utf8).write(to: dir.appendingPathComponent("count.lua"))
        for _ in 0..<3 {
            let output = dir.appendingPathComponent("out.txt")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandRunner.factoryhost)
            process.arguments = ["run", "--timeout", "0.2", "count.lua"]
            process.currentDirectoryURL = dir
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 1)
            let lines = String(decoding: try Data(contentsOf: output), as: UTF8.self).split(separator: "\n")
            let numbers = lines.compactMap { Int($0) }
            #expect(numbers.count >= lines.count - 1)          // the last line may be cut
            #expect(numbers == Array(1...max(1, numbers.count)) || numbers.isEmpty, "a repeat or a gap near \(numbers.suffix(3))")
        }
    }

    #if os(Linux)
    @Test func aTimeLimitStartsNoThread() throws {
        // On Linux a deadline is a timer of the kernel's: no watchdog thread
        // to start, wake and reap at every run with a limit.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-threads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("""
            local f = assert(io.open("/proc/self/status"))
            local status = f:read("a")
            f:close()
            print(status:match("Threads:%s*(%d+)"))
            """.utf8).write(to: dir.appendingPathComponent("threads.lua"))
        let result = try CommandRunner.factoryhost(["run", "--timeout", "5", "threads.lua"], in: dir, killAfter: 30)
        #expect(result == ProcessResult(status: 0, stdout: "1\n", stderr: ""), "\(result)")
    }
    #endif

    @Test func hostileTimeoutsAreRefusedWithAClearMessage() throws {
        let dir = CommandRunner.fixtures.appendingPathComponent("hostile-specs")
        // What the file prints at its top level is captured: TAP shows it as comments.
        let result = try CommandRunner.factoryhost(["test", "--reporter", "tap", "timeouts_spec.lua"], in: dir, killAfter: 60)
        #expect(!result.signalled, "\(result)")
        #expect(result.status == 0, "\(result)")
        let refusal = "timeout must be a number of seconds above 0 and at most 86400 (got "
        for shown in ["nan)", "(got inf)", "(got -inf)", "(got 1e+300)", "(got 1e+19)", "(got -1)", "(got 0)"] {   // 0/0: nan or -nan
            #expect(result.stdout.contains(shown), "\(shown): \(result)")
        }
        #expect(result.stdout.components(separatedBy: refusal).count == 8, "\(result)")
        #expect(result.stdout.contains("1 passed, 0 failed"), "\(result)")
    }
}

@Suite("A test stuck where Lua cannot stop it fails; the run goes on")
struct StuckTestTests {
    @Test func aTestStuckInACBuiltinEndsItsWorkerAndTheNextTestRuns() throws {
        let dir = CommandRunner.fixtures.appendingPathComponent("hostile-specs")
        let result = try CommandRunner.factoryhost(["test", "stuck"], in: dir, killAfter: 30)
        #expect(!result.signalled, "\(result)")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("""
              ✗ loops in Lua (1)
              ✗ is stuck in a C builtin (2)
              ✓ never runs
            """), "\(result)")
        #expect(result.stdout.contains("stuck/stuck_spec.lua:2: timed out after 0.5 s and did not stop (it was in a C function, "
                                       + "a finalizer or a blocking call): its worker process was ended, and the run went on"), "\(result)")
        #expect(result.stdout.hasSuffix("1 passed, 2 failed\n"), "\(result)")
        #expect(result.seconds < 10, "\(result)")
    }

    @Test func aWorkerThatStopsRespondingIsEndedAndTheRunGoesOn() throws {
        let dir = CommandRunner.fixtures.appendingPathComponent("hostile-specs")
        let result = try CommandRunner.factoryhost(["test", "stopped_worker_spec.lua"], in: dir, killAfter: 60)
        #expect(result.status == 1 && !result.signalled, "\(result)")
        #expect(result.stdout.contains("stopped_worker_spec.lua:2: the worker process running this test stopped responding "
                                       + "(nothing for 11 s), so it was killed; the run went on"), "\(result)")
        #expect(result.stdout.hasSuffix("1 passed, 1 failed\n"), "\(result)")
    }
}

@Suite("Worker processes report every test, whatever the test does")
struct WorkerProtocolTests {
    static let dir = CommandRunner.fixtures.appendingPathComponent("hostile-specs/protocol")

    @Test func messagesWithCRLFAndNULAreReportedAsWritten() throws {
        let crlf = try CommandRunner.factoryhost(["test", "crlf_spec.lua"], in: Self.dir, killAfter: 30)
        #expect(crlf.status == 1 && crlf.stdout.hasSuffix("1 passed, 1 failed\n"), "\(crlf)")
        #expect(crlf.stdout.contains("crlf_spec.lua:3: first\n     second\n"), "\(crlf)")
        let nul = try CommandRunner.factoryhost(["test", "nulmsg_spec.lua", "--reporter", "tap"], in: Self.dir, killAfter: 30)
        #expect(nul.status == 1 && nul.stdout.contains("1..2"), "\(nul)")
        #expect(nul.stdout.contains("not ok 1 - nulmsg > fails, NUL in its error message"), "\(nul)")
    }

    @Test func aPerfectlyFormedForgeryIsNotAReport() throws {
        let result = try CommandRunner.factoryhost(["test", "forge_perfect_spec.lua", "--reporter", "tap"], in: Self.dir, killAfter: 30)
        #expect(result.status == 1, "\(result)")
        #expect(!result.stdout.contains("ok 1 - suite > innocent") && !result.stdout.contains("ok 2 - suite > broken"), "\(result)")
        // Blamed on the test that wrote, in the run of the file's tests — not on loading the file.
        #expect(result.stdout.contains("not ok 1 - forge_perfect_spec.lua (the run of its tests)"), "\(result)")
        #expect(result.stdout.contains("sent a report line that is not the protocol's while 'suite > innocent' (forge_perfect_spec.lua:5) ran"),
                "\(result)")
    }

    /// A test's output past what a report shows is given back to the file
    /// system as it is written: `cat /dev/zero` in a test filled /tmp at a
    /// gigabyte a second (the captured output is an unlinked file). The
    /// test reads its own worker's captured output's allocated size.
    @Test func capturedOutputPastWhatIsShownTakesNoDisk() throws {
        let dir = try CommandRunner.scratchDirectory(["zeros_spec.lua": """
            describe("out", function()
              it("writes 150 MB", function()
                os.execute("head -c 150000000 /dev/zero")
                local allocated
                for _ = 1, 50 do
                  local stat = io.popen("stat -L -c '%b %B' /proc/$PPID/fd/1")
                  local blocks, size = stat:read("n", "n")
                  stat:close()
                  allocated = blocks * size
                  if allocated < 16 << 20 then break end
                  os.execute("sleep 0.1")
                end
                assert(allocated < 16 << 20, "allocated: " .. allocated)
              end)
            end)
            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["test", "zeros_spec.lua"], in: dir, killAfter: 60)
        #expect(result.status == 0 && result.stdout.hasSuffix("1 passed, 0 failed\n"), "\(result.stdout.suffix(300))")
    }

    @Test func anOverlongReportLineIsCutNotHeld() throws {
        // (A limit far above its need: under a sanitizer the runner reads slowly, and a test
        // stopped mid-line sends a shorter one — "not the protocol's" too, but not this.)
        let result = try CommandRunner.factoryhost(["test", "overlong_spec.lua", "--timeout", "120s"], in: Self.dir, killAfter: 180)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("sent a report line over 64 MiB, not the protocol's while 'pipe > writes one huge line'"), "\(result)")
        #expect(result.stdout.hasSuffix("0 passed, 1 failed\n"), "\(result)")
    }

    @Test func aForgedReportIsAFailureNotAGreenRun() throws {
        let result = try CommandRunner.factoryhost(["test", "forge_spec.lua"], in: Self.dir, killAfter: 30)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("does a test write to file descriptor 3?"), "\(result)")
        #expect(!result.stdout.contains("passed, 0 failed"), "\(result)")
    }

    @Test func aBackgroundProcessATestStartsDoesNotHoldTheRun() throws {
        let result = try CommandRunner.factoryhost(["test", "bg_spec.lua"], in: Self.dir, killAfter: 30)
        #expect(result.status == 0 && result.stdout.hasSuffix("1 passed, 0 failed\n"), "\(result)")
        #expect(result.seconds < 10, "it waited for the background process: \(result)")
    }

    @Test func optionValuesStartingWithADashReachTheWorker() throws {
        let result = try CommandRunner.factoryhost(["test", "crlf_spec.lua", "--filter=-x"], in: Self.dir, killAfter: 30)
        #expect(result.status == 1 && result.stderr.contains("no tests matched"), "\(result)")
    }
}

@Suite("The sandbox installs only the plugins whose capabilities were granted")
struct SandboxCapabilityTests {
    static let probe = """
        for _, name in ipairs { "koober", "networking", "persistence", "screens", "session", "vehicles" } do
          local ok, err = pcall(require, "factoryhost." .. name)
          print(name, ok and "available" or err)
        end
        """

    @Test func aSandboxedScriptGetsOnlyPluginsThatReachNothing() throws {
        let result = try CommandRunner.factoryhost(["run", "--sandbox", "-"], input: Self.probe)
        #expect(result == ProcessResult(status: 0, stdout: """
            koober\tmodule 'factoryhost.koober' is not available in the sandbox: the koober plugin reads and writes files (grant it with --allow files)
            networking\tmodule 'factoryhost.networking' is not available in the sandbox: the networking plugin uses the network (grant it with --allow network)
            persistence\tmodule 'factoryhost.persistence' is not available in the sandbox: the persistence plugin reads and writes files (grant it with --allow files)
            screens\tavailable
            session\tavailable
            vehicles\tavailable

            """, stderr: ""), "\(result)")
    }

    @Test func grantingACapabilityLetsItsPluginsIn() throws {
        let files = try CommandRunner.factoryhost(["run", "--sandbox", "--allow", "files", "-"], input: Self.probe)
        #expect(files.stdout.contains("koober\tavailable") && files.stdout.contains("persistence\tavailable"), "\(files)")
        #expect(files.stdout.contains("networking\tmodule 'factoryhost.networking' is not available"), "\(files)")
        let all = try CommandRunner.factoryhost(["run", "--sandbox", "--allow=network,files", "-"], input: Self.probe)
        #expect(!all.stdout.contains("not available"), "\(all)")
        // The same through the argument parser's path (an option after a flag it alone handles).
        let parsed = try CommandRunner.factoryhost(["run", "--sandbox", "--allow", "all", "--", "-"], input: Self.probe)
        #expect(parsed.status == 0 && !parsed.stdout.contains("not available"), "\(parsed)")
    }

    @Test func aSandboxedScriptCannotWriteFilesThroughAPlugin() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-sandbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let attack = """
            local ok, err = pcall(function()
              local k = require "factoryhost.koober"
              k.UserSessionStore.file { path = "victim.txt" }:delete()
            end)
            local ok2 = pcall(function()
              local db = require "factoryhost.persistence"
              db.PersistentContainer.new { models = { "Users" },
                stores = { db.StoreDescription.sqlite { path = "planted.sqlite", migrateAutomatically = true } } }
            end)
            print(ok, ok2)
            """
        try Data("keep me".utf8).write(to: dir.appendingPathComponent("victim.txt"))
        let result = try CommandRunner.factoryhost(["run", "--sandbox", "-"], in: dir, input: attack)
        #expect(result == ProcessResult(status: 0, stdout: "false\tfalse\n", stderr: ""), "\(result)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("victim.txt").path))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("planted.sqlite").path))
    }

    @Test func badAllowValuesAreUsageErrors() throws {
        let unknown = try CommandRunner.factoryhost(["run", "--sandbox", "--allow", "nope", "x.lua"])
        #expect(unknown.status == 64 && unknown.stderr.contains("--allow: unknown capability 'nope'"), "\(unknown)")
        let unsandboxed = try CommandRunner.factoryhost(["run", "--allow", "network", "x.lua"])
        #expect(unsandboxed.status == 64 && unsandboxed.stderr.contains("--allow only applies with --sandbox"), "\(unsandboxed)")
    }
}
