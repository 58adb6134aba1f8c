import Foundation
import Testing

/// A chain of registrations, each depending on the one before, resolved
/// from its far end: the whole chain nests resolves on the stack.
@Suite("Deep graphs resolve, and deeper ones fail cleanly")
struct DeepGraphTests {
    private func chain(_ count: Int) -> String {
        var lines = ["configuration \"app\" {", "  register \"table#r0\" { make = function() return { depth = 0 } end },"]
        for i in 1..<count {
            lines.append("  register \"table#r\(i)\" { deps = { prev = \"table#r\(i - 1)\" }, "
                         + "make = function(d) return { depth = d.prev.depth + 1 } end },")
        }
        lines.append("}")
        lines.append("print(container(\"app\"):resolve(\"table#r\(count - 1)\").depth)")
        return lines.joined(separator: "\n") + "\n"
    }

    private func run(_ count: Int) throws -> ProcessResult {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fh-deep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(chain(count).utf8).write(to: directory.appendingPathComponent("deep.lua"))
        return try CommandRunner.factoryhost(["run", "deep.lua"], in: directory, killAfter: 120)
    }

    @Test func thousandsOfNestedResolvesBuild() throws {
        // This debug build takes ~9 KB of stack per level (a release build
        // ~2.2 KB: the benchmark's deep20000 case resolves 20,000 levels):
        // with the 8 MiB main stack this failed near 900 levels (and under the
        // sanitizers, with larger frames still, sooner).
        let result = try run(2_000)
        #expect(result.status == 0 && result.stdout == "1999\n", "\(result)")
    }

    @Test func aChainDeeperThanTheStackIsAClearErrorNotACrash() throws {
        let result = try run(50_000)
        #expect(result.status == 1 && !result.signalled, "\(result)")
        #expect(result.stderr.contains("the graph is too deep to build:"), "\(result)")
        #expect(result.stderr.contains("resolution path: table#r49999 → table#r49998"), "\(result)")
    }
}
