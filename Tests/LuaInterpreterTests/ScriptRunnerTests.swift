import Foundation
import Testing
import LuaBridge
@testable import LuaInterpreter

/// `factoryhost run`'s core without a process: `arg` as lua.c lays it out,
/// `-e`/`-l` before the script, a failing script's status, and the run's
/// time limit, which the script cannot swallow.
@Suite("The script runner")
struct ScriptRunnerTests {
    static func script(_ source: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fh-runner-\(UUID().uuidString).lua").path
        try source.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func argHoldsTheCommandLineAroundTheScript() throws {
        let path = try Self.script("result = table.concat({ arg[-1], arg[0], arg[1], arg[2], select('#', ...) }, ' ')")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let lua = try LuaState()
        let runner = ScriptRunner(commandLine: ["factoryhost", path, "a b", "c"], scriptIndex: 1)
        #expect(runner.run(in: lua) == 0)
        #expect(try lua.global("result") == LuaValue("factoryhost \(path) a b c 2"))
    }

    @Test func preludesRunFirstInOrder() throws {
        let path = try Self.script("result = order .. ' script ' .. type(s)")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let lua = try LuaState()
        var runner = ScriptRunner(commandLine: ["factoryhost", path], scriptIndex: 1)
        runner.preludes = [.execute("order = 'first'"), .execute("order = order .. ' second'"), .require("s=string")]
        #expect(runner.run(in: lua) == 0)
        #expect(try lua.global("result") == LuaValue("first second script table"))
    }

    @Test func aFailingScriptIsStatusOne() throws {
        let path = try Self.script("error('boom')")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(ScriptRunner(commandLine: ["factoryhost", path], scriptIndex: 1).run(in: try LuaState()) == 1)
        #expect(ScriptRunner(commandLine: ["factoryhost", path + ".missing"], scriptIndex: 1).run(in: try LuaState()) == 1)
    }

    @Test func theTimeLimitStopsAScriptThatSwallowsErrors() throws {
        let path = try Self.script("while true do pcall(function() while true do end end) end")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let lua = try LuaState()
        var runner = ScriptRunner(commandLine: ["factoryhost", path], scriptIndex: 1)
        runner.timeLimit = .milliseconds(200)
        runner.applyLimits(to: lua)
        lua.hardStop = .never            // (a hard stop would end this test process, were the machine too slow)
        let started = ContinuousClock.now
        #expect(runner.run(in: lua, limitsApplied: true) == 1)
        #expect(lua.lastCallHitLimit)
        #expect(ContinuousClock.now - started < .seconds(5))
    }
}
