import ExamplePlugins
import FactoryRegistry
import FactoryScripting
import Foundation
import LuaBridge
import ScenarioTesting

/// The fuzz targets: each takes one input (bytes a fuzzer made, or a corpus
/// file) and must return without crashing, however bad the input. Errors
/// are the expected outcome; a trap, a crash or a hang is a finding.
enum FuzzTargets {
    static let names = ["dsl", "spec", "values"]

    static func run(_ name: String, _ input: [UInt8]) {
        switch name {
        case "dsl": dsl(input)
        case "spec": spec(input)
        case "values": values(input)
        default: break
        }
    }

    /// A host with the limits every input runs under: sandboxed (only the
    /// plugins that reach nothing outside the process), 1 s, 64 MB, 20M instructions.
    static func host() throws -> FactoryHost {
        let host = try FactoryHost(plugins: ExamplePlugins.all, libraries: .sandboxed)
        host.lua.timeLimit = .seconds(1)
        host.lua.memoryLimit = 64 << 20
        host.lua.instructionLimit = 20_000_000
        return host
    }

    /// A script declaring configurations: run, then validated and graphed
    /// the way `check` and `graph` do.
    static func dsl(_ input: [UInt8]) {
        guard let host = try? host() else { return }
        defer { host.lua.close() }
        _ = try? host.lua.load(bytes: input, chunkName: "=fuzz.lua").call()
        _ = try? host.finishScript()
        let registry = host.registry
        _ = registry.validate()
        for name in registry.configurationNames {
            _ = try? registry.graph(of: name)
            _ = try? host.container(name)
        }
    }

    /// A spec file, through the test runner (a fresh host per file, a
    /// container per test, reporters).
    static func spec(_ input: [UInt8]) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("fuzz_spec.lua")
        guard (try? Data(input).write(to: file)) != nil else { return }
        var options = TestOptions()
        options.timeLimit = 1
        let runner = TestRunner(files: [file.path], options: options) { try FuzzTargets.host() }
        _ = runner.run(reporter: SilentReporter())
        _ = runner.list()
    }

    /// Whatever a chunk returns, read as every Swift type the bridge
    /// converts to, and pushed back.
    static func values(_ input: [UInt8]) {
        guard let lua = try? LuaState(libraries: .sandboxed) else { return }
        defer { lua.close() }
        lua.timeLimit = .seconds(1)
        lua.memoryLimit = 64 << 20
        lua.instructionLimit = 20_000_000
        guard let results = try? lua.load(bytes: input, chunkName: "=values.lua").call() else { return }
        for value in results {
            _ = try? Int.fromLua(value)
            _ = try? Double.fromLua(value)
            _ = try? String.fromLua(value)
            _ = try? Bool.fromLua(value)
            _ = try? LuaString.fromLua(value)
            _ = try? [String].fromLua(value)
            _ = try? [Int].fromLua(value)
            _ = try? [Double?].fromLua(value)
            _ = try? [String: Int].fromLua(value)
            _ = try? [String: [String: Double]].fromLua(value)
            _ = try? [Int: [String]].fromLua(value)
            _ = try? value.toLua(in: lua)
            _ = value.description
            if case .table(let table) = value {
                _ = try? table.pairs()
                _ = try? table.array()
            }
        }
    }
}

/// Discards every report.
final class SilentReporter: TestReporter {
    func runStarted(fileCount: Int, seed: UInt64?) {}
    func fileStarted(_ file: String) {}
    func testFinished(_ result: TestResult) {}
    func fileFinished(_ result: FileResult) {}
    func runFinished(_ summary: TestSummary, stoppedEarly: Bool) {}
}
