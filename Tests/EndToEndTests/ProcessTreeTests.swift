import Foundation
import Testing

/// No process outlives its command (#38): a child a script started with
/// os.execute (and what that child started in the background) ends with a
/// hard stop or a time limit; a test runner's workers end with the runner
/// on SIGTERM; and the runner never waits without end for a worker that
/// was stopped after its report.
@Suite("No process outlives its command")
struct ProcessTreeTests {
    func directory(_ files: [String: String]) throws -> URL { try CommandRunner.scratchDirectory(files, prefix: "fh-tree") }

    /// Whether process `pid` is gone (or a zombie waiting to be reaped), within two seconds.
    static func ends(_ pid: Int32) -> Bool {
        for _ in 0..<200 {
            if kill(pid, 0) != 0 && errno == ESRCH { return true }
            if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
               let close = stat.lastIndex(of: ")"), stat[stat.index(close, offsetBy: 2)] == "Z" { return true }
            usleep(10_000)
        }
        return false
    }

    static func pids(in file: URL) -> [Int32] {
        ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }
    }

    @Test func aHardStopEndsWhatTheScriptStarted() throws {
        // The script waits in os.execute (a C call no hook reaches) for a
        // shell that waits for a background sleep.
        let dir = try directory(["stuck.lua": "os.execute('sleep 30 & echo $! > child.pid; echo $$ >> child.pid; wait')\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["run", "--timeout", "1", "stuck.lua"], in: dir, killAfter: 20)
        #expect(result.status == 1 && result.stderr.contains("the process was stopped"), "\(result)")
        let started = Self.pids(in: dir.appendingPathComponent("child.pid"))
        #expect(started.count == 2, "\(started)")
        for pid in started { #expect(Self.ends(pid), "process \(pid) outlived the hard stop") }
    }

    @Test func aTimeLimitEndsWhatTheScriptLeftInTheBackground() throws {
        let dir = try directory(["leave.lua": "os.execute('(sleep 30 & echo $! > child.pid)')\nwhile true do end\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["run", "--timeout", "1", "leave.lua"], in: dir, killAfter: 20)
        #expect(result.status == 1 && result.stderr.contains("time limit exceeded"), "\(result)")
        let started = Self.pids(in: dir.appendingPathComponent("child.pid"))
        #expect(started.count == 1, "\(started)")
        for pid in started { #expect(Self.ends(pid), "process \(pid) outlived the stopped script") }
    }

    @Test(arguments: [SIGTERM, SIGKILL])
    func workersEndWithTheRunner(_ signal: Int32) throws {
        let spec = """
            describe("waits", function()
              it("in a child", function()
                local me = io.open("/proc/self/stat"):read("n")
                local f = io.open("workers.pid", "a"); f:write(me, "\\n"); f:close()
                os.execute("(sleep 30 & echo $! >> children.pid)")   -- re-parented to the worker
                os.execute("sleep 30 & echo $! >> children.pid; echo $$ >> children.pid; wait")
              end)
            end)
            """
        let dir = try directory(["a_spec.lua": spec, "b_spec.lua": spec])
        defer { try? FileManager.default.removeItem(at: dir) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandRunner.factoryhost)
        process.arguments = ["test", "--jobs", "2", "--timeout", "60", "."]
        process.currentDirectoryURL = dir
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let children = dir.appendingPathComponent("children.pid")
        for _ in 0..<1000 where Self.pids(in: children).count < 6 { usleep(10_000) }
        let workers = Self.pids(in: dir.appendingPathComponent("workers.pid")), sleeps = Self.pids(in: children)
        kill(process.processIdentifier, signal)     // a CI system cancelling the job (SIGTERM), or one that cannot wait
        let start = Date()
        while process.isRunning && Date().timeIntervalSince(start) < 10 { usleep(10_000) }
        #expect(workers.count == 2 && sleeps.count == 6, "\(workers) \(sleeps)")
        for pid in workers + sleeps { #expect(Self.ends(pid), "process \(pid) outlived the runner") }
        // What outlived it would keep the runner's end from being seen (it holds
        // what the runner held): end it here, so a failure fails, not hangs.
        for pid in workers + sleeps { kill(pid, SIGKILL) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal,
                "\(process.terminationReason.rawValue) \(process.terminationStatus)")
    }

    @Test func aWorkerStoppedAfterItsReportDoesNotHoldTheRun() throws {
        // Its state's last finalizer stops the worker (SIGSTOP) after it reported "done".
        let dir = try directory(["stop_spec.lua": """
            local me = io.open("/proc/self/stat"):read("n")
            stopper = setmetatable({}, { __gc = function() os.execute("kill -STOP " .. me) end })
            describe("d", function() it("passes", function() end) end)
            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["test", "--timeout", "1", "stop_spec.lua"], in: dir, killAfter: 60)
        #expect(!result.signalled, "the runner waited without end: \(result)")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("after its report, the worker process did not exit within 12 s (was it stopped?), so it was killed"),
                "\(result.stdout)")
        #expect(result.stdout.contains("1 passed, 1 failed"), "\(result.stdout)")
    }
}

@Suite("The runner runs no spec code")
struct RunnerRunsNoSpecCodeTests {
    /// A worker that dies mid-test: the runner names the test from what the
    /// worker said as it started it — it used to load the spec file itself,
    /// running its top level in the runner (where one blocking call ended
    /// the whole run with no summary).
    @Test func aTestWhoseWorkerDiesIsNamedWithoutLoadingItsFile() throws {
        let dir = try CommandRunner.scratchDirectory(["dies_spec.lua": """
            local f = io.open("loads.txt", "a"); f:write(io.open("/proc/self/stat"):read("n"), "\\n"); f:close()
            describe("d", function()
              it("dies", function() os.execute("kill -9 " .. io.open("/proc/self/stat"):read("n")) end)
              it("after", function() end)
            end)
            """], prefix: "fh-runner")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["test", "dies_spec.lua"], in: dir, killAfter: 60)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("1) d > dies"), "\(result.stdout)")
        #expect(result.stdout.contains("the worker process running this test was killed by signal 9"), "\(result.stdout)")
        #expect(result.stdout.contains("1 passed, 1 failed"), "\(result.stdout)")
        // Loaded by the two workers only (the first, and the one that went on after it died).
        let loads = try String(contentsOf: dir.appendingPathComponent("loads.txt"), encoding: .utf8).split(separator: "\n")
        #expect(loads.count == 2, "\(loads)")
    }

    /// `--list` loads each file in a worker too: a spec that blocks at its
    /// top level fails its own listing (it ended the whole listing with 124),
    /// the other files are listed, and what a spec started ends with it.
    @Test func listingRunsNoSpecCodeInTheRunner() throws {
        let dir = try CommandRunner.scratchDirectory([
            "a_spec.lua": """
                local f = io.open("loads.txt", "a"); f:write(io.open("/proc/self/stat"):read("n"), "\\n"); f:close()
                it("a", function() end)
                os.execute("sleep 30")
                """,
            "b_spec.lua": """
                os.execute("(sleep 30 & echo $! > child.pid)")
                describe("b", function() it("x", { tags = "t" }, function() end) end)
                """], prefix: "fh-list")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["test", "--list", "--timeout", "1", "."], in: dir, killAfter: 30)
        #expect(result.status == 1 && result.seconds < 10, "\(result)")
        #expect(result.stdout.contains("a_spec.lua: cannot be listed"), "\(result)")
        #expect(result.stdout.contains("b_spec.lua:2: b > x [t]\n1 test in 2 files"), "\(result)")
        let loads = try String(contentsOf: dir.appendingPathComponent("loads.txt"), encoding: .utf8).split(separator: "\n")
        #expect(loads.count == 1, "\(loads)")
        for pid in ProcessTreeTests.pids(in: dir.appendingPathComponent("child.pid")) {
            #expect(ProcessTreeTests.ends(pid), "process \(pid) outlived the listing")
        }
    }
}
