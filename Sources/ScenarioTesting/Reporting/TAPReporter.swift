import FactoryhostSupport

/// The Test Anything Protocol (version 13) on standard output: one `ok` /
/// `not ok` line per test, a YAML block for each failure, what the test
/// printed as `# ` lines after it, `# SKIP` for pending tests, the plan at
/// the end, then `# N passed, N failed`.
///
/// ```text
/// TAP version 13
/// ok 1 - Cache > starts empty
/// not ok 2 - Cache > counts what it holds
///   ---
///   message: "expected 1 to be 2"
///   at: "cache_spec.lua:9"
///   expected: "2"
///   actual: "1"
///   ...
/// 1..2
/// # 1 passed, 1 failed
/// ```
public final class TAPReporter: TestReporter {
    private let write: (String) -> Void
    /// A `# time=…` comment after each test (`--profile`).
    private let showsDurations: Bool
    private var count = 0

    /// `write` gets every line (by default standard output, flushed line by line).
    public init(durations: Bool = false, write: @escaping (String) -> Void = writeLineToStandardOutput) {
        self.showsDurations = durations
        self.write = write
    }

    /// Writes `TAP version 13` (and the seed of a shuffled run).
    public func runStarted(fileCount: Int, seed: UInt64?) {
        write("TAP version 13")
        if let seed { write("# shuffled with seed \(seed)") }
    }

    /// Writes `# <file>`.
    public func fileStarted(_ file: String) { write("# \(MessageText.oneLine(file))") }

    /// Writes `ok` or `not ok` (with a YAML block for a failure), then what the test printed as `# ` lines.
    public func testFinished(_ result: TestResult) {
        count += 1
        let name = Self.escape(result.test.shownName)
        switch result.outcome {
        case .passed:
            write("ok \(count) - \(name)")
        case .skipped(let reason):
            write("ok \(count) - \(name) # SKIP \(Self.escape(reason))")
        case .failed(let failure):
            write("not ok \(count) - \(name)")
            yaml(failure)
        }
        if showsDurations { write("# time=" + ProfileReporter.time(result.duration).filter { $0 != " " }) }
        comment(result.output)
    }

    /// Printed output as `# ` comment lines (a TAP consumer shows them as diagnostics).
    private func comment(_ output: String) {
        for line in TextReporter.lines(output) { write(line.isEmpty ? "#" : "# " + line) }
    }

    /// Writes a `not ok` line if the file could not load.
    public func fileFinished(_ result: FileResult) {
        guard let failure = result.loadFailure else {
            if !result.output.isEmpty {
                write("# printed by \(MessageText.oneLine(result.file)) outside its tests:")
                comment(result.output)
            }
            return
        }
        count += 1
        write("not ok \(count) - \(Self.escape(result.file)) (\(failure.fileStage))")
        yaml(failure)
        comment(result.output)
    }

    /// Writes the plan (`1..N`) and `# N passed, N failed`.
    public func runFinished(_ summary: TestSummary, stoppedEarly: Bool) {
        if let signal = summary.interruptedBy {
            write("Bail out! Interrupted by \(signal).")
        } else if stoppedEarly {
            write("Bail out! Stopped at the first failure (--fail-fast).")
        }
        write("1..\(count)")
        write("# \(summary.line)")
    }

    private func yaml(_ failure: TestFailure) {
        write("  ---")
        write("  message: \(Self.quoted(failure.phase.map { "in \($0): " + failure.message } ?? failure.message))")
        write("  severity: \(failure.kind == .expectation ? "fail" : failure.kind.rawValue)")
        if let location = failure.location { write("  at: \(Self.quoted(location))") }
        if let expected = failure.expected { write("  expected: \(Self.quoted(expected))") }
        if let actual = failure.actual { write("  actual: \(Self.quoted(actual))") }
        if let traceback = failure.traceback, !traceback.isEmpty { write("  traceback: \(Self.quoted(traceback))") }
        write("  ...")
    }

    /// `#` starts a directive in a TAP test line, so names escape it; a
    /// line break becomes a space, and any other control character is
    /// written as Lua writes it (`\27`), as the text report does: an escape
    /// sequence in a name must not reach the terminal of whoever reads the log.
    static func escape(_ name: String) -> String { nameEscaping.escaped(name.oneLine()) }

    private static let nameEscaping = TextEscaping(replacements: ["\\": "\\\\", "#": "\\#", "\t": "\\t"],
                                                   control: TextEscaping.shownControl, c1IsControl: true)

    /// A YAML double-quoted scalar.
    static func quoted(_ text: String) -> String { TextEscaping.yaml.quoted(text) }
}
