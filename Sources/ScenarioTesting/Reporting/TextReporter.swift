import FactoryhostSupport

/// The human report: each file, its describes and tests as they finish,
/// then every failure in full (with what the test printed), then
/// `N passed, N failed[, N skipped]`.
///
/// ```text
/// cache_spec.lua
///   Cache
///     ✓ starts empty
///     ✗ counts what it holds
///
/// Failures:
///
///   1) Cache > counts what it holds
///      cache_spec.lua:9: expected 1 to be 2
///        expected: 2
///        actual:   1
///
/// 1 passed, 1 failed
/// ```
public final class TextReporter: TestReporter {
    private let colors: Bool
    /// Each test's line ends with its duration (`--profile`).
    private let showsDurations: Bool
    private let write: (String) -> Void
    private var failures: [(name: String, failure: TestFailure, output: String)] = []
    private var shownPath: [String] = []
    /// The file whose name is printed before its first result (files with
    /// no selected test print nothing).
    private var pendingFile: String?

    /// `colors`: ANSI colours (only for a terminal); `write` gets every line
    /// (by default standard output, flushed line by line, so a CI log shows
    /// each test as it finishes).
    public init(colors: Bool, durations: Bool = false, write: @escaping (String) -> Void = writeLineToStandardOutput) {
        self.colors = colors
        self.showsDurations = durations
        self.write = write
    }

    private func paint(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// Prints the seed of a shuffled run (and how to replay it).
    public func runStarted(fileCount: Int, seed: UInt64?) {
        if let seed { write("Shuffled with seed \(seed) (run again in this order with --seed \(seed))\n") }
    }

    /// Remembers the file: its name is printed before its first result.
    public func fileStarted(_ file: String) {
        pendingFile = file
        shownPath = []
    }

    private func showFile() {
        if let file = pendingFile { write(paint(Self.shown(file), "1")) }
        pendingFile = nil
    }

    /// A test's, describe's or file's name on one line of the terminal: a
    /// line break or control character in it (an escape sequence could
    /// repaint the terminal, or forge a ✓ line) is shown as Lua writes it.
    static func shown(_ name: String) -> String { nameEscaping.escaped(name) }

    private static let nameEscaping = TextEscaping(replacements: ["\n": "\\n", "\r": "\\r", "\t": "\\t"],
                                                   control: TextEscaping.shownControl, c1IsControl: true)

    /// Prints the test's line under its describes (✓, ✗ or a skip mark).
    public func testFinished(_ result: TestResult) {
        showFile()
        let describes = Array(result.test.path.dropLast())
        var common = 0
        while common < min(describes.count, shownPath.count), describes[common] == shownPath[common] { common += 1 }
        for depth in common..<describes.count {
            write(String(repeating: "  ", count: depth + 1) + Self.shown(describes[depth]))
        }
        shownPath = describes
        let indent = String(repeating: "  ", count: describes.count + 1)
        var name = Self.shown(result.test.path.last ?? result.test.name)
        if showsDurations, case .skipped = result.outcome {} else if showsDurations {
            name += paint(" (\(ProfileReporter.time(result.duration)))", "2")
        }
        switch result.outcome {
        case .passed:
            write(indent + paint("✓", "32") + " " + name)
        case .failed(let failure):
            failures.append((Self.shown(result.test.shownName), failure, result.output))
            write(indent + paint("✗", "31") + " " + name + paint(" (\(failures.count))", "31"))
        case .skipped(let reason):
            write(indent + paint("- \(name) (\(reason))", "33"))
        }
    }

    /// Prints why the file could not load, if it could not.
    public func fileFinished(_ result: FileResult) {
        if let failure = result.loadFailure {
            showFile()
            failures.append(("\(Self.shown(result.file)) (\(failure.fileStage))", failure, result.output))
            let what = failure.phase == TestFailure.closingTheFile ? "closing the file failed"
                : failure.phase == TestFailure.runningTheTests ? "the file's run broke off" : "the file failed to load"
            write("  " + paint("✗ \(what) (\(failures.count))", "31"))
        }
    }

    /// Prints every failure in full, then `N passed, N failed`.
    public func runFinished(_ summary: TestSummary, stoppedEarly: Bool) {
        if !failures.isEmpty {
            write("\nFailures:\n")
            for (number, entry) in failures.enumerated() {
                write("  \(number + 1)) \(entry.name)")
                for line in Self.detail(entry.failure) { write("     " + line) }
                if !entry.output.isEmpty {
                    write("     output:")
                    for line in Self.lines(entry.output) { write("       " + line) }
                }
                write("")
            }
        } else {
            write("")
        }
        if let signal = summary.interruptedBy {
            write("Interrupted by \(signal): the tests that finished before it.")
        } else if stoppedEarly {
            write("Stopped at the first failure (--fail-fast).")
        }
        let line = summary.line
        write(summary.failed > 0 ? paint(line, "31") : paint(line, "32"))
    }

    /// Printed output as lines (without the last newline's empty line),
    /// with no control character a terminal would act on (text and TAP
    /// show it; what a test printed is the test's).
    static func lines(_ output: String) -> [String] {
        var lines = output.reportLines().map { MessageText.terminalSafe(Substring($0).replacingTabs()) }
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// A failure's lines: where and what, then expected/actual or the
    /// traceback — with no control character a terminal would act on (a
    /// test's error text is the test's).
    static func detail(_ failure: TestFailure) -> [String] {
        var lines = failure.headline.reportLines()
        if let expected = failure.expected, let actual = failure.actual {
            lines.append("  expected: \(expected)")
            lines.append("  actual:   \(actual)")
        }
        if let traceback = failure.traceback, !traceback.isEmpty {
            lines += traceback.reportLines().map { "  " + Substring($0).replacingTabs() }
        }
        return lines.map(MessageText.terminalSafe)
    }
}

extension Substring {
    func replacingTabs() -> String {
        String(self).split(separator: "\t", omittingEmptySubsequences: false).joined(separator: "  ")
    }
}
