import Foundation
import Testing

/// `run` closes its state for the exit: finalizers run, but the blocks Lua
/// holds are left to the exit rather than freed one by one — at most the
/// heap the close began with.
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
}
