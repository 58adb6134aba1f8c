import Foundation
import Testing

/// `factoryhost test --coverage`: which registrations of which
/// configurations the suite built — in worker processes, merged across
/// files, a test's own overrides left out — as text, JSON and a threshold.
@Suite("factoryhost test --coverage")
struct RegistrationCoverageTests {
    let specs = CommandRunner.fixtures.appendingPathComponent("specs")

    @Test func listsWhatNoTestBuiltByConfiguration() throws {
        let result = try CommandRunner.factoryhost(["test", "--coverage", "--jobs", "2", "coverage"], in: specs, killAfter: 60)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasSuffix("""

            3 passed, 0 failed
            registration coverage: 4 of 6 built (66.7%)
            never built:
              shop: table#basket (coverage/shop.lua:5)
              shop-tests: string#farewell (coverage/shop.lua:4)

            """), "\(result)")
        // Without the flag, nothing is recorded or printed.
        let plain = try CommandRunner.factoryhost(["test", "coverage"], in: specs, killAfter: 60)
        #expect(!plain.stdout.contains("registration coverage"), "\(plain)")
    }

    @Test func writesJSONAndFailsBelowTheMinimum() throws {
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("fh-coverage-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: json) }
        let below = try CommandRunner.factoryhost(["test", "--coverage-min", "80", "--coverage-json", json.path, "coverage"],
                                                  in: specs, killAfter: 60)
        #expect(below.status == 1, "\(below)")
        #expect(below.stderr == "factoryhost: registration coverage 66.7% is below --coverage-min 80%\n", "\(below)")
        let written = try String(contentsOf: json, encoding: .utf8)
        #expect(written.contains("\"built\": 4,\n  \"total\": 6,\n  \"percent\": 66.7,"), "\(written)")
        #expect(written.contains(#"{"configuration": "shop-tests", "key": "string#farewell", "origin": "coverage/shop.lua:4", "built": false}"#),
                "\(written)")
        let decoded = try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String: Any]
        #expect((decoded?["registrations"] as? [Any])?.count == 6)
        let above = try CommandRunner.factoryhost(["test", "--coverage-min", "60", "coverage"], in: specs, killAfter: 60)
        #expect(above.status == 0 && above.stderr.isEmpty, "\(above)")
        let bad = try CommandRunner.factoryhost(["test", "--coverage-min", "120", "coverage"], in: specs)
        #expect(bad.status == 64 && bad.stderr.hasPrefix("Error: --coverage-min: give a percentage from 0 to 100 (got 120.0)"), "\(bad)")
        let unwritable = try CommandRunner.factoryhost(["test", "--coverage-json", "/nonexistent-dir/x.json", "coverage"], in: specs, killAfter: 60)
        #expect(unwritable.status == 1 && unwritable.stderr.hasPrefix("factoryhost: --coverage-json: cannot write /nonexistent-dir/x.json"),
                "\(unwritable)")
    }
}
