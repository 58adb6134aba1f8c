import Foundation
import Testing

/// `factoryhost test --coverage`: which declarations the suite built — in
/// worker processes, merged across files, each declaration once (built in a
/// container of its configuration or of one extending it), a test's own
/// overrides left out — as text, JSON and a threshold.
@Suite("factoryhost test --coverage")
struct RegistrationCoverageTests {
    let specs = CommandRunner.fixtures.appendingPathComponent("specs")

    @Test func listsWhatNoTestBuiltByConfiguration() throws {
        // However the spec files are spelled, their shared configuration module is one.
        let result = try CommandRunner.factoryhost(["test", "--coverage", "--jobs", "2", "coverage/greeting_spec.lua", "./coverage/farewell_spec.lua"],
                                                   in: specs, killAfter: 60)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasSuffix("""

            3 passed, 0 failed
            registration coverage: 4 of 5 built (80%)
            never built:
              shop-tests: string#motto (coverage/shop.lua:10)

            """), "\(result)")
        // Without the flag, nothing is recorded or printed.
        let plain = try CommandRunner.factoryhost(["test", "coverage"], in: specs, killAfter: 60)
        #expect(!plain.stdout.contains("registration coverage"), "\(plain)")
    }

    /// A file that did not load never reported its registrations: the
    /// coverage is unknown, not "0 of 0 built (100%)", and --coverage-min fails on it.
    @Test func aFileThatDidNotLoadMakesTheCoverageUnknown() throws {
        let dir = try CommandRunner.scratchDirectory(["a_spec.lua": """
            configuration "app" { register "table#a" { make = function() return {} end } }
            describe("d", { config = "app" }, function() it("t", function(c) c:resolve "table#a" end) end)
            error("late failure at top level")
            """], prefix: "fh-coverage")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["test", "--coverage", "--coverage-min", "90", "--coverage-json", "c.json", "."], in: dir, killAfter: 60)
        #expect(result.status == 1)
        #expect(result.stdout.contains("registration coverage: 0 of 0 built (unknown) — 1 spec file did not load (a_spec.lua): "
                                       + "its registrations were never counted"), "\(result)")
        #expect(result.stderr.contains("registration coverage is unknown, so --coverage-min cannot be met"), "\(result)")
        let json = try String(contentsOf: dir.appendingPathComponent("c.json"), encoding: .utf8)
        #expect(json.contains("\"percent\": null,\n  \"unloaded\": [\"a_spec.lua\"]"), "\(json)")
    }

    /// Nothing to cover is no coverage met: "0 of 0 built (100%)" passed
    /// `--coverage-min 70` (attack 12), as a mistyped spec path would.
    @Test func nothingToCoverMeetsNoMinimum() throws {
        let dir = try CommandRunner.scratchDirectory(["a_spec.lua": "it('t', function() end)\n"], prefix: "fh-coverage")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["test", "--coverage", "--coverage-min", "70", "."], in: dir, killAfter: 60)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("registration coverage: 0 of 0 built (unknown) — the spec files declare no registration: there is nothing to cover"),
                "\(result)")
        #expect(result.stderr.contains("registration coverage is unknown, so --coverage-min cannot be met"), "\(result)")
        // Without a minimum, the run's own result stands.
        #expect(try CommandRunner.factoryhost(["test", "--coverage", "."], in: dir, killAfter: 60).status == 0)
    }

    @Test func writesJSONAndFailsBelowTheMinimum() throws {
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("fh-coverage-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: json) }
        let below = try CommandRunner.factoryhost(["test", "--coverage-min", "85", "--coverage-json", json.path, "coverage"],
                                                  in: specs, killAfter: 60)
        #expect(below.status == 1, "\(below)")
        #expect(below.stderr == "factoryhost: registration coverage 80% (4 of 5) is below --coverage-min 85%\n", "\(below)")
        let written = try String(contentsOf: json, encoding: .utf8)
        #expect(written.contains("\"built\": 4,\n  \"total\": 5,\n  \"percent\": 80,"), "\(written)")
        #expect(written.contains(#"{"configuration": "shop-tests", "key": "string#motto", "origin": "coverage/shop.lua:10", "built": false}"#),
                "\(written)")
        // shop's basket, built only by a test of shop-tests, is shop's declaration built.
        #expect(written.contains(#"{"configuration": "shop", "key": "table#basket", "origin": "coverage/shop.lua:5", "built": true}"#),
                "\(written)")
        let decoded = try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String: Any]
        #expect((decoded?["registrations"] as? [Any])?.count == 5)
        let above = try CommandRunner.factoryhost(["test", "--coverage-min", "60", "coverage"], in: specs, killAfter: 60)
        #expect(above.status == 0 && above.stderr.isEmpty, "\(above)")
        let bad = try CommandRunner.factoryhost(["test", "--coverage-min", "120", "coverage"], in: specs)
        #expect(bad.status == 64 && bad.stderr.hasPrefix("Error: --coverage-min: give a percentage from 0 to 100 (got 120.0)"), "\(bad)")
        #if os(Linux)
        let full = try CommandRunner.factoryhost(["test", "--coverage-json", "/dev/full", "coverage"], in: specs, killAfter: 60)
        #expect(full.status == 1 && full.stderr.hasPrefix("factoryhost: --coverage-json: cannot write /dev/full: No space left on device"),
                "\(full)")
        #endif
        let unwritable = try CommandRunner.factoryhost(["test", "--coverage-json", "/nonexistent-dir/x.json", "coverage"], in: specs, killAfter: 60)
        #expect(unwritable.status == 1 && unwritable.stderr.hasPrefix("factoryhost: --coverage-json: cannot write /nonexistent-dir/x.json"),
                "\(unwritable)")
    }

    /// A long extends chain is as many entries as declarations (it was one
    /// per configuration × inherited registration: 2,000 levels made two
    /// million rows); a parameter change is not an entry of its own.
    @Test func anExtendsChainIsOneEntryPerDeclaration() throws {
        let dir = try CommandRunner.scratchDirectory(["chain_spec.lua": """
            configuration "c0" { register "string#s0" { params = { word = "w" }, make = function(d) return d.word end } }
            for i = 1, 2000 do
              configuration("c" .. i) { extends = "c" .. (i - 1), register("string#s" .. i) { make = function() return "x" end } }
            end
            configuration "changed" { extends = "c2000", register "string#s0" { override = true, params = { word = "v" } } }
            it("builds the first, changed", { config = "changed" }, function(c) expect(c:resolve "string#s0"):to_be("v") end)
            """], prefix: "fh-coverage")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CommandRunner.factoryhost(["test", "--coverage", "--coverage-json", "c.json", "."], in: dir, killAfter: 60)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("registration coverage: 1 of 2001 built (0%)"), "\(result)")
        let json = try String(contentsOf: dir.appendingPathComponent("c.json"), encoding: .utf8)
        #expect(json.contains(#"{"configuration": "c0", "key": "string#s0", "origin": "chain_spec.lua:1", "built": true}"#), "\(json.prefix(600))")
    }

    /// A test's builds count — not the file's top level, not a factory that
    /// failed — and those of a test whose worker died later are kept.
    @Test func countsWhatTestsBuiltEvenIfTheirWorkerDiesLater() throws {
        let result = try CommandRunner.factoryhost(["test", "--coverage", "--timeout", "300ms", "coverage_edges"], in: specs, killAfter: 60)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.hasSuffix("""
            3 passed, 1 failed
            registration coverage: 2 of 4 built (50%)
            never built:
              edges: string#top (coverage_edges/edges_spec.lua:5)
              edges: string#fails (coverage_edges/edges_spec.lua:6)

            """), "\(result)")
    }

    /// With --reporter json (or tap) the stream stays one format: the
    /// coverage is a JSON object (a TAP comment).
    @Test func jsonAndTapStreamsStayWhole() throws {
        let json = try CommandRunner.factoryhost(["test", "--reporter", "json", "--coverage", "coverage"], in: specs, killAfter: 60)
        let objects = try json.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        let coverage = try #require(objects.last)
        #expect(coverage["type"] as? String == "coverage" && coverage["built"] as? Int == 4 && coverage["total"] as? Int == 5, "\(coverage)")
        #expect((coverage["neverBuilt"] as? [[String: Any]])?.count == 1)
        let tap = try CommandRunner.factoryhost(["test", "--reporter", "tap", "--coverage", "coverage"], in: specs, killAfter: 60)
        #expect(tap.stdout.hasSuffix("# registration coverage: 4 of 5 built (80%)\n# never built:\n"
                                     + "#   shop-tests: string#motto (coverage/shop.lua:10)\n"), "\(tap)")
    }
}
