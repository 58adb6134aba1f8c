import Foundation
import Testing

/// `run` and the test workers close their state for the exit: every
/// finalizer runs, in Lua's order, output is flushed and the exit status
/// kept; then the process exits from the state's last finalizer, leaving
/// the heap to the exit rather than freeing it object by object.
@Suite("The close at exit")
struct CloseAtExitTests {
    /// Finalizers that churn through memory while the state closes (the
    /// collector is stopped then) get their frees back. Unbounded, this
    /// churn left ~330 MB behind (found by attack). The last finalizer to
    /// run (the first made) reads the process's peak.
    @Test func finalizersThatChurnAtExitGetTheirFreesBack() throws {
        #if os(Linux)
        let script = """
            setmetatable({}, { __gc = function()
              for line in io.lines("/proc/self/status") do
                local peak = line:match("^VmHWM:%s*(%d+)") if peak then print("peak " .. peak) end
              end
            end })
            setmetatable({}, { __gc = function()
              local t = { [2^40] = 1 }
              for i = 1, 5e6 do local k = (i + 1) * 2^40; t[k] = true; t[k] = nil end   -- rehashes: frees outside the collector
              print("churned")
            end })
            """
        // Under ASan, freed blocks wait in a quarantine (256 MB) that would
        // hide the frees this test is about: the child runs without it.
        let asan = ProcessInfo.processInfo.environment["ASAN_OPTIONS"].map { $0 + ":" } ?? ""
        let result = try CommandRunner.factoryhost(["run", "-"], input: script,
                                                   environment: ["ASAN_OPTIONS": asan + "quarantine_size_mb=0"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("churned\npeak "), "\(result)")
        let peak = Int(result.stdout.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? .max
        #expect(peak < 150_000, "peak \(peak) KB: the close kept what the finalizer freed")
        #endif
    }

    /// Finalizers run newest first, buffered output (an unclosed file's
    /// too) is flushed, the script's status is kept, and a finalizer's
    /// `os.exit` sets it, as under lua5.4.
    @Test func everyFinalizerRunsAndTheStatusIsKept() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("close-exit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = """
            local file = assert(io.open("unclosed.txt", "w"))
            file:write("kept")
            for i = 1, 3 do setmetatable({}, { __gc = function() io.write("gc ", i, " ") end }) end
            error("stop")
            """
        let failed = try CommandRunner.factoryhost(["run", "-"], in: directory, input: script)
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.stdout == "gc 3 gc 2 gc 1 ", "\(failed)")
        #expect(failed.stderr.contains("stop"), "\(failed)")
        #expect(try String(contentsOf: directory.appendingPathComponent("unclosed.txt"), encoding: .utf8) == "kept")

        let exiting = try CommandRunner.factoryhost(["run", "-"], input: """
            setmetatable({}, { __gc = function() io.write("last") end })
            setmetatable({}, { __gc = function() io.write("first ") os.exit(7) end })
            """)
        #expect(exiting.status == 7, "\(exiting)")
        #expect(exiting.stdout == "first ", "\(exiting)")

        // os.exit(code, true) in a finalizer closes the state again from inside the close: its code wins (found by attack).
        for (call, status) in [("os.exit(3, true)", Int32(3)), ("os.exit(false, true)", 1), ("os.exit(true, true)", 0)] {
            let closing = try CommandRunner.factoryhost(["run", "-"], input: """
                setmetatable({}, { __gc = function() io.write("A") end })
                setmetatable({}, { __gc = function() io.write("B") \(call) end })
                \(status == 0 ? "error('the script failed')" : "")
                """)
            #expect(closing.status == status, "\(call): \(closing)")
            #expect(closing.stdout == "BA", "\(call): \(closing)")
        }
    }

    /// A script with the debug library can take the state's last finalizer
    /// out of the registry or call it by hand: the close then frees the
    /// heap as a plain close does, and still runs every finalizer and keeps
    /// the status.
    @Test func aTamperedLastFinalizerChangesNothingAScriptCanSee() throws {
        let unanchored = try CommandRunner.factoryhost(["run", "-"], input: """
            setmetatable({}, { __gc = function() io.write("finalized") end })
            local registry = debug.getregistry()
            for key, value in pairs(registry) do
              if type(value) == "userdata" and getmetatable(value) == false then registry[key] = nil end
            end
            collectgarbage() collectgarbage()
            os.exit(5, true)
            """)
        #expect(unanchored.status == 5, "\(unanchored)")
        #expect(unanchored.stdout == "finalized", "\(unanchored)")

        let calledByHand = try CommandRunner.factoryhost(["run", "-"], input: """
            for _, value in pairs(debug.getregistry()) do
              if type(value) == "userdata" and getmetatable(value) == false then debug.getmetatable(value).__gc(value) end
            end
            setmetatable({}, { __gc = function() io.write("finalized") end })
            print("ran")
            """)
        #expect(calledByHand.status == 0, "\(calledByHand)")
        #expect(calledByHand.stdout == "ran\nfinalized", "\(calledByHand)")
    }

    /// A test worker closes the same way: a spec file's finalizers still
    /// run when the file's last test has ended.
    @Test func aSpecFilesFinalizersRunAtTheEndOfItsWorker() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("close-exit-spec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
            keep = setmetatable({}, { __gc = function()
              local file = assert(io.open("finalized.txt", "w")) file:write("at exit") file:close()
            end })
            it("passes", function() assert(keep) end)
            """.write(to: directory.appendingPathComponent("exit_spec.lua"), atomically: true, encoding: .utf8)
        let result = try CommandRunner.factoryhost(["test", "exit_spec.lua"], in: directory)
        #expect(result.status == 0, "\(result)")
        #expect(try String(contentsOf: directory.appendingPathComponent("finalized.txt"), encoding: .utf8) == "at exit")
    }
}
