import Foundation
import Testing

/// `--timeout` covers the whole command, start to exit (#38): a script,
/// values file or LUA_INIT file that is a FIFO nobody writes blocked
/// run, check and graph forever, before any deadline started.
@Suite("A deadline covers the whole command")
struct WholeCommandDeadlineTests {
    struct Case: CustomStringConvertible, Sendable {
        var arguments: [String]
        var environment: [String: String] = [:]
        var description: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: ["run", "--timeout", "1", "fifo.lua"]),
        Case(arguments: ["check", "--timeout", "1", "fifo.lua"]),
        Case(arguments: ["graph", "--timeout", "1", "fifo.lua"]),
        Case(arguments: ["check", "--timeout", "1", "--values", "fifo.lua", "app.lua"]),
        Case(arguments: ["run", "--timeout", "1", "app.lua"], environment: ["LUA_INIT": "@fifo.lua"]),
    ]

    @Test(arguments: cases)
    func aFIFONobodyWritesEndsWithTheLimit(_ test: Case) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("configuration \"app\" {}\n".utf8).write(to: dir.appendingPathComponent("app.lua"))
        #expect(mkfifo(dir.appendingPathComponent("fifo.lua").path, 0o600) == 0)
        let result = try CommandRunner.factoryhost(test.arguments, in: dir, environment: test.environment, killAfter: 20)
        #expect(!result.signalled, "blocked until killed: \(result)")
        #expect(result.status == 1, "\(result)")
        // (A values file that is a FIFO is refused at once, by every command.)
        let said = test.arguments.contains("--values") ? "values file fifo.lua: not a regular file (a FIFO)" : "time limit exceeded (1.0 seconds)"
        #expect(result.stderr.contains(said), "\(result)")
        #expect(result.seconds < 4.5, "\(result)")
    }
}
