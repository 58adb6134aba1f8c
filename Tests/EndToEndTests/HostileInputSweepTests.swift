import ExamplePlugins
import FactoryScripting
import Foundation
import Testing

/// Every constructor, class function, method and property of every shipped
/// plugin, called with hostile values (NaN, ±inf, huge, negative, wrong
/// types, huge strings, tables with cycles) in every position, in a child
/// process: it must finish with status 0 — no trap, no crash, no hang.
/// The member list comes from the plugins themselves, so a new export is
/// swept without anyone adding it here.
@Suite("Hostile input to every exported member never traps")
struct HostileInputSweepTests {
    /// `Fixtures/sweep/sweep.lua`'s input: every exported class of the shipped plugins.
    static func membersFile() throws -> String {
        let host = try FactoryHost(plugins: ExamplePlugins.all)
        var lines = ["return {"]
        func list(_ names: [String]) -> String { "{" + names.map { "\"\($0)\"" }.joined(separator: ", ") + "}" }
        for name in host.types.allNames {
            guard let members = host.types.members(ofClass: name), let exporter = host.types.exporter(of: name),
                  exporter.hasPrefix("plugin '") else { continue }
            let module = exporter.dropFirst("plugin '".count).dropLast()
            lines.append("  { module = \"\(module)\", name = \"\(name)\", new = \(members.hasConstructor), "
                         + "functions = \(list(members.classFunctions)), methods = \(list(members.methods)), "
                         + "properties = \(list(members.properties)), settable = \(list(members.settableProperties)) },")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func everyMemberSurvivesHostileValues() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("fh-sweep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let members = scratch.appendingPathComponent("members.lua")
        let text = try Self.membersFile()
        #expect(text.components(separatedBy: "\n").count > 30, "the plugins export their classes")
        try Data(text.utf8).write(to: members)
        let sweep = CommandRunner.fixtures.appendingPathComponent("sweep/sweep.lua").path
        let result = try CommandRunner.factoryhost(["run", "--timeout", "150", sweep, members.path], in: scratch, killAfter: 180)
        #expect(!result.signalled, "\(result)")
        #expect(result.status == 0, "\(result)")
        let summary = result.stdout.split(separator: "\n").last { $0.hasPrefix("swept ") } ?? ""
        let calls = Int(summary.split(separator: " ").dropFirst(4).first ?? "") ?? 0
        #expect(calls > 10_000, "\(result)")
        #expect(summary.hasSuffix("classes without an instance: none"), "\(result)")
    }
}
