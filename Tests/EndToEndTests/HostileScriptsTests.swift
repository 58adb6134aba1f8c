import Foundation
import Testing

/// `Fixtures/hostile/*.lua`: one script per way of outliving a limit or
/// trapping the host. Each says how to run it and what must come out:
///
///     -- args: --timeout 1                   (options before the script)
///     -- status: 1                           (the exit status)
///     -- stderr: time limit exceeded (…)     (text the first stderr line contains)
///
/// Every one must end by itself, without a signal, within its time limit
/// plus the one-second hard stop (and a little for a slow machine).
@Suite("Hostile scripts end on time, with their message, never by a signal")
struct HostileScriptsTests {
    struct Fixture: CustomStringConvertible, Sendable {
        var file: String
        var arguments: [String]
        var status: Int32
        var stderr: String
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
                if words.hasPrefix("args: ") {
                    fixture.arguments = words.dropFirst(6).split(separator: " ").map(String.init)
                } else if words.hasPrefix("status: ") {
                    fixture.status = Int32(words.dropFirst(8)) ?? -1
                } else if words.hasPrefix("stderr: ") {
                    fixture.stderr = String(words.dropFirst(8))
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
        let result = try CommandRunner.factoryhost(["run"] + fixture.arguments + [fixture.file],
                                                   in: Self.directory, killAfter: fixture.timeout + 20)
        #expect(!result.signalled, "\(result)")
        #expect(result.status == fixture.status, "\(result)")
        #expect(result.stderr.contains(fixture.stderr), "\(result)")
        if fixture.timeout > 0 {
            // The limit plus the hard stop's second, plus slack for a loaded machine.
            #expect(result.seconds < fixture.timeout + 1 + 1.5, "\(result)")
            #expect(result.seconds >= fixture.timeout * 0.9, "stopped before its limit: \(result)")
        }
    }
}
