import Foundation
import Testing

/// The comparison `Scripts/perf-guard.sh` makes in CI (the counts
/// themselves need valgrind and a release build: CI measures them).
@Suite("The performance guard fails a case over its budget")
struct PerformanceGuardTests {
    static let script = CommandRunner.packageRoot.appendingPathComponent("Scripts/perf-guard.sh").path

    func compare(budgets: String, measured: String) throws -> ProcessResult {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fh-guard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try budgets.write(to: dir.appendingPathComponent("budgets.txt"), atomically: true, encoding: .utf8)
        try measured.write(to: dir.appendingPathComponent("measured.txt"), atomically: true, encoding: .utf8)
        return try CommandRunner.run("/bin/bash", [Self.script, "--compare", dir.appendingPathComponent("budgets.txt").path,
                                                   dir.appendingPathComponent("measured.txt").path])
    }

    @Test func withinTheToleranceItPasses() throws {
        let result = try compare(budgets: "# a comment\nstartup 1000000\nresolves 5000000\n",
                                 measured: "startup 1029000\nresolves 4000000\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("startup                  1000000         1029000    1.029"))
        #expect(result.stdout.contains("(well under: lower the budget with --update)"))
    }

    @Test func overTheToleranceMissingOrUnbudgetedItFails() throws {
        let over = try compare(budgets: "startup 1000000\n", measured: "startup 1031000\n")
        #expect(over.status == 1)
        #expect(over.stdout.contains("1.031  OVER BUDGET"), "\(over)")
        #expect(over.stderr.contains("over its budget by more than 3%"))
        let unmeasured = try compare(budgets: "startup 1000000\nspec 2000000\n", measured: "startup 1000000\n")
        #expect(unmeasured.status == 1 && unmeasured.stdout.contains("spec") && unmeasured.stdout.contains("not measured"), "\(unmeasured)")
        let unbudgeted = try compare(budgets: "startup 1000000\n", measured: "startup 1000000\nnew_case 5\n")
        #expect(unbudgeted.status == 1 && unbudgeted.stdout.contains("no budget"), "\(unbudgeted)")
    }

    /// The committed budgets name every case the script measures.
    @Test func theBudgetsNameEveryCase() throws {
        let root = CommandRunner.packageRoot
        let budgets = try String(contentsOf: root.appendingPathComponent("Benchmarks/Guard/budgets.txt"), encoding: .utf8)
        let script = try String(contentsOfFile: Self.script, encoding: .utf8)
        let cases = try #require(script.components(separatedBy: "<<'CASES'\n").last?.components(separatedBy: "\nCASES").first)
        let measured = cases.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        let budgeted = budgets.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(measured.count == 7)
        #expect(measured == budgeted)
    }
}
